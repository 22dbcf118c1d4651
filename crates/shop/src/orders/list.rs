//! Order listings: a user's orders, orders by status (optionally within dates) merged from the
//! status shards, and orders by date range across statuses, merged from the day shards.

use std::collections::BTreeMap;
use std::future::Future;

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
/// [`day_shards`] partitions (as many as the model's traffic needs, so no status is a hot
/// partition); a page queries every shard and merges them.
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
/// [`day_shards`] partitions (as many as the model's traffic needs); a page queries the shards
/// of each day, newest day first, and merges them. At most
/// [`crate::ShopOptions::max_range_days`] days ([`super::MAX_RANGE_DAYS`] by default).
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

/// The newest `want` orders across the model's [`day_shards`] write shards that come after
/// `after`, newest first; `request(shard)` is one shard's query. See [`merge_shards`].
async fn read_shards(
    shop: &Shop,
    want: usize,
    after: Option<&After>,
    request: impl Fn(u32) -> QueryRequest<Order>,
) -> Result<Vec<Order>, ShopError> {
    let table = shop.db().clone();
    merge_shards(day_shards(), want, after, |shard, take, cursor| {
        let table = table.clone();
        let request = request(shard).limit(take);
        async move {
            let page = request.cursor(cursor.as_deref()).send(&table).await?;
            Ok((page.items, page.next_cursor))
        }
    })
    .await
}

/// One read of one shard: its next orders, newest first, and the cursor of the rest.
type ShardPage = (Vec<Order>, Option<String>);

/// The newest `want` orders across `shards` write shards that come after `after` (fewer when the
/// shards hold fewer), newest first; `read(shard, take, cursor)` reads up to `take` more orders
/// of one shard from `cursor`. Each shard is read a little at a time, about its share of the
/// page, and read further only while the oldest of its orders read so far could still be in the
/// page: a page of 20 over 8 shards reads a few dozen orders, not 8 × 21. The shards are read
/// concurrently.
async fn merge_shards<R, F>(
    shards: u32,
    want: usize,
    after: Option<&After>,
    read: R,
) -> Result<Vec<Order>, ShopError>
where
    R: Fn(u32, usize, Option<String>) -> F,
    F: Future<Output = Result<ShardPage, ShopError>> + Send + 'static,
{
    let shards = shards.max(1);
    let share = want.div_ceil(usize::try_from(shards).unwrap_or(1)) + 1;
    let mut got: Vec<Vec<Order>> = (0..shards).map(|_| Vec::new()).collect();
    let mut pending: Vec<(u32, Option<String>)> = (0..shards).map(|s| (s, None)).collect();
    let mut round = 0;
    while !pending.is_empty() {
        let take = share << round.min(6);
        let mut reads = tokio::task::JoinSet::new();
        for (shard, cursor) in pending.drain(..) {
            let page = read(shard, take, cursor);
            reads.spawn(async move { (shard, page.await) });
        }
        let mut more = Vec::new();
        while let Some(joined) = reads.join_next().await {
            let (shard, page) = joined.map_err(ShopError::internal)?;
            let (items, next) = page?;
            let kept = items.into_iter().filter(|o| is_after(o, after));
            got[slot(shard)].extend(kept);
            more.extend(next.map(|c| (shard, c)));
        }
        let cutoff = cutoff(&got, want);
        for (shard, cursor) in more {
            let oldest = got[slot(shard)].last().map(position);
            if cutoff.is_none() || oldest.is_none() || oldest > cutoff {
                pending.push((shard, Some(cursor)));
            }
        }
        round += 1;
    }
    let mut orders: Vec<Order> = got.into_iter().flatten().collect();
    orders.sort_by(|a, b| position(b).cmp(&position(a)));
    orders.truncate(want);
    Ok(orders)
}

/// The index of `shard` among the shards read (a `u32` always fits a `usize` here).
fn slot(shard: u32) -> usize {
    usize::try_from(shard).unwrap_or(usize::MAX)
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use proptest::prelude::*;
    use rust_decimal::Decimal;

    use super::*;
    use crate::orders::shard_of;

    /// An order created `second` seconds into a fixed day.
    fn order(id: String, second: i64) -> Order {
        let created = OffsetDateTime::from_unix_timestamp(1_780_000_000 + second).unwrap();
        Order {
            order_id: id,
            user_id: "u".to_string(),
            status: Status::Pending,
            total: Decimal::ONE,
            currency: "EUR".to_string(),
            item_count: 1,
            created_at: created,
            day: created.date(),
            shard: 0,
            updated_at: created,
            version: 1,
            items: None,
        }
    }

    /// `orders` written to `shards` shards by their ids' hash, each shard newest first, as its
    /// index returns them.
    fn spread(orders: &[Order], shards: u32) -> Vec<Vec<Order>> {
        let mut by_shard: Vec<Vec<Order>> = (0..shards).map(|_| Vec::new()).collect();
        for o in orders {
            let mut o = o.clone();
            o.shard = shard_of(&o.order_id, shards);
            by_shard[slot(o.shard)].push(o);
        }
        for s in &mut by_shard {
            s.sort_by(|a, b| position(b).cmp(&position(a)));
        }
        by_shard
    }

    /// Merge `shards` through pages of the requested size (the cursor is an offset); returns the
    /// merged orders and how many orders were read.
    fn merged(stored: Vec<Vec<Order>>, want: usize, after: Option<&After>) -> (Vec<Order>, usize) {
        let shards = u32::try_from(stored.len()).unwrap();
        let stored = Arc::new(stored);
        let read = Arc::new(AtomicUsize::new(0));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let orders = runtime
            .block_on(merge_shards(shards, want, after, |shard, take, cursor| {
                let (stored, read) = (stored.clone(), read.clone());
                async move {
                    let all = &stored[slot(shard)];
                    let start: usize = cursor.map_or(0, |c| c.parse().unwrap());
                    let end = (start + take).min(all.len());
                    read.fetch_add(end - start, Ordering::Relaxed);
                    let next = (end < all.len()).then(|| end.to_string());
                    Ok((all[start..end].to_vec(), next))
                }
            }))
            .unwrap();
        (orders, read.load(Ordering::Relaxed))
    }

    fn ids(orders: &[Order]) -> Vec<&str> {
        orders.iter().map(|o| o.order_id.as_str()).collect()
    }

    #[test]
    fn a_page_over_eight_shards_reads_a_few_dozen_orders() {
        let orders: Vec<Order> = (0..800).map(|i| order(format!("o{i:04}"), i)).collect();
        let stored = spread(&orders, 8);
        assert!(
            stored.iter().all(|s| s.len() > 50),
            "every shard holds orders"
        );
        let (page, read) = merged(stored, 21, None);
        let newest: Vec<String> = (779..800).rev().map(|i| format!("o{i:04}")).collect();
        assert_eq!(ids(&page), newest);
        assert!((21..8 * 21).contains(&read), "read {read} orders");
    }

    #[test]
    fn one_shard_is_read_as_it_is() {
        let orders: Vec<Order> = (0..30).map(|i| order(format!("o{i:02}"), i / 3)).collect();
        let (page, read) = merged(spread(&orders, 1), 10, None);
        let mut expected = orders.clone();
        expected.sort_by(|a, b| position(b).cmp(&position(a)));
        assert_eq!(ids(&page), ids(&expected[..10]));
        assert!(read <= 30, "read {read}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Whatever the shard count, the merge gives the page a sort of every order would:
        /// newest first, ties in time by id, after the position, `want` of them.
        #[test]
        fn the_merge_is_the_sorted_page(
            shards in 1_u32..=8,
            seconds in proptest::collection::vec(0_i64..20, 0..80),
            want in 1_usize..30,
            after_at in proptest::option::of(0_usize..80),
        ) {
            let orders: Vec<Order> = seconds
                .iter()
                .enumerate()
                .map(|(i, s)| order(format!("o{i:03}"), *s))
                .collect();
            let mut sorted = orders.clone();
            sorted.sort_by(|a, b| position(b).cmp(&position(a)));
            let after: Option<After> = after_at
                .and_then(|i| sorted.get(i))
                .map(|o| (o.created_at, o.order_id.clone()));
            let expected: Vec<&str> = sorted
                .iter()
                .filter(|o| is_after(o, after.as_ref()))
                .take(want)
                .map(|o| o.order_id.as_str())
                .collect();
            let (page, _) = merged(spread(&orders, shards), want, after.as_ref());
            prop_assert_eq!(ids(&page), expected);
        }
    }
}
