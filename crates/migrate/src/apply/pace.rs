//! `--max-wcu`: a token bucket of write units per second shared by every segment, so a
//! migration leaves the table's capacity to the live app.

use std::time::Duration;

use tokio::time::Instant;

use tokio::sync::Mutex;

/// Write units per second, with one second of burst.
#[derive(Debug)]
pub struct Pace {
    rate: f64,
    state: Mutex<(f64, Instant)>,
}

impl Pace {
    /// At most `rate` units per second; `None` when `rate` is not a positive number.
    pub fn new(rate: f64) -> Option<Pace> {
        (rate.is_finite() && rate > 0.0).then(|| Pace {
            rate,
            state: Mutex::new((rate, Instant::now())),
        })
    }

    /// Waits until `units` may be spent, and spends them. A write larger than a second's
    /// budget waits for a full bucket, then goes.
    pub async fn take(&self, units: f64) {
        let units = units.min(self.rate);
        loop {
            let wait = {
                let mut state = self.state.lock().await;
                let now = Instant::now();
                let (tokens, last) = *state;
                let tokens =
                    (tokens + now.duration_since(last).as_secs_f64() * self.rate).min(self.rate);
                if tokens >= units {
                    *state = (tokens - units, now);
                    return;
                }
                *state = (tokens, now);
                (units - tokens) / self.rate
            };
            tokio::time::sleep(Duration::from_secs_f64(wait)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn spends_no_more_than_the_rate() {
        let pace = Pace::new(2000.0).expect("positive");
        let start = Instant::now();
        for _ in 0..3000 {
            pace.take(1.0).await;
        }
        // One second's burst (2000 units), then 1000 more at 2000/s: at least half a second.
        let took = start.elapsed().as_secs_f64();
        assert!((0.45..1.5).contains(&took), "took {took} s");
    }
}
