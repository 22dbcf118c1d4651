//! ListTables: the names of every table the client can see, page after page.

use aws_sdk_dynamodb::Client;

use crate::service::ServiceError;

/// Listing the tables failed.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ListTablesError {
    /// DynamoDB refused or failed the call.
    #[error("ListTables failed: {0}")]
    Service(#[from] ServiceError),
}

/// Every table's name, in DynamoDB's order. The one ListTables call, paginated.
pub async fn list_tables(client: &Client) -> Result<Vec<String>, ListTablesError> {
    let mut names = Vec::new();
    let mut start = None;
    loop {
        let page = client
            .list_tables()
            .set_exclusive_start_table_name(start)
            .send()
            .await
            .map_err(|e| ServiceError::from_sdk(&e))?;
        names.extend(page.table_names().iter().cloned());
        start = page.last_evaluated_table_name().map(str::to_string);
        if start.is_none() {
            return Ok(names);
        }
    }
}
