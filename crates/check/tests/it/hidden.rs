//! No output of `check` or `cost` holds a raw hidden character (a control other than newline
//! and tab, a bidirectional or invisible format character), whatever the names, free text,
//! comments and path of the model hold: the names are refused (MT000) and quoted escaped, the
//! rest is escaped; the JSON stays JSON.

use monotable_check::cost::{PriceTable, estimate};
use monotable_check::{ReportFormat, check_source};
use monotable_model::text::is_hidden;
use proptest::prelude::*;

/// `text` as a TOML basic string: controls as `\uXXXX` escapes, everything else as it is.
fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Where a text goes in the model.
const PLACES: [&str; 7] = [
    "entity",
    "pattern",
    "enum value",
    "key text",
    "description",
    "comment (raw)",
    "table name",
];

fn model(place: &str, text: &str) -> String {
    let q = toml_string(text);
    let at = |p: &str, with: &str, without: &str| {
        if p == place {
            with.to_string()
        } else {
            without.to_string()
        }
    };
    let entity = at("entity", &toml_string(&format!("User{text}")), "\"User\"");
    let pattern = at(
        "pattern",
        &toml_string(&format!("getUser{text}")),
        "\"getUser\"",
    );
    let value = at("enum value", &q, "\"PRO\"");
    let literal = at(
        "key text",
        &toml_string(&format!("PROFILE{text}")),
        "\"PROFILE\"",
    );
    let description = at("description", &q, "\"a user\"");
    let comment = at("comment (raw)", &format!("# {text}"), "# a comment");
    let table = at(
        "table name",
        &toml_string(&format!("Users{text}")),
        "\"Users\"",
    );
    format!(
        r#"{comment}
[table]
name = {table}
partition_key = {{ name = "PK" }}
sort_key = {{ name = "SK" }}

[entities.{entity}]
description = {description}
attributes.userId = {{ type = "string", required = true }}
attributes.tier = {{ type = "enum", values = ["FREE", {value}], required = true }}
keys.PK = "USER#{{userId}}"
keys.SK = {literal}

[patterns.{pattern}]
operation = "GetItem"
key = {{ PK = "USER#{{userId}}", SK = {literal} }}
returns = [{entity}]

[traffic.entities.{entity}]
writes_per_second = 10
"#
    )
}

fn assert_shown_as_text(what: &str, output: &str, json: bool) {
    let kept = |c: &char| matches!(c, '\n' | '\t');
    let raw: Vec<char> = output
        .chars()
        .filter(|c| is_hidden(*c) && !kept(c))
        .collect();
    assert!(raw.is_empty(), "{what} holds {raw:?}:\n{output}");
    if json {
        serde_json::from_str::<serde_json::Value>(output)
            .unwrap_or_else(|e| panic!("{what} is not JSON: {e}\n{output}"));
    }
}

fn check_all(place: &str, text: &str, path: &str) {
    let source = model(place, text);
    if text.is_empty() {
        assert!(monotable_model::parse(&source).is_ok(), "{source}");
    }
    let report = check_source(path, &source);
    assert_shown_as_text(place, &report.render(ReportFormat::Human), false);
    assert_shown_as_text(place, &report.render(ReportFormat::Json), true);
    if let Ok(m) = monotable_model::parse(&source) {
        let cost = estimate(&m, &PriceTable::default());
        assert_shown_as_text(place, &cost.render_human(), false);
        assert_shown_as_text(place, &cost.render_json(), true);
    }
}

#[test]
fn escape_and_operating_system_commands_are_shown_as_text() {
    for text in [
        "\u{1b}[31mred",
        "\u{1b}]0;owned\u{7}",
        "\u{1b}]52;c;Y3VybCBldmls\u{1b}\\",
        "\u{9b}2J",
        "\u{202e}desrever",
        "zero\u{200b}width",
    ] {
        for place in PLACES {
            check_all(place, text, "model.toml");
        }
        check_all("", "", &format!("mo{text}del.toml"));
    }
}

#[test]
fn a_name_with_a_hidden_character_is_refused_as_mt000() {
    for place in ["entity", "pattern", "enum value", "key text"] {
        let report = check_source("m.toml", &model(place, "\u{1b}[31m"));
        assert_eq!(report.codes(), vec!["MT000"; report.codes().len()]);
        assert!(report.has_errors(), "{place}");
        assert!(
            report.render(ReportFormat::Human).contains("\\u{1b}[31m"),
            "{place}"
        );
    }
    // A description is free text: no error, and nothing of it is printed raw either.
    let report = check_source("m.toml", &model("description", "\u{1b}[31m"));
    assert!(
        !report.has_errors(),
        "{}",
        report.render(ReportFormat::Human)
    );
}

fn arbitrary_text() -> impl Strategy<Value = String> {
    let hidden = prop::sample::select(vec![
        '\u{0}',
        '\u{7}',
        '\u{8}',
        '\u{1b}',
        '\u{7f}',
        '\u{85}',
        '\u{9b}',
        '\u{9d}',
        '\u{ad}',
        '\u{200b}',
        '\u{200f}',
        '\u{2028}',
        '\u{202e}',
        '\u{2066}',
        '\u{feff}',
        '\u{e0041}',
    ]);
    let any = prop_oneof![hidden, any::<char>()];
    prop::collection::vec(any, 0..24).prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn no_rendered_output_holds_a_raw_hidden_character(
        text in arbitrary_text(),
        place in prop::sample::select(PLACES.to_vec()),
        path in arbitrary_text(),
    ) {
        check_all(place, &text, &path);
    }
}
