//! `monotable serve` against an unlucky operator and a hostile neighbour: a second serve on the
//! same data, a read-only database, the database deleted underneath, pages from other origins,
//! rebinding DNS names and requests hyper cannot read. Each is refused or reported, never a
//! silent loss or a bare status.

mod common;

use common::{Served, http, run, token};

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `monotable serve --data-dir data` in `dir`, expected to refuse to start; its stderr.
fn serve_refused(dir: &std::path::Path) -> String {
    let out = run(
        &[
            "serve",
            "--data-dir",
            "data",
            "--dynamodb-port",
            "0",
            "--api-port",
            "0",
        ],
        dir,
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("ready in"));
    stderr(&out)
}

#[test]
fn a_second_serve_on_the_same_data_is_refused_and_told_who_holds_it() {
    let dir = tempfile::tempdir().unwrap();
    let first = Served::start(&["--data-dir", "data"], dir.path());
    let err = serve_refused(dir.path());
    assert!(err.contains("is in use by pid"), "{err}");
    assert!(err.contains(&first.child.id().to_string()), "{err}");
    assert!(err.contains("monotable serve"), "{err}");
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
fn a_read_only_database_file_is_refused_before_ready() {
    let dir = tempfile::tempdir().unwrap();
    Served::start(&["--data-dir", "data"], dir.path()).terminate();
    let file = dir.path().join("data").join("monotable.db");
    let mut perms = std::fs::metadata(&file).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&file, perms).unwrap();
    let err = serve_refused(dir.path());
    assert!(err.contains("cannot be written"), "{err}");
}

#[test]
fn a_deleted_database_refuses_every_later_write_instead_of_losing_it() {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(&["--data-dir", "data"], dir.path());
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
    let served = Served::start(
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
    let served = Served::start(&["--data-dir", "data"], dir.path());
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

#[test]
fn the_banner_says_whether_the_endpoint_checks_signatures() {
    let dir = tempfile::tempdir().unwrap();
    let open = Served::start(&["--in-memory"], dir.path());
    assert!(
        open.banner.join("\n").contains("auth      none"),
        "{:?}",
        open.banner
    );
    open.terminate();
    let signed = Served::start(
        &["--in-memory", "--auth", "local:s3cr3t-s3cr3t"],
        dir.path(),
    );
    assert!(
        signed
            .banner
            .join("\n")
            .contains("SigV4 required (access key local"),
        "{:?}",
        signed.banner
    );
    signed.terminate();
}

/// The environment of a client (or a serve) that finds its region only where it is told: an
/// empty AWS config, `region` in `AWS_REGION` when given.
fn region_env(dir: &std::path::Path, region: Option<&str>) -> Vec<(String, String)> {
    let empty = dir.join("empty-aws-config");
    std::fs::write(&empty, "").unwrap();
    let none = empty.display().to_string();
    let mut env = vec![
        ("AWS_CONFIG_FILE".to_string(), none.clone()),
        ("AWS_SHARED_CREDENTIALS_FILE".to_string(), none),
        ("AWS_ACCESS_KEY_ID".to_string(), "local".to_string()),
        (
            "AWS_SECRET_ACCESS_KEY".to_string(),
            "s3cr3t-s3cr3t".to_string(),
        ),
    ];
    if let Some(region) = region {
        env.push(("AWS_REGION".to_string(), region.to_string()));
    }
    env
}

/// `monotable tables --endpoint URL` signing in `region`.
fn tables_in(dir: &std::path::Path, url: &str, region: &str) -> std::process::Output {
    common::monotable()
        .args(["tables", "--endpoint", url])
        .envs(region_env(dir, Some(region)))
        .env_remove("AWS_PROFILE")
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn with_auth_a_credential_scoped_to_another_region_is_refused_as_dynamodb_does() {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(
        &[
            "--in-memory",
            "--auth",
            "local:s3cr3t-s3cr3t",
            "--region",
            "eu-west-1",
        ],
        dir.path(),
    );
    assert!(
        served.banner.join("\n").contains("region eu-west-1"),
        "{:?}",
        served.banner
    );
    let out = tables_in(dir.path(), &served.url, "eu-west-1");
    assert!(out.status.success(), "{}", stderr(&out));
    let out = tables_in(dir.path(), &served.url, "us-east-1");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("InvalidSignatureException"), "{err}");
    assert!(
        err.contains("Credential should be scoped to a valid region, not 'us-east-1'."),
        "{err}"
    );
    // An answer, not a failure to reach the endpoint, and without the SDK's debug dump.
    assert!(!err.contains("cannot reach"), "{err}");
    assert!(!err.contains("Error {"), "{err}");
    served.terminate();
}

#[test]
fn without_region_the_endpoint_takes_the_environments_as_the_sdks_do() {
    let dir = tempfile::tempdir().unwrap();
    let region_of = |env: &[(String, String)]| {
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let served = Served::start_with_env(
            &["--in-memory", "--auth", "local:s3cr3t-s3cr3t"],
            &env,
            dir.path(),
        );
        let banner = served.banner.join("\n");
        served.terminate();
        banner
            .split("region ")
            .nth(1)
            .and_then(|rest| rest.split(';').next())
            .unwrap_or_default()
            .to_string()
    };
    let mut both = region_env(dir.path(), Some("ap-south-1"));
    both.push(("AWS_DEFAULT_REGION".into(), "eu-north-1".into()));
    assert_eq!(region_of(&both), "ap-south-1");
    let mut default_only = region_env(dir.path(), None);
    default_only.push(("AWS_DEFAULT_REGION".into(), "eu-north-1".into()));
    assert_eq!(region_of(&default_only), "eu-north-1");
    assert_eq!(region_of(&region_env(dir.path(), None)), "us-east-1");
}
