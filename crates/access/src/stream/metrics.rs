//! A consumer's delivery counters, shared with whoever reports them (`/metrics`).

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use crate::stream::record::StreamRecord;

/// Counters of one consumer's local delivery.
#[derive(Debug, Default)]
pub struct Metrics {
    delivered: AtomicU64,
    batches: AtomicU64,
    failures: AtomicU64,
    retries: AtomicU64,
    sent_on: AtomicU64,
    lag_records: AtomicU64,
    oldest_ms: AtomicI64,
}

/// The counters at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MetricsSnapshot {
    /// Records the handler took (succeeded).
    pub delivered: u64,
    /// Handler invocations.
    pub batches: u64,
    /// Invocations that reported a failure.
    pub failures: u64,
    /// Retries (and bisections) of failed batches.
    pub retries: u64,
    /// Records sent to the failure destination (or dropped, without one) once retries were
    /// spent.
    pub sent_to_on_failure: u64,
    /// Records read from the stream for the consumer and not handled yet.
    pub lag_records: u64,
    /// Age in milliseconds of the oldest of them (0 when caught up).
    pub lag_ms: u64,
}

fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

impl Metrics {
    /// The counters now.
    pub fn snapshot(&self) -> MetricsSnapshot {
        let oldest = self.oldest_ms.load(Ordering::Relaxed);
        let lag_ms = match oldest {
            0 => 0,
            at => u64::try_from(crate::stream::deliver::now_ms().saturating_sub(at)).unwrap_or(0),
        };
        MetricsSnapshot {
            delivered: self.delivered.load(Ordering::Relaxed),
            batches: self.batches.load(Ordering::Relaxed),
            failures: self.failures.load(Ordering::Relaxed),
            retries: self.retries.load(Ordering::Relaxed),
            sent_to_on_failure: self.sent_on.load(Ordering::Relaxed),
            lag_records: self.lag_records.load(Ordering::Relaxed),
            lag_ms,
        }
    }

    /// One invocation: `succeeded` records handled, and whether it reported a failure.
    pub(crate) fn delivered(&self, succeeded: usize, failed: bool) {
        self.batches.fetch_add(1, Ordering::Relaxed);
        self.delivered
            .fetch_add(count(succeeded), Ordering::Relaxed);
        if failed {
            self.failures.fetch_add(1, Ordering::Relaxed);
        }
    }

    pub(crate) fn retried(&self) {
        self.retries.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn sent_on(&self, records: usize) {
        self.sent_on.fetch_add(count(records), Ordering::Relaxed);
    }

    /// `pending` are read and not handled yet.
    pub(crate) fn behind(&self, pending: &[StreamRecord]) {
        self.lag_records
            .store(count(pending.len()), Ordering::Relaxed);
        let oldest = pending.first().and_then(|r| r.created_ms).unwrap_or(0);
        self.oldest_ms.store(oldest, Ordering::Relaxed);
    }

    /// The stream is read to its end.
    pub(crate) fn caught_up(&self) {
        self.behind(&[]);
    }
}
