//! The model-driven store: the table built from a model file, items keyed by the model's
//! templates, and access patterns run from their definitions.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::Table;
use monotable_access::items::{self, s};
use monotable_access::pattern::{self, PageRequest};
use monotable_access::table;

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");

#[tokio::test]
async fn the_shop_table_is_created_once_and_patterns_run_from_the_model() {
    let model = monotable_model::parse(SHOP).expect("shop model parses");
    let dynamo = monotable_connect::memory().unwrap();
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

    let got = pattern::get(
        &Table::new(client.clone(), &model.table.name),
        &model,
        "getProduct",
        &|name| (name == "productId").then(|| "01J0000000000000000000000A".to_string()),
    )
    .await
    .unwrap()
    .expect("found");
    assert_eq!(items::entity_type(&got), Some("Product"));

    let category = pattern::query(
        &Table::new(client.clone(), &model.table.name),
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
        &Table::new(client.clone(), &model.table.name),
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
        &Table::new(client.clone(), &model.table.name),
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
    let missing = pattern::get(
        &Table::new(client.clone(), &model.table.name),
        &model,
        "noSuchPattern",
        &|_| None,
    )
    .await;
    assert!(missing.is_err());
    let unrendered = pattern::get(
        &Table::new(client.clone(), &model.table.name),
        &model,
        "getProduct",
        &|_| None,
    )
    .await;
    assert!(unrendered.unwrap_err().to_string().contains("productId"));
    let _: HashMap<String, AttributeValue> = got;
}

const SCORES: &str = r#"
version = 1

[table]
name = "Scores"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "SK", type = "N" }

[indexes.ByScore]
kind = "global"
partition_key = { name = "GSI1PK", type = "S" }
sort_key = { name = "GSI1SK", type = "N" }
projection = "ALL"

[entities.Score]
attributes.gameId = { type = "string", required = true }
attributes.round = { type = "integer", required = true }
attributes.points = { type = "integer", required = true }
keys.PK = "GAME#{gameId}"
keys.SK = "{round}"
keys.GSI1PK = "GAME#{gameId}"
keys.GSI1SK = "{points}"

[patterns.topScores]
operation = "Query"
index = "ByScore"
key = { GSI1PK = "GAME#{gameId}", GSI1SK = "between({low}, {high})" }
params.low = { type = "integer" }
params.high = { type = "integer" }
returns = ["Score"]
descending = true
paginate = true
limit = 10

[patterns.getRound]
operation = "GetItem"
key = { PK = "GAME#{gameId}", SK = "{round}" }
returns = ["Score"]
"#;

#[tokio::test]
async fn numeric_keys_are_written_and_queried_as_numbers() {
    let model = monotable_model::parse(SCORES).expect("scores model parses");
    assert_eq!(
        model.key_attribute_type("GSI1SK"),
        Some(monotable_model::KeyAttributeType::N)
    );
    let dynamo = monotable_connect::memory().unwrap();
    let client = dynamo.client();
    table::ensure_table(client, &model).await.unwrap();
    for (round, points) in [(1, 9), (2, 10), (3, 100), (4, 55)] {
        let values = |name: &str| match name {
            "gameId" => Some("g1".to_string()),
            "round" => Some(round.to_string()),
            "points" => Some(points.to_string()),
            _ => None,
        };
        let item = items::keys(&model, "Score", &values).unwrap();
        assert_eq!(item.get("SK"), Some(&AttributeValue::N(round.to_string())));
        client
            .put_item()
            .table_name(&model.table.name)
            .set_item(Some(item))
            .send()
            .await
            .unwrap();
    }
    // As numbers, 100 > 55 > 10 > 9 (as strings 9 would sort first and 100 before 55).
    let top = pattern::query(
        &Table::new(client.clone(), &model.table.name),
        &model,
        "topScores",
        &|name| match name {
            "gameId" => Some("g1".to_string()),
            "low" => Some("9".to_string()),
            "high" => Some("100".to_string()),
            _ => None,
        },
        PageRequest::default(),
    )
    .await
    .unwrap();
    let points: Vec<String> = top
        .items
        .iter()
        .map(|i| items::number(i, "GSI1SK").unwrap())
        .collect();
    assert_eq!(points, ["100", "55", "10", "9"]);
    let round = pattern::get(
        &Table::new(client.clone(), &model.table.name),
        &model,
        "getRound",
        &|name| match name {
            "gameId" => Some("g1".to_string()),
            "round" => Some("2".to_string()),
            _ => None,
        },
    )
    .await
    .unwrap();
    assert!(round.is_some());
}

/// Regression: a page of 0 items read one item, dropped it and reported no more (the shop's
/// per-day listing indexed `collected[limit - 1]` and panicked). Page sizes are checked here.
#[tokio::test]
async fn a_page_of_zero_items_is_refused_not_read() {
    let model = monotable_model::parse(SHOP).expect("shop model parses");
    let dynamo = monotable_connect::memory().unwrap();
    table::ensure_table(dynamo.client(), &model).await.unwrap();
    let values = |name: &str| (name == "userId").then(|| "alice".to_string());
    for limit in [0, monotable_access::MAX_PAGE + 1] {
        let err = pattern::query_page(
            &Table::new(dynamo.client().clone(), &model.table.name),
            &model,
            "listUserOrders",
            &values,
            limit,
            None,
        )
        .await
        .unwrap_err();
        assert!(
            matches!(err, pattern::PatternError::Limit { got, .. } if got == limit),
            "{err}"
        );
    }
    let page = pattern::query_page(
        &Table::new(dynamo.client().clone(), &model.table.name),
        &model,
        "listUserOrders",
        &values,
        1,
        None,
    )
    .await
    .unwrap();
    assert!(page.items.is_empty() && page.last_evaluated_key.is_none());
}
