//! boto3 against a fresh `monotable serve`: a global index on native multi-attribute keys
//! (status + shard HASH, createdAt + orderId RANGE) is created, filled and queried, in order,
//! with numbers compared as numbers, and a query missing a partition equality is refused with a
//! ValidationException (tests/boto3/native_keys.py). Needs python3 with boto3
//! (`requirements-dev.txt`).

mod common;

use std::process::Command;

use common::Served;

#[test]
fn boto3_creates_and_queries_a_native_multi_attribute_index_on_serve() {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/boto3/native_keys.py");
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
    assert!(
        served.url.starts_with("http://127.0.0.1:"),
        "{}",
        served.url
    );
    let output = Command::new("python3")
        .arg(&script)
        .env("AWS_ENDPOINT_URL_DYNAMODB", &served.url)
        .env("AWS_ACCESS_KEY_ID", "native")
        .env("AWS_SECRET_ACCESS_KEY", "native")
        .env("AWS_DEFAULT_REGION", "us-east-1")
        .env_remove("AWS_PROFILE")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "native_keys.py failed\n{stdout}\n{stderr}"
    );
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(
        summary.ends_with("passed, 0 failed") && !summary.starts_with("0 passed"),
        "{stdout}"
    );
    for check in [
        "ok - ascending by createdAt then orderId",
        "ok - shard 3.0 is shard 3",
        "ok - a query without the shard equality is a ValidationException",
    ] {
        assert!(stdout.contains(check), "{check}\n{stdout}");
    }
    served.terminate();
}
