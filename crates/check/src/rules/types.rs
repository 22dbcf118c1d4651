//! Type and consistency rules: MT009 sort order, MT010 floating-point money, MT012 uniqueness via a GSI.

use monotable_model::{
    Attribute, AttributeType, Condition, Entity, IndexKind, Model, Operation, Pattern, Segment,
    TimestampFormat,
};

use super::{pattern_attr, where_};
use crate::diagnostic::{Diagnostic, Rule};

pub(crate) fn check(model: &Model, out: &mut Vec<Diagnostic>) {
    sort_keys(model, out);
    between_bounds(model, out);
    timestamp_params(model, out);
    money(model, out);
    uniqueness(model, out);
}

fn sort_keys(model: &Model, out: &mut Vec<Diagnostic>) {
    for e in &model.entities {
        let mut seen = std::collections::BTreeSet::new();
        for keys in &e.index_keys {
            let Some(sk) = &keys.sk else { continue };
            if !seen.insert(sk.attribute.clone()) {
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

fn sort_problem(
    e: &Entity,
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
    if a.ty == AttributeType::Timestamp {
        let problem = match a.format {
            None => Some("has no declared `format`"),
            Some(TimestampFormat::Iso8601Naive) => Some(
                "is written without a time zone and with a variable-width fraction (Python `isoformat()` drops `.000000`)",
            ),
            Some(TimestampFormat::Rfc3339Offset) => {
                Some("carries a UTC offset, so string order is not time order")
            }
            _ => None,
        };
        if let Some(problem) = problem {
            return Some(
                Diagnostic::warning(
                    Rule::SortOrder,
                    format!("sort key `{key}` of `{}` uses timestamp `{}`, which does not sort as time", e.name, a.name),
                    span,
                )
                .note(format!("`{}` {problem}; `{template}` will misorder", a.name))
                .help(format!("write `{}` as fixed-width UTC (`format = \"rfc3339-utc-millis\"`, e.g. `2024-05-01T12:00:00.000Z`)", a.name)),
            );
        }
    }
    None
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
            Condition::Between(_, hi) => (hi, "between"),
            Condition::Le(hi) => (hi, "<="),
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
        let written_day = p
            .returns
            .iter()
            .filter_map(|r| model.entity(&r.name))
            .any(|e| {
                e.key(idx).and_then(|k| k.sk.as_ref()).is_some_and(|k| {
                    k.template.variables().any(|v| {
                        e.attribute(v)
                            .is_some_and(|x| x.format == Some(TimestampFormat::Date))
                    })
                })
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

const MONEY_WORDS: [&str; 18] = [
    "price", "total", "amount", "cost", "balance", "subtotal", "tax", "fee", "discount",
    "quantity", "qty", "money", "revenue", "payment", "refund", "credit", "debit", "charge",
];

fn looks_like_money(a: &Attribute) -> bool {
    let lower = a.name.to_ascii_lowercase();
    a.money || MONEY_WORDS.iter().any(|w| lower.contains(w))
}

fn money(model: &Model, out: &mut Vec<Diagnostic>) {
    let mut check = |owner: &str, a: &Attribute| {
        if a.is_float() && looks_like_money(a) {
            out.push(
                Diagnostic::error(
                    Rule::FloatMoney,
                    format!("`{owner}.{}` holds money or an exact quantity but is typed as floating point", a.name),
                    a.type_span.clone(),
                )
                .note("binary floating point cannot represent 0.10 exactly; sums drift (0.1 + 0.2 = 0.30000000000000004)")
                .help("use `type = \"decimal\"` (a decimal type in code, `N` in DynamoDB) or `integer` minor units (cents)"),
            );
        }
    };
    for e in &model.entities {
        for a in &e.attributes {
            check(&e.name, a);
        }
    }
    for p in &model.patterns {
        for a in &p.params {
            check(&p.name, a);
        }
    }
}

/// The GSI pattern that serves lookups by these attributes, if any.
fn gsi_lookup<'m>(model: &'m Model, e: &Entity, attrs: &[String]) -> Option<&'m Pattern> {
    model.patterns.iter().find(|p| {
        p.returns.iter().any(|r| r.name == e.name)
            && p.index_name()
                .and_then(|i| model.index(i))
                .is_some_and(|i| i.kind == IndexKind::Global)
            && p.pk.as_ref().is_some_and(|k| {
                k.condition
                    .templates()
                    .iter()
                    .any(|t| t.variables().any(|v| attrs.iter().any(|a| a == v)))
            })
    })
}

fn written_together(model: &Model, a: &str, b: &str) -> bool {
    model.patterns.iter().any(|p| {
        p.operation == Operation::TransactWrite
            && p.writes.iter().any(|w| w.entity == a)
            && p.writes.iter().any(|w| w.entity == b)
    })
}

fn uniqueness(model: &Model, out: &mut Vec<Diagnostic>) {
    let mut covered: Vec<&str> = Vec::new();
    for e in &model.entities {
        for u in &e.unique {
            let attrs = u.attributes.join("`, `");
            let lookup = gsi_lookup(model, e, &u.attributes);
            if let Some(p) = lookup {
                covered.push(&p.name);
            }
            match &u.guard {
                None => {
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
                                "nothing stops two `{}` items with the same `{attrs}`",
                                e.name
                            ),
                        ),
                    };
                    out.push(
                        Diagnostic::error(
                            Rule::UniquenessViaGsi,
                            format!("uniqueness of `{}` by `{attrs}` is not enforced", e.name),
                            span,
                        )
                        .note(note)
                        .help(format!(
                            "add a guard entity keyed by the value (e.g. `PK = \"EMAIL#{{{}}}\"`), write it with `attribute_not_exists(PK)` in the same TransactWrite as `{}`, and set `guard` on the constraint",
                            u.attributes.first().map_or("value", String::as_str),
                            e.name
                        )),
                    );
                }
                Some(guard) if !written_together(model, &e.name, guard) => {
                    out.push(
                        Diagnostic::error(
                            Rule::UniquenessViaGsi,
                            format!("guard `{guard}` for `{}` by `{attrs}` is never written in the same transaction as `{}`", e.name, e.name),
                            u.span.clone(),
                        )
                        .help(format!("add a TransactWrite pattern whose `writes` include both `{}` and `{guard}`", e.name)),
                    );
                }
                Some(_) => {}
            }
        }
    }
    for p in &model.patterns {
        if !p.unique || covered.contains(&p.name.as_str()) {
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
