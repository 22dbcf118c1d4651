//! `monotable check` as a user runs it: exit codes, formats, and the two example designs.

mod common;

use common::run;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_shop_model_is_clean() {
    let out = run(
        &["check", "examples/shop/shop.toml", "--deny-warnings"],
        &root(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(stdout.trim(), "examples/shop/shop.toml: no problems found");
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
