//! Errors: model parse/validation issues with byte spans, template and render errors, and line:column lookup.

use std::fmt;
use std::ops::Range;

/// What kind of problem a [`ModelIssue`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IssueKind {
    /// The file is not valid TOML or does not fit the format.
    Syntax,
    /// A name refers to an index, entity, attribute or pattern that does not exist.
    UnknownReference,
    /// A key template or key condition is malformed.
    InvalidTemplate,
    /// The model is inconsistent in another way.
    Invalid,
    /// A name or key text holds a character a terminal or an editor does not show as itself
    /// (see [`text::is_hidden`](crate::text::is_hidden)).
    HiddenCharacter,
}

/// One problem found while parsing or validating a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelIssue {
    /// Category.
    pub kind: IssueKind,
    /// What is wrong.
    pub message: String,
    /// Byte range in the source, when known.
    pub span: Option<Range<usize>>,
    /// How to fix it.
    pub help: Option<String>,
}

impl ModelIssue {
    pub(crate) fn new(kind: IssueKind, message: impl Into<String>, span: Range<usize>) -> Self {
        Self {
            kind,
            message: message.into(),
            span: Some(span),
            help: None,
        }
    }

    pub(crate) fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl ModelIssue {
    /// 1-based line and column of the start of the issue in `source`, when it has a span.
    pub fn line_col(&self, source: &str) -> Option<(usize, usize)> {
        self.span.as_ref().map(|s| line_col(source, s.start))
    }
}

impl fmt::Display for ModelIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The model could not be parsed or is invalid; holds every issue found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid model: {}", summary(.issues))]
pub struct ModelError {
    /// All issues, in source order. Never empty.
    pub issues: Vec<ModelIssue>,
}

fn summary(issues: &[ModelIssue]) -> String {
    match issues {
        [] => "unknown error".to_string(),
        [one] => one.message.clone(),
        [first, rest @ ..] => format!("{} (and {} more)", first.message, rest.len()),
    }
}

/// A key template could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TemplateError {
    /// The template is the empty string.
    #[error("key template is empty")]
    Empty,
    /// `{` without `}`.
    #[error("`{{` at byte {offset} is never closed")]
    Unclosed {
        /// Byte offset in the template.
        offset: usize,
    },
    /// `}` without `{` (write `}}` for a literal brace).
    #[error("`}}` at byte {offset} has no matching `{{` (write `}}}}` for a literal brace)")]
    UnmatchedClose {
        /// Byte offset in the template.
        offset: usize,
    },
    /// The variable name is not an identifier.
    #[error("`{name}` is not a valid variable name (letters, digits, `_`)")]
    BadName {
        /// Byte offset in the template.
        offset: usize,
        /// The name found.
        name: String,
    },
    /// The format spec is not `0N`.
    #[error("`:{spec}` is not a padding spec; use `:0N`, e.g. `{{n:08}}`")]
    BadFormat {
        /// Byte offset in the template.
        offset: usize,
        /// The spec found.
        spec: String,
    },
    /// The spec is `0N`, but `N` is 0 or wider than [`MAX_PAD`](crate::MAX_PAD).
    #[error(
        "`:{spec}` pads to {width} digits; a padding width is 1 to {max} (`{{n:020}}` holds any 64-bit integer)",
        max = crate::MAX_PAD
    )]
    PadWidth {
        /// Byte offset in the template.
        offset: usize,
        /// The spec found.
        spec: String,
        /// The width asked for, as written (without leading zeros).
        width: String,
    },
}

/// A key could not be rendered from the given values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// No value for a variable.
    #[error("no value for `{name}`")]
    MissingValue {
        /// The variable.
        name: String,
    },
    /// The value is empty (DynamoDB rejects empty key strings; they also collide).
    #[error("empty value for `{name}`")]
    EmptyValue {
        /// The variable.
        name: String,
    },
    /// A padded variable got something that is not a non-negative integer.
    #[error("`{name}` must be a non-negative integer to be zero-padded, got `{value}`")]
    NotAnInteger {
        /// The variable.
        name: String,
        /// The value given.
        value: String,
    },
    /// A padded variable does not fit its width.
    #[error("`{name}` = `{value}` does not fit in {width} digits")]
    TooWide {
        /// The variable.
        name: String,
        /// The value given.
        value: String,
        /// The padding width.
        width: usize,
    },
    /// The entity has no key template for the requested index.
    #[error("entity `{entity}` has no key for index `{index}`")]
    NoSuchKey {
        /// The entity.
        entity: String,
        /// The index (`table` for the base table).
        index: String,
    },
}

/// 1-based line and column (in characters) of a byte offset.
///
/// Offsets past the end or inside a character are clamped; never panics.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(source.len());
    while offset > 0 && !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// The text of the 1-based line `line` (without its newline), if it exists.
pub fn line_text(source: &str, line: usize) -> Option<&str> {
    source
        .split('\n')
        .nth(line.checked_sub(1)?)
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_works() {
        let s = "ab\ncdé\nx";
        assert_eq!(line_col(s, 0), (1, 1));
        assert_eq!(line_col(s, 3), (2, 1));
        assert_eq!(line_col(s, 7), (2, 4));
        assert_eq!(line_col(s, 6), (2, 3));
        assert_eq!(line_col(s, 999), (3, 2));
        assert_eq!(line_text(s, 2), Some("cdé"));
        assert_eq!(line_text(s, 0), None);
    }
}
