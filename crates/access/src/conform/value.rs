//! Whether one value fits its model attribute: the DynamoDB type its model type is written as,
//! an exact number where the model says `integer` or `decimal`, an enum's values, a timestamp in
//! its format (as [`crate::value::time`] writes it), and the model's bounds (`max_length`,
//! `max_items`, `cardinality`). For stored values ([`problem`], [`over`]) and for text typed as
//! a key template renders it ([`text_problem`]: a pattern's parameter). Pure.

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::{Attribute, AttributeType, TimestampFormat};

use crate::value::text::typed;
use crate::value::{format_time, parse_time};

/// Significant digits beyond which a number is taken for a binary float's text.
const FLOAT_DIGITS: usize = 15;

/// What is wrong with a value's type or content.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// Another DynamoDB type than the model type is written as (the type or types it is).
    WrongType(&'static str),
    /// A float where the model says `integer` or `decimal` (which).
    Float(&'static str),
    /// The right type, a value the model does not allow (why).
    Invalid(String),
}

/// The bound `value` breaks, as `(what, label)`.
pub fn over(a: &Attribute, value: &AttributeValue) -> Option<(String, String)> {
    if let (Some(max), AttributeValue::S(text)) = (a.max_length, value)
        && text.len() as u64 > max
    {
        let what = format!("is {} bytes, over its max_length {max}", text.len());
        return Some((what, format!("max_length = {max}")));
    }
    if let Some(max) = a.max_items {
        let count = match value {
            AttributeValue::L(v) => Some(v.len()),
            AttributeValue::M(m) => Some(m.len()),
            AttributeValue::Ss(v) | AttributeValue::Ns(v) => Some(v.len()),
            AttributeValue::Bs(v) => Some(v.len()),
            _ => None,
        };
        if let Some(n) = count.filter(|n| *n as u64 > max) {
            let what = format!("has {n} items, over its max_items {max}");
            return Some((what, format!("max_items = {max}")));
        }
    }
    if let (Some(n), AttributeType::Integer, AttributeValue::N(text)) = (a.cardinality, a.ty, value)
        && let Ok(v) = text.parse::<i128>()
        && (v < 0 || v >= i128::from(n))
    {
        let what = format!("is {v}, outside 0..{n} (cardinality {n})");
        return Some((what, format!("cardinality = {n}")));
    }
    None
}

/// What is wrong with `value` as attribute `a`; `None` when it fits.
pub fn problem(a: &Attribute, value: &AttributeValue) -> Option<Problem> {
    use AttributeValue as V;
    match (a.ty, value) {
        (AttributeType::String, V::S(_))
        | (AttributeType::Number | AttributeType::Float, V::N(_))
        | (AttributeType::Boolean, V::Bool(_))
        | (AttributeType::List, V::L(_))
        | (AttributeType::Map, V::M(_)) => None,
        (AttributeType::Integer, V::N(n)) => (!is_integer(n)).then_some(Problem::Float("integer")),
        (AttributeType::Decimal, V::N(n)) => float_artifact(n).then_some(Problem::Float("decimal")),
        (AttributeType::Decimal, V::S(text)) if is_decimal(text) => {
            float_artifact(text).then_some(Problem::Float("decimal"))
        }
        (AttributeType::Enum, V::S(text)) => enum_value(a, text),
        (AttributeType::Timestamp, _) => timestamp(a, value),
        (AttributeType::Set, _) => set(a, value),
        (ty, _) => Some(Problem::WrongType(written_as(ty))),
    }
}

/// What is wrong with `text` as a value of attribute `a` written the way key templates render
/// it (a pattern parameter typed into a form, say): numbers as decimal text, booleans as
/// `true`/`false`, timestamps in their format; `None` when it fits. Lists, maps and sets are
/// never key material and always fit.
pub fn text_problem(a: &Attribute, text: &str) -> Option<String> {
    let label = a.type_label();
    let valid = match a.ty {
        AttributeType::Number
        | AttributeType::Float
        | AttributeType::Integer
        | AttributeType::Decimal => text
            .parse::<f64>()
            .is_ok_and(|x| x.is_finite() && !text.contains(['e', 'E', 'x', 'X'])),
        AttributeType::Timestamp => !a.timestamp_format().is_number() || is_integer(text),
        AttributeType::Boolean if !matches!(text, "true" | "false") => {
            return Some(format!("`{text}` is not a boolean (`true` or `false`)"));
        }
        AttributeType::List | AttributeType::Map | AttributeType::Set => return None,
        _ => true,
    };
    if !valid {
        return Some(format!("`{text}` is not a valid {label}"));
    }
    let value = typed(a, text);
    if let Some(p) = problem(a, &value) {
        return Some(match p {
            Problem::WrongType(_) => format!("`{text}` is not a valid {label}"),
            Problem::Float(what) => format!("`{text}` is not an exact {what}"),
            Problem::Invalid(why) => format!("`{text}` is {why}"),
        });
    }
    // The model's bounds hold for a parameter as for a stored value: a shard past the
    // cardinality, say, names a partition no item is ever written to.
    over(a, &value).map(|(what, _)| format!("`{text}` {what}"))
}

/// The DynamoDB type(s) a model type is written as.
pub fn written_as(ty: AttributeType) -> &'static str {
    match ty {
        AttributeType::String | AttributeType::Enum => "S",
        AttributeType::Number
        | AttributeType::Float
        | AttributeType::Integer
        | AttributeType::Timestamp => "N",
        AttributeType::Decimal => "N, or S holding an exact decimal",
        AttributeType::Boolean => "BOOL",
        AttributeType::List => "L",
        AttributeType::Map => "M",
        AttributeType::Set => "SS, NS or BS",
    }
}

fn enum_value(a: &Attribute, text: &str) -> Option<Problem> {
    if a.values.is_empty() || a.values.iter().any(|v| v == text) {
        return None;
    }
    let values: Vec<String> = a.values.iter().map(|v| format!("`{v}`")).collect();
    Some(Problem::Invalid(format!(
        "not one of the enum's values {}",
        values.join(", ")
    )))
}

fn set(a: &Attribute, value: &AttributeValue) -> Option<Problem> {
    use AttributeValue as V;
    let expected = match a.items {
        Some(AttributeType::String | AttributeType::Enum) => "SS",
        Some(
            AttributeType::Integer
            | AttributeType::Decimal
            | AttributeType::Number
            | AttributeType::Float,
        ) => "NS",
        _ => "SS, NS or BS",
    };
    let fits = match value {
        V::Ss(_) => expected != "NS",
        V::Ns(_) => expected != "SS",
        V::Bs(_) => expected.len() > 2,
        _ => false,
    };
    (!fits).then_some(Problem::WrongType(expected))
}

/// A timestamp: a number in an epoch format, else text that parses in its format and is written
/// as the format writes it (fixed width, so keys sort as time); `rfc3339-offset` only parses.
fn timestamp(a: &Attribute, value: &AttributeValue) -> Option<Problem> {
    let format = a.timestamp_format();
    let text = match (value, format.is_number()) {
        (AttributeValue::N(text), true) | (AttributeValue::S(text), false) => text,
        (_, true) => return Some(Problem::WrongType("N")),
        (_, false) => return Some(Problem::WrongType("S")),
    };
    let fits = parse_time(text, format)
        .is_ok_and(|t| format == TimestampFormat::Rfc3339Offset || format_time(t, format) == *text);
    (!fits).then(|| Problem::Invalid(format!("not a {} timestamp", format.name())))
}

/// `-?[0-9]+`.
fn is_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `-?[0-9]+(.[0-9]+)?`.
fn is_decimal(text: &str) -> bool {
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    match unsigned.split_once('.') {
        Some((whole, fraction)) => is_integer(whole) && is_integer(fraction),
        None => is_integer(unsigned),
    }
}

/// Looks like a binary float's text: an exponent, or more significant digits than a decimal
/// typed by hand has (a double prints up to 17: `0.30000000000000004`).
pub fn float_artifact(text: &str) -> bool {
    if text.contains(['e', 'E']) {
        return true;
    }
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    let significant = digits.trim_start_matches('0').trim_end_matches('0');
    significant.len() > FLOAT_DIGITS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attribute(ty: AttributeType) -> Attribute {
        Attribute {
            name: "a".into(),
            ty,
            required: true,
            values: Vec::new(),
            format: None,
            items: None,
            max_items: None,
            max_length: None,
            cardinality: None,
            money: false,
            description: None,
            default: None,
            span: 0..0,
            type_span: 0..0,
        }
    }

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(text.into())
    }

    fn s(text: &str) -> AttributeValue {
        AttributeValue::S(text.into())
    }

    #[test]
    fn typed_text_is_checked_as_templates_render_it() {
        let integer = attribute(AttributeType::Integer);
        assert_eq!(text_problem(&integer, "42"), None);
        assert!(text_problem(&integer, "4.5").is_some());
        assert!(text_problem(&integer, "forty").is_some());
        assert!(text_problem(&integer, "1e3").is_some());
        let mut stamp = attribute(AttributeType::Timestamp);
        assert_eq!(text_problem(&stamp, "2024-01-02T03:04:05.000Z"), None);
        assert!(text_problem(&stamp, "yesterday").is_some());
        stamp.format = Some(TimestampFormat::EpochSeconds);
        assert_eq!(text_problem(&stamp, "1700000000"), None);
        assert!(text_problem(&stamp, "2024-01-02").is_some());
        let mut status = attribute(AttributeType::Enum);
        status.values = vec!["PENDING".into(), "SHIPPED".into()];
        assert_eq!(text_problem(&status, "SHIPPED"), None);
        let why = text_problem(&status, "LOST").unwrap();
        assert!(why.contains("`PENDING`"), "{why}");
        assert!(text_problem(&attribute(AttributeType::Boolean), "yes").is_some());
        assert_eq!(
            text_problem(&attribute(AttributeType::String), "anything"),
            None
        );
    }

    #[test]
    fn typed_text_keeps_the_models_bounds() {
        let mut shard = attribute(AttributeType::Integer);
        shard.cardinality = Some(8);
        assert_eq!(text_problem(&shard, "0"), None);
        assert_eq!(text_problem(&shard, "7"), None);
        for outside in ["8", "99", "-1"] {
            let why = text_problem(&shard, outside).unwrap();
            assert!(why.contains("cardinality 8"), "{why}");
        }
        let mut name = attribute(AttributeType::String);
        name.max_length = Some(3);
        assert_eq!(text_problem(&name, "abc"), None);
        let why = text_problem(&name, "abcd").unwrap();
        assert!(why.contains("max_length 3"), "{why}");
    }

    #[test]
    fn integers_are_integral_numbers() {
        let a = attribute(AttributeType::Integer);
        assert_eq!(problem(&a, &n("42")), None);
        assert_eq!(problem(&a, &n("-7")), None);
        assert_eq!(problem(&a, &n("2.5")), Some(Problem::Float("integer")));
        assert_eq!(problem(&a, &n("1e3")), Some(Problem::Float("integer")));
        assert_eq!(problem(&a, &s("3")), Some(Problem::WrongType("N")));
    }

    #[test]
    fn decimals_are_exact_numbers_or_decimal_text() {
        let a = attribute(AttributeType::Decimal);
        assert_eq!(problem(&a, &n("12.50")), None);
        assert_eq!(problem(&a, &s("9.99")), None);
        assert_eq!(problem(&a, &n("100000000000.25")), None);
        assert_eq!(
            problem(&a, &n("0.30000000000000004")),
            Some(Problem::Float("decimal"))
        );
        assert_eq!(
            problem(&a, &s("0.30000000000000004")),
            Some(Problem::Float("decimal"))
        );
        assert_eq!(problem(&a, &n("1E-7")), Some(Problem::Float("decimal")));
        assert!(matches!(
            problem(&a, &s("ten")),
            Some(Problem::WrongType(_))
        ));
        assert!(matches!(
            problem(&a, &AttributeValue::Bool(true)),
            Some(Problem::WrongType(_))
        ));
    }

    #[test]
    fn scalars_and_collections_have_their_dynamodb_types() {
        let cases = [
            (AttributeType::String, s("x"), n("1")),
            (AttributeType::Number, n("1.5"), s("1.5")),
            (AttributeType::Float, n("1e3"), s("x")),
            (
                AttributeType::Boolean,
                AttributeValue::Bool(false),
                s("true"),
            ),
            (AttributeType::List, AttributeValue::L(vec![]), s("[]")),
            (
                AttributeType::Map,
                AttributeValue::M(Default::default()),
                AttributeValue::L(vec![]),
            ),
            (
                AttributeType::Set,
                AttributeValue::Ss(vec!["a".into()]),
                AttributeValue::L(vec![]),
            ),
        ];
        for (ty, good, bad) in cases {
            let a = attribute(ty);
            assert_eq!(problem(&a, &good), None, "{ty:?}");
            assert!(
                matches!(problem(&a, &bad), Some(Problem::WrongType(_))),
                "{ty:?}"
            );
        }
        let mut tags = attribute(AttributeType::Set);
        tags.items = Some(AttributeType::String);
        assert_eq!(
            problem(&tags, &AttributeValue::Ns(vec!["1".into()])),
            Some(Problem::WrongType("SS"))
        );
    }

    #[test]
    fn enums_take_their_values_only() {
        let mut a = attribute(AttributeType::Enum);
        a.values = vec!["PAID".into(), "SHIPPED".into()];
        assert_eq!(problem(&a, &s("PAID")), None);
        assert!(matches!(problem(&a, &s("LOST")), Some(Problem::Invalid(_))));
        assert_eq!(problem(&a, &n("1")), Some(Problem::WrongType("S")));
    }

    #[test]
    fn timestamps_are_written_in_their_format() {
        let mut a = attribute(AttributeType::Timestamp);
        assert_eq!(problem(&a, &s("2024-05-01T12:00:00.000Z")), None);
        for bad in ["2024-05-01T12:00:00Z", "2024-05-01 12:00:00", "yesterday"] {
            assert!(
                matches!(problem(&a, &s(bad)), Some(Problem::Invalid(_))),
                "{bad}"
            );
        }
        assert_eq!(problem(&a, &n("1714564800")), Some(Problem::WrongType("S")));
        a.format = Some(TimestampFormat::EpochSeconds);
        assert_eq!(problem(&a, &n("1714564800")), None);
        assert!(matches!(
            problem(&a, &n("1714564800.5")),
            Some(Problem::Invalid(_))
        ));
        assert_eq!(problem(&a, &s("1714564800")), Some(Problem::WrongType("N")));
        a.format = Some(TimestampFormat::Date);
        assert_eq!(problem(&a, &s("2024-05-01")), None);
        assert!(problem(&a, &s("2024-5-1")).is_some());
    }

    #[test]
    fn bounds_are_the_models() {
        let mut name = attribute(AttributeType::String);
        name.max_length = Some(3);
        assert_eq!(over(&name, &s("abc")), None);
        assert!(over(&name, &s("abcd")).is_some());
        // Bytes, not characters.
        assert!(over(&name, &s("éé")).is_some());
        let mut shard = attribute(AttributeType::Integer);
        shard.cardinality = Some(8);
        assert_eq!(over(&shard, &n("7")), None);
        assert!(over(&shard, &n("8")).is_some());
        assert!(over(&shard, &n("-1")).is_some());
        let mut tags = attribute(AttributeType::List);
        tags.max_items = Some(1);
        assert_eq!(over(&tags, &AttributeValue::L(vec![s("a")])), None);
        let (what, _) = over(&tags, &AttributeValue::L(vec![s("a"), s("b")])).unwrap();
        assert_eq!(what, "has 2 items, over its max_items 1");
    }

    #[test]
    fn float_artifacts_are_long_or_exponential() {
        assert!(float_artifact("0.30000000000000004"));
        assert!(float_artifact("0.1000000000000000055511151231257827"));
        assert!(float_artifact("1e-7"));
        assert!(!float_artifact("19.99"));
        assert!(!float_artifact("1000000000000000000000"));
        assert!(!float_artifact("0.000000000001"));
    }
}
