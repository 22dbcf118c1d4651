//! The renderer: a model file quoted under a diagnostic, rustc-style; the JSON fields of a
//! diagnostic's place in the file; the one-line form of a compile error.

use std::fmt::Write as _;
use std::ops::Range;

use serde::Serialize;

use super::Diagnostic;
use super::excerpt::{LineIndex, window};
use crate::text::escape;

/// A model file's display path and text, with its lines indexed once.
#[derive(Debug, Clone)]
pub struct SourceFile {
    path: String,
    text: String,
    lines: LineIndex,
}

/// The JSON fields of a diagnostic's place in the file and what is said there:
/// `line`, `column`, `end_line`, `end_column`, `span`, `label`, `notes`, `help`.
#[derive(Debug, Clone, Serialize)]
pub struct Placed<'a> {
    line: Option<usize>,
    column: Option<usize>,
    end_line: Option<usize>,
    end_column: Option<usize>,
    span: Option<ByteSpan>,
    label: Option<&'a str>,
    notes: &'a [String],
    help: Option<&'a str>,
}

/// A span in bytes, as JSON shows it.
#[derive(Debug, Clone, Copy, Serialize)]
struct ByteSpan {
    start: usize,
    end: usize,
}

impl SourceFile {
    /// `text` shown as `path`.
    pub fn new(path: &str, text: &str) -> Self {
        Self {
            path: path.to_string(),
            text: text.to_string(),
            lines: LineIndex::new(text),
        }
    }

    /// The display path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// 1-based line and column (in characters) of a byte offset, clamped into the text.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.lines.line_col(&self.text, offset)
    }

    /// `d` as rustc prints a diagnostic, without the blank line after it. Hidden characters (in
    /// the path, the quoted line, the message, ...) are escaped.
    pub fn render(&self, d: &Diagnostic) -> String {
        let mut out = String::new();
        self.write(&mut out, d);
        out
    }

    /// Appends [`SourceFile::render`]'s text of `d` to `out`.
    pub fn write(&self, out: &mut String, d: &Diagnostic) {
        let code = d.code;
        let _ = writeln!(
            out,
            "{}[{code}]: {}",
            d.severity.as_str(),
            escape(&d.message)
        );
        let location = d.span.as_ref().map(|span| {
            let (line, col) = self.line_col(span.start);
            (line, col, span.clone())
        });
        let gutter = location
            .as_ref()
            .map_or(1, |(line, _, _)| line.to_string().len());
        let pad = " ".repeat(gutter);
        match &location {
            Some((line, col, span)) => {
                self.quote(out, &pad, (*line, *col, span), d.label.as_deref())
            }
            None => {
                let _ = writeln!(out, "{pad}--> {}", escape(&self.path));
                let _ = writeln!(out, "{pad} |");
            }
        }
        // Lines after the first of a note or help line up under its text, as rustc's do.
        let indent = |text: &str| escape(text).replace('\n', &format!("\n{pad}         "));
        for note in &d.notes {
            let _ = writeln!(out, "{pad} = note: {}", indent(note));
        }
        if let Some(help) = &d.help {
            let _ = writeln!(out, "{pad} = help: {}", indent(help));
        }
    }

    /// `d` on one line, as a compile error carries it: `path:line:col: error[CODE]: message`
    /// (without a span, `error[CODE]: message`). Hidden characters are escaped.
    pub fn short(&self, d: &Diagnostic) -> String {
        let at = d.span.as_ref().map_or_else(String::new, |span| {
            let (line, col) = self.line_col(span.start);
            format!("{}:{line}:{col}: ", escape(&self.path))
        });
        let (severity, code) = (d.severity.as_str(), d.code);
        format!("{at}{severity}[{code}]: {}", escape(&d.message))
    }

    /// Where `d` is in the file, and what is said there, as JSON fields (lines and columns
    /// 1-based, columns in characters, the span in bytes). A report puts them after its own.
    pub fn placed<'a>(&self, d: &'a Diagnostic) -> Placed<'a> {
        let start = d.span.as_ref().map(|s| self.line_col(s.start));
        let end = d.span.as_ref().map(|s| self.line_col(s.end));
        Placed {
            line: start.map(|s| s.0),
            column: start.map(|s| s.1),
            end_line: end.map(|s| s.0),
            end_column: end.map(|s| s.1),
            span: d.span.as_ref().map(|s| ByteSpan {
                start: s.start,
                end: s.end,
            }),
            label: d.label.as_deref(),
            notes: &d.notes,
            help: d.help.as_deref(),
        }
    }

    fn quote(
        &self,
        out: &mut String,
        pad: &str,
        (line, col, span): (usize, usize, &Range<usize>),
        label: Option<&str>,
    ) {
        let _ = writeln!(out, "{pad}--> {}:{line}:{col}", escape(&self.path));
        let text = self.lines.line(&self.text, line);
        let span_text = self.text.get(span.clone()).unwrap_or("");
        let first_line = span_text.split('\n').next().unwrap_or("");
        let width = first_line.chars().count().max(1);
        let shown = window(text, col.saturating_sub(1), width).escaped();
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(out, "{line} | {}", shown.text);
        let mut carets = format!("{}{}", " ".repeat(shown.start), "^".repeat(shown.width));
        if let Some(label) = label {
            carets.push(' ');
            carets.push_str(&escape(label));
        }
        let _ = writeln!(out, "{pad} | {carets}");
        let _ = writeln!(out, "{pad} |");
    }
}
