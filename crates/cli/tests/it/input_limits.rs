//! Every command that reads a file refuses one past its limit, and a source that never ends,
//! with the limit and the file named: a file just over the limit, and standard input fed
//! forever (`/dev/stdin` as the path) by a writer that stops when the command hangs up.

use crate::common;

use std::io::Write;
use std::process::{Output, Stdio};

use common::{monotable, run};

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const MODEL_LIMIT: &str = "it is larger than 16 MiB (16,777,216 bytes), the most a model may hold";

/// A model file one byte over the limit: a valid model padded with a comment.
fn oversized_model(dir: &std::path::Path) -> std::path::PathBuf {
    let mut text = std::fs::read_to_string(root().join("examples/shop/shop.toml")).expect("shop");
    text.push('#');
    let pad = monotable_model::limits::MAX_SOURCE_BYTES + 1 - text.len();
    text.push_str(&"x".repeat(pad));
    let path = dir.join("big.toml");
    std::fs::write(&path, text).expect("write");
    path
}

/// Runs `args` with standard input fed `head` and then `chunk` forever.
fn endless(args: &[&str], head: &'static [u8], chunk: &'static [u8]) -> Output {
    let mut child = monotable()
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run monotable");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        if stdin.write_all(head).is_err() {
            return;
        }
        // Until the command exits and the pipe breaks.
        while stdin.write_all(chunk).is_ok() {}
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn every_command_refuses_a_model_over_the_limit_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let big = oversized_model(dir.path());
    let big = big.to_str().expect("utf-8 path");
    let shop = "examples/shop/shop.toml";
    for args in [
        vec!["check", big],
        vec!["cost", big],
        vec!["cost", shop, "--compare", big],
        vec!["export", "--format", "create-table", big],
        vec!["verify", big],
        vec!["diff", shop, big],
        vec!["load", shop, "--traffic", big],
    ] {
        let out = run(&args, &root());
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains(MODEL_LIMIT), "{args:?}: {err}");
        assert!(err.contains("big.toml"), "{args:?} names the file: {err}");
    }
}

#[test]
fn check_refuses_an_endless_model_in_either_format() {
    let out = endless(&["check", "/dev/stdin"], b"", &[b'#'; 65536]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("cannot read model /dev/stdin: {MODEL_LIMIT}")),
        "{err}"
    );
    let out = endless(
        &["check", "--format", "json", "/dev/stdin"],
        b"",
        &[b'#'; 65536],
    );
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    let message = doc["diagnostics"][0]["message"]
        .as_str()
        .unwrap_or_default();
    assert_eq!(doc["diagnostics"][0]["code"], "MT000");
    assert!(message.contains(MODEL_LIMIT), "{message}");
}

#[test]
fn an_endless_price_table_is_refused() {
    let out = endless(
        &["cost", "--prices", "/dev/stdin", "examples/shop/shop.toml"],
        b"",
        &[b'#'; 65536],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("cannot read price table /dev/stdin: it is larger than 1 MiB (1,048,576 bytes), the most a price table may hold"),
        "{err}"
    );
}

#[test]
fn an_endless_workbench_file_is_refused_at_its_limit() {
    // Valid JSON so far, forever: the import reads it as a stream up to the limit.
    let out = endless(
        &["import", "--from", "nosql-workbench", "/dev/stdin"],
        b"{\"DataModel\": [",
        &[b' '; 65536],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("cannot import /dev/stdin: cannot read it: it is larger than 256 MiB (268,435,456 bytes), the most a NoSQL Workbench file may hold"),
        "{err}"
    );
}

#[test]
fn a_workbench_file_with_more_facets_than_a_model_holds_is_refused() {
    let facet = r#"{"FacetName": "F", "KeyAttributeAlias": {"PartitionKeyAlias": "USER#{id}", "SortKeyAlias": "{sk}"}}"#;
    let facets = vec![facet; monotable_model::limits::MAX_ENTITIES + 1].join(",");
    let doc = format!(
        r#"{{"DataModel": [{{"TableName": "T", "KeyAttributes": {{"PartitionKey": {{"AttributeName": "PK", "AttributeType": "S"}}}}, "TableFacets": [{facets}]}}]}}"#
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("facets.json");
    std::fs::write(&path, doc).expect("write");
    let out = run(
        &[
            "import",
            "--from",
            "nosql-workbench",
            path.to_str().expect("utf-8"),
        ],
        &root(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("facets.json: it lists more than 20,000 facets (`TableFacets`, one entity type each), the most a monotable model can hold"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing written");
}

#[test]
fn an_aws_mcp_file_past_its_limit_or_endless_is_refused() {
    let limit = "it is larger than 4 MiB (4,194,304 bytes), the most a JSON data model of the AWS MCP server may hold";
    let out = endless(
        &["import", "--from", "aws-mcp", "/dev/stdin"],
        b"{\"tables\": [",
        &[b' '; 65536],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("cannot read /dev/stdin: {limit}")),
        "{err}"
    );
    // One byte over: valid JSON padded with spaces.
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("big.json");
    let head = r#"{"tables": [{"table_config": {"table_name": "Things", "partition_key": "pk"}}]}"#;
    let pad = monotable_export::aws_mcp::MAX_AWS_MCP_BYTES + 1 - head.len();
    std::fs::write(&path, format!("{head}{}", " ".repeat(pad))).expect("write");
    let out = run(
        &["import", "--from", "aws-mcp", path.to_str().expect("utf-8")],
        &root(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains(limit), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "nothing written");
}
