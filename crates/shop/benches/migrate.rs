//! The rewrite rate of `monotable migrate` on the embedded engine, against the engine's own
//! floor for the same items.
//!
//! The shop's sample data (`MIGRATE_ORDERS` orders, default 100,000; users = orders / 20, 500
//! products) is migrated from `shop.toml` to `changes/orders-by-product.toml`: GSI4 created,
//! every order line backfilled with its key. Timed: `apply::run` end to end (DescribeTable, the
//! index, the scan of every item in one segment, each order line's conditional update through
//! the SDK, 25 to a TransactWriteItems as the CLI does on the embedded engine, the checkpoint
//! after each page). `MIGRATE_SEGMENTS` and `MIGRATE_BATCH` change those; `MIGRATE_DRY=1` times
//! a dry run (the scan and the rewrites, nothing written). The floor: the same rewritten items written
//! again by direct engine BatchWriteItem calls (no SDK, no condition, no scan), their request
//! bodies built before the timer, into the same table, so both sides update existing items in
//! the same indexes.
//!
//! `cargo bench -p monotable-shop --bench migrate` (MIGRATE_ORDERS=1000000 for 1M orders).

mod common;

use std::time::Instant;

use monotable_access::items::Item;
use monotable_connect::dispatch::{self, Origin};
use monotable_migrate::apply::{self, ApplyOptions, ApplyProgress};
use monotable_migrate::diff;
use monotable_migrate::rewrite::{RewriteOutcome, Rewriter};
use serde_json::{Value, json};

const NEW: &str = include_str!("../../../examples/shop/changes/orders-by-product.toml");

async fn scan_all(client: &aws_sdk_dynamodb::Client, table: &str) -> Vec<Item> {
    let mut all = Vec::new();
    let mut start = None;
    loop {
        let page = client
            .scan()
            .table_name(table)
            .set_exclusive_start_key(start)
            // Pages of 1,000: the engine's unlimited page reads past the 1 MB it returns.
            .limit(1000)
            .send()
            .await
            .expect("scan");
        all.extend(page.items.unwrap_or_default());
        start = page.last_evaluated_key.filter(|k| !k.is_empty());
        if start.is_none() {
            return all;
        }
    }
}

fn batch_bodies(table: &str, items: &[Item]) -> Vec<Vec<u8>> {
    items
        .chunks(25)
        .map(|chunk| {
            let puts: Vec<Value> = chunk
                .iter()
                .map(|i| json!({"PutRequest": {"Item": monotable_access::items::to_json(i)}}))
                .collect();
            serde_json::to_vec(&json!({"RequestItems": {table: puts}})).expect("body")
        })
        .collect()
}

fn main() {
    let orders: usize = std::env::var("MIGRATE_ORDERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let load = Instant::now();
        let (engine, client, _shop) = common::loaded_shop(orders).await;
        let old = monotable_shop::model().expect("model");
        let new = monotable_model::parse(NEW).expect("new model");
        println!("loaded {orders} orders in {:.1} s", load.elapsed().as_secs_f64());

        let d = diff::diff(&old, &new);
        let segments: i32 = std::env::var("MIGRATE_SEGMENTS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        let dry = std::env::var("MIGRATE_DRY").is_ok();
        let batch: usize = std::env::var("MIGRATE_BATCH")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(25);
        let options = ApplyOptions {
            apply: !dry,
            segments,
            batch,
            ..ApplyOptions::default()
        };
        let t = Instant::now();
        let summary = apply::run(&client, &old, &new, &d, &options, &ApplyProgress::default())
            .await
            .expect("migrate");
        let secs = t.elapsed().as_secs_f64();
        assert!(dry || summary.complete());
        let c = &summary.counts;
        let rate = c.rewritten as f64 / secs;
        println!(
            "migrate --apply: {} items scanned, {} rewritten in {secs:.1} s = {rate:.0} items/s rewritten ({:.0} items/s scanned)",
            c.scanned,
            c.rewritten,
            c.scanned as f64 / secs
        );

        if dry {
            println!("dry run: {:.1} s for the scan and the rewrite, nothing written", secs);
            return;
        }
        // The floor: the same rewritten items, as direct engine BatchWriteItem calls.
        let rewriter = Rewriter::new(&old, &new, &d, false);
        let rewritten: Vec<Item> = scan_all(&client, &new.table.name)
            .await
            .into_iter()
            .filter(|i| monotable_access::items::entity_type(i) == Some("OrderItem"))
            .collect();
        assert!(rewritten.iter().all(|i| rewriter.rewrite(i) == RewriteOutcome::Unchanged));
        // Bodies are built 100,000 items at a time, each chunk before its timer, so the floor at
        // 1M orders fits in memory beside the engine.
        let mut floor_secs = 0.0;
        for part in rewritten.chunks(100_000) {
            let bodies = batch_bodies(&new.table.name, part);
            let t = Instant::now();
            for body in &bodies {
                let answer = dispatch::run(
                    &engine,
                    Origin::Http,
                    Some("DynamoDB_20120810.BatchWriteItem"),
                    body,
                );
                assert_eq!(answer.status, 200);
            }
            floor_secs += t.elapsed().as_secs_f64();
        }
        let floor = rewritten.len() as f64 / floor_secs;
        println!(
            "floor: direct engine BatchWriteItem of the same {} items in {floor_secs:.1} s = {floor:.0} items/s",
            rewritten.len()
        );
        println!("migrate's rewrite rate is {:.0} % of the floor (target: at least 50 %)", rate / floor * 100.0);
    });
}
