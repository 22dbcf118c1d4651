//! The report of one checked model and its rustc-style human and JSON renderings.

use std::fmt::Write as _;

use monotable_model::text::{escape, escape_json};
use serde::Serialize;

use crate::diagnostic::{Diagnostic, Severity};
use crate::excerpt::shorten;
use crate::source::{Annotation, SourceFile};

/// Output format of [`Report::render`].
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

/// The diagnostics for one model file.
#[derive(Debug, Clone)]
pub struct Report {
    source: SourceFile,
    diagnostics: Vec<Diagnostic>,
}

impl Report {
    /// A report for `path` with `source`; diagnostics are sorted by position, then code, and
    /// any text quoted from the model that is too long to read is shortened.
    pub fn new(path: &str, source: &str, diagnostics: Vec<Diagnostic>) -> Self {
        let mut diagnostics: Vec<Diagnostic> = diagnostics.into_iter().map(shorten).collect();
        diagnostics.sort_by(|a, b| {
            let key = |d: &Diagnostic| (d.span.as_ref().map_or(0, |s| s.start), d.rule);
            key(a).cmp(&key(b)).then_with(|| a.message.cmp(&b.message))
        });
        diagnostics.dedup();
        Self {
            source: SourceFile::new(path, source),
            diagnostics,
        }
    }

    /// The report for a model file that could not be read: one `MT000` error, with no
    /// position, saying why.
    pub fn unreadable(path: &str, reason: &str) -> Self {
        let mut d = Diagnostic::error(
            crate::Rule::Model,
            format!("cannot read the model: {reason}"),
            0..0,
        );
        d.span = None;
        Self::new(
            path,
            "",
            vec![d.help("check the path, and that it is a UTF-8 text file")],
        )
    }

    /// The display path.
    pub fn path(&self) -> &str {
        self.source.path()
    }

    /// All diagnostics, in source order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The codes of all diagnostics, in order (handy in tests).
    pub fn codes(&self) -> Vec<&'static str> {
        self.diagnostics.iter().map(Diagnostic::code).collect()
    }

    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.count(Severity::Error)
    }

    /// Number of warnings.
    pub fn warning_count(&self) -> usize {
        self.count(Severity::Warning)
    }

    fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// Number of suggestions (info).
    pub fn info_count(&self) -> usize {
        self.count(Severity::Info)
    }

    /// True when there is at least one error.
    pub fn has_errors(&self) -> bool {
        self.error_count() > 0
    }

    /// True when there is at least one warning.
    pub fn has_warnings(&self) -> bool {
        self.warning_count() > 0
    }

    /// Renders the report. Human output is empty when there are no diagnostics; with
    /// suggestions only, it ends `<path>: no problems found (N suggestions above)`.
    /// Hidden characters (controls, bidirectional and invisible format characters) of the path
    /// or of the model's text are escaped ([`monotable_model::text`]): none reaches a terminal.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Human => escape(&self.render_human()).into_owned(),
            Format::Json => escape_json(&self.render_json()).into_owned(),
        }
    }

    fn render_human(&self) -> String {
        let mut out = String::new();
        for d in &self.diagnostics {
            self.human_one(&mut out, d);
            out.push('\n');
        }
        let (e, w, i) = (self.error_count(), self.warning_count(), self.info_count());
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let suggestions = if i > 0 {
            format!(" ({} above)", plural(i, "suggestion"))
        } else {
            String::new()
        };
        if e > 0 {
            let _ = writeln!(
                out,
                "error: `{}` has {} and {}{suggestions}",
                self.path(),
                plural(e, "error"),
                plural(w, "warning")
            );
        } else if w > 0 {
            let _ = writeln!(
                out,
                "warning: `{}` has {}{suggestions}",
                self.path(),
                plural(w, "warning")
            );
        } else if i > 0 {
            let _ = writeln!(out, "{}: no problems found{suggestions}", self.path());
        }
        out
    }

    fn human_one(&self, out: &mut String, d: &Diagnostic) {
        self.source.write(
            out,
            &Annotation {
                severity: d.severity.as_str(),
                code: d.code(),
                message: &d.message,
                span: d.span.as_ref(),
                label: d.label.as_deref(),
                notes: &d.notes,
                help: d.help.as_deref(),
            },
        );
    }

    fn render_json(&self) -> String {
        #[derive(Serialize)]
        struct Span {
            start: usize,
            end: usize,
        }
        #[derive(Serialize)]
        struct JsonDiagnostic<'a> {
            code: &'static str,
            rule: &'static str,
            severity: Severity,
            message: &'a str,
            file: &'a str,
            line: Option<usize>,
            column: Option<usize>,
            end_line: Option<usize>,
            end_column: Option<usize>,
            span: Option<Span>,
            label: Option<&'a str>,
            notes: &'a [String],
            help: Option<&'a str>,
        }
        #[derive(Serialize)]
        struct Summary {
            errors: usize,
            warnings: usize,
            infos: usize,
        }
        #[derive(Serialize)]
        struct Json<'a> {
            file: &'a str,
            diagnostics: Vec<JsonDiagnostic<'a>>,
            summary: Summary,
        }
        let diagnostics = self
            .diagnostics
            .iter()
            .map(|d| {
                let start = d.span.as_ref().map(|s| self.source.line_col(s.start));
                let end = d.span.as_ref().map(|s| self.source.line_col(s.end));
                JsonDiagnostic {
                    code: d.code(),
                    rule: d.rule.name(),
                    severity: d.severity,
                    message: &d.message,
                    file: self.source.path(),
                    line: start.map(|s| s.0),
                    column: start.map(|s| s.1),
                    end_line: end.map(|s| s.0),
                    end_column: end.map(|s| s.1),
                    span: d.span.as_ref().map(|s| Span {
                        start: s.start,
                        end: s.end,
                    }),
                    label: d.label.as_deref(),
                    notes: &d.notes,
                    help: d.help.as_deref(),
                }
            })
            .collect();
        let doc = Json {
            file: self.source.path(),
            diagnostics,
            summary: Summary {
                errors: self.error_count(),
                warnings: self.warning_count(),
                infos: self.info_count(),
            },
        };
        let mut text = serde_json::to_string_pretty(&doc).unwrap_or_else(|_| "{}".to_string());
        text.push('\n');
        text
    }
}
