//! `monotable serve` and `monotable tables` as a user runs them: the banner, a client on the
//! endpoint, clean shutdown on SIGTERM with the data kept, and one-line errors for bad input;
//! `tables` on what `monotable-shop serve` holds.

use std::net::TcpListener;

use monotable_test_support::shop;
use monotable_test_support::tool::{run, serve};

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn banner_says_where_data_lives_and_how_to_connect() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(&["--data-dir", "shop-data"], dir.path());
    let banner = served.banner.join("\n");
    let data_file = dir.path().join("shop-data").join("monotable.db");
    assert!(
        banner.contains(&data_file.display().to_string()),
        "{banner}"
    );
    assert!(
        served.url.starts_with("http://127.0.0.1:"),
        "{}",
        served.url
    );
    assert!(
        banner.contains(&format!(
            "aws dynamodb list-tables --endpoint-url {}",
            served.url
        )),
        "{banner}"
    );
    let after = served.terminate();
    assert!(
        after.iter().any(|l| l.starts_with("stopped; data is in")),
        "{after:?}"
    );
}

#[test]
fn sigterm_keeps_every_acknowledged_write() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(&[], dir.path());
    let url = served.url.clone();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let dynamo = monotable_connect::connect(&monotable_connect::Backend::Endpoint(url))
            .await
            .unwrap();
        let c = dynamo.client();
        c.create_table()
            .table_name("Kept")
            .key_schema(
                aws_sdk_dynamodb::types::KeySchemaElement::builder()
                    .attribute_name("PK")
                    .key_type(aws_sdk_dynamodb::types::KeyType::Hash)
                    .build()
                    .unwrap(),
            )
            .attribute_definitions(
                aws_sdk_dynamodb::types::AttributeDefinition::builder()
                    .attribute_name("PK")
                    .attribute_type(aws_sdk_dynamodb::types::ScalarAttributeType::S)
                    .build()
                    .unwrap(),
            )
            .billing_mode(aws_sdk_dynamodb::types::BillingMode::PayPerRequest)
            .send()
            .await
            .unwrap();
        for i in 0..50 {
            c.put_item()
                .table_name("Kept")
                .item(
                    "PK",
                    aws_sdk_dynamodb::types::AttributeValue::S(format!("k{i}")),
                )
                .send()
                .await
                .unwrap();
        }
    });
    served.terminate();

    // Restarted on the same (default) data directory, the writes are there.
    let served = serve(&[], dir.path());
    let url = served.url.clone();
    let count = rt.block_on(async {
        let dynamo = monotable_connect::connect(&monotable_connect::Backend::Endpoint(url))
            .await
            .unwrap();
        dynamo
            .client()
            .scan()
            .table_name("Kept")
            .send()
            .await
            .unwrap()
            .count()
    });
    assert_eq!(count, 50);
    served.terminate();
}

#[test]
fn a_port_in_use_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let output = run(&["serve", "--dynamodb-port", &port], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "error: port {port} is already in use on 127.0.0.1"
        )),
        "{err}"
    );
}

#[test]
fn an_unusable_data_directory_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("file"), b"not a directory").unwrap();
    let output = run(
        &["serve", "--data-dir", "file/data", "--dynamodb-port", "0"],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: cannot create data directory file/data: "),
        "{err}"
    );
}

#[test]
fn an_unknown_flag_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let output = run(&["serve", "--frobnicate"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("unexpected argument '--frobnicate'"));
}

#[test]
fn an_unreachable_endpoint_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let output = run(&["tables", "--endpoint", &url], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(
        err.starts_with(&format!("error: cannot reach DynamoDB at {url}: ")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn an_invalid_endpoint_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let output = run(&["tables", "--endpoint", "localhost:8000"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).starts_with("error: invalid DynamoDB endpoint `localhost:8000`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn tables_lists_what_serve_holds_and_the_embedded_default_works_without_setup() {
    let dir = tempfile::tempdir().unwrap();
    // Embedded, in memory: no credentials, region or endpoint in the environment.
    let output = run(&["tables", "--in-memory"], dir.path());
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("0 table(s) on embedded engine"));

    let served = serve(&["--in-memory"], dir.path());
    let output = run(&["tables", "--endpoint", &served.url], dir.path());
    assert!(output.status.success(), "{}", stderr(&output));
    // The engine alone holds no table.
    assert!(stderr(&output).contains(&format!("0 table(s) on endpoint {}", served.url)));
    served.terminate();

    let served = shop::serve(&["--in-memory"], dir.path());
    let output = run(&["tables", "--endpoint", &served.url], dir.path());
    assert!(output.status.success(), "{}", stderr(&output));
    // The shop's serve created the shop's table from its model.
    assert!(stderr(&output).contains(&format!("1 table(s) on endpoint {}", served.url)));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "Shop");
    served.terminate();
}
