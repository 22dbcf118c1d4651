//! The migrate crate's integration tests, one binary: each module is one feature's suite.

#[path = "../common/mod.rs"]
mod common;

mod audit;
mod audit_docs;
mod concurrent;
mod diff;
mod migrate;
mod migrate_docs;
