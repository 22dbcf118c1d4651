//! Orders: creation with exact totals (AP3+AP4 read back in one query), AP2, AP5, AP6, every
//! status transition, idempotency, overselling under concurrency, and bad input writing nothing.

use crate::common;

use axum::http::StatusCode;
use common::TestShop;
use serde_json::json;

#[tokio::test]
async fn an_order_is_priced_by_the_server_and_read_back_with_its_items() {
    let t = TestShop::new().await;
    let alice = t.user("alice", "alice@example.com").await;
    let a = t.product("A", "c", "0.10", true, None).await;
    let b = t.product("B", "c", "0.20", true, Some(10)).await;
    let r = t.order("alice", &alice, &[(&a, 3), (&b, 1)]).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    assert_eq!(r.body["total"], "0.50", "0.1*3 + 0.2 is exactly 0.50");
    assert_eq!(r.body["status"], "PENDING");
    assert_eq!(r.body["items"].as_array().unwrap().len(), 2);
    let id = r.body["orderId"].as_str().unwrap().to_string();

    // AP3+AP4: by order id alone, with items, for the owner and an admin only.
    let got = t
        .call("GET", &format!("/orders/{id}"), Some(&alice), None)
        .await;
    assert_eq!(got.status, StatusCode::OK);
    assert_eq!(got.body["items"][0]["lineTotal"], "0.30");
    assert_eq!(got.body["items"][1]["unitPrice"], "0.20");
    let admin = t
        .call("GET", &format!("/orders/{id}"), Some(&t.admin()), None)
        .await;
    assert_eq!(admin.status, StatusCode::OK);
    let bob = t.user("bob", "bob@example.com").await;
    let r = t
        .call("GET", &format!("/orders/{id}"), Some(&bob), None)
        .await;
    assert_eq!(
        r.status,
        StatusCode::NOT_FOUND,
        "another user's order is not found"
    );
    // Stock was taken.
    let p = t.call("GET", &format!("/products/{b}"), None, None).await;
    assert_eq!(p.body["stock"], 9);
}

#[tokio::test]
async fn bad_orders_are_4xx_and_write_nothing() {
    let t = TestShop::new().await;
    let alice = t.user("alice", "alice@example.com").await;
    let p = t.product("P", "c", "1", true, Some(2)).await;
    let draft = t.product("D", "c", "1", false, None).await;
    let many: Vec<String> = (0..50).map(|_| p.clone()).collect();
    let lines: Vec<(&str, i64)> = many.iter().map(|id| (id.as_str(), 1)).collect();
    type Case<'a> = (Vec<(&'a str, i64)>, StatusCode, &'a str);
    let cases: Vec<Case> = vec![
        (vec![], StatusCode::BAD_REQUEST, "too_many_items"),
        (lines, StatusCode::BAD_REQUEST, "too_many_items"),
        (vec![(&p, 0)], StatusCode::BAD_REQUEST, "invalid_quantity"),
        (
            vec![(&p, 1001)],
            StatusCode::BAD_REQUEST,
            "invalid_quantity",
        ),
        (
            vec![(&p, 1), (&p, 1)],
            StatusCode::BAD_REQUEST,
            "duplicate_product",
        ),
        (
            vec![("nope", 1)],
            StatusCode::BAD_REQUEST,
            "invalid_product_id",
        ),
        (
            vec![("01J00000000000000000000000", 1)],
            StatusCode::CONFLICT,
            "unknown_product",
        ),
        (
            vec![(&draft, 1)],
            StatusCode::CONFLICT,
            "product_unavailable",
        ),
        (vec![(&p, 3)], StatusCode::CONFLICT, "out_of_stock"),
    ];
    for (lines, status, code) in cases {
        let r = t.order("alice", &alice, &lines).await;
        assert_eq!(r.status, status, "{code}: {}", r.body);
        assert_eq!(r.code(), code);
    }
    let r = t.order("alice", &alice, &[(&p, 1)]).await;
    assert!(r.body["error"].is_null());
    let limit_message = t.order("alice", &alice, &[]).await;
    assert!(
        limit_message.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("49")
    );
    let r = t
        .call(
            "POST",
            "/users/alice/orders",
            Some(&alice),
            Some(json!({"items": [{"productId": p, "quantity": "1"}]})),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    // Only the one good order exists, and only its unit of stock was taken.
    let (orders, _) = t
        .all_pages_expecting("/users/alice/orders", Some(&alice), 20, 1)
        .await;
    assert_eq!(orders.len(), 1);
    let product = t.call("GET", &format!("/products/{p}"), None, None).await;
    assert_eq!(product.body["stock"], 1);
}

#[tokio::test]
async fn idempotency_key_replays_and_refuses_another_body() {
    let t = TestShop::new().await;
    let alice = t.user("alice", "alice@example.com").await;
    let bob = t.user("bob", "bob@example.com").await;
    let p = t.product("P", "c", "2.50", true, Some(10)).await;
    let q = t.product("Q", "c", "1", true, None).await;
    let body = json!({"items": [{"productId": p, "quantity": 2}]});
    let key = [("idempotency-key", "order-123")];
    let first = t
        .call_with(
            "POST",
            "/users/alice/orders",
            Some(&alice),
            Some(body.clone()),
            &key,
        )
        .await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.body);
    let again = t
        .call_with(
            "POST",
            "/users/alice/orders",
            Some(&alice),
            Some(body.clone()),
            &key,
        )
        .await;
    assert_eq!(again.status, StatusCode::CREATED);
    assert_eq!(again.body["orderId"], first.body["orderId"]);
    assert_eq!(again.headers.get("idempotent-replayed").unwrap(), "true");
    let other = json!({"items": [{"productId": q, "quantity": 1}]});
    let r = t
        .call_with(
            "POST",
            "/users/alice/orders",
            Some(&alice),
            Some(other),
            &key,
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(r.code(), "idempotency_key_reused");
    // Keys are per user: bob's same key is a new order, not alice's.
    let bobs = t
        .call_with("POST", "/users/bob/orders", Some(&bob), Some(body), &key)
        .await;
    assert_eq!(bobs.status, StatusCode::CREATED);
    assert_ne!(bobs.body["orderId"], first.body["orderId"]);
    let (orders, _) = t
        .all_pages_expecting("/users/alice/orders", Some(&alice), 20, 1)
        .await;
    assert_eq!(orders.len(), 1, "the replay created nothing");
    let product = t.call("GET", &format!("/products/{p}"), None, None).await;
    assert_eq!(product.body["stock"], 6, "stock taken once per order");
    let r = t
        .call_with(
            "POST",
            "/users/alice/orders",
            Some(&alice),
            Some(json!({"items": [{"productId": q, "quantity": 1}]})),
            &[("idempotency-key", "")],
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn concurrent_orders_never_oversell() {
    let t = TestShop::new().await;
    let p = t.product("Scarce", "c", "3", true, Some(5)).await;
    let mut tasks = Vec::new();
    for i in 0..12 {
        let user = format!("u{i}");
        let token = t.token(&user);
        let router = t.router.clone();
        let p = p.clone();
        tasks.push(tokio::spawn(async move {
            use tower::ServiceExt;
            let body = json!({"items": [{"productId": p, "quantity": 1}]}).to_string();
            let req = axum::http::Request::post(format!("/users/{user}/orders"))
                .header("authorization", format!("Bearer {token}"))
                .header("content-type", "application/json")
                .body(axum::body::Body::from(body))
                .unwrap();
            router.oneshot(req).await.unwrap().status()
        }));
    }
    let mut created = 0;
    let mut conflicts = 0;
    for task in tasks {
        match task.await.unwrap() {
            StatusCode::CREATED => created += 1,
            StatusCode::CONFLICT => conflicts += 1,
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(created, 5, "exactly the stock was sold");
    assert_eq!(conflicts, 7);
    let product = t.call("GET", &format!("/products/{p}"), None, None).await;
    assert_eq!(product.body["stock"], 0);
}

async fn stock_of(t: &TestShop, p: &str) -> serde_json::Value {
    t.call("GET", &format!("/products/{p}"), None, None)
        .await
        .body["stock"]
        .clone()
}

#[tokio::test]
async fn every_transition_and_every_refusal() {
    let t = TestShop::new().await;
    let admin = t.admin();
    let alice = t.user("alice", "alice@example.com").await;
    let p = t.product("P", "c", "1", true, Some(10)).await;
    let id = t.order("alice", &alice, &[(&p, 4)]).await.body["orderId"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("/orders/{id}");
    let status = |s: &str| json!({"status": s});

    // The owner may only cancel.
    let r = t
        .call("PATCH", &path, Some(&alice), Some(status("PAID")))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // Illegal jumps name the current status.
    let r = t
        .call("PATCH", &path, Some(&admin), Some(status("SHIPPED")))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(
        r.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("PENDING")
    );
    // A stale version is refused.
    let r = t
        .call(
            "PATCH",
            &path,
            Some(&admin),
            Some(json!({"status": "PAID", "expectedVersion": 7})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(r.code(), "stale_version");
    // PENDING -> PAID -> SHIPPED -> DELIVERED, each moving the status index.
    for (to, version) in [("PAID", 2), ("SHIPPED", 3), ("DELIVERED", 4)] {
        let r = t
            .call(
                "PATCH",
                &path,
                Some(&admin),
                Some(json!({"status": to, "expectedVersion": version - 1})),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{to}: {}", r.body);
        assert_eq!(r.body["version"], version);
        let listed = t
            .call("GET", &format!("/orders?status={to}"), Some(&admin), None)
            .await;
        assert_eq!(
            listed.body["items"][0]["orderId"],
            id.as_str(),
            "{to} listing"
        );
    }
    for from in ["PENDING", "PAID", "SHIPPED"] {
        let listed = t
            .call("GET", &format!("/orders?status={from}"), Some(&admin), None)
            .await;
        assert!(
            listed.body["items"].as_array().unwrap().is_empty(),
            "still listed as {from}"
        );
    }
    let r = t
        .call("PATCH", &path, Some(&alice), Some(status("CANCELLED")))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(
        r.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("DELIVERED")
    );

    // The owner cancels a pending order and the stock comes back; a paid one too (admin).
    let second = t.order("alice", &alice, &[(&p, 2)]).await.body["orderId"]
        .as_str()
        .unwrap()
        .to_string();

    assert_eq!(stock_of(&t, &p).await, 4);
    let r = t
        .call(
            "PATCH",
            &format!("/orders/{second}"),
            Some(&alice),
            Some(status("CANCELLED")),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(stock_of(&t, &p).await, 6);
    let third = t.order("alice", &alice, &[(&p, 1)]).await.body["orderId"]
        .as_str()
        .unwrap()
        .to_string();
    t.call(
        "PATCH",
        &format!("/orders/{third}"),
        Some(&admin),
        Some(status("PAID")),
    )
    .await;
    let r = t
        .call(
            "PATCH",
            &format!("/orders/{third}"),
            Some(&admin),
            Some(status("CANCELLED")),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(stock_of(&t, &p).await, 6);
    let r = t
        .call(
            "PATCH",
            &format!("/orders/{third}"),
            Some(&admin),
            Some(status("PENDING")),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    // Another user cannot even see it; nonsense is a 400.
    let bob = t.user("bob", "bob@example.com").await;
    let r = t
        .call("PATCH", &path, Some(&bob), Some(status("CANCELLED")))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = t
        .call("PATCH", &path, Some(&admin), Some(status("LOST")))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = t
        .call(
            "PATCH",
            "/orders/01J00000000000000000000000",
            Some(&admin),
            Some(status("PAID")),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn listings_newest_first_by_user_status_and_date_range() {
    let t = TestShop::new().await;
    let admin = t.admin();
    let alice = t.user("alice", "alice@example.com").await;
    let bob = t.user("bob", "bob@example.com").await;
    let p = t.product("P", "c", "1", true, None).await;
    // 30 orders over six days (five a day, across both users); one day has none.
    let mut expected = Vec::new();
    for day in [1, 2, 3, 5, 6, 7] {
        for n in 0..5 {
            t.set_time(&format!("2026-03-{day:02}T{:02}:00:00Z", 8 + n));
            let (user, token) = if n % 2 == 0 {
                ("alice", &alice)
            } else {
                ("bob", &bob)
            };
            let r = t.order(user, token, &[(&p, 1)]).await;
            assert_eq!(r.status, StatusCode::CREATED);
            expected.push((
                r.body["createdAt"].as_str().unwrap().to_string(),
                r.body["orderId"].as_str().unwrap().to_string(),
                user,
            ));
        }
    }
    expected.sort();
    expected.reverse(); // newest first

    // AP2: a user's orders newest first, across pages.
    let (mine, pages) = t
        .all_pages_expecting("/users/alice/orders", Some(&alice), 4, 18)
        .await;
    let want: Vec<&str> = expected
        .iter()
        .filter(|e| e.2 == "alice")
        .map(|e| e.1.as_str())
        .collect();
    let got: Vec<&str> = mine
        .iter()
        .map(|o| o["orderId"].as_str().unwrap())
        .collect();
    assert_eq!(got, want);
    assert_eq!(pages, 5);

    // AP6: by date range across statuses, newest first, inclusive whole days, across pages.
    let (range, _) = t
        .all_pages_expecting("/orders?from=2026-03-02&to=2026-03-06", Some(&admin), 4, 20)
        .await;
    let want: Vec<&str> = expected
        .iter()
        .filter(|e| ("2026-03-02".."2026-03-07").contains(&&e.0[..10]))
        .map(|e| e.1.as_str())
        .collect();
    let got: Vec<&str> = range
        .iter()
        .map(|o| o["orderId"].as_str().unwrap())
        .collect();
    assert_eq!(got.len(), 20);
    assert_eq!(got, want);
    // Timestamps bound to the millisecond.
    let (window, _) = t
        .all_pages(
            "/orders?from=2026-03-03T09:00:00Z&to=2026-03-03T10:00:00Z",
            Some(&admin),
            10,
        )
        .await;
    assert_eq!(window.len(), 2);

    // AP5: by status newest first, and within a date range.
    let paid = &expected[0].1;
    t.call(
        "PATCH",
        &format!("/orders/{paid}"),
        Some(&admin),
        Some(json!({"status": "PAID"})),
    )
    .await;
    let (pending, _) = t
        .all_pages_expecting("/orders?status=PENDING", Some(&admin), 7, 29)
        .await;
    assert_eq!(pending.len(), 29);
    let created: Vec<&str> = pending
        .iter()
        .map(|o| o["createdAt"].as_str().unwrap())
        .collect();
    assert!(created.windows(2).all(|w| w[0] >= w[1]), "newest first");
    let (early, _) = t
        .all_pages(
            "/orders?status=PENDING&from=2026-03-01&to=2026-03-01",
            Some(&admin),
            10,
        )
        .await;
    assert_eq!(early.len(), 5);
    let (paid_list, _) = t
        .all_pages_expecting("/orders?status=PAID&to=2026-12-31", Some(&admin), 10, 1)
        .await;
    assert_eq!(paid_list.len(), 1);

    for bad in [
        "",
        "from=2026-03-01",
        "from=2026-03-05&to=2026-03-01",
        "from=2025-01-01&to=2026-12-31",
        "status=LOST",
        "from=yesterday&to=today",
    ] {
        let r = t
            .call("GET", &format!("/orders?{bad}"), Some(&admin), None)
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}: {}", r.body);
    }
    // A cursor from one range is refused for another.
    let page = t
        .call(
            "GET",
            "/orders?from=2026-03-01&to=2026-03-07&limit=2",
            Some(&admin),
            None,
        )
        .await;
    let c = page.body["nextCursor"].as_str().unwrap();
    let r = t
        .call(
            "GET",
            &format!("/orders?from=2026-03-01&to=2026-03-06&cursor={c}"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    // Another user's listing cursor is refused.
    let page = t
        .call("GET", "/users/bob/orders?limit=1", Some(&bob), None)
        .await;
    let c = page.body["nextCursor"].as_str().unwrap();
    let r = t
        .call(
            "GET",
            &format!("/users/alice/orders?cursor={c}"),
            Some(&alice),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_cancellation_skips_the_stock_of_a_product_that_stopped_tracking_it() {
    let t = TestShop::new().await;
    let kept = t.product("Kept", "c", "2", true, Some(5)).await;
    let dropped = t.product("Dropped", "c", "3", true, Some(5)).await;
    let alice = t.user("alice", "alice@example.com").await;
    let order = t.order("alice", &alice, &[(&kept, 1), (&dropped, 2)]).await;
    assert_eq!(order.status, StatusCode::CREATED, "{}", order.body);
    let id = order.body["orderId"].as_str().unwrap().to_string();
    // The product stops tracking stock behind the API's back: its restock action fails by
    // name, and the cancellation goes through without it.
    monotable_shop::products::Product::unchecked_update_key(dropped.clone())
        .set_stock(None)
        .send(t.shop.db())
        .await
        .unwrap();
    let r = t
        .call(
            "PATCH",
            &format!("/orders/{id}"),
            Some(&alice),
            Some(json!({"status": "CANCELLED"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["status"], "CANCELLED");
    assert_eq!(stock_of(&t, &kept).await, 5, "the tracked stock came back");
    assert!(
        stock_of(&t, &dropped).await.is_null(),
        "none was added back"
    );
}
