//! `monotable mcp` as an agent runs it: the binary spawned, driven over its stdio by the official
//! `rmcp` client. For every model under crates/check/tests/fixtures, `check`, `cost` and `verify`
//! answer exactly what `monotable check|cost|verify --format json` prints; `diff` what `monotable
//! diff` prints for each rule's failing and passing pair; `export` what `monotable export` prints
//! in each format for each rule's passing model and the shop's; `cost`, `diff` and `export` with
//! the commands' options what the commands print with those flags. Malformed JSON-RPC lines
//! written by hand get a JSON-RPC error and the server keeps serving.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_monotable");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every fixture model, relative to the workspace root, sorted.
fn fixtures() -> Vec<String> {
    let mut out = Vec::new();
    let dir = root().join("crates/check/tests/fixtures");
    for rule in std::fs::read_dir(&dir).unwrap() {
        let rule = rule.unwrap().path();
        for file in std::fs::read_dir(&rule).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_some_and(|e| e == "toml") {
                let relative = file.strip_prefix(root()).unwrap();
                out.push(relative.to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    assert!(out.len() > 100, "{} fixtures", out.len());
    out
}

/// The binary's `mcp --root` (the workspace) with an `rmcp` client on its stdio.
async fn spawn() -> RunningService<RoleClient, ()> {
    let root = root().canonicalize().unwrap();
    let command = tokio::process::Command::new(BIN).configure(|c| {
        c.arg("mcp").arg("--root").arg(&root).stderr(Stdio::null());
    });
    ().serve(TokioChildProcess::new(command).unwrap())
        .await
        .unwrap()
}

/// The CLI's JSON document for `args`, run in the workspace root.
fn cli_json(args: &[&str]) -> Value {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// `tool`'s structured answer, or its error message as `Err`.
async fn mcp(
    client: &RunningService<RoleClient, ()>,
    tool: &'static str,
    args: Value,
) -> Result<Value, String> {
    let Value::Object(args) = args else {
        panic!("object")
    };
    let result = client
        .call_tool(CallToolRequestParams::new(tool).with_arguments(args))
        .await
        .map_err(|e| e.to_string())?;
    if result.is_error == Some(true) {
        let text = result
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone());
        return Err(text.unwrap_or_default());
    }
    Ok(result.structured_content.unwrap_or_default())
}

#[tokio::test]
async fn check_and_cost_over_mcp_equal_the_cli_for_every_fixture() {
    let client = spawn().await;
    for path in fixtures() {
        let cli = cli_json(&["check", "--format", "json", &path]);
        let answer = mcp(&client, "check", json!({ "path": path }))
            .await
            .unwrap();
        assert_eq!(answer, cli, "check {path}");

        let cli = cli_json(&["cost", "--format", "json", &path]);
        match mcp(&client, "cost", json!({ "path": path })).await {
            Ok(answer) => assert_eq!(answer, cli, "cost {path}"),
            // An invalid model: the CLI's `{"file", "error"}`, a tool error here.
            Err(message) => {
                assert!(
                    cli.get("error").is_some(),
                    "cost {path}: {message} but the CLI: {cli}"
                );
                assert!(message.contains("is not a valid model"), "{message}");
            }
        }
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn verify_over_mcp_equals_the_cli_for_every_fixture() {
    let client = spawn().await;
    for path in fixtures() {
        let cli = cli_json(&["verify", "--format", "json", &path]);
        match mcp(&client, "verify", json!({ "path": path })).await {
            Ok(answer) => assert_eq!(answer, cli, "verify {path}"),
            Err(message) => {
                let cli_error = cli
                    .get("error")
                    .and_then(Value::as_str)
                    .unwrap_or_else(|| panic!("verify {path}: {message} but the CLI: {cli}"));
                assert!(
                    message.contains(cli_error) || message.contains("is not a valid model"),
                    "{message} / {cli_error}"
                );
            }
        }
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn diff_over_mcp_equals_the_cli_for_each_rules_pair() {
    let client = spawn().await;
    for fail in fixtures().iter().filter(|p| p.ends_with("/fail.toml")) {
        let pass = fail.replace("/fail.toml", "/pass.toml");
        let cli = cli_json(&["diff", "--format", "json", fail, &pass]);
        let answer = mcp(
            &client,
            "diff",
            json!({ "old_path": fail, "new_path": pass }),
        )
        .await;
        match answer {
            Ok(answer) => assert_eq!(answer, cli, "diff {fail}"),
            Err(message) => assert!(cli.get("error").is_some(), "diff {fail}: {message} / {cli}"),
        }
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn export_over_mcp_equals_the_cli_in_every_format() {
    let client = spawn().await;
    let mut models: Vec<String> = fixtures()
        .into_iter()
        .filter(|p| p.ends_with("/pass.toml"))
        .collect();
    models.extend([
        "examples/shop/shop.toml".into(),
        "examples/shop/shop-native.toml".into(),
    ]);
    for path in &models {
        for format in ["create-table", "cloudformation", "sam", "markdown"] {
            let out = Command::new(BIN)
                .args(["export", path, "--format", format])
                .current_dir(root())
                .output()
                .unwrap();
            let args = json!({ "path": path, "format": format });
            match mcp(&client, "export", args).await {
                Ok(answer) => {
                    assert!(out.status.success(), "{path} {format}");
                    let cli = String::from_utf8(out.stdout).unwrap();
                    assert_eq!(
                        answer["text"].as_str(),
                        Some(cli.as_str()),
                        "{path} {format}"
                    );
                }
                Err(message) => assert!(!out.status.success(), "{path} {format}: {message}"),
            }
        }
    }
    client.cancel().await.unwrap();
}

/// `base` with `options`' fields added.
fn with(mut base: Value, options: Value) -> Value {
    let Value::Object(options) = options else {
        panic!("object")
    };
    base.as_object_mut().unwrap().extend(options);
    base
}

#[tokio::test]
async fn the_commands_options_over_mcp_equal_the_cli() {
    let client = spawn().await;
    let (shop, native) = ("examples/shop/shop.toml", "examples/shop/shop-native.toml");
    let prices = "crates/check/data/prices.toml";
    let costs = [
        (vec!["--prices", prices], json!({ "prices": prices })),
        (vec!["--compare", native], json!({ "compare_path": native })),
        (
            vec!["--cross-check", "--seed", "3"],
            json!({ "cross_check": true, "seed": 3 }),
        ),
    ];
    for (flags, options) in costs {
        let mut args = vec!["cost", "--format", "json", shop];
        args.extend(flags);
        let answer = mcp(&client, "cost", with(json!({ "path": shop }), options)).await;
        assert_eq!(answer.unwrap(), cli_json(&args), "{args:?}");
    }
    let items = ["--items", "1000,Order=250000"];
    let cli = cli_json(&[&["diff", "--format", "json", shop, native][..], &items].concat());
    let sides = json!({ "old_path": shop, "new_path": native, "items": ["1000", "Order=250000"] });
    assert_eq!(mcp(&client, "diff", sides).await.unwrap(), cli);
    let exports = [
        (
            vec!["--format", "nosql-workbench", "--seed", "5"],
            json!({ "format": "nosql-workbench", "seed": 5 }),
        ),
        (
            vec!["--format", "sam", "--function", "Shop", "--handler", "main"],
            json!({ "format": "sam", "function": "Shop", "handler": "main" }),
        ),
        (
            vec![
                "--format",
                "sam",
                "--function",
                "Shop",
                "--architecture",
                "arm64",
                "--code-uri",
                "dist",
            ],
            json!({ "format": "sam", "function": "Shop", "architecture": "arm64", "code_uri": "dist" }),
        ),
    ];
    for (flags, options) in exports {
        let out = Command::new(BIN)
            .args([&["export", shop][..], &flags].concat())
            .current_dir(root())
            .output()
            .unwrap();
        assert!(out.status.success(), "{flags:?}");
        let answer = mcp(&client, "export", with(json!({ "path": shop }), options)).await;
        let cli = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            answer.unwrap()["text"].as_str(),
            Some(cli.as_str()),
            "{flags:?}"
        );
    }
    client.cancel().await.unwrap();
}

/// Sends `line` and returns the next answer line with JSON-RPC `id` (`Value::Null` for a
/// parse error's), skipping notifications.
fn exchange(
    stdin: &mut impl Write,
    lines: &mpsc::Receiver<String>,
    line: &str,
    id: &Value,
) -> Value {
    writeln!(stdin, "{line}").unwrap();
    stdin.flush().unwrap();
    loop {
        // A guard against a hung server, not a measurement.
        let text = lines
            .recv_timeout(Duration::from_secs(120))
            .expect("the server answers");
        let message: Value = serde_json::from_str(&text).unwrap();
        if message.get("id").unwrap_or(&Value::Null) == id && message.get("method").is_none() {
            return message;
        }
    }
}

#[test]
fn malformed_json_rpc_gets_an_error_and_the_server_keeps_serving() {
    let mut child = Command::new(BIN)
        .args(["mcp", "--root"])
        .arg(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
    let answer = exchange(&mut stdin, &lines, init, &json!(1));
    assert_eq!(
        answer["result"]["serverInfo"]["name"], "monotable",
        "{answer}"
    );
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .unwrap();

    let mut id = 100;
    let mut still_serves = |stdin: &mut std::process::ChildStdin| {
        id += 1;
        let list = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#);
        let answer = exchange(stdin, &lines, &list, &json!(id));
        assert!(
            answer["result"]["tools"]
                .as_array()
                .is_some_and(|t| t.len() == 10),
            "{answer}"
        );
    };
    for garbage in ["{not json", "[1, 2", "\"just a string\"", "{\"foo\": 1}"] {
        let answer = exchange(&mut stdin, &lines, garbage, &Value::Null);
        assert_eq!(answer["error"]["code"], -32700, "{garbage}: {answer}");
        still_serves(&mut stdin);
    }
    // A message over MAX_MESSAGE_BYTES: cut short and answered as a parse error, its rest
    // dropped, never held whole.
    let huge_model = "#".repeat(monotable_mcp::MAX_MESSAGE_BYTES);
    let huge = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": {"name": "check", "arguments": {"model": huge_model}}});
    let answer = exchange(&mut stdin, &lines, &huge.to_string(), &Value::Null);
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    still_serves(&mut stdin);
    // A message within it but a model over MAX_MODEL_BYTES: a tool error naming the limit.
    let big_model = "#".repeat(monotable_mcp::MAX_MODEL_BYTES + 1);
    let big = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": {"name": "check", "arguments": {"model": big_model}}});
    let answer = exchange(&mut stdin, &lines, &big.to_string(), &json!(9));
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert!(answer.to_string().contains("MAX_MODEL_BYTES"), "{answer}");
    still_serves(&mut stdin);
    // A method the server does not have: a JSON-RPC error.
    let line = r#"{"jsonrpc":"2.0","id":7,"method":"no/such/method"}"#;
    let answer = exchange(&mut stdin, &lines, line, &json!(7));
    assert_eq!(answer["error"]["code"], -32601, "{line}: {answer}");
    still_serves(&mut stdin);
    // A wrong argument type or an unknown tool: an error naming it, as a JSON-RPC error or a
    // tool error (`isError`).
    for (line, needle) in [
        (
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"check","arguments":{"model":5}}}"#,
            "expected a string",
        ),
        (
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"export","arguments":{"model":"x","format":"yaml"}}}"#,
            "yaml",
        ),
        (
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#,
            "tool not found",
        ),
    ] {
        let answer = exchange(&mut stdin, &lines, line, &json!(7));
        let refused = answer["error"]["code"] == -32602 || answer["result"]["isError"] == true;
        assert!(refused, "{line}: {answer}");
        assert!(
            answer.to_string().contains(needle),
            "{needle} not in {answer}"
        );
        still_serves(&mut stdin);
    }
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
}
