//! The model-driven access layer: what a model says about items and requests, applied through an
//! [`aws_sdk_dynamodb::Client`] from wherever it comes (the connection layer, `monotable-connect`,
//! builds one for the embedded engine, an endpoint or AWS).
//!
//! - [`items`]: keys rendered from the model's templates, the `entityType` marker, typed readers.
//! - [`pattern`]: a model's access patterns as GetItem and Query requests, and pages of them.
//! - [`table`]: the model's table, created when missing.

pub mod batch;
pub mod cursor;
pub mod entity;
pub mod error;
pub mod handle;
pub mod items;
pub mod key;
pub mod pattern;
pub mod request;
pub mod table;
pub mod transact;
pub mod update;
pub mod value;
pub mod write;

pub use entity::{Entity, EntityError, KeySpec};
pub use error::{
    BatchError, CancelReason, GetError, QueryError, ServiceError, TransactError, WriteError,
};
pub use handle::{Retries, Table};
pub use key::{Key, KeyArg, KeyKind, Seg};
pub use request::{GetRequest, KeyCondition, Page, QueryRequest, QuerySpec, Row, SortCondition};
pub use transact::{MAX_ACTIONS, Transaction};
pub use update::Update;
pub use value::{TimeFormat, Value, ValueError};
pub use write::{Condition, PutSpec};
