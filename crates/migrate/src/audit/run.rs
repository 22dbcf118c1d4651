//! Reading the table for an audit: every segment of a parallel Scan at once, or, for a sample,
//! random segments of a finely divided Scan until enough items were read. Each item is audited
//! as its page arrives, so memory holds a page and the findings, never the table.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_util::future::join_all;
use monotable_access::Table;
use monotable_access::conform::{ItemKind, Rules};
use monotable_access::items::Item;
use monotable_access::scan::{FULL_SCAN_PAGE, Scan};

use super::AuditError;
use super::report::{AuditReport, AuditSample};

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

    fn page_limit(&self) -> usize {
        let left = self
            .wanted
            .saturating_sub(self.read.load(Ordering::Relaxed));
        left.clamp(1, SAMPLE_PAGE)
    }
}

/// Counts and audits one item into `part`.
fn tally(part: &mut AuditReport, rules: &Rules<'_>, item: &Item) {
    part.items += 1;
    let mut audit = rules.check(item);
    audit
        .findings
        .extend(super::size::check(rules.model(), item, &audit.kind));
    match audit.kind {
        ItemKind::Entity(name) | ItemKind::Unknown(name) => {
            *part.entities.entry(name).or_default() += 1;
        }
        ItemKind::Migration => part.migration_records += 1,
        // Untyped, or a kind this audit does not know yet: counted as no entity's.
        _ => part.untyped += 1,
    }
    for finding in audit.findings {
        part.push(finding);
    }
}

/// Reads one segment to its end, or until the sample has enough items.
async fn segment(
    table: &Table,
    rules: &Rules<'_>,
    (segment, total): (i32, i32),
    budget: Option<&Budget>,
) -> Result<AuditReport, AuditError> {
    let mut part = AuditReport::new(table.name());
    let failed = |source| crate::segment::SegmentError {
        table: table.name().to_string(),
        segment,
        total,
        source,
    };
    // Bounded pages: an engine may read past the 1 MB it returns on an unlimited one.
    let limit = budget.map_or(FULL_SCAN_PAGE, Budget::page_limit);
    let mut pages = Scan::new()
        .segment(segment, total)
        .limit(limit)
        .pages(table);
    while let Some(page) = pages.next().await {
        let page = page.map_err(failed)?;
        for item in &page.items {
            tally(&mut part, rules, item);
        }
        if let Some(budget) = budget {
            budget.read.fetch_add(page.items.len(), Ordering::Relaxed);
            if budget.enough() {
                break;
            }
            pages.limit(budget.page_limit());
        }
    }
    Ok(part)
}

fn merged(
    table: &str,
    parts: Vec<Result<AuditReport, AuditError>>,
) -> Result<AuditReport, AuditError> {
    let mut report = AuditReport::new(table);
    for part in parts {
        report.merge(part?);
    }
    Ok(report)
}

/// Every item, `segments` segments read at once.
pub(crate) async fn full(
    table: &Table,
    rules: &Rules<'_>,
    segments: i32,
) -> Result<AuditReport, AuditError> {
    let reads = (0..segments).map(|s| segment(table, rules, (s, segments), None));
    merged(table.name(), join_all(reads).await)
}

/// About `wanted` items from random segments of [`SAMPLE_SEGMENTS`], `workers` at once.
pub(crate) async fn sample(
    table: &Table,
    rules: &Rules<'_>,
    wanted: usize,
    workers: i32,
) -> Result<(AuditReport, AuditSample), AuditError> {
    let mut order: Vec<i32> = (0..SAMPLE_SEGMENTS).collect();
    fastrand::Rng::new().shuffle(&mut order);
    let budget = Budget {
        wanted,
        read: AtomicUsize::new(0),
        segments: Mutex::new(order),
        taken: AtomicUsize::new(0),
    };
    let reads = (0..workers).map(|_| worker(table, rules, &budget));
    let report = merged(table.name(), join_all(reads).await)?;
    let sample = AuditSample {
        requested: wanted,
        segments_read: budget.taken.load(Ordering::Relaxed),
        total_segments: SAMPLE_SEGMENTS,
    };
    Ok((report, sample))
}

/// Takes random segments and reads them until the sample has enough items.
async fn worker(
    table: &Table,
    rules: &Rules<'_>,
    budget: &Budget,
) -> Result<AuditReport, AuditError> {
    let mut part = AuditReport::new(table.name());
    while !budget.enough() {
        let Some(s) = budget.next_segment() else {
            break;
        };
        let read = segment(table, rules, (s, SAMPLE_SEGMENTS), Some(budget)).await?;
        part.merge(read);
    }
    Ok(part)
}
