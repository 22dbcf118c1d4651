//! Settling one scanned item: its rewrite written conditionally on the item still holding
//! exactly what the scan read, so a concurrent write by the live app is never clobbered. A
//! failed condition re-reads the item and tries again; nothing is skipped silently.

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::delete::DeleteItem;
use monotable_access::get::GetItem;
use monotable_access::items::Item;
use monotable_access::key::describe_key;
use monotable_access::update::{UpdateItem, UpdateParts};
use monotable_access::value::template_text;
use monotable_access::write::WriteError;
use monotable_access::{Condition, PutSpec, Table, TransactError, Transaction, WriteAction};
use monotable_check::cost::{item_size, write_units};
use monotable_model::Model;

use super::ApplyError;
use super::pace::Pace;
use super::progress::{ApplyCounts, ApplyProgress};
use crate::rewrite::{RewriteOutcome, Rewriter};

/// Attempts at one item before it is reported as still changing.
const MAX_ATTEMPTS: usize = 8;

/// A relocation's actions: the item put at its new key (which must be free)...
const PUT_AT_NEW_KEY: &str = "putAtNewKey";
/// ... and deleted at its old one (which must be unchanged).
const DELETE_AT_OLD_KEY: &str = "deleteAtOldKey";

/// `item` exactly as read: each attribute equal, each of `absent` still missing.
pub(crate) fn unchanged(item: &Item, absent: &[String]) -> Condition {
    let mut sorted: Vec<(&String, &AttributeValue)> = item.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(b.0));
    let equal = sorted
        .into_iter()
        .map(|(name, value)| Condition::equals(name, value.clone()));
    let missing = absent.iter().map(|name| Condition::not_exists(name));
    equal.chain(missing).fold(Condition::none(), Condition::and)
}

/// The attributes `names` as `item` holds them: each one it has equal, each one it lacks still
/// absent.
pub(crate) fn holding(item: &Item, names: &[String]) -> Condition {
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
    pub table: &'a Table,
    pub old: &'a Model,
    pub rewriter: &'a Rewriter<'a>,
    pub pace: Option<&'a Pace>,
    pub progress: &'a ApplyProgress,
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

pub(crate) fn units(item: &Item, transactional: bool) -> f64 {
    let bytes = item_size(&monotable_access::items::to_json(item)).unwrap_or(1024);
    write_units(bytes, transactional)
}

/// Whether a write failed only because its condition did not hold.
fn changed_meanwhile(
    result: Result<(), WriteError>,
    operation: &'static str,
) -> Result<Attempt, ApplyError> {
    match result {
        Ok(()) => Ok(Attempt::Done),
        Err(e) if e.is_condition_failed() => Ok(Attempt::Changed),
        Err(e) => Err(ApplyError::write(operation, e)),
    }
}

impl Writer<'_> {
    /// Settles `item` and counts what became of it.
    pub async fn settle(&self, item: Item, counts: &mut ApplyCounts) -> Result<(), ApplyError> {
        let mut current = item;
        for _ in 0..MAX_ATTEMPTS {
            let outcome = self.rewriter.rewrite(&current);
            let attempt = match outcome {
                RewriteOutcome::Untouched => {
                    counts.untouched += 1;
                    return Ok(());
                }
                RewriteOutcome::Unchanged => {
                    counts.unchanged += 1;
                    return Ok(());
                }
                RewriteOutcome::Leave(why) => {
                    self.leave(&current, &why, counts);
                    return Ok(());
                }
                RewriteOutcome::Put(next) => {
                    (self.put(&current, next).await?, &mut counts.rewritten)
                }
                RewriteOutcome::Move { item, from } => (
                    self.relocate(&current, item, from).await?,
                    &mut counts.moved,
                ),
                RewriteOutcome::Delete(key) => {
                    (self.delete(&current, key).await?, &mut counts.deleted)
                }
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

    fn leave(&self, item: &Item, why: &str, counts: &mut ApplyCounts) {
        counts.left += 1;
        let key = Rewriter::primary_key(self.old, item);
        self.progress.leave(why, key_text(&key));
    }

    async fn reread(&self, item: &Item) -> Result<Option<Item>, ApplyError> {
        let key = Rewriter::primary_key(self.old, item);
        GetItem::new(key)
            .consistent(true)
            .send(self.table)
            .await
            .map_err(|e| ApplyError::get("GetItem", e))
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
    pub(crate) fn update_parts(&self, read: &Item, next: &Item) -> UpdateParts {
        let set: Vec<String> = changed(read, next);
        let mut watched = self.rewriter.inputs(read);
        watched.extend(set.iter().cloned());
        watched.extend(read.keys().filter(|k| !next.contains_key(*k)).cloned());
        watched.sort();
        watched.dedup();
        let mut update = UpdateItem::new(Rewriter::primary_key(self.old, read));
        for name in &set {
            if let Some(value) = next.get(name) {
                update = update.set(name, value.clone());
            }
        }
        let mut removed: Vec<&String> = read.keys().filter(|k| !next.contains_key(*k)).collect();
        removed.sort();
        for name in removed {
            update = update.remove(name);
        }
        update.when(holding(read, &watched)).build()
    }

    async fn put(&self, read: &Item, next: Item) -> Result<Attempt, ApplyError> {
        if self.dry_run {
            return Ok(Attempt::Done);
        }
        self.pace(|| units(&next, false)).await;
        let sent = self.update_parts(read, &next).send(self.table).await;
        changed_meanwhile(sent, "UpdateItem")
    }

    async fn delete(&self, read: &Item, key: Item) -> Result<Attempt, ApplyError> {
        if self.dry_run {
            return Ok(Attempt::Done);
        }
        self.pace(|| units(read, false)).await;
        let sent = DeleteItem::new(key)
            .when(unchanged(read, &self.rewriter.absent(read)))
            .send(self.table)
            .await;
        changed_meanwhile(sent, "DeleteItem")
    }

    /// The item put at its new key (which must be free) and deleted at the old one (which
    /// must be unchanged), in one transaction.
    async fn relocate(&self, read: &Item, next: Item, from: Item) -> Result<Attempt, ApplyError> {
        if self.dry_run {
            return Ok(Attempt::Done);
        }
        self.pace(|| units(&next, true) + units(read, true)).await;
        let pk = &self.old.table.partition_key.name;
        let put = PutSpec::item(next, &self.old.table_key_names()).when(Condition::not_exists(pk));
        let expect = unchanged(read, &self.rewriter.absent(read));
        let remove = DeleteItem::new(from.clone())
            .when(expect)
            .described(describe_key(&from));
        let sent = Transaction::new()
            .push(PUT_AT_NEW_KEY, WriteAction::Put(put))
            .push(DELETE_AT_OLD_KEY, WriteAction::Delete(remove))
            .send(self.table)
            .await;
        match sent {
            Ok(()) => Ok(Attempt::Done),
            Err(e) if e.failed(DELETE_AT_OLD_KEY) => Ok(Attempt::Changed),
            Err(e) if e.failed(PUT_AT_NEW_KEY) => Ok(Attempt::Taken),
            Err(e) => Err(ApplyError::transact(e)),
        }
    }
}

/// `PK=ORDER#1 SK=ORDER`: a key as the summary lists a left item.
fn key_text(key: &Item) -> String {
    let mut parts: Vec<String> = key
        .iter()
        .map(|(k, v)| format!("{k}={}", template_text(v).unwrap_or_default()))
        .collect();
    parts.sort();
    parts.join(" ")
}

/// What a failed transaction of in-place rewrites means: conditions that failed, or a race
/// lost, settle the items one by one; anything else is an error.
pub(crate) fn cancelled(e: TransactError) -> Result<(), ApplyError> {
    match e {
        TransactError::ConditionFailed { .. }
        | TransactError::Cancelled { .. }
        | TransactError::Conflict { .. } => Ok(()),
        other => Err(ApplyError::transact(other)),
    }
}

#[cfg(test)]
mod tests;
