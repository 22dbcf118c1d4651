//! The shop on native multi-attribute index keys (`examples/shop/shop-native.toml`) through the
//! CLI: NoSQL Workbench refuses it naming the index, `verify` passes it, `cost --cross-check`
//! agrees with the engine, and `cost --compare` sets it beside the shop on synthetic keys.

use crate::common;

use common::run;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const NATIVE: &str = "examples/shop/shop-native.toml";

#[test]
fn nosql_workbench_refuses_native_keys_naming_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let model = root().join(NATIVE);
    let out = run(
        &[
            "export",
            model.to_str().unwrap(),
            "--format",
            "nosql-workbench",
            "-o",
            "native.json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("NoSQL Workbench cannot represent native multi-attribute keys")
            && stderr.contains("index `ByCategory`"),
        "{stderr}"
    );
    assert!(!dir.path().join("native.json").exists(), "nothing written");
}

#[test]
fn verify_and_the_cross_check_pass_the_native_shop() {
    let out = run(&["verify", NATIVE], &root());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("ok   listOrdersByStatusInRange"),
        "{stdout}"
    );
    let out = run(&["cost", NATIVE, "--cross-check"], &root());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains(" 0 disagree"), "{stdout}");
}

#[test]
fn cost_compares_the_shop_with_the_native_shop() {
    let out = run(
        &["cost", "examples/shop/shop.toml", "--compare", NATIVE],
        &root(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.starts_with("cost: examples/shop/shop.toml -> examples/shop/shop-native.toml"),
        "{stdout}"
    );
    for part in [
        "storage B old",
        "key copies B old",
        "WCU/write old",
        "on-demand",
    ] {
        assert!(stdout.contains(part), "{part}: {stdout}");
    }
    let out = run(
        &[
            "cost",
            "examples/shop/shop.toml",
            "--compare",
            NATIVE,
            "--format",
            "json",
        ],
        &root(),
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["new_name"], NATIVE);
    assert!(doc["entities"].as_array().is_some_and(|e| e.len() == 8));
}
