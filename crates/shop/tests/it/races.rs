//! Races the shop must win: the same Idempotency-Key sent many times at once, and many status
//! changes of one order at once. Each ends with exactly one effect.

use crate::common;

use axum::http::StatusCode;
use common::TestShop;
use serde_json::{Value, json};
use tower::ServiceExt;

/// Send `n` copies of one request at once; the statuses and bodies.
async fn at_once(
    t: &TestShop,
    n: usize,
    method: &str,
    path: &str,
    token: &str,
    body: Value,
    headers: &[(&str, &str)],
) -> Vec<(StatusCode, Value)> {
    let mut tasks = Vec::new();
    for _ in 0..n {
        let mut request = axum::http::Request::builder()
            .method(method)
            .uri(path)
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/json");
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        let request = request
            .body(axum::body::Body::from(body.to_string()))
            .unwrap();
        let router = t.router.clone();
        tasks.push(tokio::spawn(async move {
            let response = router.oneshot(request).await.unwrap();
            let status = response.status();
            let bytes = http_body_util::BodyExt::collect(response.into_body())
                .await
                .unwrap()
                .to_bytes();
            (
                status,
                serde_json::from_slice(&bytes).unwrap_or(Value::Null),
            )
        }));
    }
    let mut out = Vec::new();
    for task in tasks {
        out.push(task.await.unwrap());
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_idempotency_key_sent_twenty_times_at_once_places_one_order() {
    let t = TestShop::new().await;
    let alice = t.user("alice", "alice@example.com").await;
    let p = t.product("P", "c", "4", true, Some(50)).await;
    let body = json!({"items": [{"productId": p, "quantity": 3}]});
    let replies = at_once(
        &t,
        20,
        "POST",
        "/users/alice/orders",
        &alice,
        body,
        &[("idempotency-key", "race-1")],
    )
    .await;
    let mut ids = std::collections::BTreeSet::new();
    for (status, body) in &replies {
        match *status {
            StatusCode::CREATED => {
                ids.insert(body["orderId"].as_str().unwrap().to_string());
            }
            StatusCode::CONFLICT => {
                assert_eq!(body["error"]["code"], "concurrent_request", "{body}")
            }
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!(ids.len(), 1, "every success names the same order: {ids:?}");
    let (orders, _) = t
        .all_pages_expecting("/users/alice/orders", Some(&alice), 50, 1)
        .await;
    assert_eq!(orders.len(), 1);
    let product = t.call("GET", &format!("/products/{p}"), None, None).await;
    assert_eq!(product.body["stock"], 47, "stock taken once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_status_changes_take_effect_once() {
    let t = TestShop::new().await;
    let admin = t.admin();
    let alice = t.user("alice", "alice@example.com").await;
    let p = t.product("P", "c", "4", true, Some(10)).await;
    let order = t.order("alice", &alice, &[(&p, 4)]).await;
    let id = order.body["orderId"].as_str().unwrap().to_string();
    let path = format!("/orders/{id}");
    // Ten admins mark it paid at once: one succeeds, the rest see it already paid.
    let replies = at_once(
        &t,
        10,
        "PATCH",
        &path,
        &admin,
        json!({"status": "PAID"}),
        &[],
    )
    .await;
    let ok = replies.iter().filter(|(s, _)| *s == StatusCode::OK).count();
    assert_eq!(ok, 1, "{replies:?}");
    assert!(
        replies
            .iter()
            .all(|(s, b)| *s == StatusCode::OK || b["error"]["code"] == "illegal_transition"),
        "{replies:?}"
    );
    // Ten cancellations at once: the stock comes back exactly once.
    let replies = at_once(
        &t,
        10,
        "PATCH",
        &path,
        &alice,
        json!({"status": "CANCELLED"}),
        &[],
    )
    .await;
    assert_eq!(
        replies.iter().filter(|(s, _)| *s == StatusCode::OK).count(),
        1,
        "{replies:?}"
    );
    let product = t.call("GET", &format!("/products/{p}"), None, None).await;
    assert_eq!(product.body["stock"], 10);
    let now = t.call("GET", &path, Some(&admin), None).await;
    assert_eq!(now.body["status"], "CANCELLED");
    assert_eq!(now.body["version"], 3, "two changes, each applied once");
}
