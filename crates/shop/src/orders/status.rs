//! Order status changes: conditional on the status and version read, the status index key moved
//! in the same write (the library re-renders it from the new status), and tracked stock returned
//! when an order is cancelled.

use std::collections::HashSet;

use super::{Order, OrderLine, RETRIES, Status, StatusChange, load, validate_order_id};
use crate::Shop;
use crate::auth::Caller;
use crate::error::ShopError;
use crate::patterns::{CancelOrder, Restock, UpdateOrderStatus};
use crate::products;

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
        allowed(caller, &order, change)?;
        let mut next = order.clone();
        next.status = change.status;
        next.version = order.version + 1;
        next.updated_at = shop.now();
        let restock: Vec<&OrderLine> = if next.status == Status::Cancelled {
            lines
                .iter()
                .filter(|l| l.stock_tracked && !skip_restock.contains(&l.product_id))
                .collect()
        } else {
            Vec::new()
        };
        let update = UpdateOrderStatus {
            order_id: order.order_id.clone(),
            expected_version: order.version,
            current: order.status,
        }
        .set_status(next.status)
        .set_shard(order.shard)
        .set_day(order.day)
        .set_updated_at(next.updated_at);
        if restock.is_empty() {
            match update.send(shop.db()).await {
                Ok(()) => {
                    next.items = Some(lines);
                    return Ok(next);
                }
                // The order changed under us: the next round re-reads and answers with its state.
                Err(e) if e.is_condition_failed() => continue,
                Err(e) => return Err(e.into()),
            }
        }
        let mut tx = CancelOrder::new().update_order_status(update);
        for line in &restock {
            let back = Restock {
                product_id: line.product_id.clone(),
            };
            tx = tx.restock(back.add_stock(line.quantity));
        }
        match tx.send(shop.db()).await {
            Ok(()) => {
                next.items = Some(lines);
                return Ok(next);
            }
            Err(e) if e.failed(CancelOrder::RESTOCK) => {
                // A product that stopped tracking stock (or is gone): cancel without
                // restocking it.
                for line in &restock {
                    let tracked = products::get(shop, &line.product_id)
                        .await?
                        .is_some_and(|p| p.stock.is_some());
                    if !tracked {
                        skip_restock.insert(line.product_id.clone());
                    }
                }
            }
            // The order changed under us: the next round re-reads and answers with its state.
            Err(e) if e.failed(CancelOrder::UPDATE_ORDER_STATUS) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Err(ShopError::busy(format!(
        "order {order_id} kept changing; read it and try again"
    )))
}

/// Whether `caller` may make `change` to `order` now: 404 for another's order, 403 for a
/// customer's change other than a cancellation, 409 for a stale version or an illegal move.
fn allowed(caller: &Caller, order: &Order, change: &StatusChange) -> Result<(), ShopError> {
    let order_id = &order.order_id;
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
    Ok(())
}
