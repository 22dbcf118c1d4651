//! Size estimates from the model: attribute values, rendered keys, index entries.
//!
//! The model states whole-item sizes (`traffic.entities.X.item_size_bytes`); a `KEYS_ONLY` or
//! `INCLUDE` index entry is estimated from the attributes it holds, each sized from its type
//! (table in `docs/cost.md`), and never exceeds the item size.

use monotable_model::{
    Attribute, AttributeType, Entity, Index, KeyTemplate, Model, ProjectionType, Segment,
    TimestampFormat,
};

use super::size::{COLLECTION_OVERHEAD_BYTES, number_size};
use crate::num;

/// Estimated string length when the model gives no bound (a ULID is 26).
pub const DEFAULT_STRING_BYTES: u64 = 26;
/// Estimated elements of an unbounded list, map or set.
pub const DEFAULT_COLLECTION_ITEMS: u64 = 4;

/// Estimated text length of a timestamp in `format`.
fn timestamp_text(format: Option<TimestampFormat>) -> u64 {
    format.unwrap_or_default().text_bytes()
}

fn is_epoch(format: Option<TimestampFormat>) -> bool {
    format.is_some_and(TimestampFormat::is_number)
}

fn string_bytes(attr: &Attribute) -> u64 {
    attr.max_length
        .map_or(DEFAULT_STRING_BYTES, |m| m.min(DEFAULT_STRING_BYTES))
}

fn enum_bytes(attr: &Attribute) -> u64 {
    attr.values
        .iter()
        .map(|v| num::count(v.len()))
        .max()
        .unwrap_or(DEFAULT_STRING_BYTES)
}

/// Estimated size of one scalar of type `ty` stored as an attribute value.
fn scalar_value_bytes(ty: AttributeType, attr: &Attribute) -> u64 {
    match ty {
        AttributeType::String => string_bytes(attr),
        AttributeType::Enum => enum_bytes(attr),
        // Up to 6 significant digits.
        AttributeType::Integer => number_size("123456"),
        // Up to 10 significant digits (money with cents, measurements).
        AttributeType::Number | AttributeType::Float | AttributeType::Decimal => {
            number_size("1234567890")
        }
        AttributeType::Boolean => 1,
        AttributeType::Timestamp if is_epoch(attr.format) => {
            number_size(&"1".repeat(usize::try_from(timestamp_text(attr.format)).unwrap_or(0)))
        }
        AttributeType::Timestamp => timestamp_text(attr.format),
        AttributeType::List | AttributeType::Map | AttributeType::Set => DEFAULT_STRING_BYTES,
    }
}

/// Estimated size of an attribute's value (without its name).
pub fn value_bytes(attr: &Attribute) -> u64 {
    let elements = || attr.max_items.unwrap_or(DEFAULT_COLLECTION_ITEMS);
    let element = || scalar_value_bytes(attr.items.unwrap_or(AttributeType::String), attr);
    match attr.ty {
        AttributeType::List => {
            COLLECTION_OVERHEAD_BYTES.saturating_add(elements().saturating_mul(1 + element()))
        }
        AttributeType::Map => COLLECTION_OVERHEAD_BYTES.saturating_add(
            elements().saturating_mul(1 + DEFAULT_STRING_BYTES / 2 + DEFAULT_STRING_BYTES),
        ),
        AttributeType::Set => elements().saturating_mul(element()),
        ty => scalar_value_bytes(ty, attr),
    }
}

/// Estimated text length of one variable rendered into a key.
fn rendered_var_bytes(attr: Option<&Attribute>, pad: Option<usize>) -> u64 {
    let natural = match attr {
        None => DEFAULT_STRING_BYTES,
        Some(a) => match a.ty {
            AttributeType::String => string_bytes(a),
            AttributeType::Enum => enum_bytes(a),
            AttributeType::Integer => 6,
            AttributeType::Number | AttributeType::Float | AttributeType::Decimal => 10,
            AttributeType::Boolean => 5,
            AttributeType::Timestamp => timestamp_text(a.format),
            AttributeType::List | AttributeType::Map | AttributeType::Set => DEFAULT_STRING_BYTES,
        },
    };
    pad.map_or(natural, |p| natural.max(num::count(p)))
}

/// Estimated length of a key rendered from `template` with the entity's attribute values.
pub fn rendered_bytes(template: &KeyTemplate, entity: &Entity) -> u64 {
    num::total(template.segments().iter().map(|s| match s {
        Segment::Literal(text) => num::count(text.len()),
        Segment::Var { name, pad } => rendered_var_bytes(entity.attribute(name), *pad),
    }))
}

/// Estimated size of one key attribute (name + value) the entity writes through a template; 0
/// when it writes none. A key typed `N` is stored as a number.
pub fn key_field_bytes(model: &Model, entity: &Entity, attribute: &str) -> u64 {
    let Some(field) = entity.key_field(attribute) else {
        return 0;
    };
    let value = rendered_bytes(&field.template, entity);
    let numeric = model.key_attribute_type(attribute) == Some(monotable_model::KeyAttributeType::N);
    let value = if numeric { value / 2 + 1 } else { value };
    num::count(attribute.len()).saturating_add(value)
}

/// Estimated size of one key attribute (name + value) of the entity's item: written through a
/// template, or, for a native key, the entity's own attribute; 0 when it has neither.
fn key_attribute_bytes(model: &Model, entity: &Entity, attribute: &str) -> u64 {
    match (entity.key_field(attribute), entity.attribute(attribute)) {
        (None, Some(a)) => num::count(attribute.len()).saturating_add(value_bytes(a)),
        _ => key_field_bytes(model, entity, attribute),
    }
}

/// Estimated size of the entity's entry in `index`: the whole item for `ALL`, else the table
/// and index keys plus projected attributes, capped at the item size.
pub fn index_entry_bytes(model: &Model, entity: &Entity, index: &Index, item_bytes: u64) -> u64 {
    if index.projection == ProjectionType::All {
        return item_bytes;
    }
    let mut names: Vec<&str> = vec![model.table.partition_key.name.as_str()];
    names.extend(model.table.sort_key.as_ref().map(|k| k.name.as_str()));
    names.extend(index.key_attributes().map(|k| k.name.as_str()));
    names.sort_unstable();
    names.dedup();
    let keys = num::total(names.iter().map(|n| key_attribute_bytes(model, entity, n)));
    let projected = if index.projection == ProjectionType::Include {
        num::total(
            index
                .include
                .iter()
                .filter_map(|n| entity.attribute(n))
                .map(|a| num::count(a.name.len()).saturating_add(value_bytes(a))),
        )
    } else {
        0
    };
    keys.saturating_add(projected).min(item_bytes)
}

/// The entity's entry size in `index` (`None` = the table: the item size).
pub fn entry_bytes(model: &Model, entity: &Entity, index: Option<&str>) -> u64 {
    let item = model.traffic.item_size_bytes(&entity.name);
    match index.and_then(|i| model.index(i)) {
        Some(index) => index_entry_bytes(model, entity, index, item),
        None => item,
    }
}

/// Size of an actual item's entry in `index` (`None` = the table: the whole item), from the item
/// in DynamoDB JSON: what a live table charges, for cross-checking the estimates on sample data.
/// `None` when the item is not in the index (it lacks a key attribute), the index is undeclared,
/// or the item is not DynamoDB JSON.
pub fn actual_entry_bytes(
    model: &Model,
    index: Option<&str>,
    item: &serde_json::Value,
) -> Option<u64> {
    let object = item.as_object()?;
    let Some(name) = index else {
        return super::size::item_size(item);
    };
    let index = model.index(name)?;
    let mut keys: Vec<&str> = vec![model.table.partition_key.name.as_str()];
    keys.extend(model.table.sort_key.as_ref().map(|k| k.name.as_str()));
    // Every key attribute: several of each kind for a native key.
    let index_keys: Vec<&str> = index.key_attributes().map(|k| k.name.as_str()).collect();
    if index_keys.iter().any(|k| !object.contains_key(*k)) {
        return None;
    }
    if index.projection == ProjectionType::All {
        return super::size::item_size(item);
    }
    keys.extend(index_keys);
    if index.projection == ProjectionType::Include {
        keys.extend(index.include.iter().map(String::as_str));
    }
    keys.sort_unstable();
    keys.dedup();
    num::total_of(
        keys.iter()
            .filter_map(|k| object.get(*k).map(|v| (k, v)))
            .map(|(k, v)| {
                super::size::value_size(v).map(|s| s.saturating_add(num::count(k.len())))
            }),
    )
}
