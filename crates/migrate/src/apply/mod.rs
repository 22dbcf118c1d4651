//! `monotable migrate OLD NEW`: a plan from [`crate::diff`] run on a live table.
//!
//! In order: indexes created (and recreated) online, waiting until ACTIVE; the table scanned in
//! parallel segments, each item of an entity the plan touches settled by [`crate::rewrite`]
//! and written conditionally (`write`); progress checkpointed in the table after every page
//! (`checkpoint`), so a killed run resumes; indexes NEW drops deleted when confirmed. A dry run
//! (the default) scans and counts what it would do, and writes nothing.

mod batch;
pub mod checkpoint;
mod indexes;
pub mod pace;
pub mod progress;
mod render;
mod write;

use std::collections::BTreeMap;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use futures_util::future::try_join_all;
use monotable_access::items::Item;
use monotable_model::Model;
use serde::Serialize;

use crate::diff::{Change, Diff};
use crate::rewrite::Rewriter;
use crate::scan::{self, PageRequest};
use checkpoint::{Checkpoint, SegmentState};
use pace::Pace;
pub use progress::{Counts, Progress};
use write::Writer;

/// Items per scan page, the unit of checkpointing: large, because a segmented scan on the
/// embedded engine costs a pass over its index per page.
pub const PAGE_ITEMS: i32 = scan::PAGE_ITEMS;

/// A migration could not run (items it could not rewrite are not errors: see
/// [`Summary::left`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ApplyError {
    /// A change cannot be done in place.
    #[error("the change cannot be done in place: {}", .0.join("; "))]
    Blocked(Vec<String>),
    /// The table does not exist.
    #[error(
        "table `{0}` does not exist here: migrate changes a table that already holds data (are the connection flags right?)"
    )]
    NoTable(String),
    /// A DynamoDB call failed.
    #[error("{operation} failed: {message}")]
    Call {
        /// The operation.
        operation: &'static str,
        /// DynamoDB's code and message, or why no answer came.
        message: String,
    },
    /// An index or table update failed.
    #[error(transparent)]
    Table(#[from] monotable_access::table::TableError),
    /// A scan failed.
    #[error(transparent)]
    Scan(#[from] scan::ScanError),
}

impl ApplyError {
    /// A failed `operation`: DynamoDB's code and message, or why no answer came.
    pub(crate) fn call<E>(operation: &'static str, e: &SdkError<E, HttpResponse>) -> ApplyError
    where
        E: ProvideErrorMetadata + std::error::Error + 'static,
    {
        ApplyError::Call {
            operation,
            message: monotable_access::error::call_text(e),
        }
    }
}

/// How to run a migration.
#[derive(Debug, Clone)]
pub struct Options {
    /// Write; otherwise a dry run.
    pub apply: bool,
    /// Scan segments run at once.
    pub segments: i32,
    /// Write units per second, at most (table writes, estimated from item sizes).
    pub max_wcu: Option<f64>,
    /// Delete the indexes NEW drops.
    pub remove_indexes: bool,
    /// Delete the items of entities NEW drops.
    pub delete_removed: bool,
    /// The migration's fingerprint (see [`checkpoint::migration_id`]).
    pub migration_id: String,
    /// Ignore a checkpoint an earlier run left.
    pub restart: bool,
    /// In-place rewrites sent together in one TransactWriteItems (at most 100; 1 sends each as
    /// its own UpdateItem). Transactional writes cost twice the write units on DynamoDB.
    pub batch: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            apply: false,
            segments: 4,
            max_wcu: None,
            remove_indexes: false,
            delete_removed: false,
            migration_id: "migration".to_string(),
            restart: false,
            batch: 1,
        }
    }
}

/// One table-level step and how it went.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// What, e.g. `create index GSI4`.
    pub what: String,
    /// `done`, `would do`, `already there`, or why not.
    pub status: String,
}

/// What a migration did.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// A dry run: nothing was written.
    pub dry_run: bool,
    /// The table.
    pub table: String,
    /// Table-level steps, in order.
    pub steps: Vec<Step>,
    /// Items by what became of them.
    pub counts: Counts,
    /// Items left as they were: reason to (how many, one item's key).
    pub left: BTreeMap<String, (u64, String)>,
    /// It continued an earlier, interrupted run.
    pub resumed: bool,
    /// Segments of the scan.
    pub segments: i32,
}

impl Summary {
    /// Whether every item the plan touches was settled (none left, every step done or
    /// already there).
    pub fn complete(&self) -> bool {
        self.left.is_empty()
            && self.counts.left == 0
            && self
                .steps
                .iter()
                .all(|s| matches!(s.status.as_str(), "done" | "already there" | "already gone"))
    }
}

pub use render::{render_human, render_json};

/// Runs `diff` (OLD to NEW) on NEW's table through `client`.
pub async fn run(
    client: &Client,
    old: &Model,
    new: &Model,
    diff: &Diff,
    options: &Options,
    progress: &Progress,
) -> Result<Summary, ApplyError> {
    let blocked: Vec<String> = diff
        .changes
        .iter()
        .filter_map(|c| match c {
            Change::Blocked { what, .. } => Some(what.clone()),
            _ => None,
        })
        .collect();
    if !blocked.is_empty() {
        return Err(ApplyError::Blocked(blocked));
    }
    let table = new.table.name.clone();
    let described = indexes::describe(client, &table).await?;
    let total = described.item_count().unwrap_or(0);
    progress.total.store(
        u64::try_from(total).unwrap_or(0),
        std::sync::atomic::Ordering::Relaxed,
    );
    let mut steps = indexes::before_scan(client, new, diff, options).await?;
    let mut summary = Summary {
        dry_run: !options.apply,
        table: table.clone(),
        steps: Vec::new(),
        counts: Counts::default(),
        left: BTreeMap::new(),
        resumed: false,
        segments: options.segments,
    };
    if diff.needs_scan() {
        scan_all(client, old, new, diff, options, progress, &mut summary).await?;
    }
    steps.extend(indexes::after_scan(client, new, diff, options).await?);
    summary.steps = steps;
    summary.left = progress.left();
    let listed: u64 = summary.left.values().map(|(n, _)| n).sum();
    if summary.counts.left > listed {
        summary.left.insert(
            "left by an earlier, interrupted run (`--restart` scans again and says why)".into(),
            (summary.counts.left - listed, String::new()),
        );
    }
    Ok(summary)
}

/// The scan: every segment at once, each settling its items page by page.
async fn scan_all(
    client: &Client,
    old: &Model,
    new: &Model,
    diff: &Diff,
    options: &Options,
    progress: &Progress,
    summary: &mut Summary,
) -> Result<(), ApplyError> {
    let segments = options.segments.clamp(1, 1_000_000);
    let checkpoint = if options.apply {
        Checkpoint::open(
            client,
            new,
            &options.migration_id,
            segments,
            options.restart,
        )
        .await?
    } else {
        None
    };
    let (segments, states) = match &checkpoint {
        Some(c) => (c.segments, c.states.clone()),
        None => (
            segments,
            vec![SegmentState::default(); usize::try_from(segments).unwrap_or(1)],
        ),
    };
    summary.resumed = checkpoint.as_ref().is_some_and(Checkpoint::resumed);
    summary.segments = segments;
    let rewriter = Rewriter::new(old, new, diff, options.delete_removed);
    let pace = options.max_wcu.and_then(Pace::new);
    let writer = Writer {
        client,
        table: &new.table.name,
        old,
        rewriter: &rewriter,
        pace: pace.as_ref(),
        progress,
        dry_run: !options.apply,
        batch: options.batch.clamp(1, 100),
    };
    let key = checkpoint.as_ref().map(|c| c.key().clone());
    let runs = states.into_iter().enumerate().map(|(s, state)| {
        let segment = i32::try_from(s).unwrap_or(0);
        run_segment(&writer, key.as_ref(), segment, segments, state)
    });
    for counts in try_join_all(runs).await? {
        summary.counts.add(&counts);
    }
    if let Some(c) = &checkpoint {
        c.finish(client).await?;
    }
    Ok(())
}

/// One segment from where its state says to its end, saving its state after each page.
async fn run_segment(
    writer: &Writer<'_>,
    record: Option<&Item>,
    segment: i32,
    total: i32,
    mut state: SegmentState,
) -> Result<Counts, ApplyError> {
    writer.progress.count(state.counts.scanned, 0);
    while !state.done {
        let page = scan::page(
            writer.client,
            PageRequest {
                table: writer.table,
                segment,
                total,
                start: state.next.clone(),
                limit: Some(PAGE_ITEMS),
                // The writes are conditional on what was read: an eventually consistent
                // read (half the units) can only cause a retry, never a lost write.
                consistent: false,
            },
        )
        .await?;
        // The migration's own record is not data: neither scanned nor settled.
        let items: Vec<Item> = page
            .items
            .into_iter()
            .filter(|i| {
                monotable_access::items::entity_type(i) != Some(crate::rewrite::MIGRATION_ENTITY)
            })
            .collect();
        let n = items.len() as u64;
        writer.settle_page(items, &mut state.counts).await?;
        state.counts.scanned += n;
        writer.progress.count(n, 0);
        state.done = page.next.is_none();
        state.next = page.next;
        if let Some(key) = record {
            Checkpoint::save(writer.client, writer.table, key, segment, &state).await?;
        }
    }
    Ok(state.counts)
}
