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

/// Load `partitions` partitions of `ITEMS_PER_PARTITION` items, `order(p, n)` each, into the
/// table, 25 to a BatchWriteItem, with the engine's bulk loading on.
pub fn load_partitions(
    engine: &monotable_connect::Engine,
    partitions: usize,
    order: impl Fn(usize, usize) -> serde_json::Value,
) {
    engine.set_bulk_loading(true).expect("bulk loading on");
    for p in 0..partitions {
        for chunk in (0..ITEMS_PER_PARTITION).collect::<Vec<_>>().chunks(25) {
            let puts: Vec<serde_json::Value> = chunk
                .iter()
                .map(|&n| serde_json::json!({"PutRequest": {"Item": order(p, n)}}))
                .collect();
            crate::data::run(
                engine,
                "BatchWriteItem",
                &serde_json::json!({"RequestItems": {TABLE: puts}}),
            );
        }
    }
    engine.set_bulk_loading(false).expect("bulk loading off");
}
