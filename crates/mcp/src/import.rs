//! `import_aws_mcp`: the AWS DynamoDB MCP server's `dynamodb_data_model.json` or `schema.json`,
//! given as text or as a file under the root, read into a monotable model, through the same
//! library call as `monotable import --from aws-mcp`; the model's text and every part not
//! mapped, by JSON path, are the answer.

use monotable_export::aws_mcp::{AwsMcpError, AwsMcpOptions, import_aws_mcp};
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::McpError;
use crate::input::load;
use crate::server::MonotableServer;

/// `import_aws_mcp`'s input.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ImportAwsMcpInput {
    /// The file's JSON text (`dynamodb_data_model.json` or `schema.json`), at most 1 MiB.
    #[serde(default)]
    pub json: Option<String>,
    /// The file, relative to the server's root (no `..`, no links leaving it), at most 1 MiB.
    #[serde(default)]
    pub path: Option<String>,
    /// The table to import, by name: a monotable model is one table (the first when absent).
    #[serde(default)]
    pub table: Option<String>,
}

/// One part of the file the model does not hold.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct UnmappedPart {
    /// Where it is: a JSON path (`tables[0].entities.User.access_patterns[2]`).
    pub path: String,
    /// Why it is not in the model.
    pub reason: String,
}

/// `import_aws_mcp`'s answer.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct ImportAwsMcpOutput {
    /// Which file it read: `dynamodb_data_model.json` or `schema.json`.
    pub format: String,
    /// The table imported.
    pub table: String,
    /// The model file's text (TOML): give it to `check` as `model`.
    pub model: String,
    /// Every part not mapped, one entry each, in the order found.
    pub unmapped: Vec<UnmappedPart>,
}

/// The import's failure as the tool's message: the error, then each part not mapped.
fn refused(e: AwsMcpError) -> McpError {
    let mut message = format!("cannot import it: {e}");
    for u in e.unmapped() {
        message.push_str(&format!("\n- {u}"));
    }
    McpError::Refused(message)
}

/// The import of `input`'s file.
fn run(
    root: &crate::input::Root,
    input: &ImportAwsMcpInput,
) -> Result<ImportAwsMcpOutput, McpError> {
    let loaded = load(
        root,
        input.json.as_deref(),
        input.path.as_deref(),
        ("json", "path"),
    )?;
    let options = AwsMcpOptions::table(input.table.clone());
    let imported = import_aws_mcp(&loaded.source, &options).map_err(refused)?;
    Ok(ImportAwsMcpOutput {
        format: imported.format.file_name().to_string(),
        table: imported.table,
        model: imported.source,
        unmapped: imported
            .unmapped
            .into_iter()
            .map(|u| UnmappedPart {
                path: u.path,
                reason: u.reason,
            })
            .collect(),
    })
}

#[tool_router(router = import_router, vis = "pub(crate)")]
impl MonotableServer {
    #[tool(
        description = "Read the AWS DynamoDB MCP server's data model JSON (dynamodb_data_model.json or schema.json) into a monotable model: tables, indexes, entities, key templates and access patterns, field by field. Answers the model's TOML text and every part it could not map (JSON path and why). Give the JSON as `json` (text) or `path` (a file under the root), at most 1 MiB; `table` picks one table of several. The same reading as `monotable import --from aws-mcp`."
    )]
    async fn import_aws_mcp(
        &self,
        Parameters(input): Parameters<ImportAwsMcpInput>,
    ) -> Result<Json<ImportAwsMcpOutput>, String> {
        self.blocking("import_aws_mcp", move |root| run(&root, &input))
            .await
            .map(Json)
    }
}
