//! `monotable verify MODEL`: run every access pattern on generated sample data in an in-memory
//! table built from the model, and check each returns exactly what it promises.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, ValueEnum};

#[derive(Debug, Clone, Copy, ValueEnum)]
enum OutputFormat {
    /// One line per pattern, the request and the difference on failure.
    Human,
    /// One JSON document for tools.
    Json,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The model file.
    model: PathBuf,
    /// The same seed generates the same sample data.
    #[arg(long, default_value_t = monotable_verify::DEFAULT_SEED)]
    seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
}

pub async fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let path = args.model.display().to_string();
    let report = match verify(&args, &path).await {
        Ok(report) => report,
        Err(e) => return crate::json_error(matches!(args.format, OutputFormat::Json), &path, e),
    };
    match args.format {
        OutputFormat::Human => print!("{}", report.render_human()),
        OutputFormat::Json => print!("{}", report.render_json()),
    }
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

async fn verify(args: &VerifyArgs, path: &str) -> anyhow::Result<monotable_verify::Report> {
    let source = std::fs::read_to_string(&args.model)
        .with_context(|| format!("cannot read model {path}"))?;
    Ok(monotable_verify::verify_source(path, &source, args.seed).await?)
}
