//! `monotable ui` and `monotable-shop serve`'s `/ui` driven in a real headless browser (Debian's
//! Chromium through Playwright for Python, both installed by scripts/test.sh): the model view,
//! live reload, the table view against the shop's `serve` loaded with `load-sample`, and the
//! error pages. The checks themselves are in scripts/ui-browser-test.py.
//!
//! Its screenshots go to the target directory; with `MONOTABLE_UPDATE_SCREENSHOTS=1` they
//! replace the ones in docs/img that docs/ui.md and the README show.

use std::path::Path;
use std::process::Command;

use monotable_test_support::Program;

#[test]
fn the_ui_works_in_a_real_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shots = if std::env::var_os("MONOTABLE_UPDATE_SCREENSHOTS").is_some() {
        root.join("docs/img")
    } else {
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("ui-screenshots")
    };
    let output = Command::new("python3")
        .arg(root.join("scripts/ui-browser-test.py"))
        .args(["--bin", env!("CARGO_BIN_EXE_monotable")])
        .arg("--shop-bin")
        .arg(Program::Shop.path())
        .arg("--screenshots")
        .arg(&shots)
        .output()
        .expect("python3 runs (scripts/test.sh installs Playwright and Chromium)");
    let text = String::from_utf8_lossy(&output.stdout);
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the browser checks failed:\n{text}\n{errors}"
    );
    for shot in ["ui-model.png", "ui-table.png"] {
        assert!(shots.join(shot).is_file(), "no screenshot {shot}");
    }
}
