//! The two programs under test, `monotable` (package monotable-cli) and `monotable-shop`
//! (package monotable-shop-server), found where cargo put them. A test of one package that runs
//! the other package's binary gets it built first when it is missing or older than the
//! workspace's sources (`cargo test --workspace` builds both before any test runs, so then
//! nothing is built here).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;
use std::time::SystemTime;

/// A program of this workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    /// `monotable`, the tool.
    Tool,
    /// `monotable-shop`, the shop's own program.
    Shop,
}

/// The programs already checked (and built if need be) by this test process.
static CHECKED: Mutex<Vec<Program>> = Mutex::new(Vec::new());

impl Program {
    /// The binary's name.
    pub fn name(self) -> &'static str {
        match self {
            Program::Tool => "monotable",
            Program::Shop => "monotable-shop",
        }
    }

    fn package(self) -> &'static str {
        match self {
            Program::Tool => "monotable-cli",
            Program::Shop => "monotable-shop-server",
        }
    }

    /// The binary, up to date with the sources.
    pub fn path(self) -> PathBuf {
        // Cargo tells a package's own tests where its binaries are.
        if let Some(path) = std::env::var_os(format!("CARGO_BIN_EXE_{}", self.name())) {
            return path.into();
        }
        let profile = profile_dir();
        let path = profile.join(format!("{}{}", self.name(), std::env::consts::EXE_SUFFIX));
        let mut checked = CHECKED.lock().unwrap_or_else(|e| e.into_inner());
        if !checked.contains(&self) {
            if stale(&path) {
                self.build(&profile);
            }
            checked.push(self);
        }
        path
    }

    /// `cargo build -p PACKAGE --bin NAME` into the target directory and profile these tests
    /// were built for.
    fn build(self, profile: &Path) {
        let target = profile.parent().expect("the target directory");
        let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
        cmd.args([
            "build",
            "--quiet",
            "-p",
            self.package(),
            "--bin",
            self.name(),
        ])
        .env("CARGO_TARGET_DIR", target)
        .current_dir(workspace());
        match profile.file_name().and_then(|n| n.to_str()) {
            Some("debug") => {}
            Some("release") => {
                cmd.arg("--release");
            }
            Some(other) => {
                cmd.args(["--profile", other]);
            }
            None => {}
        }
        eprintln!("building {} for this test: {cmd:?}", self.name());
        let out = cmd.output().expect("run cargo");
        assert!(
            out.status.success(),
            "cannot build {}:\n{}",
            self.name(),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The program with none of the variables that would send it elsewhere than the test
    /// asks: no endpoint, data directory, ports, secrets, capacity settings, region or Lambda.
    pub fn command(self) -> Command {
        let mut cmd = Command::new(self.path());
        cmd.env_remove("AWS_ENDPOINT_URL_DYNAMODB")
            .env_remove("MONOTABLE_DATA_DIR")
            .env_remove("MONOTABLE_DYNAMODB_PORT")
            .env_remove("MONOTABLE_API_PORT")
            .env_remove("MONOTABLE_JWT_SECRET")
            .env_remove("MONOTABLE_CAPACITY")
            .env_remove("MONOTABLE_CAPACITY_SCALE")
            .env_remove("MONOTABLE_DYNAMODB_AUTH")
            .env_remove("AWS_REGION")
            .env_remove("AWS_DEFAULT_REGION")
            .env_remove("AWS_LAMBDA_RUNTIME_API")
            .env("NO_COLOR", "1");
        cmd
    }

    /// The program with `args` in `cwd`, to its end.
    pub fn run(self, args: &[&str], cwd: &Path) -> Output {
        self.command()
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("run {}: {e}", self.name()))
    }
}

/// The workspace's root.
pub fn workspace() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// `target/debug` (or the profile's directory) of the running test: its executable lies in
/// `deps` below it.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    exe.parent()
        .and_then(Path::parent)
        .expect("a test runs from <target>/<profile>/deps")
        .to_path_buf()
}

/// Whether `binary` is missing or older than a source it may be built from: a file of the
/// workspace's manifests, `crates` (not their tests or benches) or `examples`.
fn stale(binary: &Path) -> bool {
    let Ok(built) = std::fs::metadata(binary).and_then(|m| m.modified()) else {
        return true;
    };
    let root = workspace();
    let mut newest = SystemTime::UNIX_EPOCH;
    for file in ["Cargo.toml", "Cargo.lock"] {
        newest = newest.max(modified(&root.join(file)));
    }
    for dir in ["crates", "examples"] {
        newest = newest.max(newest_below(&root.join(dir)));
    }
    newest > built
}

fn modified(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

fn newest_below(dir: &Path) -> SystemTime {
    let mut newest = SystemTime::UNIX_EPOCH;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return newest;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let skipped = matches!(name.to_str(), Some("tests" | "benches" | "target"))
            || name.to_string_lossy().starts_with('.');
        match entry.file_type() {
            Ok(kind) if kind.is_dir() && !skipped => newest = newest.max(newest_below(&path)),
            Ok(kind) if kind.is_file() => newest = newest.max(modified(&path)),
            _ => {}
        }
    }
    newest
}
