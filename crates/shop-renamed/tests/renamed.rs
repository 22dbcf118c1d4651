//! The renamed design: its model is the shop's with every key attribute, index, the table, some
//! key prefixes and the shard count renamed; the shop's code, compiled against it, writes only
//! the renamed keys and spreads each day over the renamed shard count.

#[path = "../../shop/tests/common/mod.rs"]
mod common;

// The shop's own suites, run as they are on this design.
#[path = "../../shop/tests/it/orders.rs"]
mod orders;
#[path = "../../shop/tests/it/products.rs"]
mod products;
#[path = "../../shop/tests/it/sales.rs"]
mod sales;

use axum::http::StatusCode;
use common::TestShop;

/// How `shop.toml` here is made from the shop's: (from, to), applied in order.
const RENAMES: &[(&str, &str)] = &[
    ("GSI1PK", "byKeyPk"),
    ("GSI1SK", "byKeySk"),
    ("GSI2PK", "stPk"),
    ("GSI2SK", "stSk"),
    ("GSI3PK", "dayPk"),
    ("GSI3SK", "daySk"),
    ("GSI1", "ByKey"),
    ("GSI2", "ByState"),
    ("GSI3", "ByDay"),
    ("\"PK\"", "\"id\""),
    ("\"SK\"", "\"sort\""),
    ("keys.PK", "keys.id"),
    ("keys.SK", "keys.sort"),
    ("{ PK =", "{ id ="),
    (", SK =", ", sort ="),
    ("cardinality = 1", "cardinality = 5"),
    ("ORDERDAY#", "DAY#"),
    ("ORDER#", "O#"),
    ("ITEM#", "LINE#"),
    ("name = \"Shop\"", "name = \"ShopRenamed\""),
];

const SHOP: &str = include_str!("../../../examples/shop/shop.toml");
const RENAMED: &str = include_str!("../shop.toml");

#[test]
fn the_renamed_model_is_the_shops_renamed() {
    let mut expected = SHOP.to_string();
    for (from, to) in RENAMES {
        assert!(
            expected.contains(from),
            "`{from}` no longer occurs in shop.toml"
        );
        expected = expected.replace(from, to);
    }
    // The generated file starts with a note saying so, after the schema line.
    let body: Vec<&str> = RENAMED
        .lines()
        .filter(|l| {
            !l.starts_with("# GENERATED")
                && !l.starts_with("# table, some")
                && !l.starts_with("# two drift")
        })
        .collect();
    assert_eq!(
        body.join("\n").trim_end(),
        expected.trim_end(),
        "regenerate crates/shop-renamed/shop.toml from examples/shop/shop.toml with RENAMES"
    );
    assert_eq!(
        monotable_shop::MODEL_SOURCE,
        RENAMED,
        "the shop was compiled against the copy"
    );
}

#[tokio::test]
async fn the_shop_writes_only_the_renamed_keys() {
    let t = TestShop::new().await;
    let alice = t.user("alice", "alice@example.com").await;
    let p = t.product("P", "c", "1.00", true, None).await;
    for _ in 0..12 {
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
    let items = scan.items();
    assert!(items.len() >= 12 * 2 + 3);
    let mut shards = std::collections::BTreeSet::new();
    for item in items {
        for name in item.keys() {
            assert!(
                !(name == "PK" || name == "SK" || name.starts_with("GSI")),
                "the shop wrote `{name}`, a key of the original design"
            );
        }
        assert!(
            item.contains_key("id") && item.contains_key("sort"),
            "{item:?}"
        );
        if let Some(day) = item.get("dayPk") {
            let day = day.as_s().expect("S");
            assert!(day.starts_with("DAY#"), "{day}");
            let shard: u32 = day.rsplit('#').next().unwrap().parse().unwrap();
            shards.insert(shard);
        }
    }
    assert!(shards.iter().all(|s| *s < 5), "{shards:?}");
    // Twelve orders over five shards land in one shard about once in 50 million runs.
    assert!(
        shards.len() > 1,
        "the orders spread over the shards: {shards:?}"
    );
    assert!(t.shop.table().starts_with("ShopRenamed") || t.is_external());
}
