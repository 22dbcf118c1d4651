//! `monotable verify MODEL`: run every access pattern on generated sample data in an in-memory
//! table built from the model, and check each returns exactly what it promises, and every write
//! pattern with its effects, conditions and guards; with `--table`, on the items already in the
//! model's table on the chosen DynamoDB (writes there only with `--allow-writes`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args;
use monotable_connect::Backend;
use monotable_model::text::{escape, escape_json};

use crate::connection::ConnectionArgs;
use crate::input::{OutputFormat, read_model};

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The model file.
    model: PathBuf,
    /// Run the patterns over the items already in the model's table instead of generated data:
    /// on the embedded engine's --data-dir (a `monotable serve` holding it is refused: pass its
    /// --endpoint), an --endpoint, or --aws. The table is scanned and queried, never written
    /// (unless --allow-writes).
    #[arg(long)]
    table: bool,
    /// With --table: run the write patterns too, on items verify creates (with keys and unique
    /// values no item of the table has) and removes afterwards. Refused with --aws.
    #[arg(long)]
    allow_writes: bool,
    /// The same seed generates the same sample data (with --table: picks the same items to
    /// take request parameters from).
    #[arg(long, default_value_t = monotable_verify::DEFAULT_SEED)]
    seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// Where the table is, with --table.
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub async fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let path = args.model.display().to_string();
    let report = match verify(&args).await {
        Ok(report) => report,
        Err(e) => return crate::json_error(args.format.is_json(), &path, e),
    };
    match args.format {
        OutputFormat::Human => print!("{}", escape(&report.render_human())),
        OutputFormat::Json => print!("{}", escape_json(&report.render_json())),
    }
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

async fn verify(args: &VerifyArgs) -> anyhow::Result<monotable_verify::VerifyReport> {
    let model = read_model(&args.model, "nothing verified")?.model;
    if args.allow_writes && !args.table {
        bail!(
            "--allow-writes goes with --table: on generated data (no --table) the write patterns always run"
        );
    }
    if args.allow_writes && args.connection.remote.aws {
        bail!(
            "--allow-writes is refused with --aws: verify writes only to the embedded engine or an --endpoint"
        );
    }
    if !args.table {
        let c = &args.connection;
        if c.remote.endpoint.is_some() || c.remote.aws || c.data.in_memory {
            bail!("--endpoint, --aws and --in-memory choose the table --table reads: add --table");
        }
        return Ok(monotable_verify::verify(&model, args.seed).await?);
    }
    let backend = args.connection.backend();
    // Reading a table that was never written would create an empty database: say so instead.
    if let Backend::Embedded(location) = &backend
        && let Some(file) = location.database_file().filter(|f| !f.exists())
    {
        bail!(
            "no embedded data at {}: nothing to verify (--data-dir DIR, or --endpoint or --aws)",
            file.display()
        );
    }
    let dynamo = monotable_connect::connect(&backend).await?;
    dynamo.ping().await?;
    let writes = if args.allow_writes {
        monotable_verify::run::Writes::Run
    } else {
        monotable_verify::run::Writes::Skip(monotable_verify::run::LIVE_TABLE)
    };
    monotable_verify::verify_table_with(&model, dynamo.client(), args.seed, writes)
        .await
        .with_context(|| format!("verifying table `{}` on {backend}", model.table.name))
}
