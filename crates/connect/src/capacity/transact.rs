//! TransactGetItems and TransactWriteItems under the throughput rules: every action must be
//! admitted or the whole transaction is cancelled, each throttled action named in the
//! cancellation reasons as DynamoDB names it.

use std::sync::Arc;

use dynoxide::Database;
use dynoxide::actions::transact_get_items::TransactGetItemsRequest;
use dynoxide::actions::transact_write_items::TransactWriteItemsRequest;
use serde_json::Value;

use super::batch::{count, for_table, set_indexes};
use super::catalog::TableInfo;
use super::keys::{self, Item};
use super::reads::{respond, restore_all, table_units};
use super::throttle::cancelled;
use super::writes::{Placement, current, index_keys, key_of, moves_index_keys};
use super::{Emulator, Op, Throttle, Touch};
use crate::answer::{Answer, Origin, own_token};

/// One write action: its table, where it writes, and (for an update that names an index key)
/// the key to read its new place from afterwards.
struct Action {
    table: Arc<TableInfo>,
    placement: Placement,
    reread: Option<Item>,
}

pub(super) fn transact_write_items(
    emu: &Emulator,
    db: &Database,
    origin: Origin,
    body: &[u8],
) -> Option<Answer> {
    let mut request: Value = serde_json::from_slice(body).ok()?;
    let mut actions = Vec::new();
    for action in request.get("TransactItems")?.as_array()? {
        actions.push(place_action(emu, db, action)?);
    }
    let throttles: Vec<Option<Throttle>> = actions
        .iter()
        .map(|a| emu.admit(&a.table, &a.placement.touches()).err())
        .collect();
    if throttles.iter().any(Option::is_some) {
        return Some(cancelled(&throttles));
    }
    let wanted = set_indexes(&mut request);
    let mut typed: TransactWriteItemsRequest = serde_json::from_value(request).ok()?;
    typed.client_request_token = own_token(origin, typed.client_request_token.take());
    Some(respond(db.transact_write_items(typed).map(
        |mut response| {
            for action in &mut actions {
                if let Some(key) = &action.reread {
                    action.placement.after = current(db, &action.table, key);
                }
            }
            for action in &actions {
                let name = &action.table.name;
                let on_table = actions.iter().filter(|a| a.table.name == *name).count();
                let consumed = for_table(response.consumed_capacity.as_deref(), name);
                action
                    .placement
                    .charge(emu, &action.table, consumed, 1.0 / count(on_table), 0.0);
            }
            response.consumed_capacity =
                restore_all(response.consumed_capacity.take(), wanted.as_deref());
            response
        },
    )))
}

/// Where one `Put`, `Update`, `Delete` or `ConditionCheck` writes.
fn place_action(emu: &Emulator, db: &Database, action: &Value) -> Option<Action> {
    let (kind, body) = ["Put", "Update", "Delete", "ConditionCheck"]
        .into_iter()
        .find_map(|k| action.get(k).map(|b| (k, b)))?;
    let table = emu.table(db, body.get("TableName")?.as_str()?)?;
    let item: Item = serde_json::from_value(
        body.get(if kind == "Put" { "Item" } else { "Key" })?
            .clone(),
    )
    .ok()?;
    let key = key_of(&table, &item);
    let before = current(db, &table, &key);
    let mut reread = None;
    let after = match kind {
        "Put" => index_keys(&table, &item),
        "Delete" => Vec::new(),
        "Update" => {
            let names: Option<std::collections::HashMap<String, String>> = body
                .get("ExpressionAttributeNames")
                .and_then(|n| serde_json::from_value(n.clone()).ok());
            let expression = body.get("UpdateExpression").and_then(Value::as_str);
            if moves_index_keys(&table, expression, names.as_ref(), None) {
                reread = Some(key.clone());
                Vec::new()
            } else if before.is_empty() {
                index_keys(&table, &item)
            } else {
                before.clone()
            }
        }
        _ => before.clone(),
    };
    Some(Action {
        placement: Placement {
            key: keys::partition_of(&item, &table.table.partition_keys),
            before,
            after,
        },
        table,
        reread,
    })
}

pub(super) fn transact_get_items(emu: &Emulator, db: &Database, body: &[u8]) -> Option<Answer> {
    let mut request: Value = serde_json::from_slice(body).ok()?;
    let mut gets = Vec::new();
    for action in request.get("TransactItems")?.as_array()? {
        let get = action.get("Get")?;
        let table = emu.table(db, get.get("TableName")?.as_str()?)?;
        let key: Item = serde_json::from_value(get.get("Key")?.clone()).ok()?;
        let touch = Touch {
            index: None,
            key: keys::partition_of(&key, &table.table.partition_keys),
            op: Op::Read,
        };
        gets.push((table, touch));
    }
    let throttles: Vec<Option<Throttle>> = gets
        .iter()
        .map(|(table, touch)| emu.admit(table, std::slice::from_ref(touch)).err())
        .collect();
    if throttles.iter().any(Option::is_some) {
        return Some(cancelled(&throttles));
    }
    let wanted = set_indexes(&mut request);
    let typed: TransactGetItemsRequest = serde_json::from_value(request).ok()?;
    Some(respond(db.transact_get_items(typed).map(|mut response| {
        for (table, touch) in &gets {
            let on_table = gets.iter().filter(|(t, _)| t.name == table.name).count();
            let consumed = for_table(response.consumed_capacity.as_deref(), &table.name);
            emu.charge(table, touch, table_units(consumed) / count(on_table), 0.0);
        }
        response.consumed_capacity =
            restore_all(response.consumed_capacity.take(), wanted.as_deref());
        response
    })))
}
