//! The verify crate's integration tests, one binary: each module is one feature's suite.

mod capacity;
mod mutations;
mod numbers;
mod table;
mod verify;
mod writes;
