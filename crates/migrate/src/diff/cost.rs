//! What each step of a migration costs: items touched (from `[traffic.entities.X] items` or a
//! `--items` estimate), capacity units by DynamoDB's rules (`monotable_check::cost`) and money
//! at on-demand prices.

use std::collections::BTreeMap;

use monotable_check::cost::{PriceTable, READ_UNIT_BYTES, entry_bytes, write_units};
use monotable_model::{EntityDecl, Model};
use rust_decimal::Decimal;
use serde::Serialize;

use super::{Change, Diff};

/// Items stored per entity, where the model's traffic section does not say.
#[derive(Debug, Clone, Default)]
pub struct ItemCounts {
    /// Items of one entity (OLD or NEW name).
    pub per_entity: BTreeMap<String, u64>,
    /// Items of any other entity.
    pub default: Option<u64>,
}

impl ItemCounts {
    /// Parses `--items` values: `N` (every entity) or `Entity=N`.
    pub fn parse(values: &[String]) -> Result<ItemCounts, String> {
        let mut out = ItemCounts::default();
        for v in values {
            let (entity, n) = match v.split_once('=') {
                Some((e, n)) => (Some(e.trim()), n),
                None => (None, v.as_str()),
            };
            let n: u64 = n
                .trim()
                .replace('_', "")
                .parse()
                .map_err(|_| format!("`{v}`: expected N or Entity=N"))?;
            match entity {
                Some(e) => {
                    out.per_entity.insert(e.to_string(), n);
                }
                None => out.default = Some(n),
            }
        }
        Ok(out)
    }

    /// Items of `entity`: `--items`, then each model's traffic section, then the default.
    pub fn items(&self, old: &Model, new: &Model, entity: &str, new_name: &str) -> Option<u64> {
        let traffic = |m: &Model, e: &str| m.traffic.entities.get(e).and_then(|t| t.items);
        self.per_entity
            .get(entity)
            .or_else(|| self.per_entity.get(new_name))
            .copied()
            .or_else(|| traffic(old, entity))
            .or_else(|| traffic(new, new_name))
            .or(self.default)
    }
}

/// The cost of one step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepCost {
    /// What the step is: `scan`, `rewrite Order`, `build index GSI4`.
    pub step: String,
    /// Items read or written; `None` when unknown.
    pub items: Option<u64>,
    /// Read units per item (scan: per item read).
    pub read_units_per_item: f64,
    /// Write units per item (table and indexes).
    pub write_units_per_item: f64,
    /// Read units in all, when the item count is known.
    pub read_units: Option<f64>,
    /// Write units in all.
    pub write_units: Option<f64>,
    /// On-demand price of those units, in the price table's currency.
    #[serde(serialize_with = "decimal_opt")]
    pub price: Option<Decimal>,
}

fn decimal_opt<S: serde::Serializer>(v: &Option<Decimal>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(d) => s.serialize_str(&d.round_dp(2).to_string()),
        None => s.serialize_none(),
    }
}

fn step(step: String, items: Option<u64>, read: f64, write: f64, prices: &PriceTable) -> StepCost {
    let total = |per: f64| items.map(|n| per * n as f64);
    let (read_units, write_units) = (total(read), total(write));
    let price = match (read_units, write_units) {
        (Some(r), Some(w)) => {
            let million = Decimal::from(1_000_000);
            let r = Decimal::try_from(r).unwrap_or_default();
            let w = Decimal::try_from(w).unwrap_or_default();
            Some(
                (r * prices.on_demand_read_per_million + w * prices.on_demand_write_per_million)
                    / million,
            )
        }
        _ => None,
    };
    StepCost {
        step,
        items,
        read_units_per_item: read,
        write_units_per_item: write,
        read_units,
        write_units,
        price,
    }
}

/// Index writes of one item rewritten from `o` to `n`: per index, a delete where it leaves (or
/// its entry moves), a put where it arrives (or its entry moves, or changes in place).
fn index_writes(old: &Model, new: &Model, o: &EntityDecl, n: &EntityDecl, moved: bool) -> f64 {
    let mut units = 0.0;
    for index in &new.indexes {
        let was = old.index(&index.name).is_some()
            && (o.key(Some(&index.name)).is_some() || index.native_member(o));
        let is = n.key(Some(&index.name)).is_some() || index.native_member(n);
        let key = |e: &EntityDecl| {
            e.key(Some(&index.name)).map(|k| {
                format!(
                    "{:?}",
                    (
                        &k.pk.template,
                        k.sk.as_ref().map(|s| &s.template),
                        &k.pk.condition
                    )
                )
            })
        };
        let entry = write_units(entry_bytes(new, n, Some(&index.name)), false);
        let writes = match (was, is) {
            (true, true) if moved || key(o) != key(n) => 2.0,
            (true, true) | (false, true) | (true, false) => 1.0,
            (false, false) => 0.0,
        };
        units += writes * entry;
    }
    for index in &old.indexes {
        if new.index(&index.name).is_none() && o.key(Some(&index.name)).is_some() {
            units += write_units(entry_bytes(old, o, Some(&index.name)), false);
        }
    }
    units
}

/// The cost of each step of `diff`: the scan, each entity's rewrite or move, each index built.
pub fn costs(old: &Model, new: &Model, diff: &Diff, counts: &ItemCounts) -> Vec<StepCost> {
    let prices = PriceTable::default();
    let mut out = Vec::new();
    if diff.needs_scan() {
        let (mut bytes, mut known) = (0u64, true);
        for e in &old.entities {
            let name = diff.renamed(&e.name).unwrap_or(&e.name);
            match counts.items(old, new, &e.name, name) {
                Some(n) => bytes += n * entry_bytes(old, e, None),
                None => known = false,
            }
        }
        let items: Option<u64> = old
            .entities
            .iter()
            .map(|e| counts.items(old, new, &e.name, diff.renamed(&e.name).unwrap_or(&e.name)))
            .sum();
        let per_item = if known && items.unwrap_or(0) > 0 {
            bytes as f64 / READ_UNIT_BYTES as f64 * 0.5 / items.unwrap_or(1) as f64
        } else {
            // Unknown counts: the mean entity's item, read eventually consistent.
            let sizes: Vec<u64> = old
                .entities
                .iter()
                .map(|e| entry_bytes(old, e, None))
                .collect();
            let mean = sizes.iter().sum::<u64>() as f64 / sizes.len().max(1) as f64;
            mean / READ_UNIT_BYTES as f64 * 0.5
        };
        out.push(step(
            "scan the table".into(),
            items.filter(|_| known),
            per_item,
            0.0,
            &prices,
        ));
    }
    let touched: Vec<&str> = diff.changes.iter().filter_map(Change::touches).collect();
    for (from, to) in &diff.renames {
        if !touched.contains(&from.as_str()) && !touched.contains(&to.as_str()) {
            continue;
        }
        let (Some(o), Some(n)) = (old.entity(from), new.entity(to)) else {
            continue;
        };
        let moved = diff
            .changes
            .iter()
            .any(|c| matches!(c, Change::Move { entity, .. } if entity == to));
        let table = if moved {
            write_units(entry_bytes(new, n, None), true)
                + write_units(entry_bytes(old, o, None), true)
        } else {
            write_units(entry_bytes(new, n, None), false)
        };
        let what = if moved { "move" } else { "rewrite" };
        let items = counts.items(old, new, from, to);
        let units = table + index_writes(old, new, o, n, moved);
        out.push(step(format!("{what} {to}"), items, 0.0, units, &prices));
    }
    for c in &diff.changes {
        match c {
            Change::RemoveEntity { entity } => {
                let Some(o) = old.entity(entity) else {
                    continue;
                };
                let units = write_units(entry_bytes(old, o, None), false);
                let items = counts.items(old, new, entity, entity);
                out.push(step(format!("delete {entity}"), items, 0.0, units, &prices));
            }
            Change::CreateIndex {
                index,
                native: true,
            }
            | Change::RecreateIndex { index, .. } => {
                out.extend(index_build(old, new, diff, counts, index, &prices));
            }
            _ => {}
        }
    }
    out
}

/// DynamoDB's build of a new index over items that already hold its key: one write per entry.
fn index_build(
    old: &Model,
    new: &Model,
    diff: &Diff,
    counts: &ItemCounts,
    index: &str,
    prices: &PriceTable,
) -> Vec<StepCost> {
    let Some(idx) = new.index(index) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (from, to) in &diff.renames {
        let Some(n) = new.entity(to) else { continue };
        if !(idx.native_member(n) || n.key(Some(index)).is_some()) {
            continue;
        }
        let units = write_units(entry_bytes(new, n, Some(index)), false);
        let items = counts.items(old, new, from, to);
        out.push(step(
            format!("build index {index} ({to})"),
            items,
            0.0,
            units,
            prices,
        ));
    }
    out
}
