//! The engine's read path, called directly: GetItem and Query pages of 1, 20 and 100 items, in
//! memory and on a data directory, beside the raw SQLite floor for the same rows. Run:
//! `cargo bench -p monotable-connect --bench engine_reads --features bench` (results:
//! docs/benchmarks.md, "The engine's read path").
//!
//! One table holds `ENGINE_READS_PARTITIONS` partitions (default 2,000) of 100 order items each,
//! 12 attributes and 437 bytes an item (DynamoDB's size). Every call draws its key at random
//! across the whole data set: any item for GetItem, any partition for a Query (`Limit` 1, 20 or
//! 100, the page starting at the partition's first item). Two ways, alternating in blocks of 200
//! so that machine noise falls on both alike, `BENCH_CALLS` calls each (default 5,000):
//!
//! - **engine**: dynoxide's typed call (`monotable_connect::direct`), the request decoded before
//!   the timer: what the engine itself costs, no JSON on either side, no SDK.
//! - **SQLite floor**: the same rows read by one cached statement on a connection of its own
//!   (SQLite's default page cache, no memory map; the query planner stability guarantee on, so
//!   a bound `LIMIT` does not prepare its statement again), each row's key and item text copied
//!   out as the engine's storage layer copies them: what the storage under the engine costs.
//!
//! In memory the floor's connection holds its own copy of the rows (an in-memory database is
//! private to its connection); on a data directory it opens the engine's file, read-only.
//!
//! For a profile of one read: `ENGINE_READS=get` (or a Limit: `1`, `20`, `100`, comma
//! separated) and `ENGINE_READS_STORAGE=memory` (or `dir`).

use std::time::{Duration, Instant};

use monotable_connect::direct::Decoded;
use monotable_connect::{DataLocation, Engine};
use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags};
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

/// What one call reads.
#[derive(Clone, Copy)]
enum Read {
    Get,
    Query(usize),
}

impl Read {
    fn name(self) -> String {
        match self {
            Read::Get => "GetItem".into(),
            Read::Query(n) => format!("Query, Limit {n}"),
        }
    }

    fn items(self) -> usize {
        match self {
            Read::Get => 1,
            Read::Query(n) => n,
        }
    }
}

/// One order: 12 attributes, 437 bytes by DynamoDB's count (names and values).
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
        "shipTo": {"S": "Ada Lovelace, 12 Analytical Engine Street, Flat 3, London NW1 2AB, United Kingdom; leave the parcel with the concierge at the front desk if nobody answers the door, or else in the locked bike shed by the gates"},
        "GSI1PK": {"S": format!("STATUS#SHIPPED#SHARD#{}", n % 8)},
    })
}

/// Create the table and load every partition.
fn load(engine: &Engine, partitions: usize) {
    run(
        engine,
        "CreateTable",
        &json!({
            "TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                          {"AttributeName": "SK", "KeyType": "RANGE"}],
            "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"},
                                     {"AttributeName": "SK", "AttributeType": "S"}]
        }),
    );
    load_partitions(engine, partitions, order);
}

/// The floor's connection: the engine's file read-only, or (in memory) a private copy of the
/// rows in the engine's own table layout.
fn floor_connection(location: &DataLocation, partitions: usize) -> Connection {
    let conn = match location.database_file() {
        Some(file) => Connection::open_with_flags(file, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("open the engine's file"),
        None => Connection::open_in_memory().expect("memory"),
    };
    // A bound LIMIT would otherwise prepare the statement again for each new value.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)
        .expect("query planner stability");
    if location.database_file().is_some() {
        return conn;
    }
    conn.execute_batch(&format!(
        "CREATE TABLE \"{TABLE}\" (pk TEXT NOT NULL, sk TEXT NOT NULL DEFAULT '', \
         item_json TEXT NOT NULL, item_size INTEGER NOT NULL, cached_at REAL, \
         hash_prefix TEXT NOT NULL DEFAULT '', PRIMARY KEY (pk, sk))"
    ))
    .expect("table");
    conn.execute_batch("BEGIN").expect("begin");
    {
        let mut insert = conn
            .prepare(&format!(
                "INSERT INTO \"{TABLE}\" (pk, sk, item_json, item_size) VALUES (?1, ?2, ?3, 437)"
            ))
            .expect("insert");
        for p in 0..partitions {
            for n in 0..ITEMS_PER_PARTITION {
                let item = serde_json::to_string(&order(p, n)).expect("json");
                insert
                    .execute((
                        format!("S:{}", partition_key(p)),
                        format!("S:{}", sort_key(n)),
                        item,
                    ))
                    .expect("row");
            }
        }
    }
    conn.execute_batch("COMMIT").expect("commit");
    conn
}

/// The engine's request for `read` of partition `p` (and item `n` for GetItem).
fn request(read: Read, p: usize, n: usize) -> Decoded {
    let body = match read {
        Read::Get => json!({"TableName": TABLE, "Key": {
            "PK": {"S": partition_key(p)}, "SK": {"S": sort_key(n)}}}),
        Read::Query(limit) => json!({"TableName": TABLE, "Limit": limit,
            "KeyConditionExpression": "PK = :pk",
            "ExpressionAttributeValues": {":pk": {"S": partition_key(p)}}}),
    };
    let target = match read {
        Read::Get => "GetItem",
        Read::Query(_) => "Query",
    };
    Decoded::decode(target, &serde_json::to_vec(&body).expect("body")).expect("decode")
}

/// The floor's read: the rows' keys and item text, copied out; returns the rows read.
fn floor_read(conn: &Connection, read: Read, pk: &str, sk: &str) -> usize {
    let rows = match read {
        Read::Get => {
            let sql = format!("SELECT item_json FROM \"{TABLE}\" WHERE pk = ?1 AND sk = ?2");
            let mut stmt = conn.prepare_cached(&sql).expect("prepare");
            let mut rows = stmt.query((pk, sk)).expect("query");
            let mut got: Vec<String> = Vec::new();
            while let Some(row) = rows.next().expect("row") {
                got.push(row.get(0).expect("item"));
            }
            got.len()
        }
        Read::Query(limit) => {
            let sql = format!(
                "SELECT pk, sk, item_json FROM \"{TABLE}\" WHERE pk = ?1 ORDER BY sk ASC LIMIT ?2"
            );
            let mut stmt = conn.prepare_cached(&sql).expect("prepare");
            let limit = i64::try_from(limit).expect("limit");
            let got = stmt
                .query_map((pk, limit), |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, String>(2)?,
                    ))
                })
                .expect("query")
                .collect::<Result<Vec<_>, _>>()
                .expect("rows");
            got.len()
        }
    };
    std::hint::black_box(rows)
}

/// `calls` samples of each side, interleaved in blocks; keys drawn by `rng`.
fn measure(
    engine: &Engine,
    floor: &Connection,
    read: Read,
    partitions: usize,
    calls: usize,
    rng: &mut fastrand::Rng,
) -> (Vec<Duration>, Vec<Duration>) {
    let (mut ours, mut theirs) = (Vec::with_capacity(calls), Vec::with_capacity(calls));
    while ours.len() < calls {
        let keys: Vec<(usize, usize)> = (0..BLOCK.min(calls - ours.len()))
            .map(|_| (rng.usize(..partitions), rng.usize(..ITEMS_PER_PARTITION)))
            .collect();
        let requests: Vec<Decoded> = keys.iter().map(|&(p, n)| request(read, p, n)).collect();
        for request in requests {
            let t = Instant::now();
            let returned = request.run(engine).expect("engine read");
            ours.push(t.elapsed());
            assert_eq!(returned, read.items());
        }
        let floor_keys: Vec<(String, String)> = keys
            .iter()
            .map(|&(p, n)| {
                (
                    format!("S:{}", partition_key(p)),
                    format!("S:{}", sort_key(n)),
                )
            })
            .collect();
        for (pk, sk) in &floor_keys {
            let t = Instant::now();
            let returned = floor_read(floor, read, pk, sk);
            theirs.push(t.elapsed());
            assert_eq!(returned, read.items());
        }
    }
    (ours, theirs)
}

/// The reads to time: `ENGINE_READS` (say `get,1,20`, for a profile of one), else all four.
fn reads() -> Vec<Read> {
    let all = vec![Read::Get, Read::Query(1), Read::Query(20), Read::Query(100)];
    let Ok(wanted) = std::env::var("ENGINE_READS") else {
        return all;
    };
    wanted
        .split(',')
        .map(|read| match read.trim() {
            "get" => Read::Get,
            n => Read::Query(n.parse().expect("ENGINE_READS: get or a Limit")),
        })
        .collect()
}

fn bench(location: &DataLocation, label: &str, partitions: usize, calls: usize) {
    let engine = Engine::open(location).expect("engine");
    load(&engine, partitions);
    let floor = floor_connection(location, partitions);
    let mut rng = fastrand::Rng::with_seed(31);
    let mut medians = Vec::new();
    for read in reads() {
        // Warm both sides (statement caches, the page cache) before the timed calls.
        measure(&engine, &floor, read, partitions, BLOCK, &mut rng);
        let (ours, theirs) = measure(&engine, &floor, read, partitions, calls, &mut rng);
        let (ours, theirs) = (p50(ours), p50(theirs));
        println!(
            "| {label} | {} | {} | {ours:.1} | {theirs:.1} | {:.1}× |",
            read.name(),
            read.items(),
            ours / theirs
        );
        medians.push((read, ours, theirs));
    }
    if medians.len() < 4 {
        return;
    }
    let (_, one, floor_one) = medians[1];
    let (_, hundred, floor_hundred) = medians[3];
    let per_item = |a: f64, b: f64| (b - a) / 99.0;
    println!(
        "| {label} | per item returned (Query 100 − Query 1) / 99 | | {:.2} | {:.2} | {:.1}× |",
        per_item(one, hundred),
        per_item(floor_one, floor_hundred),
        per_item(one, hundred) / per_item(floor_one, floor_hundred)
    );
}

fn main() {
    let partitions = env_or("ENGINE_READS_PARTITIONS", 2_000);
    let calls = env_or("BENCH_CALLS", 5_000);
    println!(
        "{partitions} partitions of {ITEMS_PER_PARTITION} items (437 bytes, 12 attributes), \
         {calls} calls per side and read, keys at random, blocks of {BLOCK} interleaved; p50 in µs\n"
    );
    println!("| storage | read | items | engine | SQLite floor | engine / floor |");
    println!("|---|---|---:|---:|---:|---:|");
    // `ENGINE_READS_STORAGE=memory` or `dir` runs one of the two.
    let storage = std::env::var("ENGINE_READS_STORAGE").unwrap_or_default();
    if storage != "dir" {
        bench(&DataLocation::Memory, "memory", partitions, calls);
    }
    if storage != "memory" {
        let dir = tempfile::tempdir().expect("temp dir");
        bench(
            &DataLocation::Dir(dir.path().join("data")),
            "data dir",
            partitions,
            calls,
        );
    }
}
