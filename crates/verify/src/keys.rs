//! A sample's keys as requests carry them: each key attribute in its declared type, a GetItem's
//! key rendered from parameter values (`Values`), and a key value as
//! text. Shared by the pattern run
//! (`run`), the loader and the load generator (`load`), the capacity cross-check and the
//! verdicts, so none of them depends on another for it.

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::items::Item;
use monotable_model::{KeyTest, Model, Pattern};

/// Parameter (template variable) values of one request.
pub type Values = std::collections::BTreeMap<String, String>;

/// The item with every key attribute (the table's and each index's) in its declared type: the
/// samples hold rendered keys as text, which a table or index with an `N` or `B` key refuses.
pub(crate) fn typed_keys(model: &Model, item: &Item) -> Item {
    let mut item = item.clone();
    for name in model.key_attribute_names() {
        if let Some(AttributeValue::S(text)) = item.get(name) {
            let typed = monotable_access::items::key_value(model, name, text.clone());
            item.insert(name.to_string(), typed);
        }
    }
    item
}

/// A key attribute's value as text (its `S`, `N` or `B`), or its debug form.
pub(crate) fn key_text(value: &AttributeValue) -> String {
    monotable_access::value::key_text(value).unwrap_or_else(|| format!("{value:?}"))
}

/// The key of a GetItem pattern rendered from `values`.
pub(crate) fn get_key(pattern: &Pattern, values: &Values) -> Result<Vec<(String, String)>, String> {
    let lookup = |n: &str| values.get(n).cloned();
    let mut key = Vec::new();
    for cond in pattern.pk.iter().chain(pattern.sk.iter()) {
        let KeyTest::Eq(t) = &cond.condition else {
            return Err(format!("`{}` is not an equality", cond.attribute));
        };
        key.push((
            cond.attribute.clone(),
            t.render(&lookup).map_err(|e| e.to_string())?,
        ));
    }
    if key.is_empty() {
        return Err("the pattern has no key".to_string());
    }
    Ok(key)
}
