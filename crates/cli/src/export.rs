//! `monotable export MODEL --format ...`: the model as CreateTable JSON, CloudFormation, SAM or a
//! markdown design document.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ExportFormat {
    /// CreateTable input for `aws dynamodb create-table --cli-input-json`.
    CreateTable,
    /// CloudFormation template (JSON) with the table.
    Cloudformation,
    /// SAM template: the table, the shop's Lambda function, an HTTP API with a JWT authorizer.
    Sam,
    /// A design document: table, indexes, entity chart, access patterns, check results.
    Markdown,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The model file.
    model: PathBuf,
    /// What to export.
    #[arg(long, value_enum)]
    format: ExportFormat,
    /// Write here instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let path = args.model.display().to_string();
    let source = std::fs::read_to_string(&args.model)
        .with_context(|| format!("cannot read model {path}"))?;
    let model = match monotable_model::parse(&source) {
        Ok(model) => model,
        Err(_) => {
            // The checker renders the parse errors with their places.
            let report = monotable_check::check_source(&path, &source);
            eprint!("{}", report.render(monotable_check::Format::Human));
            bail!("{path} is not a valid model; nothing exported");
        }
    };
    let mut options = monotable_export::ExportOptions::default();
    let check_text;
    let format = match args.format {
        ExportFormat::CreateTable => monotable_export::Format::CreateTable,
        ExportFormat::Cloudformation => monotable_export::Format::CloudFormation,
        ExportFormat::Sam => monotable_export::Format::Sam,
        ExportFormat::Markdown => {
            let report = monotable_check::check_source(&path, &source);
            let rendered = report.render(monotable_check::Format::Human);
            check_text = if rendered.is_empty() {
                format!("{path}: no problems found\n")
            } else {
                rendered
            };
            options.markdown.check_results = Some(&check_text);
            monotable_export::Format::Markdown
        }
    };
    let text = monotable_export::export(&model, format, &options);
    match &args.output {
        Some(file) => std::fs::write(file, &text)
            .with_context(|| format!("cannot write {}", file.display()))?,
        None => print!("{text}"),
    }
    if let (ExportFormat::CreateTable, Some(ttl)) =
        (args.format, monotable_export::ttl_spec(&model))
    {
        eprintln!(
            "note: CreateTable cannot set TTL; after creating the table run\n  aws dynamodb update-time-to-live --cli-input-json '{}'",
            ttl.trim()
        );
    }
    Ok(ExitCode::SUCCESS)
}
