//! `monotable diff OLD NEW`: what changes between two model files and what each change takes
//! on a live table, with the cost of each step. Exits 1 when a change cannot be done in place.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use monotable_migrate::diff::{self, Counts, Files};
use monotable_model::Model;
use monotable_model::text::{escape, escape_json};

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum OutputFormat {
    /// Grouped by what each change takes, for people.
    Human,
    /// One JSON document for tools.
    Json,
}

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

/// A model file and its source, or its problems printed and an error.
pub fn load_model(file: &Path) -> anyhow::Result<(Model, String)> {
    let path = file.display().to_string();
    let source = crate::input::read(file, crate::input::MODEL)
        .with_context(|| format!("cannot read model {path}"))?;
    let Ok(model) = monotable_model::parse(&source) else {
        let report = monotable_check::check_source(&path, &source);
        eprint!("{}", report.render(monotable_check::Format::Human));
        bail!("{path} is not a valid model");
    };
    Ok((model, source))
}

pub fn run(args: DiffArgs) -> anyhow::Result<ExitCode> {
    let json = args.format == OutputFormat::Json;
    let path = args.new.display().to_string();
    match diff(&args) {
        Ok(code) => Ok(code),
        Err(e) => crate::json_error(json, &path, e),
    }
}

fn diff(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let (old, _) = load_model(&args.old)?;
    let (new, new_source) = load_model(&args.new)?;
    let counts = Counts::parse(&args.items).map_err(|e| anyhow::anyhow!("--items {e}"))?;
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
