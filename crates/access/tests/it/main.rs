//! The access crate's integration tests, one binary: each module is one feature's suite.

mod failed_conditions;
mod model_driven;
mod one_door;
mod write_patterns;
