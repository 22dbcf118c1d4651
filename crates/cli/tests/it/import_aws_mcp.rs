//! `monotable import --from aws-mcp` as a user runs it: each example of the AWS DynamoDB MCP
//! server (crates/export/tests/fixtures/aws-mcp) imported, and the model it writes checked by
//! `monotable check` with no MT000; one warning line per part not mapped; malformed JSON refused
//! with its line and column, nothing written.

use std::path::{Path, PathBuf};

use crate::common::run;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../export/tests/fixtures/aws-mcp")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `import --from aws-mcp FILE [--table T] -o model.toml` in `dir`, then `check --format json` of
/// what it wrote: the import's stderr, and the check's MT000 count.
fn import_and_check(dir: &Path, file: &str, table: Option<&str>) -> (String, usize) {
    let path = fixtures().join(file);
    let mut args = vec![
        "import",
        "--from",
        "aws-mcp",
        path.to_str().unwrap(),
        "-o",
        "model.toml",
    ];
    if let Some(t) = table {
        args.extend(["--table", t]);
    }
    let _ = std::fs::remove_file(dir.join("model.toml"));
    let out = run(&args, dir);
    assert!(out.status.success(), "{file}: {}", text(&out.stderr));
    let check = run(&["check", "model.toml", "--format", "json"], dir);
    let doc: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    let mt000 = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "MT000")
        .count();
    (text(&out.stderr), mt000)
}

#[test]
fn every_example_imports_to_a_model_check_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("social_media_schema.json", None),
        ("user_analytics_schema.json", None),
        ("user_registration_schema.json", Some("EmailLookup")),
        ("package_delivery_schema.json", Some("Warehouses")),
        ("food_delivery_schema.json", None),
        ("cdk_complex_data_model.json", Some("OrderTable")),
        ("shop_data_model.json", None),
    ];
    for (file, table) in cases {
        let (stderr, mt000) = import_and_check(dir.path(), file, table);
        assert_eq!(mt000, 0, "{file}");
        for line in stderr.lines() {
            assert!(line.starts_with("warning: "), "{file}: {line}");
            assert!(line.contains(file), "{file}: {line}");
        }
    }
}

#[test]
fn each_part_not_mapped_is_one_warning_line_then_a_count() {
    let dir = tempfile::tempdir().unwrap();
    let (stderr, _) = import_and_check(dir.path(), "user_registration_schema.json", None);
    let lines: Vec<&str> = stderr.lines().collect();
    let file = fixtures().join("user_registration_schema.json");
    let file = file.to_str().unwrap();
    assert_eq!(lines.len(), 5, "{stderr}");
    assert_eq!(
        lines[0],
        format!(
            "warning: {file}: tables[1]: table `EmailLookup` is not imported: a monotable model is one table; import it with --table EmailLookup"
        )
    );
    assert!(
        lines[3].starts_with(&format!(
            "warning: {file}: cross_table_access_patterns[2]: "
        )),
        "{stderr}"
    );
    assert_eq!(
        lines[4],
        format!(
            "warning: {file}: 4 part(s) of schema.json were not mapped (listed above); table `Users` imported"
        )
    );
}

#[test]
fn malformed_json_is_an_error_with_its_line_and_column_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.json"), "{\n  \"tables\": [\n    {,\n").unwrap();
    // `--format` is another name of `--from`.
    let out = run(
        &[
            "import",
            "--format",
            "aws-mcp",
            "bad.json",
            "-o",
            "model.toml",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: cannot import bad.json: not JSON: key must be a string at line 3, column 6\n"
    );
    assert!(!dir.path().join("model.toml").exists());
}

#[test]
fn a_file_with_nothing_usable_lists_what_it_tried_then_fails() {
    let dir = tempfile::tempdir().unwrap();
    let doc = r#"{"tables": [{"table_config": {"table_name": "Things", "partition_key": "pk"},
        "entities": {"A": {"entity_type": "A", "pk_template": "A#{id", "fields": []}}}]}"#;
    std::fs::write(dir.path().join("a.json"), doc).unwrap();
    let out = run(&["import", "--from", "aws-mcp", "a.json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "warning: a.json: tables[0].entities.A.pk_template: `{` at character 3 is never closed; not imported",
            "warning: a.json: tables[0].entities.A: entity `A` has no usable `pk_template`; not imported",
            "error: cannot import a.json: nothing usable could be imported: no entity could be imported",
        ]
    );
}

#[test]
fn a_table_is_chosen_by_name_and_table_is_only_for_aws_mcp() {
    let dir = tempfile::tempdir().unwrap();
    let file = fixtures().join("user_registration_schema.json");
    let out = run(
        &[
            "import",
            "--from",
            "aws-mcp",
            file.to_str().unwrap(),
            "--table",
            "Nope",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).ends_with("no table `Nope` in it; its tables: Users, EmailLookup\n"));
    let out = run(
        &[
            "import",
            "--from",
            "nosql-workbench",
            file.to_str().unwrap(),
            "--table",
            "Users",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("--table is for --from aws-mcp"));
}
