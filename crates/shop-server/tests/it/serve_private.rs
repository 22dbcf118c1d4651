//! What `monotable-shop serve` leaves on disk and prints: a data directory private to its user
//! (0700, every file in it 0600, the token secret included, an older version's looser modes
//! tightened), a lock file naming the process and never its command line, and no secret (the
//! `--auth` one, the token secret) in any file. (The refusals and help text the two programs'
//! `serve` share are tested on `monotable serve`: crates/cli/tests/it/serve_private.rs.)

use std::path::{Path, PathBuf};

use monotable_test_support::shop::{run, serve};

/// The `--auth` secret every test here passes, and looks for where it must not be.
const SECRET: &str = "n0t-f0r-y0ur-eyes-42";

fn auth() -> String {
    format!("local:{SECRET}")
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

/// No file in `dir` holds the secret.
fn secret_written_nowhere(dir: &Path) {
    for file in files_in(dir) {
        let bytes = std::fs::read(&file).unwrap();
        let found = bytes.windows(SECRET.len()).any(|w| w == SECRET.as_bytes());
        assert!(!found, "{} holds the --auth secret", file.display());
    }
}

fn lock_text(data: &Path) -> String {
    std::fs::read_to_string(data.join("monotable.lock")).unwrap()
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The data directory is 0700 and every file in it 0600; the files the shop's serve always keeps
/// are there
/// (SQLite removes its log and shared-memory files when the last connection closes).
#[cfg(unix)]
fn private(data: &Path) {
    assert_eq!(mode(data), 0o700, "{}", data.display());
    let files = files_in(data);
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for expected in ["monotable.db", "monotable.lock", "jwt-secret"] {
        assert!(names.iter().any(|n| n == expected), "{names:?}");
    }
    for file in files {
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
}

#[cfg(unix)]
#[test]
fn the_data_directory_and_every_file_in_it_are_private_while_serving_and_after() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let served = serve(&["--data-dir", "data", "--auth", &auth()], dir.path());
    private(&data);
    for sqlite in ["monotable.db-wal", "monotable.db-shm"] {
        assert!(data.join(sqlite).exists(), "{:?}", files_in(&data));
    }
    assert_eq!(
        lock_text(&data),
        format!("pid {}\nprocess monotable-shop serve\n", served.child.id())
    );
    secret_written_nowhere(&data);
    served.terminate();
    private(&data);
    assert!(!lock_text(&data).contains(SECRET));
    secret_written_nowhere(&data);
}

#[cfg(unix)]
#[test]
fn token_creates_the_data_directory_private_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        &["token", "--data-dir", "data", "--user", "alice"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let data = dir.path().join("data");
    assert_eq!(mode(&data), 0o700);
    assert_eq!(mode(&data.join("jwt-secret")), 0o600);
}

#[cfg(unix)]
#[test]
fn a_data_directory_an_older_version_left_open_is_tightened() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    serve(&["--data-dir", "data"], dir.path()).terminate();
    // As an older version left it: everything readable by everyone, and the lock file holding
    // its holder's command line.
    std::fs::write(
        data.join("monotable.lock"),
        format!("pid 1\ncommand monotable serve --auth {}\n", auth()),
    )
    .unwrap();
    for file in files_in(&data) {
        set_mode(&file, 0o644);
    }
    set_mode(&data, 0o755);
    let served = serve(&["--data-dir", "data"], dir.path());
    private(&data);
    secret_written_nowhere(&data);
    served.terminate();
}
