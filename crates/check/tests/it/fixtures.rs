//! Per-rule fixtures: every `fixtures/<code>/fail*.toml` must report `<code>` and nothing
//! else; every `pass*.toml` must be clean. The human output of each failing fixture is a
//! golden file (`snapshots/it__fixtures__<code>-<file>.snap`). A suggestion (info) of another rule
//! is neither a problem nor part of the fixture: `check` still exits 0 and says "no problems
//! found" with it, and it is left out of what a fixture is judged and shown by.

use std::path::{Path, PathBuf};

use monotable_check::{Report, ReportFormat, Rule, Severity, check_source};

fn fixtures(code: &str, prefix: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(code);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "toml")
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(prefix))
        })
        .collect();
    files.sort();
    files
}

fn display(code: &str, path: &Path) -> String {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
    format!("tests/fixtures/{code}/{name}")
}

/// The report a fixture of `rule` is judged by: every error and warning, and the suggestions
/// of `rule` itself.
fn judged(rule: Rule, shown: &str, source: &str) -> Report {
    let kept = check_source(shown, source)
        .diagnostics()
        .iter()
        .filter(|d| d.severity != Severity::Info || d.code == rule.code())
        .cloned()
        .collect();
    Report::new(shown, source, kept)
}

#[test]
fn failing_fixtures_report_their_rule() {
    for rule in Rule::ALL {
        let code = rule.code();
        let files = fixtures(code, "fail");
        assert!(!files.is_empty(), "{code} has no failing fixture");
        for path in files {
            let source = std::fs::read_to_string(&path).expect("read fixture");
            let shown = display(code, &path);
            let report = judged(rule, &shown, &source);
            let output = report.render(ReportFormat::Human);
            assert!(
                report.codes().contains(&code),
                "{shown} should report {code}, got:\n{output}"
            );
            assert!(
                report.codes().iter().all(|c| *c == code),
                "{shown} should report only {code}, got:\n{output}"
            );
            let stem = path.file_stem().and_then(|n| n.to_str()).unwrap_or("fail");
            insta::assert_snapshot!(format!("{code}-{stem}"), output);
        }
    }
}

#[test]
fn passing_fixtures_are_clean() {
    for rule in Rule::ALL {
        let code = rule.code();
        let files = fixtures(code, "pass");
        assert!(!files.is_empty(), "{code} has no passing fixture");
        for path in files {
            let source = std::fs::read_to_string(&path).expect("read fixture");
            let shown = display(code, &path);
            let report = judged(rule, &shown, &source);
            assert!(
                report.diagnostics().is_empty(),
                "{shown} should be clean, got:\n{}",
                report.render(ReportFormat::Human)
            );
            assert!(!report.has_errors() && !report.has_warnings());
        }
    }
}
