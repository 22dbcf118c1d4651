//! Item attributes as key templates see them: the text `{attr}` renders to.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::items::Item;

/// The text a key template renders for `value`: strings and numbers as written, binary as
/// UTF-8, booleans as `true`/`false`; `None` for anything a template cannot hold.
pub fn text(value: &AttributeValue) -> Option<String> {
    match value {
        AttributeValue::S(s) | AttributeValue::N(s) => Some(s.clone()),
        AttributeValue::B(b) => String::from_utf8(b.as_ref().to_vec()).ok(),
        AttributeValue::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Every scalar attribute of `item` as template text.
pub fn texts(item: &Item) -> BTreeMap<String, String> {
    item.iter()
        .filter_map(|(name, value)| text(value).map(|t| (name.clone(), t)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn booleans_and_numbers_render_as_templates_write_them() {
        let item: Item = [
            ("a".to_string(), AttributeValue::Bool(true)),
            ("n".to_string(), AttributeValue::N("7".into())),
            ("l".to_string(), AttributeValue::L(vec![])),
        ]
        .into_iter()
        .collect();
        let t = texts(&item);
        assert_eq!(t.get("a").map(String::as_str), Some("true"));
        assert_eq!(t.get("n").map(String::as_str), Some("7"));
        assert!(!t.contains_key("l"));
    }
}
