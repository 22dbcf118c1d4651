//! Items read back are the samples generated from them; items that are no entity's are skipped.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::AttributeValue;

use super::*;
use crate::generate::generate;
use crate::keys::typed_keys;

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");
const SHOP_NATIVE: &str = include_str!("../../../../examples/shop/shop-native.toml");
const TYPED_KEYS: &str = include_str!("../../tests/designs/typed-keys.toml");
const LSI_NUMBER: &str = include_str!("../../tests/designs/lsi-number.toml");
const NATIVE_SCORES: &str = include_str!("../../tests/designs/native-scores.toml");

/// Every attribute type, collections and a boolean among them, and an epoch timestamp key.
const EVERY_TYPE: &str = r#"
[table]
name = "Things"
partition_key = { name = "PK" }
sort_key = { name = "SK", type = "N" }
ttl_attribute = "expiresAt"

[entities.Thing]
attributes.thingId = { type = "string", required = true }
attributes.at = { type = "timestamp", format = "epoch-millis", required = true }
attributes.flag = { type = "boolean" }
attributes.price = { type = "decimal", required = true }
attributes.ratio = { type = "float" }
attributes.tags = { type = "set", items = "string" }
attributes.scores = { type = "set", items = "integer" }
attributes.lines = { type = "list" }
attributes.extra = { type = "map" }
attributes.expiresAt = { type = "timestamp", format = "epoch-seconds" }
keys.PK = "THING#{thingId}"
keys.SK = "{at}"

[patterns.getThing]
operation = "Query"
key = { PK = "THING#{thingId}" }
returns = ["Thing"]
"#;

type Seen = (String, BTreeMap<String, String>, BTreeMap<String, String>);

fn seen(data: &Dataset) -> Vec<Seen> {
    data.samples
        .iter()
        .map(|s| (s.entity.clone(), s.values.clone(), s.keys.clone()))
        .collect()
}

#[test]
fn items_read_back_are_the_samples_generated_from_them() {
    for source in [
        SHOP,
        SHOP_NATIVE,
        TYPED_KEYS,
        LSI_NUMBER,
        NATIVE_SCORES,
        EVERY_TYPE,
    ] {
        let model = monotable_model::parse(source).unwrap();
        for seed in [1, 7, 42] {
            let generated = generate(&model, seed);
            assert!(!generated.samples.is_empty());
            // As the table holds them: keys in their declared types.
            let items = generated
                .samples
                .iter()
                .map(|s| typed_keys(&model, &s.item))
                .collect();
            let read = Dataset::from_items(&model, items);
            assert!(read.warnings.is_empty(), "{:?}", read.warnings);
            assert_eq!(read.source, Source::Table);
            assert_eq!(seen(&read), seen(&generated), "{}", model.table.name);
        }
    }
}

#[test]
fn values_are_what_templates_see() {
    let model = monotable_model::parse(EVERY_TYPE).unwrap();
    let data = generate(&model, 3);
    let things: Vec<&Sample> = data.samples.iter().collect();
    assert!(
        things
            .iter()
            .any(|s| s.values.get("flag").map(String::as_str) == Some("true"))
    );
    assert!(
        things
            .iter()
            .any(|s| s.values.get("flag").map(String::as_str) == Some("false"))
    );
    for s in &things {
        assert!(s.values["at"].bytes().all(|b| b.is_ascii_digit()));
        assert_eq!(s.key("SK"), Some(s.values["at"].as_str()));
        for collection in ["tags", "scores", "lines", "extra"] {
            assert!(!s.values.contains_key(collection), "{collection}");
        }
    }
    assert!(things.iter().any(|s| s.item.contains_key("lines")));
}

fn item(pairs: &[(&str, &str)]) -> Item {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), AttributeValue::S(v.to_string())))
        .collect()
}

#[test]
fn items_of_no_declared_entity_are_skipped_with_a_warning() {
    let model = monotable_model::parse(SHOP).unwrap();
    let user = item(&[
        ("PK", "USER#u1"),
        ("SK", "PROFILE"),
        ("entityType", "User"),
        ("userId", "u1"),
    ]);
    let items = vec![
        user,
        item(&[
            ("PK", "MIGRATION"),
            ("SK", "A"),
            ("entityType", MIGRATION_ENTITY),
        ]),
        item(&[("PK", "CART#1"), ("SK", "CART"), ("entityType", "Cart")]),
        item(&[("PK", "CART#2"), ("SK", "CART"), ("entityType", "Cart")]),
        item(&[("PK", "LOOSE"), ("SK", "X")]),
    ];
    let data = Dataset::from_items(&model, items);
    assert_eq!(data.count("User"), 1);
    assert_eq!(data.samples.len(), 1);
    let user = &data.samples[0];
    assert_eq!(user.values.get("userId").map(String::as_str), Some("u1"));
    assert_eq!(user.key("PK"), Some("USER#u1"));
    assert_eq!(user.key("GSI1PK"), None);
    assert_eq!(
        data.warnings,
        [
            "skipped 1 item without a string `entityType` (the first: PK = \"LOOSE\", SK = \"X\")",
            "skipped 2 items of entity type `Cart`, which the model does not declare (the first: PK = \"CART#1\", SK = \"CART\")",
        ]
    );
}

/// A key the item still holds is a key the index holds, whatever its entity's templates say.
#[test]
fn keys_are_what_the_item_holds() {
    let model = monotable_model::parse(SHOP).unwrap();
    let mut user = item(&[
        ("PK", "USER#u1"),
        ("SK", "PROFILE"),
        ("GSI1PK", "USER#old"),
        ("entityType", "User"),
        ("userId", "u1"),
    ]);
    user.insert("version".into(), AttributeValue::N("3".into()));
    let data = Dataset::from_items(&model, vec![user]);
    let s = &data.samples[0];
    assert_eq!(s.key("GSI1PK"), Some("USER#old"));
    assert_eq!(s.values.get("version").map(String::as_str), Some("3"));
    assert!(!s.values.contains_key("GSI1PK"));
}
