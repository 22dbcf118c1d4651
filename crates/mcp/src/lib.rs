//! `monotable mcp`: the model's checks, costs, exports, diffs, verify and item shapes as MCP
//! tools for coding agents, on the official Rust SDK (`rmcp`), over stdio or any other transport.
//!
//! Every tool takes a model as text (`model`) or as a file (`path`, under the server's root) and
//! answers the same JSON document as the matching `monotable ... --format json` command: the
//! work is done by the same library functions (`run`). The server reads only under its root,
//! writes nothing, caps every input at [`MAX_MODEL_BYTES`] and every call at its timeout, and
//! answers bad input with a tool error (`isError`), never a crash (docs/mcp.md).
//! `import_aws_mcp` (`import`) takes the AWS DynamoDB MCP server's data model JSON instead, and
//! answers the model it reads into, as `monotable import --from aws-mcp` does.

mod error;
mod explain;
mod framing;
mod import;
mod input;
mod options;
mod outputs;
mod resources;
mod run;
mod server;
mod shapes;

pub use error::McpError;
pub use framing::{LineCapped, MAX_MESSAGE_BYTES};
pub use import::{ImportAwsMcpInput, ImportAwsMcpOutput, UnmappedPart};
pub use input::{MAX_MODEL_BYTES, Root};
pub use server::{Config, DEFAULT_TIMEOUT, MAX_RUNNING_CALLS, MonotableServer};

use rmcp::ServiceExt;

/// Serves `config`'s tools on `transport` until the client closes it.
pub async fn serve<T, E, A>(config: Config, transport: T) -> Result<(), McpError>
where
    T: rmcp::transport::IntoTransport<rmcp::RoleServer, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let server = MonotableServer::new(config)?;
    let running = server
        .serve(transport)
        .await
        .map_err(|e| McpError::Transport(e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| McpError::Transport(e.to_string()))?;
    Ok(())
}

/// Serves `config`'s tools on standard input and output (logs go to stderr), each message read
/// capped at [`MAX_MESSAGE_BYTES`].
pub async fn serve_stdio(config: Config) -> Result<(), McpError> {
    let (stdin, stdout) = rmcp::transport::stdio();
    serve(config, (LineCapped::new(stdin, MAX_MESSAGE_BYTES), stdout)).await
}
