//! What every command shares on the way in and out: the model file read (or its `MT000`
//! diagnostics printed and the command stopped), and the one `--format`.

use std::path::Path;

use anyhow::{Context, bail};
use clap::ValueEnum;
use monotable_model::Model;
use monotable_model::diagnostic::{Format, model_errors};

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

impl From<OutputFormat> for Format {
    fn from(format: OutputFormat) -> Format {
        match format {
            OutputFormat::Human => Format::Human,
            OutputFormat::Json => Format::Json,
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

/// The text of the model file `file`, or why it cannot be read.
pub fn read_source(file: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(file).with_context(|| format!("cannot read model {}", file.display()))
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
            eprint!("{}", report.render(Format::Human));
            bail!("{path} is not a valid model; {refused}");
        }
    }
}
