//! Schemathesis, run against the shop's own `/openapi.json` on a fresh `monotable-shop serve` with an
//! admin token and with a user token: every generated request, valid or not, gets an answer the
//! document promises (status, body schema, content type) and no 5xx. The rules OpenAPI cannot
//! state per parameter live in scripts/schemathesis_hooks.py.

use std::process::Command;

use monotable_test_support::shop::{serve, token};

fn schemathesis(api: &str, token: &str, cwd: &std::path::Path) -> std::process::Output {
    let scripts = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts");
    // Schemathesis keeps a cache of what it found in the working directory: keep it out of
    // the source tree.
    Command::new("st")
        .current_dir(cwd)
        .args(["run", &format!("{api}/openapi.json")])
        .args(["-H", &format!("Authorization: Bearer {token}")])
        .args(["--max-examples", "60", "--no-color"])
        .env("SCHEMATHESIS_HOOKS", "schemathesis_hooks")
        .env("PYTHONPATH", scripts)
        .output()
        .expect("schemathesis (`st`) is installed: scripts/test.sh installs requirements-dev.txt")
}

#[test]
fn the_openapi_document_promises_what_the_server_does() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(&["--data-dir", "data"], dir.path());
    for (user, admin) in [("root", true), ("alice", false)] {
        let output = schemathesis(&served.api, &token(dir.path(), user, admin), dir.path());
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "schemathesis as {user} failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(stdout.contains("passed"), "{stdout}");
    }
    served.terminate();
}
