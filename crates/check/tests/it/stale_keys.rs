//! MT015's exact scope on shapes the fixtures do not hold: a local index, a key attribute two
//! indexes share, an index the entity only half writes, and an update without `sets`.

use monotable_check::{Diagnostic, ReportFormat, check_source};

/// A table with a local index `LSI1` (sort key `LSI1SK`) and global indexes `GSI1` and `GSI2`
/// that sort on the same attribute, `BYDATE`; `Order` writes `entity_keys` on top of its table
/// keys, and `shipOrder` updates it with `sets`.
fn model(entity_keys: &str, sets: &str) -> String {
    format!(
        r#"[table]
name = "Scope"
partition_key = {{ name = "PK" }}
sort_key = {{ name = "SK" }}

[indexes.LSI1]
kind = "local"
sort_key = {{ name = "LSI1SK" }}

[indexes.GSI1]
partition_key = {{ name = "GSI1PK" }}
sort_key = {{ name = "BYDATE" }}

[indexes.GSI2]
partition_key = {{ name = "GSI2PK" }}
sort_key = {{ name = "BYDATE" }}

[entities.Order]
attributes.customerId = {{ type = "string", required = true }}
attributes.orderId = {{ type = "string", required = true }}
attributes.region = {{ type = "string", required = true }}
attributes.status = {{ type = "enum", values = ["PLACED", "SHIPPED"], required = true }}
attributes.placedAt = {{ type = "timestamp", format = "rfc3339-utc-millis", required = true }}
keys.PK = "CUSTOMER#{{customerId}}"
keys.SK = "ORDER#{{orderId}}"
{entity_keys}

[patterns.shipOrder]
operation = "UpdateItem"
key = {{ PK = "CUSTOMER#{{customerId}}", SK = "ORDER#{{orderId}}" }}
returns = ["Order"]
{sets}
"#
    )
}

/// The MT015 findings for the model; panics on an MT000 (the model must be valid).
fn stale(source: &str) -> Vec<Diagnostic> {
    let report = check_source("scope.toml", source);
    assert!(
        !report.codes().contains(&"MT000"),
        "{}",
        report.render(ReportFormat::Human)
    );
    report
        .diagnostics()
        .iter()
        .filter(|d| d.code == "MT015")
        .cloned()
        .collect()
}

#[test]
fn a_local_index_sort_key_is_judged_and_its_partition_key_is_the_tables() {
    let keys = r#"keys.LSI1SK = "{status}#{region}#{orderId}""#;
    let found = stale(&model(keys, r#"sets = ["status"]"#));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].message,
        "update `shipOrder` sets `status` but not `region`: index key `LSI1SK` goes stale"
    );
    // `orderId` comes from the key the update addresses.
    assert!(
        found[0].notes[0].contains("knows `orderId` from the key it addresses"),
        "{found:?}"
    );
    assert!(stale(&model(keys, r#"sets = ["status", "region"]"#)).is_empty());
}

#[test]
fn a_key_attribute_two_indexes_share_is_reported_once_naming_both() {
    let keys = r#"keys.GSI1PK = "REGION#{region}"
keys.GSI2PK = "ALL"
keys.BYDATE = "{status}#{placedAt}""#;
    let found = stale(&model(keys, r#"sets = ["status"]"#));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].notes[0].contains("for indexes `GSI1` and `GSI2`"),
        "{found:?}"
    );
    assert_eq!(
        found[0].help.as_deref(),
        Some(
            "add `placedAt` to `sets`: the update then renders `BYDATE` again from its inputs and writes it with them"
        )
    );
}

#[test]
fn an_index_the_entity_only_half_writes_is_not_judged() {
    // Without `BYDATE` the item is in neither GSI1 nor GSI2, whatever `GSI1PK` holds.
    let keys = r#"keys.GSI1PK = "REGION#{region}#{status}""#;
    assert!(stale(&model(keys, r#"sets = ["status"]"#)).is_empty());
    let keys = format!("{keys}\nkeys.BYDATE = \"{{placedAt}}\"");
    assert_eq!(stale(&model(&keys, r#"sets = ["status"]"#)).len(), 1);
}

#[test]
fn an_update_without_sets_declares_nothing_to_check() {
    let keys = r#"keys.LSI1SK = "{status}#{region}""#;
    assert!(stale(&model(keys, "")).is_empty());
    assert_eq!(stale(&model(keys, r#"sets = ["region"]"#)).len(), 1);
}
