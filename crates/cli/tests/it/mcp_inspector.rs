//! `monotable mcp` driven by a second real client: the MCP Inspector's CLI mode
//! (`@modelcontextprotocol/inspector --cli`, pinned in scripts/mcp-inspector and installed there
//! by scripts/test.sh with `npm ci`). It lists the tools, with their schemas, and calls each one;
//! each answer is held to what the command of its name prints, or to the values it must hold.
//! The Inspector types each `--tool-arg key=value` by the tool's input schema, and its client
//! validates each structured answer against the tool's output schema.
//!
//! Needs Node.js and the Inspector at scripts/mcp-inspector/node_modules/.bin/mcp-inspector (or
//! its path in `MCP_INSPECTOR`); without them the test fails with instructions rather than
//! passing.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_monotable");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The Inspector's launcher.
fn inspector() -> PathBuf {
    let path = std::env::var_os("MCP_INSPECTOR").map_or_else(
        || root().join("scripts/mcp-inspector/node_modules/.bin/mcp-inspector"),
        PathBuf::from,
    );
    assert!(
        path.exists(),
        "the MCP Inspector is not installed at {}: run `bash scripts/test.sh`, or `npm ci` in \
         scripts/mcp-inspector, or give its path in MCP_INSPECTOR",
        path.display()
    );
    path
}

/// The Inspector's JSON answer to `--method METHOD ARGS...`, the server being `monotable mcp
/// --root <workspace>`.
fn inspect(method: &str, args: &[String]) -> Value {
    let root = root();
    let out = Command::new(inspector())
        .arg("--cli")
        .arg(BIN)
        .args(["mcp", "--root"])
        .arg(&root)
        .args(["--method", method])
        .args(args)
        .current_dir(&root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{method} {args:?}: {stderr}");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{method} {args:?}: {e}: {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// `tools/call` of `tool` with `key=value` arguments.
fn call(tool: &str, args: &[&str]) -> Value {
    let mut words = vec!["--tool-name".to_string(), tool.to_string()];
    for arg in args {
        words.push("--tool-arg".to_string());
        words.push((*arg).to_string());
    }
    inspect("tools/call", &words)
}

/// The structured answer of a call that must succeed; its text block holds the same JSON.
fn answer(tool: &str, args: &[&str]) -> Value {
    let result = call(tool, args);
    assert_eq!(result["isError"], false, "{tool}: {result}");
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        floats(text),
        floats(result["structuredContent"].clone()),
        "{tool}"
    );
    floats(result["structuredContent"].clone())
}

/// What `monotable ARGS` prints, run in the workspace.
fn cli(args: &[&str]) -> String {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn cli_json(args: &[&str]) -> Value {
    floats(serde_json::from_str(&cli(args)).unwrap())
}

/// Every number as a float: JavaScript writes the float `4.0` as `4`, so the Inspector's answer
/// and the command's document are compared as numbers.
fn floats(v: Value) -> Value {
    match v {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        Value::Array(a) => Value::Array(a.into_iter().map(floats).collect()),
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, x)| (k, floats(x))).collect()),
        other => other,
    }
}

const FAIL: &str = "crates/check/tests/fixtures/MT001/fail.toml";
const PASS: &str = "crates/check/tests/fixtures/MT001/pass.toml";
const SHOP: &str = "examples/shop/shop.toml";
const NATIVE: &str = "examples/shop/shop-native.toml";
const AWS: &str = "crates/export/tests/fixtures/aws-mcp/user_registration_schema.json";

fn tools_are_listed_with_their_schemas() {
    let listed = inspect("tools/list", &[]);
    let tools = listed["tools"].as_array().unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "check",
            "cost",
            "diff",
            "explain",
            "export",
            "import_aws_mcp",
            "render_keys",
            "sample_items",
            "schema",
            "verify",
        ]
    );
    for tool in tools {
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        assert_eq!(tool["outputSchema"]["type"], "object", "{tool}");
    }
}

/// The tools whose answer is a command's `--format json` document: equal to it.
fn documents_equal_the_commands() {
    let path = |p: &str| format!("path={p}");
    assert_eq!(
        answer("check", &[&path(FAIL)]),
        cli_json(&["check", FAIL, "--format", "json"])
    );
    assert_eq!(
        answer("cost", &[&path(SHOP)]),
        cli_json(&["cost", SHOP, "--format", "json"])
    );
    // Options typed by the input schema, each answer checked against `cost`'s output schema
    // (one of three shapes) by the Inspector's client.
    assert_eq!(
        answer("cost", &[&path(SHOP), &format!("compare_path={NATIVE}")]),
        cli_json(&["cost", SHOP, "--compare", NATIVE, "--format", "json"])
    );
    assert_eq!(
        answer("cost", &[&path(SHOP), "cross_check=true", "seed=3"]),
        cli_json(&[
            "cost",
            SHOP,
            "--cross-check",
            "--seed",
            "3",
            "--format",
            "json"
        ])
    );
    let diff = answer(
        "diff",
        &[&format!("old_path={FAIL}"), &format!("new_path={PASS}")],
    );
    assert_eq!(diff, cli_json(&["diff", FAIL, PASS, "--format", "json"]));
    let verified = answer("verify", &[&path(PASS), "seed=3"]);
    assert_eq!(
        verified,
        cli_json(&["verify", PASS, "--seed", "3", "--format", "json"])
    );
    assert_eq!(verified["passed"], true);
    let exported = answer("export", &[&path(SHOP), "format=create-table"]);
    assert_eq!(exported["format"], "create-table");
    assert_eq!(
        exported["text"],
        cli(&["export", SHOP, "--format", "create-table"])
    );
}

fn the_other_tools_answer_what_they_must() {
    let explained = answer("explain", &["code=MT005"]);
    assert_eq!(explained["rule"], "key-collision");
    let keys = answer(
        "render_keys",
        &[
            &format!("path={PASS}"),
            "entity=User",
            r#"values={"userId": "u1"}"#,
        ],
    );
    assert_eq!(keys["primary_key"]["PK"], "USER#u1");
    assert_eq!(keys["primary_key"]["SK"], "PROFILE");
    let samples = answer(
        "sample_items",
        &[&format!("path={SHOP}"), "entity=Order", "count=2", "seed=7"],
    );
    assert_eq!(samples["seed"], 7.0);
    let items = samples["items"].as_array().unwrap();
    assert_eq!(items.len(), 2, "{samples}");
    assert!(items.iter().all(|i| i["entity"] == "Order"), "{samples}");
    let schema = answer("schema", &[]);
    assert_eq!(schema["schema"]["title"], "monotable model");
    let imported = answer("import_aws_mcp", &[&format!("path={AWS}")]);
    assert_eq!(imported["format"], "schema.json");
    assert_eq!(imported["table"], "Users");
    assert_eq!(
        imported["unmapped"].as_array().unwrap().len(),
        4,
        "{imported}"
    );
    assert_eq!(
        imported["model"],
        cli(&["import", "--from", "aws-mcp", AWS])
    );
    let refused = call("check", &["path=../outside.toml"]);
    assert_eq!(refused["isError"], true, "{refused}");
    let message = refused["content"][0]["text"].as_str().unwrap();
    assert!(message.contains("outside the root"), "{message}");
}

#[test]
fn the_inspector_lists_the_tools_and_calls_each_one() {
    // Three clients at a time: each call starts Node.js and a server.
    std::thread::scope(|s| {
        s.spawn(tools_are_listed_with_their_schemas);
        s.spawn(documents_equal_the_commands);
        s.spawn(the_other_tools_answer_what_they_must);
    });
}
