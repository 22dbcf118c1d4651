//! A small ordered JSON value: keys keep their insertion order whatever serde_json's features are.
//!
//! `serde_json::Value` sorts object keys unless the `preserve_order` feature is on, and cargo
//! unifies features across the workspace, so the same code could print two different templates.
//! This type serializes through serde in exactly the order it was built.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A JSON value whose objects keep their key order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Json {
    /// `true`/`false`.
    Bool(bool),
    /// An integer.
    Int(u64),
    /// A signed integer (`MaximumRetryAttempts` takes -1).
    Signed(i64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object, in insertion order.
    Obj(Object),
}

/// A JSON object in insertion order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Object(Vec<(String, Json)>);

impl Object {
    /// An empty object.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Appends `key: value`, replacing an earlier value of the same key in place.
    pub(crate) fn insert(&mut self, key: impl Into<String>, value: impl Into<Json>) {
        let key = key.into();
        let value = value.into();
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.0.push((key, value)),
        }
    }

    /// Builder form of [`Object::insert`].
    pub(crate) fn with(mut self, key: impl Into<String>, value: impl Into<Json>) -> Self {
        self.insert(key, value);
        self
    }
}

impl From<bool> for Json {
    fn from(value: bool) -> Self {
        Json::Bool(value)
    }
}

impl From<u64> for Json {
    fn from(value: u64) -> Self {
        Json::Int(value)
    }
}

impl From<u32> for Json {
    fn from(value: u32) -> Self {
        Json::Int(u64::from(value))
    }
}

impl From<i64> for Json {
    fn from(value: i64) -> Self {
        Json::Signed(value)
    }
}

impl From<&str> for Json {
    fn from(value: &str) -> Self {
        Json::Str(value.to_string())
    }
}

impl From<String> for Json {
    fn from(value: String) -> Self {
        Json::Str(value)
    }
}

impl From<Object> for Json {
    fn from(value: Object) -> Self {
        Json::Obj(value)
    }
}

impl<T: Into<Json>> From<Vec<T>> for Json {
    fn from(value: Vec<T>) -> Self {
        Json::Arr(value.into_iter().map(Into::into).collect())
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Int(n) => serializer.serialize_u64(*n),
            Json::Signed(n) => serializer.serialize_i64(*n),
            Json::Str(s) => serializer.serialize_str(s),
            Json::Arr(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Obj(object) => object.serialize(serializer),
        }
    }
}

impl Serialize for Object {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// Pretty-prints with two-space indentation and a trailing newline.
pub(crate) fn pretty(value: &Json) -> String {
    // Serializing these types into a String cannot fail; an empty document is the fallback.
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// `{"Ref": name}`.
pub(crate) fn reference(name: &str) -> Json {
    Object::new().with("Ref", name).into()
}

/// `{"Fn::GetAtt": [resource, attribute]}`.
pub(crate) fn get_att(resource: &str, attribute: &str) -> Json {
    Object::new()
        .with("Fn::GetAtt", vec![resource, attribute])
        .into()
}

/// `{"Fn::Sub": text}`.
pub(crate) fn sub(text: &str) -> Json {
    Object::new().with("Fn::Sub", text).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_insertion_order_and_escapes() {
        let value: Json = Object::new()
            .with("z", 1u64)
            .with("a", vec!["x\"y", "\u{7}"])
            .with("m", Object::new())
            .with("z", true)
            .into();
        assert_eq!(
            pretty(&value),
            "{\n  \"z\": true,\n  \"a\": [\n    \"x\\\"y\",\n    \"\\u0007\"\n  ],\n  \"m\": {}\n}\n"
        );
    }
}
