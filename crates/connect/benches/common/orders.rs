//! What the engine benches (`engine_reads`, `engine_index_writes`) share: the orders table's
//! name and shape, its keys, their settings from the environment, and the p50 they report.

use std::time::Duration;

pub const TABLE: &str = "Orders";
pub const ITEMS_PER_PARTITION: usize = 100;
/// Calls per block: the sides (or calls) alternate in blocks of this many.
pub const BLOCK: usize = 200;

/// The environment variable `name` as a number, else `default`.
pub fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub fn partition_key(p: usize) -> String {
    format!("USER#{p:06}")
}

pub fn sort_key(n: usize) -> String {
    format!(
        "ORDER#2026-11-{:02}T10:{:02}:00Z#{n:04}",
        1 + n % 28,
        n % 60
    )
}

/// The median of `samples`, in µs.
pub fn p50(mut samples: Vec<Duration>) -> f64 {
    samples.sort();
    samples[samples.len() / 2].as_secs_f64() * 1e6
}
