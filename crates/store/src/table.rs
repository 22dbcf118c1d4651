//! The table a model describes: CreateTable built from the model, created when missing.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    LocalSecondaryIndex, Projection, ProvisionedThroughput, ScalarAttributeType, TableStatus,
    TimeToLiveSpecification,
};
use monotable_model::{IndexKind, KeyAttributeType, Model, ProjectionType};

/// Capacity given to each table and index of a PROVISIONED model (the model has no figures).
pub const DEFAULT_PROVISIONED_UNITS: i64 = 5;

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

fn key(name: &str, kind: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(kind)
        .build()
        .expect("name and key type are set")
}

fn key_schema(pk: &str, sk: Option<&str>) -> Vec<KeySchemaElement> {
    let mut schema = vec![key(pk, KeyType::Hash)];
    schema.extend(sk.map(|sk| key(sk, KeyType::Range)));
    schema
}

fn projection(model_projection: ProjectionType, include: &[String]) -> Projection {
    let builder = Projection::builder();
    match model_projection {
        ProjectionType::All => {
            builder.projection_type(aws_sdk_dynamodb::types::ProjectionType::All)
        }
        ProjectionType::KeysOnly => {
            builder.projection_type(aws_sdk_dynamodb::types::ProjectionType::KeysOnly)
        }
        ProjectionType::Include => builder
            .projection_type(aws_sdk_dynamodb::types::ProjectionType::Include)
            .set_non_key_attributes(Some(include.to_vec())),
    }
    .build()
}

/// The attribute definitions: every key attribute of the table and its indexes, once, with its
/// declared type.
fn attribute_definitions(model: &Model) -> Vec<AttributeDefinition> {
    model
        .key_attribute_names()
        .into_iter()
        .map(|name| {
            let ty = model
                .key_attribute_type(name)
                .unwrap_or(KeyAttributeType::S);
            AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(scalar(ty))
                .build()
                .expect("name and type are set")
        })
        .collect()
}

/// Create the model's table (indexes, billing mode, TTL) unless a table of that name exists, and
/// wait until it is ACTIVE. Returns whether it was created. An existing table must have the
/// model's primary key schema.
pub async fn ensure_table(client: &Client, model: &Model) -> Result<bool, TableError> {
    let table = model.table.name.clone();
    let call = |operation: &'static str| {
        let table = table.clone();
        move |e: &dyn ProvideErrorMetadata| TableError::Call {
            operation,
            table,
            message: e.message().or(e.code()).unwrap_or("no message").to_string(),
        }
    };
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
        Err(e) => return Err(call("DescribeTable")(&e)),
    }

    let provisioned = model.table.billing_mode == monotable_model::BillingMode::Provisioned;
    let throughput = || {
        ProvisionedThroughput::builder()
            .read_capacity_units(DEFAULT_PROVISIONED_UNITS)
            .write_capacity_units(DEFAULT_PROVISIONED_UNITS)
            .build()
            .expect("units are set")
    };
    let mut request = client
        .create_table()
        .table_name(&table)
        .set_key_schema(Some(key_schema(wanted_pk, wanted_sk)))
        .set_attribute_definitions(Some(attribute_definitions(model)))
        .billing_mode(if provisioned {
            BillingMode::Provisioned
        } else {
            BillingMode::PayPerRequest
        });
    if provisioned {
        request = request.provisioned_throughput(throughput());
    }
    for index in &model.indexes {
        let projection = projection(index.projection, &index.include);
        match index.kind {
            IndexKind::Global => {
                let mut gsi = GlobalSecondaryIndex::builder()
                    .index_name(&index.name)
                    .set_key_schema(Some(key_schema(
                        &index.partition_key,
                        index.sort_key.as_deref(),
                    )))
                    .projection(projection);
                if provisioned {
                    gsi = gsi.provisioned_throughput(throughput());
                }
                request = request.global_secondary_indexes(gsi.build().expect("gsi is complete"));
            }
            IndexKind::Local => {
                request = request.local_secondary_indexes(
                    LocalSecondaryIndex::builder()
                        .index_name(&index.name)
                        .set_key_schema(Some(key_schema(
                            &index.partition_key,
                            index.sort_key.as_deref(),
                        )))
                        .projection(projection)
                        .build()
                        .expect("lsi is complete"),
                );
            }
        }
    }
    match request.send().await {
        Ok(_) => {}
        // Another process created it between our describe and create: fine.
        Err(e)
            if e.as_service_error()
                .is_some_and(|s| s.is_resource_in_use_exception()) => {}
        Err(e) => return Err(call("CreateTable")(&e)),
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
            .map_err(|e| call("UpdateTimeToLive")(&e))?;
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
            .map_err(|e| TableError::Call {
                operation: "DescribeTable",
                table: table.to_string(),
                message: e.message().unwrap_or("no message").to_string(),
            })?;
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
