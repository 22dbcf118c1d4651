//! The monotable crate's integration tests, one binary: each module is one feature's suite.

#[path = "../common/mod.rs"]
mod common;

mod batches;
mod compile_fail;
mod entities;
mod exact;
mod native;
mod properties;
mod queries;
mod streams;
mod transactions;
mod updates;
mod write_patterns;
