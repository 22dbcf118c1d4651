//! Users (AP1, user by email, email uniqueness) and every authentication and authorization denial.

use crate::common;

use axum::http::StatusCode;
use common::TestShop;
use serde_json::json;

#[tokio::test]
async fn create_then_update_a_profile() {
    let t = TestShop::new().await;
    let alice = t.token("alice");
    let r = t
        .call(
            "PUT",
            "/users/alice",
            Some(&alice),
            Some(json!({"name": "Alice", "email": "Alice@Example.com"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    assert_eq!(r.body["version"], 1);
    let r = t
        .call(
            "PUT",
            "/users/alice",
            Some(&alice),
            Some(json!({"name": "Alice B", "email": "alice@example.com"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["version"], 2);
    let r = t.call("GET", "/users/alice", Some(&alice), None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["name"], "Alice B");
    assert_eq!(r.body["userId"], "alice");
}

#[tokio::test]
async fn emails_are_unique_case_insensitively_and_the_guard_moves() {
    let t = TestShop::new().await;
    let alice = t.user("alice", "alice@example.com").await;
    let bob = t.token("bob");
    let r = t
        .call(
            "PUT",
            "/users/bob",
            Some(&bob),
            Some(json!({"name": "Bob", "email": "ALICE@example.com"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(r.code(), "email_taken");
    // Nothing was written for bob.
    let r = t.call("GET", "/users/bob", Some(&bob), None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);

    // Alice moves to a new address: the old one is free, the new one is found.
    let r = t
        .call(
            "PUT",
            "/users/alice",
            Some(&alice),
            Some(json!({"name": "Alice", "email": "a@new.example"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let r = t
        .call(
            "PUT",
            "/users/bob",
            Some(&bob),
            Some(json!({"name": "Bob", "email": "alice@example.com"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let admin = t.admin();
    let r = t
        .call("GET", "/users?email=A@NEW.example", Some(&admin), None)
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["userId"], "alice");
    let r = t
        .call("GET", "/users?email=alice@example.com", Some(&admin), None)
        .await;
    assert_eq!(r.body["userId"], "bob");
    let r = t
        .call("GET", "/users?email=nobody@example.com", Some(&admin), None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn bad_profiles_are_400_and_write_nothing() {
    let t = TestShop::new().await;
    let alice = t.token("alice");
    for body in [
        json!({"name": "", "email": "a@example.com"}),
        json!({"name": "A", "email": "not-an-email"}),
        json!({"name": "A", "email": "a@b"}),
        json!({"name": "x".repeat(201), "email": "a@example.com"}),
        json!({"name": "A"}),
        json!({"name": "A", "email": "a@example.com", "admin": true}),
        json!(["not", "an", "object"]),
    ] {
        let r = t
            .call("PUT", "/users/alice", Some(&alice), Some(body.clone()))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}: {}", r.body);
        assert!(
            r.body["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
    }
    let r = t.call("GET", "/users/alice", Some(&alice), None).await;
    assert_eq!(
        r.status,
        StatusCode::NOT_FOUND,
        "a bad request wrote a profile"
    );
    let bad_id = t.shop.auth().issue("bad#id", false, 60);
    assert!(bad_id.is_err(), "a user id with # cannot get a token");
}

#[tokio::test]
async fn every_denial() {
    let t = TestShop::new().await;
    let alice = t.user("alice", "alice@example.com").await;
    let bob = t.user("bob", "bob@example.com").await;

    // 401: no token, a bad header, a wrong signature, an expired token.
    let r = t.call("GET", "/users/alice", None, None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(r.code(), "unauthenticated");
    let r = t
        .call_with(
            "GET",
            "/users/alice",
            None,
            None,
            &[("authorization", "Basic abc")],
        )
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let forged = monotable_shop::auth::Auth::hs256(b"other".to_vec())
        .issue("alice", true, 600)
        .unwrap();
    let r = t.call("GET", "/users/alice", Some(&forged), None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let expired = jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &json!({"sub": "alice", "exp": 1_000_000_000u64}),
        &jsonwebtoken::EncodingKey::from_secret(b"test-secret"),
    )
    .unwrap();
    let r = t.call("GET", "/users/alice", Some(&expired), None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert!(
        r.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("expired")
    );

    // 403: another user's profile or orders; admin-only routes.
    let r = t.call("GET", "/users/alice", Some(&bob), None).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = t
        .call(
            "PUT",
            "/users/alice",
            Some(&bob),
            Some(json!({"name": "x", "email": "x@example.com"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = t.call("GET", "/users/alice/orders", Some(&bob), None).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = t
        .call(
            "POST",
            "/users/alice/orders",
            Some(&bob),
            Some(json!({"items": []})),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = t
        .call("GET", "/users?email=alice@example.com", Some(&bob), None)
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = t
        .call(
            "POST",
            "/products",
            Some(&alice),
            Some(json!({"name": "x", "category": "c", "price": "1", "published": true})),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = t
        .call("GET", "/orders?status=PENDING", Some(&alice), None)
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);

    // Admins may read any profile.
    let r = t.call("GET", "/users/alice", Some(&t.admin()), None).await;
    assert_eq!(r.status, StatusCode::OK);
}

#[tokio::test]
async fn unknown_routes_and_the_openapi_document() {
    let t = TestShop::new().await;
    let r = t.call("GET", "/nope", None, None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(r.code(), "not_found");
    let r = t.call("GET", "/openapi.json", None, None).await;
    assert_eq!(r.status, StatusCode::OK);
    let paths = r.body["paths"].as_object().unwrap();
    for p in [
        "/users/{userId}",
        "/users",
        "/products",
        "/products/{productId}",
        "/products/{productId}/sales",
        "/users/{userId}/orders",
        "/orders",
        "/orders/{orderId}",
    ] {
        assert!(paths.contains_key(p), "{p} missing from OpenAPI");
    }
}
