//! One item against the model: its `entityType`, its table key and its index keys, each the
//! render of the entity's templates from the item's own attributes, and its attributes
//! (`attributes`). Pure.

use std::collections::BTreeMap;
use std::fmt::Display;

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::{AttributeType, Entity, Index, KeyField, Model};

use super::attributes;
use super::finding::{Code, Finding, ItemKey};
use crate::items::{self, ENTITY_TYPE, Item, MIGRATION_ENTITY};
use crate::value::text::{normalized_decimal, template_text, template_texts};

pub use crate::value::text::type_name;

/// What an item is, by its `entityType`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ItemKind {
    /// An entity of the model.
    Entity(String),
    /// A migration checkpoint record, not audited.
    Migration,
    /// No `entityType` (or not a string).
    Untyped,
    /// An `entityType` the model does not declare.
    Unknown(String),
}

/// One item's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemAudit {
    /// What it is.
    pub kind: ItemKind,
    /// Everything about it that does not fit the model.
    pub findings: Vec<Finding>,
}

/// What is worked out once per model: the key attributes of its indexes written from templates
/// (native keys are the items' own attributes), each with the first index it keys.
#[derive(Debug)]
pub struct Rules<'m> {
    model: &'m Model,
    index_attributes: Vec<(&'m str, &'m Index)>,
}

impl<'m> Rules<'m> {
    /// The rules of `model`.
    pub fn new(model: &'m Model) -> Self {
        let table: Vec<&str> = std::iter::once(model.table.partition_key.name.as_str())
            .chain(model.table.sort_key.as_ref().map(|k| k.name.as_str()))
            .collect();
        let mut index_attributes: Vec<(&str, &Index)> = Vec::new();
        for index in model.indexes.iter().filter(|i| !i.native) {
            for key in index.key_attributes() {
                let name = key.name.as_str();
                if !table.contains(&name) && !index_attributes.iter().any(|(n, _)| *n == name) {
                    index_attributes.push((name, index));
                }
            }
        }
        Self {
            model,
            index_attributes,
        }
    }

    /// The model they are of.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// Audits one item.
    pub fn check(&self, item: &Item) -> ItemAudit {
        let key = item_key(self.model, item);
        let name = match item.get(ENTITY_TYPE) {
            Some(AttributeValue::S(name)) => name,
            found => {
                return ItemAudit {
                    kind: ItemKind::Untyped,
                    findings: vec![untyped(self.model, item, key, found)],
                };
            }
        };
        if name == MIGRATION_ENTITY {
            return ItemAudit {
                kind: ItemKind::Migration,
                findings: Vec::new(),
            };
        }
        let Some(entity) = self.model.entity(name) else {
            return ItemAudit {
                kind: ItemKind::Unknown(name.clone()),
                findings: vec![unknown(self.model, item, key, name)],
            };
        };
        let subject = Subject::new(self.model, item, entity);
        let mut findings = table_key(&subject);
        findings.extend(self.index_keys(&subject));
        findings.extend(attributes::check(&subject));
        ItemAudit {
            kind: ItemKind::Entity(name.clone()),
            findings,
        }
    }

    fn index_keys(&self, s: &Subject<'_>) -> Vec<Finding> {
        self.index_attributes
            .iter()
            .filter_map(|(attribute, index)| index_key(s, attribute, index))
            .collect()
    }
}

/// Audits one item against `model`: its entity type, keys and attributes.
pub fn check_item(model: &Model, item: &Item) -> ItemAudit {
    Rules::new(model).check(item)
}

/// An item of a known entity, with what every check of it needs.
pub struct Subject<'a> {
    /// The model.
    pub model: &'a Model,
    /// The item.
    pub item: &'a Item,
    /// Its entity.
    pub entity: &'a Entity,
    /// Its table key as found on it.
    pub key: ItemKey,
    texts: BTreeMap<String, String>,
}

impl<'a> Subject<'a> {
    /// `item`, an item of `entity` of `model`.
    pub fn new(model: &'a Model, item: &'a Item, entity: &'a Entity) -> Subject<'a> {
        Subject {
            model,
            item,
            entity,
            key: item_key(model, item),
            texts: key_texts(entity, item),
        }
    }

    /// A finding about this item: `Order PK=ORDER#1 SK=ORDER: <what>`.
    pub fn finding(&self, code: Code, what: impl Display) -> Finding {
        let mut f = Finding::new(code, format!("{} {}: {what}", self.entity.name, self.key));
        f.item = Some(self.key.clone());
        f.entity = Some(self.entity.name.clone());
        f
    }

    fn value(&self, name: &str) -> Option<String> {
        self.texts.get(name).cloned()
    }
}

/// The item's attributes as its key templates render them: [`template_texts`], with decimals
/// normalized as the library writes them into keys (`12.50` as `12.5`, as DynamoDB also
/// returns them).
fn key_texts(entity: &Entity, item: &Item) -> BTreeMap<String, String> {
    let mut texts = template_texts(item);
    for attribute in &entity.attributes {
        if attribute.ty == AttributeType::Decimal
            && let Some(text) = texts.get_mut(&attribute.name)
        {
            *text = normalized_decimal(text);
        }
    }
    texts
}

/// The item's table key as found on it.
pub fn item_key(model: &Model, item: &Item) -> ItemKey {
    let names = std::iter::once(&model.table.partition_key.name)
        .chain(model.table.sort_key.as_ref().map(|k| &k.name));
    ItemKey(
        names
            .map(|name| {
                let value = item.get(name).and_then(template_text);
                (name.clone(), value.unwrap_or_else(|| "?".to_string()))
            })
            .collect(),
    )
}

/// A value as a message quotes it: `` `text` `` for scalars, its type for the rest.
pub fn shown(value: &AttributeValue) -> String {
    match template_text(value) {
        Some(text) => format!("`{text}`"),
        None => format!("a {} value", type_name(value)),
    }
}

/// The entities whose table key templates the key has the shape of.
fn shaped_like<'m>(model: &'m Model, item: &Item) -> Vec<&'m Entity> {
    let fits = |field: &KeyField| {
        item.get(&field.attribute)
            .and_then(template_text)
            .is_some_and(|text| field.template.extract(&text).is_some())
    };
    model
        .entities
        .iter()
        .filter(|e| {
            e.key(None)
                .is_some_and(|k| fits(&k.pk) && k.sk.as_ref().is_none_or(fits))
        })
        .collect()
}

/// `f` pointing at the entity whose key shape the item has, or noting the several it fits.
fn with_shape(f: Finding, model: &Model, item: &Item) -> Finding {
    match shaped_like(model, item).as_slice() {
        [] => f,
        [one] => f
            .span(one.span.clone())
            .label(format!("its key has the shape of `{}`", one.name)),
        many => {
            let names: Vec<String> = many.iter().map(|e| format!("`{}`", e.name)).collect();
            f.note(format!("its key has the shape of {}", names.join(", ")))
        }
    }
}

fn untyped(model: &Model, item: &Item, key: ItemKey, found: Option<&AttributeValue>) -> Finding {
    let what = match found {
        None => format!("no `{ENTITY_TYPE}` attribute"),
        Some(v) => format!("`{ENTITY_TYPE}` is {}, not a string", type_name(v)),
    };
    let f = Finding::new(Code::MissingEntityType, format!("item {key}: {what}"))
        .attribute(ENTITY_TYPE)
        .note("an item without its entity type is read by no access pattern of the model")
        .help(format!(
            "write `{ENTITY_TYPE}` with the item's entity name, as the store does on every item"
        ));
    let mut f = with_shape(f, model, item);
    f.item = Some(key);
    f
}

fn unknown(model: &Model, item: &Item, key: ItemKey, name: &str) -> Finding {
    let f = Finding::new(
        Code::UnknownEntityType,
        format!("item {key}: `{ENTITY_TYPE}` is `{name}`, no entity of the model"),
    )
    .attribute(ENTITY_TYPE)
    .found_expected(Some(name.to_string()), None)
    .help("declare the entity in the model, or rewrite or delete the item");
    let mut f = with_shape(f, model, item);
    f.item = Some(key);
    f.entity = Some(name.to_string());
    f
}

fn table_key(s: &Subject<'_>) -> Vec<Finding> {
    let Some(keys) = s.entity.key(None) else {
        return Vec::new();
    };
    std::iter::once(&keys.pk)
        .chain(keys.sk.as_ref())
        .filter_map(|field| primary_field(s, field))
        .collect()
}

fn primary_field(s: &Subject<'_>, field: &KeyField) -> Option<Finding> {
    let found = s.item.get(&field.attribute);
    let attribute = &field.attribute;
    let template = &field.template;
    let f = match field.template.render(&|n| s.value(n)) {
        Ok(text) => {
            let expected = items::key_value(s.model, attribute, text.clone());
            if found == Some(&expected) {
                return None;
            }
            let found_text = found.map_or_else(|| "missing".to_string(), shown);
            s.finding(
                Code::PrimaryKeyMismatch,
                format!("table key `{attribute}` is {found_text}, its template renders `{text}`"),
            )
            .found_expected(found.and_then(template_text), Some(text.clone()))
            .label(format!("renders `{text}`"))
        }
        Err(e) => s
            .finding(
                Code::PrimaryKeyMismatch,
                format!("table key `{attribute}` cannot be rendered from the item: {e}"),
            )
            .found_expected(found.and_then(template_text), None)
            .label(format!("`{template}`")),
    };
    Some(
        f.attribute(attribute)
            .span(field.span.clone())
            .note(
                "a GetItem or Query that builds the key from the template does not find this item",
            )
            .help(
                "put the item at its rendered key and delete it at the old one, in one transaction",
            ),
    )
}

/// One key attribute of a synthetic index on one item.
fn index_key(s: &Subject<'_>, attribute: &str, index: &Index) -> Option<Finding> {
    let found = s
        .item
        .get(attribute)
        .filter(|v| !matches!(v, AttributeValue::Null(_)));
    let Some(field) = s.entity.key_field(attribute) else {
        return found.map(|v| not_written(s, attribute, index, v));
    };
    if let Some(condition) = &field.condition
        && s.value(condition).as_deref() != Some("true")
    {
        return found.map(|v| gated(s, field, index, condition, v));
    }
    match field.template.render(&|n| s.value(n)) {
        Ok(text) => {
            let expected = items::key_value(s.model, attribute, text.clone());
            match found {
                None => Some(missing_key(s, field, index, &text)),
                Some(v) if *v != expected => Some(stale(s, field, index, v, Ok(&text))),
                Some(_) => None,
            }
        }
        Err(e) => found.map(|v| stale(s, field, index, v, Err(&e.to_string()))),
    }
}

fn stale(
    s: &Subject<'_>,
    field: &KeyField,
    index: &Index,
    found: &AttributeValue,
    rendered: Result<&String, &String>,
) -> Finding {
    let attribute = &field.attribute;
    let (what, expected) = match rendered {
        Ok(text) => (
            format!(
                "`{attribute}` is {}, its template renders `{text}`",
                shown(found)
            ),
            Some(text.clone()),
        ),
        Err(e) => (
            format!(
                "`{attribute}` is {}, and cannot be rendered: {e}",
                shown(found)
            ),
            None,
        ),
    };
    let inputs: Vec<String> = field.inputs().iter().map(|n| format!("`{n}`")).collect();
    s.finding(Code::StaleIndexKey, what)
        .attribute(attribute)
        .found_expected(template_text(found), expected)
        .span(field.span.clone())
        .label(format!("`{attribute}` of `{}`", s.entity.name))
        .note(format!(
            "a query on `{}` finds the item under its old key, or misses it",
            index.name
        ))
        .help(format!(
            "render `{attribute}` again from {}; an update that changes one of them must set it too",
            inputs.join(", ")
        ))
}

fn missing_key(s: &Subject<'_>, field: &KeyField, index: &Index, text: &str) -> Finding {
    let attribute = &field.attribute;
    let mut f = s
        .finding(
            Code::MissingIndexKey,
            format!("`{attribute}` is missing; its template renders `{text}`"),
        )
        .attribute(attribute)
        .found_expected(None, Some(text.to_string()))
        .span(field.span.clone())
        .label(format!("`{attribute}` of `{}`", s.entity.name))
        .note(format!("the item is missing from index `{}`", index.name));
    if let Some(condition) = &field.condition {
        f = f.note(format!("its condition `{condition}` is true"));
    }
    f.help(format!("set `{attribute}` to `{text}`"))
}

fn gated(
    s: &Subject<'_>,
    field: &KeyField,
    index: &Index,
    condition: &str,
    found: &AttributeValue,
) -> Finding {
    let attribute = &field.attribute;
    let state = s
        .value(condition)
        .map_or_else(|| "missing".to_string(), |v| format!("`{v}`"));
    s.finding(
        Code::UnexpectedIndexKey,
        format!(
            "`{attribute}` is {} while its condition `{condition}` is {state}",
            shown(found)
        ),
    )
    .attribute(attribute)
    .found_expected(template_text(found), None)
    .span(field.span.clone())
    .label(format!("written only while `{condition}` is true"))
    .note(format!(
        "the item is in the sparse index `{}`, whose queries should not return it",
        index.name
    ))
    .help(format!(
        "remove `{attribute}` while `{condition}` is not true"
    ))
}

fn not_written(s: &Subject<'_>, attribute: &str, index: &Index, found: &AttributeValue) -> Finding {
    s.finding(
        Code::UnexpectedIndexKey,
        format!(
            "`{attribute}` is {}, but `{}` writes no `{attribute}`",
            shown(found),
            s.entity.name
        ),
    )
    .attribute(attribute)
    .found_expected(template_text(found), None)
    .span(s.entity.span.clone())
    .label(format!("no key `{attribute}`"))
    .note(format!(
        "the item is in index `{}`, where no access pattern expects it",
        index.name
    ))
    .help(format!(
        "remove `{attribute}` from the item, or give `{}` a `{attribute}` template",
        s.entity.name
    ))
}

#[cfg(test)]
mod tests;
