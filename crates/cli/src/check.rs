//! `monotable check MODEL`: lint a single-table design and print rustc-style (or JSON) diagnostics.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, ValueEnum};
use monotable_model::text::escape;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum OutputFormat {
    /// rustc-style diagnostics for people.
    Human,
    /// One JSON document for tools.
    Json,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The model file (TOML; see docs/model.md).
    model: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// Exit 1 on warnings too.
    #[arg(long)]
    deny_warnings: bool,
}

pub fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let path = args.model.display().to_string();
    let source = match (
        crate::input::read(&args.model, crate::input::MODEL),
        args.format,
    ) {
        (Ok(source), _) => source,
        // Tools reading JSON get a document saying why, like any other failed check.
        (Err(e), OutputFormat::Json) => {
            let report = monotable_check::Report::unreadable(&path, &e.to_string());
            println!(
                "{}",
                report.render(monotable_check::Format::Json).trim_end()
            );
            eprintln!("error: cannot read model {}: {e}", escape(&path));
            return Ok(ExitCode::FAILURE);
        }
        (Err(e), OutputFormat::Human) => {
            return Err(e).with_context(|| format!("cannot read model {path}"));
        }
    };
    let report = monotable_check::check_source(&path, &source);
    let format = match args.format {
        OutputFormat::Human => monotable_check::Format::Human,
        OutputFormat::Json => monotable_check::Format::Json,
    };
    let rendered = report.render(format);
    match args.format {
        OutputFormat::Json => println!("{}", rendered.trim_end()),
        OutputFormat::Human if rendered.is_empty() => {
            println!("{}: no problems found", escape(&path));
        }
        OutputFormat::Human => print!("{rendered}"),
    }
    let failed = report.has_errors() || (args.deny_warnings && report.has_warnings());
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
