//! Golden-file tests: the full human and JSON output for the seed's original design.

use monotable_check::{Diagnostic, ReportFormat, Severity, check_source};

const SEED_PATH: &str = "examples/seed-original/model.toml";

fn seed() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/seed-original/model.toml"
    );
    std::fs::read_to_string(path).expect("seed model exists")
}

#[test]
fn seed_original_human() {
    let report = check_source(SEED_PATH, &seed());
    insta::assert_snapshot!("seed_original_human", report.render(ReportFormat::Human));
}

#[test]
fn seed_original_json() {
    let report = check_source(SEED_PATH, &seed());
    insta::assert_snapshot!("seed_original_json", report.render(ReportFormat::Json));
}

#[test]
fn seed_original_fails() {
    let report = check_source(SEED_PATH, &seed());
    assert!(report.has_errors());
    let codes = report.codes();
    for code in [
        "MT001", "MT002", "MT003", "MT004", "MT006", "MT009", "MT010", "MT011", "MT012", "MT013",
        "MT014",
    ] {
        assert!(
            codes.contains(&code),
            "seed should report {code}: {codes:?}"
        );
    }
}

fn example(name: &str) -> String {
    let path = format!("{}/../../examples/shop/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("shop model exists")
}

#[test]
fn the_streams_example_has_no_problems() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/streams/sales.toml"
    );
    let source = std::fs::read_to_string(path).expect("streams example exists");
    let report = check_source("examples/streams/sales.toml", &source);
    let human = report.render(ReportFormat::Human);
    assert!(report.codes().is_empty(), "{human}");
}

#[test]
fn shop_has_no_problems_and_two_suggestions() {
    let report = check_source("examples/shop/shop.toml", &example("shop.toml"));
    let human = report.render(ReportFormat::Human);
    assert!(!report.has_errors() && !report.has_warnings(), "{human}");
    // Its orders' status and day keys are made of the order's own attributes: native keys
    // would do (shop-native.toml), and say so as suggestions, which fail nothing.
    assert_eq!(report.codes(), ["MT016", "MT016"], "{human}");
    assert!(
        report
            .diagnostics()
            .iter()
            .all(|d| d.severity == Severity::Info)
    );
    assert!(human.contains("the key of `Order` in index `GSI2` can be native"));
    assert!(human.contains("the key of `Order` in index `GSI3` can be native"));
    // The saving is priced over every call touching orders, transactions by the write patterns
    // they run (without them, entity writes are costed as if the transactions wrote nothing):
    // the figure docs/checks.md shows.
    assert!(
        human.contains("(the calls that read and write `Order`: 4788.71 → 4765.71 USD)"),
        "{human}"
    );
    assert!(
        human.ends_with("examples/shop/shop.toml: no problems found (2 suggestions above)\n"),
        "{human}"
    );
}

#[test]
fn shop_native_is_clean() {
    let report = check_source(
        "examples/shop/shop-native.toml",
        &example("shop-native.toml"),
    );
    assert!(
        report.diagnostics().is_empty(),
        "{}",
        report.render(ReportFormat::Human)
    );
    assert_eq!(report.render(ReportFormat::Human), "");
}

#[test]
fn parse_errors_become_mt000() {
    let report = check_source("bad.toml", "[table\n");
    assert!(report.has_errors());
    assert_eq!(report.codes(), vec!["MT000"]);
    let human = report.render(ReportFormat::Human);
    assert!(human.starts_with("error[MT000]: "), "{human}");
    assert!(human.contains("--> bad.toml:1:"), "{human}");
    let json: serde_json::Value = serde_json::from_str(&report.render(ReportFormat::Json)).unwrap();
    assert_eq!(json["diagnostics"][0]["code"], "MT000");
    assert_eq!(json["diagnostics"][0]["line"], 1);
    assert_eq!(json["summary"]["errors"], 1);
}

#[test]
fn formats_parse() {
    assert_eq!("json".parse::<ReportFormat>(), Ok(ReportFormat::Json));
    assert_eq!("Human".parse::<ReportFormat>(), Ok(ReportFormat::Human));
    assert!("xml".parse::<ReportFormat>().is_err());
}

#[test]
fn clean_json_has_no_diagnostics() {
    let report = check_source("shop-native.toml", &example("shop-native.toml"));
    assert!(!report.has_errors() && !report.has_warnings());
    let json: serde_json::Value = serde_json::from_str(&report.render(ReportFormat::Json)).unwrap();
    assert_eq!(json["diagnostics"].as_array().map(Vec::len), Some(0));
    assert_eq!(json["summary"]["infos"], 0);
}

#[test]
fn suggestions_are_counted_apart_in_json() {
    let report = check_source("shop.toml", &example("shop.toml"));
    let json: serde_json::Value = serde_json::from_str(&report.render(ReportFormat::Json)).unwrap();
    assert_eq!(json["summary"]["errors"], 0);
    assert_eq!(json["summary"]["warnings"], 0);
    assert_eq!(json["summary"]["infos"], 2);
    assert_eq!(json["diagnostics"][0]["severity"], "info");
    assert_eq!(json["diagnostics"][0]["rule"], "native-key-candidate");
}

#[test]
fn the_shops_status_update_is_judged_by_what_it_sets() {
    let source = example("shop.toml");
    let sets = "sets = [\"status\", \"shard\", \"day\", \"updatedAt\", \"version\"]";
    assert!(source.contains(sets));
    // Orders by status, shard and currency: the status change would have to set `currency` too.
    let by_currency = source.replace(
        "STATUS#{status}#{shard}\"",
        "STATUS#{status}#{shard}#{currency}\"",
    );
    let report = check_source("shop.toml", &by_currency);
    let problems: Vec<&Diagnostic> = report
        .diagnostics()
        .iter()
        .filter(|d| d.severity != Severity::Info)
        .collect();
    assert_eq!(
        problems.iter().map(|d| d.code).collect::<Vec<_>>(),
        ["MT015"],
        "{}",
        report.render(ReportFormat::Human)
    );
    let d = problems[0];
    assert_eq!(
        d.message,
        "update `updateOrderStatus` sets `status` and `shard` but not `currency`: index key `GSI2PK` goes stale"
    );
    let sets = &by_currency[d.span.clone().expect("a span")];
    assert_eq!(
        sets,
        "[\"status\", \"shard\", \"day\", \"updatedAt\", \"version\"]"
    );
}
