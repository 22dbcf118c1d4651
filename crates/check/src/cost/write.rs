//! Write units of a write pattern's call, from what it sends: one item for a PutItem, UpdateItem
//! or DeleteItem (an update charged for the index keys its `sets` move); a ConditionCheck as
//! DynamoDB charges it inside a transaction (the item it reads, in 1 KB write units, doubled, no
//! index); a TransactWrite as its actions (each entry's `count`, the dearest of a `one_of`),
//! the table's part doubled; a BatchWrite as its items.

use monotable_model::{EntityDecl, Model, Operation, Pattern, Write};

use super::call::{Units, put_units, update_units};
use super::estimate::entry_bytes;
use super::size::write_units;
use crate::num;

/// Most items one BatchWriteItem request holds: bounds a batch's `count = "many"`.
pub const MAX_BATCH_WRITE_ITEMS: u64 = 25;

/// Attributes a call of an UpdateItem pattern changes: its `sets`, when it declares them (and
/// the attribute a `version(..)` clause bumps), else every attribute outside the table's primary
/// key (an upper bound).
pub fn changed_attributes<'a>(entity: &'a EntityDecl, pattern: &'a Pattern) -> Vec<&'a str> {
    let Some(sets) = &pattern.sets else {
        return super::call::mutable_attributes(entity);
    };
    let mut changed: Vec<&str> = sets.attributes.iter().map(|a| a.name.as_str()).collect();
    if let Some(version) = pattern.condition.as_ref().and_then(|c| c.version())
        && !changed.contains(&version)
    {
        changed.push(version);
    }
    changed
}

/// One item written by a single-item write pattern, outside a transaction: its entity and
/// units (the dearest of the entities it returns), or `None` for another operation or no
/// declared entity.
pub(crate) fn single_write<'m>(
    model: &'m Model,
    pattern: &Pattern,
) -> Option<(&'m EntityDecl, Units)> {
    let mut best: Option<(&EntityDecl, Units)> = None;
    for entity in pattern.returns.iter().filter_map(|r| model.entity(&r.name)) {
        let units = item_write(model, pattern, entity)?;
        if best.as_ref().is_none_or(|b| units.total > b.1.total) {
            best = Some((entity, units));
        }
    }
    best
}

/// The units of `pattern` writing one `entity` item. A PutItem whose condition needs the item
/// (a replace) is charged like an update of every attribute outside the primary key, an upper
/// bound on the index keys it moves; a ConditionCheck, the item's 1 KB units on the table only.
fn item_write(model: &Model, pattern: &Pattern, entity: &EntityDecl) -> Option<Units> {
    let replace = pattern
        .condition
        .as_ref()
        .is_some_and(|c| c.requires_item());
    Some(match pattern.operation {
        Operation::PutItem if replace => update_units(
            model,
            entity,
            &super::call::mutable_attributes(entity),
            false,
        ),
        Operation::PutItem | Operation::DeleteItem => put_units(model, entity, false),
        Operation::UpdateItem => {
            update_units(model, entity, &changed_attributes(entity, pattern), false)
        }
        Operation::ConditionCheck => {
            table_units(write_units(entry_bytes(model, entity, None), false))
        }
        _ => return None,
    })
}

/// The dearest write of one `entity` item by `pattern` (a single-item write, or an action of a
/// transaction or batch, its table part doubled in a transaction); `None` when `pattern` does
/// not write it. A ConditionCheck writes nothing.
pub(crate) fn writes_item(model: &Model, pattern: &Pattern, entity: &EntityDecl) -> Option<Units> {
    let of = |p: &Pattern| match p.operation {
        Operation::ConditionCheck => None,
        _ if p.returns.iter().any(|r| r.name == entity.name) => item_write(model, p, entity),
        _ => None,
    };
    match pattern.operation {
        Operation::TransactWrite | Operation::BatchWrite => {
            let transaction = pattern.operation == Operation::TransactWrite;
            let mut best: Option<Units> = None;
            for w in pattern.writes.iter().filter(|w| w.entity == entity.name) {
                let units = if w.patterns.is_empty() {
                    Some(put_units(model, entity, false))
                } else {
                    w.patterns
                        .iter()
                        .filter_map(|n| model.pattern(n).and_then(of))
                        .max_by(|a, b| a.total.total_cmp(&b.total))
                };
                let Some(units) = units else { continue };
                let units = if transaction {
                    transactional(&units)
                } else {
                    units
                };
                if best.as_ref().is_none_or(|b| units.total > b.total) {
                    best = Some(units);
                }
            }
            best
        }
        _ => of(pattern),
    }
}

fn table_units(units: f64) -> Units {
    Units {
        total: units,
        table: units,
        indexes: Vec::new(),
    }
}

/// `units` as a transaction charges them: the table's part doubled (prepare and commit), index
/// writes not.
pub(crate) fn transactional(units: &Units) -> Units {
    let mut out = units.clone();
    out.total += units.table;
    out.table *= 2.0;
    out
}

/// The units of one run of a transaction's or batch's entry: the dearest of its write patterns
/// (`one_of`), or in the older entity-only form a put of a new item; with the pattern charged.
fn entry_units<'m>(model: &'m Model, w: &Write) -> Option<(&'m EntityDecl, Units, Option<String>)> {
    if w.patterns.is_empty() {
        let entity = model.entity(&w.entity)?;
        return Some((entity, put_units(model, entity, false), None));
    }
    let mut best: Option<(&EntityDecl, Units, String)> = None;
    for name in &w.patterns {
        let Some((entity, units)) = model.pattern(name).and_then(|p| single_write(model, p)) else {
            continue;
        };
        if best.as_ref().is_none_or(|b| units.total > b.1.total) {
            best = Some((entity, units, name.clone()));
        }
    }
    best.map(|(e, u, n)| (e, u, Some(n)))
}

/// Each entity's share of one call of a TransactWrite or BatchWrite pattern (an entity listed
/// once per entry), the items it writes, and the notes on what was assumed.
pub(crate) struct Shares {
    /// Per entry: the entity and its units for the entry's every run.
    pub(crate) shares: Vec<(String, Units)>,
    /// Actions or requests per call.
    pub(crate) items: u64,
    /// Units charged when a condition fails (the table's part).
    pub(crate) if_condition_fails: f64,
    /// Assumptions.
    pub(crate) notes: Vec<String>,
}

/// The shares of a TransactWrite or BatchWrite pattern's call.
pub(crate) fn multi_write(model: &Model, pattern: &Pattern) -> Shares {
    let transaction = pattern.operation == Operation::TransactWrite;
    let (limit, what) = if transaction {
        (
            super::call::MAX_TRANSACTION_ACTIONS,
            "actions a transaction",
        )
    } else {
        (MAX_BATCH_WRITE_ITEMS, "items a BatchWriteItem request")
    };
    let fixed = pattern
        .writes
        .iter()
        .filter_map(|w| w.count)
        .fold(0u64, u64::saturating_add);
    let mut out = Shares {
        shares: Vec::new(),
        items: 0,
        if_condition_fails: 0.0,
        notes: Vec::new(),
    };
    for w in &pattern.writes {
        let Some((entity, one, chosen)) = entry_units(model, w) else {
            continue;
        };
        let label = match &chosen {
            Some(_) => w.patterns.join("` | `"),
            None => entity.name.clone(),
        };
        let count = w.count.unwrap_or_else(|| {
            let n = limit.saturating_sub(fixed).max(1);
            out.notes.push(format!(
                "`{label}` count is unbounded; assumed the {n} {what} can still hold"
            ));
            n
        });
        if let (Some(chosen), true) = (&chosen, w.patterns.len() > 1) {
            out.notes.push(format!(
                "`{label}`: costed as the dearest alternative, `{chosen}`"
            ));
        }
        let one = if transaction {
            transactional(&one)
        } else {
            one
        };
        let mut units = Units::default();
        units.add_scaled(&one, num::to_f64(count));
        out.items = out.items.saturating_add(count);
        out.if_condition_fails += units.table;
        out.shares.push((entity.name.clone(), units));
    }
    out
}
