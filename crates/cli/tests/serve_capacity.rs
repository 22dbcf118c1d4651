//! `monotable serve --capacity`: DynamoDB's throughput limits on the embedded engine, a hot
//! partition key throttled as DynamoDB throttles it, and `GET /metrics` on the API port.

mod common;

use std::time::{Duration, Instant};

use common::{Served, get_text, header, http, run};
use serde_json::{Value, json};

/// The headers of a DynamoDB JSON request: the endpoint only checks that SigV4 material is
/// there unless --auth is given.
fn dynamodb(url: &str, operation: &str, body: &Value) -> (u16, Value) {
    let target = format!("DynamoDB_20120810.{operation}");
    http(
        url,
        "POST",
        "/",
        &[
            ("X-Amz-Target", &target),
            ("Content-Type", "application/x-amz-json-1.0"),
            ("X-Amz-Date", "20261203T000000Z"),
            (
                "Authorization",
                "AWS4-HMAC-SHA256 Credential=k/20261203/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00",
            ),
        ],
        Some(&body.to_string()),
    )
    .expect("the DynamoDB endpoint answers")
}

/// The pseudonym `/metrics?keys=values` gives partition key `key`.
fn key_id(text: &str, key: &str) -> String {
    let label = format!(r#",key="{key}"}}"#);
    let line = text
        .lines()
        .find(|l| l.contains(&label))
        .unwrap_or_else(|| panic!("no series for key {key}:\n{text}"));
    line.split("key_id=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a key_id label")
        .to_string()
}

/// The value of the sample whose name and labels are exactly `series`.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|v| v.parse().ok())
}

#[test]
fn a_hot_key_is_throttled_like_dynamodb_and_metrics_name_it() {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(
        &["--in-memory", "--capacity", "--capacity-scale", "1000"],
        dir.path(),
    );
    let banner = served.banner.join("\n");
    assert!(
        banner.contains(
            "capacity  DynamoDB's throughput limits / 1000 (a partition key: 1 WCU/s, 3 RCU/s)"
        ),
        "{banner}"
    );
    assert!(
        banner.contains(&format!("{}/metrics", served.api)),
        "{banner}"
    );

    let (status, body) = dynamodb(
        &served.url,
        "CreateTable",
        &json!({
            "TableName": "Hot",
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST",
        }),
    );
    assert_eq!(status, 200, "{body}");
    // Other keys stay well under their own partition's limit.
    for key in ["cold-a", "cold-b"] {
        let put = json!({"TableName": "Hot", "Item": {"PK": {"S": key}}});
        let (status, body) = dynamodb(&served.url, "PutItem", &put);
        assert_eq!(status, 200, "{body}");
    }

    // At scale 1000 a partition key takes 1 WCU/s: writing one key back to back is throttled
    // within a few requests.
    let started = Instant::now();
    let mut written = 0;
    let throttled = loop {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no throttle after {written} writes to one key"
        );
        let put = json!({"TableName": "Hot", "Item": {"PK": {"S": "hot"}, "n": {"N": written.to_string()}}});
        let (status, body) = dynamodb(&served.url, "PutItem", &put);
        if status != 200 {
            assert_eq!(status, 400, "{body}");
            break body;
        }
        written += 1;
    };
    assert!(written >= 1, "the first write fits the partition's burst");
    assert!(
        throttled["__type"]
            .as_str()
            .unwrap()
            .ends_with("ProvisionedThroughputExceededException"),
        "{throttled}"
    );
    let reasons = throttled["ThrottlingReasons"]
        .as_array()
        .expect("ThrottlingReasons");
    assert_eq!(
        reasons[0]["reason"], "TableWriteKeyRangeThroughputExceeded",
        "{throttled}"
    );
    assert!(
        reasons[0]["resource"]
            .as_str()
            .unwrap()
            .ends_with(":table/Hot"),
        "{throttled}"
    );

    // The shop's requests go through the same emulating engine.
    let (status, body) = http(&served.api, "GET", "/products?published=true", &[], None).unwrap();
    assert_eq!(status, 200, "{body}");

    let (status, headers, text) = get_text(&served.api, "/metrics", &[]);
    assert_eq!(status, 200, "{text}");
    assert!(
        header(&headers, "content-type")
            .unwrap()
            .starts_with("text/plain; version=0.0.4"),
        "{headers:?}"
    );
    // Partition key values are table data: the scrape names hot keys by pseudonym only.
    assert!(!text.contains("key=\""), "{text}");
    assert!(
        text.contains(r#"monotable_partition_throttled_requests_total{table="Hot",index="",operation="write",key_id=""#),
        "{text}"
    );
    // Asked for, on loopback without --auth (where the endpoint itself is open), they come.
    let (status, _, text) = get_text(&served.api, "/metrics?keys=values", &[]);
    assert_eq!(status, 200, "{text}");
    let throttles = sample(
        &text,
        r#"monotable_throttled_requests_total{table="Hot",index="",operation="write"}"#,
    );
    assert!(throttles.is_some_and(|n| n >= 1.0), "{text}");
    let hot = sample(
        &text,
        &format!(
            r#"monotable_partition_throttled_requests_total{{table="Hot",index="",operation="write",key_id="{}",key="hot"}}"#,
            key_id(&text, "hot")
        ),
    );
    assert!(hot.is_some_and(|n| n >= 1.0), "{text}");
    let cold_throttled = text.lines().any(|l| {
        l.starts_with("monotable_partition_throttled_requests_total")
            && l.contains(r#",key="cold-a"}"#)
    });
    assert!(!cold_throttled, "{text}");
    assert_eq!(
        sample(&text, "monotable_capacity_scale"),
        Some(1000.0),
        "{text}"
    );

    let (_, _, text) = get_text(&served.api, "/metrics?format=json", &[]);
    assert!(!text.contains("\"key\":"), "{text}");
    assert!(text.contains("\"key_id\":"), "{text}");
    let (status, headers, text) = get_text(&served.api, "/metrics?format=json&keys=values", &[]);
    assert_eq!(status, 200, "{text}");
    assert!(
        header(&headers, "content-type")
            .unwrap()
            .starts_with("application/json"),
        "{headers:?}"
    );
    let snapshot: Value = serde_json::from_str(&text).expect("JSON metrics");
    assert_eq!(snapshot["capacity"], "on", "{snapshot}");
    assert_eq!(snapshot["scale"], 1000.0, "{snapshot}");
    let resources = snapshot["resources"].as_array().expect("resources");
    let table = resources
        .iter()
        .find(|r| r["table"] == "Hot" && r["index"].is_null())
        .expect("the Hot table's figures");
    assert!(table["throttled_writes"].as_u64().unwrap() >= 1, "{table}");
    assert_eq!(table["throttled_keys"][0]["key"], "hot", "{table}");
    assert!(
        resources.iter().any(|r| r["table"] == "Shop"),
        "the shop's query was metered: {snapshot}"
    );
    served.terminate();
}

#[test]
fn metrics_answer_without_capacity_and_behind_the_guard() {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(&["--in-memory"], dir.path());
    assert!(
        !served
            .banner
            .iter()
            .any(|l| l.trim().starts_with("capacity")),
        "{:?}",
        served.banner
    );
    let (status, headers, text) = get_text(&served.api, "/metrics", &[]);
    assert_eq!(status, 200, "{text}");
    assert!(
        header(&headers, "content-type")
            .unwrap()
            .starts_with("text/plain; version=0.0.4"),
        "{headers:?}"
    );
    assert_eq!(
        text,
        "# monotable capacity emulation is off (start serve with --capacity)\n"
    );
    let (status, body) = http(&served.api, "GET", "/metrics?format=json", &[], None).unwrap();
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"capacity": "off"}));
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

#[test]
fn capacity_flags_are_checked_before_serving() {
    let dir = tempfile::tempdir().unwrap();
    let stderr = |args: &[&str]| {
        let output = run(args, dir.path());
        assert_eq!(output.status.code(), Some(2), "{args:?}");
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
