//! Type and consistency rules: MT009 sort order, MT010 floating-point money, MT012 uniqueness via a GSI.

use std::collections::HashSet;

use monotable_model::{
    Attribute, AttributeType, EntityDecl, IndexKind, KeyAttributeType, KeyTest, Model, Pattern,
    Segment, TimestampFormat, Unique,
};

use super::lookup::Lookup;
use super::native::native_index;
use super::{pattern_attr, where_};
use crate::diagnostic::{Diagnostic, Rule};

pub(crate) fn check(model: &Model, lookup: &Lookup<'_>, out: &mut Vec<Diagnostic>) {
    sort_keys(model, out);
    between_bounds(model, out);
    timestamp_params(model, out);
    money(model, out);
    uniqueness(model, lookup, out);
}

/// Sort keys that sort as text, and the variables in them that would not. A key typed `N` is
/// one number (the model checks) and sorts by value, so it is not examined.
fn sort_keys(model: &Model, out: &mut Vec<Diagnostic>) {
    native_sort_keys(model, out);
    for e in &model.entities {
        let mut seen = std::collections::BTreeSet::new();
        for keys in &e.index_keys {
            let Some(sk) = &keys.sk else { continue };
            if !seen.insert(sk.attribute.clone())
                || model.key_attribute_type(&sk.attribute) == Some(KeyAttributeType::N)
            {
                continue;
            }
            for seg in sk.template.segments() {
                let Segment::Var { name, pad } = seg else {
                    continue;
                };
                let Some(a) = e.attribute(name) else { continue };
                if let Some(d) = sort_problem(
                    e,
                    a,
                    *pad,
                    &sk.attribute,
                    &sk.template.to_string(),
                    sk.span.clone(),
                ) {
                    out.push(d);
                }
            }
        }
    }
}

/// The sort attributes of native indexes: an `S` attribute sorts as text, so a timestamp in it
/// must be fixed-width UTC. (Numbers are `N` there, and sort by value.) Each attribute of each
/// member entity once, on the attribute.
fn native_sort_keys(model: &Model, out: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::BTreeSet::new();
    for index in model.indexes.iter().filter(|i| i.native) {
        for key in index
            .sort_keys
            .iter()
            .filter(|k| k.ty == KeyAttributeType::S)
        {
            let members = model.entities.iter().filter(|e| index.native_member(e));
            for e in members {
                let Some(a) = e.attribute(&key.name) else {
                    continue;
                };
                let Some(problem) = timestamp_problem(a) else {
                    continue;
                };
                if !seen.insert((e.name.as_str(), a.name.as_str())) {
                    continue;
                }
                out.push(
                    Diagnostic::warning(
                        Rule::SortOrder,
                        format!("native sort key `{}` of index `{}` holds `{}`'s timestamp `{}`, which does not sort as time", key.name, index.name, e.name, a.name),
                        a.type_span.clone(),
                    )
                    .note(format!("`{}` {problem}; an `S` key compares it as text, so the index misorders", a.name))
                    .help(format!("write `{}` as fixed-width UTC (`format = \"rfc3339-utc-millis\"`, e.g. `2024-05-01T12:00:00.000Z`)", a.name)),
                );
            }
        }
    }
}

/// Why a timestamp does not sort as time when compared as text, if it does not.
fn timestamp_problem(a: &Attribute) -> Option<&'static str> {
    if a.ty != AttributeType::Timestamp {
        return None;
    }
    match a.format {
        None => Some("has no declared `format`"),
        Some(TimestampFormat::Iso8601Naive) => Some(
            "is written without a time zone and with a variable-width fraction (Python `isoformat()` drops `.000000`)",
        ),
        Some(TimestampFormat::Rfc3339Offset) => {
            Some("carries a UTC offset, so string order is not time order")
        }
        _ => None,
    }
}

fn sort_problem(
    e: &EntityDecl,
    a: &Attribute,
    pad: Option<usize>,
    key: &str,
    template: &str,
    span: std::ops::Range<usize>,
) -> Option<Diagnostic> {
    let numeric = matches!(
        a.ty,
        AttributeType::Integer
            | AttributeType::Number
            | AttributeType::Float
            | AttributeType::Decimal
    );
    if numeric && pad.is_none() {
        return Some(
            Diagnostic::warning(
                Rule::SortOrder,
                format!(
                    "sort key `{key}` of `{}` embeds the number `{}` without padding",
                    e.name, a.name
                ),
                span,
            )
            .note("strings sort character by character: `ORDER#9` sorts after `ORDER#10`")
            .help(if a.ty == AttributeType::Integer {
                format!("zero-pad it to a fixed width: `{{{}:010}}`", a.name)
            } else {
                format!(
                    "store `{}` as integer minor units and zero-pad it: `{{{}:012}}`",
                    a.name, a.name
                )
            }),
        );
    }
    let problem = timestamp_problem(a)?;
    Some(
        Diagnostic::warning(
            Rule::SortOrder,
            format!("sort key `{key}` of `{}` uses timestamp `{}`, which does not sort as time", e.name, a.name),
            span,
        )
        .note(format!("`{}` {problem}; `{template}` will misorder", a.name))
        .help(format!("write `{}` as fixed-width UTC (`format = \"rfc3339-utc-millis\"`, e.g. `2024-05-01T12:00:00.000Z`)", a.name)),
    )
}

/// Timestamp parameters compared against sort keys must be fixed-width UTC too.
fn timestamp_params(model: &Model, out: &mut Vec<Diagnostic>) {
    for p in &model.patterns {
        let Some(sk) = &p.sk else { continue };
        let mut seen = Vec::new();
        for t in sk.condition.templates() {
            for var in t.variables() {
                let Some(a) = p.param(var) else { continue };
                if a.ty != AttributeType::Timestamp || seen.contains(&var) {
                    continue;
                }
                seen.push(var);
                let problem = match a.format {
                    None => "has no declared `format`",
                    Some(TimestampFormat::Iso8601Naive) => {
                        "has no time zone and a variable-width fraction"
                    }
                    Some(TimestampFormat::Rfc3339Offset) => "carries a UTC offset",
                    _ => continue,
                };
                out.push(
                    Diagnostic::warning(
                        Rule::SortOrder,
                        format!("sort-key condition of `{}` compares timestamp parameter `{var}`, which does not sort as time", p.name),
                        sk.span.clone(),
                    )
                    .note(format!("`{var}` {problem}; string comparison with stored keys misorders"))
                    .help(format!("declare `{var}` with `format = \"rfc3339-utc-millis\"` (or `date`) and normalise to UTC before querying")),
                );
            }
        }
    }
}

fn between_bounds(model: &Model, out: &mut Vec<Diagnostic>) {
    for p in &model.patterns {
        let Some(sk) = &p.sk else { continue };
        let (hi, op) = match &sk.condition {
            KeyTest::Between(_, hi) => (hi, "between"),
            KeyTest::Le(hi) => (hi, "<="),
            _ => continue,
        };
        let Some(Segment::Var { name, .. }) = hi.segments().last() else {
            continue;
        };
        let Some(a) = pattern_attr(model, p, name) else {
            continue;
        };
        if a.ty != AttributeType::Timestamp || a.format != Some(TimestampFormat::Date) {
            continue;
        }
        // Fine when what is written there is a day as well.
        let idx = p.index_name();
        let is_day = |e: &EntityDecl, v: &str| {
            e.attribute(v)
                .is_some_and(|x| x.format == Some(TimestampFormat::Date))
        };
        let native = native_index(model, idx).is_some();
        let written_day = p
            .returns
            .iter()
            .filter_map(|r| model.entity(&r.name))
            .any(|e| match e.key(idx).and_then(|k| k.sk.as_ref()) {
                // A native sort attribute is the value itself.
                _ if native => is_day(e, &sk.attribute),
                Some(k) => k.template.variables().any(|v| is_day(e, v)),
                None => false,
            });
        if written_day {
            continue;
        }
        out.push(
            Diagnostic::warning(
                Rule::SortOrder,
                format!("inclusive `{op}` end bound `{hi}` in `{}` drops the end day", p.name),
                sk.span.clone(),
            )
            .note(format!("`{name}` is a day (`2024-01-31`); a key with a time on that day (`2024-01-31T09:00`) sorts after it and is excluded"))
            .help(format!("end the range at the next day with `<`, or append the largest suffix: `{hi}~` (`~` sorts after digits and `T`)")),
        );
    }
}

/// MT010: a float holding money, by its name, its description or a `currency` sibling
/// (`money.rs`).
fn money(model: &Model, out: &mut Vec<Diagnostic>) {
    let mut check = |owner: &str, a: &Attribute, siblings: &[Attribute]| {
        if !a.is_float() {
            return;
        }
        let Some(why) = super::money::money(a, siblings) else {
            return;
        };
        out.push(
            Diagnostic::error(
                Rule::FloatMoney,
                format!("`{owner}.{}` holds money or an exact quantity but is typed as floating point", a.name),
                a.type_span.clone(),
            )
            .note(why.note(owner, &a.name))
            .note("binary floating point cannot represent 0.10 exactly; sums drift (0.1 + 0.2 = 0.30000000000000004)")
            .help("use `type = \"decimal\"` (a decimal type in code, `N` in DynamoDB) or `integer` minor units (cents)"),
        );
    };
    for e in &model.entities {
        for a in &e.attributes {
            check(&e.name, a, &e.attributes);
        }
    }
    for p in &model.patterns {
        for a in &p.params {
            check(&p.name, a, &p.params);
        }
    }
}

/// The GSI pattern that serves lookups by these attributes, if any: one whose partition key
/// condition (every partition attribute's, on a native index) uses one of them.
fn gsi_lookup<'m>(
    model: &'m Model,
    lookup: &Lookup<'m>,
    e: &EntityDecl,
    attrs: &[String],
) -> Option<&'m Pattern> {
    lookup.returning(&e.name).iter().copied().find(|p| {
        let Some(index) = p.index_name().and_then(|i| model.index(i)) else {
            return false;
        };
        index.kind == IndexKind::Global
            && p.key
                .iter()
                .filter(|k| !index.is_sort_attribute(&k.attribute))
                .flat_map(|k| k.condition.templates())
                .any(|t| t.variables().any(|v| attrs.iter().any(|a| a == v)))
    })
}

/// Whether the entity's primary key is built from the unique attributes only: two items with
/// the same values then have the same key, and the key itself is the guard (a create with
/// `attribute_not_exists(PK)` fails for the second).
fn key_guards(e: &EntityDecl, attrs: &[String]) -> bool {
    e.key(None).is_some_and(|k| {
        std::iter::once(&k.pk)
            .chain(k.sk.as_ref())
            .flat_map(|f| f.template.variables())
            .all(|v| attrs.iter().any(|a| a == v))
    })
}

/// The variables of the entity's primary key that are not among `attrs`.
fn other_key_vars<'e>(e: &'e EntityDecl, attrs: &[String]) -> Vec<&'e str> {
    let mut vars: Vec<&str> = e
        .key(None)
        .into_iter()
        .flat_map(|k| std::iter::once(&k.pk).chain(k.sk.as_ref()))
        .flat_map(|f| f.template.variables())
        .filter(|v| !attrs.iter().any(|a| a == v))
        .collect();
    vars.dedup();
    vars
}

/// A guard key for the help text, named after the attributes: `USERNAME#{username}`.
fn guard_key(attrs: &[String]) -> String {
    let prefix = attrs
        .first()
        .map_or("VALUE".to_string(), |a| a.to_ascii_uppercase());
    let vars: Vec<String> = attrs.iter().map(|a| format!("{{{a}}}")).collect();
    format!("{prefix}#{}", vars.join("#"))
}

/// `unique` with no guard, and the key is not built from the attributes: nothing enforces it.
fn unguarded(e: &EntityDecl, u: &Unique, attrs: &str, lookup: Option<&Pattern>) -> Diagnostic {
    let (span, note) = match lookup {
        Some(p) => (
            p.key_span(),
            format!(
                "`{}` finds `{}` by `{attrs}` through {}, which is eventually consistent and enforces nothing: two concurrent sign-ups both see no match",
                p.name,
                e.name,
                where_(p.index_name())
            ),
        ),
        None => (
            u.span.clone(),
            format!(
                "nothing stops two `{}` items with the same `{attrs}`: `{}`'s primary key is not built from it",
                e.name, e.name
            ),
        ),
    };
    Diagnostic::error(
        Rule::UniquenessViaGsi,
        format!("uniqueness of `{}` by `{attrs}` is not enforced", e.name),
        span,
    )
    .note(note)
    .help(format!(
        "add a guard entity keyed by the value (e.g. `PK = \"{}\"`), create it with a PutItem pattern whose `condition = \"not_exists\"` in the same TransactWrite as `{}`, and set `guard` on the constraint",
        guard_key(&u.attributes),
        e.name
    ))
}

/// What is wrong with one `unique` constraint, if anything.
fn constraint(
    lookup: &Lookup<'_>,
    e: &EntityDecl,
    u: &Unique,
    found: Option<&Pattern>,
) -> Option<Diagnostic> {
    let attrs = u.attributes.join("`, `");
    match u.guard.as_deref() {
        None if key_guards(e, &u.attributes) => None,
        None => Some(unguarded(e, u, &attrs, found)),
        Some(guard) if guard == e.name => (!key_guards(e, &u.attributes)).then(|| {
            Diagnostic::error(
                Rule::UniquenessViaGsi,
                format!(
                    "`{}` is its own guard for `{attrs}`, but its primary key also depends on `{}`",
                    e.name,
                    other_key_vars(e, &u.attributes).join("`, `")
                ),
                u.span.clone(),
            )
            .note(format!("`guard = \"{}\"` says the entity's own key is the guard: two items with the same `{attrs}` must have the same key", e.name))
            .help(format!("key `{}` by the value (`PK = \"{}\"`), or name a separate guard entity keyed by it", e.name, guard_key(&u.attributes)))
        }),
        Some(guard) if !lookup.written_together(&e.name, guard) => Some(
            Diagnostic::error(
                Rule::UniquenessViaGsi,
                format!("guard `{guard}` for `{}` by `{attrs}` is never written in the same transaction as `{}`", e.name, e.name),
                u.span.clone(),
            )
            .help(format!("add a TransactWrite pattern whose actions write both `{}` and `{guard}` (the guard created by a PutItem with `condition = \"not_exists\"`)", e.name)),
        ),
        Some(_) => None,
    }
}

fn uniqueness(model: &Model, lookup: &Lookup<'_>, out: &mut Vec<Diagnostic>) {
    let mut covered: HashSet<&str> = HashSet::new();
    for e in &model.entities {
        for u in &e.unique {
            let found = gsi_lookup(model, lookup, e, &u.attributes);
            if let Some(p) = found {
                covered.insert(&p.name);
            }
            out.extend(constraint(lookup, e, u, found));
        }
    }
    for p in &model.patterns {
        if !p.unique || covered.contains(p.name.as_str()) {
            continue;
        }
        let Some(index) = p.index_name().and_then(|i| model.index(i)) else {
            continue;
        };
        if index.kind != IndexKind::Global {
            continue;
        }
        out.push(
            Diagnostic::error(
                Rule::UniquenessViaGsi,
                format!("access pattern `{}` expects one result from global index `{}`", p.name, index.name),
                p.key_span(),
            )
            .note("GSI keys are not unique and GSIs are eventually consistent; nothing guarantees a single match")
            .help("declare a `unique` constraint with a `guard` entity written in the same transaction, and look the guard up with GetItem"),
        );
    }
}
