//! The table a model describes as plain data: the one CreateTable definition. The access layer
//! maps it onto the SDK's CreateTable (`monotable_access::table`), and the CreateTable JSON,
//! CloudFormation and SAM exports render it, so every path creates the same table.

use crate::{IndexKind, KeyAttributeType, Model, ProjectionType};

/// Read and write capacity units given to the table and to each global secondary index of a
/// `PROVISIONED` model. The model format has no capacity figures, so this is a starting point to
/// change after deploying (or to manage with auto scaling).
pub const DEFAULT_PROVISIONED_UNITS: u64 = 5;

/// Everything CreateTable needs, plus the TTL attribute (which DynamoDB sets separately).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TableDefinition {
    /// Table name.
    pub table_name: String,
    /// Key attributes of the table and its indexes, each once, in order of first use
    /// (table partition key, table sort key, then each index in name order).
    pub attribute_definitions: Vec<AttributeDefinition>,
    /// The table's primary key.
    pub key_schema: KeySchema,
    /// On-demand or provisioned, with the table's throughput.
    pub billing: Billing,
    /// Global secondary indexes, in name order.
    pub global_secondary_indexes: Vec<SecondaryIndex>,
    /// Local secondary indexes, in name order.
    pub local_secondary_indexes: Vec<SecondaryIndex>,
    /// TTL attribute: not part of CreateTable, applied with UpdateTimeToLive afterwards.
    pub ttl_attribute: Option<String>,
    /// The stream's view (`StreamSpecification`); `None`: no stream.
    pub stream_view: Option<crate::StreamView>,
}

/// A key attribute and its scalar type.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct AttributeDefinition {
    /// Attribute name.
    pub name: String,
    /// `S`, `N` or `B`.
    pub ty: KeyAttributeType,
}

/// A key schema: HASH attributes then RANGE attributes, in order. The table and local indexes
/// have one HASH and at most one RANGE; a global index with a native key up to four of each.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct KeySchema {
    /// The HASH (partition) key attributes.
    pub partition_keys: Vec<String>,
    /// The RANGE (sort) key attributes.
    pub sort_keys: Vec<String>,
}

impl KeySchema {
    /// Every element as `(attribute, is_hash)`, in the order DynamoDB's `KeySchema` lists them.
    pub fn elements(&self) -> impl Iterator<Item = (&str, bool)> {
        let hash = self.partition_keys.iter().map(|k| (k.as_str(), true));
        hash.chain(self.sort_keys.iter().map(|k| (k.as_str(), false)))
    }
}

/// Provisioned throughput of the table or a global secondary index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Throughput {
    /// Read capacity units.
    pub read_capacity_units: u64,
    /// Write capacity units.
    pub write_capacity_units: u64,
}

impl Default for Throughput {
    fn default() -> Self {
        Self {
            read_capacity_units: DEFAULT_PROVISIONED_UNITS,
            write_capacity_units: DEFAULT_PROVISIONED_UNITS,
        }
    }
}

/// Billing mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Billing {
    /// `PAY_PER_REQUEST`: on demand, no throughput settings.
    PayPerRequest,
    /// `PROVISIONED`, with the table's throughput (each GSI carries its own).
    Provisioned(Throughput),
}

impl Billing {
    /// The CreateTable `BillingMode` value.
    pub fn mode(&self) -> &'static str {
        match self {
            Billing::PayPerRequest => "PAY_PER_REQUEST",
            Billing::Provisioned(_) => "PROVISIONED",
        }
    }

    /// The table's throughput when provisioned.
    pub fn throughput(&self) -> Option<Throughput> {
        match self {
            Billing::PayPerRequest => None,
            Billing::Provisioned(t) => Some(*t),
        }
    }
}

/// What an index copies from the base items.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Projection {
    /// `ALL`.
    All,
    /// `KEYS_ONLY`.
    KeysOnly,
    /// `INCLUDE` with these non-key attributes.
    Include(Vec<String>),
}

impl Projection {
    /// The `ProjectionType` value.
    pub fn projection_type(&self) -> &'static str {
        match self {
            Projection::All => "ALL",
            Projection::KeysOnly => "KEYS_ONLY",
            Projection::Include(_) => "INCLUDE",
        }
    }

    /// The `NonKeyAttributes` of an `INCLUDE` projection.
    pub fn non_key_attributes(&self) -> Option<&[String]> {
        match self {
            Projection::Include(attributes) => Some(attributes),
            Projection::All | Projection::KeysOnly => None,
        }
    }
}

/// A global or local secondary index.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SecondaryIndex {
    /// Index name.
    pub name: String,
    /// Its key schema (for a local index, the table's partition key).
    pub key_schema: KeySchema,
    /// Projection.
    pub projection: Projection,
    /// Throughput of a global index on a provisioned table; always `None` for local indexes.
    pub throughput: Option<Throughput>,
}

/// The scalar type letter of a key attribute type.
pub fn scalar_type(ty: KeyAttributeType) -> &'static str {
    match ty {
        KeyAttributeType::S => "S",
        KeyAttributeType::N => "N",
        KeyAttributeType::B => "B",
    }
}

/// The declared type of a key attribute of the table or an index (`S` unless declared).
fn key_type(model: &Model, name: &str) -> KeyAttributeType {
    model
        .key_attribute_type(name)
        .unwrap_or(KeyAttributeType::S)
}

/// The table the model describes. Billing `PROVISIONED` gets [`DEFAULT_PROVISIONED_UNITS`] on the
/// table and on each global index.
pub fn table_definition(model: &Model) -> TableDefinition {
    let table = &model.table;
    let provisioned = model.table.billing_mode == crate::BillingMode::Provisioned;
    let billing = if provisioned {
        Billing::Provisioned(Throughput::default())
    } else {
        Billing::PayPerRequest
    };

    let mut candidates: Vec<&str> = vec![table.partition_key.name.as_str()];
    candidates.extend(table.sort_key.as_ref().map(|k| k.name.as_str()));
    for index in &model.indexes {
        candidates.extend(index.key_attributes().map(|k| k.name.as_str()));
    }
    let mut names: Vec<&str> = Vec::new();
    for name in candidates {
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    let attribute_definitions = names
        .into_iter()
        .map(|name| AttributeDefinition {
            name: name.to_string(),
            ty: key_type(model, name),
        })
        .collect();

    let mut global_secondary_indexes = Vec::new();
    let mut local_secondary_indexes = Vec::new();
    for index in &model.indexes {
        let projection = match index.projection {
            ProjectionType::All => Projection::All,
            ProjectionType::KeysOnly => Projection::KeysOnly,
            ProjectionType::Include => {
                let mut attributes: Vec<String> = Vec::new();
                for name in &index.include {
                    if !attributes.contains(name) {
                        attributes.push(name.clone());
                    }
                }
                Projection::Include(attributes)
            }
        };
        let mut definition = SecondaryIndex {
            name: index.name.clone(),
            key_schema: KeySchema {
                partition_keys: index
                    .partition_keys
                    .iter()
                    .map(|k| k.name.clone())
                    .collect(),
                sort_keys: index.sort_keys.iter().map(|k| k.name.clone()).collect(),
            },
            projection,
            throughput: None,
        };
        match index.kind {
            IndexKind::Global => {
                definition.throughput = billing.throughput();
                global_secondary_indexes.push(definition);
            }
            IndexKind::Local => local_secondary_indexes.push(definition),
        }
    }

    TableDefinition {
        table_name: table.name.clone(),
        attribute_definitions,
        key_schema: KeySchema {
            partition_keys: vec![table.partition_key.name.clone()],
            sort_keys: table.sort_key.iter().map(|k| k.name.clone()).collect(),
        },
        billing,
        global_secondary_indexes,
        local_secondary_indexes,
        ttl_attribute: table.ttl_attribute.clone(),
        stream_view: table.stream,
    }
}
