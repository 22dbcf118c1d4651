//! Order listings: a user's orders, orders by status (optionally within dates) merged from the
//! status shards, and orders by date range across statuses, merged from the day shards.

use std::collections::BTreeMap;

use monotable::QueryRequest;
use time::OffsetDateTime;

use super::{Order, Status, day_shards};
use crate::Shop;
use crate::error::{ShopError, invalid_cursor};
use crate::patterns::{
    ListOrdersByDay, ListOrdersByStatus, ListOrdersByStatusInRange, ListUserOrders,
};
use crate::products::{self, PageBody};
use crate::time_util::{self, Bound};

/// A user's orders, newest first.
pub async fn for_user(
    shop: &Shop,
    user_id: &str,
    limit: i32,
    cursor: Option<&str>,
) -> Result<PageBody<Order>, ShopError> {
    crate::users::validate_user_id(user_id)?;
    let user_id = user_id.to_string();
    products::list(shop, ListUserOrders { user_id }.request(), limit, cursor).await
}

/// The times of a date range: `from` from its first instant, `to` through its last millisecond
/// (the pattern's upper bound takes in every order of that millisecond); a missing end is the
/// earliest or the latest time a key holds.
fn range(
    from: Option<&str>,
    to: Option<&str>,
) -> Result<(OffsetDateTime, OffsetDateTime), ShopError> {
    let from = match from {
        Some(f) => time_util::parse_bound("from", f, Bound::Start)?,
        None => time_util::earliest(),
    };
    let to = match to {
        Some(t) => time_util::parse_bound("to", t, Bound::End)?,
        None => time_util::latest(),
    };
    if from > to {
        return Err(ShopError::invalid("invalid_range", "`from` is after `to`"));
    }
    Ok((from, to))
}

/// Orders in `status`, newest first, optionally within `from..=to`. Each status is written to
/// [`day_shards`] partitions (no status is a hot partition); a page queries every shard and
/// merges them.
pub async fn by_status(
    shop: &Shop,
    status: Status,
    from: Option<&str>,
    to: Option<&str>,
    limit: i32,
    cursor_text: Option<&str>,
) -> Result<PageBody<Order>, ShopError> {
    let limit = page_size(limit)?;
    let ranged = from.is_some() || to.is_some();
    let (from, to) = range(from, to)?;
    let scope = format!(
        "listOrdersByStatus|{}|{}|{}",
        status.as_str(),
        time_util::format_ts(from),
        time_util::format_ts(to)
    );
    let after = match cursor_text {
        Some(c) => Some(open_cursor(shop, &scope, c)?),
        None => None,
    };
    let top = after.as_ref().map_or(to, |(t, _)| *t);
    let whole = !ranged && after.is_none();
    let orders = read_shards(shop, limit + 1, after.as_ref(), |shard| {
        if whole {
            ListOrdersByStatus { status, shard }.request()
        } else {
            let to = top;
            ListOrdersByStatusInRange {
                status,
                shard,
                from,
                to,
            }
            .request()
        }
    })
    .await?;
    finish(shop, &scope, orders, limit)
}

/// A page size checked against the listing rules.
fn page_size(limit: i32) -> Result<usize, ShopError> {
    usize::try_from(crate::rules::LIMIT.check(i64::from(limit))?).map_err(ShopError::internal)
}

/// Where a page of a merged listing ends: the last order returned, in listing order (newest
/// first: by creation time, then by id).
fn position(o: &Order) -> (OffsetDateTime, &str) {
    (o.created_at, o.order_id.as_str())
}

/// Add `orders` to `collected`, newest first, keeping the first `limit + 1` (one more than a
/// page, to know whether more follow).
fn merge(collected: &mut Vec<Order>, orders: Vec<Order>, limit: usize) {
    collected.extend(orders);
    collected.sort_by(|a, b| position(b).cmp(&position(a)));
    collected.truncate(limit + 1);
}

/// The page of the first `limit` merged orders, with a cursor at the last one when more follow.
fn finish(
    shop: &Shop,
    scope: &str,
    mut collected: Vec<Order>,
    limit: usize,
) -> Result<PageBody<Order>, ShopError> {
    let next_cursor = if collected.len() > limit {
        let last = &collected[limit - 1];
        Some(seal_cursor(shop, scope, last)?)
    } else {
        None
    };
    collected.truncate(limit);
    Ok(PageBody {
        items: collected,
        next_cursor,
    })
}

/// Orders created within `from..=to` across all statuses, newest first. Each day is written to
/// [`day_shards`] partitions so no day is a hot partition; a page queries the shards of each day,
/// newest day first, and merges them. At most [`crate::ShopOptions::max_range_days`] days
/// ([`super::MAX_RANGE_DAYS`] by default).
pub async fn by_date(
    shop: &Shop,
    from: &str,
    to: &str,
    limit: i32,
    cursor_text: Option<&str>,
) -> Result<PageBody<Order>, ShopError> {
    let limit = page_size(limit)?;
    let (from_t, to_t) = range(Some(from), Some(to))?;
    let days = (to_t.date() - from_t.date()).whole_days() + 1;
    let max_days = shop.options().max_range_days;
    if days > max_days {
        return Err(ShopError::invalid(
            "range_too_long",
            format!("a date range spans at most {max_days} days; this one spans {days}"),
        ));
    }
    let scope = format!(
        "listOrdersByDay|{}|{}",
        time_util::format_ts(from_t),
        time_util::format_ts(to_t)
    );
    let after = match cursor_text {
        Some(c) => Some(open_cursor(shop, &scope, c)?),
        None => None,
    };
    let top = after.as_ref().map_or(to_t, |(t, _)| *t);
    let mut collected: Vec<Order> = Vec::new();
    let mut day = top.date();
    while day >= from_t.date() && collected.len() <= limit {
        let want = limit + 1 - collected.len();
        let orders = read_shards(shop, want, after.as_ref(), |shard| {
            let (from, to) = (from_t, top);
            ListOrdersByDay {
                day,
                shard,
                from,
                to,
            }
            .request()
        })
        .await?;
        merge(&mut collected, orders, limit);
        day = match day.previous_day() {
            Some(d) => d,
            None => break,
        };
    }
    finish(shop, &scope, collected, limit)
}

/// A listing's position: `(createdAt, orderId)` of the last order of the previous page.
type After = (OffsetDateTime, String);

/// The newest `want` orders across the write shards that come after `after` (fewer when the
/// shards hold fewer), newest first; `request(shard)` is one shard's query. Each shard is read
/// a little at a time, about its share of the page, and read further only while the oldest of
/// its orders read so far could still be in the page: a page of 20 over 8 shards reads a few
/// dozen orders, not 8 × 21. The shards are read concurrently.
async fn read_shards(
    shop: &Shop,
    want: usize,
    after: Option<&After>,
    request: impl Fn(u32) -> QueryRequest<Order>,
) -> Result<Vec<Order>, ShopError> {
    let shards = day_shards();
    let share = want.div_ceil(usize::try_from(shards).unwrap_or(1)) + 1;
    let mut read: Vec<Vec<Order>> = (0..shards).map(|_| Vec::new()).collect();
    let mut pending: Vec<(u32, Option<String>)> = (0..shards).map(|s| (s, None)).collect();
    let mut round = 0;
    while !pending.is_empty() {
        let take = share << round.min(6);
        let mut reads = tokio::task::JoinSet::new();
        for (shard, cursor) in pending.drain(..) {
            let table = shop.db().clone();
            let request = request(shard).limit(take);
            reads.spawn(async move {
                let page = request.cursor(cursor.as_deref()).send(&table).await;
                (shard, page)
            });
        }
        let mut more = Vec::new();
        while let Some(joined) = reads.join_next().await {
            let (shard, page) = joined.map_err(ShopError::internal)?;
            let page = page?;
            let kept = page.items.into_iter().filter(|o| is_after(o, after));
            read[shard as usize].extend(kept);
            more.extend(page.next_cursor.map(|c| (shard, c)));
        }
        let cutoff = cutoff(&read, want);
        for (shard, cursor) in more {
            let oldest = read[shard as usize].last().map(position);
            if cutoff.is_none() || oldest.is_none() || oldest > cutoff {
                pending.push((shard, Some(cursor)));
            }
        }
        round += 1;
    }
    let mut orders: Vec<Order> = read.into_iter().flatten().collect();
    orders.sort_by(|a, b| position(b).cmp(&position(a)));
    orders.truncate(want);
    Ok(orders)
}

/// Whether `o` comes after the listing's position (newer orders come first).
fn is_after(o: &Order, after: Option<&After>) -> bool {
    after.is_none_or(|(t, id)| position(o) < (*t, id.as_str()))
}

/// The position of the `want`-th newest order read, when that many were: an older order cannot
/// be in the page.
fn cutoff(read: &[Vec<Order>], want: usize) -> Option<(OffsetDateTime, &str)> {
    let mut all: Vec<(OffsetDateTime, &str)> = read.iter().flatten().map(position).collect();
    all.sort_by(|a, b| b.cmp(a));
    all.get(want.checked_sub(1)?).copied()
}

fn seal_cursor(shop: &Shop, scope: &str, last: &Order) -> Result<String, ShopError> {
    let at = BTreeMap::from([
        (
            "createdAt".to_string(),
            time_util::format_ts(last.created_at),
        ),
        ("orderId".to_string(), last.order_id.clone()),
    ]);
    shop.db()
        .seal_position(scope, at)
        .ok_or_else(|| ShopError::internal("no randomness to seal a cursor"))
}

fn open_cursor(
    shop: &Shop,
    scope: &str,
    cursor: &str,
) -> Result<(OffsetDateTime, String), ShopError> {
    let mut at = shop
        .db()
        .open_position(scope, cursor)
        .map_err(|_| invalid_cursor())?;
    let created = at.remove("createdAt").ok_or_else(invalid_cursor)?;
    let created =
        time_util::parse_bound("cursor", &created, Bound::Start).map_err(|_| invalid_cursor())?;
    let order_id = at.remove("orderId").ok_or_else(invalid_cursor)?;
    Ok((created, order_id))
}
