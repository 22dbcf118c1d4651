//! The audit's report: findings in a stable order, what was read, and its rustc-style human and
//! JSON renderings (the human one quotes the model as `monotable check` does).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use monotable_model::diagnostic::{Diagnostic, Placed, ReportFormat, Severity, SourceFile};
use monotable_model::limits::thousands;
use serde::Serialize;

use monotable_access::conform::{Code, Finding};

/// Findings of one code printed in human output; the rest are counted.
pub const SHOWN_PER_CODE: usize = 20;
/// Findings of one code kept in the report (and listed in JSON); the rest are counted.
pub const KEPT_PER_CODE: usize = 1000;

/// How a `--sample` audit read the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AuditSample {
    /// Items asked for.
    pub requested: usize,
    /// Segments read (in random order), each up to its end or until enough items were read.
    pub segments_read: usize,
    /// The scan's `TotalSegments`.
    pub total_segments: i32,
}

/// What an audit found.
#[derive(Debug, Clone)]
pub struct AuditReport {
    pub(crate) table: String,
    pub(crate) findings: Vec<Finding>,
    pub(crate) counts: BTreeMap<Code, usize>,
    pub(crate) items: u64,
    pub(crate) entities: BTreeMap<String, u64>,
    pub(crate) untyped: u64,
    pub(crate) migration_records: u64,
    pub(crate) sample: Option<AuditSample>,
    pub(crate) source: Option<SourceFile>,
}

impl AuditReport {
    /// An empty report on `table`.
    pub(crate) fn new(table: &str) -> Self {
        Self {
            table: table.to_string(),
            findings: Vec::new(),
            counts: BTreeMap::new(),
            items: 0,
            entities: BTreeMap::new(),
            untyped: 0,
            migration_records: 0,
            sample: None,
            source: None,
        }
    }

    /// Adds a finding, kept when fewer than [`KEPT_PER_CODE`] of its code are, counted always.
    pub(crate) fn push(&mut self, finding: Finding) {
        let count = self.counts.entry(finding.code).or_default();
        *count += 1;
        if *count <= KEPT_PER_CODE {
            self.findings.push(finding);
        }
    }

    /// Adds another part of the same audit (a segment's).
    pub(crate) fn merge(&mut self, other: AuditReport) {
        let mut kept: BTreeMap<Code, usize> = BTreeMap::new();
        for f in &self.findings {
            *kept.entry(f.code).or_default() += 1;
        }
        for f in other.findings {
            let n = kept.entry(f.code).or_default();
            if *n < KEPT_PER_CODE {
                *n += 1;
                self.findings.push(f);
            }
        }
        for (code, n) in other.counts {
            *self.counts.entry(code).or_default() += n;
        }
        self.items += other.items;
        for (entity, n) in other.entities {
            *self.entities.entry(entity).or_default() += n;
        }
        self.untyped += other.untyped;
        self.migration_records += other.migration_records;
    }

    /// Sorts the findings: code, then item, attribute and message.
    pub(crate) fn sort(&mut self) {
        self.findings
            .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    }

    /// The report with the model's path and text, so findings quote it (`--> shop.toml:74:15`).
    pub fn with_source(mut self, path: &str, text: &str) -> Self {
        self.source = Some(SourceFile::new(path, text));
        self
    }

    /// The table audited.
    pub fn table(&self) -> &str {
        &self.table
    }

    /// The findings kept (at most [`KEPT_PER_CODE`] per code), in order.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// The codes of the findings kept, in order (handy in tests).
    pub fn codes(&self) -> Vec<&'static str> {
        self.findings.iter().map(|f| f.code.code()).collect()
    }

    /// Findings of each code, kept or not.
    pub fn counts(&self) -> &BTreeMap<Code, usize> {
        &self.counts
    }

    /// Every finding, kept or not.
    pub fn problems(&self) -> usize {
        self.counts.values().sum()
    }

    /// True when anything does not fit the model.
    pub fn has_drift(&self) -> bool {
        self.problems() > 0
    }

    /// Items read, migration records included.
    pub fn items_scanned(&self) -> u64 {
        self.items
    }

    /// Items read per `entityType` (unknown ones included).
    pub fn entity_counts(&self) -> &BTreeMap<String, u64> {
        &self.entities
    }

    /// Items read without an `entityType`.
    pub fn untyped_items(&self) -> u64 {
        self.untyped
    }

    /// Migration checkpoint records seen (not audited).
    pub fn migration_records(&self) -> u64 {
        self.migration_records
    }

    /// How the table was sampled; `None` when every item was read.
    pub fn sample(&self) -> Option<&AuditSample> {
        self.sample.as_ref()
    }

    fn count_of(&self, wanted: Severity) -> usize {
        self.counts
            .iter()
            .filter(|(code, _)| code.severity() == wanted)
            .map(|(_, n)| n)
            .sum()
    }

    /// Renders the report: rustc-style findings then a summary, or one JSON document.
    pub fn render(&self, format: ReportFormat) -> String {
        match format {
            ReportFormat::Json => self.render_json(),
            _ => self.render_human(),
        }
    }

    fn source(&self) -> SourceFile {
        self.source
            .clone()
            .unwrap_or_else(|| SourceFile::new("<model>", ""))
    }

    fn render_human(&self) -> String {
        let source = self.source();
        let mut out = String::new();
        for group in self.findings.chunk_by(|a, b| a.code == b.code) {
            for f in group.iter().take(SHOWN_PER_CODE) {
                source.write(&mut out, &diagnostic(f, self.source.is_some()));
                out.push('\n');
            }
            let code = group[0].code;
            let total = self.counts.get(&code).copied().unwrap_or(group.len());
            let shown = group.len().min(SHOWN_PER_CODE);
            if total > shown {
                let more = thousands(total - shown);
                let _ = writeln!(out, "... and {more} more {code} ({})\n", code.name());
            }
        }
        out.push_str(&self.entity_line());
        out.push_str(&self.summary());
        out.push('\n');
        out
    }

    /// `items: Order 8, User 8; 2 without entityType; 1 migration record not audited`.
    fn entity_line(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if !self.entities.is_empty() {
            let each: Vec<String> = self
                .entities
                .iter()
                .map(|(e, n)| format!("{e} {}", thousands(*n)))
                .collect();
            parts.push(each.join(", "));
        }
        if self.untyped > 0 {
            parts.push(format!("{} without entityType", thousands(self.untyped)));
        }
        if self.migration_records > 0 {
            let s = if self.migration_records == 1 { "" } else { "s" };
            parts.push(format!(
                "{} migration record{s} not audited",
                thousands(self.migration_records)
            ));
        }
        if parts.is_empty() {
            return String::new();
        }
        format!("items: {}\n", parts.join("; "))
    }

    /// `audited 1,234 items of table Shop: 3 problems`.
    pub fn summary(&self) -> String {
        let items = match &self.sample {
            Some(s) => format!(
                "a sample of {} items ({} of {} segments)",
                thousands(self.items),
                thousands(s.segments_read),
                thousands(u64::try_from(s.total_segments).unwrap_or_default())
            ),
            None => format!(
                "{} item{}",
                thousands(self.items),
                if self.items == 1 { "" } else { "s" }
            ),
        };
        let problems = match self.problems() {
            0 => "no problems".to_string(),
            1 => "1 problem".to_string(),
            n => format!("{} problems", thousands(n)),
        };
        format!("audited {items} of table {}: {problems}", self.table)
    }

    fn render_json(&self) -> String {
        let source = self.source();
        let quoted = self.source.is_some();
        let diagnostics: Vec<Diagnostic> = self
            .findings
            .iter()
            .map(|f| diagnostic(f, quoted))
            .collect();
        let findings: Vec<JsonFinding<'_>> = self
            .findings
            .iter()
            .zip(&diagnostics)
            .map(|(f, d)| JsonFinding::of(f, d, &source))
            .collect();
        let doc = Json {
            file: self.source.as_ref().map(SourceFile::path),
            table: &self.table,
            items_scanned: self.items,
            sample: self.sample,
            entities: &self.entities,
            untyped_items: self.untyped,
            migration_records: self.migration_records,
            counts: self.counts.iter().map(|(c, n)| (c.code(), *n)).collect(),
            findings,
            omitted: self.problems() - self.findings.len(),
            summary: JsonSummary {
                problems: self.problems(),
                errors: self.count_of(Severity::Error),
                warnings: self.count_of(Severity::Warning),
                drift: self.has_drift(),
            },
        };
        let mut text = serde_json::to_string_pretty(&doc).unwrap_or_else(|_| "{}".to_string());
        text.push('\n');
        text
    }
}

/// The finding's diagnostic, its quotes shortened; its span kept when there is a model to quote.
fn diagnostic(f: &Finding, quoted: bool) -> Diagnostic {
    let mut d = f.diagnostic.clone();
    d.span = d.span.filter(|_| quoted);
    d.shortened()
}

#[derive(Serialize)]
struct Json<'a> {
    file: Option<&'a str>,
    table: &'a str,
    items_scanned: u64,
    sample: Option<AuditSample>,
    entities: &'a BTreeMap<String, u64>,
    untyped_items: u64,
    migration_records: u64,
    counts: BTreeMap<&'static str, usize>,
    findings: Vec<JsonFinding<'a>>,
    omitted: usize,
    summary: JsonSummary,
}

#[derive(Serialize)]
struct JsonSummary {
    problems: usize,
    errors: usize,
    warnings: usize,
    drift: bool,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    code: &'static str,
    name: &'static str,
    severity: Severity,
    message: &'a str,
    item: Option<BTreeMap<&'a str, &'a str>>,
    entity: Option<&'a str>,
    attribute: Option<&'a str>,
    found: Option<&'a str>,
    expected: Option<&'a str>,
    #[serde(flatten)]
    placed: Placed<'a>,
}

impl<'a> JsonFinding<'a> {
    fn of(f: &'a Finding, d: &'a Diagnostic, source: &SourceFile) -> Self {
        Self {
            code: d.code,
            name: d.name,
            severity: d.severity,
            message: &d.message,
            item: f
                .item
                .as_ref()
                .map(|k| k.0.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect()),
            entity: f.entity.as_deref(),
            attribute: f.attribute.as_deref(),
            found: f.found.as_deref(),
            expected: f.expected.as_deref(),
            placed: source.placed(d),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(n: usize) -> AuditReport {
        let mut r = AuditReport::new("Shop");
        for i in 0..n {
            r.push(Finding::new(
                Code::MissingEntityType,
                format!("item {i:03}"),
            ));
        }
        r.items = n as u64;
        r.untyped = n as u64;
        r.sort();
        r
    }

    #[test]
    fn a_clean_table_says_so() {
        let r = report(0);
        assert!(!r.has_drift());
        assert_eq!(
            r.render(ReportFormat::Human),
            "audited 0 items of table Shop: no problems\n"
        );
    }

    #[test]
    fn human_output_shows_some_of_each_code_and_counts_the_rest() {
        let r = report(SHOWN_PER_CODE + 5);
        let text = r.render(ReportFormat::Human);
        assert_eq!(text.matches("error[MA010]").count(), SHOWN_PER_CODE);
        assert!(
            text.contains("... and 5 more MA010 (missing-entity-type)"),
            "{text}"
        );
        assert!(
            text.ends_with("audited 25 items of table Shop: 25 problems\n"),
            "{text}"
        );
        let json: serde_json::Value = serde_json::from_str(&r.render(ReportFormat::Json)).unwrap();
        assert_eq!(json["counts"]["MA010"], 25);
        assert_eq!(json["findings"].as_array().unwrap().len(), 25);
        assert_eq!(json["omitted"], 0);
    }

    #[test]
    fn findings_beyond_the_cap_are_counted_not_kept() {
        let mut a = report(KEPT_PER_CODE);
        a.merge(report(3));
        assert_eq!(a.findings().len(), KEPT_PER_CODE);
        assert_eq!(a.problems(), KEPT_PER_CODE + 3);
        let json: serde_json::Value = serde_json::from_str(&a.render(ReportFormat::Json)).unwrap();
        assert_eq!(json["omitted"], 3);
        assert_eq!(json["summary"]["problems"], KEPT_PER_CODE + 3);
    }
}
