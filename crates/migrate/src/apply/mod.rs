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
use futures_util::future::try_join_all;
use monotable_access::Table;
use monotable_access::error::{
    DescribeTableError, GetError, ServiceError, TransactError, TtlError, UpdateTableError,
    WriteError,
};
use monotable_access::items::Item;
use monotable_access::scan::{FULL_SCAN_PAGE, Scan};
use monotable_model::Model;
use serde::Serialize;

use crate::diff::{Change, Diff};
use crate::rewrite::Rewriter;
use checkpoint::{Checkpoint, SegmentState};
use pace::Pace;
pub use progress::{ApplyCounts, ApplyProgress};
use write::Writer;

/// Items per scan page, the unit of checkpointing: large, because a segmented scan on the
/// embedded engine costs a pass over its index per page.
pub const PAGE_ITEMS: usize = FULL_SCAN_PAGE;

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
    #[error("{operation} failed: {error}")]
    Call {
        /// The operation.
        operation: &'static str,
        /// What DynamoDB (or the way to it) said.
        #[source]
        error: ServiceError,
    },
    /// A write DynamoDB refused for another reason than a service error.
    #[error("{operation} failed: {source}")]
    Write {
        /// The operation.
        operation: &'static str,
        /// Why (boxed: a write's error carries the value it refused).
        source: Box<WriteError>,
    },
    /// A transaction failed for another reason than a service error.
    #[error("TransactWriteItems failed: {0}")]
    Transact(TransactError),
    /// Describing the table failed.
    #[error(transparent)]
    Describe(#[from] DescribeTableError),
    /// An index or billing change failed.
    #[error(transparent)]
    Table(#[from] UpdateTableError),
    /// A time-to-live change failed.
    #[error(transparent)]
    Ttl(#[from] TtlError),
    /// A scan failed.
    #[error(transparent)]
    Scan(#[from] crate::segment::SegmentError),
}

impl ApplyError {
    /// A failed write `operation`.
    pub(crate) fn write(operation: &'static str, e: WriteError) -> ApplyError {
        match e {
            WriteError::Service(error) => ApplyError::Call { operation, error },
            source => ApplyError::Write {
                operation,
                source: Box::new(source),
            },
        }
    }

    /// A failed read `operation`.
    pub(crate) fn get(operation: &'static str, e: GetError) -> ApplyError {
        match e {
            GetError::Service(error) => ApplyError::Call { operation, error },
            other => ApplyError::Call {
                operation,
                error: ServiceError::Validation {
                    message: other.to_string(),
                },
            },
        }
    }

    /// A failed TransactWriteItems.
    pub(crate) fn transact(e: TransactError) -> ApplyError {
        match e {
            TransactError::Service(error) => ApplyError::Call {
                operation: "TransactWriteItems",
                error,
            },
            other => ApplyError::Transact(other),
        }
    }
}

/// How to run a migration.
#[derive(Debug, Clone)]
pub struct ApplyOptions {
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

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions {
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
    pub counts: ApplyCounts,
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

/// What each stage of a run reads: the client, OLD and NEW, their diff and the options.
pub(crate) struct Job<'a> {
    pub(crate) client: &'a Client,
    pub(crate) old: &'a Model,
    pub(crate) new: &'a Model,
    pub(crate) diff: &'a Diff,
    pub(crate) options: &'a ApplyOptions,
}

/// Runs `diff` (OLD to NEW) on NEW's table through `client`.
pub async fn run(
    client: &Client,
    old: &Model,
    new: &Model,
    diff: &Diff,
    options: &ApplyOptions,
    progress: &ApplyProgress,
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
    let total = described.item_count.unwrap_or(0);
    progress.total.store(
        u64::try_from(total).unwrap_or(0),
        std::sync::atomic::Ordering::Relaxed,
    );
    let job = Job {
        client,
        old,
        new,
        diff,
        options,
    };
    let mut steps = indexes::before_scan(&job).await?;
    let mut summary = Summary {
        dry_run: !options.apply,
        table: table.clone(),
        steps: Vec::new(),
        counts: ApplyCounts::default(),
        left: BTreeMap::new(),
        resumed: false,
        segments: options.segments,
    };
    if diff.needs_scan() {
        scan_all(&job, progress, &mut summary).await?;
    }
    steps.extend(indexes::after_scan(&job).await?);
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
    job: &Job<'_>,
    progress: &ApplyProgress,
    summary: &mut Summary,
) -> Result<(), ApplyError> {
    let Job {
        client,
        old,
        new,
        diff,
        options,
    } = *job;
    let segments = options.segments.clamp(1, 1_000_000);
    let table = Table::new(client.clone(), &new.table.name);
    let checkpoint = if options.apply {
        Checkpoint::open(
            &table,
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
        table: &table,
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
        c.finish(&table).await?;
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
) -> Result<ApplyCounts, ApplyError> {
    writer.progress.count(state.counts.scanned, 0);
    let table = writer.table;
    // The writes are conditional on what was read: an eventually consistent read (half the
    // units) can only cause a retry, never a lost write.
    let mut pages = Scan::new()
        .segment(segment, total)
        .limit(PAGE_ITEMS)
        .start(state.next.clone())
        .pages(table);
    while !state.done {
        let Some(page) = pages.next().await else {
            break;
        };
        let page = page.map_err(|source| crate::segment::SegmentError {
            table: table.name().to_string(),
            segment,
            total,
            source,
        })?;
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
        state.done = page.last_evaluated_key.is_none();
        state.next = page.last_evaluated_key;
        if let Some(key) = record {
            Checkpoint::save(table, key, segment, &state).await?;
        }
    }
    Ok(state.counts)
}
