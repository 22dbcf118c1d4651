//! The shop-server crate's integration tests, one binary: each module is one feature's suite.

#[path = "../common/mod.rs"]
mod common;

mod crash;
mod data_doors;
mod lambda_consumer;
mod lambda_deploy;
mod lambda_runtime;
mod sales_stream;
mod schemathesis;
mod serve_capacity;
mod serve_hardening;
mod serve_private;
mod serve_ui;
mod shop_blackbox;
