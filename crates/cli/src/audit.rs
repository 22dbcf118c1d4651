//! `monotable audit MODEL`: scan a live table and report every item, and the table's own
//! description, that does not fit the model. Exit status 0 when everything fits, 1 on drift,
//! 2 when no audit could be made (usage, an invalid model, an unreachable table).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, ValueEnum};
use monotable_check::{Format, Report, model_error_diagnostics};
use monotable_migrate::audit::{self, AuditOptions, AuditReport, DEFAULT_SEGMENTS};
use monotable_model::text::{escape, escape_json};

use crate::connection::ConnectionArgs;

/// No audit was made: bad usage, an invalid model, DynamoDB unreachable.
const TROUBLE: u8 = 2;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum OutputFormat {
    /// rustc-style findings quoting the model, then a summary.
    Human,
    /// One JSON document for tools (see docs/audit.md).
    Json,
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// The model file the table should fit.
    model: PathBuf,
    /// Audit about N items, from random segments of the table, instead of every item.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    sample: Option<u64>,
    /// Segments scanned at once [default: 4; 1 on the embedded engine, whose segmented scan
    /// passes over its index for every page].
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(i32).range(1..=i64::from(audit::MAX_SEGMENTS)))]
    segments: Option<i32>,
    /// Audit this table instead of the model's `[table] name`.
    #[arg(long, value_name = "NAME")]
    table: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub async fn run(args: AuditArgs) -> anyhow::Result<ExitCode> {
    let path = args.model.display().to_string();
    let json = matches!(args.format, OutputFormat::Json);
    let report = match audit(&args, &path).await {
        Ok(report) => report,
        Err(e) => return Ok(crate::failed(json, &path, &e, ExitCode::from(TROUBLE))),
    };
    let format = if json { Format::Json } else { Format::Human };
    let rendered = report.render(format);
    if json {
        print!("{}", escape_json(&rendered));
    } else {
        print!("{}", escape(&rendered));
    }
    Ok(if report.has_drift() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

async fn audit(args: &AuditArgs, path: &str) -> anyhow::Result<AuditReport> {
    let source = crate::input::read(&args.model, crate::input::MODEL)
        .with_context(|| format!("cannot read model {path}"))?;
    let model = match monotable_model::parse(&source) {
        Ok(model) => model,
        Err(e) => {
            let report = Report::new(path, &source, model_error_diagnostics(&e));
            eprint!("{}", report.render(Format::Human));
            anyhow::bail!("{path} is not a valid model");
        }
    };
    let backend = args.connection.backend();
    let dynamo = monotable_connect::connect(&backend).await?;
    dynamo.ping().await?;
    let options = AuditOptions {
        sample: args
            .sample
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        segments: args.segments.unwrap_or(
            if matches!(backend, monotable_connect::Backend::Embedded(_)) {
                1
            } else {
                DEFAULT_SEGMENTS
            },
        ),
        table: args.table.clone(),
    };
    let report = audit::audit(&model, dynamo.client(), &options)
        .await
        .with_context(|| format!("auditing on {backend}"))?;
    Ok(report.with_source(path, &source))
}
