//! The shop's write patterns through the model-driven face, on the embedded engine: each failure
//! named as the generated code names it, alone and as a transaction's action, and an update that
//! moves an index key.

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::items::{self, Item, n, s};
use monotable_access::pattern::write::{self, WriteInput};
use monotable_access::{Table, TransactError, Transaction, WriteAction, WriteError, WriteFailure};

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");

fn product(model: &monotable_model::Model, id: &str, stock: i64) -> Item {
    let values = |name: &str| match name {
        "productId" => Some(id.to_string()),
        "category" => Some("books".to_string()),
        "published" => Some("true".to_string()),
        _ => None,
    };
    let mut item = items::keys(model, "Product", &values).expect("keys");
    for (k, v) in [
        ("productId", s(id)),
        ("category", s("books")),
        ("name", s("A book")),
        ("price", n("12.50")),
        ("published", AttributeValue::Bool(true)),
        ("stock", n(stock)),
        ("createdAt", s("2024-05-01T10:00:00.000Z")),
        ("updatedAt", s("2024-05-01T10:00:00.000Z")),
        ("version", n(1)),
    ] {
        item.insert(k.to_string(), v);
    }
    item
}

#[tokio::test]
async fn write_patterns_fail_named_alone_and_in_a_transaction() {
    let model = monotable_model::parse(SHOP).expect("shop");
    let dynamo = monotable_connect::memory().expect("engine");
    monotable_access::table::ensure_table(dynamo.client(), &model)
        .await
        .expect("table");
    let table = Table::new(dynamo.client().clone(), &model.table.name);
    let create = model.pattern("createProduct").expect("createProduct");
    let none = |_: &str| None;
    let input = WriteInput {
        values: &none,
        expected_version: None,
    };
    let put = || write::put(&model, create, product(&model, "p1", 3), &input).expect("builds");
    put().send(&table).await.expect("created");
    let again = put().send(&table).await.expect_err("taken");
    assert!(matches!(again, WriteError::AlreadyExists { .. }), "{again}");

    let take = model.pattern("takeStock").expect("takeStock");
    let values = |name: &str| match name {
        "productId" => Some("p1".to_string()),
        "price" => Some("12.5".to_string()),
        "quantity" => Some("5".to_string()),
        _ => None,
    };
    let input = WriteInput {
        values: &values,
        expected_version: None,
    };
    let short =
        write::update(&model, take, &input, &[("stock".into(), Some(n(-2)))]).expect("builds");
    let e = short.clone().send(&table).await.expect_err("too few");
    assert!(
        matches!(&e, WriteError::ConditionFailed { condition: Some(c), .. } if c == "stock >= {quantity}"),
        "{e}"
    );
    // In a transaction, the same failure names its action; the order is not written.
    let order = model.pattern("placeOrder").expect("placeOrder");
    let order_item = items::keys(&model, "Order", &|name| match name {
        "orderId" => Some("o1".to_string()),
        "userId" => Some("u1".to_string()),
        "status" => Some("PENDING".to_string()),
        "shard" => Some("3".to_string()),
        "createdAt" => Some("2024-05-01T10:00:00.000Z".to_string()),
        "day" => Some("2024-05-01".to_string()),
        _ => None,
    })
    .expect("keys");
    let place = write::put(&model, order, order_item.clone(), &input).expect("builds");
    let e = Transaction::new()
        .push("placeOrder", WriteAction::Put(place))
        .push("takeStock", WriteAction::Update(short))
        .send(&table)
        .await
        .expect_err("cancelled");
    let TransactError::ConditionFailed { .. } = &e else {
        panic!("{e}");
    };
    assert!(e.failed("takeStock"), "{e}");
    assert_eq!(
        e.reason("takeStock").and_then(|r| r.failure.clone()),
        Some(WriteFailure::ConditionFailed {
            condition: Some("stock >= {quantity}".into())
        })
    );
    assert_eq!(e.reason("takeStock").map(|r| r.entity), Some("Product"));
    let key: Item = ["PK", "SK"]
        .iter()
        .map(|k| (k.to_string(), order_item[*k].clone()))
        .collect();
    let stored = monotable_access::get::GetItem::new(key)
        .consistent(true)
        .send(&table)
        .await
        .expect("read");
    assert!(stored.is_none(), "nothing written");

    // An unpublished product leaves the sparse index in the same write.
    let update = model.pattern("updateProduct").expect("updateProduct");
    let values = |name: &str| (name == "productId").then(|| "p1".to_string());
    let input = WriteInput {
        values: &values,
        expected_version: Some(1),
    };
    write::update(
        &model,
        update,
        &input,
        &[("published".into(), Some(AttributeValue::Bool(false)))],
    )
    .expect("builds")
    .send(&table)
    .await
    .expect("updated");
    let key: Item = [("PK", s("PRODUCT#p1")), ("SK", s("PRODUCT"))]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    let stored = monotable_access::get::GetItem::new(key)
        .consistent(true)
        .send(&table)
        .await
        .expect("read")
        .expect("there");
    assert!(!stored.contains_key("GSI2PK"), "{stored:?}");
    assert_eq!(stored["GSI1SK"], s("PRODUCT#false#p1"));
    assert_eq!(stored["version"], n(2));
}
