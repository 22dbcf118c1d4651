//! Order status changes: conditional on the status and version read, moving the status index
//! key in the same write, and returning tracked stock when an order is cancelled.

use std::collections::{HashMap, HashSet};

use aws_sdk_dynamodb::types::{TransactWriteItem, Update};

use monotable_access::items::{self, n, s};

use super::{
    Order, OrderLine, RETRIES, Status, StatusChange, load, order_values, product_key,
    validate_order_id,
};
use crate::Shop;
use crate::auth::Caller;
use crate::error::{ShopError, sdk};
use crate::time_util;
use crate::users::{backoff, failed_conditions, is_transaction_conflict};

/// Change an order's status. The owner may cancel; an admin may make any legal change. The write
/// is conditional on the status and version read and moves the status index key with it;
/// cancelling returns tracked stock in the same transaction.
pub async fn change_status(
    shop: &Shop,
    caller: &Caller,
    order_id: &str,
    change: &StatusChange,
) -> Result<Order, ShopError> {
    validate_order_id(order_id)?;
    let mut skip_restock: HashSet<String> = HashSet::new();
    for _ in 0..RETRIES + 1 {
        let Some((order, lines)) = load(shop, order_id).await? else {
            return Err(ShopError::NotFound(format!("no order {order_id}")));
        };
        if !caller.is_self_or_admin(&order.user_id) {
            return Err(ShopError::NotFound(format!("no order {order_id}")));
        }
        if !caller.admin && change.status != Status::Cancelled {
            return Err(ShopError::Forbidden(
                "customers may only cancel their orders; other changes need an admin".into(),
            ));
        }
        if let Some(expected) = change.expected_version
            && expected != order.version
        {
            return Err(ShopError::conflict(
                "stale_version",
                format!(
                    "order {order_id} is at version {} (status {}), not {expected}",
                    order.version,
                    order.status.as_str()
                ),
            ));
        }
        if !order.status.can_move_to(change.status) {
            return Err(ShopError::conflict(
                "illegal_transition",
                format!(
                    "order {order_id} is {}; it cannot become {}",
                    order.status.as_str(),
                    change.status.as_str()
                ),
            ));
        }
        let mut next = order.clone();
        next.status = change.status;
        next.version = order.version + 1;
        next.updated_at = time_util::format_ts(shop.now());
        let moved = items::index_keys(shop.model(), "Order", "GSI2", &order_values(&next))?;
        let mut set = vec![
            "#status = :to".to_string(),
            "version = :next".into(),
            "updatedAt = :now".into(),
        ];
        let mut values = HashMap::from([
            (":to".to_string(), s(next.status.as_str())),
            (":from".to_string(), s(order.status.as_str())),
            (":v".to_string(), n(order.version)),
            (":next".to_string(), n(next.version)),
            (":now".to_string(), s(&next.updated_at)),
        ]);
        let mut names = HashMap::from([("#status".to_string(), "status".to_string())]);
        for (i, (attribute, value)) in moved.into_iter().enumerate() {
            set.push(format!("#k{i} = :k{i}"));
            names.insert(format!("#k{i}"), attribute);
            values.insert(format!(":k{i}"), s(value));
        }
        let key = items::primary_key(shop.model(), "Order", &order_values(&order))?;
        let update = Update::builder()
            .table_name(shop.table())
            .set_key(Some(key))
            .update_expression(format!("SET {}", set.join(", ")))
            .condition_expression("#status = :from AND version = :v")
            .set_expression_attribute_names(Some(names))
            .set_expression_attribute_values(Some(values))
            .build()
            .map_err(ShopError::internal)?;
        let mut tx = shop
            .client()
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().update(update).build());
        let restock: Vec<&OrderLine> = if next.status == Status::Cancelled {
            lines
                .iter()
                .filter(|(l, tracked)| *tracked && !skip_restock.contains(&l.product_id))
                .map(|(l, _)| l)
                .collect()
        } else {
            Vec::new()
        };
        for line in &restock {
            tx = tx.transact_items(
                TransactWriteItem::builder()
                    .update(
                        Update::builder()
                            .table_name(shop.table())
                            .set_key(Some(product_key(shop, &line.product_id)?))
                            .update_expression("SET stock = stock + :q, version = version + :one")
                            .condition_expression("attribute_exists(stock)")
                            .expression_attribute_values(":q", n(line.quantity))
                            .expression_attribute_values(":one", n(1))
                            .build()
                            .map_err(ShopError::internal)?,
                    )
                    .build(),
            );
        }
        match tx.send().await {
            Ok(_) => {
                next.items = Some(lines.into_iter().map(|(l, _)| l).collect());
                return Ok(next);
            }
            Err(e) => {
                let Some(failed) = failed_conditions(&e) else {
                    return Err(sdk("TransactWriteItems", e));
                };
                // A product that stopped tracking stock: cancel without restocking it.
                for (line, f) in restock.iter().zip(failed.iter().skip(1)) {
                    if *f {
                        skip_restock.insert(line.product_id.clone());
                    }
                }
                // The order changed under us (or another transaction held it): the next round
                // re-reads and answers with its state.
                if is_transaction_conflict(&e) {
                    backoff(1).await;
                }
                continue;
            }
        }
    }
    Err(ShopError::busy(format!(
        "order {order_id} kept changing; read it and try again"
    )))
}
