//! A stream record as a typed change of one entity: created (its new image), updated (old and
//! new), removed (its old image), read with the entity's `entityType` and the same item
//! conversion reads use. A record that does not decode is a [`DecodeError`], never a panic.

use monotable_model::StreamEvent;

use crate::entity::{Entity, EntityError};
use crate::items::ENTITY_TYPE;
use crate::stream::record::{RecordError, StreamRecord};

/// One change of an entity.
#[derive(Debug, Clone, PartialEq)]
pub enum Change<E> {
    /// The item was created (INSERT): the new image.
    Created(E),
    /// The item was changed (MODIFY): before and after.
    Updated {
        /// Before the change.
        old: E,
        /// After the change.
        new: E,
    },
    /// The item was deleted, or expired by TTL (REMOVE): the old image.
    Removed(E),
}

impl<E> Change<E> {
    /// The entity as the change left it: the new image, or the old one of a removal.
    pub fn latest(&self) -> &E {
        match self {
            Change::Created(e) | Change::Removed(e) => e,
            Change::Updated { new, .. } => new,
        }
    }
}

/// Why a record did not decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeReason {
    /// The record itself is malformed.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The stream's view does not carry an image the change needs (KEYS_ONLY, or NEW_IMAGE for a
    /// REMOVE).
    #[error("the record has no {image} (the stream's view type does not carry it)")]
    NoImage {
        /// `NewImage` or `OldImage`.
        image: &'static str,
    },
    /// The image has no string `entityType`.
    #[error("the item has no string `{ENTITY_TYPE}`")]
    NoEntityType,
    /// The image is not a valid item of its entity.
    #[error(transparent)]
    Entity(#[from] EntityError),
}

/// A stream record that did not decode: which record, which entity, why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("stream record {sequence}{}: {reason}", entity.as_ref().map(|e| format!(" ({e})")).unwrap_or_default())]
pub struct DecodeError {
    /// The record's sequence number (what a partial batch failure names); empty when the record
    /// has none.
    pub sequence: String,
    /// The entity it was read as, when its `entityType` was read.
    pub entity: Option<String>,
    /// Why (boxed: an entity's error is large, and a decoded change is the common case).
    pub reason: Box<DecodeReason>,
}

impl DecodeError {
    /// `reason`, for `record`.
    pub fn new(record: &StreamRecord, entity: Option<&str>, reason: DecodeReason) -> DecodeError {
        DecodeError {
            sequence: record.sequence.clone(),
            entity: entity.map(str::to_string),
            reason: Box::new(reason),
        }
    }
}

impl From<RecordError> for DecodeError {
    fn from(e: RecordError) -> DecodeError {
        let sequence = match &e {
            RecordError::NoSequence { .. } => String::new(),
            RecordError::Event { sequence, .. } | RecordError::UnknownValue { sequence, .. } => {
                sequence.clone()
            }
        };
        DecodeError {
            sequence,
            entity: None,
            reason: Box::new(DecodeReason::Record(e)),
        }
    }
}

/// The `entityType` of the image a record is read from (the new one, or a removal's old one).
pub fn entity_type(record: &StreamRecord) -> Option<&str> {
    record
        .image()
        .and_then(|item| item.get(ENTITY_TYPE))
        .and_then(|v| v.as_s().ok())
        .map(String::as_str)
}

/// `record` as a change of `E`.
pub fn decode<E: Entity>(record: &StreamRecord) -> Result<Change<E>, DecodeError> {
    let fail = |reason| DecodeError::new(record, Some(E::NAME), reason);
    let read = |image: Option<&crate::items::Item>, name: &'static str| {
        let item = image.ok_or_else(|| fail(DecodeReason::NoImage { image: name }))?;
        E::from_item(item).map_err(|e| fail(DecodeReason::Entity(e)))
    };
    let new = || read(record.new_image.as_ref(), "NewImage");
    let old = || read(record.old_image.as_ref(), "OldImage");
    Ok(match record.event {
        StreamEvent::Insert => Change::Created(new()?),
        StreamEvent::Modify => Change::Updated {
            old: old()?,
            new: new()?,
        },
        StreamEvent::Remove => Change::Removed(old()?),
    })
}
