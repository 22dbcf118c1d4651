//! What can go wrong in a tool call or in starting the server; each message is what the client
//! reads in the tool error.

use std::path::PathBuf;

/// A tool call's failure (a tool error with this message) or the server's.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum McpError {
    /// `--root` is not a readable directory.
    #[error("root {}: {reason}", path.display())]
    Root { path: PathBuf, reason: String },
    /// Neither or both of a text and a path were given.
    #[error("give the model as `{text}` (text) or `{path}` (a file under the root), not {given}")]
    Source {
        text: &'static str,
        path: &'static str,
        given: &'static str,
    },
    /// A path that is absolute or leaves the root.
    #[error(
        "path `{0}` is outside the root: give a path relative to the root, without `..` or links leaving it"
    )]
    OutsideRoot(String),
    /// A path that cannot be read.
    #[error("cannot read `{path}`: {reason}")]
    Unreadable { path: String, reason: String },
    /// An input over its limit.
    #[error(
        "{what} is {size} bytes, over the limit of {limit} bytes (MAX_MODEL_BYTES, 1 MiB); nothing read"
    )]
    TooLarge {
        what: String,
        size: usize,
        limit: usize,
    },
    /// A model that does not parse or validate: its MT000 diagnostics.
    #[error("{file} is not a valid model; {refused}\n{diagnostics}")]
    InvalidModel {
        file: String,
        refused: &'static str,
        diagnostics: String,
    },
    /// A tool's own refusal (an unknown rule code, an export that cannot be made).
    #[error("{0}")]
    Refused(String),
    /// A call over its time limit.
    #[error("{tool} took longer than its limit of {seconds} s (--timeout); stopped waiting")]
    Timeout { tool: &'static str, seconds: u64 },
    /// The work itself failed (a panic caught, verify's engine).
    #[error("{tool} failed: {reason}")]
    Failed { tool: &'static str, reason: String },
    /// The transport failed or the client went away.
    #[error("MCP transport: {0}")]
    Transport(String),
}
