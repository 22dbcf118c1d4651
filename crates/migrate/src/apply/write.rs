//! Settling one scanned item: its rewrite written conditionally on the item still holding
//! exactly what the scan read, so a concurrent write by the live app is never clobbered. A
//! failed condition re-reads the item and tries again; nothing is skipped silently.

use std::collections::HashMap;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::types::{AttributeValue, Delete, Put, TransactWriteItem};
use monotable_access::items::Item;
use monotable_check::cost::{item_size, write_units};
use monotable_model::Model;

use super::ApplyError;
use super::pace::Pace;
use super::progress::{Counts, Progress};
use crate::rewrite::{Outcome, Rewriter};

/// Attempts at one item before it is reported as still changing.
const MAX_ATTEMPTS: usize = 8;

/// A condition expression and its placeholders.
#[derive(Debug, Default)]
pub(crate) struct Expect {
    pub expression: String,
    pub names: HashMap<String, String>,
    pub values: HashMap<String, AttributeValue>,
}

/// `item` exactly as read: each attribute equal, each of `absent` still missing.
pub(crate) fn unchanged(item: &Item, absent: &[String]) -> Expect {
    let mut e = Expect::default();
    let mut parts = Vec::new();
    let mut sorted: Vec<(&String, &AttributeValue)> = item.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(b.0));
    for (i, (name, value)) in sorted.into_iter().enumerate() {
        e.names.insert(format!("#a{i}"), name.clone());
        e.values.insert(format!(":a{i}"), value.clone());
        parts.push(format!("#a{i} = :a{i}"));
    }
    for (i, name) in absent.iter().enumerate() {
        e.names.insert(format!("#x{i}"), name.clone());
        parts.push(format!("attribute_not_exists(#x{i})"));
    }
    e.expression = parts.join(" AND ");
    e
}

/// The attributes `names` as `item` holds them: each one it has equal, each one it lacks still
/// absent.
pub(crate) fn holding(item: &Item, names: &[String]) -> Expect {
    let present: Item = names
        .iter()
        .filter_map(|n| item.get(n).map(|v| (n.clone(), v.clone())))
        .collect();
    let absent: Vec<String> = names
        .iter()
        .filter(|n| !item.contains_key(*n))
        .cloned()
        .collect();
    unchanged(&present, &absent)
}

/// What one write attempt came to.
enum Attempt {
    Done,
    /// The item changed (or vanished) since it was read.
    Changed,
    /// A move's new key holds another item.
    Taken,
}

/// Writes outcomes for one segment.
pub(crate) struct Writer<'a> {
    pub client: &'a Client,
    pub table: &'a str,
    pub old: &'a Model,
    pub rewriter: &'a Rewriter<'a>,
    pub pace: Option<&'a Pace>,
    pub progress: &'a Progress,
    pub dry_run: bool,
    /// In-place rewrites sent together in one TransactWriteItems (1: each its own UpdateItem).
    pub batch: usize,
}

/// Attributes `next` sets to a value `read` does not hold.
fn changed(read: &Item, next: &Item) -> Vec<String> {
    let mut names: Vec<String> = next
        .iter()
        .filter(|(k, v)| read.get(*k) != Some(*v))
        .map(|(k, _)| k.clone())
        .collect();
    names.sort();
    names
}

/// `SET` each of `set` to its value in `next`, `REMOVE` what `read` has and `next` does not;
/// the placeholders join `expect`'s.
fn update_expression(read: &Item, next: &Item, set: &[String], expect: &mut Expect) -> String {
    let mut sets = Vec::new();
    for (i, name) in set.iter().enumerate() {
        expect.names.insert(format!("#s{i}"), name.clone());
        if let Some(v) = next.get(name) {
            expect.values.insert(format!(":s{i}"), v.clone());
        }
        sets.push(format!("#s{i} = :s{i}"));
    }
    let mut removed: Vec<&String> = read.keys().filter(|k| !next.contains_key(*k)).collect();
    removed.sort();
    let mut removes = Vec::new();
    for (i, name) in removed.into_iter().enumerate() {
        expect.names.insert(format!("#r{i}"), name.clone());
        removes.push(format!("#r{i}"));
    }
    let mut out = String::new();
    if !sets.is_empty() {
        out.push_str(&format!("SET {}", sets.join(", ")));
    }
    if !removes.is_empty() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&format!("REMOVE {}", removes.join(", ")));
    }
    out
}

pub(crate) fn units(item: &Item, transactional: bool) -> f64 {
    let bytes = item_size(&monotable_access::items::to_json(item)).unwrap_or(1024);
    write_units(bytes, transactional)
}

fn describe_key(key: &Item) -> String {
    let mut parts: Vec<String> = key
        .iter()
        .map(|(k, v)| format!("{k}={}", crate::values::text(v).unwrap_or_default()))
        .collect();
    parts.sort();
    parts.join(" ")
}

fn is_condition_failure(code: Option<&str>) -> bool {
    code == Some("ConditionalCheckFailedException")
}

impl Writer<'_> {
    /// Settles `item` and counts what became of it.
    pub async fn settle(&self, item: Item, counts: &mut Counts) -> Result<(), ApplyError> {
        let mut current = item;
        for _ in 0..MAX_ATTEMPTS {
            let outcome = self.rewriter.rewrite(&current);
            let attempt = match outcome {
                Outcome::Untouched => {
                    counts.untouched += 1;
                    return Ok(());
                }
                Outcome::Unchanged => {
                    counts.unchanged += 1;
                    return Ok(());
                }
                Outcome::Leave(why) => {
                    self.leave(&current, &why, counts);
                    return Ok(());
                }
                Outcome::Put(next) => (self.put(&current, next).await?, &mut counts.rewritten),
                Outcome::Move { item, from } => (
                    self.relocate(&current, item, from).await?,
                    &mut counts.moved,
                ),
                Outcome::Delete(key) => (self.delete(&current, key).await?, &mut counts.deleted),
            };
            match attempt {
                (Attempt::Done, slot) => {
                    *slot += 1;
                    self.progress.count(0, 1);
                    return Ok(());
                }
                (Attempt::Taken, _) => {
                    let why = "its new key already holds another item";
                    self.leave(&current, why, counts);
                    return Ok(());
                }
                (Attempt::Changed, _) => {
                    counts.retried += 1;
                    match self.reread(&current).await? {
                        Some(again) => current = again,
                        None => {
                            counts.vanished += 1;
                            return Ok(());
                        }
                    }
                }
            }
        }
        let why = format!("another writer kept changing it ({MAX_ATTEMPTS} attempts)");
        self.leave(&current, &why, counts);
        Ok(())
    }

    fn leave(&self, item: &Item, why: &str, counts: &mut Counts) {
        counts.left += 1;
        let key = Rewriter::primary_key(self.old, item);
        self.progress.leave(why, describe_key(&key));
    }

    async fn reread(&self, item: &Item) -> Result<Option<Item>, ApplyError> {
        let key = Rewriter::primary_key(self.old, item);
        let out = self
            .client
            .get_item()
            .table_name(self.table)
            .set_key(Some(key))
            .consistent_read(true)
            .send()
            .await
            .map_err(|e| ApplyError::call("GetItem", &e))?;
        Ok(out.item)
    }

    pub(crate) async fn pace(&self, units: impl FnOnce() -> f64) {
        if let Some(pace) = self.pace {
            pace.take(units()).await;
        }
    }

    /// The rewrite as an UpdateItem: only the attributes that change are set or removed, so an
    /// attribute another writer adds meanwhile (even one outside the model) is kept. It is
    /// conditioned on what it depends on still holding what the scan read: the rewrite's inputs
    /// (the entity type and every key template's variables), and each attribute it sets or
    /// removes. Another writer's change to any of them makes it read the item again.
    pub(crate) fn update_parts(&self, read: &Item, next: &Item) -> (Item, String, Expect) {
        let set: Vec<String> = changed(read, next);
        let mut watched = self.rewriter.inputs(read);
        watched.extend(set.iter().cloned());
        watched.extend(read.keys().filter(|k| !next.contains_key(*k)).cloned());
        watched.sort();
        watched.dedup();
        let mut expect = holding(read, &watched);
        let update = update_expression(read, next, &set, &mut expect);
        (Rewriter::primary_key(self.old, read), update, expect)
    }

    async fn put(&self, read: &Item, next: Item) -> Result<Attempt, ApplyError> {
        if self.dry_run {
            return Ok(Attempt::Done);
        }
        self.pace(|| units(&next, false)).await;
        let (key, update, expect) = self.update_parts(read, &next);
        let sent = self
            .client
            .update_item()
            .table_name(self.table)
            .set_key(Some(key))
            .update_expression(update)
            .condition_expression(expect.expression)
            .set_expression_attribute_names(Some(expect.names))
            .set_expression_attribute_values(Some(expect.values))
            .send()
            .await;
        match sent {
            Ok(_) => Ok(Attempt::Done),
            Err(e) if is_condition_failure(e.code()) => Ok(Attempt::Changed),
            Err(e) => Err(ApplyError::call("UpdateItem", &e)),
        }
    }

    async fn delete(&self, read: &Item, key: Item) -> Result<Attempt, ApplyError> {
        if self.dry_run {
            return Ok(Attempt::Done);
        }
        self.pace(|| units(read, false)).await;
        let expect = unchanged(read, &self.rewriter.absent(read));
        let sent = self
            .client
            .delete_item()
            .table_name(self.table)
            .set_key(Some(key))
            .condition_expression(expect.expression)
            .set_expression_attribute_names(Some(expect.names))
            .set_expression_attribute_values(Some(expect.values))
            .send()
            .await;
        match sent {
            Ok(_) => Ok(Attempt::Done),
            Err(e) if is_condition_failure(e.code()) => Ok(Attempt::Changed),
            Err(e) => Err(ApplyError::call("DeleteItem", &e)),
        }
    }

    /// The item put at its new key (which must be free) and deleted at the old one (which
    /// must be unchanged), in one transaction.
    async fn relocate(&self, read: &Item, next: Item, from: Item) -> Result<Attempt, ApplyError> {
        if self.dry_run {
            return Ok(Attempt::Done);
        }
        self.pace(|| units(&next, true) + units(read, true)).await;
        let pk = &self.old.table.partition_key.name;
        let put = Put::builder()
            .table_name(self.table)
            .set_item(Some(next))
            .condition_expression("attribute_not_exists(#pk)")
            .expression_attribute_names("#pk", pk)
            .build()
            .map_err(|e| ApplyError::Call {
                operation: "TransactWriteItems",
                message: e.to_string(),
            })?;
        let expect = unchanged(read, &self.rewriter.absent(read));
        let delete = Delete::builder()
            .table_name(self.table)
            .set_key(Some(from))
            .condition_expression(expect.expression)
            .set_expression_attribute_names(Some(expect.names))
            .set_expression_attribute_values(Some(expect.values))
            .build()
            .map_err(|e| ApplyError::Call {
                operation: "TransactWriteItems",
                message: e.to_string(),
            })?;
        let sent = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().put(put).build())
            .transact_items(TransactWriteItem::builder().delete(delete).build())
            .send()
            .await;
        let err = match sent {
            Ok(_) => return Ok(Attempt::Done),
            Err(e) => e,
        };
        let reasons: Vec<Option<String>> = err
            .as_service_error()
            .and_then(|s| match s {
                aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError::TransactionCanceledException(c) => {
                    Some(c.cancellation_reasons().iter().map(|r| r.code().map(str::to_string)).collect())
                }
                _ => None,
            })
            .unwrap_or_default();
        let failed = |i: usize| {
            reasons
                .get(i)
                .and_then(|r| r.as_deref())
                .is_some_and(|c| c == "ConditionalCheckFailed")
        };
        if failed(1) {
            Ok(Attempt::Changed)
        } else if failed(0) {
            Ok(Attempt::Taken)
        } else {
            Err(ApplyError::call("TransactWriteItems", &err))
        }
    }
}

#[cfg(test)]
mod tests;
