//! The UI's API over the shop's model, through the Router with `oneshot` (no sockets).

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use monotable_ui::UiState;
use serde_json::Value;
use tower::ServiceExt;

const SHOP: &str = include_str!("../../../examples/shop/shop.toml");

async fn state() -> Arc<UiState> {
    Arc::new(
        UiState::build("shop.toml", SHOP, monotable_verify::DEFAULT_SEED)
            .await
            .expect("the shop's model builds"),
    )
}

async fn get(state: &Arc<UiState>, uri: &str) -> (StatusCode, String) {
    let response = monotable_ui::router(state.clone())
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

async fn get_json(state: &Arc<UiState>, uri: &str) -> (StatusCode, Value) {
    let (status, body) = get(state, uri).await;
    (status, serde_json::from_str(&body).expect("a JSON body"))
}

#[tokio::test]
async fn the_routes_answer() {
    let state = state().await;

    // The model.
    let (status, model) = get_json(&state, "/api/model").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(model["table"]["partitionKey"], "PK");
    assert!(
        model["indexes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["name"] == "GSI2" && i["sparse"] == true)
    );
    assert!(
        model["entities"][0]["colour"]
            .as_str()
            .unwrap()
            .starts_with('#')
    );

    // GSI2: orders by status, published products; no draft.
    let (status, gsi2) = get_json(&state, "/api/collections?index=GSI2").await;
    assert_eq!(status, StatusCode::OK);
    let groups = gsi2["groups"].as_array().unwrap();
    let names: Vec<&str> = groups
        .iter()
        .map(|g| g["partitionKey"].as_str().unwrap())
        .collect();
    assert!(names.iter().any(|n| n.starts_with("STATUS#")), "{names:?}");
    assert!(names.contains(&"PUBLISHED"), "{names:?}");
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "groups are sorted by partition key");
    let mut products = 0;
    for g in groups {
        let items = g["items"].as_array().unwrap();
        let sks: Vec<&str> = items
            .iter()
            .map(|i| i["keys"]["GSI2SK"].as_str().unwrap())
            .collect();
        let mut sorted = sks.clone();
        sorted.sort();
        assert_eq!(sks, sorted, "items are sorted by sort key");
        for item in items {
            if item["entity"] == "Product" {
                products += 1;
                assert_eq!(item["attributes"]["published"], true, "{item}");
            }
        }
    }
    assert!(products > 0);
    let unpublished = state
        .data
        .samples
        .iter()
        .filter(|s| {
            s.entity == "Product" && s.values.get("published").map(String::as_str) == Some("false")
        })
        .count();
    assert!(unpublished > 0, "the samples hold drafts to leave out");

    // The table.
    let (status, table) = get_json(&state, "/api/collections").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(table["index"], "table");
    let total: usize = table["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["items"].as_array().unwrap().len())
        .sum();
    assert_eq!(total, state.data.samples.len());

    // One order and its items.
    let (status, p) = get_json(&state, "/api/patterns/getOrderWithItems").await;
    assert_eq!(status, StatusCode::OK, "{p}");
    let items = p["items"].as_array().unwrap();
    let orders: Vec<&Value> = items.iter().filter(|i| i["entity"] == "Order").collect();
    assert_eq!(orders.len(), 1, "{p}");
    assert!(items.iter().any(|i| i["entity"] == "OrderItem"), "{p}");
    assert!(
        items
            .iter()
            .all(|i| (i["entity"] == "Order" || i["entity"] == "OrderItem")
                && i["pk"] == orders[0]["pk"]),
        "{p}"
    );
    assert_eq!(p["verdict"], "ok", "{p}");
    assert!(p["rcuPerCall"].as_f64().unwrap() > 0.0, "{p}");
    assert!(
        p["rendered"].as_str().unwrap().starts_with("PK = \"ORDER#"),
        "{p}"
    );
    assert!(!p["rendered"].as_str().unwrap().contains('{'), "{p}");

    // Diagnostics and cost.
    let (status, d) = get_json(&state, "/api/diagnostics").await;
    assert_eq!(status, StatusCode::OK);
    assert!(d["diagnostics"].is_array());
    for x in d["diagnostics"].as_array().unwrap() {
        assert!(
            x["rendered"]
                .as_str()
                .unwrap()
                .contains(x["code"].as_str().unwrap())
        );
    }
    let (status, c) = get_json(&state, "/api/cost").await;
    assert_eq!(status, StatusCode::OK);
    assert!(c["patterns"].is_array());

    // The page.
    let (status, page) = get(&state, "/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("/api/collections"));
}

#[tokio::test]
async fn unknown_things_are_404() {
    let state = state().await;
    let (status, body) = get_json(&state, "/api/nope").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"], "not_found");
    let (status, body) = get_json(&state, "/api/patterns/noSuchPattern").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["message"].as_str().unwrap().contains("noSuchPattern"));
    let (status, body) = get_json(&state, "/api/collections?index=GSI99").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"], "unknown_index");
    let (status, page) = get(&state, "/nowhere").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(page.contains("Not found"));
    let (status, _) = get(&state, "/api/patterns/%FF%FE").await;
    assert!(status.is_client_error());
}
