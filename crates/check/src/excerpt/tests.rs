//! Line lookups, windows on long lines, and shortened quotes.

use super::*;

#[test]
fn lines_and_columns() {
    let s = "ab\ncdé\r\nx";
    let lines = LineIndex::new(s);
    assert_eq!(lines.line_col(s, 0), (1, 1));
    assert_eq!(lines.line_col(s, 3), (2, 1));
    assert_eq!(lines.line_col(s, 7), (2, 4));
    assert_eq!(lines.line_col(s, 6), (2, 3));
    assert_eq!(lines.line_col(s, 999), (3, 2));
    assert_eq!(lines.line(s, 2), "cdé");
    assert_eq!(lines.line(s, 3), "x");
    assert_eq!(lines.line(s, 0), "");
    assert_eq!(lines.line(s, 4), "");
    // The model crate's lookups agree.
    for offset in 0..s.len() {
        assert_eq!(
            lines.line_col(s, offset),
            monotable_model::line_col(s, offset)
        );
    }
}

#[test]
fn short_lines_are_shown_whole() {
    let w = window("key = \"x\"", 6, 3);
    assert_eq!(
        w,
        Window {
            text: "key = \"x\"".into(),
            start: 6,
            width: 3
        }
    );
}

#[test]
fn long_lines_are_cut_around_the_span() {
    let line = format!("x = \"{}\"", "A".repeat(5_000_000));
    let w = window(&line, 4, 5_000_002);
    assert!(w.text.chars().count() <= MAX_LINE + 2, "{}", w.text.len());
    assert!(w.text.starts_with("x = \"AAA") && w.text.ends_with('…'));
    assert_eq!((w.start, w.width), (4, MAX_LINE - 4));
    let far = format!("{}key = \"v\"", " ".repeat(1000));
    let w = window(&far, 1006, 3);
    assert!(w.text.starts_with('…'));
    assert_eq!(w.text.chars().nth(w.start), Some('"'));
    assert_eq!(w.width, 3);
}

#[test]
fn long_quotes_are_shortened() {
    let giant = "A".repeat(5_000_000);
    let text = format!("key `PK` of `User` uses `{giant}`, which is long");
    let short = elide(&text);
    assert_eq!(
        short,
        format!(
            "key `PK` of `User` uses `{}…` (5000000 characters), which is long",
            "A".repeat(40)
        )
    );
    assert_eq!(elide("`a` and `b`"), "`a` and `b`");
    let unclosed = format!("ends with `{}", "B".repeat(100));
    assert_eq!(
        elide(&unclosed),
        format!("ends with `{}… (100 characters)", "B".repeat(40))
    );
    let prose = "word ".repeat(1000);
    assert_eq!(elide(&prose).chars().count(), MAX_TEXT + 1);
}

#[test]
fn hidden_characters_are_escaped_and_the_carets_stay_under_the_span() {
    // `name = "a<ESC>[31mb"` with the span on the string.
    let line = "name = \"a\u{1b}[31mb\u{202e}\"";
    let w = window(line, 7, 10).escaped();
    assert_eq!(w.text, "name = \"a\\u{1b}[31mb\\u{202e}\"");
    assert_eq!((w.start, w.width), (7, 22));
    let quoted: String = w.text.chars().skip(w.start).take(w.width).collect();
    assert_eq!(quoted, "\"a\\u{1b}[31mb\\u{202e}\"");
    // Before the span, a hidden character moves the carets right.
    let w = window("\u{9b}x = 1", 1, 1).escaped();
    assert_eq!((w.text.as_str(), w.start, w.width), ("\\u{9b}x = 1", 6, 1));
    // Nothing to escape: unchanged.
    assert_eq!(window("k = 1", 4, 1).escaped(), window("k = 1", 4, 1));
}
