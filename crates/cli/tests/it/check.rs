//! `monotable check` as a user runs it: exit codes, formats, and the two example designs.

use crate::common;

use common::run;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_shop_model_has_no_problems_only_suggestions() {
    let out = run(
        &["check", "examples/shop/shop.toml", "--deny-warnings"],
        &root(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(stdout.matches("info[MT016]").count(), 2, "{stdout}");
    assert!(
        stdout.ends_with("examples/shop/shop.toml: no problems found (2 suggestions above)\n"),
        "{stdout}"
    );
}

#[test]
fn the_native_shop_model_is_clean() {
    let out = run(
        &["check", "examples/shop/shop-native.toml", "--deny-warnings"],
        &root(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(
        stdout.trim(),
        "examples/shop/shop-native.toml: no problems found"
    );
}

#[test]
fn the_seed_design_fails_with_each_defect_named() {
    let out = run(&["check", "examples/seed-original/model.toml"], &root());
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for code in [
        "MT001", "MT002", "MT003", "MT004", "MT006", "MT009", "MT010", "MT011", "MT012", "MT013",
        "MT014",
    ] {
        assert!(
            stdout.contains(&format!("[{code}]")),
            "{code} missing:\n{stdout}"
        );
    }
    assert!(stdout.contains("--> examples/seed-original/model.toml:"));
}

#[test]
fn json_output_is_one_document() {
    let out = run(
        &[
            "check",
            "examples/seed-original/model.toml",
            "--format",
            "json",
        ],
        &root(),
    );
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert!(doc["summary"]["errors"].as_u64().unwrap() > 0);
}

#[test]
fn a_missing_model_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["check", "nope.toml"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: cannot read model nope.toml: "),
        "{err}"
    );
}

#[test]
fn json_output_explains_an_unreadable_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("a-directory.toml")).unwrap();
    std::fs::write(dir.path().join("binary.toml"), [0xff, 0xfe, 0x00, 0x9f]).unwrap();
    for file in ["missing.toml", "a-directory.toml", "binary.toml"] {
        let out = run(&["check", file, "--format", "json"], dir.path());
        assert_eq!(out.status.code(), Some(1), "{file}");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{file}: not JSON ({e}): {:?}", out.stdout));
        assert_eq!(doc["file"], file);
        assert_eq!(doc["summary"]["errors"], 1, "{doc}");
        let d = &doc["diagnostics"][0];
        assert_eq!(d["code"], "MT000");
        assert!(d["line"].is_null(), "{doc}");
        let message = d["message"].as_str().unwrap_or_default();
        assert!(message.starts_with("cannot read the model: "), "{message}");
    }
    // verify and cost answer tools the same way: a document with the error.
    for command in ["verify", "cost"] {
        let out = run(&[command, "missing.toml", "--format", "json"], dir.path());
        assert_eq!(out.status.code(), Some(1), "{command}");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(doc["file"], "missing.toml");
        assert!(
            doc["error"]
                .as_str()
                .is_some_and(|e| e.starts_with("cannot read model missing.toml")),
            "{doc}"
        );
    }
    // People still get the error on stderr and nothing on stdout.
    let out = run(&["check", "binary.toml"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_broken_model_is_a_diagnostic_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), "[table\nname = 3").unwrap();
    let out = run(&["check", "bad.toml"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("error[MT000]"), "{stdout}");
}

#[test]
fn export_writes_each_format_and_refuses_a_broken_model() {
    for format in ["create-table", "cloudformation", "sam", "markdown"] {
        let out = run(
            &["export", "examples/shop/shop.toml", "--format", format],
            &root(),
        );
        assert!(
            out.status.success(),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stdout.is_empty(), "{format} printed nothing");
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), "version = 1\n[table]\n").unwrap();
    let out = run(&["export", "bad.toml", "--format", "sam"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing exported"));
}

#[test]
fn verify_passes_the_shop_and_names_the_seeds_broken_patterns() {
    let out = run(
        &["verify", "examples/shop/shop.toml", "--seed", "3"],
        &root(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains(" 0 failed"), "{stdout}");
    let out = run(&["verify", "examples/seed-original/model.toml"], &root());
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("FAIL getOrderWithItems"), "{stdout}");
    assert!(stdout.contains("FAIL listOrdersByDate"), "{stdout}");
    let json = run(
        &["verify", "examples/shop/shop.toml", "--format", "json"],
        &root(),
    );
    let _: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON report");
}

#[test]
fn cost_prices_the_shop_and_accepts_a_price_table() {
    let out = run(&["cost", "examples/shop/shop.toml"], &root());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("createOrder"), "{stdout}");
    let out = run(
        &["cost", "examples/shop/shop.toml", "--format", "json"],
        &root(),
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(doc.is_object());
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), "on_demand = [").unwrap();
    let model = root().join("examples/shop/shop.toml");
    let out = run(
        &["cost", model.to_str().unwrap(), "--prices", "bad.toml"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: price table bad.toml"));
}

#[test]
fn a_nosql_workbench_export_imports_back_to_the_same_model() {
    let dir = tempfile::tempdir().unwrap();
    let model = root().join("examples/shop/shop.toml");
    let out = run(
        &[
            "export",
            model.to_str().unwrap(),
            "--format",
            "nosql-workbench",
            "-o",
            "shop.json",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("shop.json")).unwrap())
            .unwrap();
    let data = doc["DataModel"][0]["TableData"].as_array().unwrap();
    assert!(!data.is_empty(), "the verify sample data is the table data");
    let out = run(
        &[
            "import",
            "--from",
            "nosql-workbench",
            "shop.json",
            "-o",
            "back.toml",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let back = std::fs::read_to_string(dir.path().join("back.toml")).unwrap();
    assert_eq!(back, std::fs::read_to_string(&model).unwrap());
    // An existing file is not overwritten; junk is an error.
    let out = run(
        &[
            "import",
            "--from",
            "nosql-workbench",
            "shop.json",
            "-o",
            "back.toml",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    std::fs::write(dir.path().join("junk.json"), "{}").unwrap();
    let out = run(
        &["import", "--from", "nosql-workbench", "junk.json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn cost_cross_check_runs_the_shop_on_the_engine() {
    let out = run(
        &[
            "cost",
            "examples/shop/shop.toml",
            "--cross-check",
            "--seed",
            "1",
        ],
        &root(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("createOrder"), "{stdout}");
    assert!(
        stdout.contains("capacity cross-check on table Shop"),
        "{stdout}"
    );
    assert!(stdout.ends_with(" agree, 0 disagree\n"), "{stdout}");
    let out = run(
        &[
            "cost",
            "examples/shop/shop.toml",
            "--cross-check",
            "--format",
            "json",
        ],
        &root(),
    );
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert!(doc["cost"]["patterns"].is_array());
    assert_eq!(doc["crossCheck"]["agrees"], true);
    assert_eq!(doc["crossCheck"]["summary"]["disagree"], 0);
    // --seed without --cross-check is a usage error.
    let out = run(&["cost", "examples/shop/shop.toml", "--seed", "2"], &root());
    assert_eq!(out.status.code(), Some(2));
}
