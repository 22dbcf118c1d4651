//! A unit sent through the access layer's write path, as an app sends it: each step built by
//! `monotable_access::pattern::write` (the generated code's conditions, failures and update
//! keys), a single write alone, a transaction's steps pushed under their actions' names, a
//! batch's through `Table::batch_write`. Beside it: what a unit needs stored first (the items
//! before it, the `unique` guards of their owners), the items it can touch read back, and what
//! the checks wrote removed again.

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::items::{self, Item};
use monotable_access::key::describe_key;
use monotable_access::pattern::write::{self as pattern_write, WriteInput, static_name};
use monotable_access::{
    Condition, DeleteItem, PutSpec, Table, TransactError, Transaction, WriteAction, WriteError,
    WriteFailure,
};
use monotable_model::{KeyTest, Model};

use super::unit::{Kind, Op, Step, Unit};
use crate::generate::Sample;
use crate::keys::Values;

/// How a unit went.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// Every write was made.
    Written,
    /// A condition refused it: for each action that failed (its name, when it has one), the
    /// failure as the access layer named it.
    Refused(Vec<(Option<String>, Option<WriteFailure>)>),
    /// It could not be built or sent: the error, as the app would see it.
    Error(String),
}

impl Outcome {
    /// The outcome in a report.
    pub(crate) fn shown(&self) -> String {
        match self {
            Outcome::Written => "written".to_string(),
            Outcome::Refused(reasons) => reasons
                .iter()
                .map(|(action, failure)| {
                    let why = failure.as_ref().map_or("refused".to_string(), named);
                    match action {
                        Some(a) => format!("`{a}` {why}"),
                        None => why,
                    }
                })
                .collect::<Vec<_>>()
                .join("; "),
            Outcome::Error(e) => format!("error: {e}"),
        }
    }
}

/// A failure by its name: `AlreadyExists`, `ConditionFailed \`stock >= {quantity}\``.
pub(crate) fn named(failure: &WriteFailure) -> String {
    match failure {
        WriteFailure::AlreadyExists => "AlreadyExists".to_string(),
        WriteFailure::NotFound => "NotFound".to_string(),
        WriteFailure::VersionMismatch { expected } => {
            format!("VersionMismatch (expected version {expected})")
        }
        WriteFailure::ConditionFailed { condition: Some(c) } => format!("ConditionFailed `{c}`"),
        WriteFailure::ConditionFailed { condition: None } => "ConditionFailed".to_string(),
    }
}

/// The values a step's request takes: the key's variables read back from its subject's key
/// (or its attributes), then its `{param}`s.
pub(crate) fn values(step: &Step<'_>) -> Values {
    let mut out = step.subject.values.clone();
    if let Some(p) = step.pattern {
        for clause in p.key.iter().chain(p.pk.iter()).chain(p.sk.iter()) {
            let KeyTest::Eq(t) = &clause.condition else {
                continue;
            };
            let found = step
                .subject
                .key(&clause.attribute)
                .and_then(|k| t.extract(k));
            for (k, v) in found.unwrap_or_default() {
                out.entry(k).or_insert(v);
            }
        }
    }
    out.extend(step.request.params.clone());
    out
}

/// The table key of `sample`.
pub(crate) fn key_of(model: &Model, sample: &Sample) -> Item {
    model
        .table_key_names()
        .into_iter()
        .filter_map(|n| sample.item.get(n).map(|v| (n.to_string(), v.clone())))
        .collect()
}

/// A step as the action an app's generated request builds.
pub(crate) fn action(model: &Model, step: &Step<'_>) -> Result<WriteAction, String> {
    let values = values(step);
    let lookup = |n: &str| values.get(n).cloned();
    let input = WriteInput {
        values: &lookup,
        expected_version: step.request.expected_version,
    };
    let Some(p) = step.pattern else {
        // An older `{ entity = .. }` entry: the entity's item, put whatever is there.
        let keys = model.table_key_names();
        let mut spec = PutSpec::item(step.subject.item.clone(), &keys);
        spec.entity = static_name(&step.entity.name);
        return Ok(WriteAction::Put(spec));
    };
    let built = match step.op {
        Op::Put => {
            let item = step.after.as_ref().unwrap_or(&step.subject).item.clone();
            pattern_write::put(model, p, item, &input).map(WriteAction::Put)
        }
        Op::Update => {
            pattern_write::update(model, p, &input, &step.changes).map(WriteAction::Update)
        }
        Op::Delete => pattern_write::delete(model, p, &input).map(WriteAction::Delete),
        Op::Check => pattern_write::check(model, p, &input).map(WriteAction::Check),
    };
    built.map_err(|e| e.to_string())
}

/// The request as a report shows it: `PutItem User (PK=USER#1, SK=PROFILE) if not_exists`, a
/// transaction's actions each after its name.
pub(crate) fn describe(model: &Model, unit: &Unit<'_>) -> String {
    let one = |s: &Step<'_>| {
        let op = match s.op {
            Op::Put => "PutItem",
            Op::Update => "UpdateItem",
            Op::Delete => "DeleteItem",
            Op::Check => "ConditionCheck",
        };
        let target = match action(model, s) {
            Ok(a) => a.description().to_string(),
            Err(_) => format!(
                "{} ({})",
                s.entity.name,
                describe_key(&key_of(model, &s.subject))
            ),
        };
        let mut text = format!("{op} {target}");
        if !s.changes.is_empty() {
            let set: Vec<String> = s
                .changes
                .iter()
                .map(
                    |(a, v)| match v.as_ref().and_then(monotable_access::value::template_text) {
                        Some(t) => format!("{a} = {t:?}"),
                        None => format!("{a} removed"),
                    },
                )
                .collect();
            text.push_str(&format!(" set {}", set.join(", ")));
        }
        if let Some(c) = s.pattern.and_then(|p| p.condition.as_ref()) {
            let params: Vec<String> = c
                .params()
                .into_iter()
                .filter_map(|p| s.request.params.get(p).map(|v| format!("{p} = {v:?}")))
                .chain(
                    s.request
                        .expected_version
                        .map(|v| format!("expected version {v}")),
                )
                .collect();
            text.push_str(&format!(" if {}", c.text));
            if !params.is_empty() {
                text.push_str(&format!(" ({})", params.join(", ")));
            }
        }
        text
    };
    match unit.kind {
        Kind::Single => unit.steps.iter().map(one).collect::<Vec<_>>().join("; "),
        Kind::Transaction => format!(
            "TransactWriteItems: {}",
            unit.steps
                .iter()
                .map(|s| format!("{}: {}", s.name, one(s)))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        Kind::Batch => format!(
            "BatchWriteItem: {}",
            unit.steps.iter().map(one).collect::<Vec<_>>().join("; ")
        ),
    }
}

fn failure_of(e: &WriteError) -> Option<WriteFailure> {
    Some(match e {
        WriteError::AlreadyExists { .. } => WriteFailure::AlreadyExists,
        WriteError::NotFound { .. } => WriteFailure::NotFound,
        WriteError::VersionMismatch { expected, .. } => WriteFailure::VersionMismatch {
            expected: *expected,
        },
        WriteError::ConditionFailed { condition, .. } => WriteFailure::ConditionFailed {
            condition: condition.clone(),
        },
        _ => return None,
    })
}

/// Sends `unit` on `table` as its kind says.
pub(crate) async fn send(table: &Table, model: &Model, unit: &Unit<'_>) -> Outcome {
    let mut actions = Vec::with_capacity(unit.steps.len());
    for step in &unit.steps {
        match action(model, step) {
            Ok(a) => actions.push(a),
            Err(e) => return Outcome::Error(e),
        }
    }
    let single = |r: Result<(), WriteError>| match r {
        Ok(()) => Outcome::Written,
        Err(e) => match failure_of(&e) {
            Some(f) => Outcome::Refused(vec![(None, Some(f))]),
            None => Outcome::Error(e.to_string()),
        },
    };
    match unit.kind {
        Kind::Single => match actions.pop() {
            Some(WriteAction::Put(p)) => single(p.send(table).await),
            Some(WriteAction::Update(u)) => single(u.send(table).await),
            Some(WriteAction::Delete(d)) => single(d.send(table).await),
            Some(WriteAction::Check(_)) | None => Outcome::Error("nothing to send".to_string()),
        },
        Kind::Transaction => {
            let mut t = Transaction::new();
            for (step, a) in unit.steps.iter().zip(actions) {
                t = t.push(static_name(&step.name), a);
            }
            match t.send(table).await {
                Ok(()) => Outcome::Written,
                Err(TransactError::ConditionFailed { reasons }) => Outcome::Refused(
                    reasons
                        .into_iter()
                        .map(|r| (r.action.map(str::to_string), r.failure))
                        .collect(),
                ),
                Err(e) => Outcome::Error(e.to_string()),
            }
        }
        Kind::Batch => match table.batch_write(actions).await {
            Ok(()) => Outcome::Written,
            Err(e) => Outcome::Error(e.to_string()),
        },
    }
}

/// The `unique` guard items `owner` calls for: one per constraint with a guard entity of its
/// own, keyed by the owner's values and holding the attributes it shares with the owner.
pub(crate) fn guards(model: &Model, owner: &Sample) -> Vec<Sample> {
    let Some(entity) = model.entity(&owner.entity) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for u in &entity.unique {
        let Some(guard) = u
            .guard
            .as_deref()
            .filter(|g| *g != entity.name)
            .and_then(|g| model.entity(g))
        else {
            continue;
        };
        let Ok(mut item) = items::keys(model, &guard.name, &|n| owner.values.get(n).cloned())
        else {
            continue;
        };
        for a in &guard.attributes {
            if let Some(v) = owner.item.get(&a.name) {
                item.insert(a.name.clone(), v.clone());
            }
        }
        out.push(crate::existing::sample(model, guard, item));
    }
    out
}

/// Keys the checks of one unit may write, each once: what is removed afterwards.
#[derive(Debug, Default)]
pub(crate) struct Footprint {
    keys: Vec<Item>,
    shown: Vec<String>,
}

impl Footprint {
    /// Adds `key`.
    pub(crate) fn add(&mut self, key: Item) {
        let shown = describe_key(&key);
        if !key.is_empty() && !self.shown.contains(&shown) {
            self.shown.push(shown);
            self.keys.push(key);
        }
    }

    /// Every key of `unit`'s steps and of the guards of their owners, before and after.
    pub(crate) fn add_unit(&mut self, model: &Model, unit: &Unit<'_>) {
        for s in &unit.steps {
            for sample in [Some(&s.subject), s.before.as_ref(), s.after.as_ref()]
                .into_iter()
                .flatten()
            {
                self.add(key_of(model, sample));
                for g in guards(model, sample) {
                    self.add(key_of(model, &g));
                }
            }
        }
    }

    /// The keys.
    pub(crate) fn keys(&self) -> &[Item] {
        &self.keys
    }
}

/// Stores what `unit` expects to find: each step's item before it, and the guards of those
/// items' owners (a sample's own guard is part of a consistent table).
pub(crate) async fn setup(table: &Table, model: &Model, unit: &Unit<'_>) -> Result<(), String> {
    let pk = model.table.partition_key.name.as_str();
    let mut stored: Vec<Item> = Vec::new();
    let mut items: Vec<Item> = Vec::new();
    for s in &unit.steps {
        if let Some(b) = &s.before {
            items.push(b.item.clone());
        }
    }
    for s in &unit.steps {
        if let Some(b) = &s.before {
            items.extend(guards(model, b).into_iter().map(|g| g.item));
        }
    }
    let keys = model.table_key_names();
    for item in items {
        let key: Item = keys
            .iter()
            .filter_map(|k| item.get(*k).map(|v| (k.to_string(), v.clone())))
            .collect();
        if stored.contains(&key) {
            continue;
        }
        stored.push(key);
        PutSpec::item(item, &keys)
            .when(Condition::item_absent_at(pk))
            .send(table)
            .await
            .map_err(|e| format!("cannot store the item it needs first: {e}"))?;
    }
    Ok(())
}

/// Each of `keys` read back, strongly consistent (100 keys to a BatchGetItem), in their order.
pub(crate) async fn snapshot(table: &Table, keys: &[Item]) -> Result<Vec<Option<Item>>, String> {
    let found = table
        .batch_get_items(keys.to_vec(), true)
        .await
        .map_err(|e| format!("BatchGetItem failed: {e}"))?;
    Ok(keys
        .iter()
        .map(|k| {
            found
                .iter()
                .find(|item| k.iter().all(|(a, v)| item.get(a) == Some(v)))
                .cloned()
        })
        .collect())
}

/// The item at `key`, strongly consistent.
pub(crate) async fn read(table: &Table, key: &Item) -> Result<Option<Item>, String> {
    monotable_access::get::GetItem::new(key.clone())
        .consistent(true)
        .send(table)
        .await
        .map_err(|e| format!("GetItem failed: {e}"))
}

/// Removes every item at `footprint`'s keys; the keys still holding one afterwards.
pub(crate) async fn cleanup(table: &Table, footprint: &Footprint) -> Result<Vec<String>, String> {
    let deletes = footprint
        .keys()
        .iter()
        .map(|k| WriteAction::Delete(DeleteItem::new(k.clone())))
        .collect();
    table
        .batch_write(deletes)
        .await
        .map_err(|e| format!("cannot remove what the checks wrote: {e}"))?;
    let now = snapshot(table, footprint.keys()).await?;
    Ok(footprint
        .keys()
        .iter()
        .zip(now)
        .filter(|(_, item)| item.is_some())
        .map(|(k, _)| describe_key(k))
        .collect())
}

/// A value as a report shows it.
pub(crate) fn shown(value: &AttributeValue) -> String {
    monotable_access::value::template_text(value).unwrap_or_else(|| format!("{value:?}"))
}
