//! The ui crate's integration tests, one binary: each module is one feature's suite.

#[path = "../common/mod.rs"]
mod common;

mod api;
mod live;
mod reload;
