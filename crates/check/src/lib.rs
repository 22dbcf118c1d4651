//! monotable-check: lints a single-table design; its report renders the diagnostics rustc-style
//! or as JSON with the model's renderer ([`monotable_model::diagnostic`]).
//!
//! [`check_source`] parses, validates and lints a model; [`check_model`] lints an
//! already validated one. Rules have stable codes `MT001`..`MT017` (`MT000` is a
//! model that does not parse or validate); see `docs/checks.md`. No I/O.

pub mod cost;
mod diagnostic;
mod num;
mod report;
mod rules;
mod shape;

pub use diagnostic::{Diagnostic, Rule, Severity};
pub use monotable_model::diagnostic::ReportFormat;
pub use report::Report;

use monotable_model::Model;

/// Lints a validated model.
pub fn check_model(model: &Model) -> Vec<Diagnostic> {
    rules::run_all(model)
}

/// Parse + validate + lint. `path` is only used for display (file:line:col).
/// Parse/validation errors become `MT000` error diagnostics in the report.
pub fn check_source(path: &str, source: &str) -> Report {
    let diagnostics = match monotable_model::parse(source) {
        Ok(model) => check_model(&model),
        Err(error) => monotable_model::diagnostic::model_errors(&error),
    };
    Report::new(path, source, diagnostics)
}
