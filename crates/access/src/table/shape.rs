//! The model crate's table definition (`monotable_model::definition`, the same table every
//! export describes) as the SDK's types, for CreateTable and UpdateTable. A type the SDK cannot
//! build (a required field missing) is its `BuildError`, which the caller reports as a
//! [`TableCall`](super::TableCall) that made no call, never a panic.

use aws_sdk_dynamodb::error::BuildError;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, KeySchemaElement, KeyType, Projection, ProvisionedThroughput,
    ScalarAttributeType,
};
use monotable_model::KeyAttributeType;
use monotable_model::definition::{self, TableDefinition};

fn scalar(ty: KeyAttributeType) -> ScalarAttributeType {
    match ty {
        KeyAttributeType::S => ScalarAttributeType::S,
        KeyAttributeType::N => ScalarAttributeType::N,
        KeyAttributeType::B => ScalarAttributeType::B,
    }
}

/// The definitions of `definition`'s attributes that `keep` accepts.
pub(super) fn attributes(
    definition: &TableDefinition,
    keep: impl Fn(&str) -> bool,
) -> Result<Vec<AttributeDefinition>, BuildError> {
    definition
        .attribute_definitions
        .iter()
        .filter(|a| keep(&a.name))
        .map(|a| {
            AttributeDefinition::builder()
                .attribute_name(&a.name)
                .attribute_type(scalar(a.ty))
                .build()
        })
        .collect()
}

pub(super) fn key_schema(
    schema: &definition::KeySchema,
) -> Result<Vec<KeySchemaElement>, BuildError> {
    let key = |name: &str, kind: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(kind)
            .build()
    };
    schema
        .elements()
        .map(|(name, hash)| key(name, if hash { KeyType::Hash } else { KeyType::Range }))
        .collect()
}

pub(super) fn projection(projection: &definition::Projection) -> Projection {
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

pub(super) fn throughput(
    t: Option<definition::Throughput>,
) -> Result<Option<ProvisionedThroughput>, BuildError> {
    let Some(t) = t else {
        return Ok(None);
    };
    let units = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    ProvisionedThroughput::builder()
        .read_capacity_units(units(t.read_capacity_units))
        .write_capacity_units(units(t.write_capacity_units))
        .build()
        .map(Some)
}

pub(super) fn billing(definition: &TableDefinition) -> BillingMode {
    match definition.billing {
        definition::Billing::PayPerRequest => BillingMode::PayPerRequest,
        _ => BillingMode::Provisioned,
    }
}
