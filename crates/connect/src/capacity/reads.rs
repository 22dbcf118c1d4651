//! GetItem, Query and Scan under the throughput rules, and what every metered operation
//! shares: asking the engine for its consumed capacity by index, and answering the caller
//! with only what it asked for.

use std::slice;

use dynoxide::Database;
use dynoxide::actions::get_item::GetItemRequest;
use dynoxide::actions::query::QueryRequest;
use dynoxide::actions::scan::ScanRequest;
use dynoxide::types::ConsumedCapacity;
use serde::Serialize;

use super::keys;
use super::{Emulator, Op, Touch};
use crate::answer::Answer;

/// The `ReturnConsumedCapacity` the emulator asks the engine for, whatever the caller asked.
pub(super) const INDEXES: &str = "INDEXES";

pub(super) fn get_item(emu: &Emulator, db: &Database, body: &[u8]) -> Option<Answer> {
    let mut request: GetItemRequest = serde_json::from_slice(body).ok()?;
    let table = emu.table(db, &request.table_name)?;
    let touch = Touch {
        index: None,
        key: keys::partition_of(&request.key, &table.table.partition_keys),
        op: Op::Read,
    };
    if let Err(throttle) = emu.admit(&table, slice::from_ref(&touch)) {
        return Some(throttle.answer());
    }
    let wanted = request.return_consumed_capacity.replace(INDEXES.into());
    Some(respond(db.get_item(request).map(|mut response| {
        emu.charge(
            &table,
            &touch,
            table_units(response.consumed_capacity.as_ref()),
            0.0,
        );
        response.consumed_capacity = restore(response.consumed_capacity.take(), wanted.as_deref());
        response
    })))
}

pub(super) fn query(emu: &Emulator, db: &Database, body: &[u8]) -> Option<Answer> {
    let mut request: QueryRequest = serde_json::from_slice(body).ok()?;
    let table = emu.table(db, &request.table_name)?;
    let index = request.index_name.clone();
    // An index the table does not have (or a local one): the engine answers as it would.
    let resource = table.resource(index.as_deref());
    let (index, partition_keys) = match resource {
        Some(r) => (index, r.partition_keys.clone()),
        None => (None, table.table.partition_keys.clone()),
    };
    let key = match (&request.key_condition_expression, &request.key_conditions) {
        (Some(expression), _) => keys::key_condition_partition(
            expression,
            request.expression_attribute_names.as_ref(),
            request.expression_attribute_values.as_ref(),
            &partition_keys,
        ),
        (None, Some(conditions)) => keys::key_conditions_partition(conditions, &partition_keys),
        (None, None) => None,
    };
    let touch = Touch {
        index,
        key,
        op: Op::Read,
    };
    if let Err(throttle) = emu.admit(&table, slice::from_ref(&touch)) {
        return Some(throttle.answer());
    }
    let wanted = request.return_consumed_capacity.replace(INDEXES.into());
    Some(respond(db.query(request).map(|mut response| {
        let units = units(response.consumed_capacity.as_ref(), touch.index.as_deref());
        emu.charge(&table, &touch, units, 0.0);
        response.consumed_capacity = restore(response.consumed_capacity.take(), wanted.as_deref());
        response
    })))
}

pub(super) fn scan(emu: &Emulator, db: &Database, body: &[u8]) -> Option<Answer> {
    let mut request: ScanRequest = serde_json::from_slice(body).ok()?;
    let table = emu.table(db, &request.table_name)?;
    let index = request
        .index_name
        .clone()
        .filter(|i| table.resource(Some(i)).is_some());
    // A scan page reads across partitions: it is held to the table's (or index's) own
    // throughput only.
    let touch = Touch {
        index,
        key: None,
        op: Op::Read,
    };
    if let Err(throttle) = emu.admit(&table, slice::from_ref(&touch)) {
        return Some(throttle.answer());
    }
    let wanted = request.return_consumed_capacity.replace(INDEXES.into());
    Some(respond(db.scan(request).map(|mut response| {
        let units = units(response.consumed_capacity.as_ref(), touch.index.as_deref());
        emu.charge(&table, &touch, units, 0.0);
        response.consumed_capacity = restore(response.consumed_capacity.take(), wanted.as_deref());
        response
    })))
}

/// The engine's answer, as dispatch would send it.
pub(super) fn respond<T: Serialize>(result: dynoxide::Result<T>) -> Answer {
    let body = result.and_then(|response| {
        serde_json::to_vec(&response)
            .map_err(|e| dynoxide::DynoxideError::InternalServerError(e.to_string()))
    });
    match body {
        Ok(json) => Answer::new(200, json),
        Err(e) => Answer::new(e.status_code(), e.to_json().into_bytes()),
    }
}

/// The units the table itself consumed.
pub(super) fn table_units(consumed: Option<&ConsumedCapacity>) -> f64 {
    units(consumed, None)
}

/// The units the table (`None`, with its local secondary indexes) or a global secondary index
/// consumed.
pub(super) fn units(consumed: Option<&ConsumedCapacity>, index: Option<&str>) -> f64 {
    let Some(c) = consumed else {
        return 0.0;
    };
    match index {
        None => c
            .table
            .as_ref()
            .map_or(c.capacity_units, |t| t.capacity_units),
        Some(name) => c
            .global_secondary_indexes
            .as_ref()
            .and_then(|g| g.get(name))
            .map_or(c.capacity_units, |d| d.capacity_units),
    }
}

/// The units each global secondary index consumed.
pub(super) fn index_units(consumed: Option<&ConsumedCapacity>) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = consumed
        .and_then(|c| c.global_secondary_indexes.as_ref())
        .map(|g| {
            g.iter()
                .map(|(n, d)| (n.clone(), d.capacity_units))
                .collect()
        })
        .unwrap_or_default();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// What the caller asked to see of the engine's `INDEXES` figure: nothing, the totals, or all.
pub(super) fn restore(
    consumed: Option<ConsumedCapacity>,
    wanted: Option<&str>,
) -> Option<ConsumedCapacity> {
    match wanted {
        Some("INDEXES") => consumed,
        Some("TOTAL") => consumed.map(|mut c| {
            c.table = None;
            c.global_secondary_indexes = None;
            c.local_secondary_indexes = None;
            c.vector_indexes = None;
            c
        }),
        _ => None,
    }
}

/// [`restore`] over a per-table list.
pub(super) fn restore_all(
    consumed: Option<Vec<ConsumedCapacity>>,
    wanted: Option<&str>,
) -> Option<Vec<ConsumedCapacity>> {
    let list: Vec<ConsumedCapacity> = consumed?
        .into_iter()
        .filter_map(|c| restore(Some(c), wanted))
        .collect();
    (matches!(wanted, Some("TOTAL" | "INDEXES"))).then_some(list)
}
