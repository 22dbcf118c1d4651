//! A model file quoted under findings, rustc-style: what `check`'s report prints for each
//! diagnostic, open to any tool whose findings point into a model (`audit`'s `MA` codes).

use std::fmt::Write as _;
use std::ops::Range;

use monotable_model::text::escape;

use crate::excerpt::{LineIndex, window};

/// A model file's display path and text, with its lines indexed once.
#[derive(Debug, Clone)]
pub struct SourceFile {
    path: String,
    text: String,
    lines: LineIndex,
}

/// One finding as printed: `error[CODE]: message`, the quoted span, notes and help.
#[derive(Debug, Clone, Copy)]
pub struct Annotation<'a> {
    /// `error`, `warning` or `info`.
    pub severity: &'a str,
    /// The stable code (`MT001`, `MA013`).
    pub code: &'a str,
    /// One-line summary.
    pub message: &'a str,
    /// Byte range in the source; `None` prints only the path.
    pub span: Option<&'a Range<usize>>,
    /// Short text under the carets.
    pub label: Option<&'a str>,
    /// `= note:` lines.
    pub notes: &'a [String],
    /// The `= help:` line.
    pub help: Option<&'a str>,
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

    /// Appends `a` to `out` as rustc prints a diagnostic, without the blank line after it. Hidden
    /// characters (in the path, the quoted line, the message, ...) are escaped.
    pub fn write(&self, out: &mut String, a: &Annotation<'_>) {
        let _ = writeln!(out, "{}[{}]: {}", a.severity, a.code, escape(a.message));
        let location = a.span.map(|span| {
            let (line, col) = self.line_col(span.start);
            (line, col, span.clone())
        });
        let gutter = location
            .as_ref()
            .map_or(1, |(line, _, _)| line.to_string().len());
        let pad = " ".repeat(gutter);
        match &location {
            Some((line, col, span)) => self.quote(out, &pad, (*line, *col, span), a.label),
            None => {
                let _ = writeln!(out, "{pad}--> {}", escape(&self.path));
                let _ = writeln!(out, "{pad} |");
            }
        }
        // Lines after the first of a note or help line up under its text, as rustc's do.
        let indent = |text: &str| escape(text).replace('\n', &format!("\n{pad}         "));
        for note in a.notes {
            let _ = writeln!(out, "{pad} = note: {}", indent(note));
        }
        if let Some(help) = a.help {
            let _ = writeln!(out, "{pad} = help: {}", indent(help));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_of_any_tool_quote_the_model() {
        let source = SourceFile::new("m.toml", "[table]\nname = \"Shop\"\n");
        let mut out = String::new();
        let span = 15..21;
        source.write(
            &mut out,
            &Annotation {
                severity: "error",
                code: "MA001",
                message: "table `Shop` does not exist",
                span: Some(&span),
                label: Some("this table"),
                notes: &["one\ntwo".to_string()],
                help: Some("create it"),
            },
        );
        assert_eq!(
            out,
            "error[MA001]: table `Shop` does not exist\n \
             --> m.toml:2:8\n  |\n2 | name = \"Shop\"\n  |        ^^^^^^ this table\n  |\n  \
             = note: one\n          two\n  = help: create it\n"
        );
    }
}
