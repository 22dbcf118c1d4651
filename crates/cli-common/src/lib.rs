//! What the two programs share: `monotable`, the tool (crates/cli), and `monotable-shop`, the
//! shop's own program (crates/shop-server). The connection flags ([`connection`]), `--auth` and
//! `--region` ([`auth`]), `serve`'s engine flags and the embedded engine served as a DynamoDB
//! endpoint with its guard, limits, `/metrics` and start-up banner ([`serve`]), and the program
//! frame: the command line read, logging, one tokio runtime and errors on one line
//! ([`program`]). Nothing here knows the shop.

pub mod auth;
pub mod connection;
pub mod program;
pub mod serve;
