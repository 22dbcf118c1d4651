//! The committed JSON Schema must equal the one generated from the serde types.
//!
//! Regenerate with `UPDATE_SCHEMA=1 cargo test -p monotable-model --test it schema::`.

use std::path::Path;

#[test]
fn committed_schema_is_up_to_date() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/monotable-model.schema.json");
    let generated = monotable_model::json_schema();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).expect("write schema");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "schema/monotable-model.schema.json is stale; run UPDATE_SCHEMA=1 cargo test -p monotable-model --test it schema::"
    );
}

#[test]
fn schema_is_valid_json_describing_the_model() {
    let value: serde_json::Value =
        serde_json::from_str(&monotable_model::json_schema()).expect("json");
    let props = value.get("properties").expect("properties");
    for key in ["table", "indexes", "entities", "patterns", "traffic"] {
        assert!(props.get(key).is_some(), "schema lacks `{key}`");
    }
}
