//! The native design: its model is the shop's with AP5 (orders by status), AP6 (orders by day)
//! and AP8 (published products by category) on native multi-attribute indexes and nothing else
//! changed; the shop's
//! code, compiled against it, writes no synthetic key for them, and its listings read the
//! native indexes.

#[path = "../../shop/tests/common/mod.rs"]
mod common;

// The shop's own suites, run as they are on this design.
#[path = "../../shop/tests/it/errors.rs"]
mod errors;
#[path = "../../shop/tests/it/faults.rs"]
mod faults;
#[path = "../../shop/tests/it/lambda.rs"]
mod lambda;
#[path = "../../shop/tests/it/no_panic.rs"]
mod no_panic;
#[path = "../../shop/tests/it/orders.rs"]
mod orders;
#[path = "../../shop/tests/it/products.rs"]
mod products;
#[path = "../../shop/tests/it/races.rs"]
mod races;
#[path = "../../shop/tests/it/sales.rs"]
mod sales;
#[path = "../../shop/tests/it/sample.rs"]
mod sample;
#[path = "../../shop/tests/it/users_and_auth.rs"]
mod users_and_auth;

use axum::http::StatusCode;
use common::TestShop;
use monotable_model::{Model, parse};

const SHOP: &str = include_str!("../../../examples/shop/shop.toml");
const NATIVE: &str = include_str!("../../../examples/shop/shop-native.toml");

/// The patterns the native design moves to native indexes.
const MOVED: &[&str] = &[
    "listOrdersByStatus",
    "listOrdersByStatusInRange",
    "listOrdersByDay",
    "listPublishedProductsByCategory",
];

fn keys(model: &Model, entity: &str) -> Vec<(String, String)> {
    let e = model.entity(entity).expect("entity");
    e.keys
        .iter()
        .map(|k| (k.attribute.clone(), k.template.to_string()))
        .collect()
}

#[test]
fn the_native_model_is_the_shops_with_ap5_and_ap8_native() {
    let (shop, native) = (parse(SHOP).unwrap(), parse(NATIVE).unwrap());
    assert_eq!(monotable_shop::MODEL_SOURCE, NATIVE, "compiled against it");
    for entity in &shop.entities {
        let other = native.entity(&entity.name).expect("same entities");
        let names = |e: &monotable_model::EntityDecl| {
            e.attributes
                .iter()
                .map(|a| format!("{}:{:?}:{}", a.name, a.ty, a.required))
                .collect::<Vec<_>>()
        };
        assert_eq!(names(entity), names(other), "{}", entity.name);
        let mut expected = keys(&shop, &entity.name);
        if entity.name == "Order" {
            expected.retain(|(k, _)| !k.starts_with("GSI2") && !k.starts_with("GSI3"));
        }
        assert_eq!(keys(&native, &entity.name), expected, "{}", entity.name);
    }
    for pattern in &shop.patterns {
        let other = native.pattern(&pattern.name).expect("same patterns");
        let moved = MOVED.contains(&pattern.name.as_str());
        assert_eq!(
            other
                .index
                .as_ref()
                .is_some_and(|i| native.index(&i.name).is_some_and(|i| i.native)),
            moved,
            "{}",
            pattern.name
        );
        if !moved {
            let conditions = |p: &monotable_model::Pattern| {
                format!(
                    "{:?}",
                    p.key
                        .iter()
                        .map(|k| (&k.attribute, &k.condition))
                        .collect::<Vec<_>>()
                )
            };
            assert_eq!(conditions(pattern), conditions(other), "{}", pattern.name);
        }
    }
}

#[tokio::test]
async fn orders_carry_no_status_key_and_list_by_status_from_the_native_index() {
    let t = TestShop::new().await;
    let alice = t.user("alice", "alice@example.com").await;
    let p = t.product("P", "c", "1.00", true, None).await;
    for _ in 0..9 {
        let r = t.order("alice", &alice, &[(&p, 1)]).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    }
    let scan = t
        .shop
        .client()
        .scan()
        .table_name(t.shop.table())
        .send()
        .await
        .expect("scan");
    let mut orders = 0;
    for item in scan.items() {
        if item
            .get("entityType")
            .and_then(|v| v.as_s().ok())
            .map(String::as_str)
            == Some("Order")
        {
            orders += 1;
            assert!(
                !item.contains_key("GSI2PK") && !item.contains_key("GSI2SK"),
                "{item:?}"
            );
            assert!(item["shard"].as_n().is_ok(), "shard is a number: {item:?}");
        }
    }
    assert_eq!(orders, 9);
    let admin = t.admin();
    let (items, pages) = t
        .all_pages_expecting("/orders?status=PENDING", Some(&admin), 4, 9)
        .await;
    assert_eq!((items.len(), pages), (9, 3));
    let times: Vec<&str> = items
        .iter()
        .map(|o| o["createdAt"].as_str().unwrap())
        .collect();
    let mut sorted = times.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(times, sorted, "newest first across the merged shards");
}

#[tokio::test]
async fn a_draft_is_not_in_the_category_index_until_published() {
    let t = TestShop::new().await;
    let admin = t.admin();
    t.set_time("2026-03-01T10:00:00Z");
    let draft = t.product("Draft", "tools", "2.00", false, None).await;
    t.product("Live", "tools", "3.00", true, None).await;
    let (items, _) = t
        .all_pages_expecting("/products?category=tools", None, 10, 1)
        .await;
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["name"], "Live");
    t.set_time("2026-03-01T11:00:00Z");
    let r = t
        .call(
            "PATCH",
            &format!("/products/{draft}"),
            Some(&admin),
            Some(serde_json::json!({ "published": true })),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body["publishedAt"].is_string(), "{}", r.body);
    let (items, _) = t
        .all_pages_expecting("/products?category=tools", None, 10, 2)
        .await;
    let names: Vec<&str> = items.iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Live", "Draft"], "by publication time");
}
