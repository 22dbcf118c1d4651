//! The sample-data loader: reproducible, every status present, and readable through the API.

use crate::common;

use axum::http::StatusCode;
use common::TestShop;
use monotable_shop::sample::{self, SampleConfig};

#[tokio::test]
async fn sample_data_covers_every_status_and_reads_back_through_the_api() {
    let t = TestShop::new().await;
    let config = SampleConfig {
        users: 5,
        products: 12,
        orders: 150,
        days: 60,
        end: time::macros::datetime!(2026-06-30 12:00 UTC),
        seed: 7,
    };
    let progress = std::sync::atomic::AtomicUsize::new(0);
    let loaded = sample::load(&t.shop, &config, &|n| {
        progress.store(n, std::sync::atomic::Ordering::Relaxed)
    })
    .await
    .unwrap();
    assert_eq!((loaded.users, loaded.products, loaded.orders), (5, 12, 150));
    assert_eq!(
        progress.into_inner(),
        loaded.items,
        "progress reached the total"
    );
    assert!(loaded.items >= 5 * 2 + 12 + 150 * 2);

    let admin = t.admin();
    let mut total = 0;
    for status in ["PENDING", "PAID", "SHIPPED", "DELIVERED", "CANCELLED"] {
        let (orders, _) = t
            .all_pages(&format!("/orders?status={status}"), Some(&admin), 100)
            .await;
        assert!(!orders.is_empty(), "no {status} orders");
        total += orders.len();
    }
    assert_eq!(total, 150, "every order is in exactly one status listing");
    let (by_date, _) = t
        .all_pages("/orders?from=2026-05-01&to=2026-06-30", Some(&admin), 100)
        .await;
    assert_eq!(by_date.len(), 150);
    let user = t.call("GET", "/users/user-00003", Some(&admin), None).await;
    assert_eq!(user.status, StatusCode::OK);
    let found = t
        .call("GET", "/users?email=USER3@example.com", Some(&admin), None)
        .await;
    assert_eq!(found.body["userId"], "user-00003");

    // The same seed writes the same ids.
    let again = TestShop::new().await;
    sample::load(&again.shop, &config, &|_| {}).await.unwrap();
    let first = t
        .call("GET", "/products?category=books&limit=100", None, None)
        .await;
    let second = again
        .call("GET", "/products?category=books&limit=100", None, None)
        .await;
    assert_eq!(first.body, second.body);
}
