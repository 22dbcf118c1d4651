//! The dynamic, model-driven face of the operations: a model's access patterns (read from the
//! model file at run time) as GetItem, Query and Scan requests, their keys rendered from the
//! pattern's templates, so no tool writes a key string by hand. The requests are the same
//! [`GetItem`], [`Query`] and [`Scan`] the typed face sends; a failed call is a classified
//! [`ServiceError`] ([`PatternError::Call`]), never a string. Its [`write`](mod@write) module does the
//! same for the write patterns.

pub mod write;

use std::borrow::Cow;

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::{KeyTemplate, KeyTest, Model, Operation, Pattern, RenderError};

use crate::get::{GetError, GetItem};
use crate::handle::Table;
use crate::items::ItemPage;
use crate::items::{Item, key_value};
use crate::query::{KeyCondition, MAX_PAGE, Query, QueryError, SortCondition};
use crate::scan::Scan;
use crate::service::ServiceError;

/// Running a pattern failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PatternError {
    /// The model has no such pattern.
    #[error("the model has no access pattern `{0}`")]
    Unknown(String),
    /// The pattern is not of the operation asked for.
    #[error("access pattern `{pattern}` is a {found:?}, not a {wanted}")]
    WrongOperation {
        /// The pattern.
        pattern: String,
        /// Its operation.
        found: Operation,
        /// What the caller wanted.
        wanted: &'static str,
    },
    /// A page size of 0, or beyond [`MAX_PAGE`].
    #[error("access pattern `{pattern}`: a page holds 1 to {max} items; got {got}")]
    Limit {
        /// The pattern.
        pattern: String,
        /// What was asked.
        got: usize,
        /// The largest page.
        max: usize,
    },
    /// The pattern has no partition-key equality.
    #[error("access pattern `{0}` has no partition key condition")]
    NoPartitionKey(String),
    /// A key template could not be rendered.
    #[error("access pattern `{pattern}`: {source}")]
    Render {
        /// The pattern.
        pattern: String,
        /// Why.
        source: RenderError,
    },
    /// An item the query returned lacks one of the key attributes that resume it.
    #[error("access pattern `{pattern}`: a returned item has no `{attribute}`")]
    MissingKeyAttribute {
        /// The pattern.
        pattern: String,
        /// The missing key attribute.
        attribute: String,
    },
    /// A write pattern that does not write one entity of the model.
    #[error("access pattern `{0}` does not write one entity of the model")]
    NoEntity(String),
    /// A value the write pattern's key or condition takes was not given.
    #[error("access pattern `{pattern}`: no value for `{name}`")]
    MissingValue {
        /// The pattern.
        pattern: String,
        /// The key variable, `{param}` or `expected_<attr>`.
        name: String,
    },
    /// An update changes an attribute its `sets` does not list (or one it cannot set: the
    /// version, an input of the table key).
    #[error("access pattern `{pattern}` cannot change `{attribute}`: its `sets` does not list it")]
    NotInSets {
        /// The pattern.
        pattern: String,
        /// The attribute.
        attribute: String,
    },
    /// The write cannot be built, as the typed request would refuse it
    /// ([`crate::WriteError::PartialKeyUpdate`], [`crate::WriteError::KeyInputAdded`]).
    #[error("access pattern `{pattern}`: {source}")]
    Write {
        /// The pattern.
        pattern: String,
        /// Why.
        source: Box<crate::write::WriteError>,
    },
    /// DynamoDB refused the call, or could not be reached.
    #[error("access pattern `{pattern}`: {operation} failed: {error}")]
    Call {
        /// The pattern.
        pattern: String,
        /// The DynamoDB operation.
        operation: &'static str,
        /// What DynamoDB (or the way to it) said, classified.
        #[source]
        error: ServiceError,
    },
}

impl PatternError {
    /// The classified failure of the call, when the pattern got as far as one.
    pub fn service(&self) -> Option<&ServiceError> {
        match self {
            PatternError::Call { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// How to read a page.
#[derive(Debug, Clone, Default)]
pub struct PageRequest {
    /// Items per page; the pattern's own limit when `None`.
    pub limit: Option<i32>,
    /// `ExclusiveStartKey` from the previous page.
    pub start: Option<Item>,
}

fn pattern<'m>(model: &'m Model, name: &str) -> Result<&'m Pattern, PatternError> {
    model
        .pattern(name)
        .ok_or_else(|| PatternError::Unknown(name.to_string()))
}

fn render(
    pattern: &Pattern,
    template: &KeyTemplate,
    values: &(dyn Fn(&str) -> Option<String> + Sync),
) -> Result<String, PatternError> {
    template
        .render(values)
        .map_err(|source| PatternError::Render {
            pattern: pattern.name.clone(),
            source,
        })
}

fn call_error(pattern: &Pattern, operation: &'static str, error: ServiceError) -> PatternError {
    PatternError::Call {
        pattern: pattern.name.clone(),
        operation,
        error,
    }
}

fn of_operation<'m>(
    model: &'m Model,
    name: &str,
    wanted: Operation,
) -> Result<&'m Pattern, PatternError> {
    let p = pattern(model, name)?;
    if p.operation != wanted {
        return Err(PatternError::WrongOperation {
            pattern: name.to_string(),
            found: p.operation,
            wanted: match wanted {
                Operation::GetItem => "GetItem",
                Operation::Scan => "Scan",
                _ => "Query",
            },
        });
    }
    Ok(p)
}

/// The key of GetItem (or BatchGet) pattern `p` rendered from `values`, each attribute in its
/// declared type.
pub fn key(
    model: &Model,
    p: &Pattern,
    values: &(dyn Fn(&str) -> Option<String> + Sync),
) -> Result<Item, PatternError> {
    let pk =
        p.pk.as_ref()
            .ok_or_else(|| PatternError::NoPartitionKey(p.name.clone()))?;
    let mut key = Item::new();
    for cond in std::iter::once(pk).chain(p.sk.as_ref()) {
        let KeyTest::Eq(template) = &cond.condition else {
            return Err(PatternError::NoPartitionKey(p.name.clone()));
        };
        key.insert(
            cond.attribute.clone(),
            key_value(model, &cond.attribute, render(p, template, values)?),
        );
    }
    Ok(key)
}

/// Run a GetItem pattern with its key rendered from `values`.
pub async fn get(
    table: &Table,
    model: &Model,
    name: &str,
    values: &(dyn Fn(&str) -> Option<String> + Sync),
) -> Result<Option<Item>, PatternError> {
    let p = of_operation(model, name, Operation::GetItem)?;
    GetItem::new(key(model, p, values)?)
        .consistent(p.consistent_read)
        .send(table)
        .await
        .map_err(|e| match e {
            GetError::Service(error) => call_error(p, "GetItem", error),
            other => call_error(
                p,
                "GetItem",
                ServiceError::Validation {
                    message: other.to_string(),
                },
            ),
        })
}

/// The Query of pattern `name` with its key condition rendered from `values`: its index, order
/// and consistency (on the table only), and its own page size when it has one.
pub fn query_request(
    model: &Model,
    name: &str,
    values: &(dyn Fn(&str) -> Option<String> + Sync),
) -> Result<Query, PatternError> {
    let p = of_operation(model, name, Operation::Query)?;
    Ok(Query::new(key_condition(model, p, values)?)
        .index(p.index_name())
        .descending(p.descending)
        .consistent(p.consistent_read && p.index_name().is_none())
        .limit(p.limit.and_then(|l| i32::try_from(l).ok())))
}

fn query_failed(model: &Model, name: &str, e: QueryError) -> PatternError {
    let error = match e {
        QueryError::Service(error) => error,
        // A dynamic query reads items, with no cursor or page limit of its own: a bug if so.
        other => ServiceError::Validation {
            message: other.to_string(),
        },
    };
    PatternError::Call {
        pattern: pattern(model, name).map_or_else(|_| name.to_string(), |p| p.name.clone()),
        operation: "Query",
        error,
    }
}

/// Run one page of a Query pattern (as DynamoDB pages it) with its key condition rendered from
/// `values`.
pub async fn query(
    table: &Table,
    model: &Model,
    name: &str,
    values: &(dyn Fn(&str) -> Option<String> + Sync),
    page: PageRequest,
) -> Result<ItemPage, PatternError> {
    let mut request = query_request(model, name, values)?.start(page.start);
    if page.limit.is_some() {
        request = request.limit(page.limit);
    }
    request
        .send(table)
        .await
        .map_err(|e| query_failed(model, name, e))
}

/// The Scan of Scan pattern `name`: the table or the pattern's index, consistent when the
/// pattern says so (and it reads the table).
pub fn scan(model: &Model, name: &str) -> Result<Scan, PatternError> {
    let p = of_operation(model, name, Operation::Scan)?;
    Ok(Scan::new()
        .index(p.index_name())
        .consistent(p.consistent_read && p.index_name().is_none()))
}

/// The key condition of query pattern `p` for `values`, written by [`KeyCondition::expression`],
/// the one place key condition expressions are built: the partition equality, then (for a native
/// multi-attribute key) every further equality in key-schema order, then the sort condition.
pub fn key_condition(
    model: &Model,
    p: &Pattern,
    values: &(dyn Fn(&str) -> Option<String> + Sync),
) -> Result<KeyCondition, PatternError> {
    let no_partition = || PatternError::NoPartitionKey(p.name.clone());
    let value = |attribute: &str, t: &KeyTemplate| -> Result<AttributeValue, PatternError> {
        Ok(key_value(model, attribute, render(p, t, values)?))
    };
    let equality = |k: &monotable_model::KeyClause| match &k.condition {
        KeyTest::Eq(t) => Ok((Cow::Owned(k.attribute.clone()), value(&k.attribute, t)?)),
        _ => Err(no_partition()),
    };
    let pk = p.pk.as_ref().ok_or_else(no_partition)?;
    let partition = equality(pk)?;
    let sort_attribute = p.sk.as_ref().map(|k| k.attribute.as_str());
    let equalities = p
        .key
        .iter()
        .filter(|k| k.attribute != pk.attribute && Some(k.attribute.as_str()) != sort_attribute)
        .map(equality)
        .collect::<Result<Vec<_>, _>>()?;
    let sort = match &p.sk {
        None => None,
        Some(sk) => {
            let v = |t: &KeyTemplate| value(&sk.attribute, t);
            let condition = match &sk.condition {
                KeyTest::Eq(t) => SortCondition::Eq(v(t)?),
                KeyTest::BeginsWith(t) => SortCondition::BeginsWith(v(t)?),
                KeyTest::Between(a, b) => SortCondition::Between(v(a)?, v(b)?),
                KeyTest::Lt(t) => SortCondition::Lt(v(t)?),
                KeyTest::Le(t) => SortCondition::Le(v(t)?),
                KeyTest::Gt(t) => SortCondition::Gt(v(t)?),
                KeyTest::Ge(t) => SortCondition::Ge(v(t)?),
            };
            Some((Cow::Owned(sk.attribute.clone()), condition))
        }
    };
    Ok(KeyCondition {
        partition,
        equalities,
        sort,
    })
}

/// The `ExclusiveStartKey` that resumes a query of `pattern` right after `item`: the table's key
/// attributes and, for an index query, the index's.
pub fn resume_key(model: &Model, pattern: &Pattern, item: &Item) -> Result<Item, PatternError> {
    let mut names: Vec<&str> = Vec::new();
    if let Some((pk, sk)) = model.key_schema(None) {
        names.push(pk);
        names.extend(sk);
    }
    // Every key attribute of the index: several of each kind for a native key.
    if let Some(index) = pattern.index_name().and_then(|i| model.index(i)) {
        names.extend(index.key_attributes().map(|k| k.name.as_str()));
    }
    names.dedup();
    names
        .into_iter()
        .map(|name| match item.get(name) {
            Some(value) => Ok((name.to_string(), value.clone())),
            None => Err(PatternError::MissingKeyAttribute {
                pattern: pattern.name.clone(),
                attribute: name.to_string(),
            }),
        })
        .collect()
}

/// A page of exactly `limit` items when that many remain, and a resume key only when at least
/// one more item exists, so no caller ever gets an empty page that claims more follow
/// ([`Query::fill`]).
pub async fn query_page(
    table: &Table,
    model: &Model,
    name: &str,
    values: &(dyn Fn(&str) -> Option<String> + Sync),
    limit: usize,
    start: Option<Item>,
) -> Result<ItemPage, PatternError> {
    let p = pattern(model, name)?;
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(PatternError::Limit {
            pattern: name.to_string(),
            got: limit,
            max: MAX_PAGE,
        });
    }
    let filled = query_request(model, name, values)?
        .start(start)
        .fill(table, limit)
        .await
        .map_err(|e| query_failed(model, name, e))?;
    let last_evaluated_key = match (filled.more, filled.items.last()) {
        (true, Some(last)) => Some(resume_key(model, p, last)?),
        _ => None,
    };
    Ok(ItemPage {
        items: filled.items,
        last_evaluated_key,
        capacity: None,
    })
}
