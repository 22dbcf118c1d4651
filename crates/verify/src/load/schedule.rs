//! The open-loop schedule: when each stream's requests are due (request `k` of a stream at rate
//! `r` is due at `k / r` seconds), merged across streams in time order, and the driver that
//! issues them on time with bounded concurrency, whatever the earlier requests are doing.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;
use tokio::time::Instant;

/// The due times of every stream's requests over a window, in time order.
#[derive(Debug, Clone)]
pub struct Schedule {
    rates: Vec<f64>,
    window: Duration,
    /// (due time in nanoseconds, stream, request number of that stream), earliest first.
    heap: BinaryHeap<Reverse<(u64, usize, u64)>>,
}

/// Nanoseconds from the start to request `k` of a stream at `rate` per second.
fn due_nanos(rate: f64, k: u64) -> u64 {
    // k / rate seconds; f64 is exact to the nanosecond well past any window we run.
    (k as f64 / rate * 1e9).round() as u64
}

impl Schedule {
    /// A schedule of streams at `rates` (requests per second; 0 or less: none) over `window`.
    pub fn new(rates: &[f64], window: Duration) -> Schedule {
        let mut heap = BinaryHeap::new();
        for (i, &rate) in rates.iter().enumerate() {
            if rate.is_finite() && rate > 0.0 {
                heap.push(Reverse((0, i, 0)));
            }
        }
        Schedule {
            rates: rates.to_vec(),
            window,
            heap,
        }
    }

    /// Requests stream `stream` will have issued over the whole window.
    pub fn planned(&self, stream: usize) -> u64 {
        let rate = self.rates.get(stream).copied().unwrap_or(0.0);
        if !(rate.is_finite() && rate > 0.0) {
            return 0;
        }
        let window = self.window.as_nanos() as u64;
        // Requests due strictly before the end of the window.
        let mut n = (self.window.as_secs_f64() * rate).ceil() as u64;
        while n > 0 && due_nanos(rate, n - 1) >= window {
            n -= 1;
        }
        while due_nanos(rate, n) < window {
            n += 1;
        }
        n
    }
}

impl Iterator for Schedule {
    /// When the next request is due (from the start) and which stream it belongs to.
    type Item = (Duration, usize);

    fn next(&mut self) -> Option<(Duration, usize)> {
        let Reverse((due, stream, k)) = self.heap.pop()?;
        if due >= self.window.as_nanos() as u64 {
            // Every other entry is due later still.
            self.heap.clear();
            return None;
        }
        let rate = self.rates[stream];
        self.heap
            .push(Reverse((due_nanos(rate, k + 1), stream, k + 1)));
        Some((Duration::from_nanos(due), stream))
    }
}

/// What the driver did with the requests it was given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Driven {
    /// Requests started, per stream.
    pub issued: Vec<u64>,
    /// Requests not started because `concurrency` requests were already in flight, per stream.
    pub dropped: Vec<u64>,
    /// Requests still in flight when the drain period ended (their results are not counted).
    pub abandoned: u64,
}

/// Issues every request of `schedule` at its due time from `start`: `issue(stream, request
/// number)` builds the request (on this task, in schedule order) and the returned future runs on
/// a task of its own. At most `concurrency` run at once; a request due while that many are in
/// flight is dropped, not queued, so a slow backend does not turn the open loop into a closed
/// one. After the last request, waits up to `drain` for those in flight.
pub async fn drive<F, Fut>(
    schedule: Schedule,
    start: Instant,
    concurrency: usize,
    drain: Duration,
    mut issue: F,
) -> Driven
where
    F: FnMut(usize, u64) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let streams = schedule.rates.len();
    let mut driven = Driven {
        issued: vec![0; streams],
        dropped: vec![0; streams],
        abandoned: 0,
    };
    let concurrency = concurrency.max(1);
    let permits = Arc::new(Semaphore::new(concurrency));
    for (due, stream) in schedule {
        tokio::time::sleep_until(start + due).await;
        let n = driven.issued[stream] + driven.dropped[stream];
        match Arc::clone(&permits).try_acquire_owned() {
            Ok(permit) => {
                driven.issued[stream] += 1;
                let request = issue(stream, n);
                tokio::spawn(async move {
                    request.await;
                    drop(permit);
                });
            }
            Err(_) => driven.dropped[stream] += 1,
        }
    }
    let all = u32::try_from(concurrency).unwrap_or(u32::MAX);
    if tokio::time::timeout(drain, permits.acquire_many(all))
        .await
        .is_err()
    {
        driven.abandoned = (concurrency - permits.available_permits()) as u64;
    }
    driven
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stream_gets_rate_times_window_requests_evenly_spaced() {
        let schedule = Schedule::new(&[10.0, 4.0, 0.0], Duration::from_secs(2));
        assert_eq!(
            (
                schedule.planned(0),
                schedule.planned(1),
                schedule.planned(2)
            ),
            (20, 8, 0)
        );
        let all: Vec<(Duration, usize)> = schedule.collect();
        assert_eq!(all.iter().filter(|(_, s)| *s == 0).count(), 20);
        assert_eq!(all.iter().filter(|(_, s)| *s == 1).count(), 8);
        assert!(
            all.windows(2).all(|w| w[0].0 <= w[1].0),
            "not in time order"
        );
        let fours: Vec<Duration> = all
            .iter()
            .filter(|(_, s)| *s == 1)
            .map(|(d, _)| *d)
            .collect();
        assert_eq!(fours[0], Duration::ZERO);
        assert_eq!(fours[1], Duration::from_millis(250));
        assert_eq!(fours[7], Duration::from_millis(1750));
        assert!(all.iter().all(|(d, _)| *d < Duration::from_secs(2)));
    }

    #[test]
    fn fractional_and_tiny_rates() {
        // One request every 400 ms: at 0, 0.4, 0.8 s within a 1 s window.
        let s = Schedule::new(&[2.5], Duration::from_secs(1));
        assert_eq!(s.planned(0), 3);
        assert_eq!(
            s.map(|(d, _)| d.as_millis()).collect::<Vec<_>>(),
            vec![0, 400, 800]
        );
        // Slower than the window: the first request only.
        let s = Schedule::new(&[0.2], Duration::from_secs(2));
        assert_eq!(s.planned(0), 1);
        assert_eq!(s.count(), 1);
        assert_eq!(
            Schedule::new(&[f64::NAN, -1.0], Duration::from_secs(1)).count(),
            0
        );
    }

    #[test]
    fn ties_come_in_stream_order() {
        let s = Schedule::new(&[1.0, 1.0], Duration::from_secs(2));
        let order: Vec<usize> = s.map(|(_, i)| i).collect();
        assert_eq!(order, vec![0, 1, 0, 1]);
    }

    #[tokio::test(start_paused = true)]
    async fn the_driver_issues_on_time() {
        let start = Instant::now();
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        // 10/s, each request takes 50 ms: never more than one in flight.
        let schedule = Schedule::new(&[10.0], Duration::from_secs(1));
        let driven = drive(schedule, start, 2, Duration::from_secs(5), |_, n| {
            let log = Arc::clone(&log);
            let at = Instant::now() - start;
            async move {
                log.lock().unwrap().push((n, at));
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
        .await;
        assert_eq!((driven.issued[0], driven.dropped[0]), (10, 0));
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 10);
        for (n, at) in seen.iter() {
            assert_eq!(*at, Duration::from_millis(100 * n), "#{n}");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn requests_past_the_concurrency_bound_are_dropped_not_queued() {
        let start = Instant::now();
        // 100/s, each takes 1 s: 20 permits are all taken by 190 ms; the rest are dropped.
        let schedule = Schedule::new(&[100.0], Duration::from_secs(1));
        let driven = drive(schedule, start, 20, Duration::from_secs(5), |_, _| {
            tokio::time::sleep(Duration::from_secs(1))
        })
        .await;
        assert_eq!((driven.issued[0], driven.dropped[0]), (20, 80));
        assert_eq!(driven.abandoned, 0);
        // The schedule did not wait for the slow requests.
        assert!(Instant::now() - start < Duration::from_millis(2100));
    }

    #[tokio::test(start_paused = true)]
    async fn requests_still_running_after_the_drain_are_abandoned() {
        let schedule = Schedule::new(&[2.0], Duration::from_secs(1));
        let driven = drive(
            schedule,
            Instant::now(),
            8,
            Duration::from_millis(100),
            |_, _| tokio::time::sleep(Duration::from_secs(60)),
        )
        .await;
        assert_eq!(driven.issued, vec![2]);
        assert_eq!(driven.abandoned, 2);
    }
}
