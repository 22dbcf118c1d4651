//! Diagnostics about a model file, whichever tool finds them: one [`Diagnostic`] (a stable code,
//! a severity, a message, a labelled span in the model's source, notes and help) and one
//! renderer, [`SourceFile`]: rustc-style text, the JSON fields of its place in the file, and the
//! one-line form a compile error carries. `check`'s `MT` rules, `audit`'s `MA` findings and the
//! derives' compile errors are all built and shown with these. `MT000` (a model that cannot be
//! read, parsed or validated) is built here ([`model_errors`], [`unreadable`]).

mod excerpt;
mod source;

use std::ops::Range;

use serde::Serialize;

use crate::ModelError;

pub use excerpt::elide;
pub use source::{Placed, SourceFile};

/// The code of a model that cannot be read, parsed or validated.
pub const INVALID_MODEL: &str = "MT000";
/// The name of [`INVALID_MODEL`].
pub const INVALID_MODEL_NAME: &str = "invalid-model";

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The design (or the table) is broken; `check` exits 1.
    Error,
    /// The design is risky; `check --deny-warnings` exits 1.
    Warning,
    /// A suggestion: the design is sound, and could be cheaper or simpler. Never fails `check`.
    Info,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// The output format of a report of diagnostics (`check`'s, `audit`'s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// rustc-style text, no ANSI colours.
    #[default]
    Human,
    /// One pretty-printed JSON document.
    Json,
}

impl std::str::FromStr for Format {
    type Err = String;
    /// `human` or `json` (case-insensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "human" => Ok(Format::Human),
            "json" => Ok(Format::Json),
            other => Err(format!(
                "unknown format `{other}` (expected `human` or `json`)"
            )),
        }
    }
}

/// What a diagnostic can be made of: a kind of finding with a stable code (`MT001`, `MA013`)
/// and a short kebab-case name (`unwritten-key`, `stale-index-key`).
pub trait Coded {
    /// The stable code.
    fn code(&self) -> &'static str;
    /// The short kebab-case name.
    fn name(&self) -> &'static str;
}

/// One finding about a model file, or about something that should fit it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The stable code (`MT001`, `MA013`).
    pub code: &'static str,
    /// The code's short kebab-case name (`unwritten-key`).
    pub name: &'static str,
    /// Severity.
    pub severity: Severity,
    /// One-line summary.
    pub message: String,
    /// Byte range in the model source; `None` names only the file.
    pub span: Option<Range<usize>>,
    /// Short text printed under the carets.
    pub label: Option<String>,
    /// Explanations (`= note:`).
    pub notes: Vec<String>,
    /// The fix (`= help:`).
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic of `code` at `severity`, on no span yet.
    pub fn new(code: impl Coded, severity: Severity, message: impl Into<String>) -> Self {
        Self {
            code: code.code(),
            name: code.name(),
            severity,
            message: message.into(),
            span: None,
            label: None,
            notes: Vec::new(),
            help: None,
        }
    }

    /// An error of `code` at `span`.
    pub fn error(code: impl Coded, message: impl Into<String>, span: Range<usize>) -> Self {
        Self::new(code, Severity::Error, message).span(span)
    }

    /// A warning of `code` at `span`.
    pub fn warning(code: impl Coded, message: impl Into<String>, span: Range<usize>) -> Self {
        Self::new(code, Severity::Warning, message).span(span)
    }

    /// A suggestion (info) of `code` at `span`.
    pub fn info(code: impl Coded, message: impl Into<String>, span: Range<usize>) -> Self {
        Self::new(code, Severity::Info, message).span(span)
    }

    /// Points at `span` in the model.
    pub fn span(mut self, span: Range<usize>) -> Self {
        self.span = Some(span);
        self
    }

    /// Adds a `= note:` line.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Sets the `= help:` line.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets the label under the carets.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }
}

/// `MT000`, the model that cannot be used.
struct InvalidModel;

impl Coded for InvalidModel {
    fn code(&self) -> &'static str {
        INVALID_MODEL
    }
    fn name(&self) -> &'static str {
        INVALID_MODEL_NAME
    }
}

/// The problems of a model that does not parse or validate, as `MT000` errors.
pub fn model_errors(error: &ModelError) -> Vec<Diagnostic> {
    error
        .issues
        .iter()
        .map(|issue| {
            let mut d = Diagnostic::new(InvalidModel, Severity::Error, issue.message.clone());
            d.span = issue.span.clone();
            d.help = issue.help.clone();
            d
        })
        .collect()
}

/// A model file that could not be read: one `MT000` error, with no position, saying why.
pub fn unreadable(reason: &str) -> Diagnostic {
    Diagnostic::new(
        InvalidModel,
        Severity::Error,
        format!("cannot read the model: {reason}"),
    )
    .help("check the path, and that it is a UTF-8 text file")
}

#[cfg(test)]
mod tests;
