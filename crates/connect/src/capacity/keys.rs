//! Which partition a request touches: partition key values from keys and items, the partition
//! key's equality in a key condition, and the attribute names an update expression names.

use std::collections::HashMap;

use dynoxide::types::AttributeValue;
use serde_json::Value;

/// An item or a key.
pub type Item = HashMap<String, AttributeValue>;

/// A partition key value as metrics show it: a string as is, a number in DynamoDB's canonical
/// form (`1.50` and `1.5` are one partition), binary in hex.
pub fn key_string(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) => s.clone(),
        AttributeValue::N(n) => dynoxide::types::normalize_dynamo_number(n),
        AttributeValue::B(bytes) => bytes.iter().map(|b| format!("{b:02x}")).collect(),
        other => format!("{other:?}"),
    }
}

/// The partition key value of `item` under `attributes` (a multi-attribute key's values joined
/// with `|`); `None` unless the item holds every one.
pub fn partition_of(item: &Item, attributes: &[String]) -> Option<String> {
    match attributes {
        [one] => item.get(one).map(key_string),
        many => {
            let values: Option<Vec<String>> =
                many.iter().map(|a| item.get(a).map(key_string)).collect();
            values.map(|v| v.join("|"))
        }
    }
}

/// One token of an expression.
#[derive(Debug, Clone, PartialEq)]
enum Token<'a> {
    /// An attribute name, a keyword or a function name.
    Word(&'a str),
    /// `#name`.
    Name(&'a str),
    /// `:value`.
    Value(&'a str),
    /// `=`.
    Equals,
    /// Any other operator or punctuation.
    Other,
}

fn tokens(expression: &str) -> Vec<Token<'_>> {
    let bytes = expression.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if b == b'#' || b == b':' || word(b) {
            let start = i;
            i += 1;
            while i < bytes.len() && word(bytes[i]) {
                i += 1;
            }
            let text = &expression[start..i];
            out.push(match b {
                b'#' => Token::Name(text),
                b':' => Token::Value(text),
                _ => Token::Word(text),
            });
        } else if b == b'=' {
            out.push(Token::Equals);
            i += 1;
        } else {
            // `<=`, `<>`, `>=`: the `=` must not read as an equality.
            if (b == b'<' || b == b'>') && bytes.get(i + 1) == Some(&b'=') {
                i += 1;
            }
            out.push(Token::Other);
            i += 1;
        }
    }
    out
}

/// The attribute a name token stands for.
fn resolve<'a>(token: &Token<'a>, names: Option<&'a HashMap<String, String>>) -> Option<&'a str> {
    match token {
        Token::Word(w) => Some(w),
        Token::Name(n) => names.and_then(|m| m.get(*n)).map(String::as_str),
        _ => None,
    }
}

/// The partition a key condition reads: the values it requires each of `partition_keys` to
/// equal, as [`partition_of`] writes them.
pub fn key_condition_partition(
    expression: &str,
    names: Option<&HashMap<String, String>>,
    values: Option<&HashMap<String, AttributeValue>>,
    partition_keys: &[String],
) -> Option<String> {
    let tokens = tokens(expression);
    let each: Option<Vec<String>> = partition_keys
        .iter()
        .map(|k| equality(&tokens, names, values, k))
        .collect();
    each.map(|v| v.join("|"))
}

/// The value the condition requires `partition_key` to equal.
fn equality(
    tokens: &[Token<'_>],
    names: Option<&HashMap<String, String>>,
    values: Option<&HashMap<String, AttributeValue>>,
    partition_key: &str,
) -> Option<String> {
    for window in tokens.windows(3) {
        let [a, Token::Equals, b] = window else {
            continue;
        };
        let (name, value) = match (a, b) {
            (Token::Value(v), n) | (n, Token::Value(v)) => (resolve(n, names), v),
            _ => continue,
        };
        if name == Some(partition_key) {
            return values.and_then(|m| m.get(*value)).map(key_string);
        }
    }
    None
}

/// The partition key's `EQ` value(s) in a legacy `KeyConditions` map.
pub fn key_conditions_partition(conditions: &Value, partition_keys: &[String]) -> Option<String> {
    let each: Option<Vec<String>> = partition_keys
        .iter()
        .map(|k| {
            let first = conditions[k.as_str()]["AttributeValueList"].get(0)?;
            serde_json::from_value::<AttributeValue>(first.clone())
                .ok()
                .map(|v| key_string(&v))
        })
        .collect();
    each.map(|v| v.join("|"))
}

/// Whether `expression` names any of `attributes` (conservatively: anywhere in it).
pub fn names_any(
    expression: &str,
    names: Option<&HashMap<String, String>>,
    attributes: &[&str],
) -> bool {
    tokens(expression)
        .iter()
        .filter_map(|t| resolve(t, names))
        .any(|name| attributes.contains(&name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn values(pairs: &[(&str, &str)]) -> HashMap<String, AttributeValue> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), AttributeValue::S(v.to_string())))
            .collect()
    }

    fn pk() -> Vec<String> {
        vec!["PK".to_string()]
    }

    #[test]
    fn a_multi_attribute_partition_needs_every_equality() {
        let vals = values(&[(":r", "eu"), (":t", "gold")]);
        let keys = vec!["region".to_string(), "tier".to_string()];
        assert_eq!(
            key_condition_partition("region = :r AND tier = :t", None, Some(&vals), &keys)
                .as_deref(),
            Some("eu|gold")
        );
        assert_eq!(
            key_condition_partition("region = :r", None, Some(&vals), &keys),
            None
        );
        let item: Item = [("region", "eu"), ("tier", "gold")]
            .iter()
            .map(|(k, v)| (k.to_string(), AttributeValue::S(v.to_string())))
            .collect();
        assert_eq!(partition_of(&item, &keys).as_deref(), Some("eu|gold"));
    }

    #[test]
    fn the_partition_equality_is_found_in_any_order_and_spelling() {
        let vals = values(&[(":pk", "USER#1"), (":sk", "ORDER#")]);
        let names = map(&[("#p", "PK"), ("#s", "SK")]);
        for expression in [
            "PK = :pk AND begins_with(SK, :sk)",
            "#p = :pk AND #s >= :sk",
            "begins_with(#s, :sk) AND :pk = #p",
            "(#p = :pk) and SK BETWEEN :sk AND :sk",
        ] {
            assert_eq!(
                key_condition_partition(expression, Some(&names), Some(&vals), &pk()).as_deref(),
                Some("USER#1"),
                "{expression}"
            );
        }
    }

    #[test]
    fn a_sort_key_comparison_is_not_taken_for_the_partition() {
        let vals = values(&[(":a", "x"), (":b", "y")]);
        assert_eq!(
            key_condition_partition("SK <= :a AND PK = :b", None, Some(&vals), &pk()).as_deref(),
            Some("y")
        );
        assert_eq!(
            key_condition_partition("SK = :a", None, Some(&vals), &pk()),
            None
        );
    }

    #[test]
    fn numbers_that_dynamodb_stores_alike_are_one_partition() {
        let one = AttributeValue::N("1.50".into());
        let other = AttributeValue::N("001.5".into());
        assert_eq!(key_string(&one), key_string(&other));
        assert_eq!(key_string(&AttributeValue::B(vec![0xab, 1])), "ab01");
    }

    #[test]
    fn legacy_key_conditions_give_the_partition() {
        let conditions = serde_json::json!({"PK": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "A"}]}});
        assert_eq!(
            key_conditions_partition(&conditions, &pk()).as_deref(),
            Some("A")
        );
    }

    #[test]
    fn an_update_that_names_an_index_key_is_seen() {
        let names = map(&[("#g", "GSI1PK")]);
        assert!(names_any(
            "SET #g = :v, total = :t",
            Some(&names),
            &["GSI1PK"]
        ));
        assert!(names_any("REMOVE GSI1PK", None, &["GSI1PK"]));
        assert!(!names_any("SET total = total + :t", None, &["GSI1PK"]));
    }
}
