//! `--format nosql-workbench`: the model as a NoSQL Workbench data model (format 3.0), and
//! `import --from nosql-workbench`, the other direction.
//!
//! | monotable | NoSQL Workbench |
//! |---|---|
//! | `[table]` name, keys, billing mode | `DataModel[0]`: `TableName`, `KeyAttributes`, `BillingMode` (+ `ProvisionedCapacitySettings` at 5/5 for `PROVISIONED`) |
//! | global indexes | `GlobalSecondaryIndexes` (key types as in `create-table`, projection) |
//! | local indexes | not representable: kept in the embedded source only |
//! | native multi-attribute keys (several partition or sort attributes) | not representable: the export refuses ([`ExportError::NativeKeys`]), and so does the import of a file that has them |
//! | entity | a facet: `FacetName`, `KeyAttributeAlias` = the table key templates (`USER#{userId}`, `PROFILE`), `NonKeyAttributes` = its attributes and index keys |
//! | attribute types | table `NonKeyAttributes`: `S` (string, enum, text timestamps), `N` (numbers, epoch timestamps), `BOOL`, `L`, `M`, `SS`/`NS` |
//! | sample items (DynamoDB JSON) | table `TableData`, and each item also in the `TableData` of the facet whose key templates match it |
//! | patterns, index key templates, key conditions, relations, traffic | not representable: kept in the embedded source only |
//!
//! The export keeps the monotable model source in `ModelMetadata.Description`, after a short
//! sentence, between the lines [`SOURCE_BEGIN`] and [`SOURCE_END`]: a free-text field Workbench
//! shows and keeps when it saves (an unknown top-level key might not survive). Dates default to
//! [`DEFAULT_DATE`] so the output is deterministic.
//!
//! [`import_nosql_workbench`] returns that source byte for byte when the Workbench table still
//! matches it (table name, keys, billing mode, global indexes, facet names and aliases; edits to
//! sample data or attribute lists do not count). When it does not, or there is none (a file
//! authored in Workbench), it rebuilds a model: the table, the global indexes and one entity per
//! facet, whose key templates come from the aliases (a monotable template as is; a name with
//! lower-case letters such as `customerId` as a variable; anything else, such as `PROFILE`, as
//! literal text) and whose attributes come from the facet's attribute list. Index keys of
//! entities, access patterns and traffic cannot be rebuilt and are reported as warnings
//! ([`Imported::warnings`]). Only one table can be imported.

use std::collections::BTreeMap;

use monotable_model::{AttributeType, Model, TimestampFormat};
use serde::Serialize;
use serde_json::{Value, json};

use monotable_model::definition::{scalar_type, table_definition};

use crate::ExportError;

mod document;
mod import;
mod owner;

pub use import::{
    ImportError, Imported, import_nosql_workbench, import_nosql_workbench_detailed,
    import_nosql_workbench_from_reader,
};

/// Date written in `ModelMetadata` unless the caller gives one (Workbench's own format).
pub const DEFAULT_DATE: &str = "Jan 01, 2025, 12:00 AM";
/// Line before the embedded monotable model source in `ModelMetadata.Description`.
pub const SOURCE_BEGIN: &str = "-----BEGIN MONOTABLE MODEL-----";
/// Line after the embedded monotable model source.
pub const SOURCE_END: &str = "-----END MONOTABLE MODEL-----";

/// Settings of the NoSQL Workbench export.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct WorkbenchOptions {
    /// `ModelMetadata.Author`.
    pub author: String,
    /// `ModelMetadata.DateCreated` (default [`DEFAULT_DATE`], so the output is deterministic).
    pub date_created: String,
    /// `ModelMetadata.DateLastModified`.
    pub date_last_modified: String,
    /// Keep the monotable source in the description, so an import restores the whole model.
    pub embed_source: bool,
}

impl Default for WorkbenchOptions {
    fn default() -> Self {
        Self {
            author: "monotable".to_string(),
            date_created: DEFAULT_DATE.to_string(),
            date_last_modified: DEFAULT_DATE.to_string(),
            embed_source: true,
        }
    }
}

/// DynamoDB type Workbench shows for an attribute.
fn workbench_type(
    ty: AttributeType,
    format: Option<TimestampFormat>,
    items: Option<AttributeType>,
) -> &'static str {
    match ty {
        AttributeType::String | AttributeType::Enum => "S",
        AttributeType::Timestamp
            if matches!(
                format,
                Some(TimestampFormat::EpochSeconds | TimestampFormat::EpochMillis)
            ) =>
        {
            "N"
        }
        AttributeType::Timestamp => "S",
        AttributeType::Number
        | AttributeType::Float
        | AttributeType::Decimal
        | AttributeType::Integer => "N",
        AttributeType::Boolean => "BOOL",
        AttributeType::List => "L",
        AttributeType::Map => "M",
        AttributeType::Set => match items {
            Some(
                AttributeType::Number
                | AttributeType::Float
                | AttributeType::Decimal
                | AttributeType::Integer,
            ) => "NS",
            _ => "SS",
        },
    }
}

fn description(model: &Model, source: &str, embed: bool) -> String {
    let mut text = format!(
        "{} single-table design, exported by monotable.",
        model.table.name
    );
    if embed {
        text.push_str(
            "\n\nThe monotable model below restores access patterns, index key templates and traffic \
             on `monotable import --from nosql-workbench`; changes to the table, its indexes or \
             facets made in NoSQL Workbench take precedence over it.\n",
        );
        text.push_str(SOURCE_BEGIN);
        text.push('\n');
        text.push_str(source);
        // Always one separator line break, which the import removes: the source comes back exact.
        text.push('\n');
        text.push_str(SOURCE_END);
    }
    text
}

/// Workbench's document, fields in the order Workbench writes them.
#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Document<'a> {
    model_name: &'a str,
    model_metadata: Metadata<'a>,
    data_model: Vec<Table<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Metadata<'a> {
    author: &'a str,
    date_created: &'a str,
    date_last_modified: &'a str,
    description: String,
    #[serde(rename = "AWSService")]
    aws_service: &'a str,
    version: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct KeyAttribute<'a> {
    attribute_name: &'a str,
    attribute_type: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct KeyAttributes<'a> {
    partition_key: KeyAttribute<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sort_key: Option<KeyAttribute<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Alias {
    partition_key_alias: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    sort_key_alias: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Facet<'a> {
    facet_name: &'a str,
    key_attribute_alias: Alias,
    table_data: Vec<&'a Value>,
    non_key_attributes: Vec<&'a str>,
    data_access: Value,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Projection<'a> {
    projection_type: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    non_key_attributes: Option<&'a [String]>,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Gsi<'a> {
    index_name: &'a str,
    key_attributes: KeyAttributes<'a>,
    projection: Projection<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Table<'a> {
    table_name: &'a str,
    key_attributes: KeyAttributes<'a>,
    non_key_attributes: Vec<KeyAttribute<'a>>,
    table_facets: Vec<Facet<'a>>,
    global_secondary_indexes: Vec<Gsi<'a>>,
    table_data: &'a [Value],
    data_access: Value,
    billing_mode: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    provisioned_capacity_settings: Option<Value>,
}

/// Renders `model` as a NoSQL Workbench data model (JSON, format 3.0), with `table_data` (items
/// in DynamoDB JSON, possibly none) as the table's data, each item also under the facet of the
/// entity whose key templates it matches. `source` is the model's TOML, embedded when
/// `options.embed_source` is set.
///
/// Workbench's format holds one partition key and at most one sort key attribute per index: a
/// model with a native index keyed on more than that is refused ([`ExportError::NativeKeys`],
/// naming the index). A native index of one attribute on each side is an ordinary index there.
pub fn nosql_workbench(
    model: &Model,
    source: &str,
    table_data: &[Value],
    options: &WorkbenchOptions,
) -> Result<String, ExportError> {
    check_representable(model)?;
    let definition = table_definition(model);
    let type_of = |name: &str| {
        definition
            .attribute_definitions
            .iter()
            .find(|a| a.name == name)
            .map_or("S", |a| scalar_type(a.ty))
    };
    let table_keys: Vec<&str> = std::iter::once(model.table.partition_key.name.as_str())
        .chain(model.table.sort_key.as_ref().map(|k| k.name.as_str()))
        .collect();

    // Non-key attributes: index keys, then entity attributes; the first type seen wins.
    let mut non_key: BTreeMap<&str, &str> = BTreeMap::new();
    for index in &model.indexes {
        for name in index.key_attributes().map(|k| k.name.as_str()) {
            if !table_keys.contains(&name) {
                non_key.entry(name).or_insert(type_of(name));
            }
        }
    }
    for entity in &model.entities {
        for a in &entity.attributes {
            if !table_keys.contains(&a.name.as_str()) {
                non_key
                    .entry(a.name.as_str())
                    .or_insert(workbench_type(a.ty, a.format, a.items));
            }
        }
    }

    let owners = owner::Owners::new(model);
    let mut facet_data: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for item in table_data {
        if let Some(e) = owners.of(item) {
            facet_data.entry(&e.name).or_default().push(item);
        }
    }

    let table_facets = model
        .entities
        .iter()
        .map(|e| {
            let keys = e.key(None);
            let mut names: Vec<&str> = e
                .keys
                .iter()
                .map(|k| k.attribute.as_str())
                .chain(e.attributes.iter().map(|a| a.name.as_str()))
                .filter(|n| !table_keys.contains(n))
                .collect();
            names.sort_unstable();
            names.dedup();
            Facet {
                facet_name: &e.name,
                key_attribute_alias: Alias {
                    partition_key_alias: keys
                        .map(|k| k.pk.template.to_string())
                        .unwrap_or_default(),
                    sort_key_alias: keys
                        .and_then(|k| k.sk.as_ref())
                        .map(|k| k.template.to_string()),
                },
                table_data: facet_data.remove(e.name.as_str()).unwrap_or_default(),
                non_key_attributes: names,
                data_access: json!({ "MySql": {} }),
            }
        })
        .collect();

    let global_secondary_indexes = definition
        .global_secondary_indexes
        .iter()
        .map(|i| Gsi {
            index_name: &i.name,
            key_attributes: KeyAttributes {
                partition_key: KeyAttribute {
                    attribute_name: &i.key_schema.partition_keys[0],
                    attribute_type: type_of(&i.key_schema.partition_keys[0]),
                },
                sort_key: i.key_schema.sort_keys.first().map(|sk| KeyAttribute {
                    attribute_name: sk,
                    attribute_type: type_of(sk),
                }),
            },
            projection: Projection {
                projection_type: i.projection.projection_type(),
                non_key_attributes: i.projection.non_key_attributes(),
            },
        })
        .collect();

    let table = Table {
        table_name: &model.table.name,
        key_attributes: KeyAttributes {
            partition_key: KeyAttribute {
                attribute_name: &model.table.partition_key.name,
                attribute_type: scalar_type(model.table.partition_key.ty),
            },
            sort_key: model.table.sort_key.as_ref().map(|k| KeyAttribute {
                attribute_name: &k.name,
                attribute_type: scalar_type(k.ty),
            }),
        },
        non_key_attributes: non_key
            .into_iter()
            .map(|(name, ty)| KeyAttribute {
                attribute_name: name,
                attribute_type: ty,
            })
            .collect(),
        table_facets,
        global_secondary_indexes,
        table_data,
        data_access: json!({ "MySql": {} }),
        billing_mode: definition.billing.mode(),
        provisioned_capacity_settings: definition.billing.throughput().map(|t| {
            json!({ "ProvisionedThroughput": {
                "ReadCapacityUnits": t.read_capacity_units,
                "WriteCapacityUnits": t.write_capacity_units,
            }})
        }),
    };

    let document = Document {
        model_name: &model.table.name,
        model_metadata: Metadata {
            author: &options.author,
            date_created: &options.date_created,
            date_last_modified: &options.date_last_modified,
            description: description(model, source, options.embed_source),
            aws_service: "Amazon DynamoDB",
            version: "3.0",
        },
        data_model: vec![table],
    };
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    // Descriptions and the embedded source are free text: no hidden character stays raw.
    Ok(monotable_model::text::escape_json(&text).into_owned())
}

/// Whether Workbench's format can hold the model's indexes: the first index keyed on more than
/// one partition or sort attribute is refused ([`ExportError::NativeKeys`]).
pub fn check_representable(model: &Model) -> Result<(), ExportError> {
    match model
        .indexes
        .iter()
        .find(|i| i.partition_keys.len() > 1 || i.sort_keys.len() > 1)
    {
        Some(index) => Err(ExportError::NativeKeys {
            index: index.name.clone(),
            partition: index.partition_keys.len(),
            sort: index.sort_keys.len(),
        }),
        None => Ok(()),
    }
}
