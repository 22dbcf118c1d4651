//! The `monotable` binary, the tool: argument parsing and exit codes for each command on a model
//! or a table, and `serve` for the embedded engine alone (the shop is its own program,
//! `monotable-shop`, in crates/shop-server).

mod audit;
mod check;
mod cost;
mod diff;
mod export;
mod import;
mod input;
mod load;
mod mcp;
mod migrate;
mod new;
mod serve;
mod tables;
mod ui;
mod verify;

/// The connection flags and `--auth`, shared with the shop's program.
use monotable_cli_common::{auth, connection};

use std::process::ExitCode;

/// The binary's allocator. A request through the SDK allocates many small, short-lived objects
/// (config-bag entries, headers, strings), and serve spent about a quarter of its time in the
/// system allocator: docs/benchmarks.md measures the difference.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};

/// monotable: DynamoDB single-table design, safe and fast, for Rust serverless apps.
///
/// Runs on an embedded DynamoDB-compatible engine by default (no Docker, JVM, credentials or
/// network needed), or on any real DynamoDB endpoint with --endpoint URL or --aws. The shop
/// built on it is its own program, `monotable-shop`.
#[derive(Debug, Parser)]
#[command(name = "monotable", version, propagate_version = true)]
#[command(after_help = "Examples:\n  \
    monotable serve                        the embedded engine as a DynamoDB endpoint on :8000\n  \
    monotable serve --data-dir /srv/data   keep the data somewhere else\n  \
    monotable tables --endpoint http://127.0.0.1:8000\n  \
    monotable tables --aws                 real DynamoDB, default AWS credentials and region\n  \
    monotable check examples/shop/shop.toml   lint a single-table design\n  \
    monotable audit examples/shop/shop.toml   does the live table still fit its model?\n  \
    monotable load examples/shop/shop.toml    can the design carry its [traffic]?\n  \
    monotable new todo                     a project of your own: model, API, tests, SAM template")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the embedded engine as a DynamoDB endpoint on 127.0.0.1:8000, with GET /metrics
    /// beside it.
    ///
    /// boto3, the AWS CLI and NoSQL Workbench connect to the endpoint with any access key and
    /// region (or the one --auth names). Data lives in --data-dir (default ./.monotable).
    /// Ctrl-C or SIGTERM stops it cleanly; every acknowledged write is on disk. For the shop's
    /// API beside the endpoint, run `monotable-shop serve` instead.
    Serve(monotable_cli_common::serve::EngineArgs),
    /// Drive the model's [traffic] (each read pattern at its reads_per_second, each entity
    /// written at its writes_per_second) against a table loaded with generated data, and
    /// report achieved rates, latency, throttles and hot partitions.
    ///
    /// By default an in-memory embedded engine emulating DynamoDB's capacity limits (divided by
    /// --capacity-scale); --endpoint or --aws drive that DynamoDB instead. Exits 1 when a
    /// pattern or entity falls short of its target by more than --margin, 2 when no run could
    /// be made, 0 otherwise. See docs/load.md.
    Load(load::LoadArgs),
    /// List the tables on the selected DynamoDB (and so check that it answers).
    Tables(tables::TablesArgs),
    /// Lint a single-table design: key collisions, GSI conflicts, hot partitions, scans, limits.
    ///
    /// Prints rustc-style diagnostics with stable codes (MT001..MT017, see docs/checks.md).
    /// Exits 1 when there are errors (or warnings, with --deny-warnings), 0 otherwise.
    Check(check::CheckArgs),
    /// Run every access pattern of a model on generated sample data in an in-memory table and
    /// check each returns exactly what it promises. Exits 1 on any failure.
    ///
    /// With --table, the patterns run over the items already in the model's table on the chosen
    /// DynamoDB (--data-dir, --endpoint or --aws), a migrated table say, instead.
    ///
    /// --in-memory, --endpoint and --aws apply only with --table. Without it verify always
    /// writes its sample data to a fresh in-memory engine of its own, so they are refused and
    /// --data-dir is ignored. With --table, --in-memory starts an empty engine that holds no
    /// table to read: name the table's --data-dir, --endpoint or --aws instead.
    Verify(verify::VerifyArgs),
    /// Scan a live table and report every item, and the table's own description, that does not
    /// fit the model: keys that are not their templates' render, stale or missing index keys,
    /// attributes of the wrong type or over a bound, missing indexes, time to live, billing.
    ///
    /// Prints rustc-style findings with stable codes (MA001..MA021, see docs/audit.md). Exits 0
    /// when everything fits, 1 on drift, 2 when no audit could be made.
    Audit(audit::AuditArgs),
    /// Capacity units per access pattern and, with the model's traffic, the monthly price on
    /// demand and provisioned, against one table per entity.
    Cost(cost::CostArgs),
    /// Serve a web page of a model on 127.0.0.1:8080: item collections of the sample data per
    /// index, each pattern's key condition, cost, verdict and returned items, the diagnostics
    /// and the cost table, updated when the file is saved; and a table view that runs the
    /// model's patterns on a live table. With the JSON API it reads (see docs/ui.md).
    Ui(ui::UiArgs),
    /// Compare two model files: each change classified by what it takes on a live table
    /// (online, backfill, move, removal, or not in place), the cost of each step, and what
    /// `check` finds new. Exits 1 when a change cannot be done in place.
    Diff(diff::DiffArgs),
    /// Move a live table from one model to another: indexes created online, items backfilled,
    /// moved or renamed with conditional writes that never clobber the live app's, progress
    /// checkpointed in the table so a killed run resumes. A dry run unless --apply.
    Migrate(migrate::MigrateArgs),
    /// Export a model as CreateTable JSON, CloudFormation, SAM (the table, its policy and, with
    /// --function, a Lambda function behind an HTTP API), a markdown design document or a NoSQL
    /// Workbench data model.
    Export(export::ExportArgs),
    /// Import a NoSQL Workbench data model, or the AWS DynamoDB MCP server's data model JSON
    /// (dynamodb_data_model.json or schema.json), as a monotable model file; what it cannot map
    /// is listed as warnings.
    Import(import::ImportArgs),
    /// Serve check, explain, verify, cost, diff, export, render_keys, sample_items, schema and
    /// import_aws_mcp as MCP tools on standard input and output, for coding agents (docs/mcp.md).
    ///
    /// Models are given as text or as paths under --root; nothing outside it is read and
    /// nothing is written. Each model is at most 1 MiB, each call at most --timeout seconds.
    Mcp(mcp::McpArgs),
    /// Create a project of your own on the monotable library: a starter model, entities and
    /// access patterns checked against it at compile time, an axum API that also runs on AWS
    /// Lambda, tests on the embedded engine, and the model's SAM template.
    ///
    /// Refuses a directory that exists and is not empty. Until the library is published the
    /// project depends on it by path (this binary's own workspace, or --monotable-path) and gets
    /// a copy of that workspace's Cargo.lock, so its dependencies are the versions tested here.
    New(new::NewArgs),
}

fn main() -> ExitCode {
    let (cli, name) = monotable_cli_common::program::parse::<Cli>();
    monotable_cli_common::program::run("monotable", &name, async {
        match cli.command {
            Command::Serve(args) => serve::run(args).await,
            Command::Load(args) => load::run(args).await,
            Command::Tables(args) => tables::run(args).await,
            Command::Check(args) => check::run(args),
            Command::Verify(args) => verify::run(args).await,
            Command::Audit(args) => audit::run(args).await,
            Command::Cost(args) => cost::run(args).await,
            Command::Ui(args) => ui::run(args).await,
            Command::Diff(args) => diff::run(args),
            Command::Migrate(args) => migrate::run(args).await,
            Command::Export(args) => export::run(args),
            Command::Import(args) => import::run(args),
            Command::Mcp(args) => mcp::run(args).await,
            Command::New(args) => new::run(args),
        }
    })
}

/// A command's failure: with `--format json`, a JSON document `{"file", "error"}` on stdout
/// (tools get an answer) and the message on stderr, exit status 1; otherwise the error itself.
fn json_error(json: bool, path: &str, error: anyhow::Error) -> anyhow::Result<ExitCode> {
    if !json {
        return Err(error);
    }
    Ok(failed(true, path, &error, ExitCode::FAILURE))
}

/// A command that could not do its work: the message on stderr and, with `--format json`, the
/// document `{"file", "error"}` on stdout; exit status `code`.
fn failed(json: bool, path: &str, error: &anyhow::Error, code: ExitCode) -> ExitCode {
    let message = one_line(error);
    if json {
        let doc = serde_json::json!({ "file": path, "error": message });
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        println!("{}", monotable_model::text::escape_json(&text));
    }
    eprintln!("error: {message}");
    code
}

/// The error and its causes on one line (`monotable_cli_common::program::error_line`).
fn one_line(error: &anyhow::Error) -> String {
    monotable_cli_common::program::error_line(error.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn error_lines_do_not_repeat_a_quoted_cause() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let outer = anyhow::Error::new(io).context("reading model.toml: no such file");
        assert_eq!(one_line(&outer), "reading model.toml: no such file");
        let plain = anyhow::anyhow!("inner").context("outer");
        assert_eq!(one_line(&plain), "outer: inner");
    }

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }
}
