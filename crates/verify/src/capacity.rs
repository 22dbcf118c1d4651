//! Capacity cross-check: `monotable_check::cost`'s sizing rules on the verify data, against the
//! `ConsumedCapacity` the embedded engine returns for the same calls (`ReturnConsumedCapacity:
//! INDEXES`).
//!
//! Every sample item is written with PutItem into a fresh table (a create, never an overwrite),
//! each read pattern is run with parameters taken from the samples as `verify` takes them, each
//! UpdateItem pattern changes every attribute outside the primary key of samples of its entity,
//! each DeleteItem pattern deletes them (each put back after), and each TransactWrite
//! pattern writes samples of its entities in one `TransactWriteItems`. The prediction for each
//! call applies `check::cost`'s rules (`item_size`, `actual_entry_bytes`, `read_units`,
//! `write_units`) to the actual bytes of the items involved; the report puts it next to the
//! engine's figure, table and index by index, and lists every disagreement.

mod calls;
mod items;
mod report;

use std::collections::HashMap;

use monotable_access::Table;
use monotable_model::{Model, Operation};
use serde_json::Value;

use crate::VerifyError;
use crate::generate::Dataset;
use crate::sample_index::SampleIndex;

pub use items::{item_json, value_json};
pub use report::{CapacityCheck, CapacityReport};
use report::{Measured, check};

/// Samples each returned entity type is read (or deleted) with.
const TARGETS_PER_ENTITY: usize = 2;
/// Samples per entity written in one transaction.
const TRANSACTION_ITEMS_PER_ENTITY: u64 = 2;
/// Pages followed per Query.
const MAX_PAGES: usize = 100;

struct Ctx<'a> {
    model: &'a Model,
    /// Measured calls go through this table's client: the engine's capacity emulator meters
    /// them.
    table: Table,
    /// Unmeasured calls (putting an item back) go through this one, which shares the data
    /// unmetered.
    plain: Table,
    /// The samples indexed.
    index: SampleIndex<'a>,
    /// Loaded items (typed keys) by primary key, in DynamoDB JSON.
    stored: HashMap<(String, String), Value>,
}

/// The primary key of an item as text, for looking up what was stored.
fn primary(model: &Model, item: &Value) -> (String, String) {
    let get = |name: &str| item.get(name).map(Value::to_string).unwrap_or_default();
    (
        get(&model.table.partition_key.name),
        model
            .table
            .sort_key
            .as_ref()
            .map(|k| get(&k.name))
            .unwrap_or_default(),
    )
}

/// Generates the verify data for `seed`, writes it into a fresh in-memory table and cross-checks
/// `check::cost`'s rules against the engine's consumed capacity for every write and read.
pub async fn cross_check(model: &Model, seed: u64) -> Result<CapacityReport, VerifyError> {
    let data = crate::generate::generate(model, seed);
    cross_check_data(model, &data, seed).await
}

/// [`cross_check`] on a dataset already generated.
pub async fn cross_check_data(
    model: &Model,
    data: &Dataset,
    seed: u64,
) -> Result<CapacityReport, VerifyError> {
    let table = model.table.name.clone();
    let engine =
        monotable_connect::Engine::memory().map_err(monotable_connect::ConnectError::from)?;
    // The emulator meters every measured call; its limits are raised a thousandfold so that
    // the burst of calls is never throttled (throttling is not what is checked here).
    let metered = engine
        .clone()
        .with_capacity(monotable_connect::capacity::Settings::default().scale(0.001));
    let plain = monotable_connect::inprocess::client(engine);
    let client = &monotable_connect::inprocess::client(metered.clone());
    monotable_access::table::ensure_table(client, model).await?;
    let mut ctx = Ctx {
        model,
        table: Table::new(client.clone(), &table),
        plain: Table::new(plain, &table),
        index: SampleIndex::new(model, &data.samples),
        stored: HashMap::new(),
    };
    let mut checks = Vec::new();
    let mut notes: Vec<String> = data
        .warnings
        .iter()
        .map(|w| format!("sample data: {w}"))
        .collect();

    // Writes: every sample created with PutItem, grouped by entity.
    let mut by_entity: Vec<(String, Vec<Measured>)> = Vec::new();
    for sample in &data.samples {
        let measured = ctx.put(sample).await?;
        match by_entity.iter_mut().find(|(e, _)| *e == sample.entity) {
            Some((_, list)) => list.push(measured),
            None => by_entity.push((sample.entity.clone(), vec![measured])),
        }
    }
    for (entity, measured) in &by_entity {
        checks.push(check(entity, "PutItem", "WCU", measured));
    }

    let mut rng = fastrand::Rng::with_seed(seed ^ 0x5eed_7a26_e75e_ed00);
    for pattern in &model.patterns {
        let measured = match pattern.operation {
            Operation::GetItem => ctx.gets(pattern, &mut rng).await,
            Operation::Query => ctx.queries(pattern, &mut rng).await,
            Operation::DeleteItem => ctx.deletes(pattern).await,
            Operation::UpdateItem => ctx.updates(pattern).await,
            Operation::TransactWrite => ctx.transaction(pattern).await,
            other => {
                notes.push(format!(
                    "{} ({other:?}) is not cross-checked{}",
                    pattern.name,
                    match other {
                        Operation::PutItem => ": every sample's PutItem is checked above",
                        _ =>
                            " yet (GetItem, Query, PutItem, UpdateItem, DeleteItem and TransactWriteItems are)",
                    }
                ));
                continue;
            }
        };
        if measured.is_empty() {
            notes.push(format!(
                "{}: no sample item to run it with; not cross-checked",
                pattern.name
            ));
            continue;
        }
        let (operation, unit) = match pattern.operation {
            Operation::GetItem => ("GetItem", "RCU"),
            Operation::Query => ("Query", "RCU"),
            Operation::DeleteItem => ("DeleteItem", "WCU"),
            Operation::UpdateItem => ("UpdateItem", "WCU"),
            _ => ("TransactWriteItems", "WCU"),
        };
        checks.push(check(&pattern.name, operation, unit, &measured));
    }
    let emulator = metered
        .capacity()
        .map(|e| report::emulator_checks(model, &checks, &e.snapshot()))
        .unwrap_or_default();
    Ok(CapacityReport {
        table,
        seed,
        items: data.samples.len(),
        checks,
        emulator,
        notes,
    })
}
