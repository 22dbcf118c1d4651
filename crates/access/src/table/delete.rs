//! DeleteTable: a table and every item in it, gone.

use aws_sdk_dynamodb::Client;

use super::TableCall;

/// Deleting a table failed.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum DeleteTableError {
    /// DynamoDB refused or failed the call.
    #[error(transparent)]
    Call(#[from] TableCall),
}

/// Deletes `table`; returns whether there was one. The one DeleteTable call.
pub async fn delete_table(client: &Client, table: &str) -> Result<bool, DeleteTableError> {
    match client.delete_table().table_name(table).send().await {
        Ok(_) => Ok(true),
        Err(e)
            if e.as_service_error()
                .is_some_and(|s| s.is_resource_not_found_exception()) =>
        {
            Ok(false)
        }
        Err(e) => Err(TableCall::new("DeleteTable", table, &e).into()),
    }
}
