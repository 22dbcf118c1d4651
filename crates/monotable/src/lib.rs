//! monotable: a DynamoDB single-table design as data, and your app's code checked against it.
//!
//! One model file (`model.toml`) declares the table, its indexes, each entity's attributes and
//! key templates, and the access patterns. This crate turns it into Rust:
//!
//! - [`Entity`] (`#[derive(monotable::Entity)]`): a struct as one entity, checked field by field
//!   against the model when the crate compiles, with its item conversion and its key rendering
//!   generated from the model's templates;
//! - [`Enum`] (`#[derive(monotable::Enum)]`): an enum attribute, its variants checked against
//!   the model's values;
//! - [`patterns!`]: each read access pattern as a typed request (`ListUserOrders { user_id }`)
//!   returning entities, pages with opaque cursors, streams, or a collection;
//! - failures named by meaning: [`WriteError::NotFound`], [`WriteError::AlreadyExists`],
//!   [`WriteError::VersionMismatch`], [`WriteError::ConditionFailed`] naming the clause, and a
//!   cancelled transaction's [`CancelReason`]s naming the action and entity that failed;
//! - [`unchecked`]: generic writes for tools (seeders, migrations, fixtures) that no model
//!   pattern names: [`unchecked::UncheckedWrites`] (`create`, `put`, `replace`, `delete`,
//!   `batch_put` on a [`Table`]), [`unchecked::Update`] (re-renders every index key whose
//!   inputs it changes, and refuses a partial change), [`unchecked::Transaction`] of named
//!   actions, [`unchecked::Condition`];
//! - [`stream`]: each stream consumer of the model as a typed decoder of its changes (Lambda's
//!   DynamoDB event in, a partial batch response out), and local delivery of the stream;
//! - [`connect`]: a client for AWS, a local endpoint or (with the default `engine` feature) the
//!   embedded engine, through the official AWS SDK.
//!
//! ```ignore
//! use monotable::unchecked::UncheckedWrites;
//! let client = monotable::connect::memory()?.client().clone();
//! let table = monotable::Table::new(client, TABLE_NAME);
//! table.create(&order).await?;
//! let page = ListUserOrders { user_id }.limit(20).send(&table).await?;
//! ```

pub use monotable_derive::{Entity, Enum, patterns};

pub use monotable_access::batch;
pub use monotable_access::cursor::InvalidCursor;
pub use monotable_access::entity::{Entity, EntityError, KeySpec};
pub use monotable_access::error::{
    BatchError, CancelReason, GetError, QueryError, ServiceError, TransactError, WriteError,
    WriteFailure,
};
pub use monotable_access::handle::{Retries, Table};
pub use monotable_access::items::Item;
pub use monotable_access::key::{Key, KeyArg, KeyKind, ParameterError, Seg};
pub use monotable_access::table::{TableError, ensure_table};
pub use monotable_access::transact::MAX_ACTIONS;
pub use monotable_access::value::{EnumValue, Value, ValueError};
pub use monotable_access::{
    GetRequest, KeyCondition, MAX_PAGE, Page, QueryRequest, QuerySpec, Row, SortCondition,
};
pub use monotable_model::TimestampFormat;
/// [`TimestampFormat`] by the name this crate gave it before it moved to the model.
pub type TimeFormat = TimestampFormat;

/// The official AWS SDK for DynamoDB, as this crate uses it.
pub use aws_sdk_dynamodb as sdk;
pub mod connect;
pub mod stream;

/// Writes that no model pattern names, for tools: seeders, migrations, test fixtures, admin
/// scripts. An app writes through the write patterns its model declares; these write any entity
/// or item, checked only against the entity's own key templates (never against the model's
/// patterns, which `cost`, `load` and the IAM policy reason about).
///
/// ```ignore
/// use monotable::unchecked::{Condition, Transaction, UncheckedWrites, WriteAction};
/// table.create(&product).await?;
/// Transaction::new()
///     .push("reserve", WriteAction::check(Product::key_of(id), Condition::ge("stock", 2i64)))
///     .push("placeOrder", WriteAction::create(&order))
///     .send(&table)
///     .await?;
/// ```
pub mod unchecked {
    pub use monotable_access::delete::DeleteItem;
    pub use monotable_access::put::PutSpec;
    pub use monotable_access::transact::{CheckItem, Transaction, WriteAction};
    pub use monotable_access::unchecked::UncheckedWrites;
    pub use monotable_access::update::{Update, UpdateItem, UpdateParts};
    pub use monotable_access::write::Condition;
}
/// The model: parse, validate, render.
pub use monotable_model as model;

/// What derived code names; not an API.
#[doc(hidden)]
pub mod __private {
    pub use aws_sdk_dynamodb::primitives::Blob;
    pub use aws_sdk_dynamodb::types::AttributeValue;
    pub use monotable_access::entity::{
        insert, is, optional, required, required_set, stored_exactly,
    };
    pub use monotable_access::items::{ENTITY_TYPE, Item};
    pub use monotable_access::key::parameter;
    pub use monotable_access::value::{
        ExactDecimal, Integer, KeyText, Limits, Timestamp, has_all, has_value, same_values,
        storable, within_length,
    };
    pub use monotable_model::TimestampFormat;
    pub use rust_decimal::Decimal;
    pub use time;

    pub use crate::generated::*;
}

mod generated;
