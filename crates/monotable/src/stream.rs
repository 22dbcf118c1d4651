//! Stream consumers: the table's changes as typed changes of your model's entities, on Lambda
//! and locally.
//!
//! For each `[consumers.NAME]` of the model, [`patterns!`](crate::patterns) generates
//! `<Name>Consumer` (a [`Consumer`]) and `<Name>Change`, an enum with one variant per entity it
//! handles, each a [`Change`] (created, updated, removed). On Lambda the function's handler
//! decodes the DynamoDB event and answers a partial batch response:
//!
//! ```ignore
//! async fn handler(event: LambdaEvent<stream::Event>) -> Result<stream::BatchResponse, Error> {
//!     Ok(ProductSalesConsumer::handle(&event.payload, |changes| async move {
//!         let mut failed = Vec::new();
//!         for d in changes {
//!             let ok = match d.change {
//!                 ProductSalesChange::OrderItem(stream::Change::Created(line)) => add(&line).await,
//!                 ProductSalesChange::Order(stream::Change::Updated { old, new }) => cancel(&old, &new).await,
//!                 _ => Ok(()),
//!             };
//!             if ok.is_err() { failed.push(d.sequence) }
//!         }
//!         stream::failed(failed)
//!     }).await)
//! }
//! ```
//!
//! With the `streams` feature (on with `engine`), [`runner`] delivers the engine's (or any
//! endpoint's) stream to the same handler as Lambda's event source mapping does (batches,
//! retries, bisect, the failure destination, a checkpoint in the data directory), and
//! [`testing::deliver`] does it once, to the end of the stream, for a test.

pub use monotable_access::stream::{
    BatchItemFailure, BatchResponse, Change, Consumer, ConsumerSettings, DecodeError, DecodeReason,
    Delivered, Event, EventRecord, Filter, FilterMatch, RecordError, StreamRecord, decode,
    decode_event, entity_type, failed, handle, success,
};

#[cfg(feature = "streams")]
pub use monotable_access::stream::checkpoint::CheckpointError;
#[cfg(feature = "streams")]
pub use monotable_access::stream::deliver::{DeliverError, Delivery, EventHandler, Options, typed};
#[cfg(feature = "streams")]
pub use monotable_access::stream::get_records::StreamError;
#[cfg(feature = "streams")]
pub use monotable_access::stream::metrics::{Metrics, MetricsSnapshot, prometheus};

/// Local delivery of consumer `C` from `table`'s stream (read through `dynamo`'s official
/// DynamoDB Streams client) to `handler`, resuming after the checkpoint in
/// `options.data_dir`. Call [`Delivery::drain`] to deliver what the stream holds, or
/// [`Delivery::run`] to keep delivering.
#[cfg(feature = "streams")]
pub async fn runner<C, F, Fut>(
    dynamo: &crate::connect::Dynamo,
    table: &crate::Table,
    _consumer: C,
    handler: F,
    options: Options,
) -> Result<Delivery, DeliverError>
where
    C: Consumer,
    F: Fn(Vec<Delivered<C::Change>>) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = BatchResponse> + Send + 'static,
{
    Delivery::open(
        dynamo.streams_client(),
        table.name(),
        C::SETTINGS,
        typed::<C, F, Fut>(handler),
        options,
    )
    .await
}

/// For tests: deliver a stream to a consumer's handler deterministically.
#[cfg(feature = "streams")]
pub mod testing {
    use std::time::Duration;

    use super::{BatchResponse, Consumer, DeliverError, Delivered, Options, runner};

    /// Deliver every record `table`'s stream holds, from its oldest, to `handler` as `C`'s
    /// changes, with the consumer's batch size, filters, retries and bisect (no waits between
    /// retries, the checkpoint and failed records in memory); returns when each was handled or
    /// sent on, with the number of records delivered. For deliveries that continue where the
    /// last stopped, keep a [`runner`] and call its `drain`.
    pub async fn deliver<C, F, Fut>(
        dynamo: &crate::connect::Dynamo,
        table: &crate::Table,
        consumer: C,
        handler: F,
    ) -> Result<u64, DeliverError>
    where
        C: Consumer,
        F: Fn(Vec<Delivered<C::Change>>) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = BatchResponse> + Send + 'static,
    {
        let mut delivery = runner(dynamo, table, consumer, handler, options()).await?;
        delivery.drain().await
    }

    /// Options for tests: in memory, no waits.
    pub fn options() -> Options {
        Options {
            data_dir: None,
            backoff: Duration::ZERO,
            poll: Duration::from_millis(10),
        }
    }
}
