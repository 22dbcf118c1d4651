//! A migration's summary as text and as JSON.

use std::fmt::Write as _;

use super::Summary;

/// The human summary.
pub fn render_human(summary: &Summary) -> String {
    let mut out = String::new();
    let mode = if summary.dry_run {
        "dry run (nothing written; --apply runs it)"
    } else {
        "applied"
    };
    let _ = writeln!(out, "migration of table {}: {mode}", summary.table);
    if summary.resumed {
        let _ = writeln!(out, "resumed an interrupted run from its checkpoint");
    }
    if !summary.steps.is_empty() {
        let _ = writeln!(out, "\ntable steps:");
        for s in &summary.steps {
            let _ = writeln!(out, "  {:<40} {}", s.what, s.status);
        }
    }
    let c = &summary.counts;
    let verb = |done: &str, would: &str| if summary.dry_run { would } else { done }.to_string();
    let _ = writeln!(
        out,
        "\nitems: {} scanned in {} segments",
        c.scanned, summary.segments
    );
    let rows = [
        (
            c.rewritten,
            verb("rewritten in place", "to rewrite in place"),
        ),
        (c.moved, verb("moved to a new key", "to move to a new key")),
        (
            c.deleted,
            verb("deleted (entity removed)", "to delete (entity removed)"),
        ),
        (c.unchanged, "already as NEW writes them".to_string()),
        (
            c.untouched,
            "of entities the change does not touch".to_string(),
        ),
        (
            c.vanished,
            "deleted by another writer meanwhile".to_string(),
        ),
        (
            c.retried,
            "writes retried after another writer changed the item".to_string(),
        ),
        (c.left, "left as they were (below)".to_string()),
    ];
    for (n, what) in rows {
        if n > 0 {
            let _ = writeln!(out, "  {n:>10}  {what}");
        }
    }
    if !summary.left.is_empty() {
        let _ = writeln!(out, "\nleft as they were:");
        for (why, (n, example)) in &summary.left {
            let example = if example.is_empty() {
                String::new()
            } else {
                format!(", e.g. {example}")
            };
            let _ = writeln!(out, "  {n} item(s): {why}{example}");
        }
    }
    out
}

/// The JSON summary.
pub fn render_json(summary: &Summary) -> serde_json::Value {
    let left: Vec<serde_json::Value> = summary
        .left
        .iter()
        .map(|(why, (n, example))| serde_json::json!({ "reason": why, "items": n, "example": example }))
        .collect();
    serde_json::json!({
        "table": summary.table,
        "dry_run": summary.dry_run,
        "resumed": summary.resumed,
        "segments": summary.segments,
        "steps": summary.steps,
        "counts": summary.counts,
        "left": left,
        "complete": summary.complete(),
    })
}
