//! Running a boto3 script against a fresh `monotable serve`: placeholder credentials, no
//! profile or instance metadata, and the script's `N passed, 0 failed` summary checked.

use std::path::Path;
use std::process::Command;

use monotable_test_support::tool::serve;

/// Run `script` with python3 against a fresh in-memory `monotable serve` and return its stdout,
/// once it exited successfully and its last line says some checks passed and none failed.
/// Fails with the fix when python3 or boto3 is missing.
pub fn run_against_serve(script: &Path) -> String {
    let probe = Command::new("python3")
        .args(["-c", "import boto3"])
        .output();
    assert!(
        probe.as_ref().is_ok_and(|o| o.status.success()),
        "python3 with boto3 is needed: run `python3 -m pip install -r requirements-dev.txt` \
         (scripts/test.sh does)"
    );
    let dir = tempfile::tempdir().unwrap();
    let served = serve(&["--in-memory"], dir.path());
    assert!(
        served.url.starts_with("http://127.0.0.1:"),
        "{}",
        served.url
    );
    let output = Command::new("python3")
        .arg(script)
        .env("AWS_ENDPOINT_URL_DYNAMODB", &served.url)
        .env("AWS_ACCESS_KEY_ID", "placeholder")
        .env("AWS_SECRET_ACCESS_KEY", "placeholder")
        .env("AWS_DEFAULT_REGION", "us-east-1")
        .env_remove("AWS_PROFILE")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .expect("run python3");
    served.terminate();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{} failed\n{stdout}\n{stderr}",
        script.display()
    );
    let summary = stdout.lines().last().unwrap_or_default();
    assert!(
        summary.ends_with("passed, 0 failed") && !summary.starts_with("0 passed"),
        "{stdout}"
    );
    stdout
}
