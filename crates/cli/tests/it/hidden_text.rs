//! No command prints a raw escape sequence: with names holding ESC, OSC, C1 and bidirectional
//! controls (refused, MT000, and quoted escaped), with the same characters in free text and in
//! the file's own name (escaped), and with a NoSQL Workbench file or a price file holding them
//! (refused), stdout and stderr of check, cost, verify, diff, export and import hold no hidden
//! character but newline and tab, and their JSON stays JSON.

use crate::common;

use std::path::Path;
use std::process::Output;

use common::run;
use monotable_model::text::is_hidden;

/// ESC [ (colour), OSC 0 (window title, BEL-terminated), OSC 52 (clipboard), C1 CSI, RLO.
const NASTY: &str =
    "\\u001b[31m\\u001b]0;owned\\u0007\\u001b]52;c;ZXZpbA==\\u001b\\\\\\u009b2J\u{202e}";

fn model(entity: &str, description: &str) -> String {
    format!(
        r#"[table]
name = "Things"
partition_key = {{ name = "PK" }}
sort_key = {{ name = "SK" }}

[entities."{entity}"]
description = "{description}"
attributes.id = {{ type = "string", required = true }}
attributes.kind = {{ type = "enum", values = ["A", "B"], required = true }}
keys.PK = "THING#{{id}}"
keys.SK = "THING"

[patterns.getThing]
description = "{description}"
operation = "GetItem"
key = {{ PK = "THING#{{id}}", SK = "THING" }}
returns = ["{entity}"]
"#
    )
}

/// The output holds no hidden character but newline and tab; `json` output parses.
fn clean(what: &str, out: &Output, json: bool) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        let raw: Vec<char> = text
            .chars()
            .filter(|c| is_hidden(*c) && !matches!(c, '\n' | '\t'))
            .collect();
        assert!(raw.is_empty(), "{what}: {stream} holds {raw:?}:\n{text}");
    }
    if json {
        let stdout = String::from_utf8_lossy(&out.stdout);
        serde_json::from_str::<serde_json::Value>(&stdout)
            .unwrap_or_else(|e| panic!("{what}: stdout is not JSON ({e}):\n{stdout}"));
    }
}

fn each_command(dir: &Path, file: &str, other: &str) -> Vec<(String, Output, bool)> {
    let commands: [(&[&str], bool); 10] = [
        (&["check", file], false),
        (&["check", file, "--format", "json"], true),
        (&["cost", file], false),
        (&["cost", file, "--format", "json"], true),
        (&["verify", file], false),
        (&["verify", file, "--format", "json"], true),
        (&["export", file, "--format", "markdown"], false),
        (&["export", file, "--format", "sam"], false),
        (&["diff", other, file], false),
        (&["diff", file, other, "--format", "json"], true),
    ];
    commands
        .into_iter()
        .map(|(args, json)| (args.join(" "), run(args, dir), json))
        .collect()
}

#[test]
fn names_with_escape_sequences_are_refused_and_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.toml"),
        model(&format!("Thing{NASTY}"), "x"),
    )
    .unwrap();
    std::fs::write(dir.path().join("good.toml"), model("Thing", "x")).unwrap();
    for (what, out, json) in each_command(dir.path(), "bad.toml", "good.toml") {
        clean(&what, &out, json && what.starts_with("check"));
        assert!(!out.status.success(), "{what} accepted a name with ESC");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains("MT000") || text.contains("invalid model"),
            "{what}: {text}"
        );
        assert!(
            text.contains("\\u{1b}[31m") || text.contains("\\u001b[31m"),
            "{what}: {text}"
        );
    }
}

#[test]
fn free_text_and_file_names_with_escape_sequences_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let file = "mo\u{1b}]0;x\u{7}del.toml";
    std::fs::write(dir.path().join(file), model("Thing", NASTY)).unwrap();
    std::fs::write(dir.path().join("good.toml"), model("Thing", "x")).unwrap();
    for (what, out, json) in each_command(dir.path(), file, "good.toml") {
        clean(&what, &out, json);
        assert!(
            out.status.success() || what.starts_with("diff"),
            "{what}: {out:?}"
        );
    }
    // Exported for NoSQL Workbench and imported back: no raw character on the way.
    let out = run(
        &[
            "export",
            file,
            "--format",
            "nosql-workbench",
            "-o",
            "wb.json",
        ],
        dir.path(),
    );
    clean("export nosql-workbench", &out, false);
    assert!(out.status.success(), "{out:?}");
    let exported = std::fs::read_to_string(dir.path().join("wb.json")).unwrap();
    assert!(!exported.chars().any(|c| is_hidden(c) && c != '\n'));
    let out = run(
        &["import", "--from", "nosql-workbench", "wb.json"],
        dir.path(),
    );
    clean("import", &out, false);
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn a_workbench_file_or_price_file_with_escape_sequences_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let workbench = serde_json::json!({
        "ModelName": "M",
        "DataModel": [{
            "TableName": "Things",
            "KeyAttributes": { "PartitionKey": { "AttributeName": "PK", "AttributeType": "S" } },
            "TableFacets": [{
                "FacetName": "Thing\u{1b}]0;owned\u{7}",
                "KeyAttributeAlias": { "PartitionKeyAlias": "THING\u{9b}2J" },
                "TableData": []
            }]
        }]
    });
    std::fs::write(dir.path().join("wb.json"), workbench.to_string()).unwrap();
    let out = run(
        &[
            "import",
            "--from",
            "nosql-workbench",
            "wb.json",
            "-o",
            "m.toml",
        ],
        dir.path(),
    );
    clean("import", &out, false);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("nothing imported"),
        "{out:?}"
    );
    assert!(!dir.path().join("m.toml").exists());
    std::fs::write(dir.path().join("good.toml"), model("Thing", "x")).unwrap();
    std::fs::write(
        dir.path().join("prices.toml"),
        "region = \"us\\u001b]0;owned\\u0007\"\n",
    )
    .unwrap();
    let out = run(
        &["cost", "good.toml", "--prices", "prices.toml"],
        dir.path(),
    );
    clean("cost --prices", &out, false);
    assert!(!out.status.success());
}
