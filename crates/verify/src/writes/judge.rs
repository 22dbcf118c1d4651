//! What a unit that was written is judged by, from the model alone: each item is stored as the
//! model says (its keys rendered from its values, every attribute and type, exact values); an
//! update moves the version a `version(..)` clause relies on; every read that should return a
//! written item does and every other does not (the oracle of the read checks decides); a
//! transaction's read-back holds every item it wrote; an owner's `unique` guard follows it.

use monotable_access::conform::check_item;
use monotable_access::items::Item;
use monotable_model::diagnostic::Severity;
use monotable_model::{KeyTest, Model, Operation, Pattern};

use super::send::{self, guards, key_of, read};
use super::unit::{Kind, Op, Step, Unit};
use crate::ctx::{Ctx, primary_key_text};
use crate::generate::Sample;
use crate::keys::{Values, get_key};
use crate::oracle::{self, KeyLayout, KeyQuery};
use crate::params::{self, BEST};
use crate::report::{Check, CheckKind};

/// Attribute by attribute, how `got` differs from `expected` (numbers by value).
fn differences(expected: &Item, got: &Item) -> Vec<String> {
    let mut out = Vec::new();
    let mut names: Vec<&String> = expected.keys().chain(got.keys()).collect();
    names.sort();
    names.dedup();
    for name in names {
        match (expected.get(name), got.get(name)) {
            (Some(e), Some(g)) if same(e, g) => {}
            (Some(e), Some(g)) => out.push(format!(
                "{name} is {}, the model says {}",
                send::shown(g),
                send::shown(e)
            )),
            (Some(e), None) => out.push(format!(
                "{name} is missing (the model says {})",
                send::shown(e)
            )),
            (None, Some(g)) => out.push(format!("{name} = {} should not be there", send::shown(g))),
            (None, None) => {}
        }
    }
    out
}

fn same(
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

/// The step's items written as the model says: at the key its pattern names, every attribute as
/// expected, fitting the model.
pub(crate) async fn effect(ctx: &Ctx<'_>, step: &Step<'_>, request: &str) -> Check {
    let model = ctx.model;
    let fail = |detail: String, expected: Vec<String>, got: Vec<String>| {
        Check::fail(CheckKind::Effect, detail, request, expected, got)
    };
    if let Some(p) = step.pattern
        && let Some(mismatch) = key_mismatch(p, step)
    {
        return fail(mismatch.0, vec![mismatch.1], vec![mismatch.2]);
    }
    let key = key_of(model, step.after.as_ref().unwrap_or(&step.subject));
    let stored = match read(&ctx.table, &key).await {
        Ok(s) => s,
        Err(e) => return fail(e, Vec::new(), Vec::new()),
    };
    let shown = |s: &Sample| oracle::ident(model, s).to_string();
    match (&step.after, &stored) {
        (None, None) => Check::pass(
            CheckKind::Effect,
            format!("{}: {} is gone", step.name, shown(&step.subject)),
        ),
        (None, Some(_)) => fail(
            format!("{}: {} is still there", step.name, shown(&step.subject)),
            vec!["(nothing)".to_string()],
            vec![shown(&step.subject)],
        ),
        (Some(after), None) => fail(
            format!("{}: nothing is stored at {}", step.name, shown(after)),
            vec![shown(after)],
            vec!["(nothing)".to_string()],
        ),
        (Some(after), Some(got)) => {
            let mut wrong = differences(&after.item, got);
            let audit = check_item(model, got);
            wrong.extend(
                audit
                    .findings
                    .iter()
                    .filter(|f| f.diagnostic.severity == Severity::Error)
                    .map(|f| format!("{}: {}", f.diagnostic.code, f.diagnostic.message)),
            );
            if wrong.is_empty() {
                let what = if step.op == Op::Check {
                    "unchanged"
                } else {
                    "stored as the model says"
                };
                Check::pass(
                    CheckKind::Effect,
                    format!("{}: {} {what}", step.name, shown(after)),
                )
            } else {
                fail(
                    format!(
                        "{}: {} is not what the model says: {}",
                        step.name,
                        shown(after),
                        wrong.join("; ")
                    ),
                    vec![shown(after)],
                    wrong,
                )
            }
        }
    }
}

/// A failed effect check when `step`'s pattern names another key than its entity's item is at.
pub(crate) fn key_check(step: &Step<'_>, request: &str) -> Option<Check> {
    let p = step.pattern?;
    let (detail, expected, got) = key_mismatch(p, step)?;
    Some(Check::fail(
        CheckKind::Effect,
        detail,
        request,
        vec![expected],
        vec![got],
    ))
}

/// When the pattern's key does not render to the key its entity's item is at: the message, the
/// entity's key and the pattern's.
fn key_mismatch(p: &Pattern, step: &Step<'_>) -> Option<(String, String, String)> {
    let values = send::values(step);
    let lookup = |n: &str| values.get(n).cloned();
    let mut declared = Vec::new();
    for clause in p.pk.iter().chain(p.sk.iter()) {
        let KeyTest::Eq(t) = &clause.condition else {
            return None;
        };
        declared.push((clause.attribute.clone(), t.render(&lookup).ok()?));
    }
    let actual: Vec<(String, String)> = declared
        .iter()
        .map(|(a, _)| {
            (
                a.clone(),
                step.subject.key(a).unwrap_or_default().to_string(),
            )
        })
        .collect();
    if declared.is_empty() || declared == actual {
        return None;
    }
    let text = |k: &[(String, String)]| {
        k.iter()
            .map(|(a, v)| format!("{a} = {v:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    Some((
        format!(
            "{}: the pattern's key is {}, but {} items are at {}",
            step.name,
            text(&declared),
            step.entity.name,
            text(&actual)
        ),
        format!("{} at {}", step.entity.name, text(&actual)),
        format!("the pattern's key {}", text(&declared)),
    ))
}

/// An update of an entity some pattern locks with `version(attr)` moves `attr` on: otherwise a
/// writer holding the version read before it overwrites its change.
pub(crate) async fn version_moved(ctx: &Ctx<'_>, step: &Step<'_>, request: &str) -> Option<Check> {
    let model = ctx.model;
    if step.op != Op::Update {
        return None;
    }
    let versions = model.version_attributes(&step.entity.name);
    let before = step.before.as_ref()?;
    let stored = read(&ctx.table, &key_of(model, before)).await.ok()??;
    for v in &versions {
        let was = before.item.get(v);
        let now = stored.get(v);
        if was.is_some() && now.is_some_and(|n| was.is_some_and(|w| same(w, n))) {
            let lockers: Vec<&str> = model
                .patterns
                .iter()
                .filter(|p| {
                    p.returns
                        .first()
                        .is_some_and(|r| r.name == step.entity.name)
                })
                .filter(|p| p.condition.as_ref().and_then(|c| c.version()) == Some(v.as_str()))
                .map(|p| p.name.as_str())
                .collect();
            return Some(Check::fail(
                CheckKind::Condition,
                format!(
                    "{} changes {} but not `{v}`, which `version({v})` of {} relies on: a writer holding version {} overwrites this change (list `{v}` in `sets`)",
                    step.name,
                    step.entity.name,
                    lockers.join(", "),
                    was.map(send::shown).unwrap_or_default()
                ),
                request,
                vec![format!(
                    "{v} moved on from {}",
                    was.map(send::shown).unwrap_or_default()
                )],
                vec![format!(
                    "{v} = {}",
                    now.map(send::shown).unwrap_or_default()
                )],
            ));
        }
    }
    (!versions.is_empty()).then(|| {
        Check::pass(
            CheckKind::Condition,
            format!(
                "{}: `{}` moved on, so a writer holding the old version is refused",
                step.name,
                versions.join("`, `")
            ),
        )
    })
}

/// The read patterns that can return items of `entity` and that a request of verify can
/// send: GetItem, Query and BatchGet.
fn reads_of<'m>(model: &'m Model, entity: &str) -> impl Iterator<Item = &'m Pattern> {
    model.patterns.iter().filter(move |p| {
        matches!(
            p.operation,
            Operation::GetItem | Operation::Query | Operation::BatchGet
        ) && p.returns.iter().any(|r| r.name == entity)
    })
}

/// What `read` returns with its parameters taken from `target`: the request, the items'
/// primary keys as text, and whether the oracle expects `state` (the item now at the target's
/// key, if any) among them.
async fn read_for(
    ctx: &Ctx<'_>,
    read: &Pattern,
    target: &Sample,
    state: Option<&Sample>,
) -> Result<(String, Vec<(String, String)>, Vec<Item>, bool), String> {
    let model = ctx.model;
    if read.operation == Operation::Query {
        let shape = KeyLayout::of(model, read);
        let eval = |values: &Values| {
            let key = KeyQuery::render(read, &|n| values.get(n).cloned()).ok()?;
            let hit = key.is_valid(&shape)
                && !oracle::select(std::iter::once(target), &shape, &key, false).is_empty();
            Some(if hit { BEST } else { 1 })
        };
        let values = params::choose(model, read, &ctx.index, Some(target), &eval);
        let key = KeyQuery::render(read, &|n| values.get(n).cloned())?;
        let expected = state
            .is_some_and(|s| !oracle::select(std::iter::once(s), &shape, &key, false).is_empty());
        let request = format!(
            "Query {}: {}",
            shape.index.as_deref().unwrap_or("table"),
            key.describe()
        );
        let got = ctx.pages(read, &values).await?;
        let ids = got.iter().map(|i| primary_key_text(model, i)).collect();
        return Ok((request, ids, got, expected));
    }
    let eval = |values: &Values| {
        let key = get_key(read, values).ok()?;
        Some(
            if key.iter().all(|(a, v)| target.key(a) == Some(v.as_str())) {
                BEST
            } else {
                1
            },
        )
    };
    let values = params::choose(model, read, &ctx.index, Some(target), &eval);
    let key = get_key(read, &values)?;
    let expected = state.is_some_and(|s| key.iter().all(|(a, v)| s.key(a) == Some(v.as_str())));
    let request = format!(
        "GetItem table: {}",
        key.iter()
            .map(|(a, v)| format!("{a} = {v:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let typed: Item = key
        .iter()
        .map(|(a, v)| {
            (
                a.clone(),
                monotable_access::items::key_value(model, a, v.clone()),
            )
        })
        .collect();
    let got: Vec<Item> = monotable_access::get::GetItem::new(typed)
        .consistent(true)
        .send(&ctx.table)
        .await
        .map_err(|e| e.to_string())?
        .into_iter()
        .collect();
    let ids = got.iter().map(|i| primary_key_text(model, i)).collect();
    Ok((request, ids, got, expected))
}

/// After `step`, each read of its entity with the parameters of the item it wrote returns it
/// exactly when the oracle says so, as written; with the parameters of the item before it
/// (another status, a deleted item) likewise.
pub(crate) async fn reads(ctx: &Ctx<'_>, step: &Step<'_>, write: &str) -> Vec<Check> {
    let model = ctx.model;
    if step.op == Op::Check {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut passed = Vec::new();
    let after = step.after.as_ref();
    let moved = match (&step.before, after) {
        (Some(b), Some(a)) => b.keys != a.keys,
        (Some(_), None) => true,
        _ => false,
    };
    let mut targets: Vec<(&Sample, &str)> =
        after.map(|a| (a, "the item written")).into_iter().collect();
    if moved && let Some(b) = &step.before {
        targets.push((b, "the item as it was"));
    }
    let id = oracle::ident(model, after.unwrap_or(&step.subject));
    let pk = (id.pk.clone(), id.sk.clone());
    for read in reads_of(model, &step.entity.name) {
        for (target, what) in &targets {
            let (request, ids, got, expected) = match read_for(ctx, read, target, after).await {
                Ok(r) => r,
                Err(e) => {
                    out.push(Check::fail(
                        CheckKind::Reads,
                        format!("{}: {e}", read.name),
                        write,
                        Vec::new(),
                        Vec::new(),
                    ));
                    continue;
                }
            };
            let found = ids.iter().position(|k| *k == pk);
            let stale = match (found, after) {
                (Some(i), Some(a)) => {
                    let shown: Item = got[i]
                        .iter()
                        .filter(|(k, _)| a.item.contains_key(*k))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect();
                    let want: Item = a
                        .item
                        .iter()
                        .filter(|(k, _)| shown.contains_key(*k))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect();
                    differences(&want, &shown)
                }
                _ => Vec::new(),
            };
            let fine = found.is_some() == expected && stale.is_empty();
            if fine {
                passed.push(read.name.as_str());
                continue;
            }
            let detail = match (expected, found.is_some()) {
                (true, false) => format!(
                    "{} with the values of {what} does not return {id} after {}",
                    read.name, step.name
                ),
                (false, true) if after.is_none() => format!(
                    "{} still returns {id} after {} deleted it",
                    read.name, step.name
                ),
                (false, true) => format!(
                    "{} with the values of {what} still returns {id} after {}, though its keys no longer match",
                    read.name, step.name
                ),
                _ => format!(
                    "{} returns a stale {id} after {}: {}",
                    read.name,
                    step.name,
                    stale.join("; ")
                ),
            };
            let got_ids: Vec<String> = got.iter().map(|i| ctx.ident_of(i).to_string()).collect();
            out.push(Check::fail(
                CheckKind::Reads,
                detail,
                request,
                vec![if expected {
                    format!("{id} among the items")
                } else {
                    format!("no {id}")
                }],
                got_ids,
            ));
        }
    }
    if out.is_empty() && !passed.is_empty() {
        passed.sort_unstable();
        passed.dedup();
        out.push(Check::pass(
            CheckKind::Reads,
            format!(
                "{}: {} {} {id} exactly where the model says",
                step.name,
                passed.join(", "),
                if passed.len() == 1 {
                    "returns"
                } else {
                    "return"
                }
            ),
        ));
    }
    out
}

/// A transaction or batch's read-back: a read returning several of the entities it wrote,
/// with the values of the first item, returns every item it wrote of them.
pub(crate) async fn read_back(
    ctx: &Ctx<'_>,
    unit: &Unit<'_>,
    name: &str,
    write: &str,
) -> Vec<Check> {
    let model = ctx.model;
    if unit.kind == Kind::Single {
        return Vec::new();
    }
    let written: Vec<&Sample> = unit
        .steps
        .iter()
        .filter(|s| matches!(s.op, Op::Put | Op::Update))
        .filter_map(|s| s.after.as_ref())
        .collect();
    let mut out = Vec::new();
    for read in model
        .patterns
        .iter()
        .filter(|p| p.operation == Operation::Query)
    {
        let mine: Vec<&Sample> = written
            .iter()
            .copied()
            .filter(|w| read.returns.iter().any(|r| r.name == w.entity))
            .collect();
        let mut entities: Vec<&str> = mine.iter().map(|w| w.entity.as_str()).collect();
        entities.sort_unstable();
        entities.dedup();
        let Some(first) = mine.first().copied() else {
            continue;
        };
        if entities.len() < 2 {
            continue;
        }
        let (request, ids, got, _) = match read_for(ctx, read, first, Some(first)).await {
            Ok(r) => r,
            Err(e) => {
                out.push(Check::fail(
                    CheckKind::Reads,
                    format!("{}: {e}", read.name),
                    write,
                    Vec::new(),
                    Vec::new(),
                ));
                continue;
            }
        };
        // The items of the aggregate `first` heads: those holding its values of the read's
        // partition key variables (the order's `orderId`), wherever their keys put them.
        let vars: Vec<&str> = read
            .pk
            .iter()
            .flat_map(|k| k.condition.templates())
            .flat_map(|t| t.variables())
            .collect();
        let related = |w: &Sample| {
            vars.iter().all(|v| {
                w.values
                    .get(*v)
                    .is_some_and(|x| first.values.get(*v) == Some(x))
            })
        };
        let mine: Vec<&Sample> = mine.into_iter().filter(|w| related(w)).collect();
        let mut entities: Vec<&str> = mine.iter().map(|w| w.entity.as_str()).collect();
        entities.sort_unstable();
        entities.dedup();
        if entities.len() < 2 {
            continue;
        }
        let missing: Vec<String> = mine
            .iter()
            .filter(|w| {
                let id = oracle::ident(model, w);
                !ids.contains(&(id.pk, id.sk))
            })
            .map(|w| oracle::ident(model, w).to_string())
            .collect();
        if missing.is_empty() {
            out.push(Check::pass(
                CheckKind::Reads,
                format!(
                    "read-back: {} returns all {} items {name} wrote of {}",
                    read.name,
                    mine.len(),
                    entities.join(", ")
                ),
            ));
        } else {
            out.push(Check::fail(
                CheckKind::Reads,
                format!(
                    "read-back: {} with the values of {} misses {} that {name} wrote with it",
                    read.name,
                    oracle::ident(model, first),
                    missing.join(", ")
                ),
                request,
                mine.iter()
                    .map(|w| oracle::ident(model, w).to_string())
                    .collect(),
                got.iter().map(|i| shown_item(ctx, &mine, i)).collect(),
            ));
        }
    }
    out
}

/// A returned item as `Entity PK | SK`: its entity from the items written, else the samples'.
fn shown_item(ctx: &Ctx<'_>, written: &[&Sample], item: &Item) -> String {
    let (pk, sk) = primary_key_text(ctx.model, item);
    written
        .iter()
        .map(|w| oracle::ident(ctx.model, w))
        .find(|id| id.pk == pk && id.sk == sk)
        .unwrap_or_else(|| ctx.ident_of(item))
        .to_string()
}

/// Each owner the unit wrote is guarded by its `unique` guard, holding its values; each guard
/// of a value the owner no longer has is gone, so the value is free again.
pub(crate) async fn guarded(ctx: &Ctx<'_>, unit: &Unit<'_>, name: &str, write: &str) -> Vec<Check> {
    let model = ctx.model;
    let mut out = Vec::new();
    for step in unit.steps.iter().filter(|s| s.op != Op::Check) {
        let now = step
            .after
            .as_ref()
            .map(|a| guards(model, a))
            .unwrap_or_default();
        let then = step
            .before
            .as_ref()
            .map(|b| guards(model, b))
            .unwrap_or_default();
        for g in &now {
            let id = oracle::ident(model, g);
            match read(&ctx.table, &key_of(model, g)).await {
                Ok(Some(stored)) if differences(&g.item, &stored).is_empty() => out.push(Check::pass(
                    CheckKind::Unique,
                    format!("{name}: {} holds the value of {}", id, oracle::ident(model, step.after.as_ref().unwrap_or(&step.subject))),
                )),
                Ok(found) => out.push(Check::fail(
                    CheckKind::Unique,
                    format!(
                        "{name} wrote {} whose unique value has no guard {id}: another {} could take it",
                        oracle::ident(model, step.after.as_ref().unwrap_or(&step.subject)),
                        step.entity.name
                    ),
                    write,
                    vec![id.to_string()],
                    vec![found.map_or("(nothing)".to_string(), |f| format!("{f:?}"))],
                )),
                Err(e) => out.push(Check::fail(CheckKind::Unique, e, write, Vec::new(), Vec::new())),
            }
        }
        for g in then
            .iter()
            .filter(|g| !now.iter().any(|n| n.keys == g.keys))
        {
            let id = oracle::ident(model, g);
            match read(&ctx.table, &key_of(model, g)).await {
                Ok(None) => out.push(Check::pass(CheckKind::Unique, format!("{name}: the old guard {id} is gone: its value is free again"))),
                Ok(Some(_)) => out.push(Check::fail(
                    CheckKind::Unique,
                    format!("{name} leaves the guard {id} behind: its value stays taken though no {} holds it", step.entity.name),
                    write,
                    vec!["(nothing)".to_string()],
                    vec![id.to_string()],
                )),
                Err(e) => out.push(Check::fail(CheckKind::Unique, e, write, Vec::new(), Vec::new())),
            }
        }
    }
    out
}
