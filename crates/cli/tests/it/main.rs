//! The cli crate's integration tests, one binary: each module is one feature's suite.

#[path = "../common/mod.rs"]
mod common;

mod audit;
mod check;
mod data_doors;
mod figures;
mod hidden_text;
mod import_aws_mcp;
mod input_limits;
mod load;
mod mcp;
mod mcp_inspector;
mod migrate_cli;
mod migrate_crash;
mod native_keys_boto3;
mod native_keys_cli;
mod new_project;
mod seed_boto3;
mod serve;
mod serve_capacity;
mod serve_hardening;
mod serve_private;
mod ui_browser;
mod unreachable;
mod verify_table;
mod your_own_app;
