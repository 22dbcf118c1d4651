//! The table view's API: patterns run on a live table with typed parameters, a page at a time
//! with the cursor; items with their entity and key check; parameters, page sizes and cursors
//! refused with clear messages; read-only unless writes are allowed; a backend that is down.

use crate::common;

use std::collections::BTreeSet;

use axum::http::StatusCode;
use common::{get_json, send_json};
use monotable_ui::Live;
use monotable_verify::Dataset;
use serde_json::{Value, json};

async fn live(allow_writes: bool) -> (Live, Dataset) {
    let model = monotable_model::parse(common::SHOP).unwrap();
    let data = monotable_verify::generate(&model, monotable_verify::DEFAULT_SEED);
    let dynamo = monotable_ui::run::loaded(&model, &data).await.unwrap();
    (Live::from_dynamo(dynamo, allow_writes), data)
}

/// Every page of `uri` (which has a `?`), following the cursor.
async fn all_pages(ui: &std::sync::Arc<monotable_ui::Ui>, uri: &str) -> (Vec<Value>, usize) {
    let (mut items, mut pages, mut cursor) = (Vec::new(), 0, None::<String>);
    loop {
        let full = match &cursor {
            Some(c) => format!("{uri}&cursor={c}"),
            None => uri.to_string(),
        };
        let (status, page) = get_json(ui, &full).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        pages += 1;
        items.extend(page["items"].as_array().unwrap().iter().cloned());
        match page["cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return (items, pages),
        }
    }
}

#[tokio::test]
async fn patterns_run_on_the_live_table_a_page_at_a_time() {
    let (live, data) = live(false).await;
    let (ui, _stop) = common::shop(Some(live));
    let (status, info) = get_json(&ui, "/api/live").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(info["table"], "Shop");
    assert_eq!(info["allowWrites"], false);

    // The order with the most items, read one item per page.
    let order = data
        .samples
        .iter()
        .filter(|s| s.entity == "Order")
        .max_by_key(|s| {
            let pk = s.key("PK");
            data.samples.iter().filter(|o| o.key("PK") == pk).count()
        })
        .unwrap();
    let id = &order.values["orderId"];
    let expected: BTreeSet<String> = data
        .samples
        .iter()
        .filter(|s| s.key("PK") == order.key("PK"))
        .map(|s| s.key("SK").unwrap().to_string())
        .collect();
    assert!(expected.len() > 2, "an order with items");
    let (items, pages) = all_pages(
        &ui,
        &format!("/api/live/patterns/getOrderWithItems?orderId={id}&limit=1"),
    )
    .await;
    assert_eq!(
        pages,
        expected.len(),
        "one item per page, no empty last page"
    );
    let got: BTreeSet<String> = items
        .iter()
        .map(|i| i["sk"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(got, expected);
    for i in &items {
        assert_eq!(i["keysMatch"], true, "{i}");
        assert!(i["entity"] == "Order" || i["entity"] == "OrderItem", "{i}");
        assert_eq!(i["item"]["orderId"]["S"], id.as_str(), "{i}");
    }

    // A GetItem, and a Scan that browses everything.
    let product = data.samples.iter().find(|s| s.entity == "Product").unwrap();
    let uri = format!(
        "/api/live/patterns/getProduct?productId={}",
        product.values["productId"]
    );
    let (status, page) = get_json(&ui, &uri).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["count"], 1);
    assert_eq!(page["items"][0]["entity"], "Product");
    assert!(page["cursor"].is_null());
    let (items, _) = all_pages(&ui, "/api/live/scan?limit=7").await;
    assert_eq!(items.len(), data.samples.len());
    let (items, _) = all_pages(&ui, "/api/live/scan?index=GSI2&limit=50").await;
    assert!(
        items
            .iter()
            .all(|i| i["entity"] == "Order" || i["entity"] == "Product")
    );
}

#[tokio::test]
async fn bad_requests_get_clear_messages() {
    let (live, _) = live(false).await;
    let (ui, _stop) = common::shop(Some(live));
    let cases = [
        (
            "/api/live/patterns/listUserOrders",
            400,
            "missing_parameter",
            "needs a value for `userId`",
        ),
        (
            "/api/live/patterns/listUserOrders?userId=",
            400,
            "missing_parameter",
            "userId",
        ),
        (
            "/api/live/patterns/listUserOrders?userId=u&color=red",
            400,
            "unknown_parameter",
            "`color`",
        ),
        (
            "/api/live/patterns/listOrdersByStatus?status=LOST&shard=0",
            400,
            "invalid_parameter",
            "`LOST` is not one of",
        ),
        (
            "/api/live/patterns/listOrdersByStatus?status=PAID&shard=two",
            400,
            "invalid_parameter",
            "not a valid integer",
        ),
        (
            "/api/live/patterns/listOrdersByStatusInRange?status=PAID&shard=0&from=yesterday&to=2024-01-01T00:00:00.000Z",
            400,
            "invalid_parameter",
            "timestamp",
        ),
        (
            "/api/live/patterns/listUserOrders?userId=u&limit=0",
            400,
            "invalid_limit",
            "1 to 1000",
        ),
        (
            "/api/live/patterns/listUserOrders?userId=u&limit=lots",
            400,
            "invalid_limit",
            "`lots`",
        ),
        (
            "/api/live/patterns/listUserOrders?userId=u&cursor=bm90IGEga2V5",
            400,
            "invalid_cursor",
            "cursor",
        ),
        (
            "/api/live/patterns/listUserOrders?userId=u&cursor=%%%",
            400,
            "invalid_cursor",
            "cursor",
        ),
        (
            "/api/live/patterns/noSuchPattern",
            404,
            "unknown_pattern",
            "noSuchPattern",
        ),
        ("/api/live/scan?index=GSI99", 404, "unknown_index", "GSI99"),
        (
            "/api/live/patterns/createProduct?productId=p1",
            403,
            "read_only",
            "--allow-writes",
        ),
    ];
    for (uri, status, code, text) in cases {
        let (got, body) = get_json(&ui, uri).await;
        assert_eq!(got.as_u16(), status, "{uri}: {body}");
        assert_eq!(body["error"], code, "{uri}: {body}");
        assert!(
            body["message"].as_str().unwrap().contains(text),
            "{uri}: {body}"
        );
    }
    let item = json!({ "item": { "PK": { "S": "X" }, "SK": { "S": "Y" } } });
    let (status, body) = send_json(&ui, "PUT", "/api/live/item", &item).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::FORBIDDEN, Some("read_only"))
    );
    let key = json!({ "key": { "PK": { "S": "X" }, "SK": { "S": "Y" } } });
    let (status, _) = send_json(&ui, "DELETE", "/api/live/item", &key).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn writes_need_allow_writes_and_mismatched_keys_show() {
    let (live, data) = live(true).await;
    let (ui, _stop) = common::shop(Some(live));
    let order = data.samples.iter().find(|s| s.entity == "Order").unwrap();
    let mut item = monotable_access::items::to_json(&order.item);
    // The same order under another table key: its keys no longer render from its attributes.
    item["PK"] = json!({ "S": "ORDER#somebody-else" });
    let (status, body) = send_json(&ui, "PUT", "/api/live/item", &json!({ "item": item })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["written"]["keysMatch"], false, "{body}");
    let (_, page) = get_json(
        &ui,
        "/api/live/patterns/getOrderWithItems?orderId=somebody-else",
    )
    .await;
    assert_eq!(page["count"], 1, "{page}");
    let found = &page["items"][0];
    assert_eq!(found["keysMatch"], false);
    assert!(
        found["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "MA012"),
        "{found}"
    );

    let key = json!({ "key": { "PK": item["PK"], "SK": item["SK"] } });
    let (status, body) = send_json(&ui, "DELETE", "/api/live/item", &key).await;
    assert_eq!(
        (status, &body["deleted"]),
        (StatusCode::OK, &json!(true)),
        "{body}"
    );
    let (_, page) = get_json(
        &ui,
        "/api/live/patterns/getOrderWithItems?orderId=somebody-else",
    )
    .await;
    assert_eq!(page["count"], 0, "{page}");

    let (status, body) = send_json(
        &ui,
        "PUT",
        "/api/live/item",
        &json!({ "item": { "PK": 1 } }),
    )
    .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_item")),
        "{body}"
    );
    let (status, body) = send_json(&ui, "PUT", "/api/live/item", &json!([])).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn a_backend_that_is_down_is_named() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let backend = monotable_connect::Backend::Endpoint(format!("http://127.0.0.1:{port}"));
    let dynamo = monotable_connect::connect(&backend).await.unwrap();
    let (ui, _stop) = common::shop(Some(Live::from_dynamo(dynamo, false)));
    let (status, body) = get_json(&ui, "/api/live/patterns/getUser?userId=u1").await;
    assert_eq!(status, StatusCode::BAD_GATEWAY, "{body}");
    assert_eq!(body["error"], "backend_unreachable");
    let message = body["message"].as_str().unwrap();
    assert!(message.contains(&port.to_string()), "{body}");
    // The cause, without the SDK's layers and debug dump.
    assert!(message.contains("): Connection refused"), "{body}");
    assert!(
        !message.contains("Dispatch") && !message.contains("dispatch failure"),
        "{body}"
    );
    let (status, body) = get_json(&ui, "/api/live/scan").await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::BAD_GATEWAY, Some("backend_unreachable")),
        "{body}"
    );
}

#[tokio::test]
async fn the_backend_refusing_is_told_apart_from_it_being_down() {
    // An engine without the model's table.
    let empty = monotable_connect::memory().unwrap();
    let (ui, _stop) = common::shop(Some(Live::from_dynamo(empty, true)));
    let (status, body) = get_json(&ui, "/api/live/patterns/getUser?userId=u1").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["error"], "table_not_found");
    assert!(
        body["message"].as_str().unwrap().contains("`Shop`"),
        "{body}"
    );

    // An item the backend refuses (no sort key) is the request's fault, not the backend's.
    let (live, _) = live(true).await;
    let (ui, _stop) = common::shop(Some(live));
    let item = json!({ "item": { "PK": { "S": "X" } } });
    let (status, body) = send_json(&ui, "PUT", "/api/live/item", &item).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["error"], "rejected", "{body}");
}
