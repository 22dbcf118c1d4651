//! Validating entities: attributes, key templates and their conditions, the keys per index,
//! uniqueness constraints, relations and shared key namespaces.

use std::collections::{BTreeMap, BTreeSet};

use super::Validator;
use super::traffic::Stated;
use crate::error::IssueKind;
use crate::model::*;
use crate::raw::{self, RawAttribute, RawModel, Sp};
use crate::template::KeyTemplate;

impl Validator {
    pub(super) fn attribute(&mut self, name: &str, raw: &Sp<RawAttribute>) -> Attribute {
        let a = &raw.value;
        if a.ty.value == AttributeType::Enum && a.values.is_empty() {
            self.err(
                IssueKind::Invalid,
                format!("enum attribute `{name}` needs `values`"),
                &raw.span,
            );
        }
        if a.format.is_some() && a.ty.value != AttributeType::Timestamp {
            self.err(
                IssueKind::Invalid,
                format!("`format` only applies to timestamps, `{name}` is not one"),
                &raw.span,
            );
        }
        if a.cardinality == Some(0) {
            self.err_help(
                IssueKind::Invalid,
                format!("`cardinality = 0` on `{name}`: an attribute has at least one live value"),
                &raw.span,
                "state how many distinct values are live at once (a shard suffix `hash % N` has N)",
            );
        }
        self.attribute_bounds(name, raw);
        let default = a.default.as_ref().map(|d| {
            if !a.required.unwrap_or(false) {
                self.err_help(
                    IssueKind::Invalid,
                    format!("`default` on `{name}`, which is not required"),
                    &d.span,
                    "a default is what `migrate` writes on existing items that lack a required attribute; make it `required = true` or drop the default",
                );
            } else if let Err(why) = default_fits(a, &d.value) {
                self.err(
                    IssueKind::Invalid,
                    format!("default of `{name}`: {why}"),
                    &d.span,
                );
            }
            d.value.text()
        });
        Attribute {
            name: name.to_string(),
            ty: a.ty.value,
            required: a.required.unwrap_or(false),
            values: a.values.clone(),
            format: a.format.as_ref().map(|f| f.value),
            items: a.items,
            max_items: a.max_items,
            max_length: a.max_length,
            cardinality: a.cardinality,
            money: a.money.unwrap_or(false),
            description: a.description.clone(),
            default,
            span: raw.span.clone(),
            type_span: a.ty.span.clone(),
        }
    }

    pub(super) fn template(&mut self, text: &Sp<String>, what: &str) -> Option<KeyTemplate> {
        match KeyTemplate::parse(&text.value) {
            Ok(t) => Some(t),
            Err(e) => {
                self.err(
                    IssueKind::InvalidTemplate,
                    format!("{what}: {e}"),
                    &text.span,
                );
                None
            }
        }
    }

    /// The entity's key fields; a malformed template is reported and left out.
    fn key_fields(
        &mut self,
        name: &str,
        e: &raw::RawEntity,
        attributes: &[Attribute],
        model: &Model,
    ) -> Vec<KeyField> {
        let mut keys = Vec::new();
        for (attr, text) in &e.keys {
            let what = format!("key `{attr}` of `{name}`");
            let Some(template) = self.template(text, &what) else {
                continue;
            };
            self.key_length(&what, attr, &template, &text.span, model);
            let numeric = |v: &str| {
                attributes
                    .iter()
                    .find(|a| a.name == v)
                    .map(super::renders_number)
            };
            self.numeric_key(&what, attr, &template, &text.span, model, &numeric);
            for var in template.variables() {
                if !attributes.iter().any(|a| a.name == var) {
                    self.err_help(
                        IssueKind::UnknownReference,
                        format!("key `{attr}` of entity `{name}` uses `{{{var}}}`, which is not an attribute of `{name}`"),
                        &text.span,
                        format!("declare it under [entities.{name}.attributes]"),
                    );
                }
            }
            keys.push(KeyField {
                attribute: attr.clone(),
                template,
                condition: e.key_conditions.get(attr).map(|c| c.value.clone()),
                span: text.span.clone(),
            });
        }
        keys
    }

    fn key_conditions(&mut self, name: &str, e: &raw::RawEntity, attributes: &[Attribute]) {
        for (attr, cond) in &e.key_conditions {
            if !e.keys.contains_key(attr) {
                self.err(
                    IssueKind::UnknownReference,
                    format!("key condition for `{attr}`, which `{name}` does not write"),
                    &cond.span,
                );
            }
            match attributes.iter().find(|a| a.name == cond.value) {
                Some(a) if a.ty == AttributeType::Boolean => {}
                _ => self.err(
                    IssueKind::UnknownReference,
                    format!(
                        "key condition `{}` must name a boolean attribute of `{name}`",
                        cond.value
                    ),
                    &cond.span,
                ),
            }
        }
    }

    /// The table's keys must be written. A key whose template is malformed counts as written:
    /// its own error says what is wrong.
    fn table_keys_written(&mut self, name: &str, raw: &Sp<raw::RawEntity>, model: &Model) {
        let table = &model.table;
        let required = std::iter::once((&table.partition_key.name, "partition key"))
            .chain(table.sort_key.as_ref().map(|k| (&k.name, "sort key")));
        for (attribute, what) in required {
            if !raw.value.keys.contains_key(attribute) {
                self.err_help(
                    IssueKind::Invalid,
                    format!("entity `{name}` does not write the table's {what} `{attribute}`"),
                    &raw.span,
                    format!("add `{attribute} = \"...\"` under [entities.{name}.keys]"),
                );
            }
        }
    }

    fn unique(&mut self, name: &str, e: &raw::RawEntity, attributes: &[Attribute]) -> Vec<Unique> {
        let mut out = Vec::new();
        for u in &e.unique {
            for a in &u.value.attributes {
                if !attributes.iter().any(|x| &x.name == a) {
                    self.err(
                        IssueKind::UnknownReference,
                        format!("unique attribute `{a}` is not an attribute of `{name}`"),
                        &u.span,
                    );
                }
            }
            out.push(Unique {
                attributes: u.value.attributes.clone(),
                guard: u.value.guard.as_ref().map(|g| g.value.clone()),
                span: u.span.clone(),
            });
        }
        out
    }

    /// `cardinality`, `max_length` and `max_items` within what monotable and DynamoDB hold.
    fn attribute_bounds(&mut self, name: &str, raw: &Sp<RawAttribute>) {
        let a = &raw.value;
        let owner = format!(" on `{name}`");
        self.at_most(
            Stated::new("cardinality", &owner, a.cardinality, &raw.span),
            MAX_COUNT,
            "more live values than monotable takes (at most 1000000000)",
            "state the live values a write burst spreads over (a shard count), at most 1000000000, or leave `cardinality` out for an id-like attribute",
        );
        for (field, value, what) in [
            ("max_length", a.max_length, "bytes"),
            ("max_items", a.max_items, "elements"),
        ] {
            if value == Some(0) {
                self.err_help(
                    IssueKind::Invalid,
                    format!("`{field} = 0`{owner}: a bound of 0 {what} describes nothing"),
                    &raw.span,
                    format!(
                        "state the most {what} a value holds, at least 1, or leave `{field}` out"
                    ),
                );
            }
            self.at_most(
                Stated::new(field, &owner, value, &raw.span),
                MAX_ITEM_SIZE_BYTES,
                &format!("more {what} than an item holds: DynamoDB's items are at most 400 KB (409600 bytes)"),
                &format!("state the most {what} a value holds, at most 409600"),
            );
        }
    }

    fn relations(&mut self, e: &raw::RawEntity) -> Vec<Relation> {
        let mut out = Vec::new();
        for r in &e.relations {
            if r.value.max == Some(0) {
                self.err_help(
                    IssueKind::Invalid,
                    format!(
                        "relation to `{}` has `max = 0`: a relation holds at least one item",
                        r.value.entity.value
                    ),
                    &r.span,
                    "state the most related items the collection can hold, or remove the relation",
                );
            }
            let owner = format!(" in the relation to `{}`", r.value.entity.value);
            self.at_most(
                Stated::new("max", &owner, r.value.max, &r.span),
                MAX_COUNT,
                "more related items than monotable takes (at most 1000000000)",
                "state the most related items, at most 1000000000, or leave `max` out for an unbounded relation",
            );
            out.push(Relation {
                entity: r.value.entity.value.clone(),
                kind: r.value.kind,
                max: r.value.max,
                index: r.value.index.as_ref().map(|i| i.value.clone()),
                span: r.span.clone(),
            });
        }
        out
    }

    pub(super) fn entity(
        &mut self,
        name: &str,
        raw: &Sp<raw::RawEntity>,
        model: &Model,
    ) -> EntityDecl {
        let e = &raw.value;
        let attributes: Vec<Attribute> = e
            .attributes
            .iter()
            .map(|(n, a)| self.attribute(n, a))
            .collect();
        let keys = self.key_fields(name, e, &attributes, model);
        self.key_conditions(name, e, &attributes);
        self.table_keys_written(name, raw, model);
        EntityDecl {
            name: name.to_string(),
            index_keys: index_keys(model, &keys),
            unique: self.unique(name, e, &attributes),
            relations: self.relations(e),
            key_namespace: e.key_namespace.as_ref().map(|n| n.value.clone()),
            renamed_from: e.renamed_from.as_ref().map(|from| Named {
                name: from.value.clone(),
                span: from.span.clone(),
            }),
            attributes,
            keys,
            span: raw.span.clone(),
        }
    }

    pub(super) fn check_entity_refs(
        &mut self,
        raw: &RawModel,
        names: &BTreeSet<&str>,
        model: &Model,
    ) {
        for (name, e) in &raw.entities {
            if let Some(from) = &e.value.renamed_from
                && names.contains(from.value.as_str())
            {
                self.err_help(
                    IssueKind::Invalid,
                    format!(
                        "`{name}` is renamed from `{}`, which is an entity of this model",
                        from.value
                    ),
                    &from.span,
                    "name the entity's previous type; items of that type are rewritten as this one",
                );
            }
            for u in &e.value.unique {
                if let Some(g) = &u.value.guard
                    && !names.contains(g.value.as_str())
                {
                    self.err(
                        IssueKind::UnknownReference,
                        format!("guard entity `{}` of `{name}` is not declared", g.value),
                        &g.span,
                    );
                }
            }
            for r in &e.value.relations {
                if !names.contains(r.value.entity.value.as_str()) {
                    self.err(
                        IssueKind::UnknownReference,
                        format!(
                            "related entity `{}` of `{name}` is not declared",
                            r.value.entity.value
                        ),
                        &r.value.entity.span,
                    );
                }
                if let Some(i) = &r.value.index
                    && model.index(&i.value).is_none()
                {
                    self.err(
                        IssueKind::UnknownReference,
                        format!("relation index `{}` is not declared", i.value),
                        &i.span,
                    );
                }
            }
        }
    }

    /// A shared key namespace needs at least two entities to share it.
    pub(super) fn check_namespaces(&mut self, raw: &RawModel) {
        let mut members: BTreeMap<&str, Vec<(&str, &Sp<String>)>> = BTreeMap::new();
        for (name, e) in &raw.entities {
            if let Some(ns) = &e.value.key_namespace {
                members.entry(&ns.value).or_default().push((name, ns));
            }
        }
        for (ns, list) in members {
            if let [(only, declared)] = list.as_slice() {
                self.err_help(
                    IssueKind::Invalid,
                    format!("key namespace `{ns}` is named only by `{only}`: a namespace is shared by two entities or more"),
                    &declared.span,
                    format!("set `key_namespace = \"{ns}\"` on the entities that share `{only}`'s keys, or remove it"),
                );
            }
        }
    }
}

/// The entity's key templates per index it appears in (the table first): an entity is in an
/// index when it writes the index's partition key and sort key.
fn index_keys(model: &Model, keys: &[KeyField]) -> Vec<KeyTemplates> {
    let field = |attribute: &str| keys.iter().find(|k| k.attribute == attribute);
    let mut schemas = vec![(None, model.key_schema(None))];
    schemas.extend(
        model
            .indexes
            .iter()
            .map(|i| (Some(i.name.clone()), model.key_schema(Some(&i.name)))),
    );
    let mut out = Vec::new();
    for (index, schema) in schemas {
        let Some((pk, sk)) = schema else { continue };
        let Some(pk) = field(pk) else { continue };
        let sk = match sk {
            Some(sk) => match field(sk) {
                Some(k) => Some(k.clone()),
                None => continue,
            },
            None => None,
        };
        out.push(KeyTemplates {
            index,
            pk: pk.clone(),
            sk,
        });
    }
    out
}

/// Whether a default can be written as the attribute's type.
fn default_fits(a: &RawAttribute, d: &raw::DefaultValue) -> Result<(), String> {
    use raw::DefaultValue as D;
    let ok = match (a.ty.value, d) {
        (AttributeType::Boolean, D::Boolean(_)) => true,
        (AttributeType::Integer, D::Integer(_)) => true,
        (AttributeType::Number | AttributeType::Float, D::Integer(_)) => true,
        (AttributeType::Number | AttributeType::Float, D::Float(x)) => return dynamodb_float(*x),
        (AttributeType::Decimal, D::Integer(_)) => true,
        (AttributeType::Decimal, D::String(s)) if is_decimal(s) => return dynamodb_digits(s),
        (AttributeType::String, D::String(s)) => {
            return match a.max_length {
                Some(max) if s.len() as u64 > max => {
                    Err(format!("{} bytes, over `max_length = {max}`", s.len()))
                }
                _ => Ok(()),
            };
        }
        (AttributeType::Enum, D::String(s)) => {
            return if a.values.contains(s) {
                Ok(())
            } else {
                Err(format!("`{s}` is not one of the enum's `values`"))
            };
        }
        (AttributeType::Timestamp, D::Integer(_) | D::String(_)) => true,
        (AttributeType::List | AttributeType::Map | AttributeType::Set, _) => {
            return Err("only scalar attributes take a default".to_string());
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(match a.ty.value {
            AttributeType::Decimal => "write an exact decimal as a string, `\"0.00\"`".to_string(),
            ty => format!("not a value of type `{}`", ty.name()),
        })
    }
}

/// The most significant digits a DynamoDB number holds.
const MAX_NUMBER_DIGITS: usize = 38;

/// A float DynamoDB stores: finite, and 0 or of a magnitude from 1e-130 to below 1e126.
fn dynamodb_float(x: f64) -> Result<(), String> {
    if !x.is_finite() {
        return Err("DynamoDB stores no NaN or infinity: state a finite number".to_string());
    }
    let magnitude = x.abs();
    if magnitude != 0.0 && !(1e-130..1e126).contains(&magnitude) {
        return Err(format!(
            "`{x:e}` is outside the numbers DynamoDB stores (a magnitude from 1e-130 to below 1e126)"
        ));
    }
    Ok(())
}

/// An exact decimal DynamoDB stores: at most 38 significant digits.
fn dynamodb_digits(s: &str) -> Result<(), String> {
    let digits: String = s.chars().filter(char::is_ascii_digit).collect();
    let significant = digits.trim_start_matches('0').trim_end_matches('0').len();
    if significant > MAX_NUMBER_DIGITS {
        return Err(format!(
            "{significant} significant digits; a DynamoDB number holds at most {MAX_NUMBER_DIGITS}"
        ));
    }
    Ok(())
}

fn is_decimal(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
    !whole.is_empty()
        && !fraction.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.bytes().all(|b| b.is_ascii_digit())
}
