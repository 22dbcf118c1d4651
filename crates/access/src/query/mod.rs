//! Query: the items of one partition, in key order. Typed: [`QueryRequest`] (what `patterns!`
//! generates) reads pages of entities with sealed cursors, every item, or a stream. Dynamic:
//! [`Query`] runs a [`KeyCondition`] built at run time (a model's pattern rendered by
//! [`crate::pattern`]). `Query::call` is the one Query call, and [`Query::fill`] the one place a
//! full page is read (one item more than it returns, through DynamoDB's 1 MB cap); both faces
//! fail with [`QueryError`].

mod condition;

use std::marker::PhantomData;

use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
use futures_util::stream::{self, Stream};

pub use condition::{Expression, KeyCondition, SortCondition};

use crate::cursor;
use crate::entity::{self, Entity, EntityError};
use crate::handle::Table;
use crate::items::{Item, ItemPage};
use crate::key::ParameterError;
use crate::service::ServiceError;

/// The most items a page may ask for (DynamoDB takes more; listings should not).
pub const MAX_PAGE: usize = 1000;

/// Reading a page (or all pages) failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// DynamoDB refused or failed the call.
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// An item is not a valid entity.
    #[error(transparent)]
    Entity(#[from] EntityError),
    /// The cursor is not one this listing issued.
    #[error("the cursor is not one this listing issued")]
    Cursor,
    /// A parameter cannot be rendered into the key condition exactly: nothing was sent.
    #[error(transparent)]
    Parameter(#[from] ParameterError),
    /// A page size of 0, or beyond what DynamoDB takes.
    #[error("a page holds 1 to {max} items; got {got}")]
    Limit {
        /// What was asked.
        got: usize,
        /// The largest page.
        max: usize,
    },
}

/// One Query of a key condition built at run time.
#[derive(Debug, Clone)]
pub struct Query {
    condition: KeyCondition,
    index: Option<String>,
    descending: bool,
    consistent: bool,
    limit: Option<i32>,
    start: Option<Item>,
}

/// Up to a page's worth of items, and whether more follow ([`Query::fill`]).
#[derive(Debug, Clone, Default)]
pub struct Filled {
    /// At most the page's size, in the query's order.
    pub items: Vec<Item>,
    /// At least one more item follows the last one.
    pub more: bool,
}

impl Query {
    /// A query of the table with `condition`, ascending, eventually consistent, DynamoDB's page.
    pub fn new(condition: KeyCondition) -> Query {
        Query {
            condition,
            index: None,
            descending: false,
            consistent: false,
            limit: None,
            start: None,
        }
    }

    /// On index `index` (`None`: the table).
    pub fn index(mut self, index: Option<&str>) -> Query {
        self.index = index.map(str::to_string);
        self
    }

    /// Highest sort key first when `descending`.
    pub fn descending(mut self, descending: bool) -> Query {
        self.descending = descending;
        self
    }

    /// Strongly consistent when `consistent` (only the table and its local indexes can be).
    pub fn consistent(mut self, consistent: bool) -> Query {
        self.consistent = consistent;
        self
    }

    /// At most `limit` items per call (`None`: DynamoDB's 1 MB page).
    pub fn limit(mut self, limit: Option<i32>) -> Query {
        self.limit = limit;
        self
    }

    /// Resume after `start`, a previous page's `LastEvaluatedKey`.
    pub fn start(mut self, start: Option<Item>) -> Query {
        self.start = start;
        self
    }

    /// One page, as DynamoDB returns it.
    pub async fn send(self, table: &Table) -> Result<ItemPage, QueryError> {
        self.call(table, false).await
    }

    /// One page, with what it consumed (`ReturnConsumedCapacity: INDEXES`).
    pub async fn measured(self, table: &Table) -> Result<ItemPage, QueryError> {
        self.call(table, true).await
    }

    /// Up to `limit` items from its start, and whether more follow: it reads one item more than
    /// it returns, and goes on reading when DynamoDB stops early (its 1 MB cap), so a page is
    /// never short or empty while more remain.
    pub async fn fill(mut self, table: &Table, limit: usize) -> Result<Filled, QueryError> {
        let want = limit.saturating_add(1);
        let mut items: Vec<Item> = Vec::new();
        loop {
            self.limit = Some(i32::try_from(want - items.len()).unwrap_or(i32::MAX));
            let page = self.clone().call(table, false).await?;
            items.extend(page.items);
            self.start = page.last_evaluated_key;
            if items.len() >= want || self.start.is_none() {
                break;
            }
        }
        let more = items.len() > limit;
        items.truncate(limit);
        Ok(Filled { items, more })
    }

    /// The one Query call.
    async fn call(self, table: &Table, measure: bool) -> Result<ItemPage, QueryError> {
        let expression = self.condition.expression();
        let out = table
            .client()
            .query()
            .table_name(table.name())
            .set_index_name(self.index)
            .key_condition_expression(expression.text)
            .set_expression_attribute_names(Some(expression.names))
            .set_expression_attribute_values(Some(expression.values))
            .scan_index_forward(!self.descending)
            .consistent_read(self.consistent)
            .set_limit(self.limit)
            .set_exclusive_start_key(self.start)
            .set_return_consumed_capacity(measure.then_some(ReturnConsumedCapacity::Indexes))
            .send()
            .await
            .map_err(|e| ServiceError::from_sdk(&e))?;
        Ok(ItemPage {
            items: out.items.unwrap_or_default(),
            last_evaluated_key: out.last_evaluated_key.filter(|k| !k.is_empty()),
            capacity: out.consumed_capacity,
        })
    }
}

/// What one item of a query becomes: an entity, or one of the entities a collection pattern
/// returns.
pub trait Row: Sized + Send + 'static {
    /// The row in `item`; `None` for an item the pattern does not return (skipped).
    fn from_item(item: &Item) -> Result<Option<Self>, EntityError>;
}

impl<E: Entity> Row for E {
    fn from_item(item: &Item) -> Result<Option<Self>, EntityError> {
        entity::read::<E>(item).map(Some)
    }
}

/// A page of a listing.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    /// The items, in the pattern's order.
    pub items: Vec<T>,
    /// Pass back to read the next page; `None` when no item follows.
    pub next_cursor: Option<String>,
}

/// One query of an access pattern, page by page.
pub struct QueryRequest<R> {
    scope: String,
    index: Option<&'static str>,
    condition: KeyCondition,
    resume: &'static [&'static str],
    descending: bool,
    consistent: bool,
    limit: usize,
    cursor: Option<String>,
    invalid: Option<ParameterError>,
    _rows: PhantomData<fn() -> R>,
}

impl<R> std::fmt::Debug for QueryRequest<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryRequest")
            .field("scope", &self.scope)
            .field("index", &self.index)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

/// What a query reads, as the pattern defines it.
#[derive(Debug, Clone)]
pub struct QuerySpec {
    /// The pattern and its parameters: a cursor is valid for this scope only.
    pub scope: String,
    /// The index; `None` for the table.
    pub index: Option<&'static str>,
    /// The key condition.
    pub condition: KeyCondition,
    /// The key attributes that resume after an item (the table's, then the index's).
    pub resume: &'static [&'static str],
    /// Newest (highest sort key) first.
    pub descending: bool,
    /// Strongly consistent (table only).
    pub consistent: bool,
    /// Default page size.
    pub limit: usize,
}

impl<R: Row> QueryRequest<R> {
    /// The query `spec` describes.
    pub fn new(spec: QuerySpec) -> QueryRequest<R> {
        QueryRequest {
            scope: spec.scope,
            index: spec.index,
            condition: spec.condition,
            resume: spec.resume,
            descending: spec.descending,
            consistent: spec.consistent && spec.index.is_none(),
            limit: spec.limit,
            cursor: None,
            invalid: None,
            _rows: PhantomData,
        }
    }

    /// The same query, refused when `check` (of a parameter its key condition was rendered
    /// from) failed: `send`, `all` and `stream` then return the first such error and send
    /// nothing.
    pub fn checked(mut self, check: Result<(), ParameterError>) -> Self {
        if let Err(e) = check {
            self.invalid.get_or_insert(e);
        }
        self
    }

    /// Items per page.
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// Resume after the page that gave this cursor (its `next_cursor`).
    pub fn cursor(mut self, cursor: Option<&str>) -> Self {
        self.cursor = cursor.map(str::to_string);
        self
    }

    /// One page: `limit` items whenever that many remain, and a cursor only when more follow.
    pub async fn send(self, table: &Table) -> Result<Page<R>, QueryError> {
        if !(1..=MAX_PAGE).contains(&self.limit) {
            return Err(QueryError::Limit {
                got: self.limit,
                max: MAX_PAGE,
            });
        }
        let start = match &self.cursor {
            Some(c) => Some(
                cursor::decode_key(table.cursor_key(), &self.scope, c)
                    .map_err(|_| QueryError::Cursor)?,
            ),
            None => None,
        };
        let (items, last) = self.read(table, self.limit, start).await?;
        let next_cursor = match last {
            Some(key) => Some(
                cursor::encode_key(table.cursor_key(), &self.scope, &key).ok_or(
                    QueryError::Service(ServiceError::Unavailable {
                        message: "no randomness to seal a cursor".into(),
                    }),
                )?,
            ),
            None => None,
        };
        let mut rows = Vec::with_capacity(items.len());
        for item in &items {
            rows.extend(R::from_item(item)?);
        }
        Ok(Page {
            items: rows,
            next_cursor,
        })
    }

    /// Every item, page after page.
    pub async fn all(self, table: &Table) -> Result<Vec<R>, QueryError> {
        let mut out = Vec::new();
        let mut start = None;
        loop {
            let (items, last) = self.read(table, self.limit, start).await?;
            for item in &items {
                out.extend(R::from_item(item)?);
            }
            match last {
                Some(key) => start = Some(key),
                None => return Ok(out),
            }
        }
    }

    /// Every item as a stream, fetched a page at a time as it is consumed.
    pub fn stream(self, table: &Table) -> impl Stream<Item = Result<R, QueryError>> + '_ {
        let pages = stream::unfold(Some((self, None::<Item>)), move |state| async move {
            let (request, start) = state?;
            match request.read(table, request.limit, start).await {
                Ok((items, last)) => {
                    let rows: Vec<Result<R, QueryError>> = items
                        .iter()
                        .filter_map(|i| R::from_item(i).map_err(QueryError::from).transpose())
                        .collect();
                    let next = last.map(|key| (request, Some(key)));
                    Some((stream::iter(rows), next))
                }
                Err(e) => Some((stream::iter(vec![Err(e)]), None)),
            }
        });
        futures_util::StreamExt::flatten(pages)
    }

    /// Up to `limit` items from `start` ([`Query::fill`]), and the key to resume after the last
    /// one when at least one more follows.
    async fn read(
        &self,
        table: &Table,
        limit: usize,
        start: Option<Item>,
    ) -> Result<(Vec<Item>, Option<Item>), QueryError> {
        if let Some(e) = &self.invalid {
            return Err(e.clone().into());
        }
        let filled = Query::new(self.condition.clone())
            .index(self.index)
            .descending(self.descending)
            .consistent(self.consistent)
            .start(start)
            .fill(table, limit)
            .await?;
        let Filled { items, more } = filled;
        let resume = match (more, items.last()) {
            (true, Some(last)) => Some(resume_key(self.resume, last)),
            _ => None,
        };
        Ok((items, resume))
    }
}

fn resume_key(names: &[&str], item: &Item) -> Item {
    names
        .iter()
        .filter_map(|n| Some((n.to_string(), item.get(*n)?.clone())))
        .collect()
}
