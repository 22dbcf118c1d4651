//! Hidden characters (controls, bidirectional and invisible format characters) never reach a
//! generated file raw: free text the model accepts (descriptions) is escaped in every format,
//! the JSON formats stay JSON that means the same, and a NoSQL Workbench file whose names hold
//! them is refused by `import` with nothing written.

use monotable_export::{
    ExportOptions, Format, ImportError, WorkbenchOptions, export, import_nosql_workbench,
    nosql_workbench,
};
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

/// A model whose entity, attribute, index and pattern descriptions are `text`.
fn model_source(text: &str) -> String {
    let quoted = toml_string(text);
    format!(
        r#"[table]
name = "Things"
partition_key = {{ name = "PK" }}
sort_key = {{ name = "SK" }}

[indexes.GSI1]
partition_key = {{ name = "GSI1PK" }}
description = {quoted}

[entities.Thing]
description = {quoted}
attributes.id = {{ type = "string", required = true, description = {quoted} }}
attributes.kind = {{ type = "string", required = true }}
keys.PK = "THING#{{id}}"
keys.SK = "THING"
keys.GSI1PK = "KIND#{{kind}}"

[patterns.getThing]
description = {quoted}
operation = "GetItem"
key = {{ PK = "THING#{{id}}", SK = "THING" }}
returns = ["Thing"]
"#
    )
}

/// Every format's output for `text` in the descriptions.
fn outputs(text: &str) -> Vec<(String, String)> {
    let source = model_source(text);
    let model = monotable_model::parse(&source).expect("descriptions are free text");
    let mut out: Vec<(String, String)> = [
        Format::CreateTable,
        Format::CloudFormation,
        Format::Sam,
        Format::Markdown,
    ]
    .into_iter()
    .map(|f| {
        (
            f.name().to_string(),
            export(&model, f, &ExportOptions::default()),
        )
    })
    .collect();
    let workbench =
        nosql_workbench(&model, &source, &[], &WorkbenchOptions::default()).expect("representable");
    out.push(("nosql-workbench".to_string(), workbench));
    out
}

fn assert_clean(name: &str, text: &str) {
    let raw: Vec<char> = text
        .chars()
        .filter(|c| is_hidden(*c) && !matches!(c, '\n' | '\t'))
        .collect();
    assert!(raw.is_empty(), "{name} holds {raw:?}");
    if name != "markdown" {
        serde_json::from_str::<serde_json::Value>(text)
            .unwrap_or_else(|e| panic!("{name} is not JSON: {e}\n{text}"));
    }
}

#[test]
fn a_description_with_escape_sequences_is_escaped_in_every_format() {
    let text = "title\u{1b}]0;owned\u{7} red\u{1b}[31m \u{9b}2J \u{202e}desrever\u{2066} zero\u{200b}width";
    for (name, output) in outputs(text) {
        assert_clean(&name, &output);
        if name == "markdown" {
            assert!(output.contains("red\\u{1b}[31m"), "{output}");
        }
    }
}

#[test]
fn a_workbench_file_with_hidden_names_is_refused() {
    let file = |facet: &str, attribute: &str, index: &str| {
        serde_json::json!({
            "ModelName": "M",
            "DataModel": [{
                "TableName": "Things",
                "KeyAttributes": {
                    "PartitionKey": { "AttributeName": "PK", "AttributeType": "S" },
                    "SortKey": { "AttributeName": "SK", "AttributeType": "S" }
                },
                "NonKeyAttributes": [{ "AttributeName": attribute, "AttributeType": "S" }],
                "TableFacets": [{
                    "FacetName": facet,
                    "KeyAttributeAlias": { "PartitionKeyAlias": "thingId", "SortKeyAlias": "THING" },
                    "NonKeyAttributes": [attribute],
                    "TableData": []
                }],
                "GlobalSecondaryIndexes": [{
                    "IndexName": index,
                    "KeyAttributes": { "PartitionKey": { "AttributeName": "GSI1PK", "AttributeType": "S" } },
                    "Projection": { "ProjectionType": "ALL" }
                }]
            }]
        })
        .to_string()
    };
    assert!(import_nosql_workbench(&file("Thing", "note", "GSI1")).is_ok());
    for (facet, attribute, index) in [
        ("Thing\u{1b}[31m", "note", "GSI1"),
        ("Thing", "no\u{9b}te", "GSI1"),
        ("Thing", "note", "GSI\u{202e}1"),
        ("Thi\u{200b}ng", "note", "GSI1"),
    ] {
        let err = import_nosql_workbench(&file(facet, attribute, index)).expect_err(facet);
        assert!(matches!(err, ImportError::HiddenCharacter { .. }), "{err}");
        let message = err.to_string();
        assert!(message.contains("nothing imported"), "{message}");
        assert!(!message.chars().any(is_hidden), "{message:?}");
    }
}

#[test]
fn an_embedded_model_with_hidden_free_text_is_rebuilt_not_written_raw() {
    let source = model_source("shown \u{202e}reversed");
    let model = monotable_model::parse(&source).expect("valid");
    let file = nosql_workbench(&model, &source, &[], &WorkbenchOptions::default()).expect("ok");
    let imported = monotable_export::import_nosql_workbench_detailed(&file).expect("imports");
    assert!(!imported.embedded);
    assert!(
        imported.warnings.iter().any(|w| w.contains("U+202E")),
        "{:?}",
        imported.warnings
    );
    assert!(!imported.source.chars().any(is_hidden_but_layout));
    let rebuilt = monotable_model::parse(&imported.source).expect("the rebuilt model is valid");
    assert!(rebuilt.entity("Thing").is_some());
}

fn is_hidden_but_layout(c: char) -> bool {
    is_hidden(c) && !matches!(c, '\n' | '\t')
}

fn arbitrary_text() -> impl Strategy<Value = String> {
    let hidden = prop::sample::select(vec![
        '\u{0}',
        '\u{7}',
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
    prop::collection::vec(any, 0..40).prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn no_format_holds_a_raw_hidden_character(text in arbitrary_text()) {
        for (name, output) in outputs(&text) {
            assert_clean(&name, &output);
        }
    }
}
