//! The items a write check writes, edited attribute by attribute with their keys rendered again
//! from the model's templates; and the model's condition clauses evaluated against them, apart
//! from the access layer: the oracle a failure's name is judged by, and what settles a clause
//! to hold or to fail (the stored item's values, the request's `{param}`s, its expected version).

use std::cmp::Ordering;

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::items::{self, Item};
use monotable_access::value::text::{template_texts, typed};
use monotable_model::{
    Attribute, AttributeType, CompareOp, ConditionClause, EntityDecl, Model, Operand, Pattern,
};

use crate::generate::{Fresh, Sample};
use crate::keys::Values;
use crate::order::compare_numbers;
use crate::values::{self, SampleValue};

/// `item` of `entity` with every key it writes from templates rendered again from its values
/// (a sparse key left out while its condition does not hold), as a sample.
pub(crate) fn rerender(model: &Model, entity: &EntityDecl, mut item: Item) -> Sample {
    let own = |name: &str| entity.attribute(name).is_some();
    for k in entity.keys.iter().filter(|k| !own(&k.attribute)) {
        item.remove(&k.attribute);
    }
    let texts = template_texts(&item);
    if let Ok(keys) = items::keys(model, &entity.name, &|n| texts.get(n).cloned()) {
        for (name, value) in keys {
            if !own(&name) {
                item.insert(name, value);
            }
        }
    }
    crate::existing::sample(model, entity, item)
}

/// `sample` with `attribute` set to `value` (removed for `None`), its keys rendered again.
pub(crate) fn with(
    model: &Model,
    entity: &EntityDecl,
    sample: &Sample,
    attribute: &str,
    value: Option<&AttributeValue>,
) -> Sample {
    let mut item = sample.item.clone();
    match value {
        Some(v) => item.insert(attribute.to_string(), v.clone()),
        None => item.remove(attribute),
    };
    rerender(model, entity, item)
}

/// `left op right` as DynamoDB evaluates a condition: strings and binary by bytes, numbers by
/// value, booleans only for (in)equality; a missing attribute or values of different types
/// satisfy only `<>`.
pub(crate) fn compare(
    left: Option<&AttributeValue>,
    op: CompareOp,
    right: &AttributeValue,
) -> bool {
    let Some(left) = left else {
        return op == CompareOp::Ne;
    };
    let ordering = match (left, right) {
        (AttributeValue::S(a), AttributeValue::S(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
        (AttributeValue::B(a), AttributeValue::B(b)) => Some(a.as_ref().cmp(b.as_ref())),
        (AttributeValue::N(a), AttributeValue::N(b)) => compare_numbers(a, b),
        _ => None,
    };
    match ordering {
        Some(o) => match op {
            CompareOp::Eq => o == Ordering::Equal,
            CompareOp::Ne => o != Ordering::Equal,
            CompareOp::Lt => o == Ordering::Less,
            CompareOp::Le => o != Ordering::Greater,
            CompareOp::Gt => o == Ordering::Greater,
            CompareOp::Ge => o != Ordering::Less,
        },
        None => {
            let equal = left == right;
            match op {
                CompareOp::Eq => equal,
                CompareOp::Ne => !equal,
                _ => false,
            }
        }
    }
}

/// What a write's request carries besides its item: `{param}` values and the version expected.
#[derive(Debug, Clone, Default)]
pub(crate) struct Request {
    /// `{param}`s (and key variables that are not the item's attributes), as text.
    pub params: Values,
    /// `expected_<attr>` of a `version(attr)` clause.
    pub expected_version: Option<i64>,
}

/// The attribute a `{param}` or literal is compared as: the pattern's declared param, else the
/// entity's attribute.
fn operand_type<'m>(
    pattern: &'m Pattern,
    entity: &'m EntityDecl,
    attribute: &str,
    operand: &Operand,
) -> Option<&'m Attribute> {
    match operand {
        Operand::Param(p) => pattern.param(p).or_else(|| entity.attribute(attribute)),
        _ => entity.attribute(attribute),
    }
}

/// The operand's value as DynamoDB receives it; `None` for a `{param}` not given.
fn operand_value(
    pattern: &Pattern,
    entity: &EntityDecl,
    attribute: &str,
    operand: &Operand,
    request: &Request,
) -> Option<AttributeValue> {
    Some(match operand {
        Operand::Bool(b) => AttributeValue::Bool(*b),
        Operand::Integer(i) => AttributeValue::N(i.to_string()),
        Operand::Text(t) => AttributeValue::S(t.clone()),
        Operand::Param(p) => {
            let text = request.params.get(p)?;
            match operand_type(pattern, entity, attribute, operand) {
                Some(a) => typed(a, text),
                None => AttributeValue::S(text.clone()),
            }
        }
    })
}

/// Whether `clause` holds of `stored` (`None`: no item) for `request`.
pub(crate) fn holds(
    pattern: &Pattern,
    entity: &EntityDecl,
    clause: &ConditionClause,
    stored: Option<&Sample>,
    request: &Request,
) -> bool {
    let value = |a: &str| stored.and_then(|s| s.item.get(a));
    match clause {
        ConditionClause::ItemExists => stored.is_some(),
        ConditionClause::ItemAbsent => stored.is_none(),
        ConditionClause::Version(a) => request
            .expected_version
            .is_some_and(|v| compare(value(a), CompareOp::Eq, &AttributeValue::N(v.to_string()))),
        ConditionClause::AttributeExists(a) => value(a).is_some(),
        ConditionClause::AttributeAbsent(a) => value(a).is_none(),
        ConditionClause::Compare {
            attribute,
            op,
            operand,
        } => operand_value(pattern, entity, attribute, operand, request)
            .is_some_and(|right| compare(value(attribute), *op, &right)),
    }
}

/// Values of `attribute` to try when settling a comparison: `current` first, then values
/// spread over its type (each enum value, integers of several widths, instants a day apart,
/// text just below and above).
fn candidates(
    fresh: &mut Fresh<'_>,
    entity: &EntityDecl,
    attribute: &Attribute,
    current: Option<&str>,
) -> Vec<String> {
    let mut out: Vec<String> = current.map(str::to_string).into_iter().collect();
    let push = |v: String, out: &mut Vec<String>| {
        if !out.contains(&v) {
            out.push(v);
        }
    };
    match attribute.ty {
        AttributeType::Enum => attribute
            .values
            .iter()
            .for_each(|v| push(v.clone(), &mut out)),
        AttributeType::Boolean => ["true", "false"]
            .iter()
            .for_each(|v| push(v.to_string(), &mut out)),
        AttributeType::Integer => values::integer_candidates(attribute, None)
            .into_iter()
            .for_each(|n| push(n.to_string(), &mut out)),
        AttributeType::Decimal => values::DECIMALS
            .iter()
            .for_each(|d| push(d.to_string(), &mut out)),
        AttributeType::Number | AttributeType::Float => {
            values::FLOATS
                .iter()
                .for_each(|d| push(d.to_string(), &mut out));
        }
        AttributeType::String => {
            if let Some(c) = current {
                let mut shorter = c.to_string();
                shorter.pop();
                push(shorter, &mut out);
                let longer = format!("{c}0");
                let fits = attribute
                    .max_length
                    .is_none_or(|m| u64::try_from(longer.len()).is_ok_and(|l| l <= m));
                if fits {
                    push(longer, &mut out);
                }
            }
        }
        _ => {}
    }
    for _ in 0..3 {
        let avoid: Vec<&str> = Vec::new();
        if let Some(v) = fresh.value(&entity.name, &attribute.name, &avoid) {
            push(v.text, &mut out);
        }
    }
    out
}

/// Settles `clause` of the write of `pattern` to hold (`want`) or to fail, changing what it
/// reads: the stored item `before` and the request. `false` when no values were found.
pub(crate) fn settle(
    fresh: &mut Fresh<'_>,
    pattern: &Pattern,
    entity: &EntityDecl,
    clause: &ConditionClause,
    want: bool,
    before: &mut Option<Sample>,
    request: &mut Request,
) -> bool {
    let model = fresh.model();
    let set = |before: &mut Option<Sample>, a: &str, v: Option<&AttributeValue>| {
        if let Some(s) = before.as_ref() {
            *before = Some(with(model, entity, s, a, v));
        }
    };
    match clause {
        // Whether the item is there is the step's to arrange: see `unit`.
        ConditionClause::ItemExists | ConditionClause::ItemAbsent => {}
        ConditionClause::Version(a) => {
            let Some(s) = before.as_ref() else {
                return !want;
            };
            let current = s.values.get(a).and_then(|v| v.parse::<i64>().ok());
            let current = match current {
                Some(v) => v,
                None => {
                    set(before, a, Some(&AttributeValue::N("1".to_string())));
                    1
                }
            };
            request.expected_version = Some(if want {
                current
            } else {
                current.saturating_add(1)
            });
        }
        ConditionClause::AttributeExists(a) | ConditionClause::AttributeAbsent(a) => {
            let present = matches!(clause, ConditionClause::AttributeExists(_)) == want;
            if present {
                let has = before.as_ref().is_some_and(|s| s.item.contains_key(a));
                if !has && let Some(v) = fresh.value(&entity.name, a, &[]) {
                    set(before, a, Some(&v.av));
                }
            } else {
                set(before, a, None);
            }
        }
        ConditionClause::Compare {
            attribute,
            op,
            operand,
        } => {
            return settle_compare(
                fresh,
                pattern,
                entity,
                (attribute, *op, operand),
                want,
                before,
                request,
            );
        }
    }
    holds(pattern, entity, clause, before.as_ref(), request) == want
}

/// A comparison settled: the stored value kept when a `{param}` can be found for it, else
/// another stored value tried.
fn settle_compare(
    fresh: &mut Fresh<'_>,
    pattern: &Pattern,
    entity: &EntityDecl,
    (attribute, op, operand): (&str, CompareOp, &Operand),
    want: bool,
    before: &mut Option<Sample>,
    request: &mut Request,
) -> bool {
    let model = fresh.model();
    let (Some(stored), Some(attr)) = (before.clone(), entity.attribute(attribute)) else {
        return false;
    };
    let current = stored.values.get(attribute).map(String::as_str);
    let xs = candidates(fresh, entity, attr, current);
    let param_type = operand_type(pattern, entity, attribute, operand);
    for x in &xs {
        let left = typed(attr, x);
        let found = match operand {
            Operand::Param(p) => {
                let ws = match param_type {
                    Some(t) if t.name != attr.name || t.ty != attr.ty => {
                        let mut ws = vec![x.clone()];
                        ws.extend(candidates(fresh, entity, attr, Some(x)));
                        ws.extend(type_values(t));
                        ws
                    }
                    _ => candidates(fresh, entity, attr, Some(x)),
                };
                ws.into_iter()
                    .find(|w| {
                        let right = param_type
                            .map_or_else(|| AttributeValue::S(w.clone()), |t| typed(t, w));
                        compare(Some(&left), op, &right) == want
                    })
                    .map(|w| Some((p.clone(), w)))
            }
            literal => {
                let right = operand_value(pattern, entity, attribute, literal, request);
                right
                    .filter(|r| compare(Some(&left), op, r) == want)
                    .map(|_| None)
            }
        };
        let Some(param) = found else { continue };
        if Some(x.as_str()) != current {
            *before = Some(with(model, entity, &stored, attribute, Some(&left)));
        }
        if let Some((p, w)) = param {
            request.params.insert(p, w);
        }
        return true;
    }
    false
}

/// A few values of a param's own type (an integer param compared with a decimal).
fn type_values(t: &Attribute) -> Vec<String> {
    match t.ty {
        AttributeType::Integer => values::integer_candidates(t, None)
            .into_iter()
            .map(|n| n.to_string())
            .collect(),
        AttributeType::Decimal => values::DECIMALS.iter().map(|d| d.to_string()).collect(),
        AttributeType::Boolean => vec!["true".into(), "false".into()],
        AttributeType::Enum => t.values.clone(),
        _ => Vec::new(),
    }
}

/// A value of `attribute` other than `current`, as a sample value.
pub(crate) fn other_value(
    fresh: &mut Fresh<'_>,
    entity: &EntityDecl,
    attribute: &str,
    current: Option<&str>,
) -> Option<SampleValue> {
    let avoid: Vec<&str> = current.into_iter().collect();
    fresh.value(&entity.name, attribute, &avoid)
}
