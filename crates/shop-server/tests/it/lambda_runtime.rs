//! The shop on Lambda as AWS runs it: the `monotable-shop` binary in Lambda mode against a mock of
//! the Lambda Runtime API, with API Gateway HTTP API (payload 2.0) events, over a DynamoDB
//! endpoint (`monotable-shop serve`). The black-box contract client that checks `serve`'s HTTP API runs
//! unchanged against it through an API Gateway stand-in; an event API Gateway never sends is an
//! invocation error; an init failure is reported to the Runtime API; logs carry the request id
//! and no terminal colour.

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use monotable_test_support::gateway;
use monotable_test_support::runtime_api::{Posted, RuntimeApi, http_event};
use monotable_test_support::shop::{command, serve};

const SECRET: &str = "lambda-test-secret-0123456789";

/// The binary in Lambda mode against `runtime`, on the DynamoDB endpoint `dynamodb`.
fn function(runtime: &RuntimeApi, dynamodb: &str, extra: &[(&str, &str)]) -> Child {
    let mut cmd = command();
    cmd.env("AWS_LAMBDA_RUNTIME_API", &runtime.address)
        .env("AWS_LAMBDA_FUNCTION_NAME", "shop")
        .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
        .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
        .env("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/shop")
        .env("AWS_LAMBDA_LOG_STREAM_NAME", "2026/12/03/[$LATEST]test")
        .env("TABLE_NAME", "Shop")
        .env("MONOTABLE_CURSOR_SECRET", SECRET)
        .env("AWS_ENDPOINT_URL_DYNAMODB", dynamodb)
        .env("AWS_REGION", "us-east-1")
        .env("AWS_ACCESS_KEY_ID", "lambda")
        .env("AWS_SECRET_ACCESS_KEY", "lambda-secret")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in extra {
        cmd.env(k, v);
    }
    cmd.spawn().expect("start the function")
}

fn token(user: &str, admin: bool) -> String {
    let mut args = vec!["token", "--user", user];
    if admin {
        args.push("--admin");
    }
    let out = command()
        .args(&args)
        .env("MONOTABLE_JWT_SECRET", SECRET)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn finish(mut child: Child) -> String {
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn the_contract_client_passes_against_the_function_behind_api_gateway() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(&["--in-memory"], dir.path());
    let runtime = Arc::new(RuntimeApi::start());
    let child = function(&runtime, &served.url, &[]);
    let gateway = gateway::start(runtime.clone());
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/blackbox/shop_contract.py");
    let output = Command::new("python3")
        .arg(script)
        .env("SHOP_URL", &gateway)
        .env("ADMIN_TOKEN", token("root", true))
        .env("ALICE_TOKEN", token("alice", false))
        .env("BOB_TOKEN", token("bob", false))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let logs = finish(child);
    assert!(
        output.status.success(),
        "{stdout}\n{}\n{logs}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.trim_end().ends_with("passed, 0 failed"), "{stdout}");
    served.terminate();
}

#[test]
fn cognito_admins_are_admins_and_public_routes_need_no_claims() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(&["--in-memory"], dir.path());
    let runtime = RuntimeApi::start();
    let child = function(&runtime, &served.url, &[]);
    let cognito_admin = serde_json::json!({"sub": "root", "cognito:groups": "[admin]"});
    let product =
        serde_json::json!({"name": "Lamp", "category": "home", "price": "9.99", "published": true});
    let created = runtime.call(&http_event(
        "POST",
        "/products",
        Some(&product),
        Some(cognito_admin),
    ));
    let Posted::Response { body, .. } = created else {
        panic!("{created:?}")
    };
    assert_eq!(body["statusCode"], 201, "{body}");
    let listed = runtime.call(&http_event("GET", "/products?published=true", None, None));
    let Posted::Response { body, .. } = listed else {
        panic!("{listed:?}")
    };
    assert_eq!(body["statusCode"], 200, "{body}");
    finish(child);
    served.terminate();
}

#[test]
fn an_event_api_gateway_never_sends_is_an_invocation_error_and_logs_carry_the_request_id() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(&["--in-memory"], dir.path());
    let runtime = RuntimeApi::start();
    let child = function(&runtime, &served.url, &[("RUST_LOG", "info")]);
    let posted =
        runtime.call(&serde_json::json!({"Records": [{"eventSource": "aws:sqs", "body": "hi"}]}));
    assert!(matches!(posted, Posted::Error { .. }), "{posted:?}");
    // The function keeps serving after it.
    let ok = runtime.call(&http_event("GET", "/products?published=true", None, None));
    assert!(
        matches!(&ok, Posted::Response { body, .. } if body["statusCode"] == 200),
        "{ok:?}"
    );
    let id = match runtime.call(&http_event(
        "GET",
        "/users/alice",
        None,
        Some(serde_json::json!({"sub": "alice"})),
    )) {
        Posted::Response { id, .. } => id,
        other => panic!("{other:?}"),
    };
    let logs = finish(child);
    assert!(
        !logs.contains('\u{1b}'),
        "no terminal colour in Lambda logs: {logs:?}"
    );
    assert!(
        logs.contains(&id),
        "the request id {id} is in the logs: {logs}"
    );
    served.terminate();
}

#[test]
fn an_init_failure_is_posted_to_the_runtime_api_before_exiting() {
    // Lambda's own environment incomplete: reported by name, not a panic.
    let runtime = RuntimeApi::start();
    let mut cmd = command();
    cmd.env("AWS_LAMBDA_RUNTIME_API", &runtime.address)
        .env("MONOTABLE_CURSOR_SECRET", SECRET)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut child = cmd.spawn().unwrap();
    let posted = runtime
        .posted(Duration::from_secs(20))
        .expect("the failure was posted");
    let Posted::InitError { body, .. } = posted else {
        panic!("{posted:?}")
    };
    assert!(
        body["errorMessage"]
            .as_str()
            .unwrap()
            .contains("AWS_LAMBDA_FUNCTION_NAME"),
        "{body}"
    );
    assert!(!child.wait().unwrap().success());
    // The function's own settings wrong.
    let runtime = RuntimeApi::start();
    let mut child = function(
        &runtime,
        "http://127.0.0.1:9",
        &[("MONOTABLE_CURSOR_SECRET", "short")],
    );
    let posted = runtime
        .posted(Duration::from_secs(20))
        .expect("the failure was posted");
    let Posted::InitError { body, error_type } = posted else {
        panic!("{posted:?}")
    };
    assert!(
        body["errorMessage"]
            .as_str()
            .unwrap()
            .contains("MONOTABLE_CURSOR_SECRET"),
        "{body}"
    );
    assert_eq!(error_type.as_deref(), Some("Runtime.InitError"));
    let status = child.wait().unwrap();
    assert!(!status.success());
}
