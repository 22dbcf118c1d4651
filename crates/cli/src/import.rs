//! `monotable import --from nosql-workbench|aws-mcp FILE`: a NoSQL Workbench data model, or the
//! AWS DynamoDB MCP server's `dynamodb_data_model.json` / `schema.json`, as a monotable model
//! file. What could not be carried over is printed as warnings, one line each.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use monotable_export::ImportError;
use monotable_export::aws_mcp::{AwsMcpOptions, Unmapped, import_aws_mcp};
use monotable_model::text::escape;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Source {
    /// NoSQL Workbench's data-model JSON (File > Export).
    NosqlWorkbench,
    /// The AWS DynamoDB MCP server's `dynamodb_data_model.json` or `schema.json`.
    AwsMcp,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// What the file is.
    #[arg(long = "from", visible_alias = "format", value_enum)]
    from: Source,
    /// The file to import.
    file: PathBuf,
    /// The table to import, by name (aws-mcp: a monotable model is one table; the first by
    /// default).
    #[arg(long, value_name = "NAME")]
    table: Option<String>,
    /// Write the model here instead of standard output (an existing file is not overwritten).
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(args: ImportArgs) -> anyhow::Result<ExitCode> {
    let source = match args.from {
        Source::NosqlWorkbench => {
            if args.table.is_some() {
                bail!(
                    "--table is for --from aws-mcp: a NoSQL Workbench import takes its one table"
                );
            }
            workbench(&args)?
        }
        Source::AwsMcp => aws_mcp(&args)?,
    };
    match &args.output {
        Some(out) => {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(out)
                .with_context(|| format!("cannot create {}", out.display()))?;
            std::io::Write::write_all(&mut file, source.as_bytes())
                .with_context(|| format!("cannot write {}", out.display()))?;
        }
        None => print!("{source}"),
    }
    Ok(ExitCode::SUCCESS)
}

fn workbench(args: &ImportArgs) -> anyhow::Result<String> {
    let shown = args.file.display();
    let file = crate::input::open(&args.file, crate::input::WORKBENCH)
        .with_context(|| format!("cannot read {shown}"))?;
    // Streamed: the file's sample items are skipped as they are read, never held.
    let imported = monotable_export::workbench::import_nosql_workbench_from_reader(
        crate::input::Capped::new(file, crate::input::WORKBENCH),
    )
    .map_err(|e| match e {
        ImportError::Read { .. } | ImportError::TooMany { .. } => {
            anyhow::anyhow!("cannot import {shown}: {e}")
        }
        e => anyhow::Error::new(e).context(format!("{shown} is not a NoSQL Workbench model")),
    })?;
    for warning in &imported.warnings {
        eprintln!("warning: {}", escape(warning));
    }
    Ok(imported.source)
}

/// Each part not mapped, as a warning line.
fn warn(file: &str, unmapped: &[Unmapped]) {
    for u in unmapped {
        eprintln!("warning: {file}: {}", escape(&u.to_string()));
    }
}

fn aws_mcp(args: &ImportArgs) -> anyhow::Result<String> {
    let shown = escape(&args.file.display().to_string()).into_owned();
    let text = crate::input::read(&args.file, crate::input::AWS_MCP)
        .with_context(|| format!("cannot read {shown}"))?;
    let options = AwsMcpOptions::table(args.table.clone());
    let imported = import_aws_mcp(&text, &options).map_err(|e| {
        warn(&shown, e.unmapped());
        anyhow::Error::new(e).context(format!("cannot import {shown}"))
    })?;
    warn(&shown, &imported.unmapped);
    if !imported.unmapped.is_empty() {
        eprintln!(
            "warning: {shown}: {} part(s) of {} were not mapped (listed above); table `{}` imported",
            imported.unmapped.len(),
            imported.format.file_name(),
            escape(&imported.table)
        );
    }
    Ok(imported.source)
}
