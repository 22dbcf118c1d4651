//! CreateTable: the model's table (its indexes, billing mode, stream and TTL: the same table every
//! export describes), created when missing ([`ensure_table`]).

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::BuildError;
use aws_sdk_dynamodb::types::{
    GlobalSecondaryIndex, LocalSecondaryIndex, StreamSpecification, StreamViewType,
};
use monotable_model::Model;
use monotable_model::definition::{TableDefinition, table_definition};

use super::shape::{attributes, billing, key_schema, projection, throughput};
use super::{NotActive, TableCall, describe, ttl, wait_active};

/// Making the model's table failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// DynamoDB refused or failed a call.
    #[error(transparent)]
    Call(#[from] TableCall),
    /// The table exists with another key schema than the model's.
    #[error(
        "table `{table}` exists with key schema {found}, the model needs {wanted}; use another table name or delete it"
    )]
    Mismatch {
        /// The table.
        table: String,
        /// What the table has.
        found: String,
        /// What the model says.
        wanted: String,
    },
    /// The table did not become ACTIVE in time.
    #[error(transparent)]
    NotActive(#[from] NotActive),
}

/// Create the model's table (indexes, billing mode, TTL) unless a table of that name exists, and
/// wait until it is ACTIVE. Returns whether it was created. An existing table must have the
/// model's primary key schema.
pub async fn ensure_table(client: &Client, model: &Model) -> Result<bool, TableError> {
    let table = model.table.name.clone();
    let described = describe::describe(client, &table)
        .await
        .map_err(|describe::DescribeTableError::Call(call)| call)?;
    if let Some(found) = described {
        let names: Vec<&str> = found.key.iter().map(|(name, _)| name.as_str()).collect();
        let wanted: Vec<&str> = std::iter::once(model.table.partition_key.name.as_str())
            .chain(model.table.sort_key.as_ref().map(|k| k.name.as_str()))
            .collect();
        if names != wanted {
            return Err(TableError::Mismatch {
                table,
                found: names.join("+"),
                wanted: wanted.join("+"),
            });
        }
        wait_active::<TableError>(client, &table).await?;
        return Ok(false);
    }
    create(client, &table_definition(model)).await?;
    wait_active::<TableError>(client, &table).await?;
    if let Some(attribute) = &model.table.ttl_attribute {
        ttl::set(client, &table, attribute, true).await?;
    }
    Ok(true)
}

/// The one CreateTable call: `definition` as DynamoDB takes it. A table another process created
/// meanwhile is no error.
async fn create(client: &Client, definition: &TableDefinition) -> Result<(), TableCall> {
    let table = &definition.table_name;
    let unbuilt = |e: BuildError| TableCall::unbuilt("CreateTable", table, &e);
    let mut request = client
        .create_table()
        .table_name(table)
        .set_key_schema(Some(key_schema(&definition.key_schema).map_err(unbuilt)?))
        .set_attribute_definitions(Some(attributes(definition, |_| true).map_err(unbuilt)?))
        .billing_mode(billing(definition))
        .set_provisioned_throughput(throughput(definition.billing.throughput()).map_err(unbuilt)?);
    for index in &definition.global_secondary_indexes {
        let gsi = GlobalSecondaryIndex::builder()
            .index_name(&index.name)
            .set_key_schema(Some(key_schema(&index.key_schema).map_err(unbuilt)?))
            .projection(projection(&index.projection))
            .set_provisioned_throughput(throughput(index.throughput).map_err(unbuilt)?);
        request = request.global_secondary_indexes(gsi.build().map_err(unbuilt)?);
    }
    if let Some(view) = definition.stream_view {
        let stream = StreamSpecification::builder()
            .stream_enabled(true)
            .stream_view_type(StreamViewType::from(view.as_str()))
            .build()
            .map_err(unbuilt)?;
        request = request.stream_specification(stream);
    }
    for index in &definition.local_secondary_indexes {
        let lsi = LocalSecondaryIndex::builder()
            .index_name(&index.name)
            .set_key_schema(Some(key_schema(&index.key_schema).map_err(unbuilt)?))
            .projection(projection(&index.projection));
        request = request.local_secondary_indexes(lsi.build().map_err(unbuilt)?);
    }
    match request.send().await {
        Ok(_) => Ok(()),
        // Another process created it between our describe and create: fine.
        Err(e)
            if e.as_service_error()
                .is_some_and(|s| s.is_resource_in_use_exception()) =>
        {
            Ok(())
        }
        Err(e) => Err(TableCall::new("CreateTable", table, &e)),
    }
}
