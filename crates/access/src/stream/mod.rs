//! Stream consumers: the table's change data capture as typed changes of a model's entities.
//!
//! - [`record`]: one stream record, from the Lambda event or the DynamoDB Streams client;
//! - [`decode`]: a record as a [`Change`] of one entity, or a [`DecodeError`];
//! - [`consumer`]: a consumer's settings and filters (constants `patterns!` generates) and the
//!   [`Consumer`] trait;
//! - [`handler`]: the handler contract (the Lambda event in, a partial batch response out);
//! - with the `streams` feature, [`get_records`] (the operation module: the stream read
//!   through the official client), [`deliver`] (local delivery as Lambda does it) with its
//!   [`checkpoint`] and [`metrics`].

pub mod consumer;
pub mod decode;
pub mod handler;
pub mod record;

#[cfg(feature = "streams")]
pub mod checkpoint;
#[cfg(feature = "streams")]
pub mod deliver;
#[cfg(feature = "streams")]
pub mod get_records;
#[cfg(feature = "streams")]
pub mod metrics;

pub use consumer::{Consumer, ConsumerSettings, Filter, FilterMatch};
pub use decode::{Change, DecodeError, DecodeReason, decode, entity_type};
pub use handler::{
    BatchItemFailure, BatchResponse, Delivered, Event, EventRecord, decode_event, failed, handle,
    success,
};
pub use record::{RecordError, StreamRecord};
