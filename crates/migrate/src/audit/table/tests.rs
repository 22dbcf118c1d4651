//! The table's description against the model, as plain data: each kind of table drift.

use monotable_model::Model;

use super::{Description, as_described, compare, missing_table};

const MODEL: &str = r#"
[table]
name = "Tab"
partition_key = { name = "PK" }
sort_key = { name = "SK" }
ttl_attribute = "expiresAt"

[indexes.GSI1]
kind = "global"
partition_key = { name = "GSI1PK" }
sort_key = { name = "GSI1SK", type = "N" }
projection = "INCLUDE"
include = ["name"]

[indexes.LSI1]
kind = "local"
sort_key = { name = "LSI1SK" }
projection = "KEYS_ONLY"

[entities.E]
attributes.id = { type = "string", required = true }
attributes.name = { type = "string" }
attributes.n = { type = "integer", required = true }
keys.PK = "E#{id}"
keys.SK = "E"
keys.GSI1PK = "E"
keys.GSI1SK = "{n}"
keys.LSI1SK = "E#{id}"
"#;

fn model() -> Model {
    monotable_model::parse(MODEL).expect("valid model")
}

fn codes(model: &Model, described: &Description) -> Vec<&'static str> {
    compare(model, "Tab", described)
        .iter()
        .map(|f| f.code.code())
        .collect()
}

#[test]
fn the_table_the_model_implies_fits() {
    let m = model();
    assert!(codes(&m, &as_described(&m)).is_empty());
}

#[test]
fn a_missing_table_points_at_the_models() {
    let m = model();
    let f = missing_table(&m, "Tab");
    assert_eq!(f.code.code(), "MA001");
    assert_eq!(f.diagnostic.span, Some(m.table.span.clone()));
}

#[test]
fn the_table_key_schema_and_types() {
    let m = model();
    let mut d = as_described(&m);
    d.key.pop();
    assert_eq!(codes(&m, &d), ["MA002"]);
    let found = compare(&m, "Tab", &d);
    assert_eq!(
        found[0].diagnostic.message,
        "table `Tab` has key schema PK (HASH), the model says PK (HASH), SK (RANGE)"
    );
    let mut d = as_described(&m);
    d.types.insert("PK".into(), "N".into());
    assert_eq!(codes(&m, &d), ["MA002"]);
}

#[test]
fn indexes_missing_reshaped_reprojected_and_undeclared() {
    let m = model();
    let mut d = as_described(&m);
    d.indexes.retain(|i| i.name != "GSI1");
    assert_eq!(codes(&m, &d), ["MA003"]);

    let mut d = as_described(&m);
    d.indexes[0].key.reverse();
    d.types.insert("GSI1SK".into(), "S".into());
    assert_eq!(codes(&m, &d), ["MA004", "MA004"]);

    let mut d = as_described(&m);
    d.indexes[1].local = false;
    assert_eq!(codes(&m, &d), ["MA004"]);

    let mut d = as_described(&m);
    d.indexes[0].non_key.push("extra".into());
    let found = compare(&m, "Tab", &d);
    assert_eq!(
        found[0].diagnostic.message,
        "index `GSI1` projects INCLUDE [extra, name], the model says INCLUDE [name]"
    );
    d.indexes[1].projection = "ALL".into();
    assert_eq!(codes(&m, &d), ["MA005", "MA005"]);

    let mut d = as_described(&m);
    let mut old = d.indexes[0].clone();
    old.name = "Old".into();
    d.indexes.push(old);
    assert_eq!(codes(&m, &d), ["MA006"]);
}

#[test]
fn time_to_live_and_billing() {
    let m = model();
    let mut d = as_described(&m);
    d.ttl = None;
    assert_eq!(codes(&m, &d), ["MA007"]);
    d.ttl = Some("ttl".into());
    assert_eq!(codes(&m, &d), ["MA007"]);
    let mut d = as_described(&m);
    d.billing = "PROVISIONED".into();
    let found = compare(&m, "Tab", &d);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].diagnostic.message,
        "table `Tab` is billed PROVISIONED, the model says PAY_PER_REQUEST"
    );
}
