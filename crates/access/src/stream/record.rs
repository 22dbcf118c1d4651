//! One stream record as a consumer sees it, whichever way it came: the Lambda event's record
//! (`aws_lambda_events`) or the DynamoDB Streams client's (`aws_sdk_dynamodbstreams`), with its
//! keys and images as the table client's items. Every conversion is exhaustive and total: a
//! value of a type this build does not know is a [`RecordError`], never a panic.

use std::collections::HashMap;

use aws_lambda_events::event::dynamodb::{EventRecord, StreamRecord as LambdaChange};
use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::StreamEvent;
use serde_dynamo::AttributeValue as LambdaValue;

use crate::items::Item;

/// A stream record that is not a change this crate can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// It has no sequence number.
    #[error("stream record `{event_id}` has no sequence number")]
    NoSequence {
        /// Its `eventID`.
        event_id: String,
    },
    /// Its `eventName` is not INSERT, MODIFY or REMOVE.
    #[error("stream record {sequence} has event name `{name}`, not INSERT, MODIFY or REMOVE")]
    Event {
        /// Its sequence number.
        sequence: String,
        /// What it said.
        name: String,
    },
    /// An attribute holds a type this build does not know.
    #[error("stream record {sequence}: attribute `{attribute}` holds a value of an unknown type")]
    UnknownValue {
        /// Its sequence number.
        sequence: String,
        /// The top-level attribute.
        attribute: String,
    },
}

/// One change of one item, as the table's stream reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamRecord {
    /// INSERT, MODIFY or REMOVE.
    pub event: StreamEvent,
    /// The record's `eventID`.
    pub event_id: String,
    /// Its sequence number: what a partial batch failure names (`itemIdentifier`).
    pub sequence: String,
    /// The item's primary key.
    pub keys: Item,
    /// The item before the change, when the view carries it (MODIFY, REMOVE).
    pub old_image: Option<Item>,
    /// The item after the change, when the view carries it (INSERT, MODIFY).
    pub new_image: Option<Item>,
    /// When DynamoDB wrote it (approximately), in milliseconds since the Unix epoch.
    pub created_ms: Option<i64>,
}

impl StreamRecord {
    /// A record of the Lambda event a DynamoDB event source mapping invokes a function with.
    pub fn from_lambda(record: &EventRecord) -> Result<StreamRecord, RecordError> {
        let change = &record.change;
        let sequence = change
            .sequence_number
            .clone()
            .ok_or_else(|| RecordError::NoSequence {
                event_id: record.event_id.clone(),
            })?;
        let event = event(&record.event_name, &sequence)?;
        let image = |item: &serde_dynamo::Item| (!item.is_empty()).then(|| from_lambda_item(item));
        let millis = change.approximate_creation_date_time.timestamp_millis();
        Ok(StreamRecord {
            event,
            event_id: record.event_id.clone(),
            keys: from_lambda_item(&change.keys),
            old_image: image(&change.old_image),
            new_image: image(&change.new_image),
            created_ms: (millis != 0).then_some(millis),
            sequence,
        })
    }

    /// The record as the Lambda event carries it: what a function is invoked with locally, and
    /// what the local on-failure file holds (one per line).
    pub fn to_lambda(&self, table: &str) -> EventRecord {
        let mut change = LambdaChange::default();
        change.keys = to_lambda_item(&self.keys);
        change.new_image = self
            .new_image
            .as_ref()
            .map(to_lambda_item)
            .unwrap_or_default();
        change.old_image = self
            .old_image
            .as_ref()
            .map(to_lambda_item)
            .unwrap_or_default();
        change.sequence_number = Some(self.sequence.clone());
        if let Some(at) = self
            .created_ms
            .and_then(chrono::DateTime::from_timestamp_millis)
        {
            change.approximate_creation_date_time = at;
        }
        let mut record = EventRecord::default();
        record.aws_region = "local".to_string();
        record.change = change;
        record.event_id = self.event_id.clone();
        record.event_name = self.event.as_str().to_string();
        record.event_source = Some("aws:dynamodb".to_string());
        record.event_version = Some("1.1".to_string());
        record.table_name = Some(table.to_string());
        record
    }

    /// The image a change of this kind is read from first: the new one, or for a REMOVE the
    /// old one.
    pub fn image(&self) -> Option<&Item> {
        match self.event {
            StreamEvent::Remove => self.old_image.as_ref(),
            _ => self.new_image.as_ref().or(self.old_image.as_ref()),
        }
    }
}

/// The record's event from its `eventName`.
pub(crate) fn event(name: &str, sequence: &str) -> Result<StreamEvent, RecordError> {
    StreamEvent::ALL
        .into_iter()
        .find(|e| e.as_str() == name)
        .ok_or_else(|| RecordError::Event {
            sequence: sequence.to_string(),
            name: name.to_string(),
        })
}

fn from_lambda_item(item: &serde_dynamo::Item) -> Item {
    item.iter()
        .map(|(name, value)| (name.clone(), from_lambda_value(value)))
        .collect()
}

/// A Lambda event's value as the table client's (serde_dynamo's enum is closed: every value
/// converts).
pub fn from_lambda_value(value: &LambdaValue) -> AttributeValue {
    match value {
        LambdaValue::N(n) => AttributeValue::N(n.clone()),
        LambdaValue::S(s) => AttributeValue::S(s.clone()),
        LambdaValue::Bool(b) => AttributeValue::Bool(*b),
        LambdaValue::B(b) => AttributeValue::B(Blob::new(b.clone())),
        LambdaValue::Null(n) => AttributeValue::Null(*n),
        LambdaValue::M(m) => AttributeValue::M(
            m.iter()
                .map(|(k, v)| (k.clone(), from_lambda_value(v)))
                .collect(),
        ),
        LambdaValue::L(l) => AttributeValue::L(l.iter().map(from_lambda_value).collect()),
        LambdaValue::Ss(ss) => AttributeValue::Ss(ss.clone()),
        LambdaValue::Ns(ns) => AttributeValue::Ns(ns.clone()),
        LambdaValue::Bs(bs) => {
            AttributeValue::Bs(bs.iter().map(|b| Blob::new(b.clone())).collect())
        }
    }
}

fn to_lambda_item(item: &Item) -> serde_dynamo::Item {
    let map: HashMap<String, LambdaValue> = item
        .iter()
        .filter_map(|(k, v)| to_lambda_value(v).map(|v| (k.clone(), v)))
        .collect();
    serde_dynamo::Item::from(map)
}

/// The table client's value as a Lambda event's; `None` for a value of a type this build does
/// not know (never produced by [`StreamRecord`]'s conversions, which refuse it).
pub fn to_lambda_value(value: &AttributeValue) -> Option<LambdaValue> {
    Some(match value {
        AttributeValue::N(n) => LambdaValue::N(n.clone()),
        AttributeValue::S(s) => LambdaValue::S(s.clone()),
        AttributeValue::Bool(b) => LambdaValue::Bool(*b),
        AttributeValue::B(b) => LambdaValue::B(b.as_ref().to_vec()),
        AttributeValue::Null(n) => LambdaValue::Null(*n),
        AttributeValue::M(m) => LambdaValue::M(
            m.iter()
                .map(|(k, v)| to_lambda_value(v).map(|v| (k.clone(), v)))
                .collect::<Option<_>>()?,
        ),
        AttributeValue::L(l) => {
            LambdaValue::L(l.iter().map(to_lambda_value).collect::<Option<_>>()?)
        }
        AttributeValue::Ss(ss) => LambdaValue::Ss(ss.clone()),
        AttributeValue::Ns(ns) => LambdaValue::Ns(ns.clone()),
        AttributeValue::Bs(bs) => LambdaValue::Bs(bs.iter().map(|b| b.as_ref().to_vec()).collect()),
        _ => return None,
    })
}

#[cfg(feature = "streams")]
mod sdk;
#[cfg(feature = "streams")]
pub use sdk::from_streams_value;

#[cfg(test)]
mod tests;
