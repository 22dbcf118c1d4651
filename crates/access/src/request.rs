//! Typed reads: one item by key, and the pages of a query, built the way every access pattern is
//! (the key condition expression is written here and nowhere else), with opaque sealed cursors,
//! full pages, and a cursor only when more items follow.

use std::borrow::Cow;
use std::collections::HashMap;
use std::marker::PhantomData;

use aws_sdk_dynamodb::types::AttributeValue;
use futures_util::stream::{self, Stream};

use crate::cursor;
use crate::entity::{self, Entity, EntityError};
use crate::error::{GetError, QueryError, ServiceError};
use crate::handle::Table;
use crate::items::Item;
use crate::key::Key;

/// The most items a page may ask for (DynamoDB takes more; listings should not).
pub const MAX_PAGE: usize = 1000;

/// A condition on the sort key.
#[derive(Debug, Clone, PartialEq)]
pub enum SortCondition {
    /// `=`.
    Eq(AttributeValue),
    /// `begins_with`.
    BeginsWith(AttributeValue),
    /// `BETWEEN a AND b` (both inclusive).
    Between(AttributeValue, AttributeValue),
    /// `<`.
    Lt(AttributeValue),
    /// `<=`.
    Le(AttributeValue),
    /// `>`.
    Gt(AttributeValue),
    /// `>=`.
    Ge(AttributeValue),
}

/// A query's key condition: the partition key's equality and an optional sort key condition,
/// and on a native multi-attribute index the further equalities DynamoDB needs (every other
/// partition attribute, then the sort attributes before the one the last condition is on).
/// Generated code names attributes with `Cow::Borrowed`; tools reading a model at run time own
/// them.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyCondition {
    /// The (first) partition key attribute and its value.
    pub partition: (Cow<'static, str>, AttributeValue),
    /// Further equalities of a native key, in key schema order; empty on a synthetic key.
    pub equalities: Vec<(Cow<'static, str>, AttributeValue)>,
    /// The sort key attribute and its condition (on a native key: the last sort attribute
    /// given).
    pub sort: Option<(Cow<'static, str>, SortCondition)>,
}

/// A key condition as DynamoDB takes it: the expression, its names and its values.
#[derive(Debug, Clone, PartialEq)]
pub struct Expression {
    /// `#pk = :pk AND begins_with(#sk, :sk0)`.
    pub text: String,
    /// `#pk` → attribute.
    pub names: HashMap<String, String>,
    /// `:pk` → value.
    pub values: HashMap<String, AttributeValue>,
}

impl KeyCondition {
    /// `listUserOrders|GSI1PK=USER#a|GSI1SK begins ORDER#`: what a cursor of `pattern` with this
    /// condition is bound to (a cursor from another pattern or other parameters is refused).
    pub fn scope(&self, pattern: &str) -> String {
        let text = |v: &AttributeValue| match v {
            AttributeValue::S(s) | AttributeValue::N(s) => s.clone(),
            AttributeValue::B(b) => format!("{:?}", b.as_ref()),
            other => format!("{other:?}"),
        };
        let (pk, value) = &self.partition;
        let mut out = format!("{pattern}|{pk}={}", text(value));
        for (attribute, value) in &self.equalities {
            out.push_str(&format!("|{attribute}={}", text(value)));
        }
        if let Some((sk, condition)) = &self.sort {
            let (op, values): (&str, Vec<&AttributeValue>) = match condition {
                SortCondition::Eq(v) => ("=", vec![v]),
                SortCondition::BeginsWith(v) => ("begins", vec![v]),
                SortCondition::Between(a, b) => ("between", vec![a, b]),
                SortCondition::Lt(v) => ("<", vec![v]),
                SortCondition::Le(v) => ("<=", vec![v]),
                SortCondition::Gt(v) => (">", vec![v]),
                SortCondition::Ge(v) => (">=", vec![v]),
            };
            out.push_str(&format!("|{sk} {op}"));
            for v in values {
                out.push(' ');
                out.push_str(&text(v));
            }
        }
        out
    }

    /// The expression: the one place a key condition is written.
    pub fn expression(&self) -> Expression {
        let (pk, pk_value) = &self.partition;
        let mut names = HashMap::from([("#pk".to_string(), pk.to_string())]);
        let mut values = HashMap::from([(":pk".to_string(), pk_value.clone())]);
        let mut text = String::from("#pk = :pk");
        for (i, (attribute, value)) in self.equalities.iter().enumerate() {
            names.insert(format!("#k{i}"), attribute.to_string());
            values.insert(format!(":k{i}"), value.clone());
            text.push_str(&format!(" AND #k{i} = :k{i}"));
        }
        if let Some((sk, condition)) = &self.sort {
            names.insert("#sk".into(), sk.to_string());
            let (clause, bound): (&str, Vec<&AttributeValue>) = match condition {
                SortCondition::Eq(v) => ("#sk = :sk0", vec![v]),
                SortCondition::BeginsWith(v) => ("begins_with(#sk, :sk0)", vec![v]),
                SortCondition::Between(a, b) => ("#sk BETWEEN :sk0 AND :sk1", vec![a, b]),
                SortCondition::Lt(v) => ("#sk < :sk0", vec![v]),
                SortCondition::Le(v) => ("#sk <= :sk0", vec![v]),
                SortCondition::Gt(v) => ("#sk > :sk0", vec![v]),
                SortCondition::Ge(v) => ("#sk >= :sk0", vec![v]),
            };
            for (i, v) in bound.into_iter().enumerate() {
                values.insert(format!(":sk{i}"), v.clone());
            }
            text.push_str(" AND ");
            text.push_str(clause);
        }
        Expression {
            text,
            names,
            values,
        }
    }
}

/// Read one item of `E` by its key.
pub struct GetRequest<E> {
    key: Key<E>,
    consistent: bool,
}

impl<E: Entity> GetRequest<E> {
    /// A read of `key`; `consistent` for a strongly consistent read.
    pub fn new(key: Key<E>, consistent: bool) -> GetRequest<E> {
        GetRequest { key, consistent }
    }

    /// The entity, or `None` when there is no such item.
    pub async fn send(self, table: &Table) -> Result<Option<E>, GetError> {
        let out = table
            .client()
            .get_item()
            .table_name(table.name())
            .set_key(Some(self.key.into_item()))
            .consistent_read(self.consistent)
            .send()
            .await
            .map_err(|e| ServiceError::from_sdk(&e))?;
        Ok(out.item.as_ref().map(entity::read::<E>).transpose()?)
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
            _rows: PhantomData,
        }
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

    /// Up to `limit` items from `start`, and the key to resume after the last one when at least
    /// one more follows: it reads one item more than it returns, and goes on reading when
    /// DynamoDB stops early (its 1 MB cap), so a page is never short or empty while more remain.
    async fn read(
        &self,
        table: &Table,
        limit: usize,
        start: Option<Item>,
    ) -> Result<(Vec<Item>, Option<Item>), QueryError> {
        let want = limit.saturating_add(1);
        let mut items: Vec<Item> = Vec::new();
        let mut next = start;
        let expression = self.condition.expression();
        loop {
            let out = table
                .client()
                .query()
                .table_name(table.name())
                .set_index_name(self.index.map(str::to_string))
                .key_condition_expression(&expression.text)
                .set_expression_attribute_names(Some(expression.names.clone()))
                .set_expression_attribute_values(Some(expression.values.clone()))
                .scan_index_forward(!self.descending)
                .consistent_read(self.consistent)
                .limit(i32::try_from(want - items.len()).unwrap_or(i32::MAX))
                .set_exclusive_start_key(next.take())
                .send()
                .await
                .map_err(|e| ServiceError::from_sdk(&e))?;
            items.extend(out.items.unwrap_or_default());
            next = out.last_evaluated_key.filter(|k| !k.is_empty());
            if items.len() >= want || next.is_none() {
                break;
            }
        }
        let more = items.len() > limit;
        items.truncate(limit);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_conditions_are_written_in_one_shape() {
        let s = |v: &str| AttributeValue::S(v.into());
        let c = KeyCondition {
            partition: ("GSI1PK".into(), s("USER#a")),
            equalities: Vec::new(),
            sort: Some(("GSI1SK".into(), SortCondition::Between(s("a"), s("b")))),
        };
        let e = c.expression();
        assert_eq!(e.text, "#pk = :pk AND #sk BETWEEN :sk0 AND :sk1");
        assert_eq!(e.names["#sk"], "GSI1SK");
        assert_eq!(e.values[":sk1"], s("b"));
        let only_pk = KeyCondition {
            partition: ("PK".into(), s("ORDER#1")),
            equalities: Vec::new(),
            sort: None,
        };
        assert_eq!(only_pk.expression().text, "#pk = :pk");
        let native = KeyCondition {
            partition: ("status".into(), s("PAID")),
            equalities: vec![
                ("shard".into(), AttributeValue::N("3".into())),
                ("createdAt".into(), s("2026-12-01")),
            ],
            sort: Some(("orderId".into(), SortCondition::BeginsWith(s("01")))),
        };
        let e = native.expression();
        assert_eq!(
            e.text,
            "#pk = :pk AND #k0 = :k0 AND #k1 = :k1 AND begins_with(#sk, :sk0)"
        );
        assert_eq!(e.names["#k0"], "shard");
        assert_eq!(e.values[":k0"], AttributeValue::N("3".into()));
        assert_eq!(e.names["#k1"], "createdAt");
        assert_eq!(
            native.scope("byStatus"),
            "byStatus|status=PAID|shard=3|createdAt=2026-12-01|orderId begins 01"
        );
    }

    #[test]
    fn a_native_key_condition_is_one_expression_of_every_equality_and_the_sort_condition() {
        let s = |v: &str| AttributeValue::S(v.into());
        let c = KeyCondition {
            partition: ("status".into(), s("PAID")),
            equalities: vec![("shard".into(), AttributeValue::N("3".into()))],
            sort: Some(("createdAt".into(), SortCondition::Between(s("a"), s("b")))),
        };
        let e = c.expression();
        assert_eq!(
            e.text,
            "#pk = :pk AND #k0 = :k0 AND #sk BETWEEN :sk0 AND :sk1"
        );
        assert_eq!(e.names["#k0"], "shard");
        assert_eq!(e.values[":k0"], AttributeValue::N("3".into()));
        assert_eq!(c.scope("p"), "p|status=PAID|shard=3|createdAt between a b");
    }
}
