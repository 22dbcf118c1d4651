//! A data directory private to its user: created 0700, monotable's files in it created 0600, and
//! the looser modes an older version left tightened when the directory is opened.
//!
//! Only what is monotable's is touched: the files [`OWN_FILES`] names, and the directory itself
//! when it holds nothing else (a `--data-dir` pointed at a project directory keeps that
//! directory's mode; the files in it are 0600 all the same). A mode that cannot be changed (a
//! file system without Unix modes, a file of another user) is reported as a warning, not refused.
//! Off Unix there are no modes to set.

use std::fs;
use std::io;
use std::path::Path;

use crate::config::{DATABASE_FILE, SECRET_FILE};
use crate::engine::LOCK_FILE;

/// The mode of a data directory monotable creates.
pub const DIR_MODE: u32 = 0o700;
/// The mode of every file monotable writes into a data directory.
pub const FILE_MODE: u32 = 0o600;

/// The files of a data directory that are monotable's: the database and what SQLite keeps beside
/// it, the lock file, the token secret.
pub const OWN_FILES: [&str; 6] = [
    DATABASE_FILE,
    "monotable.db-wal",
    "monotable.db-shm",
    "monotable.db-journal",
    LOCK_FILE,
    SECRET_FILE,
];

/// The prefix of the probe file `Engine::open` writes and removes to test the directory.
pub(crate) const PROBE_PREFIX: &str = ".monotable-write-probe-";

/// Create `dir` and its missing parents, each 0700. An existing directory is left as it is
/// ([`tighten_dir`] decides about that).
pub fn create_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, DIR_MODE);
    builder.create(dir)
}

/// Options that create a file 0600 (and open it for writing).
pub fn file_options() -> fs::OpenOptions {
    let mut options = fs::OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, FILE_MODE);
    options
}

/// Remove the group's and others' bits from `path` when it has any; nothing when it does not
/// exist. A failure is logged as a warning: the file stays usable.
pub fn tighten(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(metadata) = fs::symlink_metadata(path) else {
            return;
        };
        if metadata.file_type().is_symlink() {
            return;
        }
        let mode = metadata.permissions().mode();
        if mode & 0o077 == 0 {
            return;
        }
        let private = fs::Permissions::from_mode(mode & 0o7700);
        match fs::set_permissions(path, private) {
            Ok(()) => tracing::info!(path = %path.display(), "made private to its user"),
            Err(e) => tracing::warn!(
                path = %path.display(),
                error = %e,
                "cannot make it private to its user (mode {:o})",
                mode & 0o777
            ),
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// Tighten monotable's files in `dir`, and `dir` itself when it holds nothing but them.
pub fn tighten_dir(dir: &Path) {
    for name in OWN_FILES {
        tighten(&dir.join(name));
    }
    if holds_only_ours(dir) {
        tighten(dir);
    } else {
        tracing::debug!(dir = %dir.display(), "holds files that are not monotable's; its mode is left as it is");
    }
}

/// Whether every entry of `dir` is one of [`OWN_FILES`] or a probe file.
fn holds_only_ours(dir: &Path) -> bool {
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    entries.into_iter().all(|entry| {
        entry.is_ok_and(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            OWN_FILES.contains(&name.as_ref()) || name.starts_with(PROBE_PREFIX)
        })
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn created_directories_and_files_are_private() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("a").join("b");
        create_dir(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&tmp.path().join("a")), 0o700);
        let file = dir.join("f");
        file_options().create_new(true).open(&file).unwrap();
        assert_eq!(mode(&file), 0o600);
    }

    #[test]
    fn tightening_keeps_the_owners_bits_and_skips_what_is_missing() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("monotable.db");
        fs::write(&file, b"").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o444)).unwrap();
        tighten(&file);
        assert_eq!(mode(&file), 0o400, "a read-only file stays read-only");
        tighten(&tmp.path().join("missing"));
    }

    #[test]
    fn a_directory_is_tightened_only_when_everything_in_it_is_ours() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("d");
        fs::create_dir(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        fs::write(dir.join(SECRET_FILE), b"x").unwrap();
        fs::write(dir.join("other"), b"x").unwrap();
        tighten_dir(&dir);
        assert_eq!(mode(&dir), 0o755);
        assert_eq!(mode(&dir.join(SECRET_FILE)) & 0o077, 0);
        fs::remove_file(dir.join("other")).unwrap();
        tighten_dir(&dir);
        assert_eq!(mode(&dir), 0o700);
    }
}
