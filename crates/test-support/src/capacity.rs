//! `serve --capacity` as a client sees it, whichever program serves: a hot partition key
//! throttled as DynamoDB throttles it, and `/metrics` (on the port the program serves it on)
//! naming it.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::dynamodb::call;
use crate::{Program, Served, get_text, header};

/// `program serve --in-memory --capacity --capacity-scale 1000` in `dir`, whose banner says so
/// and names where `/metrics` is (`metrics_base` picks it from the [`Served`]).
pub fn serve_at_scale_1000(
    program: Program,
    dir: &Path,
    metrics_base: fn(&Served) -> &str,
) -> Served {
    let served = Served::start(
        program,
        &["--in-memory", "--capacity", "--capacity-scale", "1000"],
        &[],
        dir,
    );
    let banner = served.banner.join("\n");
    assert!(
        banner.contains(
            "capacity  DynamoDB's throughput limits / 1000 (a partition key: 1 WCU/s, 3 RCU/s)"
        ),
        "{banner}"
    );
    assert!(
        banner.contains(&format!("metrics at {}/metrics", metrics_base(&served))),
        "{banner}"
    );
    served
}

/// `program serve --in-memory` in `dir`, whose banner has no capacity line.
pub fn serve_without_capacity(program: Program, dir: &Path) -> Served {
    let served = Served::start(program, &["--in-memory"], &[], dir);
    assert!(
        !served
            .banner
            .iter()
            .any(|l| l.trim().starts_with("capacity")),
        "{:?}",
        served.banner
    );
    served
}

/// On the endpoint at `url` (capacity emulated at scale 1000): a table `Hot`, two cold keys,
/// then one key written back to back until DynamoDB's answer for a hot partition comes.
pub fn throttle_a_hot_key(url: &str) {
    let (status, body) = call(
        url,
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
        let (status, body) = call(url, "PutItem", &put);
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
        let (status, body) = call(url, "PutItem", &put);
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
}

/// After [`throttle_a_hot_key`], `base/metrics` names the hot key by pseudonym, and by value
/// when asked on loopback without `--auth`, in Prometheus text and in JSON; the JSON snapshot.
pub fn metrics_name_the_hot_key(base: &str) -> Value {
    let text = prometheus(base, "/metrics");
    // Partition key values are table data: the scrape names hot keys by pseudonym only.
    assert!(!text.contains("key=\""), "{text}");
    assert!(
        text.contains(r#"monotable_partition_throttled_requests_total{table="Hot",index="",operation="write",key_id=""#),
        "{text}"
    );
    // Asked for, on loopback without --auth (where the endpoint itself is open), they come.
    let text = prometheus(base, "/metrics?keys=values");
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

    let (_, _, text) = get_text(base, "/metrics?format=json", &[]);
    assert!(!text.contains("\"key\":"), "{text}");
    assert!(text.contains("\"key_id\":"), "{text}");
    let (status, headers, text) = get_text(base, "/metrics?format=json&keys=values", &[]);
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
    snapshot
}

/// Without `--capacity`, `base/metrics` answers 200 all the same, saying emulation is off, in
/// Prometheus text and in JSON; then only the stream consumers' figures, when serve runs any
/// (the shop's). The JSON answer.
pub fn metrics_say_capacity_is_off(base: &str) -> Value {
    let text = prometheus(base, "/metrics");
    let (first, rest) = text.split_once('\n').expect("a line");
    assert_eq!(
        first,
        "# monotable capacity emulation is off (start serve with --capacity)"
    );
    assert!(
        rest.lines()
            .all(|l| l.is_empty() || l.contains("monotable_consumer_")),
        "{text}"
    );
    let (status, _, text) = get_text(base, "/metrics?format=json", &[]);
    assert_eq!(status, 200, "{text}");
    let body: Value = serde_json::from_str(&text).expect("JSON metrics");
    assert_eq!(body["capacity"], json!("off"), "{body}");
    body
}

/// `GET base+path`, answered 200 in Prometheus' text format: the text.
fn prometheus(base: &str, path: &str) -> String {
    let (status, headers, text) = get_text(base, path, &[]);
    assert_eq!(status, 200, "{text}");
    assert!(
        header(&headers, "content-type")
            .unwrap()
            .starts_with("text/plain; version=0.0.4"),
        "{headers:?}"
    );
    text
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

/// The value of the Prometheus sample whose name and labels are exactly `series`.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|v| v.parse().ok())
}
