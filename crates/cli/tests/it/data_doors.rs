//! Every door to the table's data asks for the DynamoDB endpoint's own credentials, or is shut:
//! `monotable serve`'s `/metrics` key values beside its endpoint, and `monotable ui`'s table
//! view, on loopback and on a host beyond it (bound to 0.0.0.0, called on 127.0.0.1). Every
//! answer of every listener also carries the browser hardening headers. (`monotable-shop
//! serve`'s `/ui` and `/metrics`: crates/shop-server/tests/it/data_doors.rs.)

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::time::Duration;

use monotable_test_support::sigv4::{Route, call, call_signed, pairs, signed};
use monotable_test_support::tool::{command, serve};
use monotable_test_support::{dynamodb, forbids_framing_and_sniffing, get_text, header, http};
use serde_json::{Value, json};

const AUTH: &str = "local:s3cr3t-s3cr3t";

/// `/metrics` with key values, in both formats: the route beside `monotable serve`'s endpoint
/// that reads table data.
const KEY_VALUES: [Route<'static>; 2] = [
    ("GET", "/metrics?keys=values", None),
    ("GET", "/metrics?format=json&keys=values", None),
];

/// A table with one item whose partition key is `USER#alice`, written through the endpoint at
/// `url` (signed when `auth`), so that `/metrics` has a key to name.
fn write_item(url: &str, auth: Option<&str>) {
    let create = json!({
        "TableName": "Doors",
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}],
        "BillingMode": "PAY_PER_REQUEST",
    });
    let put = json!({"TableName": "Doors", "Item": {"PK": {"S": "USER#alice"}}});
    for (operation, body) in [("CreateTable", create), ("PutItem", put)] {
        let (status, answer) = match auth {
            Some(credentials) => dynamodb::call_signed(url, operation, &body, credentials),
            None => dynamodb::call(url, operation, &body),
        };
        assert_eq!(status, 200, "{operation}: {answer}");
    }
}

#[test]
fn behind_auth_key_values_beside_the_endpoint_ask_for_its_signature() {
    for host in ["127.0.0.1", "0.0.0.0"] {
        let dir = tempfile::tempdir().unwrap();
        let served = serve(
            &["--in-memory", "--capacity", "--host", host, "--auth", AUTH],
            dir.path(),
        );
        write_item(&served.url, Some(AUTH));
        for route in KEY_VALUES {
            let (status, body) = call(&served.url, route, &[]);
            assert_eq!(status, 401, "{host} {route:?} unsigned: {body}");
            assert!(!body.to_string().contains("USER#alice"), "{body}");
            let (status, body) = call_signed(&served.url, route, "local:another-secret");
            assert_eq!(status, 401, "{host} {route:?} wrongly signed: {body}");
        }
        // Without key values, metrics ask for nothing and name keys by pseudonym only.
        let (status, _, text) = get_text(&served.url, "/metrics", &[]);
        assert_eq!(status, 200, "{text}");
        assert!(
            text.contains("key_id=") && !text.contains("USER#alice"),
            "{text}"
        );
        for route in KEY_VALUES {
            let (status, body) = call_signed(&served.url, route, AUTH);
            assert_eq!(status, 200, "{host} {route:?} signed: {body}");
        }
        let path = KEY_VALUES[0].1;
        let signature = signed(&served.url, "GET", path, "", AUTH);
        let (_, _, text) = get_text(&served.url, path, &pairs(&signature));
        assert!(text.contains(r#"key="USER#alice""#), "{text}");
        served.terminate();
    }
}

#[test]
fn key_values_beside_the_endpoint_are_off_beyond_loopback_without_auth_and_open_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(
        &["--in-memory", "--capacity", "--host", "0.0.0.0"],
        dir.path(),
    );
    write_item(&served.url, None);
    for route in KEY_VALUES {
        let (status, body) = call(&served.url, route, &[]);
        assert_eq!(status, 403, "{route:?}: {body}");
        assert!(!body.to_string().contains("USER#alice"), "{body}");
        // A signature of any key is worth nothing where no credentials are set.
        let (status, _) = call_signed(&served.url, route, AUTH);
        assert_eq!(status, 403, "{route:?} signed");
    }
    let (status, _, text) = get_text(&served.url, "/metrics", &[]);
    assert!(status == 200 && !text.contains("USER#alice"), "{text}");
    served.terminate();

    let served = serve(&["--in-memory", "--capacity"], dir.path());
    write_item(&served.url, None);
    for route in KEY_VALUES {
        let (status, body) = call(&served.url, route, &[]);
        assert_eq!(status, 200, "{route:?}: {body}");
    }
    let (_, _, text) = get_text(&served.url, "/metrics?keys=values", &[]);
    assert!(text.contains(r#"key="USER#alice""#), "{text}");
    served.terminate();
}

/// Whether a table view request got past every check to the backend: `monotable ui
/// --in-memory` has no table, so the backend's own answer is "no such table".
fn reached_the_table((status, body): (u16, Value)) -> bool {
    status == 200 || body["error"] == "table_not_found"
}

/// A running `monotable ui`, killed on drop: its URL and first lines.
struct UiProc {
    child: Child,
    url: String,
    lines: Vec<String>,
}

impl UiProc {
    fn start(args: &[&str], dir: &std::path::Path) -> UiProc {
        std::fs::copy(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/shop/shop.toml"),
            dir.join("shop.toml"),
        )
        .unwrap();
        let mut child = command()
            .args(["ui", "shop.toml", "--port", "0", "--in-memory"])
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn monotable ui");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut lines = Vec::new();
        let mut line = String::new();
        out.read_line(&mut line)
            .expect("ui prints where it listens");
        lines.push(line.trim_end().to_string());
        let url = line
            .split(" at ")
            .nth(1)
            .and_then(|rest| rest.split('/').nth(2))
            .map(|addr| format!("http://{}", addr.replace("0.0.0.0", "127.0.0.1")))
            .unwrap_or_else(|| panic!("no URL in {line:?}"));
        if !args.contains(&"127.0.0.1") && args.contains(&"--host") {
            let mut warning = String::new();
            out.read_line(&mut warning).unwrap();
            lines.push(warning.trim_end().to_string());
        }
        std::thread::sleep(Duration::from_millis(50));
        UiProc { child, url, lines }
    }
}

impl Drop for UiProc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn monotable_ui_asks_for_its_auth_and_is_shut_beyond_loopback_without_it() {
    let scan = ("GET", "/api/live/scan", None);
    let dir = tempfile::tempdir().unwrap();
    let open = UiProc::start(&[], dir.path());
    assert!(reached_the_table(call(&open.url, scan, &[])));

    let dir = tempfile::tempdir().unwrap();
    let shut = UiProc::start(&["--host", "0.0.0.0", "--allow-writes"], dir.path());
    assert!(
        shut.lines[1].starts_with("warning: listening on 0.0.0.0")
            && shut.lines[1].contains("--allow-writes has no effect without --auth"),
        "{:?}",
        shut.lines
    );
    let (status, body) = call(&shut.url, scan, &[]);
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("data_route_off")),
        "{body}"
    );
    let put = (
        "PUT",
        "/api/live/item",
        Some(r#"{"item":{"PK":{"S":"x"},"SK":{"S":"y"}}}"#),
    );
    assert_eq!(call(&shut.url, put, &[]).0, 403);

    let dir = tempfile::tempdir().unwrap();
    let guarded = UiProc::start(&["--host", "0.0.0.0", "--auth", AUTH], dir.path());
    assert!(
        !guarded.lines.join("\n").contains("s3cr3t"),
        "{:?}",
        guarded.lines
    );
    assert_eq!(call(&guarded.url, scan, &[]).0, 401);
    assert_eq!(
        call_signed(&guarded.url, scan, "local:another-secret").0,
        401
    );
    assert!(reached_the_table(call_signed(&guarded.url, scan, AUTH)));
    let (_, live) = http(&guarded.url, "GET", "/api/live", &[], None).unwrap();
    assert_eq!(
        live["access"],
        json!({"mode": "sigv4", "accessKey": "local", "region": "us-east-1", "service": "dynamodb"})
    );
    assert!(!live.to_string().contains("s3cr3t"), "{live}");
}

#[test]
fn every_answer_of_every_listener_forbids_framing_and_sniffing() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(&["--in-memory"], dir.path());
    let ui_dir = tempfile::tempdir().unwrap();
    let ui = UiProc::start(&[], ui_dir.path());
    let answers = [
        (&served.url, "/"),
        (&served.url, "/metrics"),
        (&served.url, "/metrics?format=xml"),
        (&ui.url, "/"),
        (&ui.url, "/api/model"),
        (&ui.url, "/nowhere"),
    ];
    for (base, path) in answers {
        forbids_framing_and_sniffing(base, path);
    }
    // The page runs its own script only, by hash.
    let (_, headers, _) = get_text(&ui.url, "/", &[]);
    let policy = header(&headers, "content-security-policy").unwrap();
    assert!(
        policy.contains("default-src 'none'") && policy.contains("script-src 'sha256-"),
        "{policy}"
    );
    served.terminate();
}

#[test]
fn ui_api_errors_are_json_and_parameters_keep_the_models_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let ui = UiProc::start(&[], dir.path());
    for (path, status, code) in [
        ("/api/patterns/%FF", 400, "bad_request"),
        ("/api/live/patterns/%C0%AF", 400, "bad_request"),
        (
            "/api/live/patterns/getUser?userId=a&userId=b",
            400,
            "repeated_parameter",
        ),
        (
            "/api/live/patterns/listOrdersByStatus?status=PENDING&shard=1",
            400,
            "invalid_parameter",
        ),
        (
            "/api/live/patterns/listOrdersByStatus?status=PENDING&shard=-1",
            400,
            "invalid_parameter",
        ),
    ] {
        let (got, headers, text) = get_text(&ui.url, path, &[]);
        assert_eq!(got, status, "{path}: {text}");
        assert!(
            header(&headers, "content-type").is_some_and(|t| t.starts_with("application/json")),
            "{path}: {headers:?}"
        );
        let body: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(body["error"], code, "{path}: {body}");
        if code == "invalid_parameter" {
            let message = body["message"].as_str().unwrap();
            assert!(message.contains("cardinality 1"), "{message}");
        }
    }
    let last = http(
        &ui.url,
        "GET",
        "/api/live/patterns/listOrdersByStatus?status=PENDING&shard=0",
        &[],
        None,
    )
    .unwrap();
    assert!(reached_the_table(last), "the one shard is in range");
}
