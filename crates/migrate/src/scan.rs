//! One page of a parallel (segmented) Scan: what `audit` and `apply` both read a table with.

use aws_sdk_dynamodb::Client;
use monotable_access::items::Item;

/// Items per page of a full scan. DynamoDB stops a page at 1 MB anyway; a limit keeps an
/// engine from reading the rest of the table for each page (the embedded engine's SQL has no
/// LIMIT without one, which makes an unlimited full scan quadratic).
pub const PAGE_ITEMS: i32 = 1000;

/// A Scan call failed.
#[derive(Debug, thiserror::Error)]
#[error("Scan of table `{table}` (segment {segment} of {total}) failed: {message}")]
pub struct ScanError {
    /// The table.
    pub table: String,
    /// The segment.
    pub segment: i32,
    /// Segments in all.
    pub total: i32,
    /// DynamoDB's code and message.
    pub message: String,
}

/// Where one page of a segment starts.
#[derive(Debug, Clone)]
pub struct PageRequest<'a> {
    /// The table.
    pub table: &'a str,
    /// This segment, `0..total`.
    pub segment: i32,
    /// Segments in all (1 is a plain Scan).
    pub total: i32,
    /// The previous page's last key; `None` for the first page.
    pub start: Option<Item>,
    /// Items per page (DynamoDB stops at 1 MB regardless).
    pub limit: Option<i32>,
    /// A strongly consistent read.
    pub consistent: bool,
}

/// One page: its items and the key to continue from (`None` at the segment's end).
#[derive(Debug, Default)]
pub struct Page {
    /// The items.
    pub items: Vec<Item>,
    /// `LastEvaluatedKey`.
    pub next: Option<Item>,
}

/// Reads one page of one segment.
pub async fn page(client: &Client, request: PageRequest<'_>) -> Result<Page, ScanError> {
    let mut call = client
        .scan()
        .table_name(request.table)
        .consistent_read(request.consistent)
        .set_exclusive_start_key(request.start)
        .set_limit(request.limit);
    if request.total > 1 {
        call = call.segment(request.segment).total_segments(request.total);
    }
    let out = call.send().await.map_err(|e| ScanError {
        table: request.table.to_string(),
        segment: request.segment,
        total: request.total,
        message: monotable_access::error::call_text(&e),
    })?;
    Ok(Page {
        items: out.items.unwrap_or_default(),
        next: out.last_evaluated_key.filter(|k| !k.is_empty()),
    })
}
