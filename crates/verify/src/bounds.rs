//! Range bounds that include the item they are meant to include, whatever follows the bounded
//! variable in its key.
//!
//! A bound template (`TYPE#{kind}#{to}`) is lined up with the template the target item's sort
//! key was written with (`TYPE#{kind}#{ts}#{eventId}`): each bound variable takes the value of
//! the written variable in the same place (`kind`, `ts`). An upper bound then steps just past
//! that value when the key goes on after it (`#{eventId}` sorts after the bare `{ts}`) or the
//! comparison is strict, and a strict lower bound steps just before it, so the target is inside.

use monotable_model::{Attribute, AttributeType, KeyTemplate, KeyTest, Model, Pattern, Segment};

use crate::generate::Sample;
use crate::keys::Values;
use crate::values;

/// Which end of a range a bound template is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// `>=`, or the start of `between`: the value itself is inside.
    Lower,
    /// `>`: inside when the key goes on after the value, else one step below it.
    Above,
    /// `<=`, or the end of `between`: inside when the key ends with the value.
    Upper,
    /// `<`: never the value itself.
    Below,
}

/// The bound templates of a range condition, with their end.
fn ends(condition: &KeyTest) -> Vec<(&KeyTemplate, End)> {
    match condition {
        KeyTest::Between(lo, hi) => vec![(lo, End::Lower), (hi, End::Upper)],
        KeyTest::Ge(t) => vec![(t, End::Lower)],
        KeyTest::Gt(t) => vec![(t, End::Above)],
        KeyTest::Le(t) => vec![(t, End::Upper)],
        KeyTest::Lt(t) => vec![(t, End::Below)],
        KeyTest::Eq(_) | KeyTest::BeginsWith(_) => Vec::new(),
    }
}

/// One character of a written template, or one of its variables.
enum Piece<'t> {
    Char(char),
    Var(&'t str),
}

/// The pairs (bound variable, written variable, the written key goes on after it) where the
/// bound template lines up with the written one, up to the first place they differ.
fn line_up<'t>(bound: &'t KeyTemplate, written: &'t KeyTemplate) -> Vec<(&'t str, &'t str, bool)> {
    let mut pieces = written
        .segments()
        .iter()
        .flat_map(|s| match s {
            Segment::Literal(t) => t.chars().map(Piece::Char).collect::<Vec<_>>(),
            Segment::Var { name, .. } => vec![Piece::Var(name)],
        })
        .peekable();
    let mut out = Vec::new();
    for segment in bound.segments() {
        match segment {
            Segment::Literal(text) => {
                for c in text.chars() {
                    if !matches!(pieces.next(), Some(Piece::Char(w)) if w == c) {
                        return out;
                    }
                }
            }
            Segment::Var { name, .. } => match pieces.next() {
                Some(Piece::Var(w)) => out.push((name.as_str(), w, pieces.peek().is_some())),
                _ => return out,
            },
        }
    }
    out
}

/// Whether a value written for `written` is a valid value of `param`: same type and format.
fn same_kind(param: &Attribute, written: &Attribute) -> bool {
    param.ty == written.ty
        && (param.ty != AttributeType::Timestamp
            || param.timestamp_format() == written.timestamp_format())
}

/// The next value of `attr`'s type after `value` (`up`) or before it, when there is one.
fn step(attr: &Attribute, value: &str, up: bool) -> Option<String> {
    let sign = if up { 1 } else { -1 };
    match attr.ty {
        AttributeType::Timestamp => {
            let format = attr.timestamp_format();
            let ms = values::parse_instant(value, format)?;
            let next = ms.checked_add(sign * format.resolution_millis())?;
            Some(values::format_instant(next, format).text)
        }
        AttributeType::Integer => Some(value.parse::<i64>().ok()?.checked_add(sign)?.to_string()),
        AttributeType::Enum => {
            let mut sorted: Vec<&String> = attr.values.iter().collect();
            sorted.sort();
            let at = sorted.iter().position(|v| *v == value)?;
            let next = if up {
                at.checked_add(1)?
            } else {
                at.checked_sub(1)?
            };
            sorted.get(next).map(|v| v.to_string())
        }
        AttributeType::Boolean => match (value, up) {
            ("false", true) => Some("true".to_string()),
            ("true", false) => Some("false".to_string()),
            _ => None,
        },
        // Every text that starts with `value` sorts before it with the largest character added.
        AttributeType::String if up => Some(format!("{value}{}", char::MAX)),
        _ => None,
    }
}

/// Values for the variables of the pattern's range condition that put `target` inside it.
pub fn aligned(model: &Model, pattern: &Pattern, target: &Sample) -> Values {
    let mut out = Values::new();
    let Some(condition) = &pattern.sk else {
        return out;
    };
    let Some(entity) = model.entity(&target.entity) else {
        return out;
    };
    // A native key attribute is the item's own value: written as `{attribute}`.
    let written = match entity.key_field(&condition.attribute) {
        Some(field) => field.template.clone(),
        None if entity.attribute(&condition.attribute).is_some() => {
            match KeyTemplate::parse(&format!("{{{}}}", condition.attribute)) {
                Ok(template) => template,
                Err(_) => return out,
            }
        }
        None => return out,
    };
    for (bound, end) in ends(&condition.condition) {
        let pairs = line_up(bound, &written);
        for (i, (var, w, more)) in pairs.iter().copied().enumerate() {
            let param = pattern.variable(model, var);
            let (Some(param), Some(attr)) = (param, entity.attribute(w)) else {
                continue;
            };
            let Some(value) = target.values.get(w).filter(|_| same_kind(param, attr)) else {
                continue;
            };
            let last = i + 1 == pairs.len();
            let moved = match end {
                End::Upper if last && more => step(param, value, true),
                End::Below if last => step(param, value, true),
                End::Above if last && !more => step(param, value, false),
                _ => Some(value.clone()),
            };
            if let Some(v) = moved {
                out.entry(var.to_string()).or_insert(v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
