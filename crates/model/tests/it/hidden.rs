//! Names and key text that hold hidden characters (controls, bidirectional and invisible format
//! characters) are refused, each as one issue that names the character and quotes the name
//! escaped; free text (descriptions) is not refused.

use monotable_model::text::{escape, is_hidden};
use monotable_model::{IssueKind, parse};

/// A model in which `{}` in every place is replaced by `name` (as a TOML escape when it is one).
fn model(place: &str, name: &str) -> String {
    let base = r#"[table]
name = "Things"
partition_key = { name = "PK" }
sort_key = { name = "SK" }
ttl_attribute = "TTL"

[indexes.ByKind]
partition_key = { name = "GSI1PK" }
include = ["kind"]
projection = "INCLUDE"

[entities."ENTITY"]
description = "DESCRIPTION"
attributes."ATTRIBUTE" = { type = "string", required = true }
attributes.kind = { type = "enum", values = ["A", "ENUMVALUE"], required = true, default = "A" }
keys.PK = "THING#{ATTRIBUTE}LITERAL"
keys.SK = "THING"
keys.GSI1PK = "KIND#{kind}"

[patterns."PATTERN"]
operation = "GetItem"
key = { PK = "THING#{ATTRIBUTE}CONDITION", SK = "THING" }
returns = ["ENTITY"]

[traffic.entities."ENTITY"]
writes_per_second = 1
"#;
    let mut text = base.to_string();
    for p in [
        "ENTITY",
        "DESCRIPTION",
        "ATTRIBUTE",
        "ENUMVALUE",
        "LITERAL",
        "CONDITION",
        "PATTERN",
    ] {
        let with = if p == place { name } else { "" };
        let fill = match p {
            "ENTITY" => format!("Thing{with}"),
            "ATTRIBUTE" => format!("id{with}"),
            "PATTERN" => format!("getThing{with}"),
            "ENUMVALUE" => format!("B{with}"),
            "LITERAL" | "CONDITION" => "#X".to_string() + with,
            _ => format!("text{with}"),
        };
        text = text.replace(p, &fill);
    }
    text
}

const HIDDEN: [(&str, &str); 7] = [
    ("\\u001b[31m", "U+001B"),
    ("\\u001b]0;owned\\u0007", "U+001B"),
    ("\\u009b2J", "U+009B"),
    ("\\u007f", "U+007F"),
    ("\u{202e}", "U+202E"),
    ("\u{2066}", "U+2066"),
    ("\u{200b}", "U+200B"),
];

#[test]
fn every_kind_of_name_with_a_hidden_character_is_one_issue() {
    // Attribute names are also template variables, refused there as not identifiers; a name in
    // the model is refused once, as holding a hidden character.
    for place in [
        "ENTITY",
        "ATTRIBUTE",
        "ENUMVALUE",
        "LITERAL",
        "CONDITION",
        "PATTERN",
    ] {
        for (text, code) in HIDDEN {
            let source = model(place, text);
            let err = parse(&source).expect_err(place);
            let hidden: Vec<_> = err
                .issues
                .iter()
                .filter(|i| i.kind == IssueKind::HiddenCharacter)
                .collect();
            assert!(!hidden.is_empty(), "{place} {text}: {err:?}");
            assert_eq!(hidden.len(), err.issues.len(), "{place} {text}: {err:?}");
            for issue in &err.issues {
                assert!(issue.message.contains(code), "{}", issue.message);
                assert!(!issue.message.chars().any(is_hidden), "{:?}", issue.message);
                assert!(issue.span.is_some());
                assert!(issue.help.as_deref().unwrap_or("").contains("control"));
            }
        }
    }
}

#[test]
fn one_mistake_is_one_issue_naming_what_it_is() {
    let err = parse(&model("ENTITY", "\\u001b[31m")).expect_err("hidden");
    // The entity, its traffic and the pattern returning it each name it.
    let messages: Vec<&str> = err.issues.iter().map(|i| i.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "entity name `Thing\\u{1b}[31m` holds U+001B at character 6: a control character, which a terminal reads as part of an escape sequence",
            "entity name `Thing\\u{1b}[31m` holds U+001B at character 6: a control character, which a terminal reads as part of an escape sequence",
            "entity name `Thing\\u{1b}[31m` holds U+001B at character 6: a control character, which a terminal reads as part of an escape sequence",
        ]
    );
    let err = parse(&model("PATTERN", "\u{202e}")).expect_err("hidden");
    assert_eq!(err.issues.len(), 1, "{err:?}");
    assert!(
        err.issues[0].message.starts_with(
            "pattern name `getThing\\u{202e}` holds U+202E at character 9: a bidirectional control"
        ),
        "{err:?}"
    );
}

#[test]
fn free_text_and_visible_names_are_not_refused() {
    assert!(parse(&model("", "")).is_ok());
    // A description is free text: a renderer escapes it.
    assert!(parse(&model("DESCRIPTION", "\\u001b[31m\u{202e}")).is_ok());
    for visible in ["é", "Ü", "中文", "😀", "_-.", "\u{a0}"] {
        assert!(parse(&model("ENUMVALUE", visible)).is_ok(), "{visible}");
    }
}

#[test]
fn names_outside_entities_are_refused_too() {
    let base = model("", "");
    for (from, to, what) in [
        ("name = \"PK\"", "name = \"P\\u001bK\"", "key attribute"),
        (
            "ttl_attribute = \"TTL\"",
            "ttl_attribute = \"T\\u0085\"",
            "ttl_attribute",
        ),
        (
            "include = [\"kind\"]",
            "include = [\"ki\\u200dnd\"]",
            "attribute name",
        ),
        ("default = \"A\"", "default = \"A\\u001b\"", "default"),
        (
            "[traffic.entities.\"Thing\"]",
            "[traffic.entities.\"Thi\\u2028ng\"]",
            "entity name",
        ),
    ] {
        let source = base.replace(from, to);
        assert_ne!(source, base, "{from}");
        let err = parse(&source).expect_err(what);
        assert!(
            err.issues
                .iter()
                .all(|i| i.kind == IssueKind::HiddenCharacter),
            "{err:?}"
        );
        assert!(
            err.issues[0].message.starts_with(&format!("{what} `")),
            "{err:?}"
        );
        assert!(!escape(&err.issues[0].message).contains('\u{1b}'));
    }
}
