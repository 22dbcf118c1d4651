//! `monotable serve --capacity`: DynamoDB's throughput limits on the embedded engine, a hot
//! partition key throttled as DynamoDB throttles it, and `GET /metrics` beside the DynamoDB
//! endpoint, in its error shape; the capacity flags checked before serving, for both programs
//! (`monotable-shop serve`'s API port is tested in crates/shop-server/tests/it/serve_capacity.rs).

use monotable_test_support::capacity::{
    metrics_name_the_hot_key, metrics_say_capacity_is_off, serve_at_scale_1000,
    serve_without_capacity, throttle_a_hot_key,
};
use monotable_test_support::{Program, dynamodb, get_text, http};

#[test]
fn a_hot_key_is_throttled_like_dynamodb_and_metrics_beside_the_endpoint_name_it() {
    let dir = tempfile::tempdir().unwrap();
    // The banner points at /metrics beside the endpoint.
    let served = serve_at_scale_1000(Program::Tool, dir.path(), |s| &s.url);
    throttle_a_hot_key(&served.url);
    let snapshot = metrics_name_the_hot_key(&served.url);
    let tables: Vec<&str> = snapshot["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .filter_map(|r| r["table"].as_str())
        .collect();
    assert!(
        tables.iter().all(|t| *t == "Hot"),
        "no table but the test's own: {snapshot}"
    );
    served.terminate();
}

#[test]
fn metrics_beside_the_endpoint_answer_without_capacity_in_dynamodbs_shape() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve_without_capacity(Program::Tool, dir.path());
    let metrics = format!(
        "metrics   {}/metrics   (capacity and throttles)",
        served.url
    );
    assert!(
        served.banner.iter().any(|l| l.trim() == metrics),
        "{:?}",
        served.banner
    );
    metrics_say_capacity_is_off(&served.url);
    for (method, path, status, error) in [
        ("GET", "/metrics?format=xml", 400, "invalid_query"),
        ("POST", "/metrics", 405, "method_not_allowed"),
    ] {
        let (got, body) = http(
            &served.url,
            method,
            path,
            &[],
            Some("{}").filter(|_| method == "POST"),
        )
        .unwrap();
        assert_eq!(got, status, "{method} {path}: {body}");
        let message = body["message"].as_str().unwrap_or_default();
        assert!(
            body["__type"].as_str().is_some() && message.starts_with(error),
            "{method} {path}: {body}"
        );
    }
    // The endpoint's guard covers /metrics: a foreign page is refused.
    let (status, _, text) = get_text(
        &served.url,
        "/metrics",
        &[("Origin", "http://evil.example")],
    );
    assert_eq!(status, 403, "{text}");
    // Beside it the endpoint is DynamoDB's, as without /metrics.
    let (status, body) = dynamodb::call(&served.url, "ListTables", &serde_json::json!({}));
    assert_eq!(
        (status, &body["TableNames"]),
        (200, &serde_json::json!([])),
        "{body}"
    );
    served.terminate();
}

#[test]
fn capacity_flags_are_checked_before_serving() {
    let dir = tempfile::tempdir().unwrap();
    for program in [Program::Tool, Program::Shop] {
        flags_checked(program, dir.path());
    }
}

/// `program serve`'s capacity flags (`monotable_cli_common::serve::EngineArgs`, the same in
/// both programs) refused as usage errors.
fn flags_checked(program: Program, dir: &std::path::Path) {
    let stderr = |args: &[&str]| {
        let output = program.run(args, dir);
        assert_eq!(output.status.code(), Some(2), "{} {args:?}", program.name());
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    // serve only ever runs the embedded engine: it takes no other backend to emulate.
    let err = stderr(&["serve", "--capacity", "--endpoint", "http://127.0.0.1:8000"]);
    assert!(err.contains("unexpected argument '--endpoint'"), "{err}");
    let err = stderr(&["serve", "--capacity", "--aws"]);
    assert!(err.contains("unexpected argument '--aws'"), "{err}");
    let err = stderr(&["serve", "--capacity-scale", "10"]);
    assert!(
        err.contains("required arguments were not provided") && err.contains("--capacity"),
        "{err}"
    );
    for bad in ["0", "-1", "inf", "NaN"] {
        let err = stderr(&["serve", "--capacity", &format!("--capacity-scale={bad}")]);
        assert!(
            err.contains(&format!("invalid value '{bad}' for '--capacity-scale <X>'")),
            "{err}"
        );
    }
}
