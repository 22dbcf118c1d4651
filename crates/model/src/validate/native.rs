//! Native multi-attribute keys: the query rules DynamoDB enforces on a pattern over such an
//! index (every partition attribute by equality; sort attributes left to right with no gaps,
//! equalities before the last, only the last a range or `begins_with`), and the entities'
//! attributes that make up the key (plain values of a key type, never templates).

use std::ops::Range;

use super::pattern::Keys;
use super::{Validator, renders_number};
use crate::error::IssueKind;
use crate::model::*;
use crate::raw;

/// `status = "{status}", shard = "{shard}"`: the allowed form of the first `count` attributes,
/// each an equality.
fn equalities(attributes: &[KeyAttribute]) -> String {
    attributes
        .iter()
        .map(|k| format!("{} = \"{{{}}}\"", k.name, k.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The attributes of `index`, for messages: `status, shard | createdAt, orderId`.
fn shape(index: &Index) -> String {
    let names = |keys: &[KeyAttribute]| {
        keys.iter()
            .map(|k| k.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "partition ({}), sort ({})",
        names(&index.partition_keys),
        names(&index.sort_keys)
    )
}

/// Whether an attribute of model type `a` can be a key attribute of type `ty`.
fn fits(a: &Attribute, ty: KeyAttributeType) -> bool {
    match ty {
        KeyAttributeType::N => renders_number(a),
        KeyAttributeType::S => {
            !renders_number(a)
                && matches!(
                    a.ty,
                    AttributeType::String | AttributeType::Enum | AttributeType::Timestamp
                )
        }
        KeyAttributeType::B => false,
    }
}

impl Validator {
    /// The conditions of pattern `name` on native index `index`, sorted into the index's
    /// attributes, with DynamoDB's query rules checked.
    pub(super) fn native_keys(
        &mut self,
        name: &str,
        p: &raw::RawPattern,
        params: &[Attribute],
        model: &Model,
        index: &Index,
        span: &Range<usize>,
    ) -> Keys {
        let mut keys = Keys::default();
        let mut partition: Vec<Option<KeyCondition>> = vec![None; index.partition_keys.len()];
        let mut sort: Vec<Option<KeyCondition>> = vec![None; index.sort_keys.len()];
        for (attr, text) in &p.key {
            let Some(condition) = self.key_condition(name, attr, text, &mut keys) else {
                continue;
            };
            self.condition_variables(name, p, params, model, text, &condition);
            self.native_value(name, attr, &condition, &text.span);
            let kc = KeyCondition {
                attribute: attr.clone(),
                condition,
                span: text.span.clone(),
            };
            let slot = |keys: &[KeyAttribute]| keys.iter().position(|k| &k.name == attr);
            if let Some(i) = slot(&index.partition_keys) {
                partition[i] = Some(kc);
            } else if let Some(i) = slot(&index.sort_keys) {
                sort[i] = Some(kc);
            } else {
                self.err_help(
                    IssueKind::UnknownReference,
                    format!("`{attr}` is not a key attribute of index `{}`", index.name),
                    &text.span,
                    format!("its key attributes are {}", shape(index)),
                );
            }
        }
        let ok = self.native_partition(name, index, &partition, &keys.broken, span)
            & self.native_sort(name, index, &sort);
        if !ok && let Some(first) = index.partition_keys.first() {
            keys.broken.push(first.name.clone());
        }
        keys.pk = partition.first().cloned().flatten();
        keys.sk = sort.iter().rev().find_map(Clone::clone);
        keys.all = partition.into_iter().chain(sort).flatten().collect();
        keys
    }

    /// A native key attribute holds the item's own value: its condition compares with one
    /// variable or a literal, never a template with a prefix.
    fn native_value(&mut self, name: &str, attr: &str, condition: &Condition, span: &Range<usize>) {
        let mixed = condition
            .templates()
            .into_iter()
            .any(|t| t.segments().len() > 1);
        if mixed {
            self.err_help(
                IssueKind::InvalidTemplate,
                format!("key condition on `{attr}` of `{name}` builds a string, but `{attr}` is a native key attribute: items hold the plain value"),
                span,
                format!("compare with one variable or a literal: `{attr} = \"{{{attr}}}\"`"),
            );
        }
    }

    /// Every partition attribute needs an equality. False when a rule was broken.
    fn native_partition(
        &mut self,
        name: &str,
        index: &Index,
        partition: &[Option<KeyCondition>],
        broken: &[String],
        span: &Range<usize>,
    ) -> bool {
        let mut ok = true;
        let form = equalities(&index.partition_keys);
        for (key, given) in index.partition_keys.iter().zip(partition) {
            match given {
                None if broken.contains(&key.name) => ok = false,
                None => {
                    ok = false;
                    self.err_help(
                        IssueKind::Invalid,
                        format!("pattern `{name}` gives no condition on `{}`, a partition attribute of index `{}`: every partition attribute needs an equality", key.name, index.name),
                        span,
                        format!("write `key = {{ {form}, ... }}`"),
                    );
                }
                Some(kc) if !matches!(kc.condition, Condition::Eq(_)) => {
                    ok = false;
                    self.err_help(
                        IssueKind::Invalid,
                        format!("`{}` is a partition attribute of index `{}`: its condition in `{name}` must be an equality", key.name, index.name),
                        &kc.span,
                        format!("write `{} = \"{{{}}}\"`; ranges and `begins_with` go on the last sort attribute given", key.name, key.name),
                    );
                }
                Some(_) => {}
            }
        }
        ok
    }

    /// Sort attributes left to right with no gaps, equalities before the last one given. False
    /// when a rule was broken.
    fn native_sort(&mut self, name: &str, index: &Index, sort: &[Option<KeyCondition>]) -> bool {
        let Some(last) = sort.iter().rposition(Option::is_some) else {
            return true;
        };
        let mut ok = true;
        let given = sort[last]
            .as_ref()
            .map(|k| k.span.clone())
            .unwrap_or_default();
        for (i, (key, slot)) in index.sort_keys.iter().zip(sort).enumerate().take(last + 1) {
            let later = &index.sort_keys[last].name;
            match slot {
                None => {
                    ok = false;
                    self.err_help(
                        IssueKind::Invalid,
                        format!("pattern `{name}` gives `{later}` but not `{}` before it: sort attributes of index `{}` are given left to right, with no gaps", key.name, index.name),
                        &given,
                        format!("give `{}` too (`{}`), or stop before `{later}`", key.name, equalities(&index.sort_keys[..=i])),
                    );
                }
                Some(kc) if i < last && !matches!(kc.condition, Condition::Eq(_)) => {
                    ok = false;
                    self.err_help(
                        IssueKind::Invalid,
                        format!("`{}` comes before `{later}` in the sort key of index `{}`, so its condition in `{name}` must be an equality: only the last sort attribute given may carry a range or `begins_with`", key.name, index.name),
                        &kc.span,
                        format!("write `{} = \"{{{}}}\"`, or drop `{later}` and keep the range on `{}`", key.name, key.name, key.name),
                    );
                }
                Some(_) => {}
            }
        }
        ok
    }

    /// Each entity's native key attributes: plain attributes of a type the key holds, never
    /// written through `keys.*` templates.
    pub(super) fn check_native_entities(&mut self, model: &Model) {
        for index in model.indexes.iter().filter(|i| i.native) {
            for entity in &model.entities {
                // A key typed one way here and another elsewhere is reported once, by
                // `key_types`.
                let agreed = index
                    .key_attributes()
                    .filter(|k| model.key_attribute_type(&k.name) == Some(k.ty));
                for key in agreed {
                    self.native_attribute(index, entity, key);
                }
            }
        }
    }

    fn native_attribute(&mut self, index: &Index, entity: &Entity, key: &KeyAttribute) {
        if let Some(field) = entity.key_field(&key.name) {
            let help = match entity.attribute(&key.name) {
                Some(_) => format!(
                    "drop `keys.{}`: the index reads the item's own `{}` attribute, stored as the plain value",
                    key.name, key.name
                ),
                None => format!(
                    "drop `keys.{}` and declare the attribute: `attributes.{} = {{ type = \"{}\", required = true }}`",
                    key.name,
                    key.name,
                    if key.ty == KeyAttributeType::N {
                        "integer"
                    } else {
                        "string"
                    }
                ),
            };
            self.err_help(
                IssueKind::Invalid,
                format!("`{}` is a native key attribute of index `{}`, which items write as an ordinary attribute, but `{}` writes it through a key template", key.name, index.name, entity.name),
                &field.span,
                help,
            );
        }
        let Some(attribute) = entity.attribute(&key.name) else {
            return;
        };
        if !fits(attribute, key.ty) {
            self.native_type_mismatch(index, entity, key, attribute);
        }
    }

    /// An attribute whose model type the key type cannot hold.
    fn native_type_mismatch(
        &mut self,
        index: &Index,
        entity: &Entity,
        key: &KeyAttribute,
        attribute: &Attribute,
    ) {
        let can = match key.ty {
            KeyAttributeType::N => {
                "an N key holds an `integer`, `decimal`, `number` or epoch `timestamp`"
            }
            KeyAttributeType::S => "an S key holds a `string`, `enum` or ISO 8601 `timestamp`",
            KeyAttributeType::B => {
                "a B key holds no model type (binary attributes are not modelled)"
            }
        };
        let other = [KeyAttributeType::S, KeyAttributeType::N]
            .into_iter()
            .find(|ty| fits(attribute, *ty))
            .map_or_else(String::new, |ty| {
                format!(
                    ", or key on it as `{{ name = \"{}\", type = \"{ty:?}\" }}` (one type across the table)",
                    key.name
                )
            });
        let ty = serde_json::to_value(attribute.ty)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| format!("{:?}", attribute.ty));
        self.err_help(
            IssueKind::Invalid,
            format!(
                "`{}` of `{}` is a `{ty}`, but index `{}` keys on it as {:?}",
                key.name, entity.name, index.name, key.ty
            ),
            &attribute.type_span,
            format!("{can}: change the attribute's type{}", other),
        );
    }
}
