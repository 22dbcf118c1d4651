//! Scan: every item of a table or an index, in storage order, page after page; a parallel Scan
//! reads one segment of many. Only tools scan (the typed face has no Scan pattern), so [`Scan`]
//! is the dynamic face: index, segment, consistent read, page size and start key, read a page at
//! a time ([`Scan::page`], [`Scan::pages`]) or to the end ([`Scan::all`]). `Scan::call` is the one
//! Scan call, and [`Pages`] the one place a Scan is paginated; it fails with [`ScanError`].

use crate::handle::Table;
use crate::items::{Item, ItemPage};
use crate::service::ServiceError;

/// Items per page a tool asks for when it reads a whole table. DynamoDB stops a page at 1 MB
/// anyway; a limit keeps an engine from reading the rest of the table for each page (the
/// embedded engine's SQL has no LIMIT without one, which makes an unlimited full scan
/// quadratic), and a large one keeps the calls few.
pub const FULL_SCAN_PAGE: usize = 1000;

/// Reading a Scan failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ScanError {
    /// DynamoDB refused or failed the call.
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// The pages did not end within the bound set by [`Scan::max_pages`].
    #[error("the scan did not end after {pages} pages")]
    Endless {
        /// Pages read.
        pages: usize,
    },
}

/// One Scan: what it reads and where it starts.
#[derive(Debug, Clone, Default)]
pub struct Scan {
    index: Option<String>,
    segment: Option<(i32, i32)>,
    consistent: bool,
    limit: Option<i32>,
    start: Option<Item>,
    max_pages: Option<usize>,
}

impl Scan {
    /// A Scan of the whole table, eventually consistent, in DynamoDB's pages.
    pub fn new() -> Scan {
        Scan::default()
    }

    /// Of index `index` (`None`: the table).
    pub fn index(mut self, index: Option<&str>) -> Scan {
        self.index = index.map(str::to_string);
        self
    }

    /// Segment `segment` of `total` (a parallel Scan); a total of 1 is a plain Scan.
    pub fn segment(mut self, segment: i32, total: i32) -> Scan {
        self.segment = (total > 1).then_some((segment, total));
        self
    }

    /// Strongly consistent when `consistent` (the table only).
    pub fn consistent(mut self, consistent: bool) -> Scan {
        self.consistent = consistent;
        self
    }

    /// At most `limit` items per page ([`FULL_SCAN_PAGE`] for a whole table).
    pub fn limit(mut self, limit: usize) -> Scan {
        self.limit = Some(i32::try_from(limit).unwrap_or(i32::MAX));
        self
    }

    /// Start after `start`, a previous page's [`ItemPage::last_evaluated_key`].
    pub fn start(mut self, start: Option<Item>) -> Scan {
        self.start = start;
        self
    }

    /// Read at most `pages` pages; more is [`ScanError::Endless`].
    pub fn max_pages(mut self, pages: usize) -> Scan {
        self.max_pages = Some(pages);
        self
    }

    /// The first page from its start.
    pub async fn page(&self, table: &Table) -> Result<ItemPage, ScanError> {
        self.call(table).await
    }

    /// Page after page from its start.
    pub fn pages(self, table: &Table) -> Pages<'_> {
        Pages {
            table,
            scan: self,
            read: 0,
            done: false,
        }
    }

    /// Every item from its start to the end.
    pub async fn all(self, table: &Table) -> Result<Vec<Item>, ScanError> {
        let mut pages = self.pages(table);
        let mut items = Vec::new();
        while let Some(page) = pages.next().await {
            items.extend(page?.items);
        }
        Ok(items)
    }

    /// The one Scan call.
    async fn call(&self, table: &Table) -> Result<ItemPage, ScanError> {
        let (segment, total) = self.segment.unzip();
        let out = table
            .client()
            .scan()
            .table_name(table.name())
            .set_index_name(self.index.clone())
            .set_segment(segment)
            .set_total_segments(total)
            .consistent_read(self.consistent)
            .set_limit(self.limit)
            .set_exclusive_start_key(self.start.clone())
            .send()
            .await
            .map_err(|e| ServiceError::from_sdk(&e))?;
        Ok(ItemPage {
            items: out.items.unwrap_or_default(),
            last_evaluated_key: out.last_evaluated_key.filter(|k| !k.is_empty()),
            capacity: None,
        })
    }
}

/// A Scan read page after page: the one place a Scan is paginated.
#[derive(Debug)]
pub struct Pages<'t> {
    table: &'t Table,
    scan: Scan,
    read: usize,
    done: bool,
}

impl Pages<'_> {
    /// The next page; `None` after the last.
    pub async fn next(&mut self) -> Option<Result<ItemPage, ScanError>> {
        if self.done {
            return None;
        }
        if self.scan.max_pages.is_some_and(|max| self.read >= max) {
            self.done = true;
            return Some(Err(ScanError::Endless { pages: self.read }));
        }
        let page = self.scan.call(self.table).await;
        self.read += 1;
        match &page {
            Ok(page) => {
                self.scan.start.clone_from(&page.last_evaluated_key);
                self.done = page.last_evaluated_key.is_none();
            }
            Err(_) => self.done = true,
        }
        Some(page)
    }

    /// Ask for at most `limit` items in the following pages.
    pub fn limit(&mut self, limit: usize) {
        self.scan.limit = Some(i32::try_from(limit).unwrap_or(i32::MAX));
    }
}
