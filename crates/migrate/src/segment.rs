//! What `audit` and `apply` report when one segment of their parallel Scan fails: the table,
//! the segment, and the access layer's [`ScanError`].

use monotable_access::ScanError;

/// Reading one segment of a parallel Scan failed.
#[derive(Debug, thiserror::Error)]
#[error("Scan of table `{table}` (segment {segment} of {total}) failed: {source}")]
pub struct SegmentError {
    /// The table.
    pub table: String,
    /// The segment.
    pub segment: i32,
    /// Segments in all.
    pub total: i32,
    /// What failed.
    pub source: ScanError,
}
