//! `monotable tables`: list the tables of the selected DynamoDB, proving it answers.

use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use crate::connection::ConnectionArgs;

#[derive(Debug, Args)]
pub struct TablesArgs {
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub async fn run(args: TablesArgs) -> anyhow::Result<ExitCode> {
    let backend = args.connection.backend();
    let dynamo = monotable_connect::connect(&backend).await?;
    dynamo.ping().await?;
    let names = monotable_access::table::list_tables(dynamo.client())
        .await
        .with_context(|| format!("listing tables on {backend}"))?;
    eprintln!("{} table(s) on {backend}", names.len());
    for name in names {
        println!("{name}");
    }
    Ok(ExitCode::SUCCESS)
}
