//! `monotable load`: the shop's traffic on the emulated embedded engine (JSON report, plot, exit
//! 0), a design with one hot partition that cannot carry its traffic once the emulator's limits
//! are divided (exit 1, throttles reported), and no run at all (exit 2).

use crate::common;

use common::run;
use serde_json::Value;

fn shop_model() -> String {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop/shop.toml");
    path.display().to_string()
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}):\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Every write of one entity and every read of one pattern on a single partition, `EVENTS`.
const HOT: &str = r#"version = 1

[table]
name = "Hot"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "SK", type = "S" }
billing_mode = "PAY_PER_REQUEST"

[entities.Event]
attributes.eventId = { type = "string", required = true }
attributes.body = { type = "string", required = true }
keys.PK = "EVENTS"
keys.SK = "EVENT#{eventId}"

[patterns.listEvents]
operation = "Query"
key = { PK = "EVENTS" }
returns = ["Event"]
limit = 25

[traffic.entities]
Event = { writes_per_second = 20, item_size_bytes = 2000 }

[traffic.patterns]
listEvents = { reads_per_second = 20, items_per_read = 25 }
"#;

// The shop's full traffic (about 3,000 requests/s) needs a release build; a debug build on a
// small machine carries a twentieth of it comfortably.
#[test]
fn the_shop_carries_its_traffic_on_the_emulated_engine() {
    let dir = tempfile::tempdir().unwrap();
    let model = shop_model();
    let args = [
        "load",
        &model,
        "--duration",
        "2s",
        "--scale",
        "0.05",
        "--format",
        "json",
        "--plot",
        "load.svg",
    ];
    let out = run(&args, dir.path());
    let doc = json(&out);
    assert!(
        out.status.success(),
        "{doc:#}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(doc["passed"], true);
    assert_eq!(doc["table"], "Shop");
    assert_eq!(doc["capacity_scale"], 1.0);
    assert_eq!(doc["scale"], 0.05);
    assert_eq!(doc["duration_seconds"], 2.0);
    let streams = doc["streams"].as_array().unwrap();
    assert_eq!(streams.len(), 20, "12 read patterns and 8 entities");
    let get_user = streams.iter().find(|s| s["name"] == "getUser").unwrap();
    assert_eq!(get_user["kind"], "read");
    assert_eq!(get_user["operation"], "GetItem");
    assert_eq!(get_user["target_per_second"], 25.0);
    assert_eq!(get_user["planned"], 50);
    for s in streams {
        let name = &s["name"];
        for field in ["achieved_per_second", "shortfall"] {
            assert!(s[field].is_f64(), "{name}: {field}");
        }
        for field in ["ok", "throttled", "failed", "dropped", "issued"] {
            assert!(s[field].is_u64(), "{name}: {field}");
        }
        assert!(s["latency_ms"]["p50"].is_f64(), "{name}");
        assert!(s["latency_ms"]["p99"].is_f64(), "{name}");
        assert!(s["emulator_throttled_attempts"].is_u64(), "{name}");
        assert!(s["hot_partitions"].is_array(), "{name}");
        assert!(s["per_second"]["ok"].is_array(), "{name}");
        assert_eq!(s["failed"], 0, "{name}: {}", s["first_error"]);
        assert_eq!(s["passed"], true, "{name}");
    }
    let order = streams.iter().find(|s| s["name"] == "Order").unwrap();
    assert_eq!(
        (&order["kind"], &order["operation"]),
        (&"write".into(), &"PutItem".into())
    );
    let resources = doc["resources"].as_array().unwrap();
    let indexes: Vec<&Value> = resources.iter().map(|r| &r["index"]).collect();
    assert!(indexes.contains(&&Value::Null) && indexes.contains(&&Value::from("GSI3")));
    // Orders write GSI3 keys: every key the model writes is written.
    let gsi3 = resources.iter().find(|r| r["index"] == "GSI3").unwrap();
    assert!(gsi3["write_units"].as_f64().unwrap() > 0.0, "{gsi3:#}");
    let svg = std::fs::read_to_string(dir.path().join("load.svg")).unwrap();
    assert!(
        svg.starts_with("<svg ") && svg.contains("write OrderItem"),
        "{svg}"
    );
}

#[test]
fn a_hot_partition_fails_the_run_and_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hot.toml"), HOT).unwrap();
    let args = [
        "load",
        "hot.toml",
        "--duration",
        "2s",
        "--capacity-scale",
        "1000",
        "--format",
        "json",
    ];
    let out = run(&args, dir.path());
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(1), "{doc:#}");
    assert_eq!(doc["passed"], false);
    let streams = doc["streams"].as_array().unwrap();
    let event = streams.iter().find(|s| s["name"] == "Event").unwrap();
    assert_eq!(event["passed"], false, "{event:#}");
    let emulated = event["emulator_throttled_attempts"].as_u64().unwrap();
    assert!(emulated > 0, "{event:#}");
    assert_eq!(event["hot_partitions"][0]["key"], "EVENTS", "{event:#}");
    assert!(event["hot_partitions"][0]["throttled"].as_u64().unwrap() > 0);
    let table = &doc["resources"][0];
    assert!(table["throttled_writes"].as_u64().unwrap() > 0, "{table:#}");
    // The same run for people: the verdict names the entity.
    let out = run(&args[..6], dir.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAILED: ") && text.contains("Event ("),
        "{text}"
    );
    assert!(text.contains("EVENTS ("), "{text}");
}

#[test]
fn no_run_is_exit_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let quiet = HOT.split("[traffic.entities]").next().unwrap();
    std::fs::write(dir.path().join("quiet.toml"), quiet).unwrap();
    let out = run(&["load", "quiet.toml", "--format", "json"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let doc = json(&out);
    assert!(
        doc["error"]
            .as_str()
            .unwrap()
            .contains("no [traffic] section"),
        "{doc:#}"
    );
    std::fs::write(dir.path().join("bad.toml"), "version = 1\n[table]\n").unwrap();
    let out = run(&["load", "bad.toml"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["load", "quiet.toml", "--duration", "10x"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let out = run(
        &[
            "load",
            "quiet.toml",
            "--endpoint",
            "http://127.0.0.1:1",
            "--capacity-scale",
            "2",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
}

/// The seed's design driven at the shop's traffic (`--traffic`): its streams carry the seed's
/// pattern names with the shop's rates, and fresh orders land in `ORDERSTATUS#PENDING`.
#[test]
fn another_files_traffic_drives_the_model() {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/seed-original");
    let model = root.join("model.toml").display().to_string();
    let traffic = root.join("shop-traffic.toml").display().to_string();
    let out = run(
        &[
            "load",
            &model,
            "--traffic",
            &traffic,
            "--duration",
            "2s",
            "--scale",
            "0.05",
            "--format",
            "json",
            "--quiet",
        ],
        &root,
    );
    let report = json(&out);
    let rate = |name: &str| {
        report["streams"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("no stream {name}: {report}"))["target_per_second"]
            .as_f64()
            .unwrap()
    };
    // The shop's listProductsByCategory (20/s) and listPublishedProductsByCategory (200/s).
    assert!((rate("listProductsByCategory") - 220.0 * 0.05).abs() < 1e-9);
    assert!((rate("getUserByEmail") - 20.0 * 0.05).abs() < 1e-9);
    let gsi1 = report["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["index"] == "GSI1")
        .unwrap_or_else(|| panic!("no GSI1 figures: {report}"));
    let hot: Vec<&str> = gsi1["hot_keys"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|k| k["key"].as_str())
        .collect();
    assert!(hot.contains(&"ORDERSTATUS#PENDING"), "{hot:?}");
}

#[test]
fn a_traffic_file_without_traffic_is_exit_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.toml");
    std::fs::write(&empty, "[table]\nname = \"x\"\n").unwrap();
    let out = run(
        &[
            "load",
            &shop_model(),
            "--traffic",
            &empty.display().to_string(),
            "--duration",
            "1s",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("has no [traffic] table"), "{stderr}");
}
