//! The diff as text (grouped by what each change takes, then the cost of each step and what
//! `check` finds new in NEW) and as JSON.

use std::fmt::Write as _;

use monotable_check::{Report, ReportFormat};
use serde_json::json;

use super::{Change, Diff, Effect, StepCost};

/// The two files compared, as the user named them.
#[derive(Debug, Clone, Copy)]
pub struct Files<'a> {
    /// OLD's path.
    pub old: &'a str,
    /// NEW's path.
    pub new: &'a str,
    /// NEW's source, for the new findings' excerpts.
    pub new_source: &'a str,
}

fn heading(effect: Effect) -> &'static str {
    match effect {
        Effect::Online => "online: DynamoDB does these while the table serves",
        Effect::Rewrite => "rewrite: existing items are rewritten in place, conditionally",
        Effect::Move => {
            "move: items are put at their new key and deleted at the old one, one transaction each"
        }
        Effect::Remove => {
            "remove: `migrate` does these only when told (--remove-indexes, --delete-removed)"
        }
        Effect::Blocked => "cannot be done in place",
        Effect::None => "model only: nothing to do on the table",
    }
}

/// One line (or a few) for a change.
pub fn describe(change: &Change) -> String {
    match change {
        Change::CreateIndex {
            index,
            native: true,
        } => format!(
            "+ create index {index}: native index over existing attributes: no backfill, DynamoDB builds it from the items"
        ),
        Change::CreateIndex {
            index,
            native: false,
        } => {
            format!("+ create index {index}: created before the rewrite, which writes its keys")
        }
        Change::DeleteIndex { index } => format!("- delete index {index}"),
        Change::RecreateIndex { index, what } => format!(
            "~ recreate index {index} ({what}): deleted and created again; its patterns have no index in between"
        ),
        Change::Billing { from, to } => format!("~ billing mode {from} -> {to}"),
        Change::Ttl { from, to } => format!(
            "~ TTL attribute {} -> {}",
            from.as_deref().unwrap_or("none"),
            to.as_deref().unwrap_or("none")
        ),
        Change::Backfill {
            entity,
            index,
            what,
        } if what.starts_with("stops") => {
            format!("~ {entity} {what} ({index}): its items are rewritten without them")
        }
        Change::Backfill {
            entity,
            index,
            what,
        } => {
            format!("~ {entity} {what} ({index}): backfill its items")
        }
        Change::Move { entity, from, to } => {
            format!("~ {entity} key {to}\n      was {from}: its items move")
        }
        Change::Default {
            entity,
            attribute,
            value,
        } => format!("~ {entity}.{attribute} is required: items without it get `{value}`"),
        Change::Rename { from, to, inferred } => format!(
            "~ entity {from} renamed {to}{}: `entityType` rewritten",
            if *inferred {
                " (inferred: the same attributes; state it with `renamed_from`)"
            } else {
                ""
            }
        ),
        Change::RemoveEntity { entity } => format!("- entity {entity}: its items are deleted"),
        Change::AddEntity { entity } => format!("+ entity {entity}"),
        Change::ModelOnly { what } => format!("~ {what}"),
        Change::Blocked { what, why, help } => {
            format!("! {what}\n      why: {why}\n      help: {help}")
        }
    }
}

fn thousands(n: f64) -> String {
    let whole = n.round() as i128;
    let digits = whole.abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if whole < 0 { format!("-{out}") } else { out }
}

fn cost_table(out: &mut String, costs: &[StepCost]) {
    let _ = writeln!(
        out,
        "\ncost of each step (DynamoDB's capacity rules; price on demand, shipped price table):"
    );
    let _ = writeln!(
        out,
        "  {:<34} {:>12} {:>14} {:>14} {:>10}",
        "step", "items", "read units", "write units", "price"
    );
    for c in costs {
        let opt = |v: Option<f64>, per: f64| match v {
            Some(v) => thousands(v),
            None => format!("{}/item", (per * 1000.0).round() / 1000.0),
        };
        let _ = writeln!(
            out,
            "  {:<34} {:>12} {:>14} {:>14} {:>10}",
            c.step,
            c.items.map_or("?".to_string(), |n| thousands(n as f64)),
            opt(c.read_units, c.read_units_per_item),
            opt(c.write_units, c.write_units_per_item),
            c.price
                .map_or("?".to_string(), |p| format!("${}", p.round_dp(2))),
        );
    }
    if costs.iter().any(|c| c.items.is_none()) {
        let _ = writeln!(
            out,
            "  (? = item count unknown: give `--items N` or `--items Entity=N`, or `items` under [traffic.entities.X])"
        );
    }
}

/// The human report.
pub fn render_human(diff: &Diff, costs: &[StepCost], files: Files<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "monotable diff {} -> {}", files.old, files.new);
    if diff.changes.is_empty() {
        let _ = writeln!(out, "\nno changes");
    }
    for effect in [
        Effect::Blocked,
        Effect::Online,
        Effect::Rewrite,
        Effect::Move,
        Effect::Remove,
        Effect::None,
    ] {
        let group: Vec<&Change> = diff
            .changes
            .iter()
            .filter(|c| c.effect() == effect)
            .collect();
        if group.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n{}:", heading(effect));
        for c in group {
            let _ = writeln!(out, "  {}", describe(c));
        }
    }
    if !costs.is_empty() {
        cost_table(&mut out, costs);
    }
    let findings = &diff.new_findings;
    if findings.is_empty() {
        let _ = writeln!(out, "\ncheck on NEW: nothing new");
    } else {
        let _ = writeln!(out, "\ncheck on NEW: {} new finding(s)\n", findings.len());
        let report = Report::new(files.new, files.new_source, findings.clone());
        out.push_str(&report.render(ReportFormat::Human));
    }
    let verdict = if diff.new_errors() > 0 {
        "NEW has errors `check` did not find in OLD (above): fix them before migrating"
    } else if diff.is_blocked() {
        "blocked: some changes cannot be done in place (see above)"
    } else if diff.changes.iter().all(|c| c.effect() == Effect::None) {
        "nothing to migrate"
    } else {
        "run `monotable migrate OLD NEW` to see the plan against a table, `--apply` to run it"
    };
    let _ = writeln!(out, "\n{verdict}");
    out
}

/// The JSON report: `changes` (each with `kind`, `effect` and its fields), `costs`,
/// `new_findings` (code, severity, message, line) and `blocked`.
pub fn render_json(diff: &Diff, costs: &[StepCost], files: Files<'_>) -> String {
    let changes: Vec<serde_json::Value> = diff
        .changes
        .iter()
        .map(|c| {
            let mut v = serde_json::to_value(c).unwrap_or_default();
            if let Some(map) = v.as_object_mut() {
                map.insert(
                    "effect".into(),
                    serde_json::to_value(c.effect()).unwrap_or_default(),
                );
            }
            v
        })
        .collect();
    let report = Report::new(files.new, files.new_source, diff.new_findings.clone());
    let findings: serde_json::Value =
        serde_json::from_str(&report.render(ReportFormat::Json)).unwrap_or_default();
    let doc = json!({
        "old": files.old,
        "new": files.new,
        "blocked": diff.is_blocked(),
        "new_errors": diff.new_errors(),
        "changes": changes,
        "costs": costs,
        "new_findings": findings.get("diagnostics").cloned().unwrap_or(findings),
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}
