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
    trimmed: AtomicU64,
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
    /// Times delivery found that the stream had trimmed records it had not delivered (its
    /// checkpoint older than the stream keeps records) and resumed at the oldest record kept.
    pub trimmed_skips: u64,
    /// Records read from the stream for the consumer and not handled yet.
    pub lag_records: u64,
    /// Age in milliseconds of the oldest of them (0 when caught up).
    pub lag_ms: u64,
}

/// One metric: its name, kind (`counter`, `gauge`), help text, and its value in a snapshot.
type Family = (
    &'static str,
    &'static str,
    &'static str,
    fn(&MetricsSnapshot) -> u64,
);

/// Each metric, in the order they are shown.
const FAMILIES: [Family; 8] = [
    (
        "monotable_consumer_delivered_records_total",
        "counter",
        "Records a consumer's handler took.",
        |m| m.delivered,
    ),
    (
        "monotable_consumer_batches_total",
        "counter",
        "Handler invocations.",
        |m| m.batches,
    ),
    (
        "monotable_consumer_failures_total",
        "counter",
        "Invocations that reported a failure.",
        |m| m.failures,
    ),
    (
        "monotable_consumer_retries_total",
        "counter",
        "Retries and bisections of failed batches.",
        |m| m.retries,
    ),
    (
        "monotable_consumer_sent_to_on_failure_total",
        "counter",
        "Records sent to the failure destination once their retries were spent.",
        |m| m.sent_to_on_failure,
    ),
    (
        "monotable_consumer_trimmed_skips_total",
        "counter",
        "Times records were trimmed from the stream before the consumer had them; delivery resumed at the oldest record kept.",
        |m| m.trimmed_skips,
    ),
    (
        "monotable_consumer_lag_records",
        "gauge",
        "Records read for the consumer and not handled yet.",
        |m| m.lag_records,
    ),
    (
        "monotable_consumer_lag_milliseconds",
        "gauge",
        "Age of the oldest record not handled yet.",
        |m| m.lag_ms,
    ),
];

/// The consumers' counters in Prometheus' text format (what `/metrics` shows), one series per
/// consumer, labelled `consumer="NAME"`.
pub fn prometheus(consumers: &[(&str, MetricsSnapshot)]) -> String {
    let mut out = String::new();
    for (name, kind, help, value) in FAMILIES {
        out.push_str(&format!("# HELP {name} {help}\n# TYPE {name} {kind}\n"));
        for (consumer, snapshot) in consumers {
            let label = consumer.replace('\\', "\\\\").replace('"', "\\\"");
            out.push_str(&format!(
                "{name}{{consumer=\"{label}\"}} {}\n",
                value(snapshot)
            ));
        }
    }
    out
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
            trimmed_skips: self.trimmed.load(Ordering::Relaxed),
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

    /// The stream trimmed records before they were delivered; delivery skipped them.
    pub(crate) fn trimmed(&self) {
        self.trimmed.fetch_add(1, Ordering::Relaxed);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_consumer_is_a_labelled_series_under_one_help_line() {
        let a = MetricsSnapshot {
            delivered: 7,
            lag_records: 2,
            ..MetricsSnapshot::default()
        };
        let text = prometheus(&[("productSales", a), ("audit", MetricsSnapshot::default())]);
        assert!(
            text.contains(
                "monotable_consumer_delivered_records_total{consumer=\"productSales\"} 7\n"
            )
        );
        assert!(text.contains("monotable_consumer_lag_records{consumer=\"productSales\"} 2\n"));
        assert!(text.contains("monotable_consumer_lag_records{consumer=\"audit\"} 0\n"));
        assert_eq!(
            text.matches("# TYPE monotable_consumer_lag_records gauge")
                .count(),
            1
        );
    }
}
