//! BatchGetItem and BatchWriteItem under the throughput rules: each key or write is admitted
//! on its own, and what is throttled comes back as `UnprocessedKeys` or `UnprocessedItems`,
//! as DynamoDB returns it; only a batch none of which could run fails.

use dynoxide::Database;
use dynoxide::actions::batch_get_item::BatchGetItemRequest;
use dynoxide::actions::batch_write_item::BatchWriteItemRequest;
use dynoxide::types::ConsumedCapacity;
use serde_json::{Map, Value};

use super::catalog::TableInfo;
use super::keys::{self, Item};
use super::reads::{INDEXES, respond, restore_all, table_units};
use super::writes::{Placement, current, index_keys, key_of};
use super::{Emulator, Op, Throttle, Touch};
use crate::answer::Answer;

/// What each admitted key or write has already taken from its buckets: the least it can
/// consume, so a batch of writes to one hot key cannot all slip in on one positive balance.
const HELD_READ: f64 = 0.5;
const HELD_WRITE: f64 = 1.0;

/// The requests of one table: the table and the admitted ones' places.
struct Admitted<T> {
    table: std::sync::Arc<TableInfo>,
    name: String,
    claims: Vec<T>,
}

impl<T> Admitted<T> {
    fn new(table: std::sync::Arc<TableInfo>, name: &str, claims: Vec<T>) -> Self {
        Self {
            table,
            name: name.to_string(),
            claims,
        }
    }
}

/// What is left to send once each key or write was admitted or refused: the tables something
/// was admitted for (in `admitted` and the request's `RequestItems`, whose `requests` finds a
/// table's list), the engine asked for `INDEXES`, and what the caller asked for. `Err`: nothing
/// was admitted, the refusal's answer.
fn to_send<T>(
    request: &mut Value,
    admitted: &mut Vec<Admitted<T>>,
    refusal: Option<Throttle>,
    requests: impl Fn(&Value) -> Option<&Vec<Value>>,
) -> Option<Result<Option<String>, Answer>> {
    admitted.retain(|a| !a.claims.is_empty());
    if admitted.is_empty() {
        return Some(Err(refusal?.answer()));
    }
    request["RequestItems"]
        .as_object_mut()?
        .retain(|_, w| requests(w).is_some_and(|l| !l.is_empty()));
    Some(Ok(set_indexes(request)))
}

pub(super) fn batch_write_item(emu: &Emulator, db: &Database, body: &[u8]) -> Option<Answer> {
    let mut request: Value = serde_json::from_slice(body).ok()?;
    let mut unprocessed = Map::new();
    let mut admitted: Vec<Admitted<Placement>> = Vec::new();
    let mut refusal: Option<Throttle> = None;
    for (name, writes) in request.get_mut("RequestItems")?.as_object_mut()? {
        let table = emu.table(db, name)?;
        let mut keep = Vec::new();
        let mut claims = Vec::new();
        for write in std::mem::take(writes.as_array_mut()?) {
            let placement = place_write(db, &table, &write)?;
            let touches = placement.touches();
            match emu.admit(&table, &touches) {
                Ok(()) => {
                    emu.hold(&table, &touches, HELD_WRITE);
                    keep.push(write);
                    claims.push(placement);
                }
                Err(throttle) => {
                    refusal = Some(throttle);
                    unprocessed
                        .entry(name.clone())
                        .or_insert_with(|| Value::Array(Vec::new()))
                        .as_array_mut()?
                        .push(write);
                }
            }
        }
        *writes = Value::Array(keep);
        admitted.push(Admitted::new(table, name, claims));
    }
    let wanted = match to_send(&mut request, &mut admitted, refusal, Value::as_array)? {
        Ok(wanted) => wanted,
        Err(refused) => return Some(refused),
    };
    let typed: BatchWriteItemRequest = serde_json::from_value(request).ok()?;
    Some(respond(db.batch_write_item(typed).map(|mut response| {
        for a in &admitted {
            let consumed = for_table(response.consumed_capacity.as_deref(), &a.name);
            let share = 1.0 / count(a.claims.len());
            for placement in &a.claims {
                placement.charge(emu, &a.table, consumed, share, HELD_WRITE);
            }
        }
        for (name, rest) in unprocessed {
            merge(&mut response.unprocessed_items, name, rest);
        }
        response.consumed_capacity =
            restore_all(response.consumed_capacity.take(), wanted.as_deref());
        response
    })))
}

/// Where one `PutRequest` or `DeleteRequest` writes.
fn place_write(db: &Database, table: &TableInfo, write: &Value) -> Option<Placement> {
    let (item, is_put) = match (write.get("PutRequest"), write.get("DeleteRequest")) {
        (Some(put), _) => (put.get("Item")?, true),
        (None, Some(delete)) => (delete.get("Key")?, false),
        (None, None) => return None,
    };
    let item: Item = serde_json::from_value(item.clone()).ok()?;
    Some(Placement {
        key: keys::partition_of(&item, &table.table.partition_keys),
        before: current(db, table, &key_of(table, &item)),
        after: if is_put {
            index_keys(table, &item)
        } else {
            Vec::new()
        },
    })
}

pub(super) fn batch_get_item(emu: &Emulator, db: &Database, body: &[u8]) -> Option<Answer> {
    let mut request: Value = serde_json::from_slice(body).ok()?;
    let mut unprocessed = Map::new();
    let mut admitted: Vec<Admitted<Touch>> = Vec::new();
    let mut refusal: Option<Throttle> = None;
    for (name, wanted) in request.get_mut("RequestItems")?.as_object_mut()? {
        let table = emu.table(db, name)?;
        let mut keep = Vec::new();
        let mut rest = Vec::new();
        let mut claims = Vec::new();
        for key in std::mem::take(wanted.get_mut("Keys")?.as_array_mut()?) {
            let item: Item = serde_json::from_value(key.clone()).ok()?;
            let touch = Touch {
                index: None,
                key: keys::partition_of(&item, &table.table.partition_keys),
                op: Op::Read,
            };
            match emu.admit(&table, std::slice::from_ref(&touch)) {
                Ok(()) => {
                    emu.hold(&table, std::slice::from_ref(&touch), HELD_READ);
                    keep.push(key);
                    claims.push(touch);
                }
                Err(throttle) => {
                    refusal = Some(throttle);
                    rest.push(key);
                }
            }
        }
        if !rest.is_empty() {
            let mut left = wanted.clone();
            left["Keys"] = Value::Array(rest);
            unprocessed.insert(name.clone(), left);
        }
        wanted["Keys"] = Value::Array(keep);
        admitted.push(Admitted::new(table, name, claims));
    }
    fn keys(wanted: &Value) -> Option<&Vec<Value>> {
        wanted["Keys"].as_array()
    }
    let wanted = match to_send(&mut request, &mut admitted, refusal, keys)? {
        Ok(wanted) => wanted,
        Err(refused) => return Some(refused),
    };
    let typed: BatchGetItemRequest = serde_json::from_value(request).ok()?;
    Some(respond(db.batch_get_item(typed).map(|mut response| {
        for a in &admitted {
            let consumed = for_table(response.consumed_capacity.as_deref(), &a.name);
            let units = table_units(consumed) / count(a.claims.len());
            for touch in &a.claims {
                emu.charge(&a.table, touch, units, HELD_READ);
            }
        }
        for (name, rest) in unprocessed {
            response.unprocessed_keys.insert(name, rest);
        }
        response.consumed_capacity =
            restore_all(response.consumed_capacity.take(), wanted.as_deref());
        response
    })))
}

/// Ask the engine for `INDEXES`; what the caller asked for.
pub(super) fn set_indexes(request: &mut Value) -> Option<String> {
    let wanted = request["ReturnConsumedCapacity"]
        .as_str()
        .map(str::to_string);
    request["ReturnConsumedCapacity"] = Value::String(INDEXES.into());
    wanted
}

/// The figure of table `name` in a per-table list.
pub(super) fn for_table<'a>(
    consumed: Option<&'a [ConsumedCapacity]>,
    name: &str,
) -> Option<&'a ConsumedCapacity> {
    consumed?.iter().find(|c| c.table_name == name)
}

/// `n` as a divisor (at least 1).
pub(super) fn count(n: usize) -> f64 {
    f64::from(u32::try_from(n.max(1)).unwrap_or(u32::MAX))
}

/// Add `rest` to the engine's own unprocessed writes of table `name`.
fn merge(unprocessed: &mut std::collections::HashMap<String, Value>, name: String, rest: Value) {
    match unprocessed.get_mut(&name).and_then(Value::as_array_mut) {
        Some(list) => list.extend(rest.as_array().cloned().unwrap_or_default()),
        None => {
            unprocessed.insert(name, rest);
        }
    }
}
