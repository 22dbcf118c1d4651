//! The shop crate's integration tests, one binary: each module is one feature's suite.

#[path = "../common/mod.rs"]
mod common;

mod capacity;
mod errors;
mod faults;
mod lambda;
mod no_panic;
mod orders;
mod products;
mod races;
mod sales;
mod sample;
mod users_and_auth;
