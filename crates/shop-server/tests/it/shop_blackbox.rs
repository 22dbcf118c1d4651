//! A black-box client (tests/blackbox/shop_contract.py, Python's standard library only) exercises
//! every route of the shop's contract on a fresh `monotable-shop serve`, with tokens from
//! `monotable-shop token`.

use std::process::Command;

use monotable_test_support::shop::{run, serve, token};

#[test]
fn a_contract_only_client_exercises_every_route() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(&["--data-dir", "data"], dir.path());
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/blackbox/shop_contract.py");
    let output = Command::new("python3")
        .arg(script)
        .env("SHOP_URL", &served.api)
        .env("ADMIN_TOKEN", token(dir.path(), "root", true))
        .env("ALICE_TOKEN", token(dir.path(), "alice", false))
        .env("BOB_TOKEN", token(dir.path(), "bob", false))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.trim_end().ends_with("passed, 0 failed"), "{stdout}");
    served.terminate();
}

#[test]
fn tokens_need_a_kept_secret() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["token", "--user", "alice", "--in-memory"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let out = run(
        &["token", "--user", "bad#id", "--data-dir", "d"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("user ids are"));
}
