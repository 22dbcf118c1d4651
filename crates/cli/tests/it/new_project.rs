//! `monotable new`: the project it writes passes `monotable check`, holds the SAM template that
//! `monotable export` writes for its model (and cfn-lint accepts it), is formatted, and its own
//! tests pass with `cargo test --offline`. Its Lambda build (no feature) resolves to a graph
//! without the embedded engine, SQLite or an HTTP server, and runs as deployed: in Lambda mode
//! against a mock of the Lambda Runtime API, answering API Gateway events. Built with `local`,
//! it runs on a DynamoDB endpoint (`monotable serve`), creating its table. A name of every class
//! `new` accepts builds (one workspace, one `cargo check`, with and without `local`). Also what
//! `new` refuses.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use common::scaffold::{self, cargo, cfn_lint, text, timed};
use common::{monotable, run};
use monotable_test_support::runtime_api::{Posted, RuntimeApi, http_event};
use monotable_test_support::tool::serve;

fn created(parent: &Path, name: &str) -> std::path::PathBuf {
    let out = run(&["new", name], parent);
    assert!(out.status.success(), "{}", text(&out));
    let dir = parent.join(name);
    for file in [
        "Cargo.toml",
        "Cargo.lock",
        "model.toml",
        "src/lib.rs",
        "src/main.rs",
        "tests/app.rs",
        "template.yaml",
        "README.md",
    ] {
        assert!(dir.join(file).is_file(), "{file} is missing");
    }
    dir
}

#[test]
fn a_new_project_checks_builds_and_passes_its_tests() {
    let parent = scaffold::workdir("new-project");
    let dir = created(&parent, "demo");
    let out = run(&["check", "model.toml"], &dir);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("no problems found"), "{}", text(&out));
    template_is_in_step(&dir);
    let (out, _) = timed("cargo fmt --check", &mut cargo(&dir, &["fmt", "--check"]));
    assert!(out.status.success(), "{}", text(&out));
    let (out, _) = timed(
        "cargo test --offline (scaffold)",
        &mut cargo(&dir, &["test", "--offline"]),
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("test result: ok. 3 passed"),
        "{}",
        text(&out)
    );
    the_lambda_build_is_lean(&dir);
    let served = serve(&["--in-memory"], &parent);
    let binary = scaffold::target_dir().join("debug/demo");
    let (out, _) = timed(
        "cargo build --features local",
        &mut cargo(&dir, &["build", "--offline", "--features", "local"]),
    );
    assert!(out.status.success(), "{}", text(&out));
    runs_locally(&binary, &served.url);
    let (out, _) = timed(
        "cargo build (Lambda)",
        &mut cargo(&dir, &["build", "--offline"]),
    );
    assert!(out.status.success(), "{}", text(&out));
    runs_on_lambda(&binary, &served.url);
    the_lambda_build_says_how_to_run_locally(&binary);
    served.terminate();
}

/// The normal dependency graph of the Lambda build (`cargo build --release`: no feature, no
/// dev-dependency) holds no engine, no SQLite, no HTTP server and no DynamoDB Streams client
/// (local delivery's); with `local` it holds them all, so the check sees what it looks for. `cargo tree` only: nothing is built.
fn the_lambda_build_is_lean(dir: &Path) {
    const LOCAL_ONLY: [&str; 6] = [
        "dynoxide-rs v",
        "aws-sdk-dynamodbstreams v",
        "rusqlite v",
        "libsqlite3-sys v",
        "hyper feature \"server\"",
        "hyper-util feature \"server\"",
    ];
    let tree = |features: &[&str]| {
        let mut args = vec![
            "tree",
            "--offline",
            "-e",
            "normal,features",
            "--prefix",
            "none",
        ];
        args.extend(features);
        let (out, _) = timed("cargo tree", &mut cargo(dir, &args));
        assert!(out.status.success(), "{}", text(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let has = |tree: &str, entry: &str| tree.lines().any(|l| l.starts_with(entry));
    let lambda = tree(&[]);
    assert!(has(&lambda, "monotable v"), "{lambda}");
    assert!(has(&lambda, "lambda_http v"), "{lambda}");
    for entry in LOCAL_ONLY {
        assert!(!has(&lambda, entry), "the Lambda build links {entry}");
    }
    let local = tree(&["--features", "local"]);
    for entry in LOCAL_ONLY {
        assert!(has(&local, entry), "`--features local` lacks {entry}");
    }
}

/// The Lambda build run outside Lambda says how to run the API locally, and fails.
fn the_lambda_build_says_how_to_run_locally(binary: &Path) {
    let mut run = Command::new(binary);
    let out = scaffold::environment(&mut run).output().unwrap();
    assert!(!out.status.success());
    assert!(
        text(&out).contains("run the API here with `cargo run --features local`"),
        "{}",
        text(&out)
    );
}

/// Built with `local`, on a `monotable serve` endpoint: it creates its table and listens.
fn runs_locally(binary: &Path, endpoint: &str) {
    let mut local = Command::new(binary);
    scaffold::environment(&mut local)
        .env("AWS_ENDPOINT_URL_DYNAMODB", endpoint)
        .env("PORT", "0")
        .stdout(Stdio::piped());
    let mut local = local.spawn().expect("the project's binary starts");
    let mut banner = String::new();
    let stdout = local.stdout.take().unwrap();
    BufReader::new(stdout).read_line(&mut banner).unwrap();
    let _ = local.kill();
    let _ = local.wait();
    assert!(banner.starts_with("demo on http://127.0.0.1:"), "{banner}");
    assert!(banner.contains(endpoint), "{banner}");
}

/// The Lambda build, in Lambda mode on the same endpoint (whose table the local run created):
/// it answers API Gateway events.
fn runs_on_lambda(binary: &Path, endpoint: &str) {
    let runtime = RuntimeApi::start();
    let mut function = Command::new(binary);
    scaffold::environment(&mut function)
        .env("AWS_LAMBDA_RUNTIME_API", &runtime.address)
        .env("AWS_LAMBDA_FUNCTION_NAME", "demo")
        .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
        .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
        .env("TABLE_NAME", "demo")
        .env("MONOTABLE_CURSOR_SECRET", "scaffold-test-secret-0123456789")
        .env("AWS_ENDPOINT_URL_DYNAMODB", endpoint)
        .env("AWS_REGION", "us-east-1")
        .env("AWS_ACCESS_KEY_ID", "lambda")
        .env("AWS_SECRET_ACCESS_KEY", "lambda-secret")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut function = function.spawn().expect("the function starts");
    let list = serde_json::json!({"title": "Deployed"});
    let created = runtime.call(&http_event("POST", "/lists", Some(&list), None));
    let read = match &created {
        Posted::Response { body, .. } if body["statusCode"] == 201 => {
            let list: serde_json::Value =
                serde_json::from_str(body["body"].as_str().unwrap_or("")).unwrap();
            let path = format!("/lists/{}", list["listId"].as_str().unwrap_or(""));
            runtime.call(&http_event("GET", &path, None, None))
        }
        other => panic!("{other:?}"),
    };
    let _ = function.kill();
    let _ = function.wait();
    let Posted::Response { body, .. } = read else {
        panic!("{read:?}")
    };
    assert_eq!(body["statusCode"], 200, "{body}");
    assert!(
        body["body"].as_str().unwrap_or("").contains("Deployed"),
        "{body}"
    );
}

/// `template.yaml` is what `monotable export` writes for the model, and cfn-lint accepts it.
fn template_is_in_step(dir: &Path) {
    let args = [
        "export",
        "model.toml",
        "--format",
        "sam",
        "--function",
        "Demo",
        "--code-uri",
        "target/lambda/demo/",
    ];
    let out = run(&args, dir);
    assert!(out.status.success(), "{}", text(&out));
    let template = std::fs::read_to_string(dir.join("template.yaml")).unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), template);
    let Some(lint) = cfn_lint() else {
        eprintln!("cfn-lint is not installed: template.yaml not linted");
        return;
    };
    let out = std::process::Command::new(lint)
        .args(["--non-zero-exit-code", "warning", "--", "template.yaml"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
}

/// One name of every class `new` accepts (`new.rs`'s unit test lists the classes): the names
/// the templates use for their own items (`Error`, `Value`, `Status`, `Body`, `StatusCode`,
/// `ServiceExt`, `Backend`, the generated `ListTasksByStatus`, the module `error`, the variable
/// `table`, ...), a weak keyword, a primitive type, a prelude variant, `-` and digits.
const BUILDING_NAMES: [&str; 25] = [
    "Error",
    "Table",
    "Value",
    "Status",
    "Body",
    "Request",
    "Method",
    "StatusCode",
    "ServiceExt",
    "Backend",
    "BackendChoice",
    "ApiError",
    "ListTasksByStatus",
    "error",
    "table",
    "value",
    "status",
    "body",
    "app",
    "main",
    "union",
    "u16",
    "Some",
    "my-app",
    "todo2",
];

/// Every accepted class of name builds: a project for each in one Cargo workspace, checked with
/// one `cargo check --all-targets` (the library, the Lambda binary and the tests of each), then
/// the binaries again with `local`. Its dependencies are shared (the tests' are those of
/// `local`): the first run in a fresh target directory checks them all (about 2.5 minutes on
/// two cores), later ones only the projects (about 10 seconds).
#[test]
fn a_project_of_every_accepted_name_builds() {
    let parent = scaffold::workdir("new-names");
    let mut members = Vec::new();
    let mut profile = String::new();
    for name in BUILDING_NAMES {
        let dir = created(&parent, name);
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        // A member keeps its package; the workspace's root holds the profile and the lock.
        let (package, rest) = manifest
            .split_once("# Lean debug builds")
            .expect("the template's profile section");
        profile = format!("# Lean debug builds{}", rest.replace("[workspace]", ""));
        std::fs::write(dir.join("Cargo.toml"), package).unwrap();
        std::fs::rename(dir.join("Cargo.lock"), parent.join("Cargo.lock")).unwrap();
        members.push(format!("{name:?}"));
    }
    let root = format!(
        "[workspace]\nresolver = \"3\"\nmembers = [{}]\n\n{profile}",
        members.join(", ")
    );
    std::fs::write(parent.join("Cargo.toml"), root).unwrap();
    let (out, _) = timed(
        "cargo check (a project per accepted name)",
        &mut cargo(
            &parent,
            &["check", "--offline", "--all-targets", "--keep-going"],
        ),
    );
    assert!(out.status.success(), "{}", text(&out));
    let (out, _) = timed(
        "cargo check --features local (a project per accepted name)",
        &mut cargo(
            &parent,
            &[
                "check",
                "--offline",
                "--bins",
                "--all-features",
                "--keep-going",
            ],
        ),
    );
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn a_directory_that_is_not_empty_is_left_alone() {
    let parent = tempfile::tempdir().unwrap();
    std::fs::create_dir(parent.path().join("taken")).unwrap();
    std::fs::write(parent.path().join("taken/notes.txt"), "mine").unwrap();
    let out = run(&["new", "demo", "--path", "taken"], parent.path());
    assert!(!out.status.success());
    assert!(
        text(&out).contains("already exists and is not empty"),
        "{}",
        text(&out)
    );
    let left: Vec<_> = std::fs::read_dir(parent.path().join("taken"))
        .unwrap()
        .collect();
    assert_eq!(left.len(), 1);
    // An empty directory is used.
    std::fs::create_dir(parent.path().join("empty")).unwrap();
    let out = run(&["new", "demo", "--path", "empty"], parent.path());
    assert!(out.status.success(), "{}", text(&out));
    assert!(parent.path().join("empty/model.toml").is_file());
}

#[test]
fn bad_names_and_a_missing_library_are_refused() {
    let parent = tempfile::tempdir().unwrap();
    for name in ["1st", "my app", "fn", "tokio", "self", "Result", "std"] {
        let out = run(&["new", name], parent.path());
        assert!(!out.status.success(), "{name}");
        assert!(
            text(&out).contains("is not a valid package name"),
            "{}",
            text(&out)
        );
    }
    let out = monotable()
        .args(["new", "demo", "--monotable-path", "no/such/dir"])
        .current_dir(parent.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        text(&out).contains("the monotable library is not at no/such/dir"),
        "{}",
        text(&out)
    );
    assert_eq!(std::fs::read_dir(parent.path()).unwrap().count(), 0);
}
