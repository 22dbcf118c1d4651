//! `monotable diff OLD NEW`: what changes between two model files and what each change takes
//! on a live table, with the cost of each step. Exits 1 when a change cannot be done in place.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use monotable_migrate::diff::{self, Files, ItemCounts};
use monotable_model::text::{escape, escape_json};

use crate::input::{OutputFormat, read_model};

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The model the table holds today.
    old: PathBuf,
    /// The model to move it to.
    new: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// Items in the table, for the cost of each step: `N` for every entity, or `Entity=N`
    /// (repeat, or separate with commas). `items` under [traffic.entities.X] is used otherwise.
    #[arg(long, value_name = "N|ENTITY=N", value_delimiter = ',')]
    items: Vec<String>,
}

pub fn run(args: DiffArgs) -> anyhow::Result<ExitCode> {
    let json = args.format.is_json();
    let path = args.new.display().to_string();
    match diff(&args) {
        Ok(code) => Ok(code),
        Err(e) => crate::json_error(json, &path, e),
    }
}

fn diff(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let old = read_model(&args.old, "nothing compared")?.model;
    let new = read_model(&args.new, "nothing compared")?;
    let (new, new_source) = (new.model, new.source);
    let counts = ItemCounts::parse(&args.items).map_err(|e| anyhow::anyhow!("--items {e}"))?;
    let d = diff::diff(&old, &new);
    let costs = diff::cost::costs(&old, &new, &d, &counts);
    let (old_path, new_path) = (
        args.old.display().to_string(),
        args.new.display().to_string(),
    );
    let files = Files {
        old: &old_path,
        new: &new_path,
        new_source: &new_source,
    };
    match args.format {
        OutputFormat::Human => print!("{}", escape(&diff::render_human(&d, &costs, files))),
        OutputFormat::Json => print!("{}", escape_json(&diff::render_json(&d, &costs, files))),
    }
    Ok(if d.is_blocked() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
