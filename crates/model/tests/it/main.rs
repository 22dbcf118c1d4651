//! The model crate's integration tests, one binary: each module is one feature's suite.

mod bounds;
mod consumer_traffic;
mod consumers;
mod hidden;
mod limits;
mod model;
mod native_keys;
mod proptest;
mod refusals;
mod schema;
mod sets;
mod write_patterns;
