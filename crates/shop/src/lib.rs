//! The shop: the seed tutorial's e-commerce backend (users, products, orders, order items) on one
//! DynamoDB table described by `examples/shop/shop.toml`, served as a REST API.
//!
//! - [`Shop`] holds the table, the parsed model and the secrets; the domain operations live in
//!   [`users`], [`products`] and [`orders`]; [`sales`] is the per-product daily sales a stream
//!   consumer keeps. Their entities derive `monotable::Entity` and their
//!   reads are the model's patterns ([`patterns`]), so every key is rendered from the model.
//! - [`api::router`] is the axum Router: the same one runs under `monotable-shop serve` and on AWS
//!   Lambda ([`lambda`]).

pub mod api;
pub mod auth;
pub mod entities;
pub mod error;
pub mod lambda;
pub mod money;
pub mod orders;
pub mod patterns;
pub mod products;
pub mod rules;
pub mod sales;
pub mod sample;
pub mod time_util;
pub mod users;
pub mod whole;

use std::sync::Arc;

use monotable::model::Model;

pub use error::ShopError;

/// The shop's single-table design, the same file `monotable check` reads: the one this crate's
/// code was checked against when it compiled.
pub const MODEL_SOURCE: &str = patterns::MODEL_SOURCE;

/// Parse the shop's model. The file ships with the binary and is checked by the tests, so this
/// fails only on a broken build; it still returns the error rather than panic.
pub fn model() -> Result<Model, monotable::model::ModelError> {
    monotable::model::parse(MODEL_SOURCE)
}

/// Everything a request needs: the client, the model, the secrets.
#[derive(Clone)]
pub struct Shop {
    inner: Arc<Inner>,
}

/// Where the shop reads the time: the system clock, or a fixed one in tests and sample data.
pub type Clock = Arc<dyn Fn() -> time::OffsetDateTime + Send + Sync>;

/// How a shop behaves where deployments differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopOptions {
    /// Longest date range `GET /orders?from&to` (without `status`) walks, in days.
    pub max_range_days: i64,
    /// Recreate the table from the model when a request finds it missing (local `serve`; on
    /// AWS the table belongs to the deployment, so the default is to answer 503 only).
    pub recreate_missing_table: bool,
}

impl Default for ShopOptions {
    fn default() -> Self {
        ShopOptions {
            max_range_days: orders::MAX_RANGE_DAYS,
            recreate_missing_table: false,
        }
    }
}

#[derive(Clone)]
struct Inner {
    db: monotable::Table,
    model: Model,
    auth: auth::Auth,
    clock: Clock,
    options: ShopOptions,
    /// Set while a recreation of the table runs, so concurrent requests start only one.
    recreating: Arc<std::sync::atomic::AtomicBool>,
    /// Bearer tokens `auth` verified before.
    verified: Arc<auth::Verified>,
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
        let db = monotable::Table::new(client, model.table.name.clone()).cursor_secret(&cursor_key);
        Shop {
            inner: Arc::new(Inner {
                db,
                model,
                auth,
                clock: Arc::new(time_util::now),
                options: ShopOptions::default(),
                recreating: Arc::default(),
                verified: Arc::default(),
            }),
        }
    }

    /// The same shop reading the time from `clock` (tests, sample data with past dates).
    pub fn with_clock(&self, clock: Clock) -> Shop {
        let mut inner = (*self.inner).clone();
        inner.clock = clock;
        Shop {
            inner: Arc::new(inner),
        }
    }

    /// The same shop with `options`.
    pub fn with_options(&self, options: ShopOptions) -> Shop {
        let mut inner = (*self.inner).clone();
        inner.options = options;
        Shop {
            inner: Arc::new(inner),
        }
    }

    /// How this shop behaves.
    pub fn options(&self) -> &ShopOptions {
        &self.inner.options
    }

    /// Recreate the table from the model in the background, once at a time, when the options
    /// allow it; called when a request found it missing.
    pub fn recreate_table_later(&self) {
        use std::sync::atomic::Ordering;
        if !self.inner.options.recreate_missing_table
            || self.inner.recreating.swap(true, Ordering::SeqCst)
        {
            return;
        }
        let shop = self.clone();
        tokio::spawn(async move {
            match monotable::ensure_table(shop.client(), shop.model()).await {
                Ok(true) => tracing::warn!(
                    table = shop.table(),
                    "the table was missing; recreated it (empty) from the model"
                ),
                Ok(false) => {}
                Err(e) => tracing::error!(error = %e, "could not recreate the missing table"),
            }
            shop.inner.recreating.store(false, Ordering::SeqCst);
        });
    }

    /// The current time, to the millisecond.
    pub fn now(&self) -> time::OffsetDateTime {
        (self.inner.clock)()
    }

    /// The SDK client.
    pub fn client(&self) -> &aws_sdk_dynamodb::Client {
        self.inner.db.client()
    }

    /// The table, as the library reads and writes it.
    pub fn db(&self) -> &monotable::Table {
        &self.inner.db
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

    /// The bearer tokens this shop's `auth` verified before.
    pub(crate) fn verified(&self) -> &auth::Verified {
        &self.inner.verified
    }

    /// A cursor-signing key derived from a secret (domain-separated from its other uses).
    pub fn cursor_key_from_secret(secret: &[u8]) -> Vec<u8> {
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        hasher.update(b"monotable cursor key v1\0");
        hasher.update(secret);
        hasher.finalize().to_vec()
    }
}
