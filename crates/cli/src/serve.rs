//! `monotable serve`: the embedded engine as a DynamoDB endpoint for boto3, the AWS CLI and
//! NoSQL Workbench, with `GET /metrics` beside it, on loopback and private to this machine's
//! programs until Ctrl-C/SIGTERM. The serving itself is `monotable_cli_common::serve`, which
//! `monotable-shop serve` runs too.

use std::process::ExitCode;

use monotable_cli_common::serve::{EngineArgs, Local};
use monotable_connect::serve::endpoint;

pub async fn run(args: EngineArgs) -> anyhow::Result<ExitCode> {
    let local = Local::open(args).await?;
    let metrics = local.metrics(endpoint::refuse);
    local
        .banner(
            "monotable",
            "embedded DynamoDB engine",
            local.dynamodb_url(),
        )
        .line(
            "metrics",
            format!(
                "{}/metrics   (capacity and throttles)",
                local.dynamodb_url()
            ),
        )
        .print();
    Ok(local.serve(metrics, Vec::new()).await?)
}
