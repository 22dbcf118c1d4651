//! `diff` on each kind of change, as golden files: the classification, the cost of each step
//! and what `check` finds new.

use crate::common;

use common::*;
use monotable_migrate::diff::{self, Effect, Files, ItemCounts};

fn report(old: &str, new: &str, items: &[&str]) -> (diff::Diff, String) {
    let (o, n) = (model(old), model(new));
    let d = diff::diff(&o, &n);
    let counts = ItemCounts::parse(&items.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        .expect("counts");
    let costs = diff::cost::costs(&o, &n, &d, &counts);
    let files = Files {
        old: "shop.toml",
        new: "new.toml",
        new_source: new,
    };
    let text = diff::render_human(&d, &costs, files);
    (d, text)
}

#[test]
fn adding_a_pattern_that_needs_a_new_index() {
    let (d, text) = report(SHOP, ORDERS_BY_PRODUCT, &["OrderItem=3000000", "1000000"]);
    assert!(!d.is_blocked());
    insta::assert_snapshot!(text);
}

#[test]
fn moving_to_native_index_keys() {
    let native = include_str!("../../../../examples/shop/shop-native.toml");
    let (d, text) = report(SHOP, native, &[]);
    assert!(d.changes.iter().any(|c| c.effect() == Effect::Remove));
    insta::assert_snapshot!(text);
}

#[test]
fn a_table_key_template_change_moves_items() {
    let new = SHOP
        .replace(
            "keys.PK = \"USER#{userId}\"",
            "keys.PK = \"CUSTOMER#{userId}\"",
        )
        .replace(
            "PK = \"USER#{userId}\", SK = \"PROFILE\"",
            "PK = \"CUSTOMER#{userId}\", SK = \"PROFILE\"",
        );
    let (_, text) = report(SHOP, &new, &["User=50000"]);
    insta::assert_snapshot!(text);
}

#[test]
fn an_inferred_rename_and_a_required_attribute_with_a_default() {
    let new = SHOP
        .replace("[entities.EmailGuard]", "[entities.EmailClaim]")
        .replace("\"EmailGuard\"", "\"EmailClaim\"")
        .replace("EmailGuard = { writes", "EmailClaim = { writes")
        .replace(
            "attributes.currency = { type = \"string\", required = true, max_length = 3 }",
            "attributes.currency = { type = \"string\", required = true, max_length = 3 }\nattributes.channel = { type = \"enum\", values = [\"WEB\", \"APP\"], required = true, default = \"WEB\" }",
        );
    let (_, text) = report(SHOP, &new, &[]);
    insta::assert_snapshot!(text);
}

#[test]
fn what_cannot_be_done_in_place_is_blocked_with_the_way_out() {
    let new = SHOP
        .replace("name = \"Shop\"", "name = \"Shop2\"")
        .replace(
            "attributes.itemCount = { type = \"integer\", required = true }",
            "attributes.itemCount = { type = \"string\", required = true }\nattributes.giftWrap = { type = \"boolean\", required = true }",
        );
    let (d, text) = report(SHOP, &new, &[]);
    assert!(d.is_blocked());
    insta::assert_snapshot!(text);
}

#[test]
fn online_table_changes_and_a_recreated_index() {
    let new = SHOP
        .replace(
            "billing_mode = \"PAY_PER_REQUEST\"",
            "billing_mode = \"PROVISIONED\"",
        )
        .replace("ttl_attribute = \"expiresAt\"\n", "")
        .replacen(
            "projection = \"ALL\"\nsparse",
            "projection = \"KEYS_ONLY\"\nsparse",
            1,
        );
    let (d, text) = report(SHOP, &new, &[]);
    assert!(!d.is_blocked());
    insta::assert_snapshot!(text);
}

#[test]
fn no_change_is_nothing_to_migrate() {
    let (d, text) = report(SHOP, SHOP, &[]);
    assert!(d.changes.is_empty());
    assert!(
        text.contains("no changes") && text.contains("nothing to migrate"),
        "{text}"
    );
}

#[test]
fn json_lists_each_change_with_its_effect() {
    let (o, n) = (model(SHOP), model(ORDERS_BY_PRODUCT));
    let d = diff::diff(&o, &n);
    let costs = diff::cost::costs(&o, &n, &d, &ItemCounts::default());
    let files = Files {
        old: "shop.toml",
        new: "new.toml",
        new_source: ORDERS_BY_PRODUCT,
    };
    let json: serde_json::Value =
        serde_json::from_str(&diff::render_json(&d, &costs, files)).expect("json");
    insta::assert_json_snapshot!(json);
}
