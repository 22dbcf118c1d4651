//! The shop under DynamoDB's throughput rules (capacity emulation on a virtual clock): a
//! constant overload makes the SDK retry until it gives up, and the client gets a 503 with
//! `Retry-After` — never a 500 — while capacity freed later serves it again.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use common::TestShop;
use monotable_connect::capacity::{Settings, VirtualClock};

#[tokio::test]
async fn a_constant_overload_exhausts_the_sdks_retries_and_is_a_503_never_a_500() {
    // Scaled by 1,000: a partition serves 3 RCU/s and 1 WCU/s. The clock only moves when the
    // test moves it, so once a partition is spent it stays spent.
    let clock = VirtualClock::new();
    let settings = Settings::default()
        .scale(1000.0)
        .clock(Arc::new(clock.clone()));
    let (t, engine) = TestShop::with_capacity(settings).await;
    let hour = Duration::from_secs(3600);
    clock.advance(hour);
    let alice = t.user("alice", "alice@example.com").await;
    clock.advance(hour);
    let p = t.product("P", "c", "2", true, Some(50)).await;
    clock.advance(hour);

    let mut statuses = Vec::new();
    for _ in 0..12 {
        let r = t.call("GET", "/users/alice", Some(&alice), None).await;
        assert_ne!(r.status, StatusCode::INTERNAL_SERVER_ERROR, "{}", r.body);
        if r.status == StatusCode::SERVICE_UNAVAILABLE {
            assert_eq!(r.code(), "throttled", "{}", r.body);
            assert!(r.headers.contains_key("retry-after"));
        }
        statuses.push(r.status);
    }
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::SERVICE_UNAVAILABLE)
        .count();
    assert!(refused >= 6, "{statuses:?}");
    assert_eq!(statuses[0], StatusCode::OK);

    // Orders write one partition per line and per user: once spent, an order is a 503 too.
    let mut order_statuses = Vec::new();
    for _ in 0..4 {
        let r = t.order("alice", &alice, &[(&p, 1)]).await;
        assert_ne!(r.status, StatusCode::INTERNAL_SERVER_ERROR, "{}", r.body);
        order_statuses.push(r.status);
    }
    assert!(
        order_statuses.contains(&StatusCode::SERVICE_UNAVAILABLE),
        "{order_statuses:?}"
    );

    // Every refused read was tried three times (the SDK's standard retries) before the 503.
    let snapshot = engine.capacity().unwrap().snapshot();
    let table = snapshot
        .resources
        .iter()
        .find(|r| r.index.is_none())
        .unwrap();
    assert!(
        table.throttled_reads >= 3 * refused as u64,
        "{} throttled attempts for {refused} refusals",
        table.throttled_reads
    );

    // Given time, the same requests are served again.
    clock.advance(hour);
    let r = t.call("GET", "/users/alice", Some(&alice), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}
