//! `--format create-table`: the CreateTable input JSON, and the UpdateTimeToLive input for TTL.
//!
//! The output is what `aws dynamodb create-table --cli-input-json file://table.json` takes.
//! CreateTable cannot enable TTL; [`ttl_spec`] renders the follow-up
//! `aws dynamodb update-time-to-live --cli-input-json` input.

use monotable_model::Model;

use crate::json::{Json, Object, pretty};
use monotable_model::definition::{
    KeySchema, Projection, SecondaryIndex, TableDefinition, Throughput, scalar_type,
    table_definition,
};

/// `[{"AttributeName": pk, "KeyType": "HASH"}, {"AttributeName": sk, "KeyType": "RANGE"}]`: every
/// HASH attribute, then every RANGE attribute, in order (several of each for a native key).
pub(crate) fn key_schema_json(key: &KeySchema) -> Json {
    let elements: Vec<Json> = key
        .elements()
        .map(|(name, hash)| {
            Object::new()
                .with("AttributeName", name)
                .with("KeyType", if hash { "HASH" } else { "RANGE" })
                .into()
        })
        .collect();
    elements.into()
}

/// `{"ProjectionType": ..., "NonKeyAttributes": [...]}`.
pub(crate) fn projection_json(projection: &Projection) -> Json {
    let mut object = Object::new().with("ProjectionType", projection.projection_type());
    if let Some(attributes) = projection.non_key_attributes() {
        object.insert("NonKeyAttributes", attributes.to_vec());
    }
    object.into()
}

/// `{"ReadCapacityUnits": r, "WriteCapacityUnits": w}`.
pub(crate) fn throughput_json(throughput: Throughput) -> Json {
    Object::new()
        .with("ReadCapacityUnits", throughput.read_capacity_units)
        .with("WriteCapacityUnits", throughput.write_capacity_units)
        .into()
}

/// The `AttributeDefinitions` array.
pub(crate) fn attribute_definitions_json(definition: &TableDefinition) -> Json {
    definition
        .attribute_definitions
        .iter()
        .map(|a| {
            Object::new()
                .with("AttributeName", a.name.as_str())
                .with("AttributeType", scalar_type(a.ty))
        })
        .collect::<Vec<_>>()
        .into()
}

/// One `GlobalSecondaryIndexes`/`LocalSecondaryIndexes` element.
pub(crate) fn index_json(index: &SecondaryIndex) -> Json {
    let mut object = Object::new()
        .with("IndexName", index.name.as_str())
        .with("KeySchema", key_schema_json(&index.key_schema))
        .with("Projection", projection_json(&index.projection));
    if let Some(throughput) = index.throughput {
        object.insert("ProvisionedThroughput", throughput_json(throughput));
    }
    object.into()
}

/// The CreateTable input of a table definition, as an ordered object.
pub(crate) fn create_table_object(definition: &TableDefinition) -> Object {
    let mut object = table_properties(definition, definition.table_name.as_str().into());
    if let Some(view) = definition.stream_view {
        object.insert(
            "StreamSpecification",
            Object::new()
                .with("StreamEnabled", true)
                .with("StreamViewType", view.as_str()),
        );
    }
    object
}

/// The table's properties as CreateTable and CloudFormation share them, with `table_name` as the
/// `TableName` value (a string, or a CloudFormation reference).
pub(crate) fn table_properties(definition: &TableDefinition, table_name: Json) -> Object {
    let mut object = Object::new()
        .with("TableName", table_name)
        .with(
            "AttributeDefinitions",
            attribute_definitions_json(definition),
        )
        .with("KeySchema", key_schema_json(&definition.key_schema))
        .with("BillingMode", definition.billing.mode());
    if let Some(throughput) = definition.billing.throughput() {
        object.insert("ProvisionedThroughput", throughput_json(throughput));
    }
    if !definition.global_secondary_indexes.is_empty() {
        object.insert(
            "GlobalSecondaryIndexes",
            definition
                .global_secondary_indexes
                .iter()
                .map(index_json)
                .collect::<Vec<_>>(),
        );
    }
    if !definition.local_secondary_indexes.is_empty() {
        object.insert(
            "LocalSecondaryIndexes",
            definition
                .local_secondary_indexes
                .iter()
                .map(index_json)
                .collect::<Vec<_>>(),
        );
    }
    object
}

/// The CreateTable input JSON (pretty-printed, trailing newline): TableName, AttributeDefinitions,
/// KeySchema, BillingMode, ProvisionedThroughput (PROVISIONED only, see
/// [`DEFAULT_PROVISIONED_UNITS`](crate::DEFAULT_PROVISIONED_UNITS)), and the secondary indexes
/// with their projections, and the `StreamSpecification` when the model declares a stream. TTL
/// is not part of CreateTable: see [`ttl_spec`].
pub fn create_table_json(model: &Model) -> String {
    pretty(&create_table_object(&table_definition(model)).into())
}

/// The UpdateTimeToLive input JSON enabling TTL on the model's `ttl_attribute`, for
/// `aws dynamodb update-time-to-live --cli-input-json`; `None` when the model has no TTL attribute.
pub fn ttl_spec(model: &Model) -> Option<String> {
    let attribute = model.table.ttl_attribute.as_deref()?;
    let object = Object::new()
        .with("TableName", model.table.name.as_str())
        .with(
            "TimeToLiveSpecification",
            Object::new()
                .with("Enabled", true)
                .with("AttributeName", attribute),
        );
    Some(pretty(&object.into()))
}
