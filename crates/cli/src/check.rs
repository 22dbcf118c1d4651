//! `monotable check MODEL`: lint a single-table design and print rustc-style (or JSON) diagnostics.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use monotable_model::text::escape;

use crate::input::{OutputFormat, read_source};

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
    let source = match read_source(&args.model) {
        Ok(source) => source,
        // Tools reading JSON get a document saying why, like any other failed check.
        Err(e) if args.format.is_json() => {
            let reason = e.root_cause().to_string();
            let report = monotable_check::Report::unreadable(&path, &reason);
            println!("{}", report.render(args.format.into()).trim_end());
            eprintln!("error: {}", escape(&crate::one_line(&e)));
            return Ok(ExitCode::FAILURE);
        }
        Err(e) => return Err(e),
    };
    let report = monotable_check::check_source(&path, &source);
    let rendered = report.render(args.format.into());
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
