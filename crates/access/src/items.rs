//! Items as the store writes them: keys rendered from the model's templates, the `entityType`
//! marker, and typed readers that name the attribute when an item is not what it should be.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::{KeyAttributeType, Model, RenderError};

/// A DynamoDB item.
pub type Item = HashMap<String, AttributeValue>;

/// The attribute naming an item's entity type, written on every item the store writes.
pub const ENTITY_TYPE: &str = "entityType";

/// The [`ENTITY_TYPE`] of the record `monotable migrate` keeps its progress in, in the table
/// it migrates: not an entity of any model, and skipped by `verify` and `audit`.
pub const MIGRATION_ENTITY: &str = "_MonotableMigration";

/// Building or reading an item failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ItemError {
    /// The model has no such entity.
    #[error("the model has no entity `{0}`")]
    UnknownEntity(String),
    /// A key template could not be rendered from the values given.
    #[error("cannot render the keys of `{entity}`: {source}")]
    Render {
        /// The entity.
        entity: String,
        /// Why.
        source: RenderError,
    },
    /// An attribute is missing or of the wrong type.
    #[error("item attribute `{attribute}` is {problem}")]
    Attribute {
        /// The attribute.
        attribute: String,
        /// What is wrong.
        problem: &'static str,
    },
}

/// A rendered key value as the attribute's declared type: `N` for numeric keys, `B` (the
/// rendered text's bytes) for binary ones, `S` otherwise.
pub fn key_value(model: &Model, attribute: &str, rendered: String) -> AttributeValue {
    match model.key_attribute_type(attribute) {
        Some(KeyAttributeType::N) => AttributeValue::N(rendered),
        Some(KeyAttributeType::B) => AttributeValue::B(aws_sdk_dynamodb::primitives::Blob::new(
            rendered.into_bytes(),
        )),
        _ => AttributeValue::S(rendered),
    }
}

/// Every key attribute `entity` writes (table and indexes, sparse ones only when their condition
/// holds), rendered from `values`, plus [`ENTITY_TYPE`].
pub fn keys(
    model: &Model,
    entity: &str,
    values: &dyn Fn(&str) -> Option<String>,
) -> Result<Item, ItemError> {
    let mut item = rendered(model, entity, |e| e.render_keys(values))?;
    item.insert(
        ENTITY_TYPE.to_string(),
        AttributeValue::S(entity.to_string()),
    );
    Ok(item)
}

/// The primary key (table PK and SK) of `entity` rendered from `values`.
pub fn primary_key(
    model: &Model,
    entity: &str,
    values: &dyn Fn(&str) -> Option<String>,
) -> Result<Item, ItemError> {
    rendered(model, entity, |e| e.render_primary_key(values))
}

/// What `render` makes of `entity`'s templates, each key typed as its attribute.
fn rendered<R>(model: &Model, entity: &str, render: R) -> Result<Item, ItemError>
where
    R: FnOnce(&monotable_model::Entity) -> Result<Vec<(String, String)>, RenderError>,
{
    let e = model
        .entity(entity)
        .ok_or_else(|| ItemError::UnknownEntity(entity.to_string()))?;
    let rendered = render(e).map_err(|source| ItemError::Render {
        entity: entity.to_string(),
        source,
    })?;
    Ok(rendered
        .into_iter()
        .map(|(name, value)| {
            let value = key_value(model, &name, value);
            (name, value)
        })
        .collect())
}

/// Key attributes `entity` writes for a secondary index, rendered from `values`; empty when the
/// entity is not in that index or a sparse condition does not hold.
pub fn index_keys(
    model: &Model,
    entity: &str,
    index: &str,
    values: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<(String, String)>, ItemError> {
    let e = model
        .entity(entity)
        .ok_or_else(|| ItemError::UnknownEntity(entity.to_string()))?;
    let Some(templates) = e.key(Some(index)) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for field in std::iter::once(&templates.pk).chain(templates.sk.as_ref()) {
        if let Some(condition) = &field.condition
            && values(condition).as_deref() != Some("true")
        {
            return Ok(Vec::new());
        }
        let value = field
            .template
            .render(values)
            .map_err(|source| ItemError::Render {
                entity: entity.to_string(),
                source,
            })?;
        out.push((field.attribute.clone(), value));
    }
    Ok(out)
}

/// The entity type of an item, if it carries one.
pub fn entity_type(item: &Item) -> Option<&str> {
    item.get(ENTITY_TYPE)
        .and_then(|v| v.as_s().ok())
        .map(String::as_str)
}

fn attribute_error(attribute: &str, problem: &'static str) -> ItemError {
    ItemError::Attribute {
        attribute: attribute.to_string(),
        problem,
    }
}

/// An attribute that may be absent (or NULL), read with `pick`; `what` names the expected type
/// in the error when it has another.
fn optional<T>(
    item: &Item,
    name: &str,
    what: &'static str,
    pick: impl Fn(&AttributeValue) -> Option<T>,
) -> Result<Option<T>, ItemError> {
    match item.get(name) {
        None | Some(AttributeValue::Null(_)) => Ok(None),
        Some(value) => pick(value)
            .map(Some)
            .ok_or_else(|| attribute_error(name, what)),
    }
}

fn required<T>(name: &str, value: Result<Option<T>, ItemError>) -> Result<T, ItemError> {
    value?.ok_or_else(|| attribute_error(name, "missing"))
}

/// A string attribute that may be absent.
pub fn opt_string(item: &Item, name: &str) -> Result<Option<String>, ItemError> {
    optional(item, name, "not a string", |v| v.as_s().ok().cloned())
}

/// A string attribute.
pub fn string(item: &Item, name: &str) -> Result<String, ItemError> {
    required(name, opt_string(item, name))
}

/// A number attribute that may be absent, as DynamoDB sent it: exact decimal text.
pub fn opt_number(item: &Item, name: &str) -> Result<Option<String>, ItemError> {
    optional(item, name, "not a number", |v| v.as_n().ok().cloned())
}

/// A number attribute as DynamoDB sent it: exact decimal text, never through a float.
pub fn number(item: &Item, name: &str) -> Result<String, ItemError> {
    required(name, opt_number(item, name))
}

/// An integer attribute.
pub fn integer(item: &Item, name: &str) -> Result<i64, ItemError> {
    number(item, name)?
        .parse()
        .map_err(|_| attribute_error(name, "not an integer"))
}

/// A boolean attribute.
pub fn boolean(item: &Item, name: &str) -> Result<bool, ItemError> {
    required(
        name,
        optional(item, name, "not a boolean", |v| v.as_bool().ok().copied()),
    )
}

/// An item in DynamoDB's JSON form (`{"PK": {"S": "..."}, "price": {"N": "9.99"}}`), as the
/// AWS CLI and NoSQL Workbench write it. Binary values are base64.
pub fn to_json(item: &Item) -> serde_json::Value {
    serde_json::Value::Object(
        item.iter()
            .map(|(name, value)| (name.clone(), value_json(value)))
            .collect(),
    )
}

fn value_json(value: &AttributeValue) -> serde_json::Value {
    use serde_json::json;
    let b64 = |b: &aws_sdk_dynamodb::primitives::Blob| aws_smithy_types::base64::encode(b.as_ref());
    match value {
        AttributeValue::S(s) => json!({ "S": s }),
        AttributeValue::N(n) => json!({ "N": n }),
        AttributeValue::Bool(b) => json!({ "BOOL": b }),
        AttributeValue::Null(_) => json!({ "NULL": true }),
        AttributeValue::B(b) => json!({ "B": b64(b) }),
        AttributeValue::Ss(v) => json!({ "SS": v }),
        AttributeValue::Ns(v) => json!({ "NS": v }),
        AttributeValue::Bs(v) => json!({ "BS": v.iter().map(b64).collect::<Vec<_>>() }),
        AttributeValue::L(v) => json!({ "L": v.iter().map(value_json).collect::<Vec<_>>() }),
        AttributeValue::M(m) => json!({ "M": to_json(m) }),
        _ => json!({ "NULL": true }),
    }
}

/// An item in DynamoDB's JSON form back, the inverse of [`to_json`]: every type, binary values
/// in base64. The error names the attribute that is not a typed value.
pub fn from_json(value: &serde_json::Value) -> Result<Item, String> {
    let object = value
        .as_object()
        .ok_or("an item is a JSON object of attributes")?;
    object
        .iter()
        .map(|(name, typed)| {
            value_from_json(typed)
                .map(|v| (name.clone(), v))
                .map_err(|why| format!("attribute `{name}`: {why}"))
        })
        .collect()
}

fn value_from_json(typed: &serde_json::Value) -> Result<AttributeValue, String> {
    use serde_json::Value as J;
    let object = typed
        .as_object()
        .filter(|o| o.len() == 1)
        .ok_or("not a typed value such as {\"S\": \"text\"} or {\"N\": \"1\"}")?;
    let (ty, v) = object.iter().next().ok_or("an empty value")?;
    let text = |v: &J| {
        v.as_str()
            .map(str::to_string)
            .ok_or(format!("`{ty}` takes a string"))
    };
    let texts = |v: &J| -> Result<Vec<String>, String> {
        v.as_array()
            .ok_or(format!("`{ty}` takes a list of strings"))?
            .iter()
            .map(text)
            .collect()
    };
    let blob = |t: String| {
        aws_smithy_types::base64::decode(&t)
            .map(aws_sdk_dynamodb::primitives::Blob::new)
            .map_err(|_| format!("`{ty}` takes base64"))
    };
    Ok(match ty.as_str() {
        "S" => AttributeValue::S(text(v)?),
        "N" => AttributeValue::N(text(v)?),
        "BOOL" => AttributeValue::Bool(v.as_bool().ok_or("`BOOL` takes true or false")?),
        "NULL" => AttributeValue::Null(true),
        "B" => AttributeValue::B(blob(text(v)?)?),
        "SS" => AttributeValue::Ss(texts(v)?),
        "NS" => AttributeValue::Ns(texts(v)?),
        "BS" => AttributeValue::Bs(texts(v)?.into_iter().map(blob).collect::<Result<_, _>>()?),
        "L" => AttributeValue::L(
            v.as_array()
                .ok_or("`L` takes a list")?
                .iter()
                .map(value_from_json)
                .collect::<Result<_, _>>()?,
        ),
        "M" => AttributeValue::M(from_json(v)?),
        other => return Err(format!("`{other}` is not a DynamoDB type")),
    })
}

/// A key in DynamoDB's JSON form back as an item: `S`, `N` and `B` (base64) values, the types a
/// key attribute can have. `None` for anything else.
pub fn key_from_json(value: &serde_json::Value) -> Option<Item> {
    value
        .as_object()?
        .iter()
        .map(|(name, typed)| {
            let (ty, v) = typed.as_object()?.iter().next()?;
            let v = v.as_str()?;
            let value = match ty.as_str() {
                "S" => AttributeValue::S(v.to_string()),
                "N" => AttributeValue::N(v.to_string()),
                "B" => AttributeValue::B(aws_sdk_dynamodb::primitives::Blob::new(
                    aws_smithy_types::base64::decode(v).ok()?,
                )),
                _ => return None,
            };
            Some((name.clone(), value))
        })
        .collect()
}

/// `AttributeValue::S`.
pub fn s(value: impl Into<String>) -> AttributeValue {
    AttributeValue::S(value.into())
}

/// `AttributeValue::N` from anything that prints as a number.
pub fn n(value: impl std::fmt::Display) -> AttributeValue {
    AttributeValue::N(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readers_name_the_attribute_and_keep_numbers_exact() {
        let item = Item::from([
            ("s".to_string(), s("x")),
            (
                "n".to_string(),
                AttributeValue::N("12345678901234567890.12".into()),
            ),
            ("b".to_string(), AttributeValue::Bool(true)),
            ("null".to_string(), AttributeValue::Null(true)),
        ]);
        assert_eq!(string(&item, "s").unwrap(), "x");
        assert_eq!(number(&item, "n").unwrap(), "12345678901234567890.12");
        assert!(boolean(&item, "b").unwrap());
        assert_eq!(opt_string(&item, "null").unwrap(), None);
        assert_eq!(opt_number(&item, "absent").unwrap(), None);
        assert_eq!(
            string(&item, "n").unwrap_err().to_string(),
            "item attribute `n` is not a string"
        );
        assert_eq!(
            number(&item, "absent").unwrap_err().to_string(),
            "item attribute `absent` is missing"
        );
        assert!(boolean(&item, "s").is_err());
        assert!(integer(&item, "n").is_err(), "a decimal is not an integer");
    }

    #[test]
    fn keys_round_trip_through_json_in_their_types() {
        let key = Item::from([
            ("PK".to_string(), s("ORDER#1")),
            ("n".to_string(), n(42)),
            (
                "b".to_string(),
                AttributeValue::B(aws_sdk_dynamodb::primitives::Blob::new(vec![0, 255, 7])),
            ),
        ]);
        assert_eq!(key_from_json(&to_json(&key)), Some(key));
        assert_eq!(
            key_from_json(&serde_json::json!({"x": {"BOOL": true}})),
            None
        );
        assert_eq!(key_from_json(&serde_json::json!([1])), None);
    }

    #[test]
    fn items_round_trip_through_json_in_every_type() {
        let blob = |b: &[u8]| aws_sdk_dynamodb::primitives::Blob::new(b.to_vec());
        let item = Item::from([
            ("s".to_string(), s("x")),
            ("n".to_string(), n("1.50")),
            ("t".to_string(), AttributeValue::Bool(false)),
            ("z".to_string(), AttributeValue::Null(true)),
            ("b".to_string(), AttributeValue::B(blob(&[1, 2]))),
            (
                "ss".to_string(),
                AttributeValue::Ss(vec!["a".into(), "b".into()]),
            ),
            ("ns".to_string(), AttributeValue::Ns(vec!["1".into()])),
            ("bs".to_string(), AttributeValue::Bs(vec![blob(&[9])])),
            ("l".to_string(), AttributeValue::L(vec![s("y"), n(2)])),
            (
                "m".to_string(),
                AttributeValue::M(Item::from([("k".to_string(), s("v"))])),
            ),
        ]);
        assert_eq!(from_json(&to_json(&item)), Ok(item));
        let bad = from_json(&serde_json::json!({"price": 9.99})).unwrap_err();
        assert!(
            bad.starts_with("attribute `price`: not a typed value"),
            "{bad}"
        );
        let bad = from_json(&serde_json::json!({"x": {"Q": "1"}})).unwrap_err();
        assert_eq!(bad, "attribute `x`: `Q` is not a DynamoDB type");
        assert!(from_json(&serde_json::json!([])).is_err());
    }
}
