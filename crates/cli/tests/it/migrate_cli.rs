//! `monotable diff` and `monotable migrate` from the command line: exit statuses, JSON, a dry
//! run that writes nothing, and a NEW that `check` finds new errors in.

use crate::common;

use std::path::Path;

use common::run;
use monotable_test_support::shop;

fn shop(name: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop");
    root.join(name).display().to_string()
}

fn text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn diff_exits_0_on_a_plan_and_1_on_a_blocked_change_with_json_for_tools() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (old, new) = (shop("shop.toml"), shop("changes/orders-by-product.toml"));
    let out = run(
        &["diff", &old, &new, "--format", "json", "--items", "1000"],
        tmp.path(),
    );
    assert!(out.status.success(), "{}", text(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(doc["blocked"], false);
    let kinds: Vec<&str> = doc["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter_map(|c| c["kind"].as_str())
        .collect();
    assert!(
        kinds.contains(&"create-index") && kinds.contains(&"backfill"),
        "{kinds:?}"
    );

    let source = std::fs::read_to_string(&old).expect("shop.toml");
    let renamed = tmp.path().join("renamed.toml");
    std::fs::write(
        &renamed,
        source.replacen("name = \"Shop\"", "name = \"Shop2\"", 1),
    )
    .expect("write");
    let out = run(&["diff", &old, &renamed.display().to_string()], tmp.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("DynamoDB cannot rename a table"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_dry_run_writes_nothing_and_apply_then_finds_nothing_left() {
    let tmp = tempfile::tempdir().expect("tempdir");
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
    assert!(shop::run(&load, tmp.path()).status.success());
    let (old, new) = (shop("shop.toml"), shop("changes/orders-by-product.toml"));
    let migrate = |extra: &[&str]| {
        let mut args = vec!["migrate", old.as_str(), new.as_str(), "--data-dir", "data"];
        args.extend_from_slice(extra);
        run(&args, tmp.path())
    };
    let dry = migrate(&["--format", "json"]);
    assert!(dry.status.success(), "{}", text(&dry));
    let doc: serde_json::Value = serde_json::from_slice(&dry.stdout).expect("json");
    assert_eq!(doc["dry_run"], true);
    let planned = doc["counts"]["rewritten"].as_u64().expect("count");
    assert!(planned > 0);
    let again = migrate(&["--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&again.stdout).expect("json");
    assert_eq!(
        doc["counts"]["rewritten"].as_u64(),
        Some(planned),
        "the dry run wrote nothing"
    );

    let applied = migrate(&["--apply"]);
    let out = text(&applied);
    assert!(applied.status.success(), "{out}");
    assert!(
        out.contains(&format!("{planned}  rewritten in place")),
        "{out}"
    );
    assert!(
        out.contains("no problems"),
        "the audit against NEW is clean: {out}"
    );
    let after = migrate(&["--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&after.stdout).expect("json");
    assert_eq!(
        doc["counts"]["rewritten"].as_u64(),
        Some(0),
        "nothing left to do"
    );
}

#[test]
fn migrate_refuses_a_new_model_with_new_errors() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let old = shop("shop.toml");
    let source = std::fs::read_to_string(&old).expect("shop.toml");
    let broken = tmp.path().join("broken.toml");
    let text_new = source.replacen(
        "projection = \"ALL\"\nsparse",
        "projection = \"KEYS_ONLY\"\nsparse",
        1,
    );
    std::fs::write(&broken, text_new).expect("write");
    let out = run(
        &[
            "migrate",
            &old,
            &broken.display().to_string(),
            "--in-memory",
        ],
        tmp.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("fix them before migrating"),
        "{}",
        text(&out)
    );
}
