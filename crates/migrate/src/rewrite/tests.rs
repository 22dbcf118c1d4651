//! The rewrite of one item, on the shop's model and small changes to it.

use super::*;
use crate::diff::diff;
use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::items::ENTITY_TYPE;

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");
const NATIVE: &str = include_str!("../../../../examples/shop/shop-native.toml");

fn model(source: &str) -> Model {
    monotable_model::parse(source).expect("valid model")
}

fn sample(model: &Model, entity: &str) -> Item {
    let data = monotable_verify::generate(model, 7);
    data.samples
        .into_iter()
        .find(|s| s.entity == entity)
        .expect("a sample")
        .item
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_string())
}

#[test]
fn an_order_leaves_the_indexes_native_keys_replace() {
    let (old, new) = (model(SHOP), model(NATIVE));
    let d = diff(&old, &new);
    let rewriter = Rewriter::new(&old, &new, &d, false);
    let order = sample(&old, "Order");
    let RewriteOutcome::Put(next) = rewriter.rewrite(&order) else {
        panic!("an order is rewritten in place");
    };
    for gone in ["GSI2PK", "GSI2SK", "GSI3PK", "GSI3SK"] {
        assert!(!next.contains_key(gone), "{gone} removed");
    }
    assert_eq!(next.get("PK"), order.get("PK"));
    assert_eq!(next.get("GSI1PK"), order.get("GSI1PK"));
    assert_eq!(
        rewriter.rewrite(&next),
        RewriteOutcome::Unchanged,
        "idempotent"
    );
    let user = sample(&old, "User");
    assert_eq!(rewriter.rewrite(&user), RewriteOutcome::Untouched);
}

#[test]
fn a_new_index_key_is_backfilled_from_the_items_own_attributes() {
    let old = model(SHOP);
    let new_source = SHOP.replace(
        "keys.SK = \"PROFILE\"",
        "keys.SK = \"PROFILE\"\nkeys.GSI1PK = \"EMAILS\"\nkeys.GSI1SK = \"{emailLower}\"",
    );
    let new = model(&new_source);
    let d = diff(&old, &new);
    let user = sample(&old, "User");
    let RewriteOutcome::Put(next) = Rewriter::new(&old, &new, &d, false).rewrite(&user) else {
        panic!("a user is backfilled");
    };
    assert_eq!(next.get("GSI1PK"), Some(&s("EMAILS")));
    assert_eq!(next.get("GSI1SK"), user.get("emailLower"));
}

#[test]
fn a_table_key_change_moves_the_item() {
    let old = model(SHOP);
    let new = model(&SHOP.replace("keys.PK = \"USER#{userId}\"", "keys.PK = \"U#{userId}\""));
    let d = diff(&old, &new);
    let user = sample(&old, "User");
    let RewriteOutcome::Move { item, from } = Rewriter::new(&old, &new, &d, false).rewrite(&user)
    else {
        panic!("a user moves");
    };
    assert_eq!(from.get("PK"), user.get("PK"));
    let id = user
        .get("userId")
        .and_then(|v| v.as_s().ok())
        .cloned()
        .unwrap_or_default();
    assert_eq!(item.get("PK"), Some(&s(&format!("U#{id}"))));
}

#[test]
fn a_renamed_entity_gets_its_new_type_and_a_default() {
    let old = model(SHOP);
    let new_source = SHOP
        .replace("[entities.EmailGuard]", "[entities.EmailClaim]\nrenamed_from = \"EmailGuard\"")
        .replace("guard = \"EmailGuard\"", "guard = \"EmailClaim\"")
        .replace("entity = \"EmailGuard\"", "entity = \"EmailClaim\"")
        .replace("returns = [\"EmailGuard\"]", "returns = [\"EmailClaim\"]")
        .replace("EmailGuard = { writes", "EmailClaim = { writes")
        .replace(
            "attributes.userId = { type = \"string\", required = true }\nkeys.PK = \"EMAIL#",
            "attributes.userId = { type = \"string\", required = true }\nattributes.verified = { type = \"boolean\", required = true, default = false }\nkeys.PK = \"EMAIL#",
        );
    let new = model(&new_source);
    let d = diff(&old, &new);
    let guard = sample(&old, "EmailGuard");
    let RewriteOutcome::Put(next) = Rewriter::new(&old, &new, &d, false).rewrite(&guard) else {
        panic!("a guard is rewritten: {:?}", d.changes);
    };
    assert_eq!(next.get(ENTITY_TYPE), Some(&s("EmailClaim")));
    assert_eq!(next.get("verified"), Some(&AttributeValue::Bool(false)));
    assert_eq!(
        Rewriter::new(&old, &new, &d, false).rewrite(&next),
        RewriteOutcome::Unchanged
    );
}

const TINY: &str = r#"
version = 1
[table]
name = "Tiny"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "SK", type = "S" }
[entities.Note]
attributes.id = { type = "string", required = true }
keys.PK = "NOTE#{id}"
keys.SK = "NOTE"
[entities.Draft]
attributes.id = { type = "string", required = true }
attributes.body = { type = "string", required = true }
keys.PK = "DRAFT#{id}"
keys.SK = "DRAFT"
"#;

#[test]
fn a_removed_entity_is_deleted_only_when_confirmed() {
    let old = model(TINY);
    let end = TINY.find("[entities.Draft]").expect("entity");
    let new = model(&TINY[..end]);
    let d = diff(&old, &new);
    let item = sample(&old, "Draft");
    assert!(matches!(
        Rewriter::new(&old, &new, &d, false).rewrite(&item),
        RewriteOutcome::Leave(_)
    ));
    assert!(matches!(
        Rewriter::new(&old, &new, &d, true).rewrite(&item),
        RewriteOutcome::Delete(_)
    ));
}
