//! The shop's write patterns through the dynamic face: conditions rendered and failures named
//! as the generated code names them, an update's index keys rendered again or refused.

use super::*;
use crate::items::{n, s};
use crate::write::WriteFailure;

const SHOP: &str = include_str!("../../../../../examples/shop/shop.toml");

fn shop() -> Model {
    monotable_model::parse(SHOP).expect("the shop parses")
}

fn values(
    pairs: &'static [(&'static str, &'static str)],
) -> impl Fn(&str) -> Option<String> + Sync {
    move |name: &str| {
        pairs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    }
}

fn item(pairs: &[(&str, AttributeValue)]) -> Item {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

#[test]
fn a_condition_renders_the_model_clauses_and_names_each_failure() {
    let model = shop();
    let take = model.pattern("takeStock").expect("takeStock");
    let v = values(&[("productId", "p1"), ("price", "12.50"), ("quantity", "3")]);
    let input = WriteInput {
        values: &v,
        expected_version: None,
    };
    let c = condition(&model, take, &input).expect("renders");
    let r = c.render("c");
    assert_eq!(
        r.text.as_deref(),
        Some("attribute_exists(#c0) AND #c1 = :c1 AND #c2 = :c2 AND #c3 >= :c3")
    );
    assert_eq!(r.names["#c0"], "PK");
    assert_eq!(r.values[":c1"], AttributeValue::Bool(true));
    // `{price}` is typed as the decimal it is compared with, `{quantity}` as its declared param.
    assert_eq!(r.values[":c2"], n("12.50"));
    assert_eq!(r.values[":c3"], n("3"));
    let stored = |stock: i64, published: bool| {
        item(&[
            ("PK", s("PRODUCT#p1")),
            ("published", AttributeValue::Bool(published)),
            ("price", n("12.5")),
            ("stock", n(stock)),
        ])
    };
    assert_eq!(c.failure(None), WriteFailure::NotFound);
    assert_eq!(
        c.failure(Some(&stored(2, true))),
        WriteFailure::ConditionFailed {
            condition: Some("stock >= {quantity}".into())
        }
    );
    assert_eq!(
        c.failure(Some(&stored(9, false))),
        WriteFailure::ConditionFailed {
            condition: Some("published = true".into())
        }
    );
}

#[test]
fn a_missing_param_or_version_is_named() {
    let model = shop();
    let v = values(&[("emailLower", "a@b")]);
    let input = WriteInput {
        values: &v,
        expected_version: None,
    };
    let release = model.pattern("releaseEmail").expect("releaseEmail");
    let e = delete(&model, release, &input).expect_err("no owner");
    assert_eq!(
        e.to_string(),
        "access pattern `releaseEmail`: no value for `owner`"
    );
    let replace = model.pattern("replaceUser").expect("replaceUser");
    let e = condition(&model, replace, &input).expect_err("no version");
    assert!(
        e.to_string().ends_with("no value for `expected_version`"),
        "{e}"
    );
}

#[test]
fn a_put_and_a_delete_carry_their_entity_key_and_condition() {
    let model = shop();
    let create = model.pattern("createUser").expect("createUser");
    let v = values(&[("emailLower", "a@b"), ("owner", "u1")]);
    let input = WriteInput {
        values: &v,
        expected_version: None,
    };
    let spec = put(
        &model,
        create,
        item(&[
            ("PK", s("USER#u1")),
            ("SK", s("PROFILE")),
            ("userId", s("u1")),
        ]),
        &input,
    )
    .expect("builds");
    assert_eq!(spec.entity, "User");
    assert_eq!(spec.description, "User (PK=USER#u1, SK=PROFILE)");
    assert_eq!(
        spec.condition.failure(Some(&spec.item)),
        WriteFailure::AlreadyExists
    );
    let release = model.pattern("releaseEmail").expect("releaseEmail");
    let d = delete(&model, release, &input).expect("builds");
    assert_eq!(d.description, "EmailGuard (PK=EMAIL#a@b, SK=EMAIL)");
    let other = item(&[("PK", s("EMAIL#a@b")), ("userId", s("u2"))]);
    assert_eq!(
        d.condition.failure(Some(&other)),
        WriteFailure::ConditionFailed {
            condition: Some("userId = {owner}".into())
        }
    );
    assert_eq!(static_name("releaseEmail"), "releaseEmail");
    assert!(std::ptr::eq(static_name("x1"), static_name("x1")));
}

#[test]
fn an_update_renders_the_index_keys_its_sets_feed_and_checks_the_version() {
    let model = shop();
    let p = model
        .pattern("updateOrderStatus")
        .expect("updateOrderStatus");
    let v = values(&[("orderId", "o1"), ("current", "PENDING")]);
    let input = WriteInput {
        values: &v,
        expected_version: Some(4),
    };
    let changes = vec![
        ("status".to_string(), Some(s("PAID"))),
        ("shard".to_string(), Some(n(3))),
        ("day".to_string(), Some(s("2024-05-02"))),
        ("updatedAt".to_string(), Some(s("2024-05-02T10:00:00.000Z"))),
    ];
    let parts = update(&model, p, &input, &changes).expect("builds");
    assert_eq!(parts.key["PK"], s("ORDER#o1"));
    let set = |attribute: &str| {
        let name = parts
            .names
            .iter()
            .find(|(_, a)| a.as_str() == attribute)
            .map(|(k, _)| k.clone())
            .unwrap_or_else(|| panic!("{attribute} is not set: {}", parts.update));
        parts.values[&format!(":{}", &name[1..])].clone()
    };
    assert_eq!(set("GSI2PK"), s("STATUS#PAID#3"));
    assert_eq!(set("GSI3PK"), s("ORDERDAY#2024-05-02#3"));
    assert_eq!(set("version"), n(5));
    assert_eq!(parts.entity, "Order");
    // Exists, then the version, then the status read.
    let stored = item(&[
        ("PK", s("ORDER#o1")),
        ("version", n(4)),
        ("status", s("SHIPPED")),
    ]);
    assert_eq!(parts.condition.failure(None), WriteFailure::NotFound);
    assert_eq!(
        parts.condition.failure(Some(&stored)),
        WriteFailure::ConditionFailed {
            condition: Some("status = {current}".into())
        }
    );
    let stale = item(&[("PK", s("ORDER#o1")), ("version", n(3))]);
    assert_eq!(
        parts.condition.failure(Some(&stale)),
        WriteFailure::VersionMismatch { expected: 4 }
    );
}

#[test]
fn an_update_that_cannot_render_a_key_is_refused_as_the_typed_one_is() {
    let model = shop();
    let p = model
        .pattern("updateOrderStatus")
        .expect("updateOrderStatus");
    let v = values(&[("orderId", "o1"), ("current", "PENDING")]);
    let input = WriteInput {
        values: &v,
        expected_version: Some(1),
    };
    let e = update(
        &model,
        p,
        &input,
        &[("status".to_string(), Some(s("PAID")))],
    )
    .expect_err("shard unknown");
    let PatternError::Write { source, .. } = &e else {
        panic!("{e}");
    };
    let WriteError::PartialKeyUpdate { key, missing, .. } = source.as_ref() else {
        panic!("{e}");
    };
    assert_eq!((*key, *missing), ("GSI2PK", "shard"));
    let e =
        update(&model, p, &input, &[("total".to_string(), Some(n(1)))]).expect_err("not in sets");
    assert!(matches!(e, PatternError::NotInSets { .. }), "{e}");
}

#[test]
fn a_sparse_key_goes_when_its_condition_turns_false_and_a_listed_version_is_bumped() {
    let model = shop();
    let p = model.pattern("updateProduct").expect("updateProduct");
    let v = values(&[("productId", "p1")]);
    let input = WriteInput {
        values: &v,
        expected_version: Some(1),
    };
    let parts = update(
        &model,
        p,
        &input,
        &[("published".to_string(), Some(AttributeValue::Bool(false)))],
    )
    .expect("builds");
    assert!(parts.update.contains("REMOVE"), "{}", parts.update);
    let removed: Vec<&str> = parts
        .update
        .split("REMOVE ")
        .nth(1)
        .unwrap_or_default()
        .split(", ")
        .map(|p| parts.names[p].as_str())
        .collect();
    assert_eq!(removed, ["GSI2PK", "GSI2SK"]);
    assert!(parts.names.values().any(|a| a == "GSI1SK"), "{parts:?}");
    // takeStock lists `version` without checking it: one more, in the write itself.
    let take = model.pattern("takeStock").expect("takeStock");
    let v = values(&[("productId", "p1"), ("price", "1"), ("quantity", "1")]);
    let input = WriteInput {
        values: &v,
        expected_version: None,
    };
    let parts = update(&model, take, &input, &[("stock".to_string(), Some(n(4)))]).expect("builds");
    assert!(parts.update.contains(" = #u1 + :u1"), "{}", parts.update);
    assert_eq!(parts.names["#u1"], "version");
}
