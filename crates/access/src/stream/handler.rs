//! The handler contract: a consumer's function takes the Lambda DynamoDB event, decodes it into
//! its typed changes and answers Lambda's partial batch response (`ReportBatchItemFailures`:
//! each failed record's sequence number; Lambda, and local delivery, retry from the first).

use std::future::Future;

pub use aws_lambda_events::event::dynamodb::{Event, EventRecord};
pub use aws_lambda_events::event::streams::{
    DynamoDbBatchItemFailure as BatchItemFailure, DynamoDbEventResponse as BatchResponse,
};

use crate::stream::consumer::Consumer;
use crate::stream::decode::DecodeError;
use crate::stream::record::StreamRecord;

/// One decoded change and the record it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Delivered<C> {
    /// The record's sequence number: what [`failed`] names.
    pub sequence: String,
    /// The record's `eventID`: unique per change, a key for idempotent handling.
    pub event_id: String,
    /// The typed change.
    pub change: C,
}

/// Every record succeeded.
pub fn success() -> BatchResponse {
    BatchResponse::default()
}

/// The records of `sequences` failed (Lambda retries from the first of them).
pub fn failed<S: Into<String>>(sequences: impl IntoIterator<Item = S>) -> BatchResponse {
    let mut response = BatchResponse::default();
    for sequence in sequences {
        let mut failure = BatchItemFailure::default();
        failure.item_identifier = Some(sequence.into());
        response.batch_item_failures.push(failure);
    }
    response
}

/// The records of `event` that are `C`'s (Lambda's filters, then its entities), each decoded or
/// its [`DecodeError`], in the event's order.
pub fn decode_event<C: Consumer>(event: &Event) -> Vec<Result<Delivered<C::Change>, DecodeError>> {
    event
        .records
        .iter()
        .filter_map(|r| match StreamRecord::from_lambda(r) {
            Ok(record) => decode_record::<C>(&record).transpose(),
            Err(e) => Some(Err(DecodeError::from(e))),
        })
        .collect()
}

/// `record` as `C`'s change; `Ok(None)` when its filters or entities leave it out.
pub fn decode_record<C: Consumer>(
    record: &StreamRecord,
) -> Result<Option<Delivered<C::Change>>, DecodeError> {
    if !C::SETTINGS.delivers(record) {
        return Ok(None);
    }
    Ok(C::change(record)?.map(|change| Delivered {
        sequence: record.sequence.clone(),
        event_id: record.event_id.clone(),
        change,
    }))
}

/// Decode `event` and call `handler` with `C`'s changes: the Lambda function's body. The
/// records before the first that does not decode go to `handler`; that record is reported
/// failed (so Lambda retries it, and once its retries are spent sends it on to the failure
/// destination) with whatever `handler` reported.
pub async fn handle<C, F, Fut>(event: &Event, handler: F) -> BatchResponse
where
    C: Consumer,
    F: FnOnce(Vec<Delivered<C::Change>>) -> Fut,
    Fut: Future<Output = BatchResponse>,
{
    let mut changes = Vec::new();
    let mut undecoded = None;
    for decoded in decode_event::<C>(event) {
        match decoded {
            Ok(change) => changes.push(change),
            Err(e) => {
                tracing::warn!(consumer = C::SETTINGS.name, "{e}");
                undecoded = Some(e.sequence);
                break;
            }
        }
    }
    let mut response = match changes.is_empty() {
        true => success(),
        false => handler(changes).await,
    };
    response
        .batch_item_failures
        .extend(failed(undecoded).batch_item_failures);
    response
}
