//! Diagnostics stay readable whatever the model holds: a 5 MB string is not echoed whole.

use monotable_check::{ReportFormat, check_source};

const FIVE_MB: usize = 5 * 1024 * 1024;

/// Two entities, `a` and `b`, written with the same keys (MT005 names both).
fn colliding(a: &str, b: &str, pk: &str) -> String {
    format!(
        r#"[table]
name = "Giants"
partition_key = {{ name = "PK" }}
sort_key = {{ name = "SK" }}

[entities.{a}]
attributes.id = {{ type = "string", required = true }}
keys.PK = "{pk}"
keys.SK = "X"

[entities.{b}]
attributes.id = {{ type = "string", required = true }}
keys.PK = "{pk}"
keys.SK = "X"
"#
    )
}

fn small(text: &str) {
    assert!(text.len() < 4096, "{} bytes of output", text.len());
}

#[test]
fn a_five_megabyte_name_is_not_echoed_whole() {
    let giant = "G".repeat(FIVE_MB);
    let report = check_source("giant.toml", &colliding(&giant, "B", "K#{id}"));
    assert_eq!(report.codes(), ["MT005"]);
    let human = report.render(ReportFormat::Human);
    small(&human);
    small(&report.render(ReportFormat::Json));
    assert!(
        human.contains(&format!("`{}…` ({FIVE_MB} characters)", "G".repeat(40))),
        "{human}"
    );
}

#[test]
fn a_five_megabyte_key_is_one_short_error() {
    let pk = format!("{}{{id}}", "K".repeat(FIVE_MB));
    let report = check_source("giant.toml", &colliding("A", "B", &pk));
    assert_eq!(report.codes(), ["MT000", "MT000"]);
    let human = report.render(ReportFormat::Human);
    small(&human);
    small(&report.render(ReportFormat::Json));
    // The snippet is a window on the line, marked where it was cut.
    assert!(human.contains("keys.PK = \"KKK"), "{human}");
    assert!(human.contains("KKK…\n"), "{human}");
    assert!(
        human.contains(&format!("at least {FIVE_MB} bytes long")),
        "{human}"
    );
}
