//! `monotable verify --table`: the shop's patterns over the data `monotable-shop load-sample`
//! wrote, read from the data directory; a table that is not there is an error, not an empty
//! pass; `--allow-writes` runs the write patterns there too, leaving the table as it was.

use crate::common;

use common::run;
use monotable_test_support::shop;

fn shop_model() -> String {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop/shop.toml");
    path.display().to_string()
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn verify_table_passes_on_the_loaded_shop() {
    let dir = tempfile::tempdir().unwrap();
    let load = [
        "load-sample",
        "--data-dir",
        "data",
        "--quiet",
        "--users",
        "6",
        "--products",
        "10",
        "--orders",
        "25",
        "--days",
        "20",
    ];
    let out = shop::run(&load, dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let model = shop_model();
    let out = run(
        &["verify", &model, "--table", "--data-dir", "data"],
        dir.path(),
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert!(
        text.starts_with("table Shop: ") && text.contains(" items read from the table (seed 1): "),
        "{text}"
    );
    assert!(text.contains("6 User"), "{text}");
    assert!(text.contains("ok   listUserOrders (Query)"), "{text}");
    assert!(text.contains(" 0 failed"), "{text}");
    let out = run(
        &[
            "verify",
            &model,
            "--table",
            "--data-dir",
            "data",
            "--format",
            "json",
            "--seed",
            "7",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(doc["source"], "table");
    assert_eq!(doc["passed"], true);
    assert_eq!(doc["seed"], 7);
}

#[test]
fn verify_table_without_a_table_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let model = shop_model();
    // No data directory: refused before one is created.
    let out = run(
        &["verify", &model, "--table", "--data-dir", "data"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no embedded data at "),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join("data").exists());
    // A data directory without the model's table.
    let out = run(&["tables", "--data-dir", "data"], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(
        &["verify", &model, "--table", "--data-dir", "data"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("cannot scan table `Shop`: ResourceNotFoundException"),
        "{}",
        stderr(&out)
    );
    // Connection flags without --table are a mistake, not ignored.
    let out = run(&["verify", &model, "--in-memory"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("add --table"), "{}", stderr(&out));
}

/// `--allow-writes` runs the write patterns on the loaded shop, on items verify creates and
/// removes: every pattern passes, none is skipped, and the table holds what it held before.
#[test]
fn verify_table_allow_writes_runs_the_writes_and_leaves_the_table_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let load = [
        "load-sample",
        "--data-dir",
        "data",
        "--quiet",
        "--users",
        "4",
        "--products",
        "6",
        "--orders",
        "8",
    ];
    let out = shop::run(&load, dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let model = shop_model();
    let read_only = [
        "verify",
        &model,
        "--table",
        "--data-dir",
        "data",
        "--format",
        "json",
    ];
    let json = |out: &std::process::Output| -> serde_json::Value {
        serde_json::from_slice(&out.stdout).expect("JSON report")
    };
    let before = json(&run(&read_only, dir.path()));
    assert!(
        before["summary"]["skipped"].as_u64().unwrap_or(0) > 0,
        "writes are skipped without --allow-writes"
    );
    let skipped = before["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["skipped"] == true)
        .unwrap();
    assert!(
        skipped["message"]
            .as_str()
            .unwrap()
            .contains("without --allow-writes"),
        "{skipped}"
    );
    let mut writing = read_only.to_vec();
    writing.push("--allow-writes");
    let out = run(&writing, dir.path());
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let report = json(&out);
    assert_eq!(report["summary"]["skipped"], 0, "{report}");
    assert_eq!(report["passed"], true);
    let create = report["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "createOrder")
        .unwrap();
    assert!(
        create["checks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["kind"] == "atomicity" && c["passed"] == true),
        "{create}"
    );
    let after = json(&run(&read_only, dir.path()));
    assert_eq!(after["items"], before["items"], "nothing left behind");
    assert_eq!(after["entities"], before["entities"]);
}

#[test]
fn allow_writes_is_refused_with_aws_and_without_table() {
    let dir = tempfile::tempdir().unwrap();
    let model = shop_model();
    let out = run(
        &["verify", &model, "--table", "--aws", "--allow-writes"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("--allow-writes is refused with --aws"),
        "{}",
        stderr(&out)
    );
    let out = run(&["verify", &model, "--allow-writes"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("--allow-writes goes with --table"),
        "{}",
        stderr(&out)
    );
}
