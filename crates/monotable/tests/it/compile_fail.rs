//! Code that disagrees with the model does not compile, and the error says where in the model
//! and what to change: one case per kind of mismatch in `tests/ui`, each with the compiler's
//! reviewed output beside it, whole (`TRYBUILD=overwrite cargo test -p monotable --test it
//! compile_fail` writes them again). Each mistake is one error: every `.stderr` holds exactly
//! one, with no follow-on error from generated code and a model's error reported once.

use std::path::{Path, PathBuf};

/// trybuild compiles each case in a project of its own under the target directory, so
/// `CARGO_MANIFEST_DIR` is that project's directory while the derive runs. The cases name their
/// models relative to this crate (`tests/model/app.toml`), as an application does: the project
/// gets this crate's `tests` directory at the same place.
fn share_tests_directory() {
    // `CARGO_TARGET_TMPDIR` is `<target>/tmp`; trybuild works in `<target>/tests/trybuild/<crate>`.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory");
    let project = target.join("tests").join("trybuild").join("monotable");
    std::fs::create_dir_all(&project).expect("trybuild's project directory");
    let link = project.join("tests");
    let tests = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    if std::fs::read_link(&link).is_ok_and(|to| to == tests) {
        return;
    }
    let _ = std::fs::remove_file(&link);
    let _ = std::fs::remove_dir_all(&link);
    #[cfg(unix)]
    std::os::unix::fs::symlink(&tests, &link).expect("link the tests directory");
    #[cfg(not(unix))]
    copy_dir(&tests, &link);
}

#[cfg(not(unix))]
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn mismatches_with_the_model_are_compile_errors() {
    share_tests_directory();
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}

#[test]
fn each_case_is_one_error() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let mut cases = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/ui") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            cases += 1;
            let stderr = path.with_extension("stderr");
            let text = std::fs::read_to_string(&stderr)
                .unwrap_or_else(|e| panic!("{}: {e}", stderr.display()));
            let errors = text
                .lines()
                .filter(|l| l.starts_with("error:") || l.starts_with("error["))
                .count();
            assert_eq!(errors, 1, "{}:\n{text}", stderr.display());
        }
    }
    assert!(cases > 20, "{cases} cases");
}
