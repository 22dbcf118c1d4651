//! A token bucket of capacity units: refilled at a rate, capped, and allowed into debt by the
//! request that empties it, the way DynamoDB admits a request and then charges what it read.

use std::time::Duration;

/// Capacity units that refill at `rate` per second up to `cap`.
///
/// A request is admitted while the balance is above zero and is then charged what it actually
/// consumed, which may take the balance below zero; later requests wait until the refill has
/// paid the debt. Over any long stretch the units spent therefore equal the refill, whatever
/// the size of each request.
#[derive(Debug, Clone)]
pub struct Bucket {
    balance: f64,
    rate: f64,
    cap: f64,
    last: Duration,
}

impl Bucket {
    /// A bucket refilling at `rate` units/s, holding at most `cap`, starting with `start` units
    /// at time `now`.
    pub fn new(rate: f64, cap: f64, start: f64, now: Duration) -> Bucket {
        Bucket {
            balance: start.min(cap),
            rate,
            cap,
            last: now,
        }
    }

    /// Bring the balance up to `now`.
    pub fn refill(&mut self, now: Duration) {
        if now > self.last {
            let gained = (now - self.last).as_secs_f64() * self.rate;
            self.balance = (self.balance + gained).min(self.cap);
            self.last = now;
        }
    }

    /// Whether a request may start at `now`.
    pub fn admits(&mut self, now: Duration) -> bool {
        self.refill(now);
        self.balance > 0.0
    }

    /// Charge `units` at `now`.
    pub fn spend(&mut self, units: f64, now: Duration) {
        self.refill(now);
        self.balance -= units;
    }

    /// Change the refill rate and cap (a table's throughput changed), keeping the balance.
    pub fn reshape(&mut self, rate: f64, cap: f64, now: Duration) {
        self.refill(now);
        self.rate = rate;
        self.cap = cap;
        self.balance = self.balance.min(cap);
    }

    /// The refill rate, units per second.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Whether the bucket is full at `now`: it is then the same as a fresh one.
    pub fn is_full(&mut self, now: Duration) -> bool {
        self.refill(now);
        self.balance >= self.cap
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_request_may_overdraw_and_the_next_waits_for_the_refill() {
        let mut bucket = Bucket::new(1000.0, 1000.0, 1.0, ms(0));
        assert!(bucket.admits(ms(0)));
        bucket.spend(10.0, ms(0));
        assert!(!bucket.admits(ms(5)), "9 units of debt take 9 ms to pay");
        assert!(bucket.admits(ms(10)));
    }

    #[test]
    fn the_balance_never_exceeds_the_cap() {
        let mut bucket = Bucket::new(10.0, 3000.0, 0.0, ms(0));
        bucket.refill(Duration::from_secs(1000));
        bucket.spend(3000.0, Duration::from_secs(1000));
        assert!(!bucket.admits(Duration::from_secs(1000)));
    }

    #[test]
    fn spending_at_twice_the_rate_gets_the_rate() {
        let mut bucket = Bucket::new(1000.0, 1000.0, 0.0, ms(0));
        let mut spent = 0.0;
        for i in 0..20_000u64 {
            let now = Duration::from_micros(i * 500);
            if bucket.admits(now) {
                bucket.spend(1.0, now);
                spent += 1.0;
            }
        }
        assert!((spent - 10_000.0_f64).abs() <= 1.0, "{spent}");
    }
}
