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

pub mod capacity;
pub mod client;
pub mod config;
pub mod direct;
pub mod dispatch;
mod durability;
pub mod engine;
pub mod error;
#[cfg(feature = "faults")]
pub mod faults;
pub mod inprocess;
pub mod private;
pub mod serve;

pub use client::{Dynamo, connect, memory};
pub use config::{Backend, DATABASE_FILE, DEFAULT_DATA_DIR, DataLocation};
pub use engine::Engine;
pub use error::{ConnectError, OpenError, ServeError};

/// The version of the embedded engine crate (dynoxide-rs) this build links. The workspace pins it
/// with `=`; a test keeps this constant in step with the pin.
pub const ENGINE_VERSION: &str = "3.2.0";

#[cfg(test)]
mod tests {
    #[test]
    fn engine_version_matches_the_workspace_pin() {
        let manifest = include_str!("../../../Cargo.toml");
        let pin = format!(r#"dynoxide-rs = {{ version = "={}""#, super::ENGINE_VERSION);
        assert!(manifest.contains(&pin), "Cargo.toml does not pin {pin}");
    }
}
