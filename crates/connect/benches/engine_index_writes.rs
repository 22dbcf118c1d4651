//! The engine's index reads, paginated reads and conditional writes, called directly: what a
//! call costs that reads a table's index definitions, checks a starting key against its key
//! schema, or parses a condition. Run: `cargo bench -p monotable-connect --bench
//! engine_index_writes --features bench` (results: docs/benchmarks.md, "The engine's read
//! path"). `engine_reads` is its sibling for GetItem and Query pages.
//!
//! One table with two global secondary indexes holds `ENGINE_WRITES_PARTITIONS` partitions
//! (default 1,000) of 100 order items each, 14 attributes. Every call draws its key at random
//! across the whole data set, and its request is decoded before the timer
//! (`monotable_connect::direct`), in memory, `BENCH_CALLS` calls each (default 5,000) in blocks
//! of 200:
//!
//! - **Query on a GSI**: one customer's first order, through the index (`Limit` 1).
//! - **Query, second page**: a partition's page of one item that starts after a random item,
//!   the `ExclusiveStartKey` as the previous page returned it.
//! - **Query on a GSI, second page**: the same through the index.
//! - **PutItem with a condition**: an item written again as it was, under
//!   `attribute_exists(PK) AND #status = :status`, so both indexes are maintained.
//! - **UpdateItem with a condition**: one attribute set on an item under the same condition.
//!
//! `ENGINE_WRITES=gsi,page,gsipage,put,update` (comma separated) picks the calls to time.

use std::time::{Duration, Instant};

use monotable_connect::direct::Decoded;
use monotable_connect::{DataLocation, Engine};
use serde_json::{Value, json};

#[path = "common/data.rs"]
#[allow(dead_code)] // this bench has its own table; it shares `run`
mod data;
#[path = "common/orders.rs"]
mod orders;

use data::run;
use orders::{
    BLOCK, ITEMS_PER_PARTITION, TABLE, env_or, load_partitions, p50, partition_key, sort_key,
};

/// What one call does.
#[derive(Clone, Copy)]
enum Call {
    GsiQuery,
    Page,
    GsiPage,
    Put,
    Update,
}

impl Call {
    fn name(self) -> &'static str {
        match self {
            Call::GsiQuery => "Query on a GSI, Limit 1",
            Call::Page => "Query, Limit 1, from an ExclusiveStartKey",
            Call::GsiPage => "Query on a GSI, Limit 1, from an ExclusiveStartKey",
            Call::Put => "PutItem with a condition, 2 GSIs",
            Call::Update => "UpdateItem with a condition, 2 GSIs",
        }
    }

    fn items(self) -> usize {
        match self {
            Call::Put | Call::Update => 0,
            _ => 1,
        }
    }

    fn target(self) -> &'static str {
        match self {
            Call::Put => "PutItem",
            Call::Update => "UpdateItem",
            _ => "Query",
        }
    }
}

/// The `n`th sort key of a partition in the order a Query returns them, for a page that starts
/// after it (the sort keys do not sort in item order).
fn nth_in_order(n: usize) -> String {
    let mut keys: Vec<String> = (0..ITEMS_PER_PARTITION).map(sort_key).collect();
    keys.sort();
    keys.swap_remove(n)
}

/// The GSI1 partition of partition `p`: one customer's orders.
fn customer(p: usize) -> String {
    format!("CUSTOMER#{p:06}")
}

/// One order, with a key for each index.
fn order(p: usize, n: usize) -> Value {
    json!({
        "PK": {"S": partition_key(p)},
        "SK": {"S": sort_key(n)},
        "entity": {"S": "ORDER"},
        "orderId": {"S": format!("01JD{p:06}{n:04}QX7V3M9K2")},
        "status": {"S": "SHIPPED"},
        "createdAt": {"S": "2026-11-30T12:00:00.000Z"},
        "updatedAt": {"S": "2026-12-01T08:30:00.000Z"},
        "total": {"N": format!("{}.{:02}", 10 + (p * 7 + n) % 490, n % 100)},
        "currency": {"S": "EUR"},
        "lines": {"N": format!("{}", 1 + n % 5)},
        "shipTo": {"S": "Ada Lovelace, 12 Analytical Engine Street, Flat 3, London NW1 2AB"},
        "GSI1PK": {"S": customer(p)},
        "GSI2PK": {"S": format!("STATUS#SHIPPED#SHARD#{}", n % 8)},
        "GSI2SK": {"S": format!("{}#{}", sort_key(n), partition_key(p))},
    })
}

fn index(name: &str, hash: &str, range: &str) -> Value {
    json!({"IndexName": name,
           "KeySchema": [{"AttributeName": hash, "KeyType": "HASH"},
                         {"AttributeName": range, "KeyType": "RANGE"}],
           "Projection": {"ProjectionType": "ALL"}})
}

/// Create the table with its two indexes and load every partition.
fn load(engine: &Engine, partitions: usize) {
    let string = |name: &str| json!({"AttributeName": name, "AttributeType": "S"});
    run(
        engine,
        "CreateTable",
        &json!({
            "TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                          {"AttributeName": "SK", "KeyType": "RANGE"}],
            "AttributeDefinitions": [string("PK"), string("SK"), string("GSI1PK"),
                                     string("GSI2PK"), string("GSI2SK")],
            "GlobalSecondaryIndexes": [index("GSI1", "GSI1PK", "SK"),
                                       index("GSI2", "GSI2PK", "GSI2SK")]
        }),
    );
    load_partitions(engine, partitions, order);
}

/// The engine's request for `call` on item `n` of partition `p` (`n` below 99: a page starts
/// after the `n`th item in key order, so it has one).
fn request(call: Call, p: usize, n: usize) -> Decoded {
    let (pk, sk) = (partition_key(p), sort_key(n));
    let after = nth_in_order(n);
    let condition = "attribute_exists(PK) AND #status = :status";
    let body = match call {
        Call::GsiQuery => json!({"TableName": TABLE, "IndexName": "GSI1", "Limit": 1,
            "KeyConditionExpression": "GSI1PK = :c",
            "ExpressionAttributeValues": {":c": {"S": customer(p)}}}),
        Call::Page => json!({"TableName": TABLE, "Limit": 1,
            "KeyConditionExpression": "PK = :pk",
            "ExpressionAttributeValues": {":pk": {"S": pk}},
            "ExclusiveStartKey": {"PK": {"S": pk}, "SK": {"S": after}}}),
        Call::GsiPage => json!({"TableName": TABLE, "IndexName": "GSI1", "Limit": 1,
            "KeyConditionExpression": "GSI1PK = :c",
            "ExpressionAttributeValues": {":c": {"S": customer(p)}},
            "ExclusiveStartKey": {"GSI1PK": {"S": customer(p)}, "PK": {"S": pk},
                                  "SK": {"S": after}}}),
        Call::Put => json!({"TableName": TABLE, "Item": order(p, n),
            "ConditionExpression": condition,
            "ExpressionAttributeNames": {"#status": "status"},
            "ExpressionAttributeValues": {":status": {"S": "SHIPPED"}}}),
        Call::Update => json!({"TableName": TABLE,
            "Key": {"PK": {"S": pk}, "SK": {"S": sk}},
            "UpdateExpression": "SET updatedAt = :now",
            "ConditionExpression": condition,
            "ExpressionAttributeNames": {"#status": "status"},
            "ExpressionAttributeValues": {":status": {"S": "SHIPPED"},
                                          ":now": {"S": "2026-12-02T09:00:00.000Z"}}}),
    };
    Decoded::decode(call.target(), &serde_json::to_vec(&body).expect("body")).expect("decode")
}

/// `calls` samples of `call`, in blocks whose requests are built before the timer.
fn measure(
    engine: &Engine,
    call: Call,
    partitions: usize,
    calls: usize,
    rng: &mut fastrand::Rng,
) -> Vec<Duration> {
    let mut samples = Vec::with_capacity(calls);
    while samples.len() < calls {
        let requests: Vec<Decoded> = (0..BLOCK.min(calls - samples.len()))
            .map(|_| {
                let (p, n) = (
                    rng.usize(..partitions),
                    rng.usize(..ITEMS_PER_PARTITION - 1),
                );
                request(call, p, n)
            })
            .collect();
        for request in requests {
            let t = Instant::now();
            let returned = request.run(engine).expect("engine call");
            samples.push(t.elapsed());
            assert_eq!(returned, call.items());
        }
    }
    samples
}

/// The calls to time: `ENGINE_WRITES` (say `gsi,put`), else all five.
fn calls() -> Vec<Call> {
    let all = vec![
        Call::GsiQuery,
        Call::Page,
        Call::GsiPage,
        Call::Put,
        Call::Update,
    ];
    let Ok(wanted) = std::env::var("ENGINE_WRITES") else {
        return all;
    };
    wanted
        .split(',')
        .map(|call| match call.trim() {
            "gsi" => Call::GsiQuery,
            "page" => Call::Page,
            "gsipage" => Call::GsiPage,
            "put" => Call::Put,
            "update" => Call::Update,
            other => panic!("ENGINE_WRITES: {other} is none of gsi, page, gsipage, put, update"),
        })
        .collect()
}

fn main() {
    let partitions = env_or("ENGINE_WRITES_PARTITIONS", 1_000);
    let calls_each = env_or("BENCH_CALLS", 5_000);
    println!(
        "{partitions} partitions of {ITEMS_PER_PARTITION} items, 2 GSIs, in memory, \
         {calls_each} calls each, keys at random, blocks of {BLOCK}; p50 in µs\n"
    );
    println!("| call | p50 |");
    println!("|---|---:|");
    let engine = Engine::open(&DataLocation::Memory).expect("engine");
    load(&engine, partitions);
    let mut rng = fastrand::Rng::with_seed(31);
    for call in calls() {
        // Warm the statement caches and the table's metadata before the timed calls.
        measure(&engine, call, partitions, BLOCK, &mut rng);
        let samples = measure(&engine, call, partitions, calls_each, &mut rng);
        println!("| {} | {:.1} |", call.name(), p50(samples));
    }
}
