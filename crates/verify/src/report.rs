//! The verification report: one result per access pattern, rendered for people or as JSON.

use serde::Serialize;

/// The outcome of one access pattern.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PatternResult {
    /// Pattern name.
    pub name: String,
    /// DynamoDB operation (`GetItem`, `Query`, ...).
    pub operation: String,
    /// Every request returned exactly the expected items and the promised entity types.
    pub passed: bool,
    /// Not run (write patterns); neither passed nor failed.
    pub skipped: bool,
    /// Requests made (each Query followed through all its pages).
    pub requests: usize,
    /// Items returned over all requests.
    pub items: usize,
    /// The request shown: the failing one, else the first, with rendered key values.
    pub request: String,
    /// What that request should have returned (`Entity PK | SK`).
    pub expected: Vec<String>,
    /// What it returned.
    pub got: Vec<String>,
    /// What went wrong, or a short summary when it passed or was skipped.
    pub message: String,
    /// A write pattern's checks, each passed or failed (empty for a read).
    pub checks: Vec<Check>,
}

/// What a write check judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckKind {
    /// The items written have the keys, attributes, types and values the model says.
    Effect,
    /// Every read that should return a written item does, and every other does not.
    Reads,
    /// A condition clause, satisfied once and violated once, its failure named.
    Condition,
    /// A `unique` constraint: a second write of a value refused, no guard left behind.
    Unique,
    /// A transaction with one action made to fail: nothing written, the action named.
    Atomicity,
    /// What the checks wrote is gone again.
    Cleanup,
}

impl CheckKind {
    /// Its name, as the JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            CheckKind::Effect => "effect",
            CheckKind::Reads => "reads",
            CheckKind::Condition => "condition",
            CheckKind::Unique => "unique",
            CheckKind::Atomicity => "atomicity",
            CheckKind::Cleanup => "cleanup",
        }
    }
}

/// One check of a write pattern.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What it judges.
    pub kind: CheckKind,
    /// Whether it held.
    pub passed: bool,
    /// What was done and what came of it.
    pub detail: String,
    /// The request that shows it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub request: String,
    /// What the model says should have happened.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expected: Vec<String>,
    /// What happened.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub got: Vec<String>,
}

impl Check {
    /// A check that held.
    pub fn pass(kind: CheckKind, detail: impl Into<String>) -> Check {
        Check {
            kind,
            passed: true,
            detail: detail.into(),
            request: String::new(),
            expected: Vec::new(),
            got: Vec::new(),
        }
    }

    /// A check that failed, with the request that shows it, what was expected and what came.
    pub fn fail(
        kind: CheckKind,
        detail: impl Into<String>,
        request: impl Into<String>,
        expected: Vec<String>,
        got: Vec<String>,
    ) -> Check {
        Check {
            kind,
            passed: false,
            detail: detail.into(),
            request: request.into(),
            expected,
            got,
        }
    }
}

impl PatternResult {
    /// True when the pattern ran and failed.
    pub fn failed(&self) -> bool {
        !self.passed && !self.skipped
    }
}

/// Where the items a report ran over come from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Sample data generated from the model and the seed, in an in-memory table.
    #[default]
    Generated,
    /// The items already in a live table (`verify --table`).
    Table,
}

/// The result of verifying a model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// Table name of the model.
    pub table: String,
    /// Seed the sample data was generated from (and the sample items to query picked with).
    pub seed: u64,
    /// Where the items come from.
    pub source: Source,
    /// Items generated and loaded, or read from the table.
    pub items: usize,
    /// Items per entity, sorted by entity name.
    pub entities: Vec<(String, usize)>,
    /// One result per access pattern, in the model's (name) order.
    pub patterns: Vec<PatternResult>,
    /// Samples that could not be generated, and why.
    pub warnings: Vec<String>,
}

impl VerifyReport {
    /// True when no pattern failed.
    pub fn passed(&self) -> bool {
        !self.patterns.iter().any(PatternResult::failed)
    }

    /// Patterns that failed.
    pub fn failures(&self) -> impl Iterator<Item = &PatternResult> {
        self.patterns.iter().filter(|p| p.failed())
    }

    /// (passed, failed, skipped) counts.
    pub fn counts(&self) -> (usize, usize, usize) {
        let passed = self.patterns.iter().filter(|p| p.passed).count();
        let skipped = self.patterns.iter().filter(|p| p.skipped).count();
        (passed, self.patterns.len() - passed - skipped, skipped)
    }

    /// The summary line: `N patterns passed, M failed` (and skipped ones when any).
    pub fn summary(&self) -> String {
        let (passed, failed, skipped) = self.counts();
        let noun = if passed == 1 { "pattern" } else { "patterns" };
        let mut line = format!("{passed} {noun} passed, {failed} failed");
        if skipped > 0 {
            line.push_str(&format!(", {skipped} skipped"));
        }
        line
    }

    /// Human-readable report: one line per pattern, details under each failure, a summary line.
    pub fn render_human(&self) -> String {
        let mut out = String::new();
        let entities: Vec<String> = self
            .entities
            .iter()
            .map(|(e, n)| format!("{n} {e}"))
            .collect();
        let items = match self.source {
            Source::Generated => "sample items",
            Source::Table => "items read from the table",
        };
        out.push_str(&format!(
            "table {}: {} {items} (seed {}): {}\n",
            self.table,
            self.items,
            self.seed,
            entities.join(", ")
        ));
        for w in &self.warnings {
            out.push_str(&format!("warning: {w}\n"));
        }
        for p in &self.patterns {
            if p.skipped {
                out.push_str(&format!(
                    "skip {} ({}): {}\n",
                    p.name, p.operation, p.message
                ));
            } else if p.passed {
                out.push_str(&format!(
                    "ok   {} ({}) {}\n",
                    p.name, p.operation, p.message
                ));
            } else {
                out.push_str(&format!(
                    "FAIL {} ({}): {}\n",
                    p.name, p.operation, p.message
                ));
                out.push_str(&format!("     request:  {}\n", p.request));
                list(&mut out, "expected:", &p.expected);
                list(&mut out, "got:     ", &p.got);
                for c in p.checks.iter().filter(|c| !c.passed).skip(1) {
                    out.push_str(&format!(
                        "     also:     {}: {}\n",
                        c.kind.as_str(),
                        c.detail
                    ));
                    if !c.request.is_empty() {
                        out.push_str(&format!("               request: {}\n", c.request));
                    }
                }
            }
        }
        out.push_str(&self.summary());
        out.push('\n');
        out
    }

    /// The report as pretty-printed JSON, with a `summary` object, and a trailing newline.
    pub fn render_json(&self) -> String {
        let (passed, failed, skipped) = self.counts();
        let value = serde_json::json!({
            "passed": self.passed(),
            "summary": { "passed": passed, "failed": failed, "skipped": skipped },
            "table": self.table,
            "seed": self.seed,
            "source": self.source,
            "items": self.items,
            "entities": self.entities.iter().map(|(e, n)| serde_json::json!({ "entity": e, "items": n })).collect::<Vec<_>>(),
            "patterns": self.patterns,
            "warnings": self.warnings,
        });
        let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
        text.push('\n');
        text
    }
}

fn list(out: &mut String, label: &str, items: &[String]) {
    if items.is_empty() {
        out.push_str(&format!("     {label} (nothing)\n"));
        return;
    }
    for (i, item) in items.iter().enumerate() {
        let label = if i == 0 { label } else { "         " };
        out.push_str(&format!("     {label} {item}\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(name: &str, passed: bool, skipped: bool) -> PatternResult {
        PatternResult {
            name: name.into(),
            operation: "Query".into(),
            passed,
            skipped,
            requests: 1,
            items: 0,
            request: "Query table: PK = \"A\"".into(),
            expected: vec!["Order A | B".into()],
            got: vec![],
            message: "expected an Order, got none".into(),
            checks: vec![],
        }
    }

    #[test]
    fn renders() {
        let report = VerifyReport {
            table: "T".into(),
            seed: 1,
            source: Source::Table,
            items: 0,
            entities: vec![],
            patterns: vec![
                result("a", true, false),
                result("b", false, false),
                result("c", false, true),
            ],
            warnings: vec![],
        };
        assert!(!report.passed());
        let human = report.render_human();
        assert!(human.starts_with("table T: 0 items read from the table (seed 1): \n"));
        assert!(human.contains("FAIL b (Query): expected an Order, got none"));
        assert!(human.contains("     request:  Query table: PK = \"A\""));
        assert!(human.contains("     got:      (nothing)"));
        assert!(human.ends_with("1 pattern passed, 1 failed, 1 skipped\n"));
        let json: serde_json::Value = serde_json::from_str(&report.render_json()).unwrap();
        assert_eq!(json["summary"]["failed"], 1);
        assert_eq!(json["source"], "table");
        assert_eq!(json["patterns"][1]["name"], "b");
    }
}
