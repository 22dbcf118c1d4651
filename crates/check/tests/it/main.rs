//! The check crate's integration tests, one binary: each module is one feature's suite.

mod advice;
mod cost;
mod cost_consumers;
mod cost_native;
mod cost_shards;
mod cost_writes;
mod docs;
mod fixtures;
mod golden;
mod hidden;
mod messages;
mod no_panic;
mod shards;
mod stale_keys;
