//! What `monotable serve` prints: no secret (the `--auth` one) in a refusal to share a data
//! directory, a usage error or the help text. (What it leaves on disk, the same for the shop's
//! program, is tested on `monotable-shop serve`, whose data directory also holds the token
//! secret: crates/shop-server/tests/it/serve_private.rs.)

use monotable_test_support::tool::{command, run, serve};

/// The `--auth` secret every test here passes, and looks for where it must not be.
const SECRET: &str = "n0t-f0r-y0ur-eyes-42";

fn auth() -> String {
    format!("local:{SECRET}")
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_second_serve_names_the_holder_without_its_secret() {
    let dir = tempfile::tempdir().unwrap();
    let first = serve(&["--data-dir", "data", "--auth", &auth()], dir.path());
    let out = run(
        &["serve", "--data-dir", "data", "--dynamodb-port", "0"],
        dir.path(),
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("pid {} (monotable serve)", first.child.id())),
        "{err}"
    );
    assert!(!err.contains(SECRET), "{err}");
    assert!(!err.contains("--auth"), "{err}");
    first.terminate();
}

#[test]
fn a_bad_auth_value_is_refused_without_repeating_it() {
    let dir = tempfile::tempdir().unwrap();
    // Too short a secret, no colon, an empty key: by flag and by environment variable.
    for value in ["local:sh0rt-1", "nocolon-s3cr3t-value", ":s3cr3t-s3cr3t"] {
        let by_flag = run(&["serve", "--in-memory", "--auth", value], dir.path());
        let by_env = command()
            .args(["serve", "--in-memory"])
            .env("MONOTABLE_DYNAMODB_AUTH", value)
            .current_dir(dir.path())
            .output()
            .unwrap();
        for out in [by_flag, by_env] {
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{value}: {err}");
            assert!(err.contains("--auth"), "{value}: {err}");
            let secret = value.split_once(':').map_or(value, |(_, s)| s);
            assert!(!err.contains(secret), "{value} repeated: {err}");
            assert!(!String::from_utf8_lossy(&out.stdout).contains(secret));
        }
    }
}

#[test]
fn help_does_not_show_the_auth_variables_value() {
    let dir = tempfile::tempdir().unwrap();
    let out = command()
        .args(["serve", "--help"])
        .env("MONOTABLE_DYNAMODB_AUTH", auth())
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("MONOTABLE_DYNAMODB_AUTH"), "{help}");
    assert!(!help.contains(SECRET), "{help}");
}
