//! Helpers only the tool's integration tests use: boto3 scripts against `monotable serve`, a
//! proxy that dies mid-run, and projects made by `monotable new`. The helpers the shop's
//! program's tests share (running either program, `serve`, HTTP, SigV4, the Lambda Runtime API
//! mock) are in crates/test-support; `run` and `monotable` here are its `tool` ones.

#![allow(dead_code, unused_imports)]

pub mod boto3;
pub mod proxy;
pub mod scaffold;

pub use monotable_test_support::tool::{command as monotable, run};
