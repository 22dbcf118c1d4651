//! Entities read off `dynamodb_data_model.json`'s sample items: each item's key values turned
//! into templates, items of one key shape (or one entity-type attribute) grouped as an entity,
//! and attributes typed from their DynamoDB JSON.
//!
//! A key value's `#`-separated parts become: the variable of an attribute of the item holding
//! exactly that part (`USER#u1` with `user_id = u1` is `USER#{user_id}`), text when the part is
//! upper-case letters and `_` (`PROFILE`, `ORDER_ITEM`), the key attribute itself when the value
//! is one part that is neither (a natural key, `{user_id}`), else a new attribute named after the
//! text before it (`USER#u1` with no such attribute: `USER#{user}`), listed.

use std::collections::BTreeMap;

use serde_json::Value;

use super::draft::{Attribute, Entity};
use super::json::{Names, Notes, child, identifier, shown};

/// Attributes naming an item's entity type, when the items carry one.
const TYPE_ATTRIBUTES: &[&str] = &[
    "entity_type",
    "entityType",
    "EntityType",
    "_type",
    "__typename",
];

/// One attribute value of an item.
#[derive(Debug, Clone)]
pub(super) struct Val {
    /// The DynamoDB type: `S`, `N`, `B`, `BOOL`, `NULL`, `L`, `M`, `SS`, `NS`, `BS`.
    pub ty: String,
    /// The text of a string or number.
    pub text: Option<String>,
}

/// A sample item and where it is.
#[derive(Debug, Clone)]
pub(super) struct Item {
    pub path: String,
    pub values: BTreeMap<String, Val>,
}

/// Reads `{"PutRequest": {"Item": {...}}}` entries.
pub(super) fn items(list: &[Value], path: &str, notes: &mut Notes) -> Vec<Item> {
    let mut out = Vec::new();
    for (i, entry) in list.iter().enumerate() {
        let at = super::json::item(path, i);
        let Some(map) = entry
            .get("PutRequest")
            .and_then(|p| p.get("Item"))
            .and_then(Value::as_object)
        else {
            notes.push(&at, "is not a `PutRequest` with an `Item`; not read");
            continue;
        };
        let mut values = BTreeMap::new();
        for (name, v) in map {
            match dynamodb_value(v) {
                Some(val) => {
                    values.insert(name.clone(), val);
                }
                None => notes.push(
                    &child(&at, name),
                    "is not a DynamoDB JSON value (`{\"S\": ...}`); not read",
                ),
            }
        }
        out.push(Item { path: at, values });
    }
    out
}

fn dynamodb_value(v: &Value) -> Option<Val> {
    let map = v.as_object().filter(|m| m.len() == 1)?;
    let (ty, inner) = map.iter().next()?;
    let known = ["S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"];
    if !known.contains(&ty.as_str()) {
        return None;
    }
    let text = match (ty.as_str(), inner) {
        ("S" | "N", Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    Some(Val {
        ty: ty.clone(),
        text,
    })
}

/// A key attribute written by a template, and its DynamoDB type.
#[derive(Debug, Clone)]
pub(super) struct TemplatedKey {
    pub name: String,
    pub ty: &'static str,
}

/// An entity grouped from items.
#[derive(Debug, Clone)]
pub(super) struct Inferred {
    pub entity: Entity,
    /// Key attribute → the number of the group's items that write it.
    pub written: BTreeMap<String, usize>,
    pub items: usize,
}

/// A key attribute named as a key, not as data (`PK`, `SK`, `GSI1PK`, `gsi2_sk`, `sort_key`):
/// its values are built, so a part of one that is upper-case text is text.
fn generic_key(name: &str) -> bool {
    let n: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    matches!(n.as_str(), "pk" | "sk" | "partitionkey" | "sortkey")
        || ((n.starts_with("gsi") || n.starts_with("lsi"))
            && (n.ends_with("pk") || n.ends_with("sk")))
}

/// A part that reads as constant text.
fn constant(part: &str) -> bool {
    !part.is_empty() && part.chars().all(|c| c.is_ascii_uppercase() || c == '_')
}

/// The template of one key value, and the attributes it needs that the item lacks (name,
/// the text it stood for).
fn template_of(
    key: &TemplatedKey,
    val: &Val,
    values: &BTreeMap<String, Val>,
) -> (String, Vec<(String, String)>) {
    let text = val.text.clone().unwrap_or_default();
    if key.ty == "N" || val.ty == "N" {
        return (format!("{{{}}}", key.name), Vec::new());
    }
    let parts: Vec<&str> = text.split('#').collect();
    if parts.len() == 1 && !generic_key(&key.name) {
        return (format!("{{{}}}", key.name), Vec::new());
    }
    let mut out = Vec::new();
    let mut new = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let previous = i
            .checked_sub(1)
            .and_then(|j| parts.get(j))
            .copied()
            .unwrap_or_default();
        let holders: Vec<&String> = values
            .iter()
            .filter(|(n, v)| {
                !generic_key(n) && v.text.as_deref() == Some(*part) && !part.is_empty()
            })
            .map(|(n, _)| n)
            .collect();
        let hint = previous.to_ascii_lowercase();
        let holder = holders
            .iter()
            .find(|n| !hint.is_empty() && n.to_ascii_lowercase().starts_with(&hint))
            .or(holders.first());
        let piece = match holder {
            Some(name) => format!("{{{name}}}"),
            None if part.is_empty() || constant(part) => part.replace('{', "{{").replace('}', "}}"),
            None if parts.len() == 1 => format!("{{{}}}", key.name),
            None => {
                let base = if constant(previous) {
                    previous.to_ascii_lowercase()
                } else {
                    format!("{}_{i}", key.name)
                };
                let name = identifier("", &base);
                new.push((name.clone(), (*part).to_string()));
                format!("{{{name}}}")
            }
        };
        out.push(piece);
    }
    (out.join("#"), new)
}

/// The entity type an item names, if it carries one of [`TYPE_ATTRIBUTES`].
fn type_name(item: &Item) -> Option<(String, String)> {
    TYPE_ATTRIBUTES.iter().find_map(|a| {
        item.values
            .get(*a)
            .and_then(|v| v.text.clone())
            .map(|t| ((*a).to_string(), t))
    })
}

/// One item's key templates (in key order), and its new attributes.
type Shape = (Vec<(String, String)>, Vec<(String, String)>);

/// What items of one entity share: the entity type they name, and their primary key templates.
type GroupKey = (Option<String>, Vec<(String, String)>);

fn shape(item: &Item, keys: &[TemplatedKey]) -> Shape {
    let mut templates = Vec::new();
    let mut new = Vec::new();
    for key in keys {
        if let Some(val) = item.values.get(&key.name) {
            let (t, n) = template_of(key, val, &item.values);
            templates.push((key.name.clone(), t));
            new.extend(n);
        }
    }
    (templates, new)
}

/// Groups the items into entities. `primary` is how many of `keys` are the table's own (the
/// rest are index keys).
pub(super) fn entities(
    items: &[Item],
    keys: &[TemplatedKey],
    primary: usize,
    table: &str,
    notes: &mut Notes,
) -> Vec<Inferred> {
    let mut groups: BTreeMap<GroupKey, Vec<(&Item, Shape)>> = BTreeMap::new();
    for item in items {
        let s = shape(item, keys);
        let primary_templates: Vec<(String, String)> =
            s.0.iter()
                .filter(|(k, _)| keys[..primary].iter().any(|p| &p.name == k))
                .cloned()
                .collect();
        if primary_templates.len() < primary {
            notes.push(&item.path, "lacks a key attribute of the table; not read");
            continue;
        }
        let kind = type_name(item).map(|(_, t)| t);
        groups
            .entry((kind, primary_templates))
            .or_default()
            .push((item, s));
    }
    let mut names = Names::default();
    let mut out = Vec::new();
    for ((kind, primary_templates), members) in groups {
        let name = names.claim(entity_name(kind.as_deref(), &primary_templates, table));
        out.push(group(name, &members, keys, notes));
    }
    out
}

/// PascalCase of the entity type, else of the first constant part of the sort key, then the
/// partition key, else the table's name.
fn entity_name(kind: Option<&str>, templates: &[(String, String)], table: &str) -> String {
    let pascal = |s: &str| -> String {
        s.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| {
                let lower = w.to_ascii_lowercase();
                let mut c = lower.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            })
            .collect()
    };
    let constant_part = |t: &str| t.split('#').find(|p| constant(p)).map(str::to_string);
    let from_keys = templates.iter().rev().find_map(|(_, t)| constant_part(t));
    let base = match (kind, from_keys) {
        (Some(k), _) if !pascal(k).is_empty() => pascal(k),
        (_, Some(c)) => pascal(&c),
        _ => {
            let t = pascal(table);
            t.strip_suffix('s')
                .filter(|s| s.len() > 2)
                .map_or(t.clone(), str::to_string)
        }
    };
    identifier("", &base)
}

/// The monotable type of a group's values of one attribute.
fn attribute_type(values: &[&Val]) -> Result<(&'static str, Option<&'static str>), String> {
    let present: Vec<&&Val> = values.iter().filter(|v| v.ty != "NULL").collect();
    let Some(first) = present.first() else {
        return Err("holds only NULL, so its type is unknown".to_string());
    };
    if let Some(other) = present.iter().find(|v| v.ty != first.ty) {
        return Err(format!("holds both {} and {} values", first.ty, other.ty));
    }
    let integer = |v: &&&Val| v.text.as_deref().is_some_and(|t| t.parse::<i64>().is_ok());
    Ok(match first.ty.as_str() {
        "S" => ("string", None),
        "N" if present.iter().all(integer) => ("integer", None),
        "N" => ("decimal", None),
        "BOOL" => ("boolean", None),
        "L" => ("list", None),
        "M" => ("map", None),
        "SS" => ("set", Some("string")),
        "NS" => ("set", Some("number")),
        other => {
            return Err(format!(
                "is of DynamoDB type {other}, which no monotable attribute type holds"
            ));
        }
    })
}

/// Key attributes whose items write different plain texts (`US`, `FR`): data, not constants.
fn varying_text(members: &[(&Item, Shape)]) -> Vec<String> {
    let mut seen: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (_, (templates, _)) in members {
        for (key, template) in templates {
            seen.entry(key.as_str())
                .or_default()
                .push(template.as_str());
        }
    }
    seen.into_iter()
        .filter(|(_, ts)| {
            ts.iter().all(|t| !t.contains(['{', '#'])) && ts.iter().any(|t| *t != ts[0])
        })
        .map(|(k, _)| k.to_string())
        .collect()
}

/// What the items of one entity write as keys: per key attribute, how many items write it and
/// the first item's template; and the attributes the import named.
struct Keys {
    written: BTreeMap<String, usize>,
    templates: Vec<(String, String)>,
    invented: BTreeMap<String, String>,
}

fn merge_keys(name: &str, members: &[(&Item, Shape)], notes: &mut Notes) -> Keys {
    let mut k = Keys {
        written: BTreeMap::new(),
        templates: Vec::new(),
        invented: BTreeMap::new(),
    };
    let varying = varying_text(members);
    for (item, (templates, new)) in members {
        for (key, template) in templates {
            *k.written.entry(key.clone()).or_default() += 1;
            let template = if varying.contains(key) {
                format!("{{{key}}}")
            } else {
                template.clone()
            };
            match k.templates.iter().find(|(x, _)| x == key) {
                None => k.templates.push((key.clone(), template)),
                Some((_, first)) if *first != template => {
                    let reason = format!(
                        "writes `{}` as `{}`, where the first item of `{}` writes `{}`; the first is kept",
                        shown(key),
                        shown(&template),
                        shown(name),
                        shown(first)
                    );
                    notes.push(&child(&item.path, key), reason);
                }
                Some(_) => {}
            }
        }
        for (attr, text) in new {
            k.invented
                .entry(attr.clone())
                .or_insert_with(|| text.clone());
        }
    }
    k
}

fn group(
    name: String,
    members: &[(&Item, Shape)],
    keys: &[TemplatedKey],
    notes: &mut Notes,
) -> Inferred {
    let origin = members
        .first()
        .map(|(i, _)| i.path.clone())
        .unwrap_or_default();
    let mut k = merge_keys(&name, members, notes);
    k.templates
        .sort_by_key(|(x, _)| keys.iter().position(|t| &t.name == x));
    for (attr, text) in &k.invented {
        let reason = format!(
            "`{}` in a key of `{}` is no attribute of its items; imported as a new string attribute `{attr}`",
            shown(text),
            shown(&name)
        );
        notes.push(&origin, reason);
    }
    let attributes = attributes(&name, members, keys, &k, notes);
    let kind = members.first().and_then(|(i, _)| type_name(i));
    Inferred {
        entity: Entity {
            name: name.clone(),
            description: Some(match kind {
                Some((attr, value)) => format!("The items whose {attr} is {value}"),
                None => format!("Read off {} sample item(s)", members.len()),
            }),
            attributes,
            keys: k.templates,
            origin,
        },
        written: k.written,
        items: members.len(),
    }
}

/// One attribute of the entity, typed from its items' values; `None` (listed) when no
/// monotable type holds them.
fn attribute(
    name: &str,
    attr: &str,
    members: &[(&Item, Shape)],
    notes: &mut Notes,
) -> Option<Attribute> {
    let values: Vec<&Val> = members
        .iter()
        .filter_map(|(i, _)| i.values.get(attr))
        .collect();
    match attribute_type(&values) {
        Ok((ty, items)) => {
            let required = values.len() == members.len() && values.iter().all(|v| v.ty != "NULL");
            Some(Attribute {
                name: attr.to_string(),
                ty,
                required,
                items,
                description: None,
            })
        }
        Err(why) => {
            let at = members
                .first()
                .map(|(i, _)| child(&i.path, attr))
                .unwrap_or_default();
            let reason = format!(
                "attribute `{}` of `{}` {why}; not imported",
                shown(attr),
                shown(name)
            );
            notes.push(&at, reason);
            None
        }
    }
}

fn attributes(
    name: &str,
    members: &[(&Item, Shape)],
    keys: &[TemplatedKey],
    k: &Keys,
    notes: &mut Notes,
) -> Vec<Attribute> {
    let self_keyed = |a: &str| {
        k.templates
            .iter()
            .any(|(x, t)| x == a && *t == format!("{{{a}}}"))
    };
    let mut names: Vec<&String> = members.iter().flat_map(|(i, _)| i.values.keys()).collect();
    names.sort();
    names.dedup();
    let mut out: Vec<Attribute> = names
        .into_iter()
        .filter(|a| !keys.iter().any(|x| &x.name == *a) || self_keyed(a))
        .filter_map(|a| attribute(name, a, members, notes))
        .collect();
    for attr in k.invented.keys() {
        if !out.iter().any(|a| &a.name == attr) {
            out.push(Attribute {
                name: attr.clone(),
                ty: "string",
                required: true,
                items: None,
                description: Some(
                    "named by the import: the items hold it only in their keys".to_string(),
                ),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(pairs: &[(&str, &str, &str)]) -> Item {
        let values = pairs
            .iter()
            .map(|(n, ty, text)| {
                (
                    n.to_string(),
                    Val {
                        ty: ty.to_string(),
                        text: Some(text.to_string()),
                    },
                )
            })
            .collect();
        Item {
            path: "items.T[0]".to_string(),
            values,
        }
    }

    fn keys(names: &[&str]) -> Vec<TemplatedKey> {
        names
            .iter()
            .map(|n| TemplatedKey {
                name: n.to_string(),
                ty: "S",
            })
            .collect()
    }

    #[test]
    fn key_values_become_templates() {
        let k = keys(&["PK", "SK"]);
        let i = item(&[
            ("PK", "S", "USER#u1"),
            ("SK", "S", "ORDER#2024-01-01#o9"),
            ("user_id", "S", "u1"),
            ("order_id", "S", "o9"),
            ("placed", "S", "2024-01-01"),
        ]);
        let (t, new) = template_of(&k[0], &i.values["PK"], &i.values);
        assert_eq!((t.as_str(), new.len()), ("USER#{user_id}", 0));
        let (t, _) = template_of(&k[1], &i.values["SK"], &i.values);
        assert_eq!(t, "ORDER#{placed}#{order_id}");
        let i = item(&[("PK", "S", "USER#u1"), ("SK", "S", "PROFILE")]);
        let (t, new) = template_of(&k[0], &i.values["PK"], &i.values);
        assert_eq!(t, "USER#{user}");
        assert_eq!(new, [("user".to_string(), "u1".to_string())]);
        assert_eq!(template_of(&k[1], &i.values["SK"], &i.values).0, "PROFILE");
        // A natural key: the key attribute is the value itself.
        let k = keys(&["customer_id"]);
        let i = item(&[("customer_id", "S", "c-1"), ("name", "S", "Ann")]);
        assert_eq!(
            template_of(&k[0], &i.values["customer_id"], &i.values).0,
            "{customer_id}"
        );
    }

    #[test]
    fn items_group_by_key_shape_or_entity_type() {
        let k = keys(&["PK", "SK"]);
        let items = [
            item(&[
                ("PK", "S", "USER#u1"),
                ("SK", "S", "PROFILE"),
                ("user_id", "S", "u1"),
                ("age", "N", "3"),
            ]),
            item(&[
                ("PK", "S", "USER#u2"),
                ("SK", "S", "PROFILE"),
                ("user_id", "S", "u2"),
                ("age", "N", "4.5"),
            ]),
            item(&[
                ("PK", "S", "USER#u1"),
                ("SK", "S", "ORDER#o1"),
                ("user_id", "S", "u1"),
                ("order_id", "S", "o1"),
            ]),
        ];
        let mut notes = Notes::default();
        let found = entities(&items, &k, 2, "Shop", &mut notes);
        let names: Vec<&str> = found.iter().map(|e| e.entity.name.as_str()).collect();
        assert_eq!(names, ["Order", "Profile"]);
        let profile = &found[1].entity;
        let age = profile.attributes.iter().find(|a| a.name == "age").unwrap();
        assert_eq!((age.ty, age.required), ("decimal", true));
        assert!(notes.list.is_empty(), "{:?}", notes.list);
    }
}
