//! STAND-IN for the capacity emulator being written on main: the same public API, no
//! emulation (nothing is throttled, nothing is counted). Reverted when the real one is merged.

use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where time comes from.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Time since the clock's start.
    fn now(&self) -> Duration;
}

/// Real monotonic time since it was made.
#[derive(Debug)]
pub struct SystemClock(Instant);

impl SystemClock {
    /// A clock starting now.
    pub fn new() -> SystemClock {
        SystemClock(Instant::now())
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.0.elapsed()
    }
}

/// How the emulator runs.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Every limit is divided by this.
    pub scale: f64,
    /// Where time comes from.
    pub clock: Arc<dyn Clock>,
    /// Hot keys reported per table and index.
    pub hot_keys: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            scale: 1.0,
            clock: Arc::new(SystemClock::new()),
            hot_keys: 10,
        }
    }
}

impl Settings {
    /// Divide every limit by `scale`.
    pub fn scale(mut self, scale: f64) -> Settings {
        self.scale = scale;
        self
    }
}

/// The emulator.
#[derive(Debug)]
pub struct Emulator {
    settings: Settings,
}

impl Emulator {
    /// An emulator with `settings`.
    pub fn new(settings: Settings) -> Emulator {
        Emulator { settings }
    }

    /// What was consumed so far.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            elapsed_seconds: self.settings.clock.now().as_secs_f64(),
            resources: Vec::new(),
        }
    }
}

/// Consumption so far.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Snapshot {
    /// Seconds since the emulator started.
    pub elapsed_seconds: f64,
    /// Each table and index.
    pub resources: Vec<ResourceMetrics>,
}

/// A table's or index's consumption.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ResourceMetrics {
    pub table: String,
    pub index: Option<String>,
    pub read_units: f64,
    pub write_units: f64,
    pub read_requests: u64,
    pub write_requests: u64,
    pub throttled_reads: u64,
    pub throttled_writes: u64,
    pub hot_keys: Vec<KeyMetrics>,
}

/// A partition key's consumption.
#[derive(Debug, Clone, serde::Serialize)]
pub struct KeyMetrics {
    pub key: String,
    pub read_units: f64,
    pub write_units: f64,
    pub throttled_reads: u64,
    pub throttled_writes: u64,
}
