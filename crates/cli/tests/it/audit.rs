//! `monotable audit` through the binary: 0 on the shop's table as `monotable-shop load-sample`
//! fills it, 1 once
//! an item no longer fits the model, 2 when no audit can be made.

use crate::common;

use aws_sdk_dynamodb::types::AttributeValue;
use common::run;
use monotable_connect::{Backend, DataLocation};
use monotable_test_support::shop;

fn shop_model() -> String {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop/shop.toml");
    path.to_str().expect("UTF-8 path").to_string()
}

fn text(out: &std::process::Output) -> String {
    format!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Sets the status of one order in the data directory to a value the model does not allow.
fn corrupt_an_order(data: std::path::PathBuf) {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let dynamo = monotable_connect::connect(&Backend::Embedded(DataLocation::Dir(data)))
            .await
            .expect("open the data directory");
        let client = dynamo.client();
        let orders = client
            .scan()
            .table_name("Shop")
            .filter_expression("entityType = :order")
            .expression_attribute_values(":order", AttributeValue::S("Order".into()))
            .send()
            .await
            .expect("scan");
        let order = orders.items().first().expect("an order").clone();
        client
            .update_item()
            .table_name("Shop")
            .key("PK", order["PK"].clone())
            .key("SK", order["SK"].clone())
            .update_expression("SET #status = :lost")
            .expression_attribute_names("#status", "status")
            .expression_attribute_values(":lost", AttributeValue::S("LOST".into()))
            .send()
            .await
            .expect("update");
    });
}

#[test]
fn audit_exits_0_when_the_table_fits_and_1_once_an_item_drifts() {
    let dir = tempfile::tempdir().unwrap();
    let model = shop_model();
    let out = shop::run(
        &[
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
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));

    let out = run(&["audit", &model, "--data-dir", "data"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("of table Shop: no problems"), "{stdout}");

    corrupt_an_order(dir.path().join("data"));

    let out = run(&["audit", &model, "--data-dir", "data"], dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("error[MA019]: Order PK=ORDER#"), "{stdout}");
    // The status key was not re-rendered either.
    assert!(stdout.contains("error[MA013]"), "{stdout}");
    assert!(stdout.contains("shop.toml:"), "quotes the model: {stdout}");

    let out = run(
        &[
            "audit",
            &model,
            "--data-dir",
            "data",
            "--format",
            "json",
            "--sample",
            "1000000",
            "--segments",
            "2",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["counts"]["MA019"], 1, "{doc}");
    assert_eq!(doc["sample"]["requested"], 1_000_000, "{doc}");
    assert_eq!(doc["summary"]["drift"], true);
}

#[test]
fn audit_exits_2_when_no_audit_can_be_made() {
    let dir = tempfile::tempdir().unwrap();
    let model = shop_model();
    let out = run(
        &["audit", &model, "--in-memory", "--segments", "0"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let out = run(&["audit", "missing.toml", "--in-memory"], dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read model missing.toml"));
    let out = run(
        &["audit", "missing.toml", "--in-memory", "--format", "json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["file"], "missing.toml");
    // An engine without the table is drift (MA001), not trouble.
    let out = run(&["audit", &model, "--in-memory"], dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("error[MA001]"));
}
