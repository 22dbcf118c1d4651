//! The write patterns run: every PutItem, UpdateItem, DeleteItem, ConditionCheck, TransactWrite
//! and BatchWrite pattern sent through the access layer's write path (the one the generated code
//! takes) on items verify makes for it ([`unit`]), then judged from the model alone ([`judge`]):
//!
//! - **effect**: each item stored as the model says, at the key its pattern names;
//! - **reads**: every read that should return a written item does, every other does not; a
//!   transaction's read-back holds every item it wrote;
//! - **condition**: each clause satisfied once and violated once, the violation refused and named
//!   (`AlreadyExists`, `NotFound`, `VersionMismatch`, `ConditionFailed` with the clause) with
//!   nothing written; an update moves the version a `version(..)` clause relies on;
//! - **unique**: an owner's guard follows it, a second write of a claimed value is refused;
//! - **atomicity**: each action of a transaction made to fail leaves every item it addresses as
//!   it was, and the failure names that action;
//! - **cleanup**: what the checks wrote is removed again.

mod judge;
mod send;
mod subject;
mod unit;

use std::collections::BTreeSet;

use monotable_access::WriteFailure;
use monotable_model::{ConditionClause, Model, Operation, Pattern};

use crate::ctx::Ctx;
use crate::generate::Fresh;
use crate::report::{Check, CheckKind, PatternResult};
use send::{Footprint, Outcome};
use unit::{Kind, Op, Unit};

/// The write patterns that run as actions of a TransactWrite or BatchWrite: their `unique`
/// guards are judged there, with the actions that keep them.
pub(crate) fn actions_of_units(model: &Model) -> BTreeSet<&str> {
    model
        .patterns
        .iter()
        .filter(|p| {
            matches!(
                p.operation,
                Operation::TransactWrite | Operation::BatchWrite
            )
        })
        .flat_map(|p| {
            p.writes
                .iter()
                .flat_map(|w| w.patterns.iter().map(String::as_str))
        })
        .collect()
}

/// What a write pattern's run gathers.
struct Run<'c, 'm> {
    ctx: &'c Ctx<'m>,
    pattern: &'m Pattern,
    checks: Vec<Check>,
    requests: usize,
    footprint: Footprint,
    /// Whether the unit was written with every clause holding.
    written: bool,
}

/// Runs write pattern `pattern` and judges it; `in_unit` when it is an action of a transaction
/// or batch (whose guards are then judged there).
pub(crate) async fn pattern<'m>(
    ctx: &Ctx<'m>,
    fresh: &mut Fresh<'m>,
    pattern: &'m Pattern,
    in_unit: bool,
) -> PatternResult {
    let model = ctx.model;
    let unit = match Unit::build(model, fresh, pattern, &[]) {
        Ok(u) if !u.steps.is_empty() => u,
        Ok(_) => {
            return skipped(
                pattern,
                "it has no action whose entity the model declares".to_string(),
            );
        }
        Err(why) => return skipped(pattern, why),
    };
    let mut run = Run {
        ctx,
        pattern,
        checks: Vec::new(),
        requests: 0,
        footprint: Footprint::default(),
        written: false,
    };
    let judge_guards = unit.kind != Kind::Single || !in_unit;
    run.satisfied(&unit, judge_guards).await;
    if judge_guards {
        run.second_claim(fresh, &unit).await;
    }
    run.violations(fresh, &unit).await;
    run.cleanup().await;
    for c in &unit.unsettled {
        run.checks.push(Check::pass(
            CheckKind::Condition,
            format!("not tried: no values were found that make {c} hold"),
        ));
    }
    run.result()
}

/// A write pattern listed as not run, and why.
pub(crate) fn skipped(pattern: &Pattern, why: String) -> PatternResult {
    PatternResult {
        name: pattern.name.clone(),
        operation: format!("{:?}", pattern.operation),
        passed: false,
        skipped: true,
        requests: 0,
        items: 0,
        request: String::new(),
        expected: Vec::new(),
        got: Vec::new(),
        message: why,
        checks: Vec::new(),
    }
}

impl<'m> Run<'_, 'm> {
    /// Stores what the unit needs, sends it and says how it went.
    async fn send(&mut self, unit: &Unit<'_>) -> Result<Outcome, String> {
        self.setup(unit).await?;
        Ok(self.send_only(unit).await)
    }

    /// Stores what the unit needs (and notes what it may write, to remove it afterwards).
    async fn setup(&mut self, unit: &Unit<'_>) -> Result<(), String> {
        self.footprint.add_unit(self.ctx.model, unit);
        send::setup(&self.ctx.table, self.ctx.model, unit).await
    }

    /// Sends the unit and says how it went.
    async fn send_only(&mut self, unit: &Unit<'_>) -> Outcome {
        self.requests += 1;
        send::send(&self.ctx.table, self.ctx.model, unit).await
    }

    /// The unit with every clause holding: written, then judged.
    async fn satisfied(&mut self, unit: &Unit<'_>, judge_guards: bool) {
        let ctx = self.ctx;
        let request = send::describe(ctx.model, unit);
        let outcome = match self.send(unit).await {
            Ok(o) => o,
            Err(e) => {
                self.checks.push(Check::fail(
                    CheckKind::Effect,
                    e,
                    request,
                    Vec::new(),
                    Vec::new(),
                ));
                return;
            }
        };
        if !matches!(outcome, Outcome::Written) {
            let detail = match &outcome {
                Outcome::Error(e) => format!("cannot be sent: {e}"),
                other => format!("refused although every clause holds: {}", other.shown()),
            };
            self.checks.push(Check::fail(
                CheckKind::Effect,
                detail,
                request.clone(),
                vec!["written".to_string()],
                vec![outcome.shown()],
            ));
            // Why, when a pattern names another key than its entity's items are at.
            for step in &unit.steps {
                self.checks.extend(judge::key_check(step, &request));
            }
            return;
        }
        self.written = true;
        for step in &unit.steps {
            self.checks.push(judge::effect(ctx, step, &request).await);
            self.checks
                .extend(judge::version_moved(ctx, step, &request).await);
            self.checks.extend(judge::reads(ctx, step, &request).await);
        }
        self.checks
            .extend(judge::read_back(ctx, unit, &self.pattern.name, &request).await);
        if judge_guards {
            self.checks
                .extend(judge::guarded(ctx, unit, &self.pattern.name, &request).await);
        }
    }

    /// A unit that claims an owner's guard (a put of the guard under `not_exists`) sent again
    /// with the unique values it wrote: refused, naming the claim, nothing written.
    async fn second_claim(&mut self, fresh: &mut Fresh<'m>, first: &Unit<'m>) {
        let model = self.ctx.model;
        for owner in first
            .steps
            .iter()
            .filter(|s| matches!(s.op, Op::Put | Op::Update))
        {
            let Some(after) = &owner.after else { continue };
            for u in &owner.entity.unique {
                let Some(guard) = u.guard.as_deref().filter(|g| *g != owner.entity.name) else {
                    continue;
                };
                let claim = first.steps.iter().find(|s| {
                    s.entity.name == guard
                        && s.op == Op::Put
                        && s.pattern
                            .and_then(|p| p.condition.as_ref())
                            .is_some_and(|c| c.clauses.contains(&ConditionClause::ItemAbsent))
                });
                let Some(claim) = claim else { continue };
                let forced: Vec<_> = u
                    .attributes
                    .iter()
                    .filter_map(|a| {
                        after
                            .item
                            .get(a)
                            .map(|v| (owner.entity.name.clone(), a.clone(), v.clone()))
                    })
                    .collect();
                let Ok(second) = Unit::build(model, fresh, self.pattern, &forced) else {
                    continue;
                };
                let values: Vec<String> = forced
                    .iter()
                    .map(|(_, a, v)| format!("{a} = {}", send::shown(v)))
                    .collect();
                let request = send::describe(model, &second);
                let mut fp = Footprint::default();
                fp.add_unit(model, &second);
                if let Err(e) = self.setup(&second).await {
                    self.checks.push(Check::fail(
                        CheckKind::Unique,
                        e,
                        request,
                        Vec::new(),
                        Vec::new(),
                    ));
                    continue;
                }
                let before = send::snapshot(&self.ctx.table, fp.keys()).await;
                let outcome = self.send_only(&second).await;
                let after_snapshot = send::snapshot(&self.ctx.table, fp.keys()).await;
                let named = match &outcome {
                    Outcome::Refused(reasons) => reasons.iter().any(|(a, f)| {
                        (a.as_deref() == Some(claim.name.as_str()) || first.kind == Kind::Single)
                            && *f == Some(WriteFailure::AlreadyExists)
                    }),
                    _ => false,
                };
                let unchanged = before.is_ok() && before == after_snapshot;
                let what = format!("a second {} with {}", owner.entity.name, values.join(", "));
                if named && unchanged {
                    self.checks.push(Check::pass(
                        CheckKind::Unique,
                        format!(
                            "{what}: refused as `{}` AlreadyExists, nothing written",
                            claim.name
                        ),
                    ));
                } else {
                    let got = if unchanged {
                        outcome.shown()
                    } else {
                        format!("{}, and the table changed", outcome.shown())
                    };
                    self.checks.push(Check::fail(
                        CheckKind::Unique,
                        format!("{what} was not refused by `{}`: {got}", claim.name),
                        request,
                        vec![format!("`{}` AlreadyExists, nothing written", claim.name)],
                        vec![got],
                    ));
                }
            }
        }
    }

    /// Each clause of each action made to fail in turn: refused and named, nothing written
    /// (for a transaction: every item it addresses as it was, the failure naming the action).
    async fn violations(&mut self, fresh: &mut Fresh<'m>, unit: &Unit<'m>) {
        let model = self.ctx.model;
        let written_ok = self.written;
        let mut seen: Vec<&str> = Vec::new();
        for (at, step) in unit.steps.iter().enumerate() {
            if seen.contains(&step.name.as_str()) {
                continue;
            }
            seen.push(&step.name);
            let clauses = unit::clauses(step);
            let mut atomic_done = false;
            for (k, clause) in clauses.iter().enumerate() {
                // On items of its own: each run starts from a table without them.
                let Ok(base) = Unit::build(model, fresh, self.pattern, &[]) else {
                    continue;
                };
                let Some((bad, expected)) = base.violate(fresh, at, k) else {
                    continue;
                };
                let request = send::describe(model, &bad);
                let mut fp = Footprint::default();
                fp.add_unit(model, &bad);
                let outcome = match self.send(&bad).await {
                    Ok(o) => o,
                    Err(e) => {
                        self.checks.push(Check::fail(
                            CheckKind::Condition,
                            e,
                            request,
                            Vec::new(),
                            Vec::new(),
                        ));
                        continue;
                    }
                };
                // What the unit stored first is what must still be there.
                let mut state = Footprint::default();
                state.add_unit(model, &bad);
                let expected_state = expected_snapshot(model, &bad, state.keys());
                let now = send::snapshot(&self.ctx.table, state.keys()).await;
                let unchanged = now.as_ref().is_ok_and(|n| same_items(n, &expected_state));
                let named = match &outcome {
                    Outcome::Refused(reasons) => reasons.iter().any(|(a, f)| {
                        (unit.kind == Kind::Single || a.as_deref() == Some(step.name.as_str()))
                            && f.as_ref() == Some(&expected)
                    }),
                    _ => false,
                };
                let label = format!("{}: `{clause}`", step.name);
                let want = format!(
                    "{}{}",
                    if unit.kind == Kind::Single {
                        String::new()
                    } else {
                        format!("`{}` ", step.name)
                    },
                    send::named(&expected)
                );
                if named && unchanged && written_ok {
                    self.checks.push(Check::pass(
                        CheckKind::Condition,
                        format!(
                            "{label} held: written; violated: refused as {want}, nothing written"
                        ),
                    ));
                } else {
                    let got = if unchanged {
                        outcome.shown()
                    } else {
                        format!("{}, and the table changed", outcome.shown())
                    };
                    let detail = if written_ok {
                        format!("{label} does not protect what it says: violated, it gave {got}")
                    } else {
                        format!(
                            "{label} cannot be tried both ways: the write is not made while it holds"
                        )
                    };
                    self.checks.push(Check::fail(
                        CheckKind::Condition,
                        detail,
                        request.clone(),
                        vec![format!("{want}, nothing written")],
                        vec![got.clone()],
                    ));
                }
                if unit.kind == Kind::Transaction && unit.steps.len() > 1 && !atomic_done {
                    atomic_done = true;
                    if unchanged && matches!(outcome, Outcome::Refused(_)) {
                        self.checks.push(Check::pass(
                            CheckKind::Atomicity,
                            format!("`{}` made to fail: the {} items the transaction addresses are as they were", step.name, state.keys().len()),
                        ));
                    } else {
                        self.checks.push(Check::fail(
                            CheckKind::Atomicity,
                            format!(
                                "`{}` made to fail, but the transaction {}",
                                step.name,
                                if unchanged {
                                    "was not refused"
                                } else {
                                    "changed the table"
                                }
                            ),
                            request,
                            vec!["nothing written".to_string()],
                            vec![outcome.shown()],
                        ));
                    }
                }
            }
        }
    }

    /// Removes everything the checks wrote.
    async fn cleanup(&mut self) {
        match send::cleanup(&self.ctx.table, &self.footprint).await {
            Ok(left) if left.is_empty() => self.checks.push(Check::pass(
                CheckKind::Cleanup,
                format!(
                    "the {} items the checks could write are gone",
                    self.footprint.keys().len()
                ),
            )),
            Ok(left) => self.checks.push(Check::fail(
                CheckKind::Cleanup,
                format!("{} items the checks wrote are still there", left.len()),
                String::new(),
                vec!["(nothing)".to_string()],
                left,
            )),
            Err(e) => self.checks.push(Check::fail(
                CheckKind::Cleanup,
                e,
                String::new(),
                Vec::new(),
                Vec::new(),
            )),
        }
    }

    fn result(self) -> PatternResult {
        let failed: Vec<&Check> = self.checks.iter().filter(|c| !c.passed).collect();
        let mut kinds: Vec<(CheckKind, usize)> = Vec::new();
        for c in &self.checks {
            match kinds.iter_mut().find(|(k, _)| *k == c.kind) {
                Some((_, n)) => *n += 1,
                None => kinds.push((c.kind, 1)),
            }
        }
        kinds.sort();
        let summary = kinds
            .iter()
            .map(|(k, n)| format!("{n} {}", k.as_str()))
            .collect::<Vec<_>>()
            .join(", ");
        let first = failed.first();
        PatternResult {
            name: self.pattern.name.clone(),
            operation: format!("{:?}", self.pattern.operation),
            passed: failed.is_empty(),
            skipped: false,
            requests: self.requests,
            items: self.footprint.keys().len(),
            request: first.map(|c| c.request.clone()).unwrap_or_default(),
            expected: first.map(|c| c.expected.clone()).unwrap_or_default(),
            got: first.map(|c| c.got.clone()).unwrap_or_default(),
            message: match first {
                Some(c) => format!("{}: {}", c.kind.as_str(), c.detail),
                None => format!(
                    "{} checks ({summary}), {} requests",
                    self.checks.len(),
                    self.requests
                ),
            },
            checks: self.checks,
        }
    }
}

/// What `keys` should hold after a refused unit: each step's item before it, and its guards.
fn expected_snapshot(
    model: &Model,
    unit: &Unit<'_>,
    keys: &[monotable_access::items::Item],
) -> Vec<Option<monotable_access::items::Item>> {
    let mut stored: Vec<monotable_access::items::Item> = Vec::new();
    for s in &unit.steps {
        if let Some(b) = &s.before {
            stored.push(b.item.clone());
            stored.extend(send::guards(model, b).into_iter().map(|g| g.item));
        }
    }
    keys.iter()
        .map(|k| {
            stored
                .iter()
                .find(|i| k.iter().all(|(a, v)| i.get(a) == Some(v)))
                .cloned()
        })
        .collect()
}

/// Whether two snapshots hold the same items, numbers compared by value.
fn same_items(
    got: &[Option<monotable_access::items::Item>],
    want: &[Option<monotable_access::items::Item>],
) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|(g, w)| match (g, w) {
            (None, None) => true,
            (Some(g), Some(w)) => {
                g.len() == w.len()
                    && g.iter()
                        .all(|(k, v)| w.get(k).is_some_and(|x| judge_same(v, x)))
            }
            _ => false,
        })
}

fn judge_same(
    a: &aws_sdk_dynamodb::types::AttributeValue,
    b: &aws_sdk_dynamodb::types::AttributeValue,
) -> bool {
    use aws_sdk_dynamodb::types::AttributeValue as V;
    match (a, b) {
        (V::N(x), V::N(y)) => {
            crate::order::compare_numbers(x, y) == Some(std::cmp::Ordering::Equal)
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests;
