//! What happened to each stream's requests: outcomes counted, latencies kept for percentiles,
//! and successes and throttles per second of the run for the plot.

use std::sync::Mutex;
use std::time::Duration;

/// How one request ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadOutcome {
    /// It succeeded.
    Ok,
    /// It failed with throttling after the SDK's retries.
    Throttled,
    /// It failed otherwise (the message).
    Failed(String),
}

/// One stream's results so far; shared by its in-flight requests.
#[derive(Debug, Default)]
pub struct Recorder {
    inner: Mutex<LoadCounts>,
}

/// One stream's results.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoadCounts {
    /// Requests that succeeded.
    pub ok: u64,
    /// Requests throttled after the SDK's retries.
    pub throttled: u64,
    /// Requests that failed otherwise.
    pub failed: u64,
    /// The first failure's message.
    pub first_error: Option<String>,
    /// Latency of every completed request (successful or not), in microseconds.
    pub latencies_us: Vec<u64>,
    /// Successes completed in each second of the run.
    pub ok_per_second: Vec<u64>,
    /// Throttled requests completed in each second of the run.
    pub throttled_per_second: Vec<u64>,
}

fn bump(series: &mut Vec<u64>, second: usize) {
    if series.len() <= second {
        series.resize(second + 1, 0);
    }
    series[second] += 1;
}

impl Recorder {
    /// Records a request that ended `at` after the start of the run, having taken `latency`.
    pub fn record(&self, outcome: LoadOutcome, latency: Duration, at: Duration) {
        let second = at.as_secs() as usize;
        let mut c = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        c.latencies_us
            .push(u64::try_from(latency.as_micros()).unwrap_or(u64::MAX));
        match outcome {
            LoadOutcome::Ok => {
                c.ok += 1;
                bump(&mut c.ok_per_second, second);
            }
            LoadOutcome::Throttled => {
                c.throttled += 1;
                bump(&mut c.throttled_per_second, second);
            }
            LoadOutcome::Failed(message) => {
                c.failed += 1;
                if c.first_error.is_none() {
                    c.first_error = Some(message);
                }
            }
        }
    }

    /// (successes, throttled) so far, for progress.
    pub fn progress(&self) -> (u64, u64) {
        let c = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        (c.ok, c.throttled)
    }

    /// Everything recorded.
    pub fn counts(&self) -> LoadCounts {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// The `p`-th percentile (0 < p <= 100) of `values` by the nearest-rank method: the smallest
/// value with at least p % of the values at or below it. `None` when there are none.
pub fn percentile(values: &[u64], p: f64) -> Option<u64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    Some(nearest_rank(&sorted, p))
}

/// [`percentile`] of values already sorted, not empty.
pub fn nearest_rank(sorted: &[u64], p: f64) -> u64 {
    let n = sorted.len();
    let rank = ((p.clamp(0.0, 100.0) / 100.0) * n as f64).ceil() as usize;
    sorted[rank.clamp(1, n) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        assert_eq!(percentile(&[], 50.0), None);
        assert_eq!(percentile(&[7], 50.0), Some(7));
        assert_eq!(percentile(&[7], 99.0), Some(7));
        let hundred: Vec<u64> = (1..=100).rev().collect();
        assert_eq!(percentile(&hundred, 50.0), Some(50));
        assert_eq!(percentile(&hundred, 99.0), Some(99));
        assert_eq!(percentile(&hundred, 100.0), Some(100));
        // 10 values: p50 is the 5th, p99 the 10th.
        let ten = [15, 20, 35, 40, 50, 60, 70, 80, 90, 1000];
        assert_eq!(percentile(&ten, 50.0), Some(50));
        assert_eq!(percentile(&ten, 99.0), Some(1000));
        assert_eq!(percentile(&ten, 0.0), Some(15));
    }

    #[test]
    fn the_recorder_buckets_by_second() {
        let r = Recorder::default();
        let ms = Duration::from_millis;
        r.record(LoadOutcome::Ok, ms(2), ms(100));
        r.record(LoadOutcome::Ok, ms(3), ms(900));
        r.record(LoadOutcome::Throttled, ms(40), ms(2100));
        r.record(LoadOutcome::Failed("boom".into()), ms(1), ms(2200));
        r.record(LoadOutcome::Failed("later".into()), ms(1), ms(2300));
        let c = r.counts();
        assert_eq!((c.ok, c.throttled, c.failed), (2, 1, 2));
        assert_eq!(c.ok_per_second, vec![2]);
        assert_eq!(c.throttled_per_second, vec![0, 0, 1]);
        assert_eq!(c.first_error.as_deref(), Some("boom"));
        assert_eq!(c.latencies_us.len(), 5);
        assert_eq!(r.progress(), (2, 1));
    }
}
