//! The renderer: rustc-style text, the JSON fields of a place, the one-line form, MT000.

use super::*;

struct Drift;

impl Coded for Drift {
    fn code(&self) -> &'static str {
        "MA001"
    }
    fn name(&self) -> &'static str {
        "table-missing"
    }
}

fn source() -> SourceFile {
    SourceFile::new("m.toml", "[table]\nname = \"Shop\"\n")
}

fn finding() -> Diagnostic {
    Diagnostic::error(Drift, "table `Shop` does not exist", 15..21)
        .label("this table")
        .note("one\ntwo")
        .help("create it")
}

#[test]
fn text_quotes_the_model_under_the_message() {
    assert_eq!(
        source().render(&finding()),
        "error[MA001]: table `Shop` does not exist\n \
         --> m.toml:2:8\n  |\n2 | name = \"Shop\"\n  |        ^^^^^^ this table\n  |\n  \
         = note: one\n          two\n  = help: create it\n"
    );
}

#[test]
fn text_without_a_span_names_the_file() {
    let mut d = Diagnostic::new(Drift, Severity::Warning, "no place");
    d.notes.push("said".into());
    assert_eq!(
        source().render(&d),
        "warning[MA001]: no place\n --> m.toml\n  |\n  = note: said\n"
    );
}

#[test]
fn text_escapes_hidden_characters() {
    let d = Diagnostic::error(Drift, "bad \u{1b}[31m", 0..1).label("\u{202e}");
    let text = SourceFile::new("a\u{7}.toml", "x").render(&d);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text}"
    );
    assert!(text.contains("a\\u{7}.toml:1:1"), "{text}");
}

#[test]
fn json_places_the_diagnostic_in_lines_columns_and_bytes() {
    let d = finding();
    let json = serde_json::to_value(source().placed(&d)).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "line": 2, "column": 8, "end_line": 2, "end_column": 14,
            "span": { "start": 15, "end": 21 },
            "label": "this table",
            "notes": ["one\ntwo"],
            "help": "create it",
        })
    );
    let keys: Vec<String> = serde_json::to_value(source().placed(&d))
        .unwrap()
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys.len(), 8);
    let nowhere = unreadable("gone");
    let json = serde_json::to_value(source().placed(&nowhere)).unwrap();
    assert_eq!(json["line"], serde_json::Value::Null);
    assert_eq!(json["span"], serde_json::Value::Null);
    assert_eq!(
        json["help"],
        "check the path, and that it is a UTF-8 text file"
    );
}

#[test]
fn the_short_form_is_one_line_with_the_place() {
    assert_eq!(
        source().short(&finding()),
        "m.toml:2:8: error[MA001]: table `Shop` does not exist"
    );
    assert_eq!(
        source().short(&unreadable("gone")),
        "error[MT000]: cannot read the model: gone"
    );
}

#[test]
fn model_errors_are_mt000_at_their_issue() {
    let text = "[table]\nname = 3\n";
    let error = crate::parse(text).unwrap_err();
    let diagnostics = model_errors(&error);
    assert_eq!(diagnostics.len(), error.issues.len());
    for (d, issue) in diagnostics.iter().zip(&error.issues) {
        assert_eq!((d.code, d.name), (INVALID_MODEL, INVALID_MODEL_NAME));
        assert_eq!(d.severity, Severity::Error);
        assert_eq!((&d.message, &d.span), (&issue.message, &issue.span));
    }
}

#[test]
fn formats_parse_by_name() {
    assert_eq!("JSON".parse::<Format>(), Ok(Format::Json));
    assert_eq!("human".parse::<Format>(), Ok(Format::Human));
    assert!("yaml".parse::<Format>().is_err());
}

#[test]
fn shortened_elides_every_text() {
    let long = format!("`{}`", "A".repeat(200));
    let d = Diagnostic::error(Drift, long.clone(), 0..1)
        .label(long.clone())
        .note(long.clone())
        .help(long)
        .shortened();
    for text in [
        &d.message,
        d.label.as_ref().unwrap(),
        &d.notes[0],
        d.help.as_ref().unwrap(),
    ] {
        assert!(text.ends_with("(200 characters)"), "{text}");
    }
}
