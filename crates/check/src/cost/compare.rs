//! `monotable cost OLD --compare NEW`: two designs of the same workload side by side, per
//! entity (bytes stored per item on the table and its indexes, of which index key copies, and
//! write units per item write) and for the whole table (units per second, dollars per month).
//!
//! Both sides are [`estimate`](super::estimate)s with the same prices; the per-item figures come
//! from the same sizing rules. A native multi-attribute index stores the item's own attributes,
//! so its entries carry no key copies: the `key copies` column is what synthetic index keys
//! (`GSI1PK = "USER#{userId}"`) add to each item.

use monotable_model::{Entity, Model};
use rust_decimal::Decimal;
use serde::Serialize;

use super::call::{entity_indexes, put_units};
use super::estimate::{entry_bytes, rendered_bytes};
use super::render::{number, table};
use super::{CostReport, DesignCost, PriceTable, estimate};
use crate::num;

/// One entity's figures in one design.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntityFigures {
    /// Bytes stored per item: the item on the table plus its entry in every index it is in.
    pub storage_bytes: u64,
    /// Of the item's bytes, those of index key attributes written from templates (copies of
    /// other attributes); 0 for keys that are native.
    pub key_copy_bytes: u64,
    /// Indexes the item is in (when it is in all it can be).
    pub indexes: Vec<String>,
    /// Write units of writing one item (PutItem): the table and every index entry.
    pub wcu_per_write: f64,
}

/// An entity in either design.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntityComparison {
    /// Entity name.
    pub entity: String,
    /// In the old design, if it has the entity.
    pub old: Option<EntityFigures>,
    /// In the new design, if it has the entity.
    pub new: Option<EntityFigures>,
}

/// Two designs compared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// How the old design is named (its file).
    pub old_name: String,
    /// How the new design is named.
    pub new_name: String,
    /// Per entity, in name order.
    pub entities: Vec<EntityComparison>,
    /// The old design's single table priced (`None` without traffic).
    pub old: Option<DesignCost>,
    /// The new design's.
    pub new: Option<DesignCost>,
}

/// Bytes of the index key attributes `entity` writes from templates (not the table's keys).
fn key_copy_bytes(model: &Model, entity: &Entity) -> u64 {
    let table_keys = [
        Some(model.table.partition_key.name.as_str()),
        model.table.sort_key.as_ref().map(|k| k.name.as_str()),
    ];
    num::total(
        entity
            .keys
            .iter()
            .filter(|k| !table_keys.contains(&Some(k.attribute.as_str())))
            .map(|k| {
                num::count(k.attribute.len()).saturating_add(rendered_bytes(&k.template, entity))
            }),
    )
}

fn figures(model: &Model, entity: &Entity) -> EntityFigures {
    let indexes = entity_indexes(model, entity);
    let storage_bytes = indexes
        .iter()
        .map(|i| entry_bytes(model, entity, Some(&i.name)))
        .fold(entry_bytes(model, entity, None), u64::saturating_add);
    EntityFigures {
        storage_bytes,
        key_copy_bytes: key_copy_bytes(model, entity),
        indexes: indexes.iter().map(|i| i.name.clone()).collect(),
        wcu_per_write: put_units(model, entity, false).total,
    }
}

fn single_table(report: &CostReport) -> Option<DesignCost> {
    report
        .designs
        .iter()
        .find(|d| d.design == "single-table")
        .cloned()
}

/// Compares `old` with `new` (named `old_name`, `new_name` in the output) under `prices`.
pub fn compare(
    old_name: &str,
    old: &Model,
    new_name: &str,
    new: &Model,
    prices: &PriceTable,
) -> Comparison {
    let mut names: Vec<&str> = old
        .entities
        .iter()
        .chain(&new.entities)
        .map(|e| e.name.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    let entities = names
        .into_iter()
        .map(|name| EntityComparison {
            entity: name.to_string(),
            old: old.entity(name).map(|e| figures(old, e)),
            new: new.entity(name).map(|e| figures(new, e)),
        })
        .collect();
    Comparison {
        old_name: old_name.to_string(),
        new_name: new_name.to_string(),
        entities,
        old: single_table(&estimate(old, prices)),
        new: single_table(&estimate(new, prices)),
    }
}

/// `+12`, `-3.5`, `0`.
fn change(old: f64, new: f64) -> String {
    let d = new - old;
    if d.abs() < 1e-9 {
        "0".to_string()
    } else if d > 0.0 {
        format!("+{}", number(d))
    } else {
        number(d)
    }
}

fn money_change(old: Option<Decimal>, new: Option<Decimal>) -> String {
    match (old, new) {
        (Some(a), Some(b)) => {
            let d = b - a;
            if d > Decimal::ZERO {
                format!("+{d}")
            } else {
                d.to_string()
            }
        }
        _ => "-".to_string(),
    }
}

fn cell<T>(x: Option<&T>, show: impl Fn(&T) -> String) -> String {
    x.map_or_else(|| "-".to_string(), show)
}

impl Comparison {
    /// Aligned text tables. Hidden characters (of a price file's text, say) are escaped.
    pub fn render_human(&self) -> String {
        monotable_model::text::escape(&self.human()).into_owned()
    }

    fn human(&self) -> String {
        let mut out = format!("cost: {} -> {}\n\n", self.old_name, self.new_name);
        self.entity_table(&mut out);
        self.month_table(&mut out);
        out.push_str(
            "\nnotes\n  - storage is bytes per item on the table plus its entry in each index it can be in (a sparse index counted as holding it); item sizes come from each model's traffic section\n  \
             - key copies are the index key strings an item carries besides its own attributes; a native multi-attribute index key has none\n",
        );
        out
    }

    fn entity_table(&self, out: &mut String) {
        out.push_str(
            "per item (bytes stored on the table and its indexes; write units of one PutItem)\n",
        );
        let rows: Vec<Vec<String>> = self
            .entities
            .iter()
            .map(|e| {
                let (o, n) = (e.old.as_ref(), e.new.as_ref());
                let both = |f: &dyn Fn(&EntityFigures) -> f64| match (o, n) {
                    (Some(a), Some(b)) => change(f(a), f(b)),
                    _ => "-".to_string(),
                };
                vec![
                    e.entity.clone(),
                    cell(o, |f| f.storage_bytes.to_string()),
                    cell(n, |f| f.storage_bytes.to_string()),
                    both(&|f| num::to_f64(f.storage_bytes)),
                    cell(o, |f| f.key_copy_bytes.to_string()),
                    cell(n, |f| f.key_copy_bytes.to_string()),
                    both(&|f| num::to_f64(f.key_copy_bytes)),
                    cell(o, |f| number(f.wcu_per_write)),
                    cell(n, |f| number(f.wcu_per_write)),
                    both(&|f| f.wcu_per_write),
                ]
            })
            .collect();
        let headers = [
            "entity",
            "storage B old",
            "new",
            "change",
            "key copies B old",
            "new",
            "change",
            "WCU/write old",
            "new",
            "change",
        ];
        table(out, &headers, 1, &rows);
    }

    fn month_table(&self, out: &mut String) {
        let (Some(old), Some(new)) = (&self.old, &self.new) else {
            out.push_str("\nmonthly figures need a [traffic] section in both models\n");
            return;
        };
        out.push_str("\nsingle table, per second and per month (USD)\n");
        let money = |d: &Option<Decimal>| d.map_or_else(|| "-".to_string(), |d| d.to_string());
        let rows = vec![
            vec![
                "indexes".to_string(),
                old.indexes.to_string(),
                new.indexes.to_string(),
                change(
                    num::to_f64(num::count(old.indexes)),
                    num::to_f64(num::count(new.indexes)),
                ),
            ],
            vec![
                "RCU/s".to_string(),
                number(old.rcu_per_second),
                number(new.rcu_per_second),
                change(old.rcu_per_second, new.rcu_per_second),
            ],
            vec![
                "WCU/s".to_string(),
                number(old.wcu_per_second),
                number(new.wcu_per_second),
                change(old.wcu_per_second, new.wcu_per_second),
            ],
            vec![
                "on-demand".to_string(),
                money(&old.on_demand_monthly),
                money(&new.on_demand_monthly),
                money_change(old.on_demand_monthly, new.on_demand_monthly),
            ],
            vec![
                "provisioned".to_string(),
                money(&old.provisioned_monthly),
                money(&new.provisioned_monthly),
                money_change(old.provisioned_monthly, new.provisioned_monthly),
            ],
        ];
        table(out, &["figure", "old", "new", "change"], 1, &rows);
    }

    /// One JSON document (amounts as decimal strings).
    pub fn render_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        monotable_model::text::escape_json(&text).into_owned()
    }
}
