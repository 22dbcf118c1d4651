//! Reading the table for an audit: every segment of a parallel Scan at once, or, for a sample,
//! random segments of a finely divided Scan until enough items were read. Each item is audited
//! as its page arrives, so memory holds a page and the findings, never the table.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use aws_sdk_dynamodb::Client;
use futures_util::future::join_all;
use monotable_access::items::Item;

use super::item::{ItemKind, Rules};
use super::report::{AuditReport, Sample};
use crate::scan::{self, PageRequest, ScanError};

/// `TotalSegments` of a sampling Scan: each segment is about a thousandth of the table.
pub const SAMPLE_SEGMENTS: i32 = 1000;
/// Largest page a sampling Scan asks for.
const SAMPLE_PAGE: usize = 1000;

/// What a sample still needs: segments not read yet, in random order, and items read so far.
struct Budget {
    wanted: usize,
    read: AtomicUsize,
    segments: Mutex<Vec<i32>>,
    taken: AtomicUsize,
}

impl Budget {
    fn enough(&self) -> bool {
        self.read.load(Ordering::Relaxed) >= self.wanted
    }

    fn next_segment(&self) -> Option<i32> {
        let next = self.segments.lock().ok()?.pop();
        if next.is_some() {
            self.taken.fetch_add(1, Ordering::Relaxed);
        }
        next
    }

    fn page_limit(&self) -> i32 {
        let left = self
            .wanted
            .saturating_sub(self.read.load(Ordering::Relaxed));
        i32::try_from(left.clamp(1, SAMPLE_PAGE)).unwrap_or(1)
    }
}

/// Counts and audits one item into `part`.
fn tally(part: &mut AuditReport, rules: &Rules<'_>, item: &Item) {
    part.items += 1;
    let audit = rules.check(item);
    match audit.kind {
        ItemKind::Entity(name) | ItemKind::Unknown(name) => {
            *part.entities.entry(name).or_default() += 1;
        }
        ItemKind::Migration => part.migration_records += 1,
        ItemKind::Untyped => part.untyped += 1,
    }
    for finding in audit.findings {
        part.push(finding);
    }
}

/// Reads one segment to its end, or until the sample has enough items.
async fn segment(
    client: &Client,
    rules: &Rules<'_>,
    (table, segment, total): (&str, i32, i32),
    budget: Option<&Budget>,
) -> Result<AuditReport, ScanError> {
    let mut part = AuditReport::new(table);
    let mut start = None;
    loop {
        let request = PageRequest {
            table,
            segment,
            total,
            start,
            // Bounded pages: an engine may read past the 1 MB it returns on an unlimited one.
            limit: Some(budget.map_or(crate::scan::PAGE_ITEMS, Budget::page_limit)),
            consistent: false,
        };
        let page = scan::page(client, request).await?;
        for item in &page.items {
            tally(&mut part, rules, item);
        }
        if let Some(budget) = budget {
            budget.read.fetch_add(page.items.len(), Ordering::Relaxed);
            if budget.enough() {
                break;
            }
        }
        match page.next {
            Some(next) => start = Some(next),
            None => break,
        }
    }
    Ok(part)
}

fn merged(
    table: &str,
    parts: Vec<Result<AuditReport, ScanError>>,
) -> Result<AuditReport, ScanError> {
    let mut report = AuditReport::new(table);
    for part in parts {
        report.merge(part?);
    }
    Ok(report)
}

/// Every item, `segments` segments read at once.
pub(crate) async fn full(
    client: &Client,
    table: &str,
    rules: &Rules<'_>,
    segments: i32,
) -> Result<AuditReport, ScanError> {
    let reads = (0..segments).map(|s| segment(client, rules, (table, s, segments), None));
    merged(table, join_all(reads).await)
}

/// About `wanted` items from random segments of [`SAMPLE_SEGMENTS`], `workers` at once.
pub(crate) async fn sample(
    client: &Client,
    table: &str,
    rules: &Rules<'_>,
    wanted: usize,
    workers: i32,
) -> Result<(AuditReport, Sample), ScanError> {
    let mut order: Vec<i32> = (0..SAMPLE_SEGMENTS).collect();
    fastrand::Rng::new().shuffle(&mut order);
    let budget = Budget {
        wanted,
        read: AtomicUsize::new(0),
        segments: Mutex::new(order),
        taken: AtomicUsize::new(0),
    };
    let reads = (0..workers).map(|_| worker(client, table, rules, &budget));
    let report = merged(table, join_all(reads).await)?;
    let sample = Sample {
        requested: wanted,
        segments_read: budget.taken.load(Ordering::Relaxed),
        total_segments: SAMPLE_SEGMENTS,
    };
    Ok((report, sample))
}

/// Takes random segments and reads them until the sample has enough items.
async fn worker(
    client: &Client,
    table: &str,
    rules: &Rules<'_>,
    budget: &Budget,
) -> Result<AuditReport, ScanError> {
    let mut part = AuditReport::new(table);
    while !budget.enough() {
        let Some(s) = budget.next_segment() else {
            break;
        };
        let read = segment(client, rules, (table, s, SAMPLE_SEGMENTS), Some(budget)).await?;
        part.merge(read);
    }
    Ok(part)
}
