//! The export crate's integration tests, one binary: each module is one feature's suite.

mod aws_mcp;
mod cfn_lint;
mod golden;
mod hidden;
mod iam_consumers;
mod iam_writes;
mod no_panic;
mod units;
mod workbench;
