//! Partial updates that keep the design true: every index key whose template reads an attribute
//! the update changes is re-rendered and written in the same UpdateItem (or removed, when a sparse
//! index's condition turns false), and an update that changes one input of a key template without
//! knowing the others is refused before it is sent (`WriteError::PartialKeyUpdate`), since it
//! would leave the key stale. An entity with a version attribute is updated under optimistic
//! locking; without one, an update that renders a key from inputs it does not set requires the
//! item to still hold the values it rendered from, so a change another writer made meanwhile
//! fails the update instead of leaving a key that disagrees with the item.
//!
//! That is the typed face, [`Update`]. The dynamic one, [`UpdateItem`], sets and removes named
//! attributes of an item given by its key (a migration's rewrite, a measured update), with no
//! key re-rendered. Both build [`UpdateParts`], whose [`UpdateParts::send`] is the one
//! UpdateItem call; both fail with [`WriteError`]: an update of a missing item with
//! [`WriteError::NotFound`], of an item at another version with [`WriteError::VersionMismatch`],
//! a clause of its own condition with [`WriteError::ConditionFailed`] naming it.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use aws_sdk_dynamodb::types::{
    ConsumedCapacity, ReturnConsumedCapacity, ReturnValuesOnConditionCheckFailure,
};

use crate::entity::{Entity, EntityError, KeySpec};
use crate::handle::Table;
use crate::items::Item;
use crate::key::{Key, KeyArg, describe_key, render};
use crate::value::ValueError;
use crate::write::{Condition, Rendered, WriteError, describe, write_failed};

/// An UpdateItem of one item of `E`. Built by the derive's typed setters
/// (`order.unchecked_update().set_status(Status::Paid)`), or with [`Update::set`] directly.
pub struct Update<E> {
    key: Key<E>,
    known: HashMap<&'static str, KeyArg>,
    changed: HashMap<&'static str, KeyArg>,
    sets: Vec<(&'static str, AttributeValue)>,
    adds: Vec<(&'static str, AttributeValue)>,
    removes: Vec<&'static str>,
    condition: Condition,
    expected_version: Option<i64>,
    bump: bool,
    invalid: Option<WriteError>,
}

/// An update ready to send: the update expression, and the condition whose clauses name a
/// failure.
#[derive(Debug, Clone)]
pub struct UpdateParts {
    /// The item's key.
    pub key: Item,
    /// `SET ... REMOVE ...`; empty when the update changes nothing (it then only checks its
    /// condition: that the item exists, at the version expected).
    pub update: String,
    /// The update expression's placeholder names (`#uN`).
    pub names: HashMap<String, String>,
    /// The update expression's placeholder values (`:uN`).
    pub values: HashMap<String, AttributeValue>,
    /// The condition (rendered with placeholders `#cN`, `:cN` when sent).
    pub condition: Condition,
    /// The entity, for a transaction's cancellation reasons; empty for an update built at run
    /// time.
    pub entity: &'static str,
    /// The item, for messages.
    pub description: String,
}

impl<E: Entity> Update<E> {
    /// An update of the item `entity` is: every key input is known, and an entity with a version
    /// attribute is updated only if still at `entity`'s version (the update bumps it).
    pub fn of(entity: &E) -> Update<E> {
        let mut update = Update::by_key(entity.key(), entity.key_args());
        update.expected_version = entity.version().filter(|_| E::VERSION.is_some());
        // Its key inputs render index keys: one that cannot be stored exactly would render
        // them wrong.
        match entity.validate() {
            Ok(()) => update,
            Err(e) => update.refuse(e),
        }
    }

    /// An update of the item at `key`, knowing the key inputs in `known` (those of the table's
    /// key at least: the derive's `unchecked_update_key` passes them).
    pub fn by_key(key: Key<E>, known: HashMap<&'static str, KeyArg>) -> Update<E> {
        Update {
            key,
            known,
            changed: HashMap::new(),
            sets: Vec::new(),
            adds: Vec::new(),
            removes: Vec::new(),
            condition: Condition::none(),
            expected_version: None,
            bump: false,
            invalid: None,
        }
    }

    /// The same update, refused when `result`, the check of the value a setter gives
    /// `attribute`, failed (support for derived code).
    #[doc(hidden)]
    pub fn checked(self, attribute: &'static str, result: Result<(), ValueError>) -> Self {
        match crate::entity::stored_exactly(E::NAME, attribute, result) {
            Ok(()) => self,
            Err(e) => self.refuse(e),
        }
    }

    /// Refuse the update with `error` (a key value it cannot render exactly): `send` and
    /// `build` then return it and send nothing.
    #[doc(hidden)]
    pub fn reject(mut self, error: WriteError) -> Self {
        self.invalid.get_or_insert(error);
        self
    }

    /// Refuse the update: `error` says which value cannot be stored exactly; `build` and
    /// `send` return it as [`WriteError::Invalid`] (the first one given) and send nothing.
    pub fn refuse(mut self, error: EntityError) -> Self {
        if self.invalid.is_none() {
            self.invalid = Some(WriteError::Invalid {
                item: describe::<E>(self.key.item()),
                source: error,
            });
        }
        self
    }

    /// Drop what the update did to `attribute` so far: the last change of an attribute wins
    /// (DynamoDB refuses an expression that names an attribute twice).
    fn forget(&mut self, attribute: &str) {
        self.changed.remove(attribute);
        self.sets.retain(|(a, _)| *a != attribute);
        self.adds.retain(|(a, _)| *a != attribute);
        self.removes.retain(|a| *a != attribute);
    }

    /// Set `attribute` to `value`; `arg` is its key text when a key template reads it. The last
    /// change of an attribute wins. An empty set removes the attribute (DynamoDB holds no empty
    /// set).
    pub fn set(
        mut self,
        attribute: &'static str,
        value: AttributeValue,
        arg: Option<KeyArg>,
    ) -> Self {
        if crate::value::is_empty_set(&value) {
            return self.remove(attribute);
        }
        self.forget(attribute);
        if let Some(arg) = arg {
            self.changed.insert(attribute, arg);
        }
        self.sets.push((attribute, value));
        self
    }

    /// Remove `attribute` (an optional one).
    pub fn remove(mut self, attribute: &'static str) -> Self {
        self.forget(attribute);
        self.removes.push(attribute);
        self
    }

    /// Add `delta` to the number in `attribute` (`SET a = a + :d`); a key input cannot be
    /// changed this way, as its new value is unknown before the write.
    pub fn add(mut self, attribute: &'static str, delta: AttributeValue) -> Self {
        self.forget(attribute);
        self.adds.push((attribute, delta));
        self
    }

    /// Require `condition` too.
    pub fn when(mut self, condition: Condition) -> Self {
        self.condition = std::mem::take(&mut self.condition).and(condition);
        self
    }

    /// Update only if the item is at `version` (and bump it), even when built from a key.
    pub fn expect_version(mut self, version: i64) -> Self {
        self.expected_version = Some(version);
        self
    }

    /// Add one to the version attribute without requiring a version (a write that must not
    /// fail on a concurrent change, but that readers holding the old version should notice).
    pub fn bump_version(mut self) -> Self {
        self.bump = true;
        self
    }

    /// Check the update and write its expressions, re-rendering every index key it affects.
    pub fn build(mut self) -> Result<UpdateParts, WriteError> {
        if let Some(invalid) = self.invalid.take() {
            return Err(invalid);
        }
        let mut sets = self.sets.clone();
        let mut removes: Vec<&'static str> = self.removes.clone();
        // The inputs a key is rendered from without the update changing them.
        let mut read: Vec<&'static str> = Vec::new();
        for spec in E::KEYS.iter().filter(|k| !k.is_primary()) {
            let rerender = self.rerender(spec)?;
            let used: Vec<&'static str> = match rerender {
                Rerender::Untouched => Vec::new(),
                Rerender::Set(_) => crate::key::inputs(spec.template)
                    .chain(spec.condition)
                    .collect(),
                Rerender::Remove => spec.condition.into_iter().collect(),
            };
            read.extend(used.into_iter().filter(|i| self.unchanged(i)));
            match rerender {
                Rerender::Untouched => {}
                Rerender::Set(value) => sets.push((spec.attribute, value)),
                Rerender::Remove => removes.push(spec.attribute),
            }
        }
        // An update never creates an item: it changes one that exists (at the version expected,
        // under optimistic locking), and then its own clauses must hold.
        let mut condition = Condition::item_exists::<E>();
        let mut adds = self.adds.clone();
        if let (Some(version), Some(expected)) = (E::VERSION, self.expected_version) {
            condition = condition.and(Condition::version(version, expected));
            sets.retain(|(a, _)| *a != version);
            adds.retain(|(a, _)| *a != version);
            sets.push((
                version,
                AttributeValue::N((expected.saturating_add(1)).to_string()),
            ));
        } else if let (Some(version), true) = (E::VERSION, self.bump) {
            sets.retain(|(a, _)| *a != version);
            adds.retain(|(a, _)| *a != version);
            adds.push((version, AttributeValue::N("1".into())));
        }
        condition = condition.and(self.condition.clone());
        // Without a version to check, a key rendered from values read earlier is only right
        // while the item still holds them: another writer may have changed one since.
        let versioned = E::VERSION.is_some() && self.expected_version.is_some();
        if !versioned {
            let primary: Vec<&str> = E::KEYS
                .iter()
                .filter(|k| k.is_primary())
                .flat_map(|k| crate::key::inputs(k.template))
                .collect();
            read.sort_unstable();
            read.dedup();
            for input in read.into_iter().filter(|i| !primary.contains(i)) {
                if let Some(value) = self.known.get(input).and_then(KeyArg::stored_value) {
                    condition = condition.and(Condition::equals(input, value.clone()));
                }
            }
        }
        let mut parts = UpdateParts {
            key: self.key.item().clone(),
            update: String::new(),
            names: HashMap::new(),
            values: HashMap::new(),
            condition,
            entity: E::NAME,
            description: describe::<E>(self.key.item()),
        };
        write_expression(&mut parts, &sets, &adds, &removes);
        Ok(parts)
    }

    /// Whether the update leaves `attribute` as it is.
    fn unchanged(&self, attribute: &str) -> bool {
        !self.changed.contains_key(attribute)
            && !self.removes.contains(&attribute)
            && !self.sets.iter().any(|(a, _)| *a == attribute)
    }

    /// What the update does to the index key `spec`.
    fn rerender(&self, spec: &KeySpec) -> Result<Rerender, WriteError> {
        let touched = |name: &str| self.changed.contains_key(name) || self.removes.contains(&name);
        let inputs: Vec<&'static str> = crate::key::inputs(spec.template)
            .chain(spec.condition)
            .collect();
        let Some(changed) = inputs.iter().copied().find(|i| touched(i)) else {
            if let Some((added, _)) = self.adds.iter().find(|(a, _)| inputs.contains(a)) {
                return Err(WriteError::KeyInputAdded {
                    entity: E::NAME,
                    key: spec.attribute,
                    attribute: added,
                });
            }
            return Ok(Rerender::Untouched);
        };
        let arg = |name: &'static str| self.changed.get(name).or_else(|| self.known.get(name));
        let missing = |name: &'static str| WriteError::PartialKeyUpdate {
            entity: E::NAME,
            key: spec.attribute,
            changed,
            missing: name,
        };
        if let Some(flag) = spec.condition {
            if self.removes.contains(&flag) {
                return Ok(Rerender::Remove);
            }
            let mut text = String::new();
            arg(flag)
                .ok_or_else(|| missing(flag))?
                .write(&mut text, None);
            if text != "true" {
                return Ok(Rerender::Remove);
            }
        }
        let args: HashMap<&'static str, KeyArg> = crate::key::inputs(spec.template)
            .map(|name| {
                arg(name)
                    .cloned()
                    .map(|a| (name, a))
                    .ok_or_else(|| missing(name))
            })
            .collect::<Result<_, _>>()?;
        let text = render(spec.template, &args).map_err(missing)?;
        Ok(Rerender::Set(spec.kind.value(text)))
    }

    /// Send it.
    pub async fn send(self, table: &Table) -> Result<(), WriteError> {
        self.build()?.send(table).await
    }
}

impl UpdateParts {
    /// The condition expression and every placeholder, the update's and the condition's.
    pub fn expressions(&self) -> Rendered {
        let mut rendered = self.condition.render("c");
        rendered.names.extend(self.names.clone());
        rendered.values.extend(self.values.clone());
        rendered
    }

    send_and_measured!("UpdateItem", |this, table, measure| {
        let mut rendered = this.condition.render("c");
        rendered.names.extend(this.names);
        rendered.values.extend(this.values);
        let old = rendered
            .text
            .is_some()
            .then_some(ReturnValuesOnConditionCheckFailure::AllOld);
        let (text, names, values) = rendered.into_parts();
        table
            .client()
            .update_item()
            .table_name(table.name())
            .set_key(Some(this.key))
            // Nothing to change: the item's condition is still checked.
            .set_update_expression((!this.update.is_empty()).then_some(this.update))
            .set_condition_expression(text)
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
            .set_return_values_on_condition_check_failure(old)
            .set_return_consumed_capacity(measure.then_some(ReturnConsumedCapacity::Indexes))
            .send()
            .await
    });
}

/// An UpdateItem of named attributes of the item at a key, built at run time: no key is
/// re-rendered (the caller sets every attribute that changes), and it is sent only if its
/// condition holds.
#[derive(Debug, Clone)]
pub struct UpdateItem {
    key: Item,
    sets: Vec<(String, AttributeValue)>,
    adds: Vec<(String, AttributeValue)>,
    removes: Vec<String>,
    condition: Condition,
}

impl UpdateItem {
    /// An update of the item at `key`.
    pub fn new(key: Item) -> UpdateItem {
        UpdateItem {
            key,
            sets: Vec::new(),
            adds: Vec::new(),
            removes: Vec::new(),
            condition: Condition::none(),
        }
    }

    /// Add `delta` to the number in `attribute` in the write itself (`SET a = a + :d`).
    pub fn add(mut self, attribute: impl Into<String>, delta: AttributeValue) -> UpdateItem {
        self.adds.push((attribute.into(), delta));
        self
    }

    /// Set `attribute` to `value`.
    pub fn set(mut self, attribute: impl Into<String>, value: AttributeValue) -> UpdateItem {
        self.sets.push((attribute.into(), value));
        self
    }

    /// Remove `attribute`.
    pub fn remove(mut self, attribute: impl Into<String>) -> UpdateItem {
        self.removes.push(attribute.into());
        self
    }

    /// Only when `condition` holds ([`WriteError::ConditionFailed`] otherwise).
    pub fn when(mut self, condition: Condition) -> UpdateItem {
        self.condition = std::mem::take(&mut self.condition).and(condition);
        self
    }

    /// Whether it sets or removes nothing.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty() && self.adds.is_empty() && self.removes.is_empty()
    }

    /// Its expressions, ready to send or to put in a transaction.
    pub fn build(self) -> UpdateParts {
        let mut parts = UpdateParts {
            description: describe_key(&self.key),
            key: self.key,
            update: String::new(),
            names: HashMap::new(),
            values: HashMap::new(),
            condition: self.condition,
            entity: "",
        };
        write_expression(&mut parts, &self.sets, &self.adds, &self.removes);
        parts
    }
}

enum Rerender {
    Untouched,
    Set(AttributeValue),
    Remove,
}

/// `SET #u0 = :u0, #u1 = #u1 + :u1 REMOVE #u2` into `parts`.
fn write_expression<S: AsRef<str>, A: AsRef<str>, R: AsRef<str>>(
    parts: &mut UpdateParts,
    sets: &[(S, AttributeValue)],
    adds: &[(A, AttributeValue)],
    removes: &[R],
) {
    let mut n = 0usize;
    let mut assignments = Vec::new();
    let mut name = |parts: &mut UpdateParts, attribute: &str| {
        let placeholder = format!("#u{n}");
        n += 1;
        parts
            .names
            .insert(placeholder.clone(), attribute.to_string());
        placeholder
    };
    for (attribute, value) in sets {
        let p = name(parts, attribute.as_ref());
        let v = format!(":{}", &p[1..]);
        parts.values.insert(v.clone(), value.clone());
        assignments.push(format!("{p} = {v}"));
    }
    for (attribute, delta) in adds {
        let p = name(parts, attribute.as_ref());
        let v = format!(":{}", &p[1..]);
        parts.values.insert(v.clone(), delta.clone());
        assignments.push(format!("{p} = {p} + {v}"));
    }
    let mut text = String::new();
    if !assignments.is_empty() {
        text.push_str("SET ");
        text.push_str(&assignments.join(", "));
    }
    let removed: Vec<String> = removes.iter().map(|a| name(parts, a.as_ref())).collect();
    if !removed.is_empty() {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str("REMOVE ");
        text.push_str(&removed.join(", "));
    }
    parts.update = text;
}
