//! MT017 in `check`'s JSON: the code, the rule's name, a warning (not an error), its notes and
//! help, counted in the summary like any other rule's findings.

use monotable_check::{ReportFormat, check_source};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/MT017/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("fixture")
}

#[test]
fn oversized_shards_are_a_warning_in_json() {
    let report = check_source("fail.toml", &fixture("fail.toml"));
    assert!(report.has_warnings() && !report.has_errors());
    let json: serde_json::Value = serde_json::from_str(&report.render(ReportFormat::Json)).unwrap();
    // The key is also a native-key candidate (MT016, a suggestion): find MT017 among them.
    let diagnostics = json["diagnostics"].as_array().expect("diagnostics");
    let d = diagnostics
        .iter()
        .find(|d| d["code"] == "MT017")
        .expect("an MT017 finding");
    assert_eq!(d["code"], "MT017");
    assert_eq!(d["rule"], "oversized-shards");
    assert_eq!(d["severity"], "warning");
    assert_eq!(
        d["message"],
        "`shard` spreads `STATUS#{status}#{shard}` of index `GSI1` over 8 shards; the declared traffic needs 1"
    );
    assert_eq!(d["line"], 20);
    let notes: Vec<&str> = d["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("8 Queries per read where 1 would do")
                && n.contains("16.43 USD a month on demand")),
        "{notes:?}"
    );
    assert!(
        d["help"]
            .as_str()
            .unwrap()
            .contains("set `cardinality = 1`")
    );
    assert_eq!(json["summary"]["warnings"], 1);
    assert_eq!(json["summary"]["errors"], 0);
}

#[test]
fn a_justified_or_unstated_shard_count_is_silent() {
    for name in [
        "pass.toml",
        "pass-headroom.toml",
        "pass-unstated.toml",
        "pass-summed.toml",
    ] {
        let report = check_source(name, &fixture(name));
        assert!(
            !report.codes().contains(&"MT017"),
            "{name}: {}",
            report.render(ReportFormat::Human)
        );
    }
}
