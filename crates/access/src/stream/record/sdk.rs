//! The DynamoDB Streams client's records (`aws_sdk_dynamodbstreams`, whose attribute values are
//! a type of their own) as [`StreamRecord`]s.

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodbstreams::types::{AttributeValue as StreamsValue, Record};

use super::{RecordError, StreamRecord, event};
use crate::items::Item;

impl StreamRecord {
    /// A record as the DynamoDB Streams client's GetRecords returns it.
    pub fn from_streams(record: &Record) -> Result<StreamRecord, RecordError> {
        let event_id = record.event_id.clone().unwrap_or_default();
        let no_sequence = || RecordError::NoSequence {
            event_id: event_id.clone(),
        };
        let change = record.dynamodb.as_ref().ok_or_else(no_sequence)?;
        let sequence = change.sequence_number.clone().ok_or_else(no_sequence)?;
        let name = record
            .event_name
            .as_ref()
            .map_or("", |e| e.as_str())
            .to_string();
        let event = event(&name, &sequence)?;
        let item = |map: Option<&std::collections::HashMap<String, StreamsValue>>| {
            map.map(|m| streams_item(m, &sequence)).transpose()
        };
        Ok(StreamRecord {
            event,
            event_id,
            keys: item(change.keys.as_ref())?.unwrap_or_default(),
            old_image: item(change.old_image.as_ref())?,
            new_image: item(change.new_image.as_ref())?,
            created_ms: change
                .approximate_creation_date_time
                .and_then(|t| t.to_millis().ok()),
            sequence,
        })
    }
}

fn streams_item(
    map: &std::collections::HashMap<String, StreamsValue>,
    sequence: &str,
) -> Result<Item, RecordError> {
    map.iter()
        .map(|(name, value)| match from_streams_value(value) {
            Some(value) => Ok((name.clone(), value)),
            None => Err(RecordError::UnknownValue {
                sequence: sequence.to_string(),
                attribute: name.clone(),
            }),
        })
        .collect()
}

/// A Streams client's value as the table client's; `None` for a type this build does not know.
pub fn from_streams_value(value: &StreamsValue) -> Option<AttributeValue> {
    Some(match value {
        StreamsValue::N(n) => AttributeValue::N(n.clone()),
        StreamsValue::S(s) => AttributeValue::S(s.clone()),
        StreamsValue::Bool(b) => AttributeValue::Bool(*b),
        StreamsValue::B(b) => AttributeValue::B(Blob::new(b.as_ref())),
        StreamsValue::Null(n) => AttributeValue::Null(*n),
        StreamsValue::M(m) => AttributeValue::M(
            m.iter()
                .map(|(k, v)| from_streams_value(v).map(|v| (k.clone(), v)))
                .collect::<Option<_>>()?,
        ),
        StreamsValue::L(l) => {
            AttributeValue::L(l.iter().map(from_streams_value).collect::<Option<_>>()?)
        }
        StreamsValue::Ss(ss) => AttributeValue::Ss(ss.clone()),
        StreamsValue::Ns(ns) => AttributeValue::Ns(ns.clone()),
        StreamsValue::Bs(bs) => {
            AttributeValue::Bs(bs.iter().map(|b| Blob::new(b.as_ref())).collect())
        }
        _ => return None,
    })
}
