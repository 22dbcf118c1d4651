//! Text that reaches a terminal or a generated file: the characters a name may not hold, and the
//! one way every renderer writes them when they come from text that cannot be refused (free
//! text, item values, paths, imported data).
//!
//! A *hidden* character is one that a terminal or an editor does not show as itself: a control
//! character (C0, DEL, C1: ESC starts the escape sequences a terminal obeys, OSC ones set its
//! title or write to the clipboard), a format character (the bidirectional overrides and
//! isolates of "Trojan Source", zero-width spaces and joiners, the byte-order mark, the soft
//! hyphen, ...), or a line or paragraph separator. Unicode's categories Cc, Cf, Zl and Zp.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Unicode's format characters (category Cf, Unicode 15.1), as inclusive ranges.
const FORMAT: [(u32, u32); 21] = [
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
];

/// The bidirectional controls: embeddings, overrides, isolates and marks.
fn is_bidirectional(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` is hidden: a control, format, line- or paragraph-separator character.
pub fn is_hidden(c: char) -> bool {
    let code = u32::from(c);
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}')
        || FORMAT.iter().any(|(lo, hi)| (*lo..=*hi).contains(&code))
}

/// What kind of hidden character `c` is, in words (for messages).
pub fn hidden_kind(c: char) -> &'static str {
    if c.is_control() {
        "a control character, which a terminal reads as part of an escape sequence"
    } else if is_bidirectional(c) {
        "a bidirectional control, which shows the text in another order than it is read"
    } else if matches!(c, '\u{2028}' | '\u{2029}') {
        "a line separator"
    } else {
        "an invisible format character"
    }
}

/// The first hidden character of `text`, with its position in characters (0-based).
pub fn first_hidden(text: &str) -> Option<(usize, char)> {
    text.chars().enumerate().find(|(_, c)| is_hidden(*c))
}

/// `U+001B`: a character as Unicode names it.
pub fn code_point(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

/// `text` with every hidden character except newline and tab written as Rust writes it in a
/// string, `\u{1b}`: what every renderer prints of text it did not make. Idempotent, and
/// borrowed when there is nothing to escape.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_with(
        text,
        |c| matches!(c, '\n' | '\t'),
        |out, c| {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        },
    )
}

/// A JSON document with every hidden character JSON lets stand raw in a string (C1 controls,
/// DEL, format characters: `serde_json` escapes only C0) written as a JSON escape, `\u009b`;
/// the document means the same, and no hidden character reaches a terminal. JSON's whitespace
/// between tokens is kept.
pub fn escape_json(json: &str) -> Cow<'_, str> {
    escape_with(
        json,
        |c| matches!(c, '\n' | '\t' | '\r'),
        |out, c| {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        },
    )
}

fn escape_with(
    text: &str,
    keep: impl Fn(char) -> bool,
    write: impl Fn(&mut String, char),
) -> Cow<'_, str> {
    if !text.chars().any(|c| is_hidden(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_hidden(c) && !keep(c) {
            write(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_the_ones_a_terminal_or_an_editor_does_not_show() {
        for c in [
            '\0',
            '\u{1b}',
            '\u{7f}',
            '\u{9b}',
            '\u{9d}',
            '\u{202e}',
            '\u{2066}',
            '\u{2069}',
            '\u{200b}',
            '\u{200f}',
            '\u{feff}',
            '\u{ad}',
            '\u{2028}',
            '\u{e0041}',
        ] {
            assert!(is_hidden(c), "{c:?}");
        }
        for c in ['a', ' ', '#', 'é', 'ß', '中', '😀', '\u{a0}', 'ـ'] {
            assert!(!is_hidden(c), "{c:?}");
        }
        assert!(hidden_kind('\u{1b}').starts_with("a control"));
        assert!(hidden_kind('\u{202e}').starts_with("a bidirectional"));
        assert!(hidden_kind('\u{200b}').starts_with("an invisible"));
        assert_eq!(first_hidden("ab\u{1b}c"), Some((2, '\u{1b}')));
        assert_eq!(code_point('\u{1b}'), "U+001B");
    }

    #[test]
    fn escaping_writes_each_hidden_character_visibly() {
        assert_eq!(
            escape("a\u{1b}]0;x\u{7}b\n\tc\u{202e}"),
            "a\\u{1b}]0;x\\u{7}b\n\tc\\u{202e}"
        );
        assert!(matches!(escape("plain"), Cow::Borrowed("plain")));
        let once = escape("\u{9b}31m").into_owned();
        assert_eq!(escape(&once), once);
        let json = serde_json::json!({"name": "a\u{1b}\u{9b}\u{7f}\u{202e}\u{e0041}"});
        let text = serde_json::to_string_pretty(&json).unwrap();
        let escaped = escape_json(&text);
        assert!(
            !escaped.chars().any(|c| is_hidden(c) && c != '\n'),
            "{escaped}"
        );
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(back, json);
    }
}
