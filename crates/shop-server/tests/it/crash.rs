//! kill -9 under concurrent order load, several times over: every order the shop acknowledged
//! (201) is there after a restart with its line, no order is half written, and the stock taken
//! equals the orders that exist, whether or not their answer got out before the kill.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use monotable_test_support::shop::{serve, token};
use monotable_test_support::{Served, http};

const STOCK: i64 = 100_000;
const CLIENTS: usize = 8;
const CYCLES: usize = 4;

/// Place orders from `CLIENTS` threads for `run_for`, then kill the server (SIGKILL: no chance to
/// clean up); the ids it acknowledged.
fn load_until_killed(
    served: Served,
    product: &str,
    tokens: &[(String, String)],
    run_for: Duration,
) -> Vec<String> {
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let mut threads = Vec::new();
    for (user, token) in tokens {
        let (user, token) = (user.clone(), token.clone());
        let (api, product) = (served.api.clone(), product.to_string());
        let (acknowledged, stop) = (acknowledged.clone(), stop.clone());
        threads.push(std::thread::spawn(move || {
            let body = format!(r#"{{"items":[{{"productId":"{product}","quantity":1}}]}}"#);
            let auth = format!("Bearer {token}");
            while !stop.load(Ordering::Relaxed) {
                match http(
                    &api,
                    "POST",
                    &format!("/users/{user}/orders"),
                    &[("Authorization", &auth)],
                    Some(&body),
                ) {
                    Ok((201, order)) => acknowledged
                        .lock()
                        .unwrap()
                        .push(order["orderId"].as_str().unwrap().to_string()),
                    Ok((status, body)) => panic!("an order was answered {status}: {body}"),
                    Err(_) => break, // killed
                }
            }
        }));
    }
    std::thread::sleep(run_for);
    drop(served); // Served's drop is SIGKILL
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join().unwrap();
    }
    acknowledged.lock().unwrap().clone()
}

fn all_orders(api: &str, admin: &str, users: &[(String, String)]) -> BTreeSet<String> {
    let auth = format!("Bearer {admin}");
    let mut ids = BTreeSet::new();
    for (user, _) in users {
        let mut cursor = String::new();
        loop {
            let path = format!("/users/{user}/orders?limit=100{cursor}");
            let (status, page) =
                http(api, "GET", &path, &[("Authorization", &auth)], None).unwrap();
            assert_eq!(status, 200, "{page}");
            for o in page["items"].as_array().unwrap() {
                ids.insert(o["orderId"].as_str().unwrap().to_string());
            }
            match page["nextCursor"].as_str() {
                Some(c) => cursor = format!("&cursor={c}"),
                None => break,
            }
        }
    }
    ids
}

fn check_after_restart(
    dir: &Path,
    admin: &str,
    product: &str,
    users: &[(String, String)],
    acknowledged: &BTreeSet<String>,
) -> Served {
    let served = serve(&["--data-dir", "data"], dir);
    let auth = format!("Bearer {admin}");
    let present = all_orders(&served.api, admin, users);
    let lost: Vec<_> = acknowledged.difference(&present).collect();
    assert!(
        lost.is_empty(),
        "acknowledged orders lost by kill -9: {lost:?}"
    );
    for id in acknowledged.iter().take(50) {
        let (status, order) = http(
            &served.api,
            "GET",
            &format!("/orders/{id}"),
            &[("Authorization", &auth)],
            None,
        )
        .unwrap();
        assert_eq!(status, 200, "{order}");
        assert_eq!(
            order["items"].as_array().unwrap().len(),
            1,
            "half-written order {order}"
        );
    }
    let (_, p) = http(
        &served.api,
        "GET",
        &format!("/products/{product}"),
        &[],
        None,
    )
    .unwrap();
    let taken = STOCK - p["stock"].as_i64().unwrap();
    assert_eq!(
        taken,
        i64::try_from(present.len()).unwrap(),
        "stock taken = orders that exist"
    );
    served
}

#[test]
fn kill_9_under_order_load_loses_no_acknowledged_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut served = serve(&["--data-dir", "data"], dir.path());
    let admin = token(dir.path(), "root", true);
    let product_body = format!(
        r#"{{"name":"Cable","category":"c","price":"1.50","published":true,"stock":{STOCK}}}"#
    );
    let (status, product) = http(
        &served.api,
        "POST",
        "/products",
        &[("Authorization", &format!("Bearer {admin}"))],
        Some(&product_body),
    )
    .unwrap();
    assert_eq!(status, 201, "{product}");
    let product = product["productId"].as_str().unwrap().to_string();
    let users: Vec<(String, String)> = (0..CLIENTS)
        .map(|i| {
            let user = format!("u{i}");
            let t = token(dir.path(), &user, false);
            (user, t)
        })
        .collect();
    let mut acknowledged = BTreeSet::new();
    for cycle in 0..CYCLES {
        // Kill at a different point of the load each time.
        let run_for = Duration::from_millis(400 + 230 * u64::try_from(cycle).unwrap());
        let acked = load_until_killed(served, &product, &users, run_for);
        assert!(!acked.is_empty(), "the load placed orders before the kill");
        acknowledged.extend(acked);
        served = check_after_restart(dir.path(), &admin, &product, &users, &acknowledged);
    }
}
