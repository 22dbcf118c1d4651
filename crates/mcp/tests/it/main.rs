//! The MCP server's integration tests, one binary: the server in-process, driven through the
//! official `rmcp` client (`client`); each module is one feature's suite.

mod client;
mod import_aws_mcp;
mod options;
mod tools;
