//! What every command shares on the way in and out: every file read capped at a stated size
//! (`capped`), the model file read (or its `MT000` diagnostics printed and the command stopped),
//! and the one `--format`.

mod capped;

pub use capped::*;

use std::path::Path;

use anyhow::{Context, bail};
use clap::ValueEnum;
use monotable_model::Model;
use monotable_model::diagnostic::{ReportFormat, model_errors};

/// `--format` of every command that prints a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// For people: rustc-style diagnostics, tables, one line per pattern or change.
    Human,
    /// One JSON document for tools (each command's document is in its docs page).
    Json,
}

impl OutputFormat {
    /// True for `--format json`.
    pub fn is_json(self) -> bool {
        self == OutputFormat::Json
    }
}

impl From<OutputFormat> for ReportFormat {
    fn from(format: OutputFormat) -> ReportFormat {
        match format {
            OutputFormat::Human => ReportFormat::Human,
            OutputFormat::Json => ReportFormat::Json,
        }
    }
}

/// A model file read and validated.
#[derive(Debug)]
pub struct ModelFile {
    /// The path as given, for messages.
    pub path: String,
    /// Its text.
    pub source: String,
    /// The model.
    pub model: Model,
}

/// The text of the model file `file` (at most [`MODEL`]'s bytes), or why it cannot be read.
pub fn read_source(file: &Path) -> anyhow::Result<String> {
    read(file, MODEL).with_context(|| format!("cannot read model {}", file.display()))
}

/// The model in `file`; when it does not parse or validate, its `MT000` diagnostics printed on
/// stderr and an error `PATH is not a valid model; REFUSED` (`nothing exported`).
pub fn read_model(file: &Path, refused: &str) -> anyhow::Result<ModelFile> {
    let path = file.display().to_string();
    let source = read_source(file)?;
    match monotable_model::parse(&source) {
        Ok(model) => Ok(ModelFile {
            path,
            source,
            model,
        }),
        Err(e) => {
            let report = monotable_check::Report::new(&path, &source, model_errors(&e));
            eprint!("{}", report.render(ReportFormat::Human));
            bail!("{path} is not a valid model; {refused}");
        }
    }
}
