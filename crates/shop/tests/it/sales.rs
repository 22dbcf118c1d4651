//! The sales aggregate (issue 27): changes built from the stored entities and applied through
//! the model's `applySale` on the embedded engine, each delivered once or more as a stream
//! redelivers them, give the sums of the orders themselves, cent for cent; and the admin's
//! `GET /products/{productId}/sales`.

use crate::common;

use std::collections::BTreeMap;

use axum::http::StatusCode;
use common::TestShop;
use monotable_shop::orders::{Order, OrderLine};
use monotable_shop::patterns::GetOrderWithItems;
use monotable_shop::sales::{self, Applied, SaleEvent};
use proptest::prelude::*;
use rust_decimal::Decimal;
use serde_json::json;

/// The order and its lines, as stored.
async fn stored(t: &TestShop, order_id: &str) -> (Order, Vec<OrderLine>) {
    let all = GetOrderWithItems {
        order_id: order_id.to_string(),
    }
    .all(t.shop.db())
    .await
    .expect("read the order");
    (all.order.expect("the order exists"), all.order_items)
}

/// Place an order through the API at `time`; returns its id and the changes its lines make.
async fn place(
    t: &TestShop,
    token: &str,
    time: &str,
    lines: &[(&str, i64)],
) -> (String, Vec<SaleEvent>) {
    t.set_time(time);
    let r = t.order("alice", token, lines).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let id = r.body["orderId"].as_str().unwrap().to_string();
    let (_, stored_lines) = stored(t, &id).await;
    let events = stored_lines.iter().map(SaleEvent::line_added).collect();
    (id, events)
}

/// Move an order to `status` through the API; returns the change its record makes, if any.
async fn move_to(t: &TestShop, token: &str, id: &str, status: &str) -> Option<SaleEvent> {
    let (old, _) = stored(t, id).await;
    let r = t
        .call(
            "PATCH",
            &format!("/orders/{id}"),
            Some(token),
            Some(json!({ "status": status })),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let (new, _) = stored(t, id).await;
    SaleEvent::order_changed(Some(&old), &new)
}

async fn report(t: &TestShop, product: &str) -> serde_json::Value {
    let r = t
        .call(
            "GET",
            &format!("/products/{product}/sales?from=2026-12-01&to=2026-12-31"),
            Some(&t.admin()),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    r.body
}

#[tokio::test]
async fn a_line_counts_once_and_its_cancellation_takes_it_away_once() {
    let t = TestShop::new().await;
    let alice = t.user("alice", "alice@example.com").await;
    let a = t.product("A", "c", "9.99", true, None).await;
    let b = t.product("B", "c", "0.10", true, Some(50)).await;
    let (id, lines) = place(&t, &alice, "2026-12-02T23:59:59Z", &[(&a, 3), (&b, 7)]).await;
    assert_eq!(lines.len(), 2);
    for event in &lines {
        assert_eq!(
            sales::apply(&t.shop, event).await.unwrap(),
            Applied::Counted
        );
        // The same record again: its marker exists, nothing is counted.
        assert_eq!(
            sales::apply(&t.shop, event).await.unwrap(),
            Applied::AlreadyCounted
        );
    }
    let body = report(&t, &a).await;
    assert_eq!(
        body,
        json!({
            "productId": a, "from": "2026-12-01", "to": "2026-12-31", "currency": "USD",
            "units": 3, "revenue": "29.97",
            "days": [{ "day": "2026-12-02", "units": 3, "revenue": "29.97" }],
        })
    );
    assert_eq!(report(&t, &b).await["revenue"], "0.70");

    // Paying counts nothing; cancelling takes both lines away, once.
    assert_eq!(move_to(&t, &t.admin(), &id, "PAID").await, None);
    let cancel = move_to(&t, &alice, &id, "CANCELLED")
        .await
        .expect("a change");
    let batch = [cancel.clone(), cancel.clone(), lines[0].clone()];
    assert_eq!(sales::apply_all(&t.shop, &batch).await.unwrap(), 1);
    for product in [&a, &b] {
        let body = report(&t, product).await;
        assert_eq!(
            (&body["units"], &body["revenue"]),
            (&json!(0), &json!("0.00"))
        );
        assert_eq!(
            body["days"][0]["day"], "2026-12-02",
            "the day stays, at zero"
        );
    }
    // A later change of the cancelled order (its old image already CANCELLED) counts nothing.
    let (cancelled, _) = stored(&t, &id).await;
    assert_eq!(SaleEvent::order_changed(Some(&cancelled), &cancelled), None);
}

#[tokio::test]
async fn the_route_is_for_admins_and_checks_its_range() {
    let t = TestShop::new().await;
    let alice = t.user("alice", "alice@example.com").await;
    let p = t.product("P", "c", "1.00", true, None).await;
    let path = |q: &str| format!("/products/{p}/sales?{q}");
    let ok = "from=2026-12-01&to=2026-12-31";
    let r = t.call("GET", &path(ok), Some(&alice), None).await;
    assert_eq!((r.status, r.code()), (StatusCode::FORBIDDEN, "forbidden"));
    let r = t.call("GET", &path(ok), None, None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    for (query, code) in [
        ("from=2026-12-02&to=2026-12-01", "invalid_range"),
        ("from=2024-01-01&to=2025-01-01", "range_too_long"),
        ("from=2026-02-30&to=2026-12-01", "invalid_date"),
        ("from=2026-12-01", "invalid_query"),
        ("from=2026-12-01&to=2026-12-02&limit=3", "invalid_query"),
    ] {
        let r = t.call("GET", &path(query), Some(&t.admin()), None).await;
        assert_eq!(
            (r.status, r.code()),
            (StatusCode::BAD_REQUEST, code),
            "{query}"
        );
    }
    let r = t
        .call(
            "GET",
            &format!("/products/nope/sales?{ok}"),
            Some(&t.admin()),
            None,
        )
        .await;
    assert_eq!(
        (r.status, r.code()),
        (StatusCode::BAD_REQUEST, "invalid_product_id")
    );
    // No sales: 200 with zero sums and no days.
    let r = t.call("GET", &path(ok), Some(&t.admin()), None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(
        (&r.body["units"], &r.body["revenue"], &r.body["days"]),
        (&json!(0), &json!("0.00"), &json!([]))
    );
    // A year and a day (2024 is a leap year) is the longest range.
    let r = t
        .call(
            "GET",
            &path("from=2024-01-01&to=2024-12-31"),
            Some(&t.admin()),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

/// One step of a history: place an order (products by index, quantities, a day of December),
/// or move the n-th order placed so far (modulo their number) to a status.
#[derive(Debug, Clone)]
enum Step {
    Place { lines: Vec<(usize, i64)>, day: u8 },
    Cancel(usize),
    Pay(usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (prop::collection::btree_map(0_usize..3, 1_i64..5, 1..=3), 1_u8..=4)
            .prop_map(|(lines, day)| Step::Place { lines: lines.into_iter().collect(), day }),
        2 => (0_usize..50).prop_map(Step::Cancel),
        1 => (0_usize..50).prop_map(Step::Pay),
    ]
}

/// Units and revenue per (product, day) of the orders as stored: every line of every order not
/// cancelled.
async fn sums_of_orders(
    t: &TestShop,
    ids: &[String],
) -> BTreeMap<(String, String), (i64, Decimal)> {
    let mut sums: BTreeMap<(String, String), (i64, Decimal)> = BTreeMap::new();
    for id in ids {
        let (order, lines) = stored(t, id).await;
        if order.status == monotable_shop::orders::Status::Cancelled {
            continue;
        }
        for l in lines {
            let slot = sums
                .entry((
                    l.product_id.clone(),
                    monotable_shop::time_util::format_day(l.day),
                ))
                .or_default();
            slot.0 += l.quantity;
            slot.1 += l.line_total;
        }
    }
    sums
}

/// The aggregate as the route reads it, without the days back at zero.
async fn aggregate(
    t: &TestShop,
    products: &[String],
) -> BTreeMap<(String, String), (i64, Decimal)> {
    let mut out = BTreeMap::new();
    for p in products {
        let report = sales::between(&t.shop, p, "2026-12-01", "2026-12-31")
            .await
            .unwrap();
        for d in report.days {
            if d.units != 0 || !d.revenue.is_zero() {
                out.insert((p.clone(), d.day), (d.units, d.revenue));
            }
        }
    }
    out
}

async fn history(steps: Vec<Step>, times: Vec<u8>, replays: Vec<Option<usize>>) {
    let t = TestShop::new().await;
    let alice = t.user("alice", "alice@example.com").await;
    let mut products = Vec::new();
    for (name, price) in [("A", "0.10"), ("B", "19.99"), ("C", "3.33")] {
        products.push(t.product(name, "c", price, true, None).await);
    }
    // The records the stream carries, in order.
    let mut ids: Vec<String> = Vec::new();
    let mut events: Vec<SaleEvent> = Vec::new();
    for s in steps {
        match s {
            Step::Place { lines, day } => {
                let lines: Vec<(&str, i64)> = lines
                    .iter()
                    .map(|(p, q)| (products[*p].as_str(), *q))
                    .collect();
                let time = format!("2026-12-0{day}T12:00:00Z");
                let (id, added) = place(&t, &alice, &time, &lines).await;
                ids.push(id);
                events.extend(added);
            }
            Step::Cancel(_) | Step::Pay(_) if ids.is_empty() => {}
            Step::Cancel(n) => {
                let id = ids[n % ids.len()].clone();
                let (order, _) = stored(&t, &id).await;
                if order
                    .status
                    .can_move_to(monotable_shop::orders::Status::Cancelled)
                {
                    events.extend(move_to(&t, &alice, &id, "CANCELLED").await);
                }
            }
            Step::Pay(n) => {
                let id = ids[n % ids.len()].clone();
                let (order, _) = stored(&t, &id).await;
                if order
                    .status
                    .can_move_to(monotable_shop::orders::Status::Paid)
                {
                    assert_eq!(move_to(&t, &t.admin(), &id, "PAID").await, None);
                }
            }
        }
    }
    // Deliver: each record 1 to 3 times in a row, and sometimes the batch from an earlier
    // record replayed (a retry after a failure further on).
    for (i, event) in events.iter().enumerate() {
        let repeat = times.get(i).copied().unwrap_or(1);
        for k in 0..repeat {
            let applied = sales::apply(&t.shop, event).await.unwrap();
            let first = if k == 0 {
                Applied::Counted
            } else {
                Applied::AlreadyCounted
            };
            assert_eq!(applied, first, "delivery {k} of {event:?}");
        }
        if let Some(back) = replays.get(i).copied().flatten() {
            let from = i.saturating_sub(back);
            assert_eq!(
                sales::apply_all(&t.shop, &events[from..=i]).await.unwrap(),
                0
            );
        }
    }
    assert_eq!(
        aggregate(&t, &products).await,
        sums_of_orders(&t, &ids).await
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any history of orders, payments and cancellations, each record delivered one to three
    /// times and batches replayed: the aggregate is the orders' sums, cent for cent.
    #[test]
    fn redelivered_records_give_the_orders_sums(
        steps in prop::collection::vec(step(), 1..14),
        times in prop::collection::vec(1_u8..=3, 60),
        replays in prop::collection::vec(prop::option::weighted(0.2, 0_usize..4), 60),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(history(steps, times, replays));
    }
}
