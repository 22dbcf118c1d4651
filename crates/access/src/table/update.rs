//! UpdateTable: a global index of the model created on (or deleted from) a table that holds
//! data, and the billing mode set; each waits until the table is ACTIVE again.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::BuildError;
use aws_sdk_dynamodb::operation::update_table::builders::UpdateTableFluentBuilder;
use aws_sdk_dynamodb::types::{
    CreateGlobalSecondaryIndexAction, DeleteGlobalSecondaryIndexAction, GlobalSecondaryIndexUpdate,
};
use monotable_model::Model;
use monotable_model::definition::table_definition;

use super::shape::{attributes, billing, key_schema, projection, throughput};
use super::{NotActive, TableCall, wait_active};

/// Changing a table failed.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum UpdateTableError {
    /// DynamoDB refused or failed a call.
    #[error(transparent)]
    Call(#[from] TableCall),
    /// The model has no global index of that name.
    #[error("the model of table `{table}` has no global index `{index}`")]
    NoIndex {
        /// The table.
        table: String,
        /// The index asked for.
        index: String,
    },
    /// The table did not become ACTIVE again in time.
    #[error(transparent)]
    NotActive(#[from] NotActive),
}

/// Adds the model's global index `name` to its existing table and waits until the index is
/// ACTIVE: DynamoDB builds it from the items already in the table.
pub async fn create_index(
    client: &Client,
    model: &Model,
    name: &str,
) -> Result<(), UpdateTableError> {
    let definition = table_definition(model);
    let table = &definition.table_name;
    let index = definition
        .global_secondary_indexes
        .iter()
        .find(|i| i.name == name)
        .ok_or_else(|| UpdateTableError::NoIndex {
            table: table.clone(),
            index: name.to_string(),
        })?;
    let unbuilt = |e: BuildError| TableCall::unbuilt("UpdateTable", table, &e);
    let create = CreateGlobalSecondaryIndexAction::builder()
        .index_name(&index.name)
        .set_key_schema(Some(key_schema(&index.key_schema).map_err(unbuilt)?))
        .projection(projection(&index.projection))
        .set_provisioned_throughput(throughput(index.throughput).map_err(unbuilt)?)
        .build()
        .map_err(unbuilt)?;
    let keyed = |a: &str| index.key_schema.elements().any(|(k, _)| k == a);
    let request = client
        .update_table()
        .set_attribute_definitions(Some(attributes(&definition, keyed).map_err(unbuilt)?))
        .global_secondary_index_updates(
            GlobalSecondaryIndexUpdate::builder().create(create).build(),
        );
    call(client, table, request).await
}

/// Deletes global index `name` of `table` and waits until the table is ACTIVE again.
pub async fn delete_index(
    client: &Client,
    table: &str,
    name: &str,
) -> Result<(), UpdateTableError> {
    let delete = DeleteGlobalSecondaryIndexAction::builder()
        .index_name(name)
        .build()
        .map_err(|e| TableCall::unbuilt("UpdateTable", table, &e))?;
    let request = client.update_table().global_secondary_index_updates(
        GlobalSecondaryIndexUpdate::builder().delete(delete).build(),
    );
    call(client, table, request).await
}

/// Sets the table's billing mode to the model's (with its throughput when provisioned).
pub async fn update_billing(client: &Client, model: &Model) -> Result<(), UpdateTableError> {
    let definition = table_definition(model);
    let table = &definition.table_name;
    let throughput = throughput(definition.billing.throughput())
        .map_err(|e| TableCall::unbuilt("UpdateTable", table, &e))?;
    let request = client
        .update_table()
        .billing_mode(billing(&definition))
        .set_provisioned_throughput(throughput);
    call(client, table, request).await
}

/// The one UpdateTable call (on `table`), and the wait until the table is ACTIVE again.
async fn call(
    client: &Client,
    table: &str,
    request: UpdateTableFluentBuilder,
) -> Result<(), UpdateTableError> {
    request
        .table_name(table)
        .send()
        .await
        .map_err(|e| TableCall::new("UpdateTable", table, &e))?;
    wait_active(client, table).await
}
