//! Products: AP7 by id, AP8 by category, the sparse published index, changes that move index
//! keys, validation, and pagination with tamper-proof cursors.

use crate::common;

use axum::http::StatusCode;
use common::TestShop;
use serde_json::json;

#[tokio::test]
async fn create_get_and_hide_drafts() {
    let t = TestShop::new().await;
    let id = t
        .product("Cable", "electronics", "9.90", true, Some(3))
        .await;
    let r = t.call("GET", &format!("/products/{id}"), None, None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["price"], "9.90");
    assert_eq!(r.body["stock"], 3);
    let draft = t.product("Secret", "electronics", "1", false, None).await;
    let r = t
        .call("GET", &format!("/products/{draft}"), None, None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = t
        .call("GET", &format!("/products/{draft}"), Some(&t.admin()), None)
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.get("stock").is_none(), "untracked stock is absent");
    let r = t.call("GET", "/products/not-a-ulid", None, None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = t
        .call("GET", "/products/01J00000000000000000000000", None, None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn bad_products_are_400_and_write_nothing() {
    let t = TestShop::new().await;
    let admin = t.admin();
    for body in [
        json!({"name": "A", "category": "c", "price": 19.99, "published": true}),
        json!({"name": "A", "category": "c", "price": "19.999", "published": true}),
        json!({"name": "A", "category": "c", "price": "-1", "published": true}),
        json!({"name": "A", "category": "c", "price": "0", "published": true}),
        json!({"name": "A", "category": "c#d", "price": "1", "published": true}),
        json!({"name": "", "category": "c", "price": "1", "published": true}),
        json!({"name": "A", "category": "c", "price": "1", "published": true, "stock": -1}),
        json!({"name": "A", "category": "c", "price": "1"}),
        // 200 characters, 400 bytes: over the model's `max_length` (bytes, as DynamoDB counts).
        json!({"name": "é".repeat(200), "category": "c", "price": "1", "published": true}),
    ] {
        let r = t
            .call("POST", "/products", Some(&admin), Some(body.clone()))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}: {}", r.body);
    }
    let r = t
        .call("GET", "/products?category=c", Some(&admin), None)
        .await;
    assert_eq!(
        r.body["items"].as_array().unwrap().len(),
        0,
        "a bad request wrote a product"
    );
}

#[tokio::test]
async fn patches_move_the_product_between_listings() {
    let t = TestShop::new().await;
    let admin = t.admin();
    let id = t.product("Lamp", "home", "20", true, None).await;
    let r = t
        .call(
            "PATCH",
            &format!("/products/{id}"),
            Some(&admin),
            Some(json!({"category": "garden", "published": false, "price": "25.50"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["version"], 2);
    assert_eq!(r.body["price"], "25.50");
    let (home, _) = t
        .all_pages_expecting("/products?category=home", Some(&admin), 20, 0)
        .await;
    assert!(home.is_empty());
    let (garden, _) = t
        .all_pages_expecting("/products?category=garden", Some(&admin), 20, 1)
        .await;
    assert_eq!(garden[0]["productId"], id.as_str());
    // Drafts are not public, in any listing.
    let (public, _) = t
        .all_pages_expecting("/products?category=garden", None, 20, 0)
        .await;
    assert!(public.is_empty());
    let (published, _) = t
        .all_pages_expecting("/products?published=true", None, 20, 0)
        .await;
    assert!(published.is_empty());
    let r = t
        .call(
            "PATCH",
            &format!("/products/{id}"),
            Some(&admin),
            Some(json!({"published": true})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let (published, _) = t
        .all_pages_expecting("/products?published=true", None, 20, 1)
        .await;
    assert_eq!(published[0]["productId"], id.as_str());
    let (public, _) = t
        .all_pages_expecting("/products?category=garden", None, 20, 1)
        .await;
    assert_eq!(public[0]["productId"], id.as_str());
    let r = t
        .call(
            "PATCH",
            "/products/01J00000000000000000000000",
            Some(&admin),
            Some(json!({"name": "x"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn listings_paginate_and_cursors_cannot_be_forged_or_reused_elsewhere() {
    let t = TestShop::new().await;
    let mut ids = Vec::new();
    for i in 0..7 {
        ids.push(
            t.product(&format!("Book {i}"), "books", "5", true, None)
                .await,
        );
    }
    t.product("Pen", "office", "1", true, None).await;
    let (items, pages) = t
        .all_pages_expecting("/products?category=books", None, 3, 7)
        .await;
    assert_eq!(pages, 3);
    let mut got: Vec<String> = items
        .iter()
        .map(|p| p["productId"].as_str().unwrap().to_string())
        .collect();
    got.sort();
    ids.sort();
    assert_eq!(got, ids, "every book exactly once");
    let (published, _) = t
        .all_pages_expecting("/products?published=true", None, 2, 8)
        .await;
    assert_eq!(published.len(), 8);

    let first = t
        .call("GET", "/products?category=books&limit=3", None, None)
        .await;
    let cursor = first.body["nextCursor"].as_str().unwrap().to_string();
    // The cursor of one category is refused for another.
    let r = t
        .call(
            "GET",
            &format!("/products?category=office&cursor={cursor}"),
            None,
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.code(), "invalid_cursor");
    // A tampered cursor is refused.
    let mut bytes = cursor.clone().into_bytes();
    bytes[5] = if bytes[5] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(bytes).unwrap();
    let r = t
        .call(
            "GET",
            &format!("/products?category=books&cursor={tampered}"),
            None,
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    for bad in [
        "limit=0",
        "limit=101",
        "limit=x",
        "category=books&published=true",
        "",
        "frob=1",
    ] {
        let r = t.call("GET", &format!("/products?{bad}"), None, None).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}: {}", r.body);
    }
}

#[tokio::test]
async fn drafts_never_leave_the_server_through_a_public_listing_or_its_cursor() {
    // Regression: drafts were dropped after the query, so a public page could be empty while
    // its cursor (readable base64) carried the draft's id.
    let t = TestShop::new().await;
    let mut published = Vec::new();
    let mut drafts = Vec::new();
    for i in 0..9 {
        let id = t
            .product(&format!("Item {i}"), "mixed", "3", i % 3 == 0, None)
            .await;
        if i % 3 == 0 {
            published.push(id);
        } else {
            drafts.push(id);
        }
    }
    let (public, pages) = t
        .all_pages_expecting("/products?category=mixed", None, 1, 3)
        .await;
    let ids: Vec<&str> = public
        .iter()
        .map(|p| p["productId"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 3, "{ids:?}");
    assert!(
        ids.iter().all(|id| published.iter().any(|p| p == id)),
        "{ids:?}"
    );
    assert_eq!(pages, 3, "one item a page, no empty pages");
    // Every public page's cursor is opaque: no id, no key, no time in it.
    let mut cursor: Option<String> = None;
    loop {
        let url = match &cursor {
            Some(c) => format!("/products?category=mixed&limit=1&cursor={c}"),
            None => "/products?category=mixed&limit=1".to_string(),
        };
        let r = t.call("GET", &url, None, None).await;
        assert_eq!(r.body["items"].as_array().unwrap().len(), 1, "{}", r.body);
        let Some(c) = r.body["nextCursor"].as_str() else {
            break;
        };
        use base64::Engine as _;
        let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(c)
            .unwrap();
        let text = String::from_utf8_lossy(&raw);
        for id in drafts.iter().chain(&published) {
            assert!(!text.contains(id.as_str()), "cursor reveals {id}");
        }
        assert!(!text.contains("PRODUCT#"), "cursor reveals a key");
        cursor = Some(c.to_string());
    }
    // An admin sees all nine, drafts included.
    let (all, _) = t
        .all_pages_expecting("/products?category=mixed", Some(&t.admin()), 2, 9)
        .await;
    assert_eq!(all.len(), 9);
}

#[tokio::test]
async fn no_listing_ends_with_an_empty_page_that_claims_more() {
    let t = TestShop::new().await;
    for i in 0..6 {
        t.product(&format!("B{i}"), "six", "1", true, None).await;
    }
    for limit in [1, 2, 3, 6] {
        let (items, pages) = t
            .all_pages_expecting("/products?category=six", None, limit, 6)
            .await;
        assert_eq!(items.len(), 6);
        assert_eq!(
            pages,
            6 / limit,
            "limit {limit}: exactly full pages, no trailing empty one"
        );
        let (items, pages) = t
            .all_pages_expecting("/products?published=true", None, limit, 6)
            .await;
        assert_eq!(
            (items.len(), pages),
            (6, 6 / limit),
            "published, limit {limit}"
        );
    }
    let seven = t
        .call("GET", "/products?category=six&limit=7", None, None)
        .await;
    assert!(seven.body["nextCursor"].is_null(), "{}", seven.body);
}
