//! The shop's design against the same design with AP5 and AP8 on native multi-attribute index
//! keys (examples/shop/shop-native.toml): this file is compiled into the shop (shop.toml) and
//! into `monotable-shop-native`, so each run measures the model its crate was compiled against,
//! on the same sample data (same seed).
//!
//! It prints, for that model: bytes per order (the item as stored, and summed over the table
//! and every index it is copied into, with DynamoDB's 100 bytes of overhead per copy), the write
//! units of one order item as the engine reports them (`ReturnConsumedCapacity = INDEXES`), and
//! the p50/p99 of AP5 (orders by status, page of 20, through the shop's listing) and AP8
//! (published products by category, page of 20), statuses and categories drawn at random.
//!
//! Run: `cargo bench -p monotable-shop --bench designs` and
//! `cargo bench -p monotable-shop-native --bench designs` (`BENCH_ORDERS`, default 20000;
//! `BENCH_CALLS`, default 2000). Results and the commands go in docs/benchmarks.md.

mod common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};
use monotable_shop::orders::Status;
use monotable_shop::sample::CATEGORIES;

type Item = HashMap<String, AttributeValue>;

const PAGE: i32 = 20;
const STATUSES: &[Status] = &[
    Status::Pending,
    Status::Paid,
    Status::Shipped,
    Status::Delivered,
    Status::Cancelled,
];

/// DynamoDB's size of a value: strings and numbers by their text, sets and lists by elements.
fn value_size(v: &AttributeValue) -> usize {
    match v {
        AttributeValue::S(s) => s.len(),
        AttributeValue::N(n) => n.len().div_ceil(2) + 1,
        AttributeValue::B(b) => b.as_ref().len(),
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        AttributeValue::Ss(v) => v.iter().map(String::len).sum(),
        AttributeValue::Ns(v) => v.iter().map(|n| n.len().div_ceil(2) + 1).sum(),
        AttributeValue::L(l) => 3 + l.iter().map(|x| 1 + value_size(x)).sum::<usize>(),
        AttributeValue::M(m) => {
            3 + m
                .iter()
                .map(|(k, x)| 1 + k.len() + value_size(x))
                .sum::<usize>()
        }
        _ => 0,
    }
}

fn item_size(item: &Item) -> usize {
    item.iter().map(|(k, v)| k.len() + value_size(v)).sum()
}

/// How many indexes of `model` hold `item`: an item is in an index when it has every one of
/// the index's key attributes.
fn indexes_holding(model: &monotable::model::Model, item: &Item) -> usize {
    model
        .indexes
        .iter()
        .filter(|i| i.key_attributes().all(|k| item.contains_key(&k.name)))
        .count()
}

async fn scan(client: &Client, table: &str) -> Vec<Item> {
    let (mut items, mut start) = (Vec::new(), None);
    loop {
        let page = client
            .scan()
            .table_name(table)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("scan");
        items.extend(page.items().iter().cloned());
        start = page.last_evaluated_key;
        if start.is_none() {
            return items;
        }
    }
}

fn percentiles(mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort();
    let at = |q: f64| {
        samples[((samples.len() as f64 * q) as usize).min(samples.len() - 1)].as_secs_f64() * 1e6
    };
    (at(0.5), at(0.99))
}

async fn run(orders: usize, calls: usize) {
    let (_engine, client, shop) = common::loaded_shop(orders).await;
    let model = shop.model().clone();
    let table = model.table.name.clone();
    let all = scan(&client, &table).await;
    let order_items: Vec<&Item> = all
        .iter()
        .filter(|i| {
            i.get("entityType")
                .and_then(|v| v.as_s().ok())
                .map(String::as_str)
                == Some("Order")
        })
        .collect();
    let n = order_items.len().max(1) as f64;
    let stored: f64 = order_items.iter().map(|i| item_size(i) as f64).sum::<f64>() / n;
    let copies: f64 = order_items
        .iter()
        .map(|i| ((1 + indexes_holding(&model, i)) * (item_size(i) + 100)) as f64)
        .sum::<f64>()
        / n;
    let sample = order_items[0].clone();
    let put = client
        .put_item()
        .table_name(&table)
        .set_item(Some(sample))
        .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
        .send()
        .await
        .expect("put");
    let wcu = put
        .consumed_capacity()
        .and_then(|c| c.capacity_units())
        .unwrap_or(f64::NAN);
    let (mut ap5, mut ap8) = (Vec::new(), Vec::new());
    let mut rng = fastrand::Rng::with_seed(11);
    for _ in 0..calls.min(100) {
        let _ = monotable_shop::orders::by_status(&shop, STATUSES[0], None, None, PAGE, None).await;
    }
    for _ in 0..calls {
        let status = STATUSES[rng.usize(..STATUSES.len())];
        let t = Instant::now();
        let page = monotable_shop::orders::by_status(&shop, status, None, None, PAGE, None)
            .await
            .expect("AP5");
        ap5.push(t.elapsed());
        std::hint::black_box(page);
        let category = CATEGORIES[rng.usize(..CATEGORIES.len())];
        let t = Instant::now();
        let page = monotable_shop::products::by_category(&shop, category, false, PAGE, None)
            .await
            .expect("AP8");
        ap8.push(t.elapsed());
        std::hint::black_box(page);
    }
    let ((p5, q5), (p8, q8)) = (percentiles(ap5), percentiles(ap8));
    println!(
        "\n### {} ({orders} orders, {calls} calls per pattern)\n",
        model.table.name
    );
    println!(
        "| design | bytes per order item | bytes per order, table + index copies | WCU per order item (engine) | AP5 p50 / p99 µs | AP8 p50 / p99 µs |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    println!(
        "| {} | {stored:.0} | {copies:.0} | {wcu} | {p5:.0} / {q5:.0} | {p8:.0} / {q8:.0} |",
        if model.indexes.iter().any(|i| i.native) {
            "native"
        } else {
            "synthetic"
        }
    );
}

fn main() {
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(run(env("BENCH_ORDERS", 20_000), env("BENCH_CALLS", 2_000)));
}
