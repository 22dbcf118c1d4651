//! Reading the AWS files' JSON: objects with their JSON path (`tables[0].entities.User`), the
//! list of what was not mapped, and the fields a format does not know, each listed.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::Unmapped;

/// What an import could not carry over, in the order found.
#[derive(Debug, Default)]
pub(crate) struct Notes {
    pub list: Vec<Unmapped>,
    seen: BTreeSet<(String, String)>,
}

impl Notes {
    /// One thing at `path` not mapped, and why, once; a hidden character in either is shown
    /// escaped (`\u{1b}`), so no answer or warning carries one raw.
    pub fn push(&mut self, path: &str, reason: impl Into<String>) {
        let path = shown(path).into_owned();
        let reason = shown(&reason.into()).into_owned();
        if self.seen.insert((path.clone(), reason.clone())) {
            self.list.push(Unmapped { path, reason });
        }
    }
}

/// `path.key`, or `path["key"]` for a key that is not a plain name; hidden characters escaped.
pub(crate) fn child(path: &str, key: &str) -> String {
    let plain = key.chars().next().is_some_and(|c| !c.is_ascii_digit())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let shown = monotable_model::text::escape(key);
    match (path.is_empty(), plain) {
        (true, true) => shown.into_owned(),
        (false, true) => format!("{path}.{shown}"),
        (_, false) => format!("{path}[{}]", serde_json::Value::from(shown.as_ref())),
    }
}

/// `path[i]`.
pub(crate) fn item(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// A name as messages quote it: hidden characters escaped.
pub(crate) fn shown(name: &str) -> std::borrow::Cow<'_, str> {
    monotable_model::text::escape(name)
}

/// A JSON object and where it is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Obj<'a, 'p> {
    pub map: &'a Map<String, Value>,
    pub path: &'p str,
}

impl<'a, 'p> Obj<'a, 'p> {
    /// `value` as an object, or a note that it is not one.
    pub fn new(value: &'a Value, path: &'p str, notes: &mut Notes) -> Option<Obj<'a, 'p>> {
        match value {
            Value::Object(map) => Some(Obj { map, path }),
            other => {
                notes.push(path, format!("is {}, not an object; ignored", kind(other)));
                None
            }
        }
    }

    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }

    /// A string field; another type is noted.
    pub fn str(&self, key: &str, notes: &mut Notes) -> Option<&'a str> {
        match self.map.get(key)? {
            Value::String(s) => Some(s),
            other => {
                let at = child(self.path, key);
                notes.push(&at, format!("is {}, not a string; ignored", kind(other)));
                None
            }
        }
    }

    /// A boolean field; another type is noted.
    pub fn bool(&self, key: &str, notes: &mut Notes) -> Option<bool> {
        match self.map.get(key)? {
            Value::Bool(b) => Some(*b),
            other => {
                let at = child(self.path, key);
                notes.push(
                    &at,
                    format!("is {}, not true or false; ignored", kind(other)),
                );
                None
            }
        }
    }

    /// An array field (empty when absent); another type is noted.
    pub fn array(&self, key: &str, notes: &mut Notes) -> &'a [Value] {
        match self.map.get(key) {
            None | Some(Value::Null) => &[],
            Some(Value::Array(items)) => items,
            Some(other) => {
                let at = child(self.path, key);
                notes.push(&at, format!("is {}, not a list; ignored", kind(other)));
                &[]
            }
        }
    }

    /// Every field not in `known`, noted as not part of `format`.
    pub fn unknown(&self, known: &[&str], format: &str, notes: &mut Notes) {
        for key in self.map.keys() {
            if !known.contains(&key.as_str()) {
                let at = child(self.path, key);
                notes.push(&at, format!("is not a field of {format}; ignored"));
            }
        }
    }
}

/// What a JSON value is, for messages.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A name for a pattern or entity made from free text: ASCII letters, digits and `_`, not
/// starting with a digit (`5a` → `ap5a` when `prefix` is `ap`).
pub(crate) fn identifier(prefix: &str, text: &str) -> String {
    let mut out = String::from(prefix);
    let mut gap = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if gap && !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c);
            gap = false;
        } else {
            gap = true;
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// The names given so far (of patterns, or of entities), each once, and the next suffix to try
/// for each name asked for (so a name asked for n times costs n steps, not n²).
#[derive(Debug, Default)]
pub(crate) struct Names {
    given: BTreeSet<String>,
    next: BTreeMap<String, usize>,
}

impl Names {
    /// `name`, or `name_2`, `name_3`... when it is taken; taken from now on.
    pub fn claim(&mut self, name: String) -> String {
        if self.given.insert(name.clone()) {
            return name;
        }
        let mut n = self.next.get(&name).copied().unwrap_or(2);
        let unique = loop {
            let candidate = format!("{name}_{n}");
            n += 1;
            if !self.given.contains(&candidate) {
                break candidate;
            }
        };
        self.next.insert(name, n);
        self.given.insert(unique.clone());
        unique
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(child("", "tables"), "tables");
        assert_eq!(child("tables[0]", "entities"), "tables[0].entities");
        assert_eq!(child("e", "My Entity"), "e[\"My Entity\"]");
        assert_eq!(child("e", "x\u{1b}"), "e[\"x\\\\u{1b}\"]");
        assert_eq!(item("tables", 2), "tables[2]");
    }

    #[test]
    fn identifiers_and_unique_names() {
        assert_eq!(identifier("ap", "5a"), "ap5a");
        assert_eq!(identifier("ap", "1-2"), "ap1_2");
        assert_eq!(identifier("", "9lives"), "_9lives");
        assert_eq!(identifier("", "--"), "_");
        let mut names = Names::default();
        assert_eq!(names.claim("get".to_string()), "get");
        assert_eq!(names.claim("get".to_string()), "get_2");
        assert_eq!(names.claim("get".to_string()), "get_3");
        assert_eq!(names.claim("put".to_string()), "put");
    }
}
