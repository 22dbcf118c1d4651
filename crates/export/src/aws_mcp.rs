//! `monotable import --from aws-mcp`: the AWS DynamoDB MCP server's data model JSON into model
//! TOML, with every part it could not map listed (its JSON path and why), never dropped silently.
//!
//! The AWS server (awslabs/mcp, `src/dynamodb-mcp-server`) writes two JSON files, and either is
//! read, told apart by its shape:
//!
//! - `schema.json` (its code generator's input): `tables[]` of `table_config` (name, partition
//!   and sort key), `gsi_list`, and `entities` with key templates (`USER#{user_id}`), fields and
//!   access patterns ([`schema`]);
//! - `dynamodb_data_model.json` (its validation's input): `tables[]` in CreateTable form, sample
//!   `items` per table and `access_patterns` as AWS CLI commands. Entities and key templates are
//!   read off the items, patterns off the commands ([`data_model`]).
//!
//! A monotable model is one table: the first, or the one named ([`AwsMcpOptions::table`]); each
//! other table is listed. The model is written, then parsed: a section the model refuses (an
//! entity, index or pattern) is taken out with the model's message as the reason, and what
//! depended on it with it, until the model parses, so what comes out passes `monotable check`'s
//! MT000. The import fails only when nothing usable remains. The mapping, field by field, is in
//! docs/export.md. Nothing here does I/O.

mod data_model;
mod data_native;
mod data_patterns;
mod draft;
mod infer;
mod json;
mod keys;
mod request;
mod schema;
mod schema_native;
mod schema_patterns;
mod schema_transactions;
mod settle;
mod template;

use std::fmt;

use serde_json::Value;

use json::{Notes, item, shown};

/// The largest file `monotable import --from aws-mcp` reads (4 MiB), sample items included: the
/// file is held whole, as JSON, and takes about 50 times its size in memory (docs/benchmarks.md,
/// "Growth"); the AWS server's guide has an agent write 5 to 10 sample items per table.
pub const MAX_AWS_MCP_BYTES: usize = 4 << 20;

/// Which of the AWS server's files it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AwsMcpFormat {
    /// `dynamodb_data_model.json`: CreateTable tables, sample items, CLI commands.
    DataModel,
    /// `schema.json`: tables with entities, key templates and access patterns.
    Schema,
}

impl AwsMcpFormat {
    /// The file's usual name.
    pub fn file_name(self) -> &'static str {
        match self {
            AwsMcpFormat::DataModel => "dynamodb_data_model.json",
            AwsMcpFormat::Schema => "schema.json",
        }
    }
}

/// What to import.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AwsMcpOptions {
    /// The table to import (by `TableName` / `table_name`); the first when absent.
    pub table: Option<String>,
}

impl AwsMcpOptions {
    /// Options importing `table` (the first table when `None`).
    pub fn table(table: Option<String>) -> AwsMcpOptions {
        AwsMcpOptions { table }
    }
}

/// One part of the file the model does not hold: where it is (a JSON path, names with hidden
/// characters escaped) and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Unmapped {
    /// `tables[0].entities.User.access_patterns[2].range_condition`.
    pub path: String,
    /// Why it is not in the model.
    pub reason: String,
}

impl fmt::Display for Unmapped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

/// An import.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct AwsMcpImport {
    /// Which file it was.
    pub format: AwsMcpFormat,
    /// The table imported.
    pub table: String,
    /// The model's TOML text.
    pub source: String,
    /// What was not mapped, one entry each.
    pub unmapped: Vec<Unmapped>,
}

/// The file could not be imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AwsMcpError {
    /// Not JSON.
    #[error("not JSON: {message} at line {line}, column {column}")]
    Json {
        /// What the parser expected.
        message: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// JSON, but neither of the AWS server's files.
    #[error(
        "not an AWS DynamoDB MCP data model: {message}; expected `tables` in CreateTable form \
         (dynamodb_data_model.json) or with `table_config` (schema.json)"
    )]
    NotAwsMcp {
        /// What is missing.
        message: String,
    },
    /// `--table` names no table of the file.
    #[error("no table `{name}` in it; its tables: {}", tables.join(", "))]
    NoSuchTable {
        /// The name asked for.
        name: String,
        /// The tables it has.
        tables: Vec<String>,
    },
    /// Nothing usable remains: the table itself, or every entity, could not be imported.
    #[error("nothing usable could be imported: {reason}")]
    NothingUsable {
        /// Why.
        reason: String,
        /// Everything not mapped.
        unmapped: Vec<Unmapped>,
    },
}

impl AwsMcpError {
    /// What was not mapped before the import gave up (empty for a file that is not one).
    pub fn unmapped(&self) -> &[Unmapped] {
        match self {
            AwsMcpError::NothingUsable { unmapped, .. } => unmapped,
            _ => &[],
        }
    }
}

/// Imports the AWS DynamoDB MCP server's `dynamodb_data_model.json` or `schema.json`.
pub fn import_aws_mcp(json: &str, options: &AwsMcpOptions) -> Result<AwsMcpImport, AwsMcpError> {
    let value: Value = serde_json::from_str(json).map_err(json_error)?;
    let Value::Object(top) = &value else {
        return Err(not_aws("the file is not a JSON object"));
    };
    let tables = match top.get("tables") {
        Some(Value::Array(tables)) if !tables.is_empty() => tables,
        Some(Value::Array(_)) => return Err(not_aws("`tables` is empty")),
        _ => return Err(not_aws("it has no `tables` list")),
    };
    let format = detect(tables)?;
    let names = table_names(tables, format);
    let chosen = choose(&names, options)?;
    let mut notes = Notes::default();
    for (i, name) in names.iter().enumerate() {
        if i != chosen {
            notes.push(
                &item("tables", i),
                format!(
                    "table `{}` is not imported: a monotable model is one table; import it with --table {}",
                    shown(name),
                    shown(name)
                ),
            );
        }
    }
    let draft = match format {
        AwsMcpFormat::Schema => schema::read(top, chosen, &mut notes),
        AwsMcpFormat::DataModel => data_model::read(top, chosen, &mut notes),
    };
    let Some((draft, offered)) = draft else {
        return Err(nothing(
            &notes,
            "the table has no readable name or partition key",
        ));
    };
    let table = draft.table.name.clone();
    let source = settle::settle(draft, offered, &mut notes)?;
    Ok(AwsMcpImport {
        format,
        table,
        source,
        unmapped: notes.list,
    })
}

/// serde_json's error, its position apart.
fn json_error(e: serde_json::Error) -> AwsMcpError {
    let text = e.to_string();
    let message = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(message, _)| message)
        .to_string();
    AwsMcpError::Json {
        message,
        line: e.line(),
        column: e.column(),
    }
}

fn not_aws(message: &str) -> AwsMcpError {
    AwsMcpError::NotAwsMcp {
        message: message.to_string(),
    }
}

pub(crate) fn nothing(notes: &Notes, reason: &str) -> AwsMcpError {
    AwsMcpError::NothingUsable {
        reason: shown(reason).into_owned(),
        unmapped: notes.list.clone(),
    }
}

/// `schema.json` when a table has `table_config`, `dynamodb_data_model.json` when one has
/// `TableName` or `KeySchema`.
fn detect(tables: &[Value]) -> Result<AwsMcpFormat, AwsMcpError> {
    let has = |field: &str| tables.iter().any(|t| t.get(field).is_some());
    if has("table_config") {
        Ok(AwsMcpFormat::Schema)
    } else if has("TableName") || has("KeySchema") {
        Ok(AwsMcpFormat::DataModel)
    } else {
        Err(not_aws(
            "no table has `table_config`, `TableName` or `KeySchema`",
        ))
    }
}

fn table_names(tables: &[Value], format: AwsMcpFormat) -> Vec<String> {
    tables
        .iter()
        .map(|t| {
            let name = match format {
                AwsMcpFormat::Schema => t.get("table_config").and_then(|c| c.get("table_name")),
                AwsMcpFormat::DataModel => t.get("TableName"),
            };
            name.and_then(Value::as_str).unwrap_or_default().to_string()
        })
        .collect()
}

fn choose(names: &[String], options: &AwsMcpOptions) -> Result<usize, AwsMcpError> {
    let Some(wanted) = &options.table else {
        return Ok(0);
    };
    names
        .iter()
        .position(|n| n == wanted)
        .ok_or_else(|| AwsMcpError::NoSuchTable {
            name: shown(wanted).into_owned(),
            tables: names.iter().map(|n| shown(n).into_owned()).collect(),
        })
}

/// The path of the chosen table.
pub(crate) fn table_path(chosen: usize) -> String {
    item("tables", chosen)
}
