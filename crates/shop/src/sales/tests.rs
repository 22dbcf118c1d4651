//! The sales logic's pure parts: which changes count, what the marker records, how lines merge,
//! and the range the route reads.

use rust_decimal::Decimal;
use time::macros::date;

use super::*;

fn order(status: Status) -> Order {
    let created = date!(2026 - 12 - 02).midnight().assume_utc();
    Order {
        order_id: "01JEXAMPLE0000000000000000".to_string(),
        user_id: "u".to_string(),
        status,
        total: Decimal::ONE,
        currency: "USD".to_string(),
        item_count: 1,
        created_at: created,
        day: created.date(),
        shard: 0,
        updated_at: created,
        version: 1,
        items: None,
    }
}

fn dec(text: &str) -> Decimal {
    text.parse().unwrap()
}

#[test]
fn only_the_move_into_cancelled_takes_sales_away() {
    use Status::*;
    let all = [Pending, Paid, Shipped, Delivered, Cancelled];
    for old in all {
        for new in all {
            let event = SaleEvent::order_changed(Some(&order(old)), &order(new));
            let counts = new == Cancelled && old != Cancelled;
            assert_eq!(event.is_some(), counts, "{old:?} -> {new:?}");
        }
    }
    // An order written cancelled (an INSERT: no old image) takes its lines away too.
    assert_eq!(
        SaleEvent::order_changed(None, &order(Cancelled)),
        Some(SaleEvent::OrderCancelled {
            order_id: "01JEXAMPLE0000000000000000".into()
        })
    );
    assert_eq!(SaleEvent::order_changed(None, &order(Pending)), None);
}

#[test]
fn the_marker_names_the_change_not_the_record() {
    let line = OrderLine {
        order_id: "O1".into(),
        line_no: 7,
        product_id: "P".into(),
        product_name: "p".into(),
        quantity: 3,
        unit_price: dec("1.10"),
        line_total: dec("3.30"),
        stock_tracked: false,
        day: date!(2026 - 12 - 02),
    };
    let added = SaleEvent::line_added(&line);
    assert_eq!(added.sale_id(), "LINE#O1#007");
    assert_eq!(added, SaleEvent::line_added(&line.clone()));
    let cancelled = SaleEvent::OrderCancelled {
        order_id: "O1".into(),
    };
    assert_eq!(cancelled.sale_id(), "CANCEL#O1");
    assert!(added.sale_id().len() <= 64 && cancelled.sale_id().len() <= 64);
}

#[test]
fn lines_of_one_product_day_merge_and_a_cancellation_negates() {
    let d1 = date!(2026 - 12 - 02);
    let d2 = date!(2026 - 12 - 03);
    let merged = deltas(
        [
            ("A", d1, 2, dec("0.10")),
            ("B", d1, 1, dec("5.00")),
            ("A", d1, 1, dec("0.20")),
            ("A", d2, 4, dec("1.00")),
        ],
        -1,
    )
    .unwrap();
    let got: Vec<(&str, Date, i64, Decimal)> = merged
        .iter()
        .map(|d| (d.product_id.as_str(), d.day, d.units, d.revenue))
        .collect();
    assert_eq!(
        got,
        [
            ("A", d1, -3, dec("-0.30")),
            ("A", d2, -4, dec("-1.00")),
            ("B", d1, -1, dec("-5.00")),
        ]
    );
    assert!(deltas([("A", d1, i64::MIN, Decimal::ONE)], -1).is_err());
    assert!(
        deltas(
            [
                ("A", d1, i64::MAX, Decimal::ONE),
                ("A", d1, 1, Decimal::ONE)
            ],
            1
        )
        .is_err()
    );
}

#[test]
fn a_range_is_whole_days_in_order_and_at_most_a_year_and_a_day() {
    assert_eq!(
        day_range("2026-12-01", "2026-12-31").unwrap(),
        (date!(2026 - 12 - 01), date!(2026 - 12 - 31))
    );
    // A timestamp stands for its UTC day.
    assert_eq!(
        day_range("2026-12-01T23:30:00-02:00", "2026-12-03T00:10:00+01:00").unwrap(),
        (date!(2026 - 12 - 02), date!(2026 - 12 - 02))
    );
    assert!(day_range("2025-01-01", "2025-12-31").is_ok());
    assert!(day_range("2024-01-01", "2024-12-31").is_ok(), "366 days");
    let long = day_range("2024-01-01", "2025-01-01").unwrap_err();
    assert_eq!(long.code(), "range_too_long");
    assert_eq!(
        day_range("2026-12-02", "2026-12-01").unwrap_err().code(),
        "invalid_range"
    );
    for bad in ["2026-02-30", "yesterday", "", "2026-1-1"] {
        assert_eq!(
            day_range(bad, "2026-12-01").unwrap_err().code(),
            "invalid_date",
            "{bad:?}"
        );
    }
}

#[tokio::test]
async fn a_batch_runs_together_every_event_to_its_end_and_names_its_first_failure() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let (in_flight, most, finished) = (
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    );
    let outcome = each_at_once(40, |at| {
        let (in_flight, most, finished) = (&in_flight, &most, &finished);
        async move {
            let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            // Event 3 fails late, event 7 at once, event 30 late again; 5 and 6 were counted
            // by an earlier delivery.
            let turns = if at == 3 || at == 30 { 20 } else { 2 };
            for _ in 0..turns {
                tokio::task::yield_now().await;
            }
            in_flight.fetch_sub(1, Ordering::SeqCst);
            finished.fetch_add(1, Ordering::SeqCst);
            match at {
                3 | 7 | 30 => Err(ShopError::busy(format!("event {at}"))),
                5 | 6 => Ok(Applied::AlreadyCounted),
                _ => Ok(Applied::Counted),
            }
        }
    })
    .await;
    let failed = outcome.expect_err("three events failed");
    assert_eq!(
        failed.at, 3,
        "the first in batch order, not the first to fail"
    );
    assert!(
        failed.error.to_string().contains("event 3"),
        "{}",
        failed.error
    );
    assert_eq!(finished.load(Ordering::SeqCst), 40, "none left half-done");
    assert_eq!(most.load(Ordering::SeqCst), APPLY_CONCURRENCY);

    let all = each_at_once(3, |at| async move {
        Ok(if at == 1 {
            Applied::AlreadyCounted
        } else {
            Applied::Counted
        })
    });
    assert_eq!(all.await.unwrap(), 2);
}
