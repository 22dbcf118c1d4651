//! The `monotable-shop` binary, the shop's own program: `serve` runs the shop's REST API beside
//! the embedded engine's DynamoDB endpoint, `token`, `load-sample` and `openapi` serve it; on
//! AWS Lambda (`AWS_LAMBDA_RUNTIME_API` set) it is the shop's function, whatever its arguments.

mod consumers;
mod lambda;
mod load_sample;
mod openapi;
mod secret;
mod serve;
mod token;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The binary's allocator, as the `monotable` tool's: a request through the SDK allocates many
/// small, short-lived objects, and serve spent about a quarter of its time in the system
/// allocator (docs/benchmarks.md measures the difference).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// monotable-shop: the tutorial's e-commerce backend on one DynamoDB table, built on the
/// monotable library.
///
/// Serves the shop locally on the embedded DynamoDB engine (no Docker, JVM, credentials or
/// network needed), and is the shop's AWS Lambda function when Lambda starts it.
#[derive(Debug, Parser)]
#[command(name = "monotable-shop", version, propagate_version = true)]
#[command(after_help = "Examples:\n  \
    monotable-shop serve                        the shop on :3000, the DynamoDB endpoint on :8000\n  \
    monotable-shop token --user alice --admin   a bearer token for the shop API\n  \
    monotable-shop serve --data-dir /srv/shop   keep the data somewhere else\n  \
    monotable-shop load-sample --endpoint http://127.0.0.1:8000   sample data into a running serve\n  \
    monotable-shop openapi > openapi.json       the REST contract, for `monotable export --routes-from`")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the shop API on 127.0.0.1:3000 and the embedded engine as a DynamoDB endpoint on
    /// 127.0.0.1:8000.
    ///
    /// boto3, the AWS CLI and NoSQL Workbench connect to the endpoint with any access key and
    /// region. The shop's table is created from its model when missing, and its stream consumer
    /// (`productSales`, the per-product daily sales) runs from the table's stream, its place
    /// kept in --data-dir/consumers. Data lives in --data-dir (default ./.monotable). Ctrl-C or
    /// SIGTERM stops it cleanly; every acknowledged write is on disk.
    Serve(serve::ServeArgs),
    /// Print a bearer token for the local shop API (HS256, the data directory's secret).
    Token(token::TokenArgs),
    /// Load realistic sample data into the shop's table (users, products, orders over months in
    /// every status), with a progress bar.
    LoadSample(load_sample::LoadSampleArgs),
    /// Print the shop's REST API as an OpenAPI document (what `serve` answers at /openapi.json).
    Openapi(openapi::OpenapiArgs),
}

fn main() -> ExitCode {
    // On AWS Lambda the binary is the shop's function, whatever its arguments.
    if monotable_shop::lambda::in_lambda() {
        lambda::init_logging();
        return lambda::main();
    }
    let (cli, name) = monotable_cli_common::program::parse::<Cli>();
    monotable_cli_common::program::run("monotable-shop", &name, async {
        match cli.command {
            Command::Serve(args) => serve::run(args).await,
            Command::Token(args) => token::run(args),
            Command::LoadSample(args) => load_sample::run(args).await,
            Command::Openapi(args) => openapi::run(args),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }
}
