//! Running a model's access patterns: GetItem and Query requests built from the pattern's key
//! templates, so no caller writes a key string by hand.

use std::borrow::Cow;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use monotable_model::{Condition, KeyTemplate, Model, Operation, Pattern, RenderError};

use aws_sdk_dynamodb::types::AttributeValue;

use crate::items::{Item, key_value};
use crate::request::{KeyCondition, SortCondition};

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
    /// A page size of 0, or beyond [`crate::request::MAX_PAGE`].
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
    /// DynamoDB refused the call, or could not be reached.
    #[error("access pattern `{pattern}`: {operation} failed: {message}")]
    Call {
        /// The pattern.
        pattern: String,
        /// The DynamoDB operation.
        operation: &'static str,
        /// DynamoDB's code and message, or why no answer came ([`crate::error::call_text`]).
        message: String,
        /// The failure, classified.
        error: crate::error::ServiceError,
    },
}

/// A page of a query.
#[derive(Debug, Clone, Default)]
pub struct Page {
    /// The items, in the index's order (or reversed for a descending pattern).
    pub items: Vec<Item>,
    /// Where the next page starts; `None` when the query is exhausted.
    pub last_evaluated_key: Option<Item>,
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

fn call_error<E: ProvideErrorMetadata + std::error::Error + 'static>(
    pattern: &Pattern,
    operation: &'static str,
    e: &SdkError<E, HttpResponse>,
) -> PatternError {
    PatternError::Call {
        pattern: pattern.name.clone(),
        operation,
        message: crate::error::call_text(e),
        error: crate::error::ServiceError::from_sdk(e),
    }
}

/// Run a GetItem pattern with its key rendered from `values`.
pub async fn get(
    client: &Client,
    model: &Model,
    name: &str,
    values: &(dyn Fn(&str) -> Option<String> + Sync),
) -> Result<Option<Item>, PatternError> {
    let p = pattern(model, name)?;
    if p.operation != Operation::GetItem {
        return Err(PatternError::WrongOperation {
            pattern: name.to_string(),
            found: p.operation,
            wanted: "GetItem",
        });
    }
    let pk =
        p.pk.as_ref()
            .ok_or_else(|| PatternError::NoPartitionKey(name.to_string()))?;
    let mut key = Item::new();
    for cond in std::iter::once(pk).chain(p.sk.as_ref()) {
        let Condition::Eq(template) = &cond.condition else {
            return Err(PatternError::NoPartitionKey(name.to_string()));
        };
        key.insert(
            cond.attribute.clone(),
            key_value(model, &cond.attribute, render(p, template, values)?),
        );
    }
    let out = client
        .get_item()
        .table_name(&model.table.name)
        .set_key(Some(key))
        .consistent_read(p.consistent_read)
        .send()
        .await
        .map_err(|e| call_error(p, "GetItem", &e))?;
    Ok(out.item)
}

/// Run one page of a Query pattern with its key condition rendered from `values`.
pub async fn query(
    client: &Client,
    model: &Model,
    name: &str,
    values: &(dyn Fn(&str) -> Option<String> + Sync),
    page: PageRequest,
) -> Result<Page, PatternError> {
    let p = pattern(model, name)?;
    if p.operation != Operation::Query {
        return Err(PatternError::WrongOperation {
            pattern: name.to_string(),
            found: p.operation,
            wanted: "Query",
        });
    }
    let condition = key_condition(model, p, values)?;
    let expression = condition.expression();
    let request = client
        .query()
        .table_name(&model.table.name)
        .set_index_name(p.index_name().map(str::to_string))
        .set_expression_attribute_names(Some(expression.names))
        .set_expression_attribute_values(Some(expression.values))
        .scan_index_forward(!p.descending)
        .consistent_read(p.consistent_read && p.index_name().is_none())
        .set_limit(
            page.limit
                .or_else(|| p.limit.and_then(|l| i32::try_from(l).ok())),
        )
        .set_exclusive_start_key(page.start);
    let out = request
        .key_condition_expression(expression.text)
        .send()
        .await
        .map_err(|e| call_error(p, "Query", &e))?;
    Ok(Page {
        items: out.items.unwrap_or_default(),
        last_evaluated_key: out.last_evaluated_key.filter(|k| !k.is_empty()),
    })
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
    let equality = |k: &monotable_model::KeyCondition| match &k.condition {
        Condition::Eq(t) => Ok((Cow::Owned(k.attribute.clone()), value(&k.attribute, t)?)),
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
                Condition::Eq(t) => SortCondition::Eq(v(t)?),
                Condition::BeginsWith(t) => SortCondition::BeginsWith(v(t)?),
                Condition::Between(a, b) => SortCondition::Between(v(a)?, v(b)?),
                Condition::Lt(t) => SortCondition::Lt(v(t)?),
                Condition::Le(t) => SortCondition::Le(v(t)?),
                Condition::Gt(t) => SortCondition::Gt(v(t)?),
                Condition::Ge(t) => SortCondition::Ge(v(t)?),
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
/// one more item exists, so no caller ever gets an empty page that claims more follow. It reads
/// `limit + 1` items, and keeps reading when DynamoDB stops early (its 1 MB page cap).
pub async fn query_page(
    client: &Client,
    model: &Model,
    name: &str,
    values: &(dyn Fn(&str) -> Option<String> + Sync),
    limit: usize,
    start: Option<Item>,
) -> Result<Page, PatternError> {
    let p = pattern(model, name)?;
    if !(1..=crate::request::MAX_PAGE).contains(&limit) {
        return Err(PatternError::Limit {
            pattern: name.to_string(),
            got: limit,
            max: crate::request::MAX_PAGE,
        });
    }
    let want = limit.saturating_add(1);
    let mut items: Vec<Item> = Vec::new();
    let mut next = start;
    loop {
        let missing = want - items.len();
        let request = PageRequest {
            limit: Some(i32::try_from(missing).unwrap_or(i32::MAX)),
            start: next.take(),
        };
        let page = query(client, model, name, values, request).await?;
        items.extend(page.items);
        next = page.last_evaluated_key;
        if items.len() >= want || next.is_none() {
            break;
        }
    }
    let more = items.len() > limit;
    items.truncate(limit);
    let last_evaluated_key = match (more, items.last()) {
        (true, Some(last)) => Some(resume_key(model, p, last)?),
        _ => None,
    };
    Ok(Page {
        items,
        last_evaluated_key,
    })
}
