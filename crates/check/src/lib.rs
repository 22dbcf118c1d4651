//! monotable-check: lints a single-table design and renders rustc-style or JSON diagnostics.
//!
//! [`check_source`] parses, validates and lints a model; [`check_model`] lints an
//! already validated one. Rules have stable codes `MT001`..`MT016` (`MT000` is a
//! model that does not parse or validate); see `docs/checks.md`. No I/O.

pub mod cost;
mod diagnostic;
mod excerpt;
mod num;
mod report;
mod rules;
mod shape;
mod source;

pub use diagnostic::{Diagnostic, Rule, Severity};
pub use excerpt::elide;
pub use report::{Format, Report};
pub use source::{Annotation, SourceFile};

use monotable_model::{Model, ModelError};

/// Lints a validated model.
pub fn check_model(model: &Model) -> Vec<Diagnostic> {
    rules::run_all(model)
}

/// Turns model parse/validation issues into `MT000` error diagnostics.
pub fn model_error_diagnostics(error: &ModelError) -> Vec<Diagnostic> {
    error
        .issues
        .iter()
        .map(|issue| {
            let mut d = Diagnostic::error(Rule::Model, issue.message.clone(), 0..0);
            d.span = issue.span.clone();
            d.help = issue.help.clone();
            d
        })
        .collect()
}

/// Parse + validate + lint. `path` is only used for display (file:line:col).
/// Parse/validation errors become `MT000` error diagnostics in the report.
pub fn check_source(path: &str, source: &str) -> Report {
    let diagnostics = match monotable_model::parse(source) {
        Ok(model) => check_model(&model),
        Err(error) => model_error_diagnostics(&error),
    };
    Report::new(path, source, diagnostics)
}
