//! Every door to the table's data asks for the DynamoDB endpoint's own credentials, or is shut:
//! serve's `/ui` table view and `/metrics` key values, and `monotable ui`'s table view, on
//! loopback and on a host beyond it (bound to 0.0.0.0, called on 127.0.0.1). Every answer of
//! every listener also carries the browser hardening headers.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::time::{Duration, SystemTime};

use common::{Served, get_text, header, http, monotable};
use serde_json::{Value, json};

const AUTH: &str = "local:s3cr3t-s3cr3t";
const EMAIL: &str = "alice@example.com";

/// The routes beside the endpoint that read or write table data: (method, path, body).
const DATA_ROUTES: [(&str, &str, Option<&str>); 6] = [
    ("GET", "/ui/api/live/scan?limit=50", None),
    ("GET", "/ui/api/live/patterns/getUser?userId=alice", None),
    (
        "GET",
        "/ui/api/live/patterns/listUserOrders?userId=alice",
        None,
    ),
    (
        "PUT",
        "/ui/api/live/item",
        Some(r#"{"item":{"PK":{"S":"USER#mallory"},"SK":{"S":"PROFILE"}}}"#),
    ),
    ("GET", "/metrics?keys=values", None),
    ("GET", "/metrics?format=json&keys=values", None),
];

/// Authorization headers for `method base+path` with `body`, signed with `key:secret` as the
/// SDKs sign DynamoDB requests.
fn signed(
    base: &str,
    method: &str,
    path: &str,
    body: &str,
    credentials: &str,
) -> Vec<(String, String)> {
    use aws_sigv4::http_request::{SignableBody, SignableRequest, SigningSettings, sign};
    use aws_sigv4::sign::v4::SigningParams;
    let (key, secret) = credentials.split_once(':').unwrap();
    let host = base.trim_start_matches("http://");
    let identity = aws_credential_types::Credentials::new(key, secret, None, None, "test").into();
    let params = SigningParams::builder()
        .identity(&identity)
        .region("us-east-1")
        .name("dynamodb")
        .time(SystemTime::now())
        .settings(SigningSettings::default())
        .build()
        .unwrap()
        .into();
    let url = format!("{base}{path}");
    let signable = SignableRequest::new(
        method,
        &url,
        [("host", host)].into_iter(),
        SignableBody::Bytes(body.as_bytes()),
    )
    .unwrap();
    let (instructions, _) = sign(signable, &params).unwrap().into_parts();
    let mut request = http::Request::builder()
        .method(method)
        .uri(&url)
        .body(())
        .unwrap();
    instructions.apply_to_request_http1x(&mut request);
    request
        .headers()
        .iter()
        .filter(|(k, _)| k.as_str() != "host")
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap().to_string()))
        .collect()
}

/// `route` on `base` with `headers`: (status, body as JSON, body as text).
fn call(
    base: &str,
    route: (&str, &str, Option<&str>),
    headers: &[(String, String)],
) -> (u16, Value) {
    let (method, path, body) = route;
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    http(base, method, path, &headers, body).expect("the listener answers")
}

fn call_signed(base: &str, route: (&str, &str, Option<&str>), credentials: &str) -> (u16, Value) {
    let headers = signed(base, route.0, route.1, route.2.unwrap_or(""), credentials);
    call(base, route, &headers)
}

/// A user item with an e-mail address, written through the endpoint (signed when `auth`).
fn write_user(served: &Served, auth: Option<&str>) {
    let body = json!({
        "TableName": "Shop",
        "Item": {"PK": {"S": "USER#alice"}, "SK": {"S": "PROFILE"}, "entityType": {"S": "User"},
                 "userId": {"S": "alice"}, "email": {"S": EMAIL}, "name": {"S": "Alice"}},
    })
    .to_string();
    let mut headers = vec![
        (
            "X-Amz-Target".to_string(),
            "DynamoDB_20120810.PutItem".to_string(),
        ),
        (
            "Content-Type".to_string(),
            "application/x-amz-json-1.0".to_string(),
        ),
    ];
    match auth {
        Some(credentials) => headers.extend(signed(&served.url, "POST", "/", &body, credentials)),
        None => headers.extend([
            ("X-Amz-Date".to_string(), "20261204T000000Z".to_string()),
            (
                "Authorization".to_string(),
                "AWS4-HMAC-SHA256 Credential=k/20261204/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00".to_string(),
            ),
        ]),
    }
    let (status, answer) = call(&served.url, ("POST", "/", Some(&body)), &headers);
    assert_eq!(status, 200, "{answer}");
}

fn start(args: &[&str], dir: &std::path::Path) -> Served {
    let mut all = vec!["--in-memory", "--capacity"];
    all.extend_from_slice(args);
    Served::start(&all, dir)
}

#[test]
fn behind_auth_every_data_route_asks_for_the_endpoints_signature() {
    for host in ["127.0.0.1", "0.0.0.0"] {
        let dir = tempfile::tempdir().unwrap();
        let served = start(&["--host", host, "--auth", AUTH], dir.path());
        write_user(&served, Some(AUTH));
        for route in DATA_ROUTES {
            let (status, body) = call(&served.api, route, &[]);
            assert_eq!(status, 401, "{host} {route:?} unsigned: {body}");
            assert!(!body.to_string().contains(EMAIL), "{body}");
            let (status, body) = call_signed(&served.api, route, "local:another-secret");
            assert_eq!(status, 401, "{host} {route:?} wrongly signed: {body}");
            let (status, body) = call_signed(&served.api, route, AUTH);
            let expected = if route.0 == "PUT" { 403 } else { 200 };
            assert_eq!(status, expected, "{host} {route:?} signed: {body}");
        }
        let (_, scan) = call_signed(&served.api, DATA_ROUTES[0], AUTH);
        assert!(
            scan.to_string().contains(EMAIL),
            "signed, the table view reads: {scan}"
        );
        // Without key values, metrics ask for nothing and name keys by pseudonym only.
        let (status, _, text) = get_text(&served.api, "/metrics", &[]);
        assert_eq!(status, 200, "{text}");
        assert!(
            text.contains("key_id=") && !text.contains("USER#alice"),
            "{text}"
        );
        let (_, _, json) = get_text(&served.api, "/metrics?format=json", &[]);
        assert!(
            json.contains("key_id") && !json.contains("USER#alice"),
            "{json}"
        );
        let (_, _, text) = get_text(
            &served.api,
            "/metrics?keys=values",
            &signed(&served.api, "GET", "/metrics?keys=values", "", AUTH)
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect::<Vec<_>>(),
        );
        assert!(text.contains(r#"key="USER#alice""#), "{text}");
        served.terminate();
    }
}

#[test]
fn beyond_loopback_without_auth_the_data_routes_are_off() {
    let dir = tempfile::tempdir().unwrap();
    let served = start(&["--host", "0.0.0.0"], dir.path());
    assert!(
        served
            .banner
            .iter()
            .any(|l| l.contains("its table is off beyond loopback without --auth")),
        "{:?}",
        served.banner
    );
    write_user(&served, None);
    for route in DATA_ROUTES {
        let (status, body) = call(&served.api, route, &[]);
        assert_eq!(status, 403, "{route:?}: {body}");
        assert!(!body.to_string().contains(EMAIL), "{body}");
        // A signature of any key is worth nothing where no credentials are set.
        let (status, _) = call_signed(&served.api, route, AUTH);
        assert_eq!(status, 403, "{route:?} signed");
    }
    let (_, live) = http(&served.api, "GET", "/ui/api/live", &[], None).unwrap();
    assert_eq!(live["access"]["mode"], "off", "{live}");
    let (status, _, text) = get_text(&served.api, "/metrics", &[]);
    assert!(status == 200 && !text.contains("USER#alice"), "{text}");
    // The model view shows the model and verify's samples, not the table: it stays.
    let (status, _) = http(&served.api, "GET", "/ui/api/model", &[], None).unwrap();
    assert_eq!(status, 200);
    served.terminate();
}

#[test]
fn on_loopback_without_auth_the_data_routes_are_as_open_as_the_endpoint() {
    let dir = tempfile::tempdir().unwrap();
    let served = start(&[], dir.path());
    write_user(&served, None);
    for route in DATA_ROUTES {
        let (status, body) = call(&served.api, route, &[]);
        let expected = if route.0 == "PUT" { 403 } else { 200 };
        assert_eq!(status, expected, "{route:?}: {body}");
    }
    let (_, _, text) = get_text(&served.api, "/metrics", &[]);
    assert!(
        !text.contains("USER#alice"),
        "asked for nothing, no values: {text}"
    );
    let (_, _, text) = get_text(&served.api, "/metrics?keys=values", &[]);
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
        let mut child = monotable()
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
    let served = start(&[], dir.path());
    let ui_dir = tempfile::tempdir().unwrap();
    let ui = UiProc::start(&[], ui_dir.path());
    let answers = [
        (&served.api, "/products"),
        (&served.api, "/no/such/route"),
        (&served.api, "/ui/"),
        (&served.api, "/ui/api/patterns/%FF"),
        (&served.url, "/"),
        (&ui.url, "/"),
        (&ui.url, "/api/model"),
        (&ui.url, "/nowhere"),
    ];
    for (base, path) in answers {
        for origin in [None, Some("http://evil.example")] {
            let headers: Vec<(&str, &str)> = origin.map(|o| ("Origin", o)).into_iter().collect();
            let (status, headers, _) = get_text(base, path, &headers);
            let what = format!("{base}{path} ({status}, origin {origin:?})");
            assert_eq!(
                header(&headers, "x-content-type-options"),
                Some("nosniff"),
                "{what}"
            );
            assert_eq!(header(&headers, "x-frame-options"), Some("DENY"), "{what}");
            let policy = header(&headers, "content-security-policy").unwrap_or("");
            assert!(
                policy.contains("frame-ancestors 'none'"),
                "{what}: {policy}"
            );
        }
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
            "/api/live/patterns/listOrdersByStatus?status=PENDING&shard=8",
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
            assert!(message.contains("cardinality 8"), "{message}");
        }
    }
    let last = http(
        &ui.url,
        "GET",
        "/api/live/patterns/listOrdersByStatus?status=PENDING&shard=7",
        &[],
        None,
    )
    .unwrap();
    assert!(reached_the_table(last), "the last shard is in range");
}
