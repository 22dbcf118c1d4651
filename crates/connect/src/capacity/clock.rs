//! The emulator's clocks: real monotonic time, or a virtual clock a test moves by hand.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What the token buckets read the time from. `now` is the time since some fixed start, and
/// never goes back.
pub trait Clock: Send + Sync + fmt::Debug {
    /// The time since the clock's start.
    fn now(&self) -> Duration;
}

/// Real monotonic time since the clock was made.
#[derive(Debug, Clone, Copy)]
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    /// A clock that starts now.
    pub fn new() -> SystemClock {
        SystemClock {
            start: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> SystemClock {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }
}

/// A clock that stands still until it is moved: tests on it are deterministic. Clones share
/// the time.
#[derive(Debug, Clone, Default)]
pub struct VirtualClock {
    nanos: Arc<AtomicU64>,
}

impl VirtualClock {
    /// A clock at zero.
    pub fn new() -> VirtualClock {
        VirtualClock::default()
    }

    /// Move the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        self.nanos.fetch_add(nanos(by), Ordering::SeqCst);
    }

    /// Set the clock to `at`; a time before the current one is ignored (time never goes back).
    pub fn set(&self, at: Duration) {
        self.nanos.fetch_max(nanos(at), Ordering::SeqCst);
    }
}

impl Clock for VirtualClock {
    fn now(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::SeqCst))
    }
}

/// `d` in nanoseconds, saturating (584 years).
fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_virtual_clock_moves_only_forward_and_clones_share_it() {
        let clock = VirtualClock::new();
        let other = clock.clone();
        clock.advance(Duration::from_millis(1500));
        assert_eq!(other.now(), Duration::from_millis(1500));
        other.set(Duration::from_secs(1));
        assert_eq!(clock.now(), Duration::from_millis(1500));
        other.set(Duration::from_secs(3));
        assert_eq!(clock.now(), Duration::from_secs(3));
    }

    #[test]
    fn the_system_clock_does_not_go_back() {
        let clock = SystemClock::new();
        let a = clock.now();
        assert!(clock.now() >= a);
    }
}
