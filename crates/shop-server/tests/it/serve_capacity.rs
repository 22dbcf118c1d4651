//! `monotable-shop serve --capacity`: DynamoDB's throughput limits on the embedded engine the
//! DynamoDB endpoint and the shop share, a hot partition key throttled as DynamoDB throttles it,
//! and `GET /metrics` on the API port. (`monotable serve`, which serves `/metrics` beside its
//! endpoint, is tested in crates/cli/tests/it/serve_capacity.rs.)

use monotable_test_support::capacity::{
    metrics_name_the_hot_key, metrics_say_capacity_is_off, serve_at_scale_1000,
    serve_without_capacity, throttle_a_hot_key,
};
use monotable_test_support::{Program, get_text, http};

#[test]
fn a_hot_key_is_throttled_like_dynamodb_and_metrics_name_it() {
    let dir = tempfile::tempdir().unwrap();
    // The banner points at /metrics on the API port.
    let served = serve_at_scale_1000(Program::Shop, dir.path(), |s| &s.api);
    throttle_a_hot_key(&served.url);

    // The shop's requests go through the same emulating engine.
    let (status, body) = http(&served.api, "GET", "/products?published=true", &[], None).unwrap();
    assert_eq!(status, 200, "{body}");

    let snapshot = metrics_name_the_hot_key(&served.api);
    let resources = snapshot["resources"].as_array().expect("resources");
    assert!(
        resources.iter().any(|r| r["table"] == "Shop"),
        "the shop's query was metered: {snapshot}"
    );
    served.terminate();
}

#[test]
fn metrics_answer_without_capacity_and_behind_the_guard() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve_without_capacity(Program::Shop, dir.path());
    let metrics = metrics_say_capacity_is_off(&served.api);
    // The shop's stream consumer is there, caught up.
    assert_eq!(
        metrics["consumers"]["productSales"]["lag_records"], 0,
        "{metrics}"
    );
    let (status, body) = http(&served.api, "GET", "/metrics?format=xml", &[], None).unwrap();
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "invalid_query", "{body}");
    let (status, body) = http(&served.api, "POST", "/metrics", &[], Some("{}")).unwrap();
    assert_eq!(status, 405, "{body}");
    assert_eq!(body["error"]["code"], "method_not_allowed", "{body}");
    // The listener's guard covers /metrics like every shop route: a foreign page is refused.
    let (status, _, text) = get_text(
        &served.api,
        "/metrics",
        &[("Origin", "http://evil.example")],
    );
    assert_eq!(status, 403, "{text}");
    // /metrics is the API port's; the DynamoDB endpoint does not answer it.
    let (status, _, _) = get_text(&served.url, "/metrics", &[]);
    assert_ne!(status, 200);
    served.terminate();
}
