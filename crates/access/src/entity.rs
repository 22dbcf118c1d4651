//! Entities as Rust types: what `#[derive(monotable::Entity)]` implements. The derive checks the
//! struct against the model's entity at compile time and compiles the entity's key templates into
//! plain string building, so nothing here reads the model at run time.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::items::{ENTITY_TYPE, Item};
use crate::key::{Key, KeyArg, KeyKind, Seg};
use crate::value::ValueError;

/// An item could not be read as an entity.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EntityError {
    /// A required attribute is missing.
    #[error("{entity} item has no `{attribute}`")]
    Missing {
        /// The entity.
        entity: &'static str,
        /// The attribute.
        attribute: &'static str,
    },
    /// An attribute holds a value of the wrong type or shape.
    #[error("{entity} item attribute `{attribute}`: {source}")]
    Value {
        /// The entity.
        entity: &'static str,
        /// The attribute.
        attribute: &'static str,
        /// Why.
        source: ValueError,
    },
    /// A value of the entity that cannot be stored as its attribute exactly (a time finer
    /// than its format, a string over its `max_length`, NaN, ...): nothing is written.
    #[error("{entity} attribute `{attribute}` cannot be stored: {source}")]
    Unstorable {
        /// The entity.
        entity: &'static str,
        /// The attribute.
        attribute: &'static str,
        /// What the value is, and what the attribute can hold.
        source: ValueError,
    },
    /// The item is another entity's.
    #[error("the item is a {found}, not a {entity}")]
    OtherEntity {
        /// The entity asked for.
        entity: &'static str,
        /// The item's `entityType`.
        found: String,
    },
}

/// One key attribute an entity writes, and what it is rendered from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeySpec {
    /// The key attribute (`GSI2PK`).
    pub attribute: &'static str,
    /// The index it belongs to; `None` for the table's own key (or a key on no declared index).
    pub index: Option<&'static str>,
    /// Whether it is part of the table's key.
    pub primary: bool,
    /// Its template, compiled.
    pub template: &'static [Seg],
    /// The key attribute's declared type.
    pub kind: KeyKind,
    /// The boolean attribute that must be true for the entity to write it (a sparse index).
    pub condition: Option<&'static str>,
}

impl KeySpec {
    /// Whether it is part of the table's primary key.
    pub fn is_primary(&self) -> bool {
        self.primary
    }
}

/// A Rust type that is one entity of a model.
pub trait Entity: Sized + Send + Sync + 'static {
    /// The model's name for it, written as the item's `entityType`.
    const NAME: &'static str;
    /// Every key attribute it writes, table key first.
    const KEYS: &'static [KeySpec];
    /// Its version attribute, when it has one: writes are then conditional on it
    /// (optimistic locking).
    const VERSION: Option<&'static str> = None;
    /// The model's `cardinality` of each attribute that declares one (a shard count, say), so
    /// code that spreads writes reads it from the model rather than repeating it.
    const CARDINALITIES: &'static [(&'static str, u64)] = &[];

    /// The declared cardinality of `attribute`.
    fn cardinality(attribute: &str) -> Option<u64> {
        Self::CARDINALITIES
            .iter()
            .find(|(a, _)| *a == attribute)
            .map(|(_, n)| *n)
    }

    /// The whole item: every attribute, every key it writes, and `entityType`.
    fn to_item(&self) -> Item;
    /// The entity in `item`.
    fn from_item(item: &Item) -> Result<Self, EntityError>;
    /// The table's key of this entity.
    fn key(&self) -> Key<Self>;
    /// The key text of every attribute its key templates read (and of sparse conditions), by
    /// attribute name, each with its stored value: what an update re-renders index keys from
    /// (and, without a version to check, requires the item to still hold).
    fn key_args(&self) -> HashMap<&'static str, KeyArg>;
    /// Its version, when it has a version attribute.
    fn version(&self) -> Option<i64> {
        None
    }
    /// Whether every value is stored exactly as its attribute: the derive checks each field
    /// against its model attribute (a timestamp at its format's precision, a number DynamoDB
    /// holds, the model's bounds, no optional empty set). Every typed write calls it and sends
    /// nothing when it fails.
    fn validate(&self) -> Result<(), EntityError> {
        Ok(())
    }
}

/// Whether `item` claims to be entity `E` (its `entityType`).
pub fn is<E: Entity>(item: &Item) -> bool {
    item.get(ENTITY_TYPE)
        .and_then(|v| v.as_s().ok())
        .map(String::as_str)
        == Some(E::NAME)
}

/// The entity in `item`, refusing an item of another entity.
pub fn read<E: Entity>(item: &Item) -> Result<E, EntityError> {
    match item.get(ENTITY_TYPE).and_then(|v| v.as_s().ok()) {
        Some(found) if found != E::NAME => Err(EntityError::OtherEntity {
            entity: E::NAME,
            found: found.clone(),
        }),
        _ => E::from_item(item),
    }
}

/// Support for derived code: read attribute `attribute` of `entity` with `read`, absent as
/// `None`.
#[doc(hidden)]
pub fn optional<T>(
    item: &Item,
    entity: &'static str,
    attribute: &'static str,
    read: impl FnOnce(&AttributeValue) -> Result<T, ValueError>,
) -> Result<Option<T>, EntityError> {
    match item.get(attribute) {
        None | Some(AttributeValue::Null(_)) => Ok(None),
        Some(value) => read(value).map(Some).map_err(|source| EntityError::Value {
            entity,
            attribute,
            source,
        }),
    }
}

/// Support for derived code: put `value` in `item` as `attribute`, unless it is an empty set,
/// which DynamoDB cannot hold (the attribute is then absent).
#[doc(hidden)]
pub fn insert(item: &mut Item, attribute: &str, value: AttributeValue) {
    if !crate::value::is_empty_set(&value) {
        item.insert(attribute.to_string(), value);
    }
}

/// Support for derived code: a required set attribute, absent when empty (DynamoDB holds no
/// empty set).
#[doc(hidden)]
pub fn required_set<T: Default>(
    item: &Item,
    entity: &'static str,
    attribute: &'static str,
    read: impl FnOnce(&AttributeValue) -> Result<T, ValueError>,
) -> Result<T, EntityError> {
    Ok(optional(item, entity, attribute, read)?.unwrap_or_default())
}

/// Support for derived code: `result` of checking attribute `attribute` of `entity`, as an
/// [`EntityError::Unstorable`].
#[doc(hidden)]
pub fn stored_exactly(
    entity: &'static str,
    attribute: &'static str,
    result: Result<(), ValueError>,
) -> Result<(), EntityError> {
    result.map_err(|source| EntityError::Unstorable {
        entity,
        attribute,
        source,
    })
}

/// Support for derived code: a required attribute.
#[doc(hidden)]
pub fn required<T>(
    item: &Item,
    entity: &'static str,
    attribute: &'static str,
    read: impl FnOnce(&AttributeValue) -> Result<T, ValueError>,
) -> Result<T, EntityError> {
    optional(item, entity, attribute, read)?.ok_or(EntityError::Missing { entity, attribute })
}
