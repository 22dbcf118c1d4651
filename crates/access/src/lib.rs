//! The model-driven access layer: what a model says about items and requests, applied through an
//! [`aws_sdk_dynamodb::Client`] from wherever it comes (the connection layer, `monotable-connect`,
//! builds one for the embedded engine, an endpoint or AWS).
//!
//! - [`items`]: keys rendered from the model's templates, the `entityType` marker, typed readers.
//! - [`pattern`]: a model's access patterns as GetItem and Query requests, and pages of them.
//! - [`table`]: the model's table, created when missing.

pub mod items;
pub mod pattern;
pub mod table;
