//! PutItem: one whole item written, under a condition or not. Typed: [`Table::create`],
//! [`Table::put`], [`Table::replace`] of an entity, each a [`PutSpec`]. Dynamic: a
//! [`PutSpec::item`] of an item built at run time (a sample, a migration's checkpoint, an item a
//! person edited). Either way [`PutSpec::send`] is the one PutItem call; it fails with
//! [`WriteError`].

use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity};

use crate::entity::{Entity, EntityError};
use crate::handle::Table;
use crate::items::Item;
use crate::key::describe_key;
use crate::write::{Condition, Failure, WriteError, describe, write_failed};

/// One PutItem: the item, its condition and how a failed one is reported.
#[derive(Debug, Clone)]
pub struct PutSpec {
    /// The item.
    pub item: Item,
    /// The condition.
    pub condition: Condition,
    /// What a failed condition means.
    pub on_failure: Failure,
    /// The item, for messages.
    pub description: String,
    /// Why the entity cannot be stored exactly, when it cannot ([`Entity::validate`]): `send`
    /// then returns [`WriteError::Invalid`] and sends nothing.
    pub invalid: Option<EntityError>,
}

impl PutSpec {
    /// Create `entity`: fails with [`WriteError::AlreadyExists`] when an item has its key.
    pub fn create<E: Entity>(entity: &E) -> PutSpec {
        Self::new(entity, Condition::item_absent::<E>(), Failure::Exists)
    }

    /// Write `entity` whatever is there.
    pub fn put<E: Entity>(entity: &E) -> PutSpec {
        Self::new(entity, Condition::none(), Failure::Condition)
    }

    /// Replace `entity`'s item when it is at `expected` version (the entity's version
    /// attribute), or at least exists when the entity has none.
    pub fn replace<E: Entity>(entity: &E, expected: i64) -> PutSpec {
        match E::VERSION {
            Some(version) => Self::new(
                entity,
                Condition::eq(version, expected),
                Failure::Version(expected),
            ),
            None => Self::new(entity, Condition::item_exists::<E>(), Failure::Condition),
        }
    }

    /// Write `entity` when `condition` holds.
    pub fn put_if<E: Entity>(entity: &E, condition: Condition) -> PutSpec {
        Self::new(entity, condition, Failure::Condition)
    }

    fn new<E: Entity>(entity: &E, condition: Condition, on_failure: Failure) -> PutSpec {
        let key = entity.key();
        PutSpec {
            item: entity.to_item(),
            condition,
            on_failure,
            description: describe::<E>(key.item()),
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
            on_failure: Failure::Condition,
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
        table
            .client()
            .put_item()
            .table_name(table.name())
            .set_item(Some(this.item))
            .set_condition_expression(text)
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
            .set_return_consumed_capacity(measure.then_some(ReturnConsumedCapacity::Indexes))
            .send()
            .await
    });
}

impl Table {
    /// Write one item as `spec` says.
    pub async fn write(&self, spec: PutSpec) -> Result<(), WriteError> {
        spec.send(self).await
    }

    /// Create `entity`; [`WriteError::AlreadyExists`] when its key is taken.
    pub async fn create<E: Entity>(&self, entity: &E) -> Result<(), WriteError> {
        self.write(PutSpec::create(entity)).await
    }

    /// Write `entity` whatever is there.
    pub async fn put<E: Entity>(&self, entity: &E) -> Result<(), WriteError> {
        self.write(PutSpec::put(entity)).await
    }

    /// Replace `entity`'s item if it is still at version `expected`.
    pub async fn replace<E: Entity>(&self, entity: &E, expected: i64) -> Result<(), WriteError> {
        self.write(PutSpec::replace(entity, expected)).await
    }
}
