//! Quoting the model in diagnostics: line and column lookups in one pass over the source, the
//! source line cut to a window around the span (its hidden characters escaped), and quoted text
//! too long to read shortened.

use crate::diagnostic::Diagnostic;

/// Quoted text (between backticks) longer than this many characters is shortened.
const MAX_QUOTE: usize = 80;
/// Characters of a long quote kept before the `…`.
const QUOTE_HEAD: usize = 40;
/// Longest message, label, note or help, in characters.
const MAX_TEXT: usize = 2000;
/// Longest source line shown whole, in characters.
const MAX_LINE: usize = 160;
/// Characters shown before the span when a long line is cut.
const LINE_LEAD: usize = 40;

/// Where each line of a source starts, for line and column lookups without rescanning.
#[derive(Debug, Clone)]
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub(crate) fn new(source: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(source.match_indices('\n').map(|(i, _)| i + 1));
        Self { starts }
    }

    /// 1-based line and column (in characters) of a byte offset, clamped into the source.
    pub(crate) fn line_col(&self, source: &str, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(source.len());
        while offset > 0 && !source.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|s| *s <= offset).max(1);
        let start = self.starts[line - 1];
        let column = source.get(start..offset).map_or(0, |s| s.chars().count()) + 1;
        (line, column)
    }

    /// The text of 1-based line `line`, without its line ending; empty past the end.
    pub(crate) fn line<'s>(&self, source: &'s str, line: usize) -> &'s str {
        let Some(&start) = line.checked_sub(1).and_then(|i| self.starts.get(i)) else {
            return "";
        };
        let end = self.starts.get(line).map_or(source.len(), |next| next - 1);
        let text = source.get(start..end).unwrap_or("");
        text.strip_suffix('\r').unwrap_or(text)
    }
}

/// A source line as shown under a diagnostic: possibly cut, with the span's new position.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Window {
    pub(crate) text: String,
    /// Characters before the span in `text`.
    pub(crate) start: usize,
    /// Characters of the span shown (at least 1).
    pub(crate) width: usize,
}

/// `line` with the span at character `start`, `width` wide; a line longer than [`MAX_LINE`]
/// is cut to a window from a little before the span, with `…` where text is left out.
pub(crate) fn window(line: &str, start: usize, width: usize) -> Window {
    let length = line.chars().count();
    if length <= MAX_LINE {
        return Window {
            text: line.to_string(),
            start,
            width,
        };
    }
    let from = start.min(length).saturating_sub(LINE_LEAD);
    let to = (from + MAX_LINE).min(length);
    let mut text = String::new();
    if from > 0 {
        text.push('…');
    }
    text.extend(line.chars().skip(from).take(to - from));
    if to < length {
        text.push('…');
    }
    let start_in = start.saturating_sub(from) + usize::from(from > 0);
    let room = to.saturating_sub(start.max(from)).max(1);
    Window {
        text,
        start: start_in,
        width: width.min(room).max(1),
    }
}

impl Window {
    /// The window with its hidden characters escaped ([`monotable_model::text::escape`]), the
    /// span moved and widened to cover the same characters.
    pub(crate) fn escaped(self) -> Window {
        let mut out = Window {
            text: String::with_capacity(self.text.len()),
            start: 0,
            width: 0,
        };
        let end = self.start + self.width;
        for (i, c) in self.text.chars().enumerate() {
            let mut buffer = [0u8; 4];
            let shown = monotable_model::text::escape(c.encode_utf8(&mut buffer));
            let n = shown.chars().count();
            if i < self.start {
                out.start += n;
            } else if i < end {
                out.width += n;
            }
            out.text.push_str(&shown);
        }
        // A span past the end of the line keeps its place after the text.
        out.start += self.start.saturating_sub(self.text.chars().count());
        out.width = out.width.max(1);
        out
    }
}

/// `text` with every quote longer than [`MAX_QUOTE`] cut to its start and its length said
/// (`` `AAAA…` (5000000 characters) ``), and the whole capped at [`MAX_TEXT`] characters.
pub fn elide(text: &str) -> String {
    let mut out = String::new();
    let mut length_note: Option<String> = None;
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if let Some(note) = length_note.take() {
            out.push_str(&note);
        }
        let length = part.chars().count();
        if i % 2 == 1 && length > MAX_QUOTE {
            out.extend(part.chars().take(QUOTE_HEAD));
            out.push('…');
            length_note = Some(format!(" ({length} characters)"));
        } else {
            out.push_str(part);
        }
    }
    if let Some(note) = length_note {
        out.push_str(&note);
    }
    if out.chars().count() > MAX_TEXT {
        out = out.chars().take(MAX_TEXT).collect::<String>() + "…";
    }
    out
}

/// The diagnostic with its message, label, notes and help [`elide`]d.
pub(crate) fn shorten(mut d: Diagnostic) -> Diagnostic {
    d.message = elide(&d.message);
    d.label = d.label.as_deref().map(elide);
    d.notes = d.notes.iter().map(|n| elide(n)).collect();
    d.help = d.help.as_deref().map(elide);
    d
}

#[cfg(test)]
mod tests;
