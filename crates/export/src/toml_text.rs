//! TOML text the imports write: basic strings and keys, escaped so any name reads back as itself
//! and no control, bidirectional or invisible character is written raw (a description may hold
//! one; the file then holds its escape).

use std::fmt::Write as _;

/// A TOML basic string.
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || monotable_model::text::is_hidden(c) => {
                match u16::try_from(u32::from(c)) {
                    Ok(bmp) => write!(out, "\\u{bmp:04X}"),
                    Err(_) => write!(out, "\\U{:08X}", u32::from(c)),
                }
                .unwrap_or_default();
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A TOML key: bare when it can be.
pub(crate) fn bare(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        s.to_string()
    } else {
        quoted(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_keys_read_back_as_themselves() {
        for s in [
            "plain",
            "with \"quotes\"",
            "back\\slash",
            "tab\tnew\nline",
            "esc\u{1b}",
            "ü",
            "bidi\u{202e}x",
            "tag\u{e0041}",
        ] {
            let text = format!("{} = {}\n", bare(s), quoted(s));
            let table: toml::Table = toml::from_str(&text).unwrap();
            assert_eq!(table.get(s).and_then(|v| v.as_str()), Some(s), "{text}");
        }
        assert_eq!(quoted("a\u{202e}b"), "\"a\\u202Eb\"");
        assert_eq!(bare("GSI1PK"), "GSI1PK");
        assert_eq!(bare("a.b"), "\"a.b\"");
        assert_eq!(bare(""), "\"\"");
    }
}
