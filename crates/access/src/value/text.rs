//! Attribute values as key templates see them, and back: the text `{attr}` renders to (numbers
//! as written, booleans as `true`/`false`, binary as its UTF-8 text), and a model attribute's
//! text as the DynamoDB value it is stored as. What every tool that reads items without a Rust
//! type for them (`audit`, `migrate`, `verify`, `ui`) goes through.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::{Attribute, AttributeType};

use crate::items::Item;

/// The text a key template renders for `value`: strings and numbers as written, binary as
/// UTF-8, booleans as `true`/`false`; `None` for lists, maps, sets and nulls, which no template
/// can hold.
pub fn template_text(value: &AttributeValue) -> Option<String> {
    match value {
        AttributeValue::Bool(b) => Some(b.to_string()),
        other => key_text(other),
    }
}

/// The text of a key attribute's value as its template rendered it: `S` and `N` as written, `B`
/// as the text whose bytes it holds; `None` for any other type (a key is never one).
pub fn key_text(value: &AttributeValue) -> Option<String> {
    match value {
        AttributeValue::S(s) | AttributeValue::N(s) => Some(s.clone()),
        AttributeValue::B(bytes) => String::from_utf8(bytes.as_ref().to_vec()).ok(),
        _ => None,
    }
}

/// Every scalar attribute of `item` as [`template_text`].
pub fn template_texts(item: &Item) -> BTreeMap<String, String> {
    item.iter()
        .filter_map(|(name, value)| template_text(value).map(|t| (name.clone(), t)))
        .collect()
}

/// The text of `attribute` as its attribute's DynamoDB type: `BOOL` for a boolean, `N` for
/// numbers and epoch timestamps, `S` otherwise (a default `migrate` writes, a checked
/// parameter).
pub fn typed(attribute: &Attribute, text: &str) -> AttributeValue {
    match attribute.ty {
        AttributeType::Boolean => AttributeValue::Bool(text == "true"),
        AttributeType::Integer
        | AttributeType::Number
        | AttributeType::Float
        | AttributeType::Decimal => AttributeValue::N(text.to_string()),
        AttributeType::Timestamp if attribute.timestamp_format().is_number() => {
            AttributeValue::N(text.to_string())
        }
        _ => AttributeValue::S(text.to_string()),
    }
}

/// A decimal's text as the library writes it into keys (`rust_decimal`'s `normalize`):
/// `12.50` as `12.5`, `100.00` as `100`, `-0.0` as `0`; anything but a plain decimal as it is.
/// Works on text, so numbers beyond `Decimal`'s 28 digits keep every digit.
pub fn normalized_decimal(text: &str) -> String {
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    let Some((whole, fraction)) = unsigned.split_once('.') else {
        return text.to_string();
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(fraction) {
        return text.to_string();
    }
    let fraction = fraction.trim_end_matches('0');
    let number = if fraction.is_empty() {
        whole.to_string()
    } else {
        format!("{whole}.{fraction}")
    };
    let zero = number.bytes().all(|b| b == b'0' || b == b'.');
    if text.starts_with('-') && !zero {
        format!("-{number}")
    } else {
        number
    }
}

/// DynamoDB's name of a value's type: `S`, `N`, `BOOL`, `L`...
pub fn type_name(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::S(_) => "S",
        AttributeValue::N(_) => "N",
        AttributeValue::B(_) => "B",
        AttributeValue::Bool(_) => "BOOL",
        AttributeValue::Null(_) => "NULL",
        AttributeValue::Ss(_) => "SS",
        AttributeValue::Ns(_) => "NS",
        AttributeValue::Bs(_) => "BS",
        AttributeValue::L(_) => "L",
        AttributeValue::M(_) => "M",
        _ => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::primitives::Blob;

    #[test]
    fn booleans_and_numbers_render_as_templates_write_them() {
        let item: Item = [
            ("a".to_string(), AttributeValue::Bool(true)),
            ("n".to_string(), AttributeValue::N("7".into())),
            (
                "b".to_string(),
                AttributeValue::B(Blob::new(b"K#1".to_vec())),
            ),
            ("l".to_string(), AttributeValue::L(vec![])),
        ]
        .into_iter()
        .collect();
        let t = template_texts(&item);
        assert_eq!(t.get("a").map(String::as_str), Some("true"));
        assert_eq!(t.get("n").map(String::as_str), Some("7"));
        assert_eq!(t.get("b").map(String::as_str), Some("K#1"));
        assert!(!t.contains_key("l"));
        assert_eq!(
            key_text(&AttributeValue::Bool(true)),
            None,
            "no key is a boolean"
        );
    }

    #[test]
    fn decimals_normalize_as_the_library_writes_them() {
        for (text, want) in [
            ("12.50", "12.5"),
            ("100.00", "100"),
            ("-0.0", "0"),
            ("-1.10", "-1.1"),
            ("7", "7"),
            ("1e3", "1e3"),
            (
                "123456789012345678901234567890.10",
                "123456789012345678901234567890.1",
            ),
        ] {
            assert_eq!(normalized_decimal(text), want, "{text}");
        }
    }
}
