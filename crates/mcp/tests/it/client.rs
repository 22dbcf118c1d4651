//! The `rmcp` client connected in-process to a server over a duplex pipe, and the calls the
//! suites make through it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

pub type Client = RunningService<RoleClient, ()>;

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A server on `root` and a client connected to it.
pub async fn connect(root: &Path) -> Client {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let config = monotable_mcp::Config {
        root: monotable_mcp::Root::new(root).unwrap(),
        timeout: Duration::from_secs(120),
    };
    tokio::spawn(async move { monotable_mcp::serve(config, server_io).await });
    ().serve(client_io).await.unwrap()
}

/// `tool` called with `arguments`; a JSON-RPC error as `Err`.
pub async fn call(
    client: &Client,
    tool: &'static str,
    arguments: Value,
) -> Result<CallToolResult, String> {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object")
    };
    client
        .call_tool(CallToolRequestParams::new(tool).with_arguments(arguments))
        .await
        .map_err(|e| e.to_string())
}

/// The structured output of a call that must succeed.
pub async fn ok(client: &Client, tool: &'static str, arguments: Value) -> Value {
    let result = call(client, tool, arguments).await.unwrap();
    assert_ne!(result.is_error, Some(true), "{tool}: {result:?}");
    result.structured_content.expect("structured content")
}

/// The message of a call that must be a tool error.
pub async fn tool_error(client: &Client, tool: &'static str, arguments: Value) -> String {
    let result = call(client, tool, arguments).await.unwrap();
    assert_eq!(result.is_error, Some(true), "{tool}: {result:?}");
    let text = result
        .content
        .first()
        .and_then(|c| c.as_text())
        .expect("a message");
    text.text.clone()
}

/// The server still answers: a check of a small valid model.
pub async fn still_serves(client: &Client) {
    let doc = ok(
        client,
        "check",
        json!({ "path": "crates/check/tests/fixtures/MT001/pass.toml" }),
    )
    .await;
    assert_eq!(doc["summary"]["errors"], 0);
}
