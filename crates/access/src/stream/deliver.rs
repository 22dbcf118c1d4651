//! Local delivery of one consumer, as Lambda's event source mapping does it: the stream read
//! through the official DynamoDB Streams client, the consumer's filters, batches of its
//! `batch_size` in order, at least once; a failing batch retried from its first failed record
//! up to `retries` times (bisected when `bisect_on_error`), then its records sent to the local
//! stand-in of `on_failure`; a checkpoint after each batch that succeeded or was sent on.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures_util::future::BoxFuture;

use crate::stream::checkpoint::{Checkpoint, CheckpointError, Store};
use crate::stream::consumer::{Consumer, ConsumerSettings};
use crate::stream::get_records::{self, Position, StreamError};
use crate::stream::handler::{BatchResponse, Delivered, Event, handle};
use crate::stream::metrics::Metrics;
use crate::stream::record::StreamRecord;

/// What local delivery invokes with each batch: the Lambda event, answered with Lambda's
/// partial batch response (the function's handler, as on Lambda).
pub type EventHandler = Arc<dyn Fn(Event) -> BoxFuture<'static, BatchResponse> + Send + Sync>;

/// A typed handler of `C`'s changes as an [`EventHandler`] (decoding as on Lambda: see
/// [`handle`]).
pub fn typed<C, F, Fut>(handler: F) -> EventHandler
where
    C: Consumer,
    F: Fn(Vec<Delivered<C::Change>>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = BatchResponse> + Send + 'static,
{
    let handler = Arc::new(handler);
    Arc::new(move |event: Event| {
        let handler = handler.clone();
        Box::pin(async move { handle::<C, _, _>(&event, |changes| handler(changes)).await })
    })
}

/// How local delivery runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// The data directory the checkpoint and the failure file live in; `None`: in memory.
    pub data_dir: Option<PathBuf>,
    /// The wait before the first retry of a failed batch; it doubles per retry, to 5 s at most.
    pub backoff: Duration,
    /// The wait between polls of a caught-up stream ([`Delivery::run`]).
    pub poll: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            data_dir: None,
            backoff: Duration::from_millis(100),
            poll: Duration::from_millis(250),
        }
    }
}

/// Local delivery failed (the stream could not be read, or the checkpoint not kept).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DeliverError {
    /// Reading the stream failed.
    #[error("consumer `{consumer}`: {source}")]
    Stream {
        /// The consumer.
        consumer: &'static str,
        /// Why.
        source: StreamError,
    },
    /// The checkpoint or the failure file failed.
    #[error("consumer `{consumer}`: {source}")]
    Checkpoint {
        /// The consumer.
        consumer: &'static str,
        /// Why.
        source: CheckpointError,
    },
}

/// Retries without end (`retries = -1`) stop once a record is older than the stream keeps it.
const RECORD_LIFETIME_MS: i64 = 24 * 60 * 60 * 1000;
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// One consumer's delivery from one table's stream.
pub struct Delivery {
    client: aws_sdk_dynamodbstreams::Client,
    table: String,
    settings: ConsumerSettings,
    handler: EventHandler,
    options: Options,
    store: Store,
    checkpoint: Checkpoint,
    iterators: HashMap<String, String>,
    /// Shards whose delivery resumed at TRIM_HORIZON after the stream trimmed records it had
    /// not delivered, each with the checkpoint it skipped from, until the next page says where
    /// it resumed.
    skipped: HashMap<String, Option<String>>,
    stream_arn: Option<String>,
    metrics: Arc<Metrics>,
    /// Set by [`Delivery::run`] when its stop came: no batch starts after it.
    stopping: Arc<AtomicBool>,
}

impl std::fmt::Debug for Delivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Delivery")
            .field("table", &self.table)
            .field("consumer", &self.settings.name)
            .field("checkpoint", &self.checkpoint)
            .finish_non_exhaustive()
    }
}

impl Delivery {
    /// Delivery of `settings`' consumer from `table`'s stream to `handler`, resuming after the
    /// checkpoint in `options.data_dir` when there is one.
    pub async fn open(
        client: aws_sdk_dynamodbstreams::Client,
        table: &str,
        settings: ConsumerSettings,
        handler: EventHandler,
        options: Options,
    ) -> Result<Delivery, DeliverError> {
        let store = Store::new(options.data_dir.as_deref(), settings.name);
        let checkpoint = store
            .load()
            .await
            .map_err(|source| DeliverError::Checkpoint {
                consumer: settings.name,
                source,
            })?;
        Ok(Delivery {
            client,
            table: table.to_string(),
            settings,
            handler,
            options,
            store,
            checkpoint,
            iterators: HashMap::new(),
            skipped: HashMap::new(),
            stream_arn: None,
            metrics: Arc::new(Metrics::default()),
            stopping: Arc::new(AtomicBool::new(false)),
        })
    }

    /// Its counters (shared: read them while it runs).
    pub fn metrics(&self) -> Arc<Metrics> {
        self.metrics.clone()
    }

    /// The consumer's settings.
    pub fn settings(&self) -> &ConsumerSettings {
        &self.settings
    }

    /// The records sent to the local failure destination so far, one Lambda record (JSON) each.
    pub async fn failed_records(&self) -> Result<Vec<String>, DeliverError> {
        self.store
            .failed()
            .await
            .map_err(|e| self.checkpoint_error(e))
    }

    /// Deliver every record the stream holds now, then return how many records reached the
    /// handler (or the failure destination). Deterministic: when it returns, every record
    /// written before the call was handled.
    pub async fn drain(&mut self) -> Result<u64, DeliverError> {
        let arn = match &self.stream_arn {
            Some(arn) => arn.clone(),
            None => {
                let arn = get_records::stream_arn(&self.client, &self.table)
                    .await
                    .map_err(|e| self.stream_error(e))?;
                self.stream_arn = Some(arn.clone());
                arn
            }
        };
        let shards = get_records::shards(&self.client, &arn)
            .await
            .map_err(|e| self.stream_error(e))?;
        let mut handled = 0;
        for shard in shards {
            handled += self.drain_shard(&arn, &shard).await?;
            if self.stopping() {
                return Ok(handled);
            }
        }
        self.metrics.caught_up();
        Ok(handled)
    }

    /// Deliver until `stop` completes, polling a caught-up stream every `options.poll`. A failed
    /// read is logged and tried again on the next poll. A stop that comes while a batch is being
    /// handled lets that batch finish and its checkpoint be written, and starts no other batch
    /// nor retry: a restart resumes after the last batch done.
    pub async fn run(mut self, stop: impl Future<Output = ()>) {
        tokio::pin!(stop);
        loop {
            let stopping = self.stopping.clone();
            let drained = {
                let drain = self.drain();
                tokio::pin!(drain);
                // The stop first, each time the task wakes: a stop that came while a batch was
                // handled is seen before that batch's retry could start.
                tokio::select! {
                    biased;
                    () = &mut stop => {
                        stopping.store(true, Ordering::Relaxed);
                        if let Err(e) = drain.await {
                            tracing::warn!("{e}");
                        }
                        return;
                    }
                    drained = &mut drain => drained,
                }
            };
            if let Err(e) = drained {
                tracing::warn!("{e}");
                self.iterators.clear();
            }
            tokio::select! {
                _ = &mut stop => return,
                _ = tokio::time::sleep(self.options.poll) => {}
            }
        }
    }

    /// Whether [`Delivery::run`] was told to stop.
    fn stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }

    async fn drain_shard(&mut self, arn: &str, shard: &str) -> Result<u64, DeliverError> {
        let mut handled = 0;
        let mut iterator = match self.iterators.remove(shard) {
            Some(it) => Some(it),
            None => self.start_shard(arn, shard).await?,
        };
        while let Some(current) = iterator.take() {
            let page =
                match get_records::get_records(&self.client, &current, page_size(&self.settings))
                    .await
                {
                    Ok(page) => page,
                    // Trimmed again before a page was read from TRIM_HORIZON: the next poll retries.
                    Err(e @ StreamError::Trimmed { .. }) if self.skipped.contains_key(shard) => {
                        return Err(self.stream_error(e));
                    }
                    Err(StreamError::Trimmed { .. }) => {
                        iterator = self.resume_at_trim_horizon(arn, shard).await?;
                        continue;
                    }
                    Err(e) => return Err(self.stream_error(e)),
                };
            if let Some(from) = self.skipped.remove(shard) {
                let first = page.records.iter().find_map(|r| r.as_ref().ok());
                self.report_skip(shard, from.as_deref(), first);
            }
            let empty = page.records.is_empty();
            handled += self.deliver_page(shard, page.records).await?;
            if self.stopping() {
                // The page may be part done: the next reader starts from the checkpoint.
                break;
            }
            match (empty, page.next) {
                (true, Some(next)) => {
                    // Caught up: keep the iterator for the next drain.
                    self.iterators.insert(shard.to_string(), next);
                    break;
                }
                (_, next) => iterator = next,
            }
        }
        Ok(handled)
    }

    /// The iterator a shard's delivery starts from: after its checkpoint, or at the consumer's
    /// starting position without one; at TRIM_HORIZON when records after the checkpoint were
    /// trimmed.
    async fn start_shard(
        &mut self,
        arn: &str,
        shard: &str,
    ) -> Result<Option<String>, DeliverError> {
        let position = match self.checkpoint.get(shard) {
            Some(sequence) => Position::After(sequence.clone()),
            None => match self.settings.starting_position {
                monotable_model::StartingPosition::TrimHorizon => Position::TrimHorizon,
                monotable_model::StartingPosition::Latest => Position::Latest,
            },
        };
        match get_records::iterator(&self.client, arn, shard, &position).await {
            Err(StreamError::Trimmed { .. }) => self.resume_at_trim_horizon(arn, shard).await,
            result => result.map_err(|e| self.stream_error(e)),
        }
    }

    /// The stream trimmed records this consumer had not delivered (they were older than it
    /// keeps records): as Lambda's event source mapping does, go on from the oldest record
    /// kept. The loss is counted, and reported with the next page ([`Delivery::report_skip`]).
    async fn resume_at_trim_horizon(
        &mut self,
        arn: &str,
        shard: &str,
    ) -> Result<Option<String>, DeliverError> {
        self.metrics.trimmed();
        self.skipped
            .insert(shard.to_string(), self.checkpoint.get(shard).cloned());
        get_records::iterator(&self.client, arn, shard, &Position::TrimHorizon)
            .await
            .map_err(|e| self.stream_error(e))
    }

    /// Warn how far delivery skipped: from its checkpoint (`after`) to `first`, the oldest
    /// record the stream kept.
    fn report_skip(&self, shard: &str, after: Option<&str>, first: Option<&StreamRecord>) {
        tracing::warn!(
            consumer = self.settings.name,
            shard,
            skipped_after = after,
            resumed_at = first.map(|r| r.sequence.as_str()),
            "{}",
            skip_text(after, first, now_ms())
        );
    }

    /// Deliver one page's records: its consumer's records in batches, checkpointing after each,
    /// and the page's end once all are handled.
    async fn deliver_page(
        &mut self,
        shard: &str,
        records: Vec<Result<StreamRecord, crate::stream::record::RecordError>>,
    ) -> Result<u64, DeliverError> {
        let last = records
            .iter()
            .rev()
            .find_map(|r| r.as_ref().ok())
            .map(|r| r.sequence.clone());
        let mut mine = Vec::new();
        for record in records {
            match record {
                Ok(record) if self.settings.delivers(&record) => mine.push(record),
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(consumer = self.settings.name, "{e}");
                    let line = serde_json::json!({ "error": e.to_string() }).to_string();
                    self.send_on(vec![line], 1).await?;
                }
            }
        }
        self.metrics.behind(&mine);
        let mut handled = 0;
        let size = usize::try_from(self.settings.batch_size.max(1)).unwrap_or(usize::MAX);
        let mut rest = mine.as_slice();
        while !rest.is_empty() {
            if self.stopping() {
                return Ok(handled);
            }
            let (batch, after) = rest.split_at(size.min(rest.len()));
            rest = after;
            if !self.deliver_batch(batch.to_vec()).await? {
                return Ok(handled);
            }
            handled += u64::try_from(batch.len()).unwrap_or(u64::MAX);
            if let Some(end) = batch.last() {
                self.save(shard, &end.sequence).await?;
            }
            self.metrics.behind(rest);
        }
        if let Some(last) = last {
            self.save(shard, &last).await?;
        }
        Ok(handled)
    }

    /// Deliver one batch until every record succeeded or was sent to the failure destination
    /// (`true`), or until a stop came before a retry (`false`: the batch is not done).
    async fn deliver_batch(&mut self, batch: Vec<StreamRecord>) -> Result<bool, DeliverError> {
        let mut queue: VecDeque<(Vec<StreamRecord>, u32)> = VecDeque::from([(batch, 0)]);
        while let Some((batch, tries)) = queue.pop_front() {
            let event = self.event(&batch);
            let response = (self.handler)(event).await;
            let Some(first) = first_failed(&batch, &response) else {
                self.metrics.delivered(batch.len(), false);
                continue;
            };
            self.metrics.delivered(first, true);
            let failed = batch[first..].to_vec();
            if self.spent(tries, &failed) {
                self.send_on_records(&failed).await?;
                continue;
            }
            if self.stopping() {
                return Ok(false);
            }
            self.metrics.retried();
            tokio::time::sleep(backoff(self.options.backoff, tries)).await;
            if self.settings.bisect_on_error && failed.len() > 1 {
                // Splitting is not a retry: the halves keep the count, a lone record spends it.
                let mut left = failed;
                let right = left.split_off(left.len() / 2);
                queue.push_front((right, tries));
                queue.push_front((left, tries));
            } else {
                queue.push_front((failed, tries + 1));
            }
        }
        Ok(true)
    }

    fn event(&self, batch: &[StreamRecord]) -> Event {
        let mut event = Event::default();
        event.records = batch.iter().map(|r| r.to_lambda(&self.table)).collect();
        event
    }

    /// Whether a batch that failed after `tries` retries has spent them.
    fn spent(&self, tries: u32, failed: &[StreamRecord]) -> bool {
        match u32::try_from(self.settings.retries) {
            Ok(max) => tries >= max,
            // -1: until the record expires.
            Err(_) => {
                let now = now_ms();
                failed
                    .first()
                    .and_then(|r| r.created_ms)
                    .is_some_and(|at| now.saturating_sub(at) > RECORD_LIFETIME_MS)
            }
        }
    }

    async fn send_on_records(&mut self, records: &[StreamRecord]) -> Result<(), DeliverError> {
        tracing::warn!(
            consumer = self.settings.name,
            records = records.len(),
            "retries spent; records sent to the failure destination"
        );
        let lines = records
            .iter()
            .map(|r| serde_json::to_string(&r.to_lambda(&self.table)).unwrap_or_default())
            .collect();
        self.send_on(lines, records.len()).await
    }

    async fn send_on(&mut self, lines: Vec<String>, count: usize) -> Result<(), DeliverError> {
        self.metrics.sent_on(count);
        if self.settings.on_failure.is_none() {
            // No destination: Lambda drops them.
            return Ok(());
        }
        self.store
            .fail(lines)
            .await
            .map_err(|e| self.checkpoint_error(e))
    }

    async fn save(&mut self, shard: &str, sequence: &str) -> Result<(), DeliverError> {
        if self.checkpoint.get(shard).map(String::as_str) == Some(sequence) {
            return Ok(());
        }
        self.checkpoint
            .insert(shard.to_string(), sequence.to_string());
        self.store
            .save(&self.checkpoint)
            .await
            .map_err(|e| self.checkpoint_error(e))
    }

    fn stream_error(&self, source: StreamError) -> DeliverError {
        DeliverError::Stream {
            consumer: self.settings.name,
            source,
        }
    }

    fn checkpoint_error(&self, source: CheckpointError) -> DeliverError {
        DeliverError::Checkpoint {
            consumer: self.settings.name,
            source,
        }
    }
}

/// What a skip over trimmed records says: from where (the checkpoint's sequence number) to
/// where (the oldest record kept, and its age at `now_ms`).
fn skip_text(after: Option<&str>, first: Option<&StreamRecord>, now_ms: i64) -> String {
    let from = after.map_or_else(
        || "since the consumer started".to_string(),
        |s| format!("after sequence number {s}"),
    );
    let to = match first {
        Some(r) => {
            let age = r
                .created_ms
                .map_or(0, |at| now_ms.saturating_sub(at) / 1000);
            format!("sequence number {}, written {age} s ago", r.sequence)
        }
        None => "the next record written (the stream holds none now)".to_string(),
    };
    format!(
        "records {from} were trimmed from the stream before they were delivered (older than \
         the stream keeps records); delivery resumes at {to}"
    )
}

/// The records a GetRecords asks for: a batch, or more when batches are small.
fn page_size(settings: &ConsumerSettings) -> i32 {
    i32::try_from(settings.batch_size)
        .unwrap_or(get_records::MAX_RECORDS_PER_CALL)
        .clamp(100, get_records::MAX_RECORDS_PER_CALL)
}

/// The index of the first record `response` names as failed; an identifier that names no
/// record of the batch fails the whole batch, as on Lambda.
fn first_failed(batch: &[StreamRecord], response: &BatchResponse) -> Option<usize> {
    response
        .batch_item_failures
        .iter()
        .map(|f| {
            f.item_identifier
                .as_deref()
                .and_then(|id| batch.iter().position(|r| r.sequence == id))
                .unwrap_or(0)
        })
        .min()
}

fn backoff(first: Duration, tries: u32) -> Duration {
    first
        .checked_mul(2u32.saturating_pow(tries))
        .unwrap_or(MAX_BACKOFF)
        .min(MAX_BACKOFF)
}

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The warning names how far delivery skipped: the checkpoint it had, the record it resumes
    /// at and that record's age.
    #[test]
    fn a_skip_over_trimmed_records_names_both_ends() {
        let mut first = StreamRecord::from_streams(
            &aws_sdk_dynamodbstreams::types::Record::builder()
                .event_name(aws_sdk_dynamodbstreams::types::OperationType::Insert)
                .dynamodb(
                    aws_sdk_dynamodbstreams::types::StreamRecord::builder()
                        .sequence_number("200")
                        .build(),
                )
                .build(),
        )
        .unwrap();
        first.created_ms = Some(1_000_000);
        assert_eq!(
            skip_text(Some("100"), Some(&first), 1_090_000),
            "records after sequence number 100 were trimmed from the stream before they were \
             delivered (older than the stream keeps records); delivery resumes at sequence \
             number 200, written 90 s ago"
        );
        assert_eq!(
            skip_text(None, None, 0),
            "records since the consumer started were trimmed from the stream before they were \
             delivered (older than the stream keeps records); delivery resumes at the next \
             record written (the stream holds none now)"
        );
    }
}
