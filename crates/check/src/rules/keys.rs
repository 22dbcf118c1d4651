//! Key-shape rules: MT001 unwritten key, MT002 unreachable entity, MT003 key-slot conflict,
//! MT004 sort-condition mismatch (MT005 key collision is in `collisions`). Patterns over a
//! native index and its members are judged in `native` (no template, so no MT003: an item's
//! key is its own values).

use std::collections::HashMap;

use monotable_model::{EntityDecl, KeyTemplate, KeyTemplates, KeyTest, Model, Operation, Pattern};

use super::lookup::{Lookup, Writers};
use super::{entity_attr, entity_shape, native, pattern_attr, pattern_shape, where_};
use crate::diagnostic::{Diagnostic, Rule};
use crate::shape::condition_can_match;

/// For an entity on an index, the first two patterns (in model order) that return it there and
/// whose partition key condition can select it: found once, not once per pattern.
type Readers<'m> = HashMap<(&'m str, Option<&'m str>), Vec<&'m Pattern>>;

pub(crate) fn check(model: &Model, lookup: &Lookup<'_>, out: &mut Vec<Diagnostic>) {
    let mut readers: Readers<'_> = HashMap::new();
    for pattern in &model.patterns {
        check_pattern(model, lookup, pattern, &mut readers, out);
    }
    super::collisions::check(model, lookup, out);
}

/// Whether a pattern's key reads need to match written keys.
fn is_keyed(p: &Pattern) -> bool {
    matches!(
        p.operation,
        Operation::GetItem
            | Operation::Query
            | Operation::BatchGet
            | Operation::UpdateItem
            | Operation::DeleteItem
    )
}

/// (partition key matches, sort key condition matches) of a pattern against an entity's keys.
pub(crate) fn key_match(
    model: &Model,
    p: &Pattern,
    e: &EntityDecl,
    keys: &KeyTemplates,
) -> (bool, bool) {
    let Some(pk) = &p.pk else { return (true, true) };
    let KeyTest::Eq(pk_t) = &pk.condition else {
        return (true, true);
    };
    let pk_ok = pattern_shape(model, p, pk_t).overlaps(&entity_shape(e, &keys.pk.template));
    let sk_ok = match (&p.sk, &keys.sk) {
        (Some(c), Some(sk)) => condition_can_match(
            &c.condition,
            &|n| pattern_attr(model, p, n),
            &sk.template,
            &|n| entity_attr(e, n),
        ),
        _ => true,
    };
    (pk_ok, sk_ok)
}

pub(crate) fn describe_keys(keys: &KeyTemplates) -> String {
    match &keys.sk {
        Some(sk) => format!(
            "{} = `{}`, {} = `{}`",
            keys.pk.attribute, keys.pk.template, sk.attribute, sk.template
        ),
        None => format!("{} = `{}`", keys.pk.attribute, keys.pk.template),
    }
}

/// The literal text every key a sort-key condition selects starts with.
fn condition_prefix(c: &KeyTest) -> String {
    match c {
        KeyTest::Eq(t) | KeyTest::BeginsWith(t) => t.literal_prefix().to_string(),
        KeyTest::Between(lo, hi) => lo
            .literal_prefix()
            .chars()
            .zip(hi.literal_prefix().chars())
            .take_while(|(a, b)| a == b)
            .map(|(a, _)| a)
            .collect(),
        KeyTest::Lt(_) | KeyTest::Le(_) | KeyTest::Gt(_) | KeyTest::Ge(_) => String::new(),
    }
}

/// Whether some entity writes a key the pattern's key condition selects.
fn someone_writes(model: &Model, p: &Pattern, pk: &KeyTemplate, writers: &Writers<'_>) -> bool {
    let sk =
        p.sk.as_ref()
            .map_or(String::new(), |k| condition_prefix(&k.condition));
    writers
        .candidates(pk.literal_prefix(), &sk)
        .any(|w| key_match(model, p, w.entity, w.keys) == (true, true))
}

/// Another pattern than `p` returning `e` from `idx` whose partition key condition selects it.
fn other_reader<'m>(
    model: &'m Model,
    lookup: &Lookup<'m>,
    readers: &mut Readers<'m>,
    p: &Pattern,
    e: &'m EntityDecl,
    idx: Option<&'m str>,
) -> Option<&'m Pattern> {
    let keys = e.key(idx)?;
    let first = readers.entry((e.name.as_str(), idx)).or_insert_with(|| {
        lookup
            .returning(&e.name)
            .iter()
            .copied()
            .filter(|q| q.index_name() == idx && key_match(model, q, e, keys).0)
            .take(2)
            .collect()
    });
    first.iter().copied().find(|q| q.name != p.name)
}

fn check_pattern<'m>(
    model: &'m Model,
    lookup: &Lookup<'m>,
    p: &'m Pattern,
    readers: &mut Readers<'m>,
    out: &mut Vec<Diagnostic>,
) {
    if !is_keyed(p) {
        return;
    }
    if let Some(index) = native::native_index(model, p.index_name()) {
        native::check_pattern(model, lookup, p, index, out);
        return;
    }
    let idx = p.index_name();
    let Some(writers) = lookup.writers(idx) else {
        return; // undeclared index: MT013
    };
    let Some(pk) = &p.pk else { return };
    let any_full = match &pk.condition {
        KeyTest::Eq(t) => someone_writes(model, p, t, writers),
        _ => true,
    };
    let mut unwritten_reported = false;
    for r in &p.returns {
        let Some(e) = model.entity(&r.name) else {
            continue;
        };
        let Some(keys) = e.key(idx) else {
            let (pk_name, sk_name) = model.key_schema(idx).unwrap_or(("", None));
            let attrs = match sk_name {
                Some(sk) => format!("`{pk_name}` and `{sk}`"),
                None => format!("`{pk_name}`"),
            };
            out.push(
                Diagnostic::error(
                    Rule::UnreachableEntity,
                    format!(
                        "access pattern `{}` can never return `{}`: it is not in {}",
                        p.name,
                        e.name,
                        where_(idx)
                    ),
                    r.span.clone(),
                )
                .note(format!(
                    "`{}` does not write {attrs}, so DynamoDB never copies it into {}",
                    e.name,
                    where_(idx)
                ))
                .help(format!(
                    "add {attrs} to [entities.{}.keys], or query where `{}` lives",
                    e.name, e.name
                )),
            );
            continue;
        };
        let (pk_ok, sk_ok) = key_match(model, p, e, keys);
        if pk_ok && sk_ok {
            continue;
        }
        if !pk_ok {
            let conflict = idx.and_then(|_| other_reader(model, lookup, readers, p, e, idx));
            if let Some(q) = conflict {
                let q_pk =
                    q.pk.as_ref()
                        .map(|k| condition_text(&k.condition))
                        .unwrap_or_default();
                let p_pk = condition_text(&pk.condition);
                out.push(
                    Diagnostic::error(
                        Rule::KeySlotConflict,
                        format!(
                            "entity `{}` needs two different `{}` values: `{}` for `{}` and `{}` for `{}`",
                            e.name, keys.pk.attribute, q_pk, q.name, p_pk, p.name
                        ),
                        pk.span.clone(),
                    )
                    .label(format!("`{}` writes `{}` here", e.name, keys.pk.template))
                    .note(format!(
                        "an item holds one value per attribute, so `{}` can sit in only one `{}` partition of {}",
                        e.name, keys.pk.attribute, where_(idx)
                    ))
                    .help(format!(
                        "serve `{}` from another index (add a GSI with its own key attributes for `{}`), or change the pattern to the value `{}` writes",
                        p.name, e.name, keys.pk.template
                    )),
                );
            } else if !any_full {
                if !unwritten_reported {
                    unwritten_reported = true;
                    out.push(unwritten(model, p));
                }
                continue;
            } else {
                out.push(
                    super::never_returns(p, e, pk.span.clone())
                    .note(format!(
                        "`{}` is written at {} in {}, outside the collection this pattern reads",
                        e.name,
                        describe_keys(keys),
                        where_(idx)
                    ))
                    .help(format!(
                        "write `{}` into this item collection (e.g. `{} = \"{}\"`) or read it with its own key",
                        e.name,
                        keys.pk.attribute,
                        condition_text(&pk.condition)
                    )),
                );
            }
        }
        if !sk_ok && let (Some(sk), Some(esk)) = (&p.sk, &keys.sk) {
            out.push(
                Diagnostic::error(
                    Rule::SortConditionMismatch,
                    format!(
                        "sort-key condition of `{}` cannot match any `{}`: it writes `{} = {}`",
                        p.name, e.name, esk.attribute, esk.template
                    ),
                    sk.span.clone(),
                )
                .note(condition_note(&sk.condition))
                .help(format!(
                    "make `{}` write `{}` in the shape the condition expects, or change the condition to the shape `{}`",
                    e.name, esk.attribute, esk.template
                )),
            );
        }
    }
    if p.returns.is_empty() && !any_full && !unwritten_reported {
        out.push(unwritten(model, p));
    }
}

fn condition_note(c: &KeyTest) -> String {
    match c {
        KeyTest::Between(a, b) => {
            format!("`between({a}, {b})` only selects keys starting with their common prefix")
        }
        KeyTest::BeginsWith(t) => {
            format!("`begins_with({t})` only selects keys starting with `{t}`")
        }
        KeyTest::Eq(t) => format!("`{t}` must equal the written key"),
        KeyTest::Lt(t) | KeyTest::Le(t) => format!("every written key sorts after `{t}`"),
        KeyTest::Gt(t) | KeyTest::Ge(t) => format!("every written key sorts before `{t}`"),
    }
}

fn unwritten(model: &Model, p: &Pattern) -> Diagnostic {
    let idx = p.index_name();
    let key = match (&p.pk, &p.sk) {
        (Some(pk), Some(sk)) => format!(
            "{} = `{}`, {} = `{}`",
            pk.attribute,
            condition_text(&pk.condition),
            sk.attribute,
            condition_text(&sk.condition)
        ),
        (Some(pk), None) => format!("{} = `{}`", pk.attribute, condition_text(&pk.condition)),
        _ => String::new(),
    };
    let mut d = super::reads_unwritten(p).note(format!(
        "it reads {key} in {}, and no entity writes a key of that shape",
        where_(idx)
    ));
    for r in &p.returns {
        if let Some(k) = model.entity(&r.name).and_then(|e| e.key(idx)) {
            d = d.note(format!("`{}` is written at {}", r.name, describe_keys(k)));
        }
    }
    d.help(format!(
        "read the entity at the key it is written with, or make an entity write {key}"
    ))
}

fn condition_text(c: &KeyTest) -> String {
    match c {
        KeyTest::Eq(t) => t.to_string(),
        KeyTest::BeginsWith(t) => format!("begins_with({t})"),
        KeyTest::Between(a, b) => format!("between({a}, {b})"),
        KeyTest::Lt(t) => format!("< {t}"),
        KeyTest::Le(t) => format!("<= {t}"),
        KeyTest::Gt(t) => format!("> {t}"),
        KeyTest::Ge(t) => format!(">= {t}"),
    }
}
