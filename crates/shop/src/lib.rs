//! The shop: the seed tutorial's e-commerce backend (users, products, orders, order items) on one
//! DynamoDB table described by `examples/shop/shop.toml`, served as a REST API.
//!
//! - [`Shop`] holds the SDK client, the parsed model and the secrets; the domain operations live
//!   in [`users`], [`products`] and [`orders`], and build every key through the model.
//! - [`api::router`] is the axum Router: the same one runs under `monotable serve` and on AWS
//!   Lambda ([`lambda`]).

pub mod api;
pub mod auth;
pub mod cursor;
pub mod error;
pub mod lambda;
pub mod money;
pub mod orders;
pub mod products;
pub mod sample;
pub mod time_util;
pub mod users;

use std::sync::Arc;

use monotable_model::Model;

pub use error::ShopError;

/// The shop's single-table design, the same file `monotable check` reads.
pub const MODEL_SOURCE: &str = include_str!("../../../examples/shop/shop.toml");

/// Parse the shop's model. The file ships with the binary and is checked by the tests, so this
/// fails only on a broken build; it still returns the error rather than panic.
pub fn model() -> Result<Model, monotable_model::ModelError> {
    monotable_model::parse(MODEL_SOURCE)
}

/// Everything a request needs: the client, the model, the secrets.
#[derive(Clone)]
pub struct Shop {
    inner: Arc<Inner>,
}

/// Where the shop reads the time: the system clock, or a fixed one in tests and sample data.
pub type Clock = Arc<dyn Fn() -> time::OffsetDateTime + Send + Sync>;

struct Inner {
    client: aws_sdk_dynamodb::Client,
    model: Model,
    auth: auth::Auth,
    cursor_key: Vec<u8>,
    clock: Clock,
}

impl Shop {
    /// A shop over `client`, verifying callers with `auth`. `cursor_key` signs pagination
    /// cursors; use a secret that outlives restarts so cursors stay valid.
    pub fn new(
        client: aws_sdk_dynamodb::Client,
        model: Model,
        auth: auth::Auth,
        cursor_key: Vec<u8>,
    ) -> Shop {
        Shop {
            inner: Arc::new(Inner {
                client,
                model,
                auth,
                cursor_key,
                clock: Arc::new(time_util::now),
            }),
        }
    }

    /// The same shop reading the time from `clock` (tests, sample data with past dates).
    pub fn with_clock(&self, clock: Clock) -> Shop {
        Shop {
            inner: Arc::new(Inner {
                client: self.inner.client.clone(),
                model: self.inner.model.clone(),
                auth: self.inner.auth.clone(),
                cursor_key: self.inner.cursor_key.clone(),
                clock,
            }),
        }
    }

    /// The current time, to the millisecond.
    pub fn now(&self) -> time::OffsetDateTime {
        (self.inner.clock)()
    }

    /// The SDK client.
    pub fn client(&self) -> &aws_sdk_dynamodb::Client {
        &self.inner.client
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.inner.model
    }

    /// The table name.
    pub fn table(&self) -> &str {
        &self.inner.model.table.name
    }

    /// How callers are authenticated.
    pub fn auth(&self) -> &auth::Auth {
        &self.inner.auth
    }

    /// A cursor-signing key derived from a secret (domain-separated from its other uses).
    pub fn cursor_key_from_secret(secret: &[u8]) -> Vec<u8> {
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        hasher.update(b"monotable cursor key v1\0");
        hasher.update(secret);
        hasher.finalize().to_vec()
    }

    pub(crate) fn cursor_key(&self) -> &[u8] {
        &self.inner.cursor_key
    }
}
