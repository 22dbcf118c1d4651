//! A table's stream written for days on a clock the bench moves: how many records the engine
//! holds at the end of each day, and what writing and reading the stream cost
//! (docs/benchmarks.md, "The stream's retention"; vendor/patches/0002).
//!
//! ```sh
//! cargo bench -p monotable-connect --bench stream_retention   # BENCH_DAYS=4 BENCH_WRITES_PER_HOUR=2000
//! ```
//!
//! Each simulated day: `BENCH_WRITES_PER_HOUR` PutItems of a 200-byte item per hour through the
//! in-process SDK client, the engine's clock moved on between them. Then, through the official
//! Streams client: the records the stream holds and their bytes (read from TRIM_HORIZON to the
//! end, and how long that took), the p50 of a caught-up consumer's poll (GetShardIterator
//! LATEST, GetRecords) and of the first page of 1,000 at TRIM_HORIZON; and the PutItem p50 over
//! the day.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, KeySchemaElement, KeyType,
    ScalarAttributeType, StreamSpecification, StreamViewType,
};
use aws_sdk_dynamodbstreams::types::ShardIteratorType;
use monotable_connect::{Engine, ManualClock, inprocess};

const TABLE: &str = "Events";
const PAGE: i32 = 1000;

fn setting(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let days = setting("BENCH_DAYS", 4);
    let per_hour = setting("BENCH_WRITES_PER_HOUR", 2000).max(1);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(run(days, per_hour));
}

/// The stream's ARN and its one shard.
struct Stream {
    client: aws_sdk_dynamodbstreams::Client,
    arn: String,
    shard: String,
}

async fn run(days: u32, per_hour: u32) {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970");
    let clock = ManualClock::new(now.as_secs());
    let engine = Engine::memory_with_clock(&clock).expect("engine");
    let client = inprocess::client(engine.clone());
    create_table(&client).await;
    let stream = stream(inprocess::streams_client(engine)).await;
    let step = Duration::from_secs(3600) / per_hour;
    println!(
        "| day | written | records held | bytes held | read all (ms) | poll p50 (µs) | first page p50 (µs) | PutItem p50 (µs) |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut written = 0u64;
    for day in 1..=days {
        let mut puts = Vec::new();
        for _ in 0..24 * per_hour {
            let start = Instant::now();
            put(&client, written).await;
            puts.push(start.elapsed());
            written += 1;
            clock.tick(step);
        }
        let start = Instant::now();
        let (held, bytes) = read_all(&stream).await;
        let read_all_ms = start.elapsed().as_millis();
        let mut polls = Vec::new();
        for _ in 0..200 {
            let start = Instant::now();
            let page = page(&stream, ShardIteratorType::Latest).await;
            polls.push(start.elapsed());
            assert_eq!(page, (0, 0), "a caught-up poll reads nothing");
        }
        let mut firsts = Vec::new();
        for _ in 0..20 {
            let start = Instant::now();
            page(&stream, ShardIteratorType::TrimHorizon).await;
            firsts.push(start.elapsed());
        }
        println!(
            "| {day} | {written} | {held} | {bytes} | {read_all_ms} | {} | {} | {} |",
            p50_us(polls),
            p50_us(firsts),
            p50_us(puts)
        );
    }
}

async fn create_table(client: &aws_sdk_dynamodb::Client) {
    client
        .create_table()
        .table_name(TABLE)
        .key_schema(
            KeySchemaElement::builder()
                .attribute_name("PK")
                .key_type(KeyType::Hash)
                .build()
                .expect("key"),
        )
        .attribute_definitions(
            AttributeDefinition::builder()
                .attribute_name("PK")
                .attribute_type(ScalarAttributeType::S)
                .build()
                .expect("attribute"),
        )
        .billing_mode(BillingMode::PayPerRequest)
        .stream_specification(
            StreamSpecification::builder()
                .stream_enabled(true)
                .stream_view_type(StreamViewType::NewAndOldImages)
                .build()
                .expect("stream"),
        )
        .send()
        .await
        .expect("CreateTable");
}

async fn stream(client: aws_sdk_dynamodbstreams::Client) -> Stream {
    let listed = client
        .list_streams()
        .table_name(TABLE)
        .send()
        .await
        .expect("ListStreams");
    let arn = listed.streams()[0].stream_arn().expect("arn").to_string();
    let described = client
        .describe_stream()
        .stream_arn(&arn)
        .send()
        .await
        .expect("DescribeStream");
    let description = described.stream_description().expect("description");
    let shard = description.shards()[0]
        .shard_id()
        .expect("shard")
        .to_string();
    Stream { client, arn, shard }
}

/// One 200-byte event.
async fn put(client: &aws_sdk_dynamodb::Client, n: u64) {
    client
        .put_item()
        .table_name(TABLE)
        .item("PK", AttributeValue::S(format!("EVENT#{n:010}")))
        .item("kind", AttributeValue::S("order-placed".into()))
        .item("amount", AttributeValue::N(format!("{}.95", n % 500)))
        .item("payload", AttributeValue::S("x".repeat(140)))
        .send()
        .await
        .expect("PutItem");
}

/// An iterator of `kind` (TRIM_HORIZON or LATEST).
async fn iterator(stream: &Stream, kind: ShardIteratorType) -> Option<String> {
    stream
        .client
        .get_shard_iterator()
        .stream_arn(&stream.arn)
        .shard_id(&stream.shard)
        .shard_iterator_type(kind)
        .send()
        .await
        .expect("GetShardIterator")
        .shard_iterator
}

/// The first page at `kind`: its records and their bytes.
async fn page(stream: &Stream, kind: ShardIteratorType) -> (u64, u64) {
    let Some(iterator) = iterator(stream, kind).await else {
        return (0, 0);
    };
    let out = get_records(stream, &iterator).await;
    (count(out.records().len()), bytes(out.records()))
}

async fn get_records(
    stream: &Stream,
    iterator: &str,
) -> aws_sdk_dynamodbstreams::operation::get_records::GetRecordsOutput {
    stream
        .client
        .get_records()
        .shard_iterator(iterator)
        .limit(PAGE)
        .send()
        .await
        .expect("GetRecords")
}

/// Every record the stream holds, from TRIM_HORIZON to its end: how many, and their bytes.
async fn read_all(stream: &Stream) -> (u64, u64) {
    let (mut held, mut size) = (0, 0);
    let mut next = iterator(stream, ShardIteratorType::TrimHorizon).await;
    while let Some(current) = next.take() {
        let out = get_records(stream, &current).await;
        if out.records().is_empty() {
            break;
        }
        held += count(out.records().len());
        size += bytes(out.records());
        next = out.next_shard_iterator;
    }
    (held, size)
}

fn bytes(records: &[aws_sdk_dynamodbstreams::types::Record]) -> u64 {
    records
        .iter()
        .filter_map(|r| r.dynamodb()?.size_bytes())
        .map(|b| u64::try_from(b).unwrap_or(0))
        .sum()
}

fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

fn p50_us(mut samples: Vec<Duration>) -> u128 {
    samples.sort();
    samples.get(samples.len() / 2).map_or(0, |d| d.as_micros())
}
