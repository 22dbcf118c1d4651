//! The failures real DynamoDB produces and no local engine does, injected on the in-process
//! connector: every retry path of the shop runs, and when retries run out the client gets a
//! 503 with `Retry-After` — never a 500, never a false `out_of_stock`, and nothing half written.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use common::TestShop;
use monotable_connect::faults::{Fault, FaultRule, Faults};
use serde_json::json;

async fn shop() -> (TestShop, Arc<Faults>) {
    let faults = Arc::new(Faults::new(7, Vec::new()));
    (TestShop::with_faults(faults.clone()).await, faults)
}

fn retry_after(r: &common::Reply) -> Option<&str> {
    r.headers.get("retry-after").and_then(|v| v.to_str().ok())
}

#[tokio::test]
async fn an_order_that_loses_to_conflicts_is_retried_and_placed_once() {
    let (t, faults) = shop().await;
    let alice = t.user("alice", "alice@example.com").await;
    let p = t.product("P", "c", "2", true, Some(5)).await;
    faults.set(vec![FaultRule::times(
        "TransactWriteItems",
        Fault::TransactionConflict,
        2,
    )]);
    let r = t.order("alice", &alice, &[(&p, 2)]).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    assert_eq!(faults.injected(), 2, "both conflicts were met and retried");
    faults.set(Vec::new());
    let product = t.call("GET", &format!("/products/{p}"), None, None).await;
    assert_eq!(product.body["stock"], 3, "stock taken once");
    let (orders, _) = t.all_pages("/users/alice/orders", Some(&alice), 20).await;
    assert_eq!(orders.len(), 1);
}

#[tokio::test]
async fn an_order_that_keeps_losing_is_a_503_with_retry_after_and_writes_nothing() {
    let (t, faults) = shop().await;
    let alice = t.user("alice", "alice@example.com").await;
    let p = t.product("P", "c", "2", true, Some(5)).await;
    faults.set(vec![FaultRule::always(
        "TransactWriteItems",
        Fault::TransactionConflict,
    )]);
    let r = t.order("alice", &alice, &[(&p, 1)]).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.body);
    assert_eq!(r.code(), "busy");
    assert_eq!(retry_after(&r), Some("1"));
    faults.set(Vec::new());
    let product = t.call("GET", &format!("/products/{p}"), None, None).await;
    assert_eq!(product.body["stock"], 5);
    let (orders, _) = t.all_pages("/users/alice/orders", Some(&alice), 20).await;
    assert!(orders.is_empty());
}

#[tokio::test]
async fn status_changes_and_profiles_retry_conflicts_then_answer_503() {
    let (t, faults) = shop().await;
    let alice = t.user("alice", "alice@example.com").await;
    let p = t.product("P", "c", "2", true, Some(5)).await;
    let order = t.order("alice", &alice, &[(&p, 2)]).await;
    let id = order.body["orderId"].as_str().unwrap().to_string();
    faults.set(vec![FaultRule::times(
        "TransactWriteItems",
        Fault::TransactionConflict,
        1,
    )]);
    let r = t
        .call(
            "PATCH",
            &format!("/orders/{id}"),
            Some(&alice),
            Some(json!({"status": "CANCELLED"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    faults.set(Vec::new());
    let product = t.call("GET", &format!("/products/{p}"), None, None).await;
    assert_eq!(product.body["stock"], 5, "stock returned once");
    faults.set(vec![FaultRule::always(
        "TransactWriteItems",
        Fault::TransactionConflict,
    )]);
    let r = t
        .call(
            "PUT",
            "/users/alice",
            Some(&alice),
            Some(json!({"name": "A", "email": "new@example.com"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.body);
    assert_eq!(retry_after(&r), Some("1"));
    faults.set(Vec::new());
    let me = t.call("GET", "/users/alice", Some(&alice), None).await;
    assert_eq!(
        me.body["email"], "alice@example.com",
        "nothing half written"
    );
}

#[tokio::test]
async fn throttled_and_failing_reads_are_503s_once_the_sdk_gives_up() {
    let (t, faults) = shop().await;
    let alice = t.user("alice", "alice@example.com").await;
    let p = t.product("P", "c", "2", true, None).await;
    // The SDK retries a throttled call; a few throttles are invisible to the client.
    faults.set(vec![FaultRule::times("GetItem", Fault::Throttle, 2)]);
    let r = t.call("GET", &format!("/products/{p}"), None, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    for (operation, fault, path, code) in [
        (
            "GetItem",
            Fault::Throttle,
            format!("/products/{p}"),
            "throttled",
        ),
        (
            "Query",
            Fault::Throttle,
            "/products?published=true".to_string(),
            "throttled",
        ),
        (
            "Query",
            Fault::InternalError,
            "/users/alice/orders".to_string(),
            "unavailable",
        ),
    ] {
        faults.set(vec![FaultRule::always(operation, fault)]);
        let r = t.call("GET", &path, Some(&alice), None).await;
        assert_eq!(
            r.status,
            StatusCode::SERVICE_UNAVAILABLE,
            "{path}: {}",
            r.body
        );
        assert_eq!(r.code(), code, "{path}");
        assert_eq!(retry_after(&r), Some("1"));
    }
    // An order whose price reads are throttled is a 503, not an invented 409 or 400.
    faults.set(vec![FaultRule::always("GetItem", Fault::Throttle)]);
    let r = t.order("alice", &alice, &[(&p, 1)]).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.body);
}

#[tokio::test]
async fn slow_engine_calls_still_complete() {
    let (t, faults) = shop().await;
    let alice = t.user("alice", "alice@example.com").await;
    let p = t.product("P", "c", "2", true, Some(3)).await;
    faults.set(vec![FaultRule::always(
        "GetItem",
        Fault::Latency(Duration::from_millis(30)),
    )]);
    let r = t.order("alice", &alice, &[(&p, 1)]).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    assert!(faults.injected() >= 1);
}

#[tokio::test]
async fn sample_loading_writes_every_item_despite_unprocessed_batches() {
    let (t, faults) = shop().await;
    faults.set(vec![FaultRule {
        operation: Some("BatchWriteItem".into()),
        fault: Fault::UnprocessedItems,
        rate: 0.5,
        limit: Some(8),
    }]);
    let config = monotable_shop::sample::SampleConfig {
        users: 10,
        products: 10,
        orders: 20,
        ..Default::default()
    };
    let loaded = monotable_shop::sample::load(&t.shop, &config, &|_| {})
        .await
        .unwrap();
    assert!(
        faults.injected() >= 1,
        "some batches came back partly unprocessed"
    );
    faults.set(Vec::new());
    let scan = t
        .shop
        .client()
        .scan()
        .table_name(t.shop.table())
        .select(aws_sdk_dynamodb::types::Select::Count)
        .send()
        .await
        .unwrap();
    assert_eq!(usize::try_from(scan.count()).unwrap(), loaded.items);
}
