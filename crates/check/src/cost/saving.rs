//! What smaller items of one entity save: the same workload priced twice by [`estimate`], once
//! as the model states it and once with the entity's items a number of bytes smaller.
//!
//! Only the calls that read or write the entity are priced (with the other entities they
//! return or write alongside it): the rest of the workload is the same both times, and an
//! on-demand bill is the sum of its calls' units.

use std::collections::BTreeSet;

use monotable_model::{Model, Pattern, Traffic};
use rust_decimal::Decimal;

use super::size::{WRITE_UNIT_BYTES, blocks};
use super::{PriceTable, estimate};

/// The effect of shrinking one entity's items.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Saving {
    /// The item size the model states (or its default), in bytes.
    pub(crate) item_bytes: u64,
    /// The item size once smaller, in bytes (at least 1).
    pub(crate) smaller_bytes: u64,
    /// Write units of one put of the item, before and after.
    pub(crate) write_units: (u64, u64),
    /// The on-demand month of the calls that read and write the entity, before and after;
    /// `None` when the model has no `[traffic]` section or the figure is too large to price.
    pub(crate) monthly: Option<(Decimal, Decimal)>,
}

impl Saving {
    /// What a month saves on demand, when priced.
    pub(crate) fn monthly_saving(&self) -> Option<Decimal> {
        self.monthly.map(|(before, after)| before - after)
    }
}

/// The part of `model` that `patterns` (the calls touching `entity`) use: the table, every
/// index, the write patterns their transactions and batches run (a transaction is costed by
/// its actions), the entities they return or write, and their traffic.
fn workload(model: &Model, entity: &str, patterns: &[&Pattern]) -> Model {
    let mut patterns: Vec<&Pattern> = patterns.to_vec();
    let actions: Vec<&Pattern> = patterns
        .iter()
        .flat_map(|p| p.writes.iter().flat_map(|w| &w.patterns))
        .filter_map(|name| model.pattern(name))
        .collect();
    for action in actions {
        if !patterns.iter().any(|p| std::ptr::eq(*p, action)) {
            patterns.push(action);
        }
    }
    // In the model's order (by name), which breaks ties between equally dear writers.
    patterns.sort_by(|a, b| a.name.cmp(&b.name));
    let mut names: BTreeSet<&str> = BTreeSet::from([entity]);
    for p in &patterns {
        names.extend(p.returns.iter().map(|r| r.name.as_str()));
        names.extend(p.writes.iter().map(|w| w.entity.as_str()));
    }
    let traffic = &model.traffic;
    Model {
        table: model.table.clone(),
        indexes: model.indexes.clone(),
        entities: model
            .entities
            .iter()
            .filter(|e| names.contains(e.name.as_str()))
            .cloned()
            .collect(),
        patterns: patterns.iter().map(|p| (*p).clone()).collect(),
        consumers: Vec::new(),
        traffic: Traffic {
            entities: traffic
                .entities
                .iter()
                .filter(|(name, _)| names.contains(name.as_str()))
                .map(|(name, t)| (name.clone(), t.clone()))
                .collect(),
            patterns: traffic
                .patterns
                .iter()
                .filter(|(name, _)| patterns.iter().any(|p| &p.name == *name))
                .map(|(name, t)| (name.clone(), t.clone()))
                .collect(),
            ..traffic.clone()
        },
    }
}

/// The on-demand month of the single-table design of `model`.
fn month(model: &Model, prices: &PriceTable) -> Option<Decimal> {
    estimate(model, prices)
        .designs
        .first()
        .and_then(|d| d.on_demand_monthly)
}

/// What `entity`'s items being `bytes` smaller saves at the model's traffic, priced over
/// `patterns`, the calls that read or write it.
pub(crate) fn shrink(
    model: &Model,
    entity: &str,
    bytes: u64,
    patterns: &[&Pattern],
    prices: &PriceTable,
) -> Saving {
    let item_bytes = model.traffic.item_size_bytes(entity);
    let smaller_bytes = item_bytes.saturating_sub(bytes).max(1);
    let units = |b: u64| blocks(b, WRITE_UNIT_BYTES);
    let mut saving = Saving {
        item_bytes,
        smaller_bytes,
        write_units: (units(item_bytes), units(smaller_bytes)),
        monthly: None,
    };
    if !model.traffic.declared {
        return saving;
    }
    let before = workload(model, entity, patterns);
    let mut after = before.clone();
    let stated = after.traffic.entities.entry(entity.to_string());
    stated.or_default().item_size_bytes = Some(smaller_bytes);
    saving.monthly = month(&before, prices).zip(month(&after, prices));
    saving
}
