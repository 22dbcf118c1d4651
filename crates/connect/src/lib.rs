//! The connection layer: where DynamoDB is (the one connection config), the embedded engine, and
//! the SDK client built for each; `serve` offers the engine over HTTP.
//!
//! Everything above this crate talks to DynamoDB through an [`aws_sdk_dynamodb::Client`] and never
//! learns which backend it got:
//!
//! - [`Backend::Embedded`]: the dynoxide engine inside this process, file-backed in a data directory
//!   or in memory. The SDK's requests reach it through an in-process HTTP connector
//!   ([`inprocess`]), with no socket, credentials or region for the user to set.
//! - [`Backend::Endpoint`]: any DynamoDB-compatible endpoint (DynamoDB Local, ScyllaDB Alternator,
//!   another `monotable serve`).
//! - [`Backend::Aws`]: real DynamoDB through the SDK's default credential and region chain.
//!
//! [`serve`] exposes the embedded engine as a DynamoDB-compatible HTTP endpoint for other tools.
//!
//! # Features
//!
//! An app deployed to AWS needs only [`Backend::Aws`] (or [`Backend::Endpoint`]): with every
//! feature off this crate is the connection config and the SDK client, and links no engine, no
//! SQLite and no HTTP server.
//!
//! - `engine` (default): the embedded engine ([`Engine`], `dispatch`, `inprocess`, `private`,
//!   [`memory`]): dynoxide over SQLite. Without it, [`connect`] refuses
//!   [`Backend::Embedded`] with [`ConnectError::NoEngine`].
//! - `serve`: the engine over HTTP (`serve`: the server, its guard, gate, SigV4 checker and
//!   the DynamoDB endpoint); hyper's server, axum, tower-http, aws-sigv4. Implies `engine`.
//! - `capacity`: DynamoDB's throughput rules and metrics on the engine (`capacity`,
//!   `Engine::with_capacity`, `MONOTABLE_CAPACITY`). Implies `engine`.
//! - `bench`: `direct`, the benches' floor. Implies `engine`.
//! - `faults`: fault injection on the in-process connector, for tests. Implies `engine`.

#[cfg(feature = "engine")]
mod answer;
#[cfg(feature = "capacity")]
pub mod capacity;
pub mod client;
pub mod config;
#[cfg(feature = "bench")]
pub mod direct;
#[cfg(feature = "engine")]
pub mod dispatch;
#[cfg(feature = "engine")]
mod durability;
#[cfg(feature = "engine")]
pub mod engine;
pub mod error;
#[cfg(feature = "faults")]
pub mod faults;
#[cfg(feature = "engine")]
pub mod inprocess;
#[cfg(feature = "engine")]
pub mod private;
#[cfg(feature = "engine")]
mod refusal;
#[cfg(feature = "serve")]
pub mod serve;

#[cfg(feature = "engine")]
pub use client::memory;
pub use client::{Dynamo, connect};
pub use config::{Backend, DATABASE_FILE, DEFAULT_DATA_DIR, DataLocation};
#[cfg(feature = "engine")]
pub use engine::{Engine, ManualClock};
#[cfg(feature = "serve")]
pub use error::ServeError;
pub use error::{ConnectError, OpenError};

/// The version of the embedded engine crate (dynoxide-rs) this build links. The workspace pins it
/// with `=`; a test keeps this constant in step with the pin.
#[cfg(feature = "engine")]
pub const ENGINE_VERSION: &str = "3.2.0";

#[cfg(all(test, feature = "engine"))]
mod tests {
    #[test]
    fn engine_version_matches_the_workspace_pin() {
        let manifest = include_str!("../../../Cargo.toml");
        let pin = format!(r#"dynoxide-rs = {{ version = "={}""#, super::ENGINE_VERSION);
        assert!(manifest.contains(&pin), "Cargo.toml does not pin {pin}");
    }
}
