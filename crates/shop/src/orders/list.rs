//! Order listings: a user's orders, orders by status (optionally within dates), and orders by
//! date range across statuses, merged from the day shards.

use std::collections::BTreeMap;

use monotable_access::items::{self, Item};
use monotable_access::pattern::{self, PageRequest};

use super::{DAY_SHARDS, Order, Status, order_from_item};
use crate::Shop;
use crate::cursor;
use crate::error::ShopError;
use crate::products::{self, Page};
use crate::time_util::{self, Bound};

/// A user's orders, newest first.
pub async fn for_user(
    shop: &Shop,
    user_id: &str,
    limit: i32,
    cursor: Option<&str>,
) -> Result<Page<Order>, ShopError> {
    crate::users::validate_user_id(user_id)?;
    products::list(
        shop,
        "listUserOrders",
        &format!("listUserOrders|{user_id}"),
        &|name| (name == "userId").then(|| user_id.to_string()),
        limit,
        cursor,
        order_from_item,
    )
    .await
}

/// Sort-key bounds of a date range: `from` inclusive, `to` inclusive to its last millisecond
/// (the `#~` suffix sorts after every order id at that instant).
fn range(from: Option<&str>, to: Option<&str>) -> Result<(String, String), ShopError> {
    let from = from
        .map(|f| time_util::parse_bound("from", f, Bound::Start))
        .transpose()?;
    let to = to
        .map(|t| time_util::parse_bound("to", t, Bound::End))
        .transpose()?;
    if let (Some(f), Some(t)) = (from, to)
        && f > t
    {
        return Err(ShopError::invalid("invalid_range", "`from` is after `to`"));
    }
    Ok((
        from.map(time_util::format_ts).unwrap_or_else(|| "0".into()),
        to.map(|t| format!("{}#~", time_util::format_ts(t)))
            .unwrap_or_else(|| "9".into()),
    ))
}

/// Orders in `status`, newest first, optionally within `from..=to`.
pub async fn by_status(
    shop: &Shop,
    status: Status,
    from: Option<&str>,
    to: Option<&str>,
    limit: i32,
    cursor: Option<&str>,
) -> Result<Page<Order>, ShopError> {
    let status_text = status.as_str().to_string();
    if from.is_none() && to.is_none() {
        return products::list(
            shop,
            "listOrdersByStatus",
            &format!("listOrdersByStatus|{status_text}"),
            &|name| (name == "status").then(|| status_text.clone()),
            limit,
            cursor,
            order_from_item,
        )
        .await;
    }
    let (lower, upper) = range(from, to)?;
    products::list(
        shop,
        "listOrdersByStatusInRange",
        &format!("listOrdersByStatusInRange|{status_text}|{lower}|{upper}"),
        &|name| match name {
            "status" => Some(status_text.clone()),
            "from" => Some(lower.clone()),
            "to" => Some(upper.clone()),
            _ => None,
        },
        limit,
        cursor,
        order_from_item,
    )
    .await
}

/// Orders created within `from..=to` across all statuses, newest first. Each day is written to
/// [`DAY_SHARDS`] partitions so no day is a hot partition; a page queries the shards of each day,
/// newest day first, and merges them by sort key. At most [`crate::ShopOptions::max_range_days`]
/// days ([`super::MAX_RANGE_DAYS`] by default).
pub async fn by_date(
    shop: &Shop,
    from: &str,
    to: &str,
    limit: i32,
    cursor_text: Option<&str>,
) -> Result<Page<Order>, ShopError> {
    let limit = usize::try_from(crate::rules::LIMIT.check(i64::from(limit))?)
        .map_err(ShopError::internal)?;
    let from_t = time_util::parse_bound("from", from, Bound::Start)?;
    let to_t = time_util::parse_bound("to", to, Bound::End)?;
    if from_t > to_t {
        return Err(ShopError::invalid("invalid_range", "`from` is after `to`"));
    }
    let days = (to_t.date() - from_t.date()).whole_days() + 1;
    let max_days = shop.options().max_range_days;
    if days > max_days {
        return Err(ShopError::invalid(
            "range_too_long",
            format!("a date range spans at most {max_days} days; this one spans {days}"),
        ));
    }
    let (lower, upper) = range(Some(from), Some(to))?;
    let scope = format!("listOrdersByDay|{lower}|{upper}");
    let after = match cursor_text {
        Some(c) => Some(
            cursor::decode_position(shop.cursor_key(), &scope, c)?
                .remove("after")
                .ok_or_else(|| {
                    ShopError::invalid(
                        "invalid_cursor",
                        "`cursor` is not a cursor this listing issued",
                    )
                })?,
        ),
        None => None,
    };
    let want = limit + 1;
    let top = after.clone().unwrap_or_else(|| upper.clone());
    let start_day = match &after {
        Some(a) => a
            .get(..10)
            .and_then(|d| {
                time::Date::parse(d, time::macros::format_description!("[year]-[month]-[day]")).ok()
            })
            .unwrap_or(to_t.date()),
        None => to_t.date(),
    };
    let mut collected: Vec<(String, Item)> = Vec::new();
    let mut day = start_day;
    while day >= from_t.date() && collected.len() < want {
        let day_text = time_util::format_day(day);
        let mut shards = tokio::task::JoinSet::new();
        for shard in 0..DAY_SHARDS {
            let shop = shop.clone();
            let (day_text, lower, top) = (day_text.clone(), lower.clone(), top.clone());
            shards.spawn(async move {
                pattern::query(
                    shop.client(),
                    shop.model(),
                    "listOrdersByDay",
                    &|name| match name {
                        "day" => Some(day_text.clone()),
                        "shard" => Some(shard.to_string()),
                        "from" => Some(lower.clone()),
                        "to" => Some(top.clone()),
                        _ => None,
                    },
                    PageRequest {
                        limit: i32::try_from(want).ok(),
                        start: None,
                    },
                )
                .await
            });
        }
        while let Some(joined) = shards.join_next().await {
            let page = joined.map_err(ShopError::internal)??;
            for item in page.items {
                let sk = items::string(&item, "GSI3SK")?;
                if Some(&sk) != after.as_ref() {
                    collected.push((sk, item));
                }
            }
        }
        collected.sort_by(|a, b| b.0.cmp(&a.0));
        collected.truncate(want);
        day = match day.previous_day() {
            Some(d) => d,
            None => break,
        };
    }
    let next_cursor = if collected.len() > limit {
        let at = BTreeMap::from([("after".to_string(), collected[limit - 1].0.clone())]);
        Some(cursor::encode_position(shop.cursor_key(), &scope, at)?)
    } else {
        None
    };
    let items = collected
        .iter()
        .take(limit)
        .map(|(_, item)| order_from_item(item))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Page { items, next_cursor })
}
