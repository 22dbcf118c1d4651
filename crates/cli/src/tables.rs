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
    let mut names = Vec::new();
    let mut start = None;
    loop {
        let page = dynamo
            .client()
            .list_tables()
            .set_exclusive_start_table_name(start)
            .send()
            .await
            .with_context(|| format!("listing tables on {backend}"))?;
        names.extend(page.table_names().iter().cloned());
        start = page.last_evaluated_table_name().map(str::to_string);
        if start.is_none() {
            break;
        }
    }
    eprintln!("{} table(s) on {backend}", names.len());
    for name in names {
        println!("{name}");
    }
    Ok(ExitCode::SUCCESS)
}
