//! The seed document's own boto3 code (examples/seed-boto3) against a fresh `monotable serve`:
//! every access pattern, the transaction, the conditional update, the sparse GSI, the date-range
//! query and pagination, each checked. Needs python3 with boto3 (`requirements-dev.txt`).

mod common;

use std::process::Command;

use common::Served;

#[test]
fn the_seed_documents_boto3_code_runs_against_serve() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = root.join("examples/seed-boto3/check_seed.py");
    let probe = Command::new("python3")
        .args(["-c", "import boto3"])
        .output();
    assert!(
        probe.as_ref().is_ok_and(|o| o.status.success()),
        "python3 with boto3 is needed: run `python3 -m pip install -r requirements-dev.txt` \
         (scripts/test.sh does)"
    );

    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(&["--in-memory"], dir.path());
    let output = Command::new("python3")
        .arg(&script)
        .env("AWS_ENDPOINT_URL_DYNAMODB", &served.url)
        .env("AWS_ACCESS_KEY_ID", "seed")
        .env("AWS_SECRET_ACCESS_KEY", "seed")
        .env("AWS_DEFAULT_REGION", "us-east-1")
        .env_remove("AWS_PROFILE")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "check_seed.py failed\n{stdout}\n{stderr}"
    );
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(
        summary.ends_with("passed, 0 failed") && !summary.starts_with("0 passed"),
        "{stdout}"
    );
    served.terminate();
}
