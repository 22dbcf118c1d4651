//! Key-shape rules: MT001 unwritten key, MT002 unreachable entity, MT003 key-slot conflict,
//! MT004 sort-condition mismatch, MT005 key collision.

use monotable_model::{Condition, Entity, KeyTemplates, Model, Operation, Pattern};

use super::{entity_attr, entity_shape, pattern_attr, pattern_shape, where_};
use crate::diagnostic::{Diagnostic, Rule};
use crate::shape::condition_can_match;

pub(crate) fn check(model: &Model, out: &mut Vec<Diagnostic>) {
    for pattern in &model.patterns {
        check_pattern(model, pattern, out);
    }
    collisions(model, out);
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
    e: &Entity,
    keys: &KeyTemplates,
) -> (bool, bool) {
    let Some(pk) = &p.pk else { return (true, true) };
    let Condition::Eq(pk_t) = &pk.condition else {
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

fn describe_keys(keys: &KeyTemplates) -> String {
    match &keys.sk {
        Some(sk) => format!(
            "{} = `{}`, {} = `{}`",
            keys.pk.attribute, keys.pk.template, sk.attribute, sk.template
        ),
        None => format!("{} = `{}`", keys.pk.attribute, keys.pk.template),
    }
}

fn check_pattern(model: &Model, p: &Pattern, out: &mut Vec<Diagnostic>) {
    if !is_keyed(p) {
        return;
    }
    let idx = p.index_name();
    if model.key_schema(idx).is_none() {
        return; // undeclared index: MT013
    }
    let Some(pk) = &p.pk else { return };
    let any_full = model.entities.iter().any(|e| {
        e.key(idx).is_some_and(|k| {
            let (a, b) = key_match(model, p, e, k);
            a && b
        })
    });
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
            let conflict = idx.and_then(|_| {
                model.patterns.iter().find(|q| {
                    q.name != p.name
                        && q.index_name() == idx
                        && q.returns.iter().any(|x| x.name == e.name)
                        && key_match(model, q, e, keys).0
                })
            });
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
                    Diagnostic::error(
                        Rule::UnreachableEntity,
                        format!("access pattern `{}` can never return `{}`", p.name, e.name),
                        pk.span.clone(),
                    )
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

fn condition_note(c: &Condition) -> String {
    match c {
        Condition::Between(a, b) => {
            format!("`between({a}, {b})` only selects keys starting with their common prefix")
        }
        Condition::BeginsWith(t) => {
            format!("`begins_with({t})` only selects keys starting with `{t}`")
        }
        Condition::Eq(t) => format!("`{t}` must equal the written key"),
        Condition::Lt(t) | Condition::Le(t) => format!("every written key sorts after `{t}`"),
        Condition::Gt(t) | Condition::Ge(t) => format!("every written key sorts before `{t}`"),
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
    let mut d = Diagnostic::error(
        Rule::UnwrittenKey,
        format!("access pattern `{}` reads a key no entity writes", p.name),
        p.key_span(),
    )
    .note(format!(
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

fn condition_text(c: &Condition) -> String {
    match c {
        Condition::Eq(t) => t.to_string(),
        Condition::BeginsWith(t) => format!("begins_with({t})"),
        Condition::Between(a, b) => format!("between({a}, {b})"),
        Condition::Lt(t) => format!("< {t}"),
        Condition::Le(t) => format!("<= {t}"),
        Condition::Gt(t) => format!("> {t}"),
        Condition::Ge(t) => format!(">= {t}"),
    }
}

fn keys_overlap(a: &Entity, ka: &KeyTemplates, b: &Entity, kb: &KeyTemplates) -> bool {
    let pk = entity_shape(a, &ka.pk.template).overlaps(&entity_shape(b, &kb.pk.template));
    let sk = match (&ka.sk, &kb.sk) {
        (Some(x), Some(y)) => entity_shape(a, &x.template).overlaps(&entity_shape(b, &y.template)),
        _ => true,
    };
    pk && sk
}

fn collisions(model: &Model, out: &mut Vec<Diagnostic>) {
    for (i, a) in model.entities.iter().enumerate() {
        for b in &model.entities[i + 1..] {
            if let (Some(ka), Some(kb)) = (a.key(None), b.key(None))
                && keys_overlap(a, ka, b, kb)
            {
                out.push(
                    Diagnostic::error(
                        Rule::KeyCollision,
                        format!("entities `{}` and `{}` can be written with the same primary key", a.name, b.name),
                        kb.pk.span.clone(),
                    )
                    .note(format!("`{}`: {}", a.name, describe_keys(ka)))
                    .note(format!("`{}`: {}", b.name, describe_keys(kb)))
                    .help("give each entity type a distinct constant prefix in its sort key (e.g. `ORDER#`, `ITEM#`) so one can never overwrite the other"),
                );
            }
            for index in &model.indexes {
                let idx = Some(index.name.as_str());
                let (Some(ka), Some(kb)) = (a.key(idx), b.key(idx)) else {
                    continue;
                };
                if !keys_overlap(a, ka, b, kb) {
                    continue;
                }
                // It matters when a pattern on the index expects only one of them but can read both.
                let confused = model.patterns.iter().find(|p| {
                    p.index_name() == idx
                        && p.is_read()
                        && {
                            let ra = p.returns.iter().any(|r| r.name == a.name);
                            let rb = p.returns.iter().any(|r| r.name == b.name);
                            ra != rb
                        }
                        && {
                            let (pa, sa) = key_match(model, p, a, ka);
                            let (pb, sb) = key_match(model, p, b, kb);
                            pa && sa && pb && sb
                        }
                });
                if let Some(p) = confused {
                    out.push(
                        Diagnostic::warning(
                            Rule::KeyCollision,
                            format!(
                                "entities `{}` and `{}` can share the same key in index `{}`",
                                a.name, b.name, index.name
                            ),
                            kb.pk.span.clone(),
                        )
                        .note(format!("`{}`: {}", a.name, describe_keys(ka)))
                        .note(format!("`{}`: {}", b.name, describe_keys(kb)))
                        .note(format!("pattern `{}` expects only one of them", p.name))
                        .help(
                            "use distinct constant prefixes in the index keys of the two entities",
                        ),
                    );
                }
            }
        }
    }
}
