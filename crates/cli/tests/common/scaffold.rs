//! Building projects made by `monotable new`: the cargo that runs the tests, and a target
//! directory of their own under this workspace's, kept between runs so that only the first build
//! compiles every dependency, and apart from the main one so it never waits for that one's lock.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// `<target>/scaffold`: `CARGO_TARGET_DIR` when set, else this workspace's `target`.
pub fn target_dir() -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let workspace = workspace.canonicalize().unwrap_or(workspace);
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => workspace.join(dir),
        None => workspace.join("target"),
    };
    target.join("scaffold")
}

/// A fresh, empty directory for test `name` under the scaffold target directory. Kept at the
/// same place from run to run, so that the project built there keeps its artifacts (a project
/// at a new path each time would leave ~130 MB of its own behind on every run).
pub fn workdir(name: &str) -> PathBuf {
    let dir = target_dir().join("runs").join(name);
    match std::fs::remove_dir_all(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => panic!("cannot empty {}: {e}", dir.display()),
    }
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What every command building a scaffold gets: the scaffold target directory, cargo offline,
/// and none of the variables that would send the app elsewhere than its embedded engine.
pub fn environment(cmd: &mut Command) -> &mut Command {
    cmd.env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_NET_OFFLINE", "true")
        .env("CARGO_TERM_COLOR", "never")
        .env_remove("RUSTFLAGS")
        .env_remove("AWS_ENDPOINT_URL_DYNAMODB")
        .env_remove("MONOTABLE_DATA_DIR")
        .env_remove("AWS_LAMBDA_RUNTIME_API")
}

/// `cargo ARGS` in `dir` (the cargo running the tests), in the scaffold [`environment`].
pub fn cargo(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.args(args).current_dir(dir);
    environment(&mut cmd);
    cmd
}

/// Run `cmd`, say how long it took on stderr, and return its output.
pub fn timed(what: &str, cmd: &mut Command) -> (Output, Duration) {
    let started = Instant::now();
    let output = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    let took = started.elapsed();
    eprintln!("{what}: {:.1} s", took.as_secs_f64());
    (output, took)
}

/// stdout and stderr, for assertion messages.
pub fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// `cfn-lint` (or `CFN_LINT`) when it is installed.
pub fn cfn_lint() -> Option<std::ffi::OsString> {
    let program = std::env::var_os("CFN_LINT").unwrap_or_else(|| "cfn-lint".into());
    let found = Command::new(&program).arg("--version").output();
    found.is_ok_and(|o| o.status.success()).then_some(program)
}
