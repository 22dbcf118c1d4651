//! Items between the SDK and `check::cost`: DynamoDB JSON for `item_size`, the engine's
//! `ConsumedCapacity` as `Units`, and the predicted units of writing or updating an item.

use aws_sdk_dynamodb::types::{AttributeValue, ConsumedCapacity};
use monotable_access::items::Item;
use monotable_check::cost::{IndexUnits, Units, actual_entry_bytes, item_size, write_units};
use monotable_model::{Model, ProjectionType};
use serde_json::Value;

use super::report::units;

/// The engine's figure for our table, indexes in model order (unknown ones after).
pub(super) fn engine_units(model: &Model, capacity: &ConsumedCapacity) -> Units {
    let mut found: Vec<(String, f64)> = capacity
        .global_secondary_indexes()
        .into_iter()
        .chain(capacity.local_secondary_indexes())
        .flat_map(|m| m.iter())
        .map(|(name, c)| (name.clone(), c.capacity_units().unwrap_or(0.0)))
        .collect();
    let position = |name: &str| {
        model
            .indexes
            .iter()
            .position(|i| i.name == name)
            .unwrap_or(usize::MAX)
    };
    found.sort_by(|a, b| (position(&a.0), &a.0).cmp(&(position(&b.0), &b.0)));
    Units {
        total: capacity.capacity_units().unwrap_or(0.0),
        table: capacity
            .table()
            .and_then(|t| t.capacity_units())
            .unwrap_or(0.0),
        indexes: found
            .into_iter()
            .map(|(index, units)| IndexUnits { index, units })
            .collect(),
    }
}

/// Standard base64 (DynamoDB JSON carries binary as base64).
pub(super) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// An attribute value in DynamoDB JSON (`{"S": "..."}`).
pub fn value_json(value: &AttributeValue) -> Value {
    let strings = |v: &[String]| Value::from(v.to_vec());
    match value {
        AttributeValue::S(s) => serde_json::json!({ "S": s }),
        AttributeValue::N(n) => serde_json::json!({ "N": n }),
        AttributeValue::B(b) => serde_json::json!({ "B": base64(b.as_ref()) }),
        AttributeValue::Bool(b) => serde_json::json!({ "BOOL": b }),
        AttributeValue::Null(_) => serde_json::json!({ "NULL": true }),
        AttributeValue::Ss(v) => serde_json::json!({ "SS": strings(v) }),
        AttributeValue::Ns(v) => serde_json::json!({ "NS": strings(v) }),
        AttributeValue::Bs(v) => {
            serde_json::json!({ "BS": v.iter().map(|b| base64(b.as_ref())).collect::<Vec<_>>() })
        }
        AttributeValue::L(v) => {
            serde_json::json!({ "L": v.iter().map(value_json).collect::<Vec<_>>() })
        }
        AttributeValue::M(m) => serde_json::json!({ "M": item_json(m) }),
        // A type this SDK version does not know: sized as nothing rather than guessed.
        _ => serde_json::json!({ "NULL": true }),
    }
}

/// An item in DynamoDB JSON, for `check::cost::item_size`.
pub fn item_json(item: &Item) -> Value {
    Value::Object(
        item.iter()
            .map(|(name, value)| (name.clone(), value_json(value)))
            .collect(),
    )
}

/// `check::cost`'s units of writing (creating, or deleting) `item`: the table, doubled when
/// transactional, and one write of its entry in every index it is in (never doubled).
pub(super) fn write_prediction(model: &Model, item: &Value, transactional: bool) -> (u64, Units) {
    let size = item_size(item).unwrap_or(0);
    let indexes = model
        .indexes
        .iter()
        .filter_map(|i| {
            actual_entry_bytes(model, Some(&i.name), item).map(|entry| IndexUnits {
                index: i.name.clone(),
                units: write_units(entry, false),
            })
        })
        .collect();
    (size, units(write_units(size, transactional), indexes))
}

/// The attributes `index` holds of `item` (DynamoDB JSON), or `None` when the item is not in it:
/// the whole item for `ALL`, else the table and index keys and the included attributes.
fn entry(model: &Model, index: &str, item: &Value) -> Option<serde_json::Map<String, Value>> {
    let index = model.index(index)?;
    let object = item.as_object()?;
    let index_keys: Vec<&str> = std::iter::once(index.partition_key.as_str())
        .chain(index.sort_key.as_deref())
        .collect();
    if index_keys.iter().any(|k| !object.contains_key(*k)) {
        return None;
    }
    if index.projection == ProjectionType::All {
        return Some(object.clone());
    }
    let mut names: Vec<&str> = vec![model.table.partition_key.name.as_str()];
    names.extend(model.table.sort_key.as_ref().map(|k| k.name.as_str()));
    names.extend(index_keys);
    if index.projection == ProjectionType::Include {
        names.extend(index.include.iter().map(String::as_str));
    }
    Some(
        names
            .into_iter()
            .filter_map(|n| object.get(n).map(|v| (n.to_string(), v.clone())))
            .collect(),
    )
}

/// `check::cost`'s units of an update from `old` to `new` (DynamoDB JSON), by the documented
/// rules: the table on the larger of the two items; per index, a put of the new entry when the
/// item enters it, a delete of the old one when it leaves, both when an index key changes, one
/// write of the larger entry when only projected attributes change, nothing otherwise. Each entry
/// is sized by `actual_entry_bytes`.
pub(super) fn update_prediction(model: &Model, old: &Value, new: &Value) -> (u64, Units) {
    let old_size = item_size(old).unwrap_or(0);
    let new_size = item_size(new).unwrap_or(0);
    let table = write_units(old_size, false).max(write_units(new_size, false));
    let mut indexes = Vec::new();
    for index in &model.indexes {
        let name = index.name.as_str();
        let size = |item: &Value| actual_entry_bytes(model, Some(name), item).unwrap_or(0);
        let key = |item: &Value| {
            [
                Some(index.partition_key.as_str()),
                index.sort_key.as_deref(),
            ]
            .into_iter()
            .flatten()
            .map(|k| item.get(k).cloned())
            .collect::<Vec<_>>()
        };
        let units = match (entry(model, name, old), entry(model, name, new)) {
            (None, None) => 0.0,
            (None, Some(_)) => write_units(size(new), false),
            (Some(_), None) => write_units(size(old), false),
            (Some(_), Some(_)) if key(old) != key(new) => {
                write_units(size(old), false) + write_units(size(new), false)
            }
            (Some(a), Some(b)) if a == b => 0.0,
            (Some(_), Some(_)) => write_units(size(old), false).max(write_units(size(new), false)),
        };
        if units > 0.0 {
            indexes.push(IndexUnits {
                index: index.name.clone(),
                units,
            });
        }
    }
    (old_size.max(new_size), units(table, indexes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_alphabet() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }
}
