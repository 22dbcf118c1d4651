//! `monotable new`: the project it writes passes `monotable check`, holds the SAM template that
//! `monotable export` writes for its model (and cfn-lint accepts it), is formatted, and its own
//! tests pass with `cargo test --offline`. Also what `new` refuses.

mod common;

use std::path::Path;

use common::scaffold::{self, cargo, cfn_lint, text, timed};
use common::{monotable, run};

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
    for name in ["1st", "my app", "fn", "tokio"] {
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
