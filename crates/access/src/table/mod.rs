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
