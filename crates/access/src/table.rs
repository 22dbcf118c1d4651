//! The table a model describes: the model crate's one table definition as the SDK's
//! CreateTable (the same table every export describes), created when missing.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::create_table::builders::CreateTableFluentBuilder;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    LocalSecondaryIndex, Projection, ProvisionedThroughput, ScalarAttributeType, TableStatus,
    TimeToLiveSpecification,
};
use monotable_model::definition::{self, TableDefinition, table_definition};
use monotable_model::{KeyAttributeType, Model};

/// Making the model's table failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// DynamoDB refused the call.
    #[error("{operation} on table `{table}` failed: {message}")]
    Call {
        /// The DynamoDB operation.
        operation: &'static str,
        /// The table.
        table: String,
        /// DynamoDB's message.
        message: String,
    },
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
    #[error("table `{table}` is still {status} after waiting; try again shortly")]
    NotActive {
        /// The table.
        table: String,
        /// Its status.
        status: String,
    },
}

fn scalar(ty: KeyAttributeType) -> ScalarAttributeType {
    match ty {
        KeyAttributeType::S => ScalarAttributeType::S,
        KeyAttributeType::N => ScalarAttributeType::N,
        KeyAttributeType::B => ScalarAttributeType::B,
    }
}

fn key_schema(schema: &definition::KeySchema) -> Vec<KeySchemaElement> {
    let key = |name: &str, kind: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(kind)
            .build()
            .expect("name and key type are set")
    };
    schema
        .elements()
        .map(|(name, hash)| key(name, if hash { KeyType::Hash } else { KeyType::Range }))
        .collect()
}

fn projection(projection: &definition::Projection) -> Projection {
    use aws_sdk_dynamodb::types::ProjectionType as Type;
    let builder = Projection::builder();
    match projection {
        definition::Projection::Include(attributes) => builder
            .projection_type(Type::Include)
            .set_non_key_attributes(Some(attributes.clone())),
        definition::Projection::KeysOnly => builder.projection_type(Type::KeysOnly),
        _ => builder.projection_type(Type::All),
    }
    .build()
}

fn throughput(t: Option<definition::Throughput>) -> Option<ProvisionedThroughput> {
    let t = t?;
    let units = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    Some(
        ProvisionedThroughput::builder()
            .read_capacity_units(units(t.read_capacity_units))
            .write_capacity_units(units(t.write_capacity_units))
            .build()
            .expect("units are set"),
    )
}

/// The CreateTable call for `definition`: the same table every export describes.
fn create_table(client: &Client, definition: &TableDefinition) -> CreateTableFluentBuilder {
    let attributes = definition
        .attribute_definitions
        .iter()
        .map(|a| {
            AttributeDefinition::builder()
                .attribute_name(&a.name)
                .attribute_type(scalar(a.ty))
                .build()
                .expect("name and type are set")
        })
        .collect();
    let billing = match definition.billing {
        definition::Billing::PayPerRequest => BillingMode::PayPerRequest,
        _ => BillingMode::Provisioned,
    };
    let mut request = client
        .create_table()
        .table_name(&definition.table_name)
        .set_key_schema(Some(key_schema(&definition.key_schema)))
        .set_attribute_definitions(Some(attributes))
        .billing_mode(billing)
        .set_provisioned_throughput(throughput(definition.billing.throughput()));
    for index in &definition.global_secondary_indexes {
        let gsi = GlobalSecondaryIndex::builder()
            .index_name(&index.name)
            .set_key_schema(Some(key_schema(&index.key_schema)))
            .projection(projection(&index.projection))
            .set_provisioned_throughput(throughput(index.throughput));
        request = request.global_secondary_indexes(gsi.build().expect("gsi is complete"));
    }
    for index in &definition.local_secondary_indexes {
        let lsi = LocalSecondaryIndex::builder()
            .index_name(&index.name)
            .set_key_schema(Some(key_schema(&index.key_schema)))
            .projection(projection(&index.projection));
        request = request.local_secondary_indexes(lsi.build().expect("lsi is complete"));
    }
    request
}

/// Create the model's table (indexes, billing mode, TTL) unless a table of that name exists, and
/// wait until it is ACTIVE. Returns whether it was created. An existing table must have the
/// model's primary key schema.
pub async fn ensure_table(client: &Client, model: &Model) -> Result<bool, TableError> {
    let table = model.table.name.clone();
    let wanted_pk = model.table.partition_key.name.as_str();
    let wanted_sk = model.table.sort_key.as_ref().map(|k| k.name.as_str());
    match client.describe_table().table_name(&table).send().await {
        Ok(found) => {
            let schema = found
                .table()
                .map(|t| t.key_schema().to_vec())
                .unwrap_or_default();
            let names: Vec<&str> = schema.iter().map(|k| k.attribute_name()).collect();
            let wanted: Vec<&str> = std::iter::once(wanted_pk).chain(wanted_sk).collect();
            if names != wanted {
                return Err(TableError::Mismatch {
                    table,
                    found: names.join("+"),
                    wanted: wanted.join("+"),
                });
            }
            wait_active(client, &table).await?;
            return Ok(false);
        }
        Err(e)
            if e.as_service_error()
                .is_some_and(|s| s.is_resource_not_found_exception()) => {}
        Err(e) => return Err(call_error("DescribeTable", &table, &e)),
    }

    let definition = table_definition(model);
    let request = create_table(client, &definition);
    match request.send().await {
        Ok(_) => {}
        // Another process created it between our describe and create: fine.
        Err(e)
            if e.as_service_error()
                .is_some_and(|s| s.is_resource_in_use_exception()) => {}
        Err(e) => return Err(call_error("CreateTable", &table, &e)),
    }
    wait_active(client, &table).await?;
    if let Some(ttl) = &model.table.ttl_attribute {
        client
            .update_time_to_live()
            .table_name(&table)
            .time_to_live_specification(
                TimeToLiveSpecification::builder()
                    .attribute_name(ttl)
                    .enabled(true)
                    .build()
                    .expect("ttl spec is complete"),
            )
            .send()
            .await
            .map_err(|e| call_error("UpdateTimeToLive", &table, &e))?;
    }
    Ok(true)
}

async fn wait_active(client: &Client, table: &str) -> Result<(), TableError> {
    let mut status = String::from("unknown");
    for _ in 0..240 {
        let described = client
            .describe_table()
            .table_name(table)
            .send()
            .await
            .map_err(|e| call_error("DescribeTable", table, &e))?;
        let t = described.table();
        let table_active = t.and_then(|t| t.table_status()) == Some(&TableStatus::Active);
        let indexes_active = t
            .map(|t| {
                t.global_secondary_indexes().iter().all(|g| {
                    g.index_status()
                        .is_none_or(|s| *s == aws_sdk_dynamodb::types::IndexStatus::Active)
                })
            })
            .unwrap_or(false);
        if table_active && indexes_active {
            return Ok(());
        }
        status = t
            .and_then(|t| t.table_status())
            .map(|s| s.as_str().to_string())
            .unwrap_or_default();
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    Err(TableError::NotActive {
        table: table.to_string(),
        status,
    })
}

/// A failed `operation` on `table`, in [`crate::error::call_text`]'s words.
fn call_error<E>(operation: &'static str, table: &str, e: &SdkError<E, HttpResponse>) -> TableError
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
{
    TableError::Call {
        operation,
        table: table.to_string(),
        message: crate::error::call_text(e),
    }
}

/// Adds the model's global index `name` to its existing table (UpdateTable) and waits until the
/// index is ACTIVE: DynamoDB builds it from the items already in the table.
pub async fn create_index(client: &Client, model: &Model, name: &str) -> Result<(), TableError> {
    use aws_sdk_dynamodb::types::{CreateGlobalSecondaryIndexAction, GlobalSecondaryIndexUpdate};
    let definition = table_definition(model);
    let table = &definition.table_name;
    let index = definition
        .global_secondary_indexes
        .iter()
        .find(|i| i.name == name)
        .ok_or_else(|| TableError::Call {
            operation: "UpdateTable",
            table: table.clone(),
            message: format!("the model has no global index `{name}`"),
        })?;
    let attributes = definition
        .attribute_definitions
        .iter()
        .filter(|a| index.key_schema.elements().any(|(k, _)| k == a.name))
        .map(|a| {
            AttributeDefinition::builder()
                .attribute_name(&a.name)
                .attribute_type(scalar(a.ty))
                .build()
                .expect("name and type are set")
        })
        .collect();
    let create = CreateGlobalSecondaryIndexAction::builder()
        .index_name(&index.name)
        .set_key_schema(Some(key_schema(&index.key_schema)))
        .projection(projection(&index.projection))
        .set_provisioned_throughput(throughput(index.throughput))
        .build()
        .expect("the index is complete");
    client
        .update_table()
        .table_name(table)
        .set_attribute_definitions(Some(attributes))
        .global_secondary_index_updates(
            GlobalSecondaryIndexUpdate::builder().create(create).build(),
        )
        .send()
        .await
        .map_err(|e| call_error("UpdateTable", table, &e))?;
    wait_active(client, table).await
}

/// Deletes global index `name` of `table` and waits until the table is ACTIVE again.
pub async fn delete_index(client: &Client, table: &str, name: &str) -> Result<(), TableError> {
    use aws_sdk_dynamodb::types::{DeleteGlobalSecondaryIndexAction, GlobalSecondaryIndexUpdate};
    let delete = DeleteGlobalSecondaryIndexAction::builder()
        .index_name(name)
        .build()
        .expect("the name is set");
    client
        .update_table()
        .table_name(table)
        .global_secondary_index_updates(
            GlobalSecondaryIndexUpdate::builder().delete(delete).build(),
        )
        .send()
        .await
        .map_err(|e| call_error("UpdateTable", table, &e))?;
    wait_active(client, table).await
}

/// Sets the table's billing mode to the model's (with default throughput when provisioned).
pub async fn update_billing(client: &Client, model: &Model) -> Result<(), TableError> {
    let definition = table_definition(model);
    let table = &definition.table_name;
    let billing = match definition.billing {
        definition::Billing::PayPerRequest => BillingMode::PayPerRequest,
        _ => BillingMode::Provisioned,
    };
    client
        .update_table()
        .table_name(table)
        .billing_mode(billing)
        .set_provisioned_throughput(throughput(definition.billing.throughput()))
        .send()
        .await
        .map_err(|e| call_error("UpdateTable", table, &e))?;
    wait_active(client, table).await
}

/// Turns TTL off on `from` (when set) and on for the model's TTL attribute (when it has one).
pub async fn update_ttl(
    client: &Client,
    model: &Model,
    from: Option<&str>,
) -> Result<(), TableError> {
    let table = &model.table.name;
    let set = |attribute: &str, enabled: bool| {
        client
            .update_time_to_live()
            .table_name(table)
            .time_to_live_specification(
                TimeToLiveSpecification::builder()
                    .attribute_name(attribute)
                    .enabled(enabled)
                    .build()
                    .expect("ttl spec is complete"),
            )
            .send()
    };
    if let Some(old) = from {
        set(old, false)
            .await
            .map_err(|e| call_error("UpdateTimeToLive", table, &e))?;
    }
    if let Some(ttl) = &model.table.ttl_attribute {
        set(ttl, true)
            .await
            .map_err(|e| call_error("UpdateTimeToLive", table, &e))?;
    }
    Ok(())
}
