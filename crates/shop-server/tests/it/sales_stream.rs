//! The `productSales` consumer under `monotable-shop serve` (issue 27's "done when"): customers
//! place, pay and cancel orders through the REST API from several threads while the sample
//! loader writes orders of past days; once the consumer caught up, every product's daily sales
//! (`GET /products/{productId}/sales`) equal the units and revenue the orders themselves give,
//! cent for cent: with normal delivery, with a handler failing at random (retried and bisected),
//! and across kill -9 and SIGTERM of serve while the consumer is behind.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use monotable_test_support::Served;
use monotable_test_support::shop::{run, serve_with_env, token};
use tempfile::TempDir;

use crate::common::sales::{
    Api, Customer, PRICES, assert_aggregates_equal_orders, catch_up, customer, wait_behind,
};

const CUSTOMERS: usize = 6;
const STEPS: usize = 25;

/// A serve's data directory, its products and customers.
struct Shop {
    dir: TempDir,
    /// The DynamoDB endpoint of the serve running now.
    endpoint: String,
    api: Api,
    products: Vec<String>,
    customers: Vec<Customer>,
}

impl Shop {
    /// A serve on a fresh data directory.
    fn start(env: &[(&str, &str)]) -> (Shop, Served) {
        let dir = tempfile::tempdir().unwrap();
        let served = serve_with_env(&["--data-dir", "data"], env, dir.path());
        let api = Api {
            url: served.api.clone(),
            admin: token(dir.path(), "root", true),
        };
        let products = PRICES
            .iter()
            .enumerate()
            .map(|(i, price)| api.product(&format!("P{i}"), price))
            .collect();
        let customers = (0..CUSTOMERS)
            .map(|i| {
                let user = format!("c{i}");
                let token = token(dir.path(), &user, false);
                Customer { user, token }
            })
            .collect();
        let shop = Shop {
            dir,
            endpoint: served.url.clone(),
            api,
            products,
            customers,
        };
        (shop, served)
    }

    /// Serve again on the same data directory (after a kill or a stop).
    fn restart(&mut self) -> Served {
        let served = serve_with_env(&["--data-dir", "data"], &[], self.dir.path());
        self.api.url = served.api.clone();
        self.endpoint = served.url.clone();
        assert!(
            served
                .banner
                .iter()
                .any(|l| l.trim().starts_with("consumer  productSales")),
            "{:?}",
            served.banner
        );
        served
    }

    /// `monotable-shop load-sample` into the running serve: orders over the last six days.
    fn load_sample(&self) {
        let out = run(
            &[
                "load-sample",
                "--endpoint",
                &self.endpoint,
                "--users",
                "3",
                "--products",
                "4",
                "--orders",
                "120",
                "--days",
                "6",
                "--quiet",
            ],
            self.dir.path(),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Every customer at once, `steps` steps each (`None`: until `stop` or serve is gone).
    fn customers(&self, steps: Option<usize>, stop: &AtomicBool) {
        thread::scope(|s| {
            for (i, who) in self.customers.iter().enumerate() {
                let (api, products) = (&self.api, &self.products);
                let seed = u64::try_from(i).unwrap() + 1;
                s.spawn(move || customer(api, who, products, seed, steps, stop));
            }
        });
    }

    /// Catch up, then compare every product's aggregate with its orders.
    fn check(&self) {
        catch_up(&self.api, &self.customers[0]);
        let (products, days) = assert_aggregates_equal_orders(&self.api);
        assert!(products > PRICES.len(), "{products} products compared");
        assert!(days > 1, "{days} days compared");
    }

    fn failed_file(&self) -> std::path::PathBuf {
        self.dir
            .path()
            .join("data/consumers/productSales.failed.jsonl")
    }
}

/// Customers and the sample loader at once, to the end.
fn orders_from_everyone(shop: &Shop) {
    let never = AtomicBool::new(false);
    thread::scope(|s| {
        s.spawn(|| shop.load_sample());
        shop.customers(Some(STEPS), &never);
    });
}

#[test]
fn every_sale_counts_once_with_normal_delivery() {
    let (shop, _served) = Shop::start(&[]);
    orders_from_everyone(&shop);
    shop.check();
    let m = shop.api.consumer_metrics();
    assert!(m["delivered"].as_u64() > Some(0), "{m}");
    assert_eq!(
        (&m["failures"], &m["retries"], &m["sent_to_on_failure"]),
        (&0.into(), &0.into(), &0.into()),
        "{m}"
    );
    assert!(!shop.failed_file().exists());
}

#[test]
fn every_sale_counts_once_when_the_handler_fails_at_random() {
    // A tenth of the sales fail, before or after they are applied (tests/common, and
    // src/consumers/faults.rs: a test-only feature).
    let env = [("MONOTABLE_SHOP_SALES_FAULTS", "10,7")];
    let (shop, served) = Shop::start(&env);
    assert!(
        served.banner.iter().any(|l| l.contains("fails 10%")),
        "{:?}",
        served.banner
    );
    orders_from_everyone(&shop);
    shop.check();
    let m = shop.api.consumer_metrics();
    assert!(m["failures"].as_u64() > Some(0), "{m}");
    assert!(m["retries"].as_u64() > Some(0), "retried and bisected: {m}");
    assert_eq!(m["sent_to_on_failure"], 0, "{m}");
    assert!(!shop.failed_file().exists());
}

/// How serve is stopped while the consumer is behind.
#[derive(Debug, Clone, Copy)]
enum Stop {
    Kill9,
    Sigterm,
}

#[test]
fn every_sale_counts_once_across_kill_9_and_sigterm_while_the_consumer_is_behind() {
    let (mut shop, mut served) = Shop::start(&[]);
    // A backlog: the sample's orders of past days, then customers until serve stops.
    shop.load_sample();
    for how in [Stop::Kill9, Stop::Kill9, Stop::Sigterm] {
        let stop = AtomicBool::new(false);
        thread::scope(|s| {
            s.spawn(|| shop.customers(None, &stop));
            assert!(wait_behind(&shop.api), "the consumer was never behind");
            match how {
                Stop::Kill9 => drop(served), // Served's drop is SIGKILL
                Stop::Sigterm => {
                    let after = served.terminate();
                    assert!(
                        after.iter().any(|l| l.starts_with("stopped; data is in")),
                        "{after:?}"
                    );
                }
            }
            stop.store(true, Ordering::Relaxed);
        });
        served = shop.restart();
    }
    shop.check();
    assert!(
        shop.dir
            .path()
            .join("data/consumers/productSales.checkpoint")
            .exists()
    );
}
