//! One item against a small model: each kind of item drift, and none on a well-formed item.

use std::collections::BTreeMap;

use crate::items::{self, Item};
use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::Model;

use super::{ItemKind, MIGRATION_ENTITY, check_item};

const MODEL: &str = r#"
[table]
name = "Tab"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[indexes.GSI1]
kind = "global"
partition_key = { name = "GSI1PK" }
sort_key = { name = "GSI1SK" }
sparse = ["Product"]

[entities.Order]
attributes.orderId = { type = "string", required = true }
attributes.status = { type = "enum", values = ["PAID", "SHIPPED"], required = true }
attributes.shard = { type = "integer", required = true, cardinality = 4 }
attributes.total = { type = "decimal", required = true }
attributes.note = { type = "string", max_length = 4 }
keys.PK = "ORDER#{orderId}"
keys.SK = "ORDER"
keys.GSI1PK = "STATUS#{status}#{shard}"
keys.GSI1SK = "ORDER#{orderId}"

[entities.Product]
attributes.productId = { type = "string", required = true }
attributes.published = { type = "boolean", required = true }
keys.PK = "PRODUCT#{productId}"
keys.SK = "PRODUCT"
keys.GSI1PK = "PUBLISHED"
keys.GSI1SK = "PRODUCT#{productId}"
key_conditions = { GSI1PK = "published", GSI1SK = "published" }

[entities.Note]
attributes.id = { type = "string", required = true }
keys.PK = "NOTE#{id}"
keys.SK = "NOTE"
"#;

fn model() -> Model {
    monotable_model::parse(MODEL).expect("valid model")
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.into())
}

/// An item of `entity` as the store writes it: attributes, keys and `entityType`.
fn written(model: &Model, entity: &str, attributes: &[(&str, AttributeValue)]) -> Item {
    let item: Item = attributes
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let texts: BTreeMap<String, String> = crate::value::template_texts(&item);
    let mut keys = items::keys(model, entity, &|name| texts.get(name).cloned()).unwrap();
    keys.extend(item);
    keys
}

fn order(model: &Model) -> Item {
    written(
        model,
        "Order",
        &[
            ("orderId", s("1")),
            ("status", s("PAID")),
            ("shard", n("3")),
            ("total", n("19.99")),
        ],
    )
}

fn codes(model: &Model, item: &Item) -> Vec<&'static str> {
    check_item(model, item)
        .findings
        .iter()
        .map(|f| f.code.code())
        .collect()
}

#[test]
fn items_as_the_store_writes_them_fit() {
    let m = model();
    let audit = check_item(&m, &order(&m));
    assert_eq!(audit.kind, ItemKind::Entity("Order".into()));
    assert!(audit.findings.is_empty(), "{:#?}", audit.findings);
    for published in [true, false] {
        let product = written(
            &m,
            "Product",
            &[
                ("productId", s("p")),
                ("published", AttributeValue::Bool(published)),
            ],
        );
        assert_eq!(product.contains_key("GSI1PK"), published);
        assert!(codes(&m, &product).is_empty());
    }
}

#[test]
fn migration_records_are_not_audited() {
    let m = model();
    let item = Item::from([
        ("PK".into(), s("_MIGRATION#x")),
        ("entityType".into(), s(MIGRATION_ENTITY)),
    ]);
    let audit = check_item(&m, &item);
    assert_eq!(audit.kind, ItemKind::Migration);
    assert!(audit.findings.is_empty());
}

#[test]
fn an_item_without_its_type_is_named_by_its_key_and_shape() {
    let m = model();
    let mut item = order(&m);
    item.remove("entityType");
    let audit = check_item(&m, &item);
    assert_eq!(audit.kind, ItemKind::Untyped);
    let f = &audit.findings[0];
    assert_eq!(f.code.code(), "MA010");
    assert_eq!(
        f.diagnostic.message,
        "item PK=ORDER#1 SK=ORDER: no `entityType` attribute"
    );
    assert_eq!(
        f.diagnostic.label.as_deref(),
        Some("its key has the shape of `Order`")
    );
    assert_eq!(
        f.diagnostic.span,
        Some(m.entity("Order").unwrap().span.clone())
    );
    item.insert("entityType".into(), s("Invoice"));
    assert_eq!(codes(&m, &item), ["MA011"]);
}

#[test]
fn a_table_key_that_is_not_its_render_is_reported_with_both() {
    let m = model();
    let mut item = order(&m);
    item.insert("SK".into(), s("ORDER#OLD"));
    let audit = check_item(&m, &item);
    let f = &audit.findings[0];
    assert_eq!(f.code.code(), "MA012");
    assert_eq!(
        f.diagnostic.message,
        "Order PK=ORDER#1 SK=ORDER#OLD: table key `SK` is `ORDER#OLD`, its template renders `ORDER`"
    );
    assert_eq!(f.found.as_deref(), Some("ORDER#OLD"));
    assert_eq!(f.expected.as_deref(), Some("ORDER"));
    assert!(f.diagnostic.span.is_some());
}

#[test]
fn index_keys_stale_missing_and_unexpected() {
    let m = model();
    let mut stale = order(&m);
    stale.insert("status".into(), s("SHIPPED"));
    assert_eq!(codes(&m, &stale), ["MA013"]);

    let mut missing = order(&m);
    missing.remove("GSI1SK");
    assert_eq!(codes(&m, &missing), ["MA014"]);

    let mut draft = written(
        &m,
        "Product",
        &[
            ("productId", s("p")),
            ("published", AttributeValue::Bool(true)),
        ],
    );
    draft.insert("published".into(), AttributeValue::Bool(false));
    assert_eq!(codes(&m, &draft), ["MA015", "MA015"]);

    let mut note = written(&m, "Note", &[("id", s("n"))]);
    note.insert("GSI1PK".into(), s("STATUS#PAID#0"));
    let audit = check_item(&m, &note);
    assert_eq!(audit.findings.len(), 1);
    assert!(
        audit.findings[0]
            .diagnostic
            .message
            .ends_with("`GSI1PK` is `STATUS#PAID#0`, but `Note` writes no `GSI1PK`"),
        "{}",
        audit.findings[0].diagnostic.message
    );
}

#[test]
fn attributes_missing_mistyped_floating_invalid_and_over_bound() {
    let m = model();
    let mut item = order(&m);
    item.remove("total");
    assert_eq!(codes(&m, &item), ["MA016"]);

    let mut item = order(&m);
    item.insert("total".into(), AttributeValue::Bool(true));
    assert_eq!(codes(&m, &item), ["MA017"]);

    let mut item = order(&m);
    item.insert("total".into(), n("0.30000000000000004"));
    let audit = check_item(&m, &item);
    assert_eq!(audit.findings[0].code.code(), "MA018");
    assert!(
        audit.findings[0]
            .diagnostic
            .message
            .ends_with("a float where the model says decimal")
    );

    let mut item = order(&m);
    item.insert("note".into(), s("too long"));
    assert_eq!(codes(&m, &item), ["MA020"]);

    // A value outside the enum, with its index key rendered from it: only the value is wrong.
    let item = written(
        &m,
        "Order",
        &[
            ("orderId", s("1")),
            ("status", s("LOST")),
            ("shard", n("7")),
            ("total", n("1")),
        ],
    );
    // Attributes in name order: `shard`, then `status`.
    assert_eq!(codes(&m, &item), ["MA020", "MA019"]);
}

#[test]
fn decimals_render_into_keys_as_the_library_writes_them() {
    let m = monotable_model::parse(
        r#"
[table]
name = "Tab"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[entities.Price]
attributes.id = { type = "string", required = true }
attributes.amount = { type = "decimal", required = true }
keys.PK = "PRICE#{id}"
keys.SK = "AMOUNT#{amount}"
"#,
    )
    .unwrap();
    let item = Item::from([
        ("PK".into(), s("PRICE#1")),
        ("SK".into(), s("AMOUNT#12.5")),
        ("entityType".into(), s("Price")),
        ("id".into(), s("1")),
        ("amount".into(), n("12.50")),
    ]);
    assert_eq!(codes(&m, &item), Vec::<&str>::new());
}
