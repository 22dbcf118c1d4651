//! Native multi-attribute index keys in the key-shape rules: MT001, MT002 and MT004 for a
//! pattern over a native index, MT005 between entities that hold the same key attributes.
//!
//! An item is in a native index when it holds every key attribute; its key is those values
//! themselves, so there is no template to compare: a condition is matched against what the
//! attribute can hold (an enum's values, a timestamp's shape, ...), and two entities holding the
//! same attributes have nothing, no prefix, to keep them apart.

use monotable_model::{
    AttributeType, EntityDecl, Index, KeyAttributeType, KeyClause, KeyTemplate, KeyTest, Model,
    Pattern,
};

use super::lookup::Lookup;
use std::collections::HashMap;

use super::{LISTED, capped_listing, entity_attr, listing, pattern_attr};
use crate::diagnostic::{Diagnostic, Rule};
use crate::shape::{Shape, condition_can_match};

/// The index a pattern or key names, when it is declared and native.
pub(crate) fn native_index<'m>(model: &'m Model, idx: Option<&str>) -> Option<&'m Index> {
    idx.and_then(|name| model.index(name)).filter(|i| i.native)
}

/// The index's key attributes, for messages: `` `status`, `shard`, `createdAt` and `orderId` ``.
pub(crate) fn key_listing(index: &Index) -> String {
    let names: Vec<&str> = index.key_attributes().map(|k| k.name.as_str()).collect();
    listing(&names)
}

/// What `e`'s attribute `name` holds, for notes: `one of `NEW`, `PAID``, `a `timestamp``.
fn holds(e: &EntityDecl, name: &str) -> String {
    match e.attribute(name) {
        Some(a) if a.ty == AttributeType::Enum && a.values.len() == 1 => {
            format!("`{}` only", a.values[0])
        }
        Some(a) if a.ty == AttributeType::Enum => {
            let values: Vec<&str> = a.values.iter().map(String::as_str).collect();
            format!("one of {}", listing(&values).replace(" and ", " or "))
        }
        Some(a) => format!("a `{}`", a.ty.name()),
        None => "nothing".to_string(),
    }
}

/// Whether an item of `e` can satisfy `kc`. Only conditions on string keys are compared by
/// shape (a number key compares by value: `3.0` equals `3`), and only equality and
/// `begins_with`: a range can hold some value of any shape. A variable of the condition is
/// typed as everywhere in a pattern: a parameter, else the first returned entity's attribute.
fn condition_holds(
    model: &Model,
    p: &Pattern,
    e: &EntityDecl,
    index: &Index,
    kc: &KeyClause,
) -> bool {
    let string_key = index
        .key_attributes()
        .any(|k| k.name == kc.attribute && k.ty == KeyAttributeType::S);
    if !string_key || !matches!(kc.condition, KeyTest::Eq(_) | KeyTest::BeginsWith(_)) {
        return true;
    }
    let Ok(written) = KeyTemplate::parse(&format!("{{{}}}", kc.attribute)) else {
        return true;
    };
    condition_can_match(
        &kc.condition,
        &|n| pattern_attr(model, p, n),
        &written,
        &|n| entity_attr(e, n),
    )
}

/// The first partition condition and the first sort condition of `p` no item of `e` can
/// satisfy.
pub(crate) fn mismatches<'p>(
    model: &Model,
    p: &'p Pattern,
    e: &EntityDecl,
    index: &Index,
) -> (Option<&'p KeyClause>, Option<&'p KeyClause>) {
    let failing = |sort: bool| {
        p.key
            .iter()
            .filter(|kc| index.is_sort_attribute(&kc.attribute) == sort)
            .find(|kc| !condition_holds(model, p, e, index, kc))
    };
    (failing(false), failing(true))
}

/// Whether every condition of `p` can select an item of `e`.
pub(crate) fn matches_all(model: &Model, p: &Pattern, e: &EntityDecl, index: &Index) -> bool {
    matches!(mismatches(model, p, e, index), (None, None))
}

/// The condition as the model writes it: `` `status = "PAID"` ``.
fn condition_text(kc: &KeyClause) -> String {
    let text = match &kc.condition {
        KeyTest::Eq(t) => t.to_string(),
        KeyTest::BeginsWith(t) => format!("begins_with({t})"),
        KeyTest::Between(a, b) => format!("between({a}, {b})"),
        KeyTest::Lt(t) => format!("< {t}"),
        KeyTest::Le(t) => format!("<= {t}"),
        KeyTest::Gt(t) => format!("> {t}"),
        KeyTest::Ge(t) => format!(">= {t}"),
    };
    format!("`{} = \"{text}\"`", kc.attribute)
}

/// MT001, MT002 and MT004 for a keyed pattern over native index `index`.
pub(crate) fn check_pattern(
    model: &Model,
    lookup: &Lookup<'_>,
    p: &Pattern,
    index: &Index,
    out: &mut Vec<Diagnostic>,
) {
    let members = lookup.members(&index.name);
    let any_full = members.iter().any(|e| matches_all(model, p, e, index));
    let mut unwritten_reported = false;
    for r in &p.returns {
        let Some(e) = model.entity(&r.name) else {
            continue;
        };
        if !index.native_member(e) {
            out.push(not_a_member(p, e, index, r.span.clone()));
            continue;
        }
        let (partition, sort) = mismatches(model, p, e, index);
        if let Some(kc) = partition {
            if !any_full {
                if !std::mem::replace(&mut unwritten_reported, true) {
                    out.push(unwritten(model, p, index));
                }
                continue;
            }
            out.push(unreachable_value(p, e, kc));
        }
        if let Some(kc) = sort {
            out.push(sort_mismatch(p, e, kc));
        }
    }
    if p.returns.is_empty() && !any_full {
        out.push(unwritten(model, p, index));
    }
}

/// MT002: the entity lacks some key attribute, so none of its items is in the index.
fn not_a_member(
    p: &Pattern,
    e: &EntityDecl,
    index: &Index,
    span: std::ops::Range<usize>,
) -> Diagnostic {
    let missing: Vec<&str> = index
        .key_attributes()
        .map(|k| k.name.as_str())
        .filter(|n| e.attribute(n).is_none())
        .collect();
    Diagnostic::error(
        Rule::UnreachableEntity,
        format!(
            "access pattern `{}` can never return `{}`: it is not in index `{}`",
            p.name, e.name, index.name
        ),
        span,
    )
    .note(format!(
        "`{}` does not declare {}; an item is in native index `{}` only when it holds every key attribute: {}",
        e.name,
        listing(&missing),
        index.name,
        key_listing(index)
    ))
    .help(format!(
        "declare {} on `{}` ({}), or query where `{}` lives",
        listing(&missing),
        e.name,
        declaration(index, missing.first().copied().unwrap_or_default()),
        e.name
    ))
}

/// `attributes.shard = { type = "integer", required = true }`: a declaration the key holds.
fn declaration(index: &Index, name: &str) -> String {
    let ty = match index
        .key_attributes()
        .find(|k| k.name == name)
        .map(|k| k.ty)
    {
        Some(KeyAttributeType::N) => "integer",
        _ => "string",
    };
    format!("`attributes.{name} = {{ type = \"{ty}\", required = true }}`")
}

/// MT002: the entity is in the index, but never with a partition value the pattern selects.
fn unreachable_value(p: &Pattern, e: &EntityDecl, kc: &KeyClause) -> Diagnostic {
    super::never_returns(p, e, kc.span.clone())
        .note(format!(
            "`{}` holds `{}` as {}, and {} selects no such value",
            e.name,
            kc.attribute,
            holds(e, &kc.attribute),
            condition_text(kc)
        ))
        .help(format!(
            "query the values `{}` holds, or give its `{}` the value the pattern reads",
            e.name, kc.attribute
        ))
}

/// MT004: the partition can hold the entity, but a sort condition never matches it.
fn sort_mismatch(p: &Pattern, e: &EntityDecl, kc: &KeyClause) -> Diagnostic {
    Diagnostic::error(
        Rule::SortConditionMismatch,
        format!(
            "sort-key condition of `{}` cannot match any `{}`: its `{}` is {}",
            p.name,
            e.name,
            kc.attribute,
            holds(e, &kc.attribute)
        ),
        kc.span.clone(),
    )
    .note(format!(
        "{} selects no value `{}` holds",
        condition_text(kc),
        e.name
    ))
    .help(format!(
        "compare `{}` with a value `{}` can hold, or drop the condition",
        kc.attribute, e.name
    ))
}

/// MT001: no entity in the index holds values the pattern's conditions select.
fn unwritten(model: &Model, p: &Pattern, index: &Index) -> Diagnostic {
    let key: Vec<String> = p.key.iter().map(condition_text).collect();
    let mut d = super::reads_unwritten(p).note(format!(
        "it reads {} in native index `{}`, and no entity in it holds values of that shape",
        key.join(", "),
        index.name
    ));
    for r in &p.returns {
        let Some(e) = model.entity(&r.name) else {
            continue;
        };
        for kc in p
            .key
            .iter()
            .filter(|kc| !condition_holds(model, p, e, index, kc))
        {
            d = d.note(format!(
                "`{}` holds `{}` as {}",
                e.name,
                kc.attribute,
                holds(e, &kc.attribute)
            ));
        }
    }
    d.help("compare each key attribute with a value the entities hold")
}

/// MT005 on a native index: entities holding every key attribute share its keys, and a read
/// pattern expecting some of them can get the others. One finding per index, naming every
/// entity some pattern confuses; members that hold their key attributes alike are compared
/// with each pattern once, as one.
pub(crate) fn collisions(
    model: &Model,
    lookup: &Lookup<'_>,
    index: &Index,
    out: &mut Vec<Diagnostic>,
) {
    let members = lookup.members(&index.name);
    let buckets = alike(index, members);
    let mut bucket_of: HashMap<&str, usize> = HashMap::new();
    let mut member_of: HashMap<&str, usize> = HashMap::new();
    for (b, list) in buckets.iter().enumerate() {
        for &m in list {
            bucket_of.insert(members[m].name.as_str(), b);
            member_of.insert(members[m].name.as_str(), m);
        }
    }
    let mut involved = vec![false; buckets.len()];
    let mut found: Vec<Confused<'_>> = Vec::new();
    let readers = model
        .patterns
        .iter()
        .filter(|p| p.is_read() && p.index_name() == Some(index.name.as_str()));
    for p in readers {
        let mut returned: Vec<&str> = p
            .returns
            .iter()
            .map(|r| r.name.as_str())
            .filter(|n| bucket_of.contains_key(n))
            .collect();
        returned.sort_unstable();
        returned.dedup();
        let mut reads: HashMap<usize, bool> = HashMap::new();
        let mut read = |b: usize| {
            *reads
                .entry(b)
                .or_insert_with(|| matches_all(model, p, members[buckets[b][0]], index))
        };
        let mut in_bucket: HashMap<usize, usize> = HashMap::new();
        for n in &returned {
            *in_bucket.entry(bucket_of[n]).or_default() += 1;
        }
        let expected = returned
            .iter()
            .map(|n| member_of[n])
            .filter(|&m| read(bucket_of[members[m].name.as_str()]))
            .min();
        let Some(expected) = expected else {
            continue;
        };
        let mut others = Vec::new();
        let mut count = 0usize;
        let mut touched = Vec::new();
        for (b, list) in buckets.iter().enumerate() {
            let in_bucket = in_bucket.get(&b).copied().unwrap_or(0);
            if list.len() == in_bucket || !read(b) {
                continue;
            }
            touched.push(b);
            count += list.len() - in_bucket;
            let rest = list
                .iter()
                .copied()
                .filter(|&m| !returned.contains(&members[m].name.as_str()));
            others.extend(rest.take(LISTED.saturating_sub(others.len())));
        }
        if others.is_empty() {
            continue;
        }
        touched.push(bucket_of[members[expected].name.as_str()]);
        for b in touched {
            involved[b] = true;
        }
        others.sort_unstable();
        found.push(Confused {
            pattern: p,
            expected,
            others,
            count,
        });
    }
    if !found.is_empty() {
        let mut all: Vec<usize> = buckets
            .iter()
            .zip(&involved)
            .filter(|(_, i)| **i)
            .flat_map(|(b, _)| b.iter().copied())
            .collect();
        all.sort_unstable();
        out.push(collision(index, members, &all, &found));
    }
}

/// The members of a native index bucketed by the shapes of their key attributes: members of one
/// bucket are selected by exactly the same conditions.
fn alike(index: &Index, members: &[&EntityDecl]) -> Vec<Vec<usize>> {
    let mut by_shape: HashMap<Vec<Shape>, usize> = HashMap::new();
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (i, e) in members.iter().enumerate() {
        let shapes: Vec<Shape> = index
            .key_attributes()
            .map(|k| match KeyTemplate::parse(&format!("{{{}}}", k.name)) {
                Ok(t) => Shape::of(&t, &|n| entity_attr(e, n)),
                Err(_) => Shape::literal_prefix(""),
            })
            .collect();
        let at = *by_shape.entry(shapes).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[at].push(i);
    }
    out
}

/// A read pattern on a native index that expects `expected` and can select `count` members it
/// does not return, the first of them `others`.
struct Confused<'m> {
    pattern: &'m Pattern,
    expected: usize,
    others: Vec<usize>,
    count: usize,
}

/// The finding for the `involved` members of a native index, which the `found` patterns confuse.
fn collision(
    index: &Index,
    members: &[&EntityDecl],
    involved: &[usize],
    found: &[Confused<'_>],
) -> Diagnostic {
    let first = &found[0];
    let (a, b) = (members[first.expected], members[first.others[0]]);
    let key_first = index
        .key_attributes()
        .next()
        .map_or("", |k| k.name.as_str());
    let span = b
        .attribute(key_first)
        .map_or(b.span.clone(), |x| x.span.clone());
    let names: Vec<&str> = involved.iter().map(|&m| members[m].name.as_str()).collect();
    let pair = names.len() == 2;
    let message = if pair {
        format!(
            "entities `{}` and `{}` can share the same key in index `{}`",
            a.name, b.name, index.name
        )
    } else {
        format!(
            "{} entities can share the same key in index `{}`: {}",
            monotable_model::limits::thousands(names.len()),
            index.name,
            capped_listing(&names)
        )
    };
    let mut d = Diagnostic::warning(Rule::KeyCollision, message, span).note(format!(
        "{} hold every key attribute of native index `{}` ({}): its keys are those values, with no prefix to keep {} apart",
        if pair { "both" } else { "they all" },
        index.name,
        key_listing(index),
        if pair { "the two" } else { "them" }
    ));
    let shown = if pair { 1 } else { LISTED };
    for c in found.iter().take(shown) {
        let others: Vec<&str> = c.others.iter().map(|&m| members[m].name.as_str()).collect();
        let others = match c.count - others.len() {
            0 => listing(&others),
            more => format!(
                "{} and {} more",
                others
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                monotable_model::limits::thousands(more)
            ),
        };
        d = d.note(format!(
            "pattern `{}` expects only `{}`, and its key condition selects {others} items too",
            c.pattern.name, members[c.expected].name,
        ));
    }
    if !pair && found.len() > LISTED {
        d = d.note(format!(
            "and {} more patterns like these",
            monotable_model::limits::thousands(found.len() - LISTED)
        ));
    }
    if pair {
        d.help(format!(
            "key the index on an attribute only `{}` declares, or return both from `{}` and tell them apart by an attribute",
            a.name, first.pattern.name
        ))
    } else {
        d.help("key the index on attributes each entity declares alone, or return them together from each pattern and tell them apart by an attribute")
    }
}
