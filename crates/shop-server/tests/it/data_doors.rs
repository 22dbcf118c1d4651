//! Every door to the table's data asks for the DynamoDB endpoint's own credentials, or is shut:
//! `monotable-shop serve`'s `/ui` table view and `/metrics` key values, on loopback and on a
//! host beyond it (bound to 0.0.0.0, called on 127.0.0.1). Every answer of both its listeners
//! also carries the browser hardening headers. (`monotable serve`'s `/metrics` and `monotable
//! ui`'s table view: crates/cli/tests/it/data_doors.rs.)

use monotable_test_support::shop::serve;
use monotable_test_support::sigv4::{call, call_signed, signed};
use monotable_test_support::{Served, dynamodb, forbids_framing_and_sniffing, get_text, http};
use serde_json::json;

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

/// A user item with an e-mail address, written through the endpoint (signed when `auth`).
fn write_user(served: &Served, auth: Option<&str>) {
    let body = json!({
        "TableName": "Shop",
        "Item": {"PK": {"S": "USER#alice"}, "SK": {"S": "PROFILE"}, "entityType": {"S": "User"},
                 "userId": {"S": "alice"}, "email": {"S": EMAIL}, "name": {"S": "Alice"}},
    });
    let (status, answer) = match auth {
        Some(credentials) => dynamodb::call_signed(&served.url, "PutItem", &body, credentials),
        None => dynamodb::call(&served.url, "PutItem", &body),
    };
    assert_eq!(status, 200, "{answer}");
}

fn start(args: &[&str], dir: &std::path::Path) -> Served {
    let mut all = vec!["--in-memory", "--capacity"];
    all.extend_from_slice(args);
    serve(&all, dir)
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

#[test]
fn every_answer_of_both_listeners_forbids_framing_and_sniffing() {
    let dir = tempfile::tempdir().unwrap();
    let served = start(&[], dir.path());
    let answers = [
        (&served.api, "/products"),
        (&served.api, "/no/such/route"),
        (&served.api, "/ui/"),
        (&served.api, "/ui/api/patterns/%FF"),
        (&served.url, "/"),
    ];
    for (base, path) in answers {
        forbids_framing_and_sniffing(base, path);
    }
    served.terminate();
}
