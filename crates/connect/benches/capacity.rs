//! What capacity emulation costs per call: the same SDK calls through the in-process client on
//! one engine without the emulator and on a clone of it with the emulator on, interleaved in
//! blocks so machine noise falls on both alike. Run:
//! `cargo bench -p monotable-connect --bench capacity` (results: docs/benchmarks.md).
//!
//! Both sides send the same requests (built before the timer, keys drawn across the whole data
//! set in the same sequence) to the same data. The table has a global secondary index, so a
//! write with the emulator on also reads where the item sat in the index before. The limits are
//! raised a hundredfold (`scale 0.01`) so that nothing is throttled: the emulator does the same
//! work at any scale, and a throttled call would measure the SDK's backoff instead. The bench
//! prints the throttle count to show it stayed 0. `CAPACITY_OPS=get,put` picks the calls and
//! `BENCH_CALLS=N` their number. `CAPACITY_SIDE=off`, `on` or `none` runs one side only (or
//! none: the load alone), untimed, for counting instructions under
//! `valgrind --tool=callgrind`: (on − none) / (off − none) is the emulator's share, free of
//! timing noise.

#[path = "common/data.rs"]
#[allow(dead_code)] // this bench has its own table; it shares the items and helpers
mod data;

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use monotable_connect::Engine;
use monotable_connect::capacity::Settings;
use serde_json::{Value, json};

const TABLE: &str = "Capacity";
const USERS: usize = 10_000;
const OWNERS: usize = 250;
const ORDERS_PER_OWNER: usize = 40;
const BLOCK: usize = 200;

fn rounds() -> usize {
    std::env::var("BENCH_CALLS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(10_000)
}

fn load(engine: &Engine) {
    data::run(
        engine,
        "CreateTable",
        &json!({
            "TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                          {"AttributeName": "SK", "KeyType": "RANGE"}],
            "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"},
                                     {"AttributeName": "SK", "AttributeType": "S"},
                                     {"AttributeName": "GSI1PK", "AttributeType": "S"}],
            "GlobalSecondaryIndexes": [{
                "IndexName": "GSI1",
                "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"},
                              {"AttributeName": "SK", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": "ALL"}
            }]
        }),
    );
    let users = (0..USERS).map(|i| {
        let mut user = data::user(i);
        user["GSI1PK"] = json!({"S": format!("EMAIL#alice{i}@example.com")});
        user
    });
    let orders = (0..OWNERS).flat_map(|o| {
        (0..ORDERS_PER_OWNER).map(move |n| {
            json!({
                "PK": {"S": data::owner_pk(o)}, "SK": {"S": format!("ORDER#{n:04}")},
                "status": {"S": "SHIPPED"}, "total": {"N": "99.95"}
            })
        })
    });
    let items: Vec<Value> = users.chain(orders).collect();
    for chunk in items.chunks(25) {
        let puts: Vec<Value> = chunk
            .iter()
            .map(|item| json!({"PutRequest": {"Item": item}}))
            .collect();
        data::run(
            engine,
            "BatchWriteItem",
            &json!({"RequestItems": {TABLE: puts}}),
        );
    }
}

/// One call, built before the timer.
enum Call {
    Get(aws_sdk_dynamodb::operation::get_item::builders::GetItemFluentBuilder),
    Query(aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder),
    Put(aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder),
}

fn calls(client: &Client, op: &str, seed: u64, n: usize) -> Vec<Call> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n)
        .map(|_| match op {
            "get" => Call::Get(
                client
                    .get_item()
                    .table_name(TABLE)
                    .key("PK", AttributeValue::S(data::user_pk(rng.usize(0..USERS))))
                    .key("SK", AttributeValue::S("PROFILE".into())),
            ),
            "query" => Call::Query(
                client
                    .query()
                    .table_name(TABLE)
                    .key_condition_expression("PK = :pk AND begins_with(SK, :sk)")
                    .expression_attribute_values(
                        ":pk",
                        AttributeValue::S(data::owner_pk(rng.usize(0..OWNERS))),
                    )
                    .expression_attribute_values(":sk", AttributeValue::S("ORDER#".into()))
                    .limit(20),
            ),
            _ => {
                let i = rng.usize(0..USERS);
                let mut item = data::user_item(i);
                item.insert(
                    "GSI1PK".into(),
                    AttributeValue::S(format!("EMAIL#alice{i}@example.com")),
                );
                Call::Put(client.put_item().table_name(TABLE).set_item(Some(item)))
            }
        })
        .collect()
}

async fn send(call: Call) {
    match call {
        Call::Get(c) => assert!(c.send().await.expect("get").item.is_some()),
        Call::Query(c) => assert_eq!(c.send().await.expect("query").count, 20),
        Call::Put(c) => drop(c.send().await.expect("put")),
    }
}

/// Time `calls` in blocks, alternating with the other side; returns per-call times per block.
async fn block(calls: &mut std::vec::IntoIter<Call>) -> Duration {
    let batch: Vec<Call> = calls.by_ref().take(BLOCK).collect();
    let started = Instant::now();
    for call in batch {
        send(call).await;
    }
    started.elapsed()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let engine = Engine::memory().expect("engine");
    load(&engine);
    let metered = engine
        .clone()
        .with_capacity(Settings::default().scale(0.01));
    let off = monotable_connect::inprocess::client(engine);
    let on = monotable_connect::inprocess::client(metered.clone());
    let n = rounds();
    println!(
        "capacity emulation overhead, {n} calls per side, blocks of {BLOCK}, µs per call (median block)"
    );
    let ops = std::env::var("CAPACITY_OPS").unwrap_or_else(|_| "get,query,put".into());
    if let Ok(side) = std::env::var("CAPACITY_SIDE") {
        let client = match side.as_str() {
            "on" => Some(&on),
            "off" => Some(&off),
            _ => None,
        };
        runtime.block_on(async {
            for op in ops.split(',') {
                for call in client.map(|c| calls(c, op, 11, n)).unwrap_or_default() {
                    send(call).await;
                }
            }
        });
        println!("side {side}: {ops}, {n} calls each");
        return;
    }
    runtime.block_on(async {
        for op in ops.split(',') {
            let mut a = calls(&off, op, 11, n).into_iter();
            let mut b = calls(&on, op, 11, n).into_iter();
            let (mut t_off, mut t_on) = (Vec::new(), Vec::new());
            for i in 0..n / BLOCK {
                // Alternate which side goes first.
                let (x, y) = if i % 2 == 0 {
                    (block(&mut a).await, block(&mut b).await)
                } else {
                    let y = block(&mut b).await;
                    (block(&mut a).await, y)
                };
                t_off.push(x.as_secs_f64() * 1e6 / BLOCK as f64);
                t_on.push(y.as_secs_f64() * 1e6 / BLOCK as f64);
            }
            let (off_us, on_us) = (median(t_off), median(t_on));
            println!(
                "{op:<6} off {off_us:7.1}  on {on_us:7.1}  overhead {:+.1} %",
                (on_us / off_us - 1.0) * 100.0
            );
        }
    });
    let snapshot = metered.capacity().expect("on").snapshot();
    let throttled: u64 = snapshot
        .resources
        .iter()
        .map(|r| r.throttled_reads + r.throttled_writes)
        .sum();
    println!("throttled requests with the emulator on: {throttled}");
}
