//! PutItem: one whole item written, under a condition or not. Typed: [`PutSpec::create`],
//! [`PutSpec::put`], [`PutSpec::replace`] of an entity (sent by `UncheckedWrites`, or in a
//! transaction). Dynamic: a
//! [`PutSpec::item`] of an item built at run time (a sample, a migration's checkpoint, an item a
//! person edited). Either way [`PutSpec::send`] is the one PutItem call; it fails with
//! [`WriteError`], a failed condition named by the clause that failed.

use aws_sdk_dynamodb::types::{
    ConsumedCapacity, ReturnConsumedCapacity, ReturnValuesOnConditionCheckFailure,
};

use crate::entity::{Entity, EntityError};
use crate::handle::Table;
use crate::items::Item;
use crate::key::describe_key;
use crate::write::{Condition, WriteError, describe, write_failed};

/// One PutItem: the item and its condition, whose clauses name a failure.
#[derive(Debug, Clone)]
pub struct PutSpec {
    /// The item.
    pub item: Item,
    /// The condition.
    pub condition: Condition,
    /// The entity, for a transaction's cancellation reasons; empty for an item built at run
    /// time.
    pub entity: &'static str,
    /// The item, for messages.
    pub description: String,
    /// Why the entity cannot be stored exactly, when it cannot ([`Entity::validate`]): `send`
    /// then returns [`WriteError::Invalid`] and sends nothing.
    pub invalid: Option<EntityError>,
}

impl PutSpec {
    /// Create `entity`: fails with [`WriteError::AlreadyExists`] when an item has its key.
    pub fn create<E: Entity>(entity: &E) -> PutSpec {
        Self::new(entity, Condition::item_absent::<E>())
    }

    /// Write `entity` whatever is there.
    pub fn put<E: Entity>(entity: &E) -> PutSpec {
        Self::new(entity, Condition::none())
    }

    /// Replace `entity`'s item: it must exist ([`WriteError::NotFound`]) and, when the entity
    /// has a version attribute, be at version `expected` ([`WriteError::VersionMismatch`]).
    pub fn replace<E: Entity>(entity: &E, expected: i64) -> PutSpec {
        let exists = Condition::item_exists::<E>();
        match E::VERSION {
            Some(version) => Self::new(entity, exists.and(Condition::version(version, expected))),
            None => Self::new(entity, exists),
        }
    }

    /// Write `entity` when `condition` holds.
    pub fn put_if<E: Entity>(entity: &E, condition: Condition) -> PutSpec {
        Self::new(entity, condition)
    }

    fn new<E: Entity>(entity: &E, condition: Condition) -> PutSpec {
        let item = entity.to_item();
        // The table key's attributes, as the item holds them: no template rendered twice.
        let key: Item = E::KEYS
            .iter()
            .filter(|k| k.is_primary())
            .filter_map(|k| Some((k.attribute.to_string(), item.get(k.attribute)?.clone())))
            .collect();
        let key = if key.is_empty() {
            entity.key().into_item()
        } else {
            key
        };
        PutSpec {
            item,
            condition,
            entity: E::NAME,
            description: describe::<E>(&key),
            invalid: entity.validate().err(),
        }
    }

    /// Write `item`, an item built at run time, whatever is there; `key` names its key
    /// attributes for messages (the item's own, in name order, when empty).
    pub fn item(item: Item, key: &[&str]) -> PutSpec {
        let shown: Item = item
            .iter()
            .filter(|(name, _)| key.contains(&name.as_str()))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        PutSpec {
            description: describe_key(&shown),
            item,
            condition: Condition::none(),
            entity: "",
            invalid: None,
        }
    }

    /// The same put, only when `condition` also holds.
    pub fn when(mut self, condition: Condition) -> PutSpec {
        self.condition = std::mem::take(&mut self.condition).and(condition);
        self
    }

    send_and_measured!("PutItem", |this, table, measure| {
        if let Some(source) = this.invalid {
            return Err(WriteError::Invalid {
                item: this.description,
                source,
            });
        }
        let (text, names, values) = this.condition.render("c").into_parts();
        let old = text
            .is_some()
            .then_some(ReturnValuesOnConditionCheckFailure::AllOld);
        table
            .client()
            .put_item()
            .table_name(table.name())
            .set_item(Some(this.item))
            .set_condition_expression(text)
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
            .set_return_values_on_condition_check_failure(old)
            .set_return_consumed_capacity(measure.then_some(ReturnConsumedCapacity::Indexes))
            .send()
            .await
    });
}
