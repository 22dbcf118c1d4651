//! `monotable audit MODEL`: scan a live table and report everything in it, and in its own
//! description, that does not fit the model.
//!
//! - [`table`](self): the table's description (DescribeTable, DescribeTimeToLive) against the
//!   CreateTable the model implies (`MA001`..`MA008`).
//! - each item against its entity with the access layer's conformance rules
//!   ([`monotable_access::conform`]: `entityType`, the table key and every synthetic index key
//!   as the render of the entity's templates from the item's attributes, attribute types and
//!   bounds, `MA010`..`MA020`), and its size (`MA021`). Pure.
//! - [`audit`] reads every item with a parallel segmented Scan (or a random sample of
//!   segments), audits each as its page arrives, and returns an [`AuditReport`] that renders
//!   rustc-style or as JSON. `docs/audit.md` lists the codes.

mod report;
mod run;
mod size;
mod table;

use aws_sdk_dynamodb::Client;
use monotable_access::Table;
use monotable_access::error::{DescribeTableError, TtlError};
use monotable_model::Model;

pub use monotable_access::conform::{Code, Finding, ItemAudit, ItemKey, ItemKind};
pub use monotable_access::items::MIGRATION_ENTITY;
pub use monotable_model::diagnostic::ReportFormat;
pub use report::{AuditReport, AuditSample, KEPT_PER_CODE, SHOWN_PER_CODE};
pub use run::SAMPLE_SEGMENTS;
pub use size::MAX_ITEM_BYTES;

/// Segments a full audit reads at once unless told otherwise.
pub const DEFAULT_SEGMENTS: i32 = 4;
/// DynamoDB's largest `TotalSegments`.
pub const MAX_SEGMENTS: i32 = 1_000_000;

/// How to audit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditOptions {
    /// Audit about this many items, from random segments, instead of every item.
    pub sample: Option<usize>,
    /// Segments read at once: a full audit divides the table into this many, a sample runs
    /// this many readers.
    pub segments: i32,
    /// The table to audit instead of the model's `[table] name`.
    pub table: Option<String>,
}

impl Default for AuditOptions {
    fn default() -> Self {
        Self {
            sample: None,
            segments: DEFAULT_SEGMENTS,
            table: None,
        }
    }
}

/// An audit could not be run (drift is no error: it is the report).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuditError {
    /// Reading the items failed.
    #[error(transparent)]
    Scan(#[from] crate::segment::SegmentError),
    /// Describing the table failed.
    #[error(transparent)]
    Describe(#[from] DescribeTableError),
    /// Reading its time to live failed.
    #[error(transparent)]
    Ttl(#[from] TtlError),
    /// The options make no audit.
    #[error("invalid audit options: {0}")]
    Options(String),
}

fn validate(options: &AuditOptions) -> Result<(), AuditError> {
    if !(1..=MAX_SEGMENTS).contains(&options.segments) {
        return Err(AuditError::Options(format!(
            "segments must be 1 to {MAX_SEGMENTS}, not {}",
            options.segments
        )));
    }
    if options.sample == Some(0) {
        return Err(AuditError::Options("a sample needs at least 1 item".into()));
    }
    Ok(())
}

/// Audits the table of `model` (or `options.table`) through `client`: its description, then
/// every item (or a sample). A missing table is one `MA001` finding and no scan.
pub async fn audit(
    model: &Model,
    client: &Client,
    options: &AuditOptions,
) -> Result<AuditReport, AuditError> {
    validate(options)?;
    let name = options.table.as_deref().unwrap_or(&model.table.name);
    let mut report = AuditReport::new(name);
    let Some(described) = table::describe(client, name).await? else {
        report.push(table::missing_table(model, name));
        return Ok(report);
    };
    for finding in table::compare(model, name, &described) {
        report.push(finding);
    }
    let rules = monotable_access::conform::Rules::new(model);
    let table = Table::new(client.clone(), name);
    match options.sample {
        Some(wanted) => {
            let (read, sample) = run::sample(&table, &rules, wanted, options.segments).await?;
            report.merge(read);
            report.sample = Some(sample);
        }
        None => report.merge(run::full(&table, &rules, options.segments).await?),
    }
    report.sort();
    Ok(report)
}
