//! An endpoint that goes away mid-run: each command says it cannot reach DynamoDB at that
//! endpoint and why, never "no message", a bare "dispatch failure" or the SDK's debug dump.
//! A proxy in front of `monotable serve` dies at a chosen operation (common::proxy); the data
//! behind it is the shop's sample data (`monotable-shop load-sample`).

use crate::common;

use std::path::Path;

use common::proxy::Proxy;
use common::run;
use monotable_test_support::tool::serve;
use monotable_test_support::{Served, shop};

fn shop(name: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop");
    root.join(name).display().to_string()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `serve` over a data directory holding the shop's sample data.
fn serve_with_samples(dir: &Path) -> Served {
    let load = [
        "load-sample",
        "--data-dir",
        "data",
        "--quiet",
        "--users",
        "5",
        "--products",
        "8",
        "--orders",
        "20",
        "--days",
        "5",
    ];
    let out = shop::run(&load, dir);
    assert!(out.status.success(), "{}", stderr(&out));
    serve(&["--data-dir", "data"], dir)
}

/// The one line a command printed names the endpoint and the cause of no answer.
fn says_it_cannot_reach(err: &str, proxy: &Proxy) {
    assert!(proxy.died(), "the proxy never saw its fatal request: {err}");
    let expected = format!("cannot reach DynamoDB at {}: ", proxy.url);
    assert!(err.contains(&expected), "{err}");
    let cause = err.split(&expected).nth(1).unwrap_or_default().trim();
    assert!(!cause.is_empty(), "{err}");
    for noise in [
        "no message",
        "dispatch failure",
        "DispatchFailure",
        "Error {",
    ] {
        assert!(!err.contains(noise), "{noise}: {err}");
    }
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn migrate_names_the_endpoint_that_died_while_it_wrote() {
    // One segment, so the write is the call that finds the endpoint gone: each item with its
    // own UpdateItem, or 25 in one TransactWriteItems.
    for (batch, operation) in [("1", "UpdateItem"), ("25", "TransactWriteItems")] {
        let dir = tempfile::tempdir().unwrap();
        let served = serve_with_samples(dir.path());
        let proxy = Proxy::dying_at(&served.url, &[operation]);
        let out = run(
            &[
                "migrate",
                &shop("shop.toml"),
                &shop("changes/orders-by-product.toml"),
                "--apply",
                "--no-audit",
                "--segments",
                "1",
                "--batch",
                batch,
                "--endpoint",
                &proxy.url,
            ],
            dir.path(),
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        says_it_cannot_reach(&err, &proxy);
        assert!(
            err.contains(&format!("{operation} failed: cannot reach DynamoDB at ")),
            "{err}"
        );
        served.terminate();
    }
}

#[test]
fn audit_names_the_endpoint_that_died_while_it_scanned() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve_with_samples(dir.path());
    let proxy = Proxy::dying_at(&served.url, &["Scan"]);
    let out = run(
        &["audit", &shop("shop.toml"), "--endpoint", &proxy.url],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    says_it_cannot_reach(&stderr(&out), &proxy);
    served.terminate();
}

#[test]
fn verify_table_names_the_endpoint_that_died_while_it_read() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve_with_samples(dir.path());
    let proxy = Proxy::dying_at(&served.url, &["Scan"]);
    let out = run(
        &[
            "verify",
            &shop("shop.toml"),
            "--table",
            "--endpoint",
            &proxy.url,
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    says_it_cannot_reach(&stderr(&out), &proxy);
    served.terminate();
}

#[test]
fn a_closed_port_is_named_from_the_first_call() {
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let out = run(
        &[
            "migrate",
            &shop("shop.toml"),
            &shop("changes/orders-by-product.toml"),
            "--endpoint",
            &url,
        ],
        dir.path(),
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("cannot reach DynamoDB at {url}: ")),
        "{err}"
    );
    assert!(
        !err.contains("no message") && !err.contains("dispatch failure"),
        "{err}"
    );
}
