//! `monotable serve` against an unlucky operator: a read-only database, and callers signing for
//! the wrong region; the banner says whether the endpoint checks signatures. Each is refused or
//! reported, never a silent loss or a bare status. (`monotable-shop serve` runs the same engine
//! side; its shop's side is tested in crates/shop-server/tests/it/serve_hardening.rs.)

use monotable_test_support::tool::{command, serve, serve_with_env};
use monotable_test_support::{Program, Served};

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_read_only_database_file_is_refused_before_ready() {
    let dir = tempfile::tempdir().unwrap();
    serve(&["--data-dir", "data"], dir.path()).terminate();
    let file = dir.path().join("data").join("monotable.db");
    let mut perms = std::fs::metadata(&file).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&file, perms).unwrap();
    let err = Served::refused(Program::Tool, &["--data-dir", "data"], dir.path());
    assert!(err.contains("cannot be written"), "{err}");
}

#[test]
fn the_banner_says_whether_the_endpoint_checks_signatures() {
    let dir = tempfile::tempdir().unwrap();
    let open = serve(&["--in-memory"], dir.path());
    assert!(
        open.banner.join("\n").contains("auth      none"),
        "{:?}",
        open.banner
    );
    open.terminate();
    let signed = serve(
        &["--in-memory", "--auth", "local:s3cr3t-s3cr3t"],
        dir.path(),
    );
    assert!(
        signed
            .banner
            .join("\n")
            .contains("SigV4 required (access key local"),
        "{:?}",
        signed.banner
    );
    signed.terminate();
}

/// The environment of a client (or a serve) that finds its region only where it is told: an
/// empty AWS config, `region` in `AWS_REGION` when given.
fn region_env(dir: &std::path::Path, region: Option<&str>) -> Vec<(String, String)> {
    let empty = dir.join("empty-aws-config");
    std::fs::write(&empty, "").unwrap();
    let none = empty.display().to_string();
    let mut env = vec![
        ("AWS_CONFIG_FILE".to_string(), none.clone()),
        ("AWS_SHARED_CREDENTIALS_FILE".to_string(), none),
        ("AWS_ACCESS_KEY_ID".to_string(), "local".to_string()),
        (
            "AWS_SECRET_ACCESS_KEY".to_string(),
            "s3cr3t-s3cr3t".to_string(),
        ),
    ];
    if let Some(region) = region {
        env.push(("AWS_REGION".to_string(), region.to_string()));
    }
    env
}

/// `monotable tables --endpoint URL` signing in `region`.
fn tables_in(dir: &std::path::Path, url: &str, region: &str) -> std::process::Output {
    command()
        .args(["tables", "--endpoint", url])
        .envs(region_env(dir, Some(region)))
        .env_remove("AWS_PROFILE")
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn with_auth_a_credential_scoped_to_another_region_is_refused_as_dynamodb_does() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(
        &[
            "--in-memory",
            "--auth",
            "local:s3cr3t-s3cr3t",
            "--region",
            "eu-west-1",
        ],
        dir.path(),
    );
    assert!(
        served.banner.join("\n").contains("region eu-west-1"),
        "{:?}",
        served.banner
    );
    let out = tables_in(dir.path(), &served.url, "eu-west-1");
    assert!(out.status.success(), "{}", stderr(&out));
    let out = tables_in(dir.path(), &served.url, "us-east-1");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("InvalidSignatureException"), "{err}");
    assert!(
        err.contains("Credential should be scoped to a valid region, not 'us-east-1'."),
        "{err}"
    );
    // An answer, not a failure to reach the endpoint, and without the SDK's debug dump.
    assert!(!err.contains("cannot reach"), "{err}");
    assert!(!err.contains("Error {"), "{err}");
    served.terminate();
}

#[test]
fn without_region_the_endpoint_takes_the_environments_as_the_sdks_do() {
    let dir = tempfile::tempdir().unwrap();
    let region_of = |env: &[(String, String)]| {
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let served = serve_with_env(
            &["--in-memory", "--auth", "local:s3cr3t-s3cr3t"],
            &env,
            dir.path(),
        );
        let banner = served.banner.join("\n");
        served.terminate();
        banner
            .split("region ")
            .nth(1)
            .and_then(|rest| rest.split(';').next())
            .unwrap_or_default()
            .to_string()
    };
    let mut both = region_env(dir.path(), Some("ap-south-1"));
    both.push(("AWS_DEFAULT_REGION".into(), "eu-north-1".into()));
    assert_eq!(region_of(&both), "ap-south-1");
    let mut default_only = region_env(dir.path(), None);
    default_only.push(("AWS_DEFAULT_REGION".into(), "eu-north-1".into()));
    assert_eq!(region_of(&default_only), "eu-north-1");
    assert_eq!(region_of(&region_env(dir.path(), None)), "us-east-1");
}
