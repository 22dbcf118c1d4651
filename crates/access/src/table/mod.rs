//! The table-level operations, one module each, every one failing with its own error that
//! wraps the classified [`ServiceError`] in a [`TableCall`] (which operation, on which table):
//!
//! | module | DynamoDB | error |
//! |---|---|---|
//! | [`create`] | CreateTable (the model's table, created when missing: [`ensure_table`]) | [`TableError`] |
//! | [`describe`](mod@describe) | DescribeTable, as plain data ([`Description`]) | [`DescribeTableError`] |
//! | [`delete`] | DeleteTable | [`DeleteTableError`] |
//! | [`update`] | UpdateTable: a global index created or deleted, the billing mode | [`UpdateTableError`] |
//! | [`ttl`] | UpdateTimeToLive, DescribeTimeToLive | [`TtlError`] |
//! | [`list`] | ListTables | [`ListTablesError`] |
//!
//! `shape` turns the model crate's table definition into the SDK's types for CreateTable and
//! UpdateTable; [`wait_active`] waits for DynamoDB to finish what they started.

pub mod create;
pub mod delete;
pub mod describe;
pub mod list;
mod shape;
pub mod ttl;
pub mod update;

use aws_sdk_dynamodb::Client;

use crate::service::ServiceError;

pub use create::{TableError, ensure_table};
pub use delete::{DeleteTableError, delete_table};
pub use describe::{DescribeTableError, Description, IndexDescription, describe};
pub use list::{ListTablesError, list_tables};
pub use ttl::{TtlError, time_to_live, update_ttl};
pub use update::{UpdateTableError, create_index, delete_index, update_billing};

/// A table-level call DynamoDB refused or failed: which operation, on which table, and what it
/// said, classified.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{operation} on table `{table}` failed: {error}")]
pub struct TableCall {
    /// The DynamoDB operation (`UpdateTable`).
    pub operation: &'static str,
    /// The table.
    pub table: String,
    /// What DynamoDB (or the way to it) said.
    #[source]
    pub error: ServiceError,
}

impl TableCall {
    /// A failed `operation` on `table`.
    pub(crate) fn new<E>(
        operation: &'static str,
        table: &str,
        e: &aws_sdk_dynamodb::error::SdkError<E, aws_sdk_dynamodb::config::http::HttpResponse>,
    ) -> TableCall
    where
        E: aws_sdk_dynamodb::error::ProvideErrorMetadata + std::error::Error + 'static,
    {
        TableCall {
            operation,
            table: table.to_string(),
            error: ServiceError::from_sdk(e),
        }
    }
}

impl TableCall {
    /// An `operation` on `table` whose request the SDK could not build (a required field
    /// missing): no call was made. A bug to fix, classified as [`ServiceError::Validation`].
    pub(crate) fn unbuilt(
        operation: &'static str,
        table: &str,
        e: &aws_sdk_dynamodb::error::BuildError,
    ) -> TableCall {
        TableCall {
            operation,
            table: table.to_string(),
            error: ServiceError::Validation {
                message: format!("the request could not be built: {e}"),
            },
        }
    }
}

/// A table (or one of its indexes) that did not become ACTIVE in time.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("table `{table}` is still {status} after waiting; try again shortly")]
pub struct NotActive {
    /// The table.
    pub table: String,
    /// Its status.
    pub status: String,
}

/// Polls `table` until it and every global index on it are ACTIVE (two minutes at most).
pub async fn wait_active<E: From<TableCall> + From<NotActive>>(
    client: &Client,
    table: &str,
) -> Result<(), E> {
    let mut status = String::from("unknown");
    for _ in 0..240 {
        let described = describe::call(client, table).await?;
        if described.is_active() {
            return Ok(());
        }
        status.clone_from(&described.status);
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    Err(E::from(NotActive {
        table: table.to_string(),
        status,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::types::{KeySchemaElement, TimeToLiveSpecification};

    /// A request the SDK cannot build is a `TableCall` that names the operation and the table
    /// and reads as a bug to fix (a validation error, not retried), never a panic.
    #[test]
    fn a_request_the_sdk_cannot_build_is_an_error_not_a_panic() {
        let incomplete = [
            KeySchemaElement::builder()
                .attribute_name("PK")
                .build()
                .err(),
            TimeToLiveSpecification::builder()
                .enabled(true)
                .build()
                .err(),
        ];
        for e in incomplete {
            let e = e.expect("a required field is missing");
            let call = TableCall::unbuilt("CreateTable", "Shop", &e);
            assert!(matches!(call.error, ServiceError::Validation { .. }));
            assert!(!call.error.is_transient());
            let text = call.to_string();
            assert!(
                text.starts_with(
                    "CreateTable on table `Shop` failed: the request could not be built: "
                ),
                "{text}"
            );
        }
    }

    /// Every SDK shape the model's table needs is built whole: the shop's table (global and
    /// local indexes, provisioned or on demand) converts without a `BuildError`.
    #[test]
    fn the_models_table_converts_to_complete_sdk_shapes() {
        let model = monotable_model::parse(include_str!("../../../../examples/shop/shop.toml"))
            .expect("the shop's model");
        let definition = monotable_model::definition::table_definition(&model);
        assert!(shape::key_schema(&definition.key_schema).is_ok());
        assert!(shape::attributes(&definition, |_| true).is_ok_and(|a| !a.is_empty()));
        assert!(shape::throughput(definition.billing.throughput()).is_ok());
        for index in &definition.global_secondary_indexes {
            assert!(shape::key_schema(&index.key_schema).is_ok());
            assert!(shape::throughput(index.throughput).is_ok());
        }
    }
}
