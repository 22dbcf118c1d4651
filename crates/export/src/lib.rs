//! monotable-export: a model as deployable artefacts: CreateTable JSON, CloudFormation, SAM, Markdown.
//!
//! Every export is a pure function of a validated [`Model`] returning the text to write; nothing
//! here does I/O, and no model makes it panic. The table exports are all rendered from the model
//! crate's one [`TableDefinition`] ([`table_definition`]), which the access layer maps onto the
//! SDK's CreateTable. See `docs/export.md`.
//!
//! | format | function |
//! |---|---|
//! | `create-table` | [`create_table_json`] (and [`ttl_spec`] for TTL) |
//! | `cloudformation` | [`cloudformation`] |
//! | `sam` | [`sam`] / [`sam_with`] |
//! | `markdown` | [`markdown`] / [`markdown_with`] |

pub mod aws_mcp;
mod cloudformation;
mod consumers;
mod create_table;
mod iam;
mod json;
mod markdown;
mod mermaid;
mod sam;
mod sam_options;
mod toml_text;
pub mod workbench;

use std::fmt;
use std::str::FromStr;

use monotable_model::Model;

pub use cloudformation::{TABLE_NAME_PARAMETER, TABLE_RESOURCE, cloudformation};
pub use consumers::{CONSUMER_ENV, consumer_logical_id, filter_pattern};
pub use create_table::{create_table_json, ttl_spec};
pub use iam::{
    LIST_STREAMS_ACTION, PolicyResource, PolicyStatement, STREAM_READ_ACTIONS, actions,
    consumer_statements, pattern_actions, policy_statements,
};
pub use markdown::{
    Capacity, CapacityHook, MarkdownOptions, key_condition_text, markdown, markdown_with,
};
pub use monotable_model::definition::{
    AttributeDefinition, Billing, DEFAULT_PROVISIONED_UNITS, KeySchema, Projection, SecondaryIndex,
    TableDefinition, Throughput, scalar_type, table_definition,
};
pub use sam::{
    API_RESOURCE, AUTHORIZER_NAME, Architecture, CURSOR_SECRET_ENV, CURSOR_SECRET_PARAMETER,
    FunctionOptions, POLICY_RESOURCE, Route, SamOptions, routes_from_openapi, sam, sam_with,
};
pub use workbench::{
    ImportError, Imported, WorkbenchOptions, import_nosql_workbench,
    import_nosql_workbench_detailed, import_nosql_workbench_from_reader, nosql_workbench,
};

/// An export format of `monotable export MODEL --format FORMAT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// `create-table`: CreateTable input JSON.
    CreateTable,
    /// `cloudformation`: CloudFormation JSON template with the table.
    CloudFormation,
    /// `sam`: SAM JSON template with the table, its least-privilege policy and, when asked, a
    /// function behind an HTTP API.
    Sam,
    /// `markdown`: the design document.
    Markdown,
}

impl Format {
    /// Every format, in documentation order.
    pub const ALL: [Format; 4] = [
        Format::CreateTable,
        Format::CloudFormation,
        Format::Sam,
        Format::Markdown,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::CreateTable => "create-table",
            Format::CloudFormation => "cloudformation",
            Format::Sam => "sam",
            Format::Markdown => "markdown",
        }
    }

    /// The usual file extension of the output (`json` or `md`).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Markdown => "md",
            Format::CreateTable | Format::CloudFormation | Format::Sam => "json",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = ExportError;

    /// Parses a format name (`create-table`, `cloudformation`/`cfn`, `sam`, `markdown`/`md`),
    /// ASCII case-insensitively.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "create-table" => Ok(Format::CreateTable),
            "cloudformation" | "cfn" => Ok(Format::CloudFormation),
            "sam" => Ok(Format::Sam),
            "markdown" | "md" => Ok(Format::Markdown),
            _ => Err(ExportError::UnknownFormat {
                name: s.to_string(),
            }),
        }
    }
}

/// An export could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The format name is not one of [`Format::ALL`].
    #[error(
        "unknown export format `{name}`; expected one of: create-table, cloudformation, sam, markdown"
    )]
    UnknownFormat {
        /// The name given.
        name: String,
    },
    /// NoSQL Workbench's data model holds one partition key and at most one sort key attribute
    /// per index, so an index keyed on several attributes cannot be written to it.
    #[error(
        "NoSQL Workbench cannot represent native multi-attribute keys: index `{index}` has \
         {partition} partition key and {sort} sort key attributes; \
         export it as create-table, cloudformation, sam or markdown instead"
    )]
    NativeKeys {
        /// The first such index.
        index: String,
        /// Its number of partition key attributes.
        partition: usize,
        /// Its number of sort key attributes.
        sort: usize,
    },
}

/// Everything an export needs besides the model; `Default` gives the documented defaults.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ExportOptions<'a> {
    /// Settings of the `sam` format.
    pub sam: SamOptions,
    /// Inputs of the `markdown` format (check results, capacity hook).
    pub markdown: MarkdownOptions<'a>,
}

/// Renders `model` in `format`. For [`Format::CreateTable`] this is the CreateTable input only;
/// a model with a TTL attribute also needs [`ttl_spec`] applied after the table exists. Hidden
/// characters of free text (descriptions) are escaped ([`monotable_model::text`]): as JSON
/// escapes in the JSON formats, as `\u{1b}` in markdown.
pub fn export(model: &Model, format: Format, options: &ExportOptions<'_>) -> String {
    let json = |text: String| monotable_model::text::escape_json(&text).into_owned();
    match format {
        Format::CreateTable => json(create_table_json(model)),
        Format::CloudFormation => json(cloudformation(model)),
        Format::Sam => json(sam_with(model, &options.sam)),
        Format::Markdown => markdown_with(model, &options.markdown),
    }
}
