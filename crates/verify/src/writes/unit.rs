//! A write pattern as the unit verify sends: its steps (one for a PutItem, UpdateItem,
//! DeleteItem or ConditionCheck; one per action of a TransactWrite or BatchWrite), each with the
//! item stored before it, the item it should leave, and its request, on fresh items only. Items
//! of one unit are related as the model relates them: a key input one writes and another reads
//! (an order line's `orderId`) is shared, and a `unique` guard takes its owner's value (the new
//! one when it claims it, the old one when it releases it). Every clause is settled to hold;
//! [`Unit::violate`] then makes one fail, and says how the failure must be named.

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::WriteFailure;
use monotable_model::{ConditionClause, EntityDecl, Model, Operation, Pattern};

use super::subject::{self, Request};
use crate::generate::{Fresh, Sample, identity_attributes};

/// The most instances of one action a unit runs (`count = 49` runs twice: one, and more).
const INSTANCES: u64 = 2;

/// What a step does to its item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    /// PutItem: writes the whole item.
    Put,
    /// UpdateItem: changes what its `sets` lists.
    Update,
    /// DeleteItem.
    Delete,
    /// ConditionCheck: writes nothing.
    Check,
}

/// How a unit is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// One PutItem, UpdateItem or DeleteItem.
    Single,
    /// One TransactWriteItems (a ConditionCheck pattern alone is one too).
    Transaction,
    /// BatchWriteItem calls.
    Batch,
}

/// One write of a unit.
#[derive(Debug, Clone)]
pub(crate) struct Step<'m> {
    /// The action's name: its pattern's, or the entity's for an older `{ entity = .. }` entry.
    pub name: String,
    /// Its pattern; `None` for an older entry, sent as an unconditional put.
    pub pattern: Option<&'m Pattern>,
    /// The entity it writes or checks.
    pub entity: &'m EntityDecl,
    /// What it does.
    pub op: Op,
    /// The item the request addresses: the key's values come from it.
    pub subject: Sample,
    /// The item stored before the unit runs (`None`: no item at its key).
    pub before: Option<Sample>,
    /// The item it should leave (`None`: no item).
    pub after: Option<Sample>,
    /// `{param}`s and expected version.
    pub request: Request,
    /// An update's new values.
    pub changes: Vec<(String, Option<AttributeValue>)>,
}

/// A write pattern's steps, ready to send.
#[derive(Debug, Clone)]
pub(crate) struct Unit<'m> {
    /// How it is sent.
    pub kind: Kind,
    /// Its steps, in the model's order.
    pub steps: Vec<Step<'m>>,
    /// Clauses that could not be settled to hold, for the report.
    pub unsettled: Vec<String>,
}

/// The actions of `pattern`: its name, its pattern (none for an older entry) and its entity.
pub(crate) fn actions<'m>(
    model: &'m Model,
    pattern: &'m Pattern,
) -> Vec<(String, Option<&'m Pattern>, &'m EntityDecl)> {
    let mut out = Vec::new();
    if !matches!(
        pattern.operation,
        Operation::TransactWrite | Operation::BatchWrite
    ) {
        let entity = pattern.returns.first().and_then(|r| model.entity(&r.name));
        out.extend(entity.map(|e| (pattern.name.clone(), Some(pattern), e)));
        return out;
    }
    for w in &pattern.writes {
        let times = w.count.unwrap_or(INSTANCES).min(INSTANCES);
        match w.patterns.as_slice() {
            [] => {
                if let Some(e) = model.entity(&w.entity) {
                    for _ in 0..times {
                        out.push((e.name.clone(), None, e));
                    }
                }
            }
            [one] => {
                let p = model.pattern(one);
                let e = p
                    .and_then(|p| p.returns.first())
                    .and_then(|r| model.entity(&r.name));
                if let (Some(p), Some(e)) = (p, e) {
                    for _ in 0..times {
                        out.push((p.name.clone(), Some(p), e));
                    }
                }
            }
            alternatives => {
                let limit = usize::try_from(w.count.unwrap_or(u64::MAX)).unwrap_or(usize::MAX);
                for name in alternatives.iter().take(limit) {
                    let p = model.pattern(name);
                    let e = p
                        .and_then(|p| p.returns.first())
                        .and_then(|r| model.entity(&r.name));
                    if let (Some(p), Some(e)) = (p, e) {
                        out.push((p.name.clone(), Some(p), e));
                    }
                }
            }
        }
    }
    out
}

/// How `pattern` is sent.
pub(crate) fn kind(pattern: &Pattern) -> Kind {
    match pattern.operation {
        Operation::TransactWrite | Operation::ConditionCheck => Kind::Transaction,
        Operation::BatchWrite => Kind::Batch,
        _ => Kind::Single,
    }
}

fn op_of(pattern: Option<&Pattern>) -> Op {
    match pattern.map(|p| p.operation) {
        Some(Operation::UpdateItem) => Op::Update,
        Some(Operation::DeleteItem) => Op::Delete,
        Some(Operation::ConditionCheck) => Op::Check,
        _ => Op::Put,
    }
}

/// The clauses a step's request checks, in the order they are checked: an update requires the
/// item, then its version, then the pattern's other clauses (as the typed update does).
pub(crate) fn clauses(step: &Step<'_>) -> Vec<ConditionClause> {
    let written: Vec<ConditionClause> = step
        .pattern
        .and_then(|p| p.condition.as_ref())
        .map(|c| c.clauses.clone())
        .unwrap_or_default();
    if step.op != Op::Update {
        return written;
    }
    let mut out = vec![ConditionClause::ItemExists];
    out.extend(
        written
            .iter()
            .filter(|c| matches!(c, ConditionClause::Version(_)))
            .cloned(),
    );
    out.extend(
        written
            .into_iter()
            .filter(|c| !matches!(c, ConditionClause::Version(_) | ConditionClause::ItemExists)),
    );
    out
}

/// The failure a clause's violation is named by.
pub(crate) fn meaning(clause: &ConditionClause, request: &Request) -> WriteFailure {
    match clause {
        ConditionClause::ItemExists => WriteFailure::NotFound,
        ConditionClause::ItemAbsent => WriteFailure::AlreadyExists,
        ConditionClause::Version(_) => WriteFailure::VersionMismatch {
            expected: request.expected_version.unwrap_or_default(),
        },
        other => WriteFailure::ConditionFailed {
            condition: Some(other.text()),
        },
    }
}

/// A value forced on every item of an entity the unit writes (a second write of a unique value).
pub(crate) type Forced = [(String, String, AttributeValue)];

impl<'m> Unit<'m> {
    /// The unit of `pattern` on fresh items, every clause settled to hold; `forced` values
    /// replace the fresh ones (entity, attribute, value). `None` when an entity's items cannot
    /// be made.
    pub(crate) fn build(
        model: &'m Model,
        fresh: &mut Fresh<'m>,
        pattern: &'m Pattern,
        forced: &Forced,
    ) -> Result<Unit<'m>, String> {
        let mut unit = Unit {
            kind: kind(pattern),
            steps: Vec::new(),
            unsettled: Vec::new(),
        };
        let mut env: Vec<(String, &'m EntityDecl, AttributeValue, bool)> = Vec::new();
        for (name, p, entity) in actions(model, pattern) {
            let mut subject = fresh
                .item(&entity.name)
                .ok_or_else(|| format!("cannot make a fresh {} item", entity.name))?;
            subject = linked(model, entity, subject, &env, &unit.steps, op_of(p));
            for (_, a, v) in forced.iter().filter(|(e, _, _)| *e == entity.name) {
                subject = subject::with(model, entity, &subject, a, Some(v));
            }
            let step = unit.step(model, fresh, name, p, entity, subject);
            let source = step
                .after
                .as_ref()
                .or(step.before.as_ref())
                .unwrap_or(&step.subject);
            let identity = identity_attributes(model, entity);
            for (a, v) in &source.item {
                if entity.attribute(a).is_none() {
                    continue;
                }
                let mine = identity.contains(a);
                match env.iter_mut().find(|(n, ..)| n == a) {
                    Some(slot) if mine && !slot.3 => *slot = (a.clone(), entity, v.clone(), true),
                    Some(_) => {}
                    None => env.push((a.clone(), entity, v.clone(), mine)),
                }
            }
            unit.steps.push(step);
        }
        Ok(unit)
    }

    /// One step on `subject`, its clauses settled to hold.
    fn step(
        &mut self,
        model: &'m Model,
        fresh: &mut Fresh<'m>,
        name: String,
        pattern: Option<&'m Pattern>,
        entity: &'m EntityDecl,
        subject: Sample,
    ) -> Step<'m> {
        let op = op_of(pattern);
        let condition = pattern.and_then(|p| p.condition.as_ref());
        let absent = condition.is_some_and(|c| c.clauses.contains(&ConditionClause::ItemAbsent));
        let before = match op {
            _ if absent => None,
            Op::Put if condition.is_some_and(|c| c.requires_item()) => {
                Some(older(model, fresh, entity, &subject))
            }
            Op::Put => None,
            _ => Some(subject.clone()),
        };
        let mut step = Step {
            name,
            pattern,
            entity,
            op,
            after: None,
            subject,
            before,
            request: Request::default(),
            changes: Vec::new(),
        };
        if let Some(p) = pattern {
            let all = clauses(&step);
            for _ in 0..2 {
                for c in &all {
                    subject::settle(
                        fresh,
                        p,
                        entity,
                        c,
                        true,
                        &mut step.before,
                        &mut step.request,
                    );
                }
            }
            for c in &all {
                if !subject::holds(p, entity, c, step.before.as_ref(), &step.request) {
                    self.unsettled.push(format!("`{c}` of {}", step.name));
                }
            }
            if op == Op::Update {
                step.changes = changes(model, fresh, p, entity, step.before.as_ref());
            }
        }
        step.after = after(model, &step);
        step
    }

    /// The same unit with clause `clause` (of [`clauses`]) of step `at` made to fail, and the
    /// failure the first clause that then fails is named by; `None` when it cannot be made to
    /// fail.
    pub(crate) fn violate(
        &self,
        fresh: &mut Fresh<'m>,
        at: usize,
        clause: usize,
    ) -> Option<(Unit<'m>, WriteFailure)> {
        let mut unit = self.clone();
        let step = unit.steps.get_mut(at)?;
        let p = step.pattern?;
        let all = clauses(step);
        match all.get(clause)? {
            ConditionClause::ItemExists => step.before = None,
            ConditionClause::ItemAbsent => {
                step.before = Some(step.after.clone().unwrap_or_else(|| step.subject.clone()));
            }
            c => {
                subject::settle(
                    fresh,
                    p,
                    step.entity,
                    c,
                    false,
                    &mut step.before,
                    &mut step.request,
                );
            }
        }
        let failed = all
            .iter()
            .find(|c| !subject::holds(p, step.entity, c, step.before.as_ref(), &step.request))?;
        let expected = meaning(failed, &step.request);
        Some((unit, expected))
    }
}

/// `subject` with the values related items of the unit give it: a key input it reads that an
/// earlier item holds (not one identifying it), and, for a `unique` guard, its owner's values
/// (the old ones when the guard is deleted).
fn linked<'m>(
    model: &'m Model,
    entity: &'m EntityDecl,
    mut subject: Sample,
    env: &[(String, &'m EntityDecl, AttributeValue, bool)],
    earlier: &[Step<'m>],
    op: Op,
) -> Sample {
    let identity = identity_attributes(model, entity);
    let mut inputs: Vec<&str> = entity
        .keys
        .iter()
        .flat_map(|k| k.template.variables())
        .collect();
    inputs.dedup();
    for name in inputs
        .into_iter()
        .filter(|n| !identity.iter().any(|i| i == n))
    {
        let Some((_, from, value, _)) = env.iter().find(|(n, ..)| n == name) else {
            continue;
        };
        let same = match (from.attribute(name), entity.attribute(name)) {
            (Some(a), Some(b)) => a.ty == b.ty && a.values == b.values && a.format == b.format,
            _ => false,
        };
        if same {
            subject = subject::with(model, entity, &subject, name, Some(value));
        }
    }
    // The n-th claim (or release) of a guard goes with the n-th owner it guards.
    let deletes = op == Op::Delete;
    let nth = earlier
        .iter()
        .filter(|s| s.entity.name == entity.name && (s.op == Op::Delete) == deletes)
        .count();
    let owners = earlier.iter().filter(|owner| {
        owner.op != Op::Check
            && owner.entity.name != entity.name
            && owner
                .entity
                .unique
                .iter()
                .any(|u| u.guard.as_deref() == Some(entity.name.as_str()))
    });
    if let Some(owner) = owners.into_iter().nth(nth) {
        let from = match op {
            Op::Delete => owner.before.as_ref().or(owner.after.as_ref()),
            _ => owner.after.as_ref().or(owner.before.as_ref()),
        };
        if let Some(from) = from {
            for a in &entity.attributes {
                if let Some(v) = from.item.get(&a.name) {
                    subject = subject::with(model, entity, &subject, &a.name, Some(v));
                }
            }
        }
    }
    subject
}

/// An older version of the item at `subject`'s key: every attribute but the table key's inputs
/// with another value.
fn older<'m>(
    model: &'m Model,
    fresh: &mut Fresh<'m>,
    entity: &'m EntityDecl,
    subject: &Sample,
) -> Sample {
    let primary = entity.primary_key_inputs();
    let mut out = subject.clone();
    for a in entity
        .attributes
        .iter()
        .filter(|a| !primary.contains(&a.name.as_str()))
    {
        let current = out.values.get(&a.name).cloned();
        if let Some(v) = subject::other_value(fresh, entity, &a.name, current.as_deref()) {
            out = subject::with(model, entity, &out, &a.name, Some(&v.av));
        }
    }
    out
}

/// New values for what an update's `sets` lists (but the version, which the update sets
/// itself, and the table key's inputs, which it cannot change). An attribute with one live value
/// (`cardinality = 1`, an enum of one value) is set again to the value it holds: an app must
/// still send it when it feeds an index key the update renders again.
fn changes<'m>(
    model: &'m Model,
    fresh: &mut Fresh<'m>,
    pattern: &Pattern,
    entity: &'m EntityDecl,
    before: Option<&Sample>,
) -> Vec<(String, Option<AttributeValue>)> {
    let versions = model.version_attributes(&entity.name);
    let primary = entity.primary_key_inputs();
    let Some(sets) = &pattern.sets else {
        return Vec::new();
    };
    sets.attributes
        .iter()
        .map(|a| a.name.as_str())
        .filter(|a| !versions.iter().any(|v| v == a) && !primary.contains(a))
        .filter_map(|a| {
            let current = before.and_then(|b| b.values.get(a)).map(String::as_str);
            let v = match subject::other_value(fresh, entity, a, current) {
                Some(v) => v.av,
                None => before.and_then(|b| b.item.get(a)).cloned()?,
            };
            Some((a.to_string(), Some(v)))
        })
        .collect()
}

/// The item a step should leave: a put's item (at the version after the one expected), an
/// update's item with its changes, its version moved on and its keys rendered again, the same
/// item for a check, none for a delete.
fn after<'m>(model: &'m Model, step: &Step<'m>) -> Option<Sample> {
    let version = step
        .pattern
        .and_then(|p| p.condition.as_ref())
        .and_then(|c| c.version());
    let next = |v: i64| AttributeValue::N(v.saturating_add(1).to_string());
    match step.op {
        Op::Delete => None,
        Op::Check => step.before.clone(),
        Op::Put => {
            let mut item = step.subject.item.clone();
            if let (Some(v), Some(expected)) = (version, step.request.expected_version) {
                item.insert(v.to_string(), next(expected));
            }
            Some(subject::rerender(model, step.entity, item))
        }
        Op::Update => {
            let before = step.before.as_ref()?;
            let mut item = before.item.clone();
            for (a, v) in &step.changes {
                match v {
                    Some(v) => item.insert(a.clone(), v.clone()),
                    None => item.remove(a),
                };
            }
            let versions = model.version_attributes(&step.entity.name);
            let listed = |a: &str| {
                step.pattern
                    .and_then(|p| p.sets.as_ref())
                    .is_some_and(|s| s.contains(a))
            };
            match (version, step.request.expected_version) {
                (Some(v), Some(expected)) => {
                    item.insert(v.to_string(), next(expected));
                }
                _ => {
                    for v in versions.iter().filter(|v| listed(v)) {
                        let current = before.values.get(v).and_then(|t| t.parse::<i64>().ok());
                        if let Some(c) = current {
                            item.insert(v.clone(), next(c));
                        }
                    }
                }
            }
            Some(subject::rerender(model, step.entity, item))
        }
    }
}
