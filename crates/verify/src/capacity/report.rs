//! The cross-check's report: one figure per check, predicted next to the engine's, rendered for
//! people (ending `N agree, M disagree`) or as JSON.

use monotable_check::cost::{self, IndexUnits, Units};
use serde::Serialize;

/// `units` to at most three decimals, without trailing zeros.
fn round(units: f64) -> String {
    let text = format!("{units:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Units closer than this are equal.
const EPSILON: f64 = 1e-9;

/// One cross-checked figure: a pattern (or the PutItem of an entity's samples), summed over its
/// requests.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CapacityCheck {
    /// Pattern name; for the load, the entity written.
    pub name: String,
    /// DynamoDB operation sent (`PutItem`, `GetItem`, `Query`, `DeleteItem`,
    /// `TransactWriteItems`).
    pub operation: String,
    /// `RCU` or `WCU`.
    pub unit: String,
    /// Requests sent (every Query page counts).
    pub requests: usize,
    /// Items read or written.
    pub items: usize,
    /// Bytes of those items (or index entries read), by `check::cost::item_size`.
    pub bytes: u64,
    /// `check::cost`'s rules on the actual items, summed over the requests.
    pub predicted: Units,
    /// The engine's `ConsumedCapacity`, summed over the requests.
    pub engine: Units,
    /// Every request agreed: total, table and each index.
    pub agrees: bool,
    /// The first disagreeing request (else the first request) with both figures.
    pub request: String,
}

/// The cross-check of a model on its verify data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CapacityReport {
    /// Table name of the model.
    pub table: String,
    /// Seed the sample data was generated from.
    pub seed: u64,
    /// Sample items written.
    pub items: usize,
    /// One entry per entity (PutItem) and per pattern checked.
    pub checks: Vec<CapacityCheck>,
    /// The capacity emulator's figure for the table and each global secondary index, next to
    /// the engine's figures summed over every check.
    pub emulator: Vec<EmulatorCheck>,
    /// What was not checked, and why.
    pub notes: Vec<String>,
}

/// The capacity emulator's units for one table or index against the engine's, summed over every
/// measured call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EmulatorCheck {
    /// `table` or the index name.
    pub resource: String,
    /// The engine's `ConsumedCapacity` summed over the checks.
    pub engine: f64,
    /// What the emulator metered (read and write units).
    pub emulator: f64,
    /// The two agree.
    pub agrees: bool,
}

/// Compare the emulator's snapshot with the engine's figures summed over `checks`: the table,
/// then each global secondary index of `model` (local ones are metered with their table).
pub fn emulator_checks(
    model: &monotable_model::Model,
    checks: &[CapacityCheck],
    snapshot: &monotable_connect::capacity::MetricsSnapshot,
) -> Vec<EmulatorCheck> {
    let metered = |index: Option<&str>| {
        snapshot
            .resources
            .iter()
            .find(|r| r.table == model.table.name && r.index.as_deref() == index)
            .map_or(0.0, |r| r.read_units + r.write_units)
    };
    let summed = |index: Option<&str>| -> f64 {
        checks
            .iter()
            .map(|c| match index {
                None => c.engine.table,
                Some(name) => c
                    .engine
                    .indexes
                    .iter()
                    .filter(|i| i.index == name)
                    .map(|i| i.units)
                    .sum(),
            })
            .sum()
    };
    let names = std::iter::once(None).chain(
        model
            .indexes
            .iter()
            .filter(|i| i.kind == monotable_model::IndexKind::Global)
            .map(|i| Some(i.name.as_str())),
    );
    names
        .map(|index| {
            let (engine, emulator) = (summed(index), metered(index));
            EmulatorCheck {
                resource: index.unwrap_or("table").to_string(),
                engine,
                emulator,
                agrees: (engine - emulator).abs() < 1e-6,
            }
        })
        .collect()
}

impl CapacityReport {
    /// (agree, disagree) counts.
    pub fn counts(&self) -> (usize, usize) {
        let agree = self.checks.iter().filter(|c| c.agrees).count();
        (agree, self.checks.len() - agree)
    }

    /// True when every figure agrees.
    pub fn agrees(&self) -> bool {
        self.checks.iter().all(|c| c.agrees) && self.emulator.iter().all(|e| e.agrees)
    }

    /// The checks that disagree.
    pub fn disagreements(&self) -> impl Iterator<Item = &CapacityCheck> {
        self.checks.iter().filter(|c| !c.agrees)
    }

    /// The summary line: `N agree, M disagree`.
    pub fn summary(&self) -> String {
        let (agree, disagree) = self.counts();
        format!("{agree} agree, {disagree} disagree")
    }

    /// A table for people: one line per check, the disagreeing request under each
    /// disagreement, the notes, and a final `N agree, M disagree` line.
    pub fn render_human(&self) -> String {
        let mut out = format!(
            "capacity cross-check on table {}: {} sample items (seed {}), ReturnConsumedCapacity INDEXES\n",
            self.table, self.items, self.seed
        );
        let rows: Vec<[String; 6]> = self
            .checks
            .iter()
            .map(|c| {
                [
                    if c.agrees { "ok" } else { "DIFF" }.to_string(),
                    c.name.clone(),
                    c.operation.clone(),
                    c.requests.to_string(),
                    format!("{} {}", show_units(&c.predicted), c.unit),
                    format!("{} {}", show_units(&c.engine), c.unit),
                ]
            })
            .collect();
        let header =
            ["", "check", "operation", "requests", "predicted", "engine"].map(str::to_string);
        let mut widths = [0usize; 6];
        for row in std::iter::once(&header).chain(&rows) {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let line = |row: &[String; 6]| {
            let cells: Vec<String> = row
                .iter()
                .zip(widths)
                .map(|(cell, w)| format!("{cell:<w$}"))
                .collect();
            format!("{}\n", cells.join("  ").trim_end())
        };
        out.push_str(&line(&header));
        for (row, check) in rows.iter().zip(&self.checks) {
            out.push_str(&line(row));
            if !check.agrees {
                out.push_str(&format!("      request: {}\n", check.request));
            }
        }
        if !self.emulator.is_empty() {
            out.push_str("capacity emulator, summed over every call above:\n");
        }
        for e in &self.emulator {
            out.push_str(&format!(
                "{:<4}  {}: engine {} units, emulator {} units\n",
                if e.agrees { "ok" } else { "DIFF" },
                e.resource,
                round(e.engine),
                round(e.emulator)
            ));
        }
        for note in &self.notes {
            out.push_str(&format!("note: {note}\n"));
        }
        out.push_str(&self.summary());
        out.push('\n');
        out
    }

    /// The report as pretty-printed JSON with an `agrees` flag and a `summary` object, and a
    /// trailing newline.
    pub fn render_json(&self) -> String {
        let (agree, disagree) = self.counts();
        let value = serde_json::json!({
            "agrees": self.agrees(),
            "summary": { "agree": agree, "disagree": disagree },
            "table": self.table,
            "seed": self.seed,
            "items": self.items,
            "checks": self.checks,
            "emulator": self.emulator,
            "notes": self.notes,
        });
        let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// `2 (table 1, GSI1 1)`.
pub(super) fn show_units(units: &Units) -> String {
    let mut parts = vec![format!("table {}", cost::format_units(units.table))];
    parts.extend(
        units
            .indexes
            .iter()
            .map(|i| format!("{} {}", i.index, cost::format_units(i.units))),
    );
    format!("{} ({})", cost::format_units(units.total), parts.join(", "))
}

pub(super) fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < EPSILON
}

/// Same total, table and per-index units (an index absent on one side counts as 0).
pub(super) fn same(a: &Units, b: &Units) -> bool {
    close(a.total, b.total)
        && close(a.table, b.table)
        && a.indexes
            .iter()
            .chain(&b.indexes)
            .all(|i| close(a.index(&i.index), b.index(&i.index)))
}

pub(super) fn units(table: f64, indexes: Vec<IndexUnits>) -> Units {
    let total = table + indexes.iter().map(|i| i.units).sum::<f64>();
    Units {
        total,
        table,
        indexes,
    }
}

/// One request: what `check::cost` predicts and what the engine reported.
pub(super) struct Measured {
    pub(super) request: String,
    pub(super) items: usize,
    pub(super) bytes: u64,
    pub(super) predicted: Units,
    pub(super) engine: Result<Units, String>,
}

impl Measured {
    fn agrees(&self) -> bool {
        self.engine.as_ref().is_ok_and(|e| same(&self.predicted, e))
    }

    fn describe(&self) -> String {
        let engine = match &self.engine {
            Ok(u) => show_units(u),
            Err(e) => e.clone(),
        };
        format!(
            "{}: {} items, {} B: predicted {}, engine {}",
            self.request,
            self.items,
            self.bytes,
            show_units(&self.predicted),
            engine
        )
    }
}

pub(super) fn check(
    name: &str,
    operation: &str,
    unit: &str,
    measured: &[Measured],
) -> CapacityCheck {
    let mut predicted = Units::default();
    let mut engine = Units::default();
    for m in measured {
        predicted.add_scaled(&m.predicted, 1.0);
        if let Ok(e) = &m.engine {
            engine.add_scaled(e, 1.0);
        }
    }
    let first_bad = measured.iter().find(|m| !m.agrees());
    CapacityCheck {
        name: name.to_string(),
        operation: operation.to_string(),
        unit: unit.to_string(),
        requests: measured.len(),
        items: measured.iter().map(|m| m.items).sum(),
        bytes: measured.iter().map(|m| m.bytes).sum(),
        predicted,
        engine,
        agrees: !measured.is_empty() && first_bad.is_none(),
        request: first_bad
            .or(measured.first())
            .map(Measured::describe)
            .unwrap_or_else(|| "no request was sent".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_compare_index_by_index() {
        let a = units(
            1.0,
            vec![IndexUnits {
                index: "GSI1".into(),
                units: 1.0,
            }],
        );
        let b = units(2.0, Vec::new());
        assert!(same(&a, &a));
        assert!(!same(&a, &b), "same total, different split");
        assert_eq!(show_units(&a), "2 (table 1, GSI1 1)");
    }
}
