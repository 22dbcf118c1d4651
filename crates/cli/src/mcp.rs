//! `monotable mcp --root DIR`: the MCP server on standard input and output (crates/mcp), for
//! coding agents: check, explain, verify, cost, diff, export, render_keys, sample_items, schema and
//! import_aws_mcp as tools (docs/mcp.md).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

#[derive(Debug, Args)]
pub struct McpArgs {
    /// Every `path` a tool is given is read under this directory (never outside it, never
    /// through a link leaving it). Nothing is written.
    #[arg(long, value_name = "DIR", default_value = ".")]
    root: PathBuf,
    /// The most one tool call may take, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = monotable_mcp::DEFAULT_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    timeout: u64,
}

pub async fn run(args: McpArgs) -> anyhow::Result<ExitCode> {
    let config = monotable_mcp::Config {
        root: monotable_mcp::Root::new(&args.root)?,
        timeout: Duration::from_secs(args.timeout),
    };
    monotable_mcp::serve_stdio(config).await?;
    Ok(ExitCode::SUCCESS)
}
