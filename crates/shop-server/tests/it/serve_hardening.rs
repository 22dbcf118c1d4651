//! `monotable-shop serve` against an unlucky operator and a hostile neighbour: a second serve
//! (or `load-sample`) on the same data, the database deleted underneath, pages from other
//! origins, rebinding DNS names and requests hyper cannot read, on the shop's API. Each is
//! refused or reported, never a silent loss or a bare status. (What the engine's side shares
//! with `monotable serve` is tested on it: crates/cli/tests/it/serve_hardening.rs.)

use monotable_test_support::shop::{run, serve, token};
use monotable_test_support::{Program, Served, http};

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_second_serve_on_the_same_data_is_refused_and_told_who_holds_it() {
    let dir = tempfile::tempdir().unwrap();
    let first = serve(&["--data-dir", "data"], dir.path());
    let err = Served::refused(Program::Shop, &["--data-dir", "data"], dir.path());
    assert!(err.contains("is in use by pid"), "{err}");
    assert!(err.contains(&first.child.id().to_string()), "{err}");
    assert!(err.contains("monotable-shop serve"), "{err}");
    // load-sample on it is refused the same way, and pointed at the endpoint.
    let out = run(
        &["load-sample", "--data-dir", "data", "--quiet"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--endpoint"), "{}", stderr(&out));
    first.terminate();
}

#[test]
fn a_deleted_database_refuses_every_later_write_instead_of_losing_it() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(&["--data-dir", "data"], dir.path());
    let admin = token(dir.path(), "root", true);
    let auth = format!("Bearer {admin}");
    let product = r#"{"name":"Lamp","category":"home","price":"9.99","published":true}"#;
    let (status, _) = http(
        &served.api,
        "POST",
        "/products",
        &[("Authorization", &auth)],
        Some(product),
    )
    .unwrap();
    assert_eq!(status, 201);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(
            dir.path()
                .join("data")
                .join(format!("monotable.db{suffix}")),
        );
    }
    let (status, body) = http(
        &served.api,
        "POST",
        "/products",
        &[("Authorization", &auth)],
        Some(product),
    )
    .unwrap();
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"]["code"], "unavailable");
    // The DynamoDB endpoint says why.
    let (status, body) = http(
        &served.url,
        "POST",
        "/",
        &[
            ("X-Amz-Target", "DynamoDB_20120810.ListTables"),
            ("Content-Type", "application/x-amz-json-1.0"),
            ("X-Amz-Date", "20261203T000000Z"),
            ("Authorization", "AWS4-HMAC-SHA256 Credential=k/20261203/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00"),
        ],
        Some("{}"),
    )
    .unwrap();
    assert_eq!(status, 500, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("deleted or replaced"),
        "{body}"
    );
}

#[test]
fn the_shop_api_refuses_foreign_pages_and_rebinding_names_in_its_error_shape() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(
        &[
            "--data-dir",
            "data",
            "--cors-origin",
            "http://localhost:5173",
        ],
        dir.path(),
    );
    let (status, body) = http(
        &served.api,
        "GET",
        "/products?published=true",
        &[("Origin", "https://evil.example")],
        None,
    )
    .unwrap();
    assert_eq!(status, 403);
    assert_eq!(body["error"]["code"], "forbidden_origin");
    let (status, _) = http(
        &served.api,
        "GET",
        "/products?published=true",
        &[("Origin", "http://localhost:5173")],
        None,
    )
    .unwrap();
    assert_eq!(status, 200);
    // A rebinding name: the Host header names the attacker's domain.
    let raw = served.api.trim_start_matches("http://").to_string();
    let mut stream = std::net::TcpStream::connect(&raw).unwrap();
    use std::io::{Read, Write};
    stream
        .write_all(b"GET /products?published=true HTTP/1.1\r\nHost: rebind.evil.example\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    assert!(answer.contains("forbidden_host"), "{answer}");
    served.terminate();
}

#[test]
fn requests_hyper_cannot_read_get_the_shops_error_shape() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(&["--data-dir", "data"], dir.path());
    let long = format!("/products?category={}", "a".repeat(70_000));
    let (status, body) = http(&served.api, "GET", &long, &[], None).unwrap();
    assert_eq!(status, 414);
    assert_eq!(body["error"]["code"], "uri_too_long", "{body}");
    let many: Vec<(String, String)> = (0..150).map(|i| (format!("X-H{i}"), "v".into())).collect();
    let headers: Vec<(&str, &str)> = many.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let (status, body) = http(
        &served.api,
        "GET",
        "/products?published=true",
        &headers,
        None,
    )
    .unwrap();
    assert_eq!(status, 431);
    assert_eq!(body["error"]["code"], "headers_too_large", "{body}");
    let (status, body) = http(&served.api, "DELETE", "/products", &[], None).unwrap();
    assert_eq!(status, 405);
    assert_eq!(body["error"]["code"], "method_not_allowed", "{body}");
    served.terminate();
}
