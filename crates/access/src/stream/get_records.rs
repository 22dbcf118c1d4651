//! Reading the table's stream through the official DynamoDB Streams client (the operation
//! module: ListStreams, DescribeStream, GetShardIterator, GetRecords): the stream of a table,
//! its shards, an iterator at a position, and pages of records.

use aws_sdk_dynamodbstreams::Client;
use aws_sdk_dynamodbstreams::types::ShardIteratorType;

use crate::service::ServiceError;
use crate::stream::record::{RecordError, StreamRecord};

/// The most records one GetRecords returns.
pub const MAX_RECORDS_PER_CALL: i32 = 1000;

/// Reading the stream failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// The table has no stream (its model declares none, or it was created without one).
    #[error("table `{table}` has no stream; declare `stream` in the model's [table]")]
    NoStream {
        /// The table.
        table: String,
    },
    /// The records after the position asked for are gone: the stream trimmed them, being
    /// older than it keeps records (24 hours on DynamoDB): `TrimmedDataAccessException`. The
    /// oldest record kept is at [`Position::TrimHorizon`].
    #[error("{operation} failed: {source}")]
    Trimmed {
        /// The operation (`GetShardIterator`, `GetRecords`).
        operation: &'static str,
        /// What DynamoDB Streams said.
        source: ServiceError,
    },
    /// A DynamoDB Streams call failed.
    #[error("{operation} failed: {source}")]
    Call {
        /// The operation (`GetRecords`).
        operation: &'static str,
        /// What DynamoDB Streams said.
        source: ServiceError,
    },
}

fn call<E>(
    operation: &'static str,
) -> impl FnOnce(
    aws_sdk_dynamodbstreams::error::SdkError<E, aws_sdk_dynamodbstreams::config::http::HttpResponse>,
) -> StreamError
where
    E: aws_sdk_dynamodbstreams::error::ProvideErrorMetadata + std::error::Error + 'static,
{
    move |e| {
        let source = ServiceError::from_sdk(&e);
        match e.as_service_error().and_then(|s| s.code()) {
            Some(TRIMMED) => StreamError::Trimmed { operation, source },
            _ => StreamError::Call { operation, source },
        }
    }
}

/// The error code of a read before the oldest record a shard keeps.
const TRIMMED: &str = "TrimmedDataAccessException";

/// The ARN of `table`'s stream (the newest, when it was turned off and on).
pub async fn stream_arn(client: &Client, table: &str) -> Result<String, StreamError> {
    let out = client
        .list_streams()
        .table_name(table)
        .send()
        .await
        .map_err(call("ListStreams"))?;
    out.streams()
        .iter()
        .filter(|s| s.table_name() == Some(table))
        .filter_map(|s| s.stream_arn())
        .next_back()
        .map(str::to_string)
        .ok_or_else(|| StreamError::NoStream {
            table: table.to_string(),
        })
}

/// The shard ids of the stream, parents before children (DescribeStream's order), every page.
pub async fn shards(client: &Client, stream_arn: &str) -> Result<Vec<String>, StreamError> {
    let mut shards = Vec::new();
    let mut start: Option<String> = None;
    loop {
        let out = client
            .describe_stream()
            .stream_arn(stream_arn)
            .set_exclusive_start_shard_id(start.take())
            .send()
            .await
            .map_err(call("DescribeStream"))?;
        let Some(description) = out.stream_description else {
            return Ok(shards);
        };
        shards.extend(
            description
                .shards()
                .iter()
                .filter_map(|s| s.shard_id().map(str::to_string)),
        );
        match description.last_evaluated_shard_id {
            Some(last) => start = Some(last),
            None => return Ok(shards),
        }
    }
}

/// Where in a shard to start reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Position {
    /// The oldest record kept.
    TrimHorizon,
    /// After the newest record.
    Latest,
    /// Right after the record of this sequence number.
    After(String),
}

/// An iterator into `shard` at `position`; `None` when the shard has none (closed and read).
/// [`StreamError::Trimmed`] when records after `position` were trimmed.
pub async fn iterator(
    client: &Client,
    stream_arn: &str,
    shard: &str,
    position: &Position,
) -> Result<Option<String>, StreamError> {
    let request = client
        .get_shard_iterator()
        .stream_arn(stream_arn)
        .shard_id(shard);
    let request = match position {
        Position::TrimHorizon => request.shard_iterator_type(ShardIteratorType::TrimHorizon),
        Position::Latest => request.shard_iterator_type(ShardIteratorType::Latest),
        Position::After(sequence) => request
            .shard_iterator_type(ShardIteratorType::AfterSequenceNumber)
            .sequence_number(sequence),
    };
    let out = request.send().await.map_err(call("GetShardIterator"))?;
    Ok(out.shard_iterator)
}

/// One page of a shard: its records in order (each converted, or why it could not be), and the
/// iterator after them (`None`: the shard is closed and read to its end).
#[derive(Debug, Clone)]
pub struct RecordPage {
    /// The records.
    pub records: Vec<Result<StreamRecord, RecordError>>,
    /// Where the next page starts.
    pub next: Option<String>,
}

/// Up to `limit` records (at most [`MAX_RECORDS_PER_CALL`]) from `iterator`;
/// [`StreamError::Trimmed`] when the records it points at were trimmed since it was issued.
pub async fn get_records(
    client: &Client,
    iterator: &str,
    limit: i32,
) -> Result<RecordPage, StreamError> {
    let out = client
        .get_records()
        .shard_iterator(iterator)
        .limit(limit.clamp(1, MAX_RECORDS_PER_CALL))
        .send()
        .await
        .map_err(call("GetRecords"))?;
    Ok(RecordPage {
        records: out
            .records()
            .iter()
            .map(StreamRecord::from_streams)
            .collect(),
        next: out.next_shard_iterator,
    })
}
