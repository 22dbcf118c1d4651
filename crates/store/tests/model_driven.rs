//! The model-driven store: the table built from a model file, items keyed by the model's
//! templates, and access patterns run from their definitions.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_store::items::{self, s};
use monotable_store::pattern::{self, PageRequest};
use monotable_store::table;

const SHOP: &str = include_str!("../../../examples/shop/shop.toml");

#[tokio::test]
async fn the_shop_table_is_created_once_and_patterns_run_from_the_model() {
    let model = monotable_model::parse(SHOP).expect("shop model parses");
    let dynamo = monotable_store::memory().unwrap();
    let client = dynamo.client();

    assert!(
        table::ensure_table(client, &model).await.unwrap(),
        "created"
    );
    assert!(
        !table::ensure_table(client, &model).await.unwrap(),
        "already there"
    );
    let described = client
        .describe_table()
        .table_name(&model.table.name)
        .send()
        .await
        .unwrap();
    let t = described.table().unwrap();
    let mut gsis: Vec<_> = t
        .global_secondary_indexes()
        .iter()
        .filter_map(|g| g.index_name())
        .collect();
    gsis.sort();
    assert_eq!(gsis, ["GSI1", "GSI2", "GSI3"]);

    // Two products in one category, one published: keys come from the templates.
    for (id, published) in [
        ("01J0000000000000000000000A", true),
        ("01J0000000000000000000000B", false),
    ] {
        let values = |name: &str| match name {
            "productId" => Some(id.to_string()),
            "category" => Some("books".to_string()),
            "published" => Some(published.to_string()),
            _ => None,
        };
        let mut item = items::keys(&model, "Product", &values).unwrap();
        assert_eq!(
            item.contains_key("GSI2PK"),
            published,
            "sparse GSI2 follows `published`"
        );
        item.insert("productId".into(), s(id));
        item.insert("published".into(), AttributeValue::Bool(published));
        client
            .put_item()
            .table_name(&model.table.name)
            .set_item(Some(item))
            .send()
            .await
            .unwrap();
    }

    let got = pattern::get(client, &model, "getProduct", &|name| {
        (name == "productId").then(|| "01J0000000000000000000000A".to_string())
    })
    .await
    .unwrap()
    .expect("found");
    assert_eq!(items::entity_type(&got), Some("Product"));

    let category = pattern::query(
        client,
        &model,
        "listProductsByCategory",
        &|name| (name == "category").then(|| "books".to_string()),
        PageRequest {
            limit: Some(1),
            start: None,
        },
    )
    .await
    .unwrap();
    assert_eq!(category.items.len(), 1);
    let rest = pattern::query(
        client,
        &model,
        "listProductsByCategory",
        &|name| (name == "category").then(|| "books".to_string()),
        PageRequest {
            limit: Some(5),
            start: category.last_evaluated_key,
        },
    )
    .await
    .unwrap();
    assert_eq!(rest.items.len(), 1);
    assert!(rest.last_evaluated_key.is_none());

    let published = pattern::query(
        client,
        &model,
        "listPublishedProducts",
        &|_| None,
        PageRequest::default(),
    )
    .await
    .unwrap();
    let ids: Vec<_> = published
        .items
        .iter()
        .map(|i| items::string(i, "productId").unwrap())
        .collect();
    assert_eq!(ids, ["01J0000000000000000000000A"]);

    // A pattern the model does not have, and a missing template value, are errors, not panics.
    let missing = pattern::get(client, &model, "noSuchPattern", &|_| None).await;
    assert!(missing.is_err());
    let unrendered = pattern::get(client, &model, "getProduct", &|_| None).await;
    assert!(unrendered.unwrap_err().to_string().contains("productId"));
    let _: HashMap<String, AttributeValue> = got;
}
