//! Round-trip cost of one GetItem and one PutItem on the embedded engine, three ways: direct engine
//! calls (the floor), the SDK through the in-process connector, and the SDK over a loopback HTTP
//! listener. Run: `cargo bench -p monotable-connect --bench transport` (results: docs/benchmarks.md).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, KeySchemaElement, KeyType, ScalarAttributeType,
};
use monotable_connect::{Backend, Engine, connect, serve};

const TABLE: &str = "Bench";
const WARMUP: usize = 2_000;
const ROUNDS: usize = 20_000;

fn item(i: usize) -> HashMap<String, AttributeValue> {
    HashMap::from([
        ("PK".to_string(), AttributeValue::S(format!("USER#{i:08}"))),
        ("SK".to_string(), AttributeValue::S("PROFILE".into())),
        (
            "name".to_string(),
            AttributeValue::S("Alice Example".into()),
        ),
        (
            "email".to_string(),
            AttributeValue::S("alice@example.com".into()),
        ),
        ("balance".to_string(), AttributeValue::N("1234.56".into())),
    ])
}

fn key(i: usize) -> HashMap<String, AttributeValue> {
    let mut k = item(i);
    k.retain(|name, _| name == "PK" || name == "SK");
    k
}

struct Stats {
    mean: Duration,
    p50: Duration,
    p99: Duration,
}

fn stats(mut samples: Vec<Duration>) -> Stats {
    samples.sort();
    let total: Duration = samples.iter().sum();
    Stats {
        mean: total / samples.len() as u32,
        p50: samples[samples.len() / 2],
        p99: samples[samples.len() * 99 / 100],
    }
}

fn report(path: &str, op: &str, s: &Stats) {
    println!(
        "| {path:<28} | {op:<7} | {:>8.1} | {:>8.1} | {:>8.1} |",
        s.mean.as_secs_f64() * 1e6,
        s.p50.as_secs_f64() * 1e6,
        s.p99.as_secs_f64() * 1e6
    );
}

async fn create_table(client: &Client) {
    let attr = |n: &str| {
        AttributeDefinition::builder()
            .attribute_name(n)
            .attribute_type(ScalarAttributeType::S)
            .build()
            .unwrap()
    };
    let key_el = |n: &str, k: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(n)
            .key_type(k)
            .build()
            .unwrap()
    };
    client
        .create_table()
        .table_name(TABLE)
        .billing_mode(aws_sdk_dynamodb::types::BillingMode::PayPerRequest)
        .key_schema(key_el("PK", KeyType::Hash))
        .key_schema(key_el("SK", KeyType::Range))
        .attribute_definitions(attr("PK"))
        .attribute_definitions(attr("SK"))
        .send()
        .await
        .unwrap();
}

async fn sdk_rounds(client: &Client, path: &str) {
    for i in 0..WARMUP {
        client
            .put_item()
            .table_name(TABLE)
            .set_item(Some(item(i)))
            .send()
            .await
            .unwrap();
    }
    let mut puts = Vec::with_capacity(ROUNDS);
    for i in 0..ROUNDS {
        let t = Instant::now();
        client
            .put_item()
            .table_name(TABLE)
            .set_item(Some(item(i)))
            .send()
            .await
            .unwrap();
        puts.push(t.elapsed());
    }
    let mut gets = Vec::with_capacity(ROUNDS);
    for i in 0..ROUNDS {
        let t = Instant::now();
        let got = client
            .get_item()
            .table_name(TABLE)
            .set_key(Some(key(i)))
            .send()
            .await
            .unwrap();
        gets.push(t.elapsed());
        assert!(got.item().is_some());
    }
    report(path, "PutItem", &stats(puts));
    report(path, "GetItem", &stats(gets));
}

fn direct_rounds(engine: &Engine) {
    use monotable_connect::dispatch::{self, Origin};
    // DynamoDB JSON straight to the engine through `serve`'s dispatch, no SDK; every body is
    // built before the timer starts.
    let put_body = |i: usize| {
        serde_json::to_vec(&serde_json::json!({"TableName": TABLE, "Item": {
            "PK": {"S": format!("USER#{i:08}")}, "SK": {"S": "PROFILE"},
            "name": {"S": "Alice Example"}, "email": {"S": "alice@example.com"},
            "balance": {"N": "1234.56"}}}))
        .unwrap()
    };
    let get_body = |i: usize| {
        serde_json::to_vec(&serde_json::json!({"TableName": TABLE, "Key": {
            "PK": {"S": format!("USER#{i:08}")}, "SK": {"S": "PROFILE"}}}))
        .unwrap()
    };
    let run = |target: &str, body: &[u8]| {
        let answer = dispatch::run(engine, Origin::Http, Some(target), body);
        assert_eq!(answer.status, 200);
        answer
    };
    let put_bodies: Vec<Vec<u8>> = (0..WARMUP.max(ROUNDS)).map(put_body).collect();
    let get_bodies: Vec<Vec<u8>> = (0..ROUNDS).map(get_body).collect();
    let put = |i: usize| {
        run("DynamoDB_20120810.PutItem", &put_bodies[i]);
    };
    let get = |i: usize| {
        let answer = run("DynamoDB_20120810.GetItem", &get_bodies[i]);
        assert!(answer.body.len() > 20, "the item came back");
    };
    (0..WARMUP).for_each(put);
    let puts = (0..ROUNDS)
        .map(|i| {
            let t = Instant::now();
            put(i);
            t.elapsed()
        })
        .collect();
    let gets = (0..ROUNDS)
        .map(|i| {
            let t = Instant::now();
            get(i);
            t.elapsed()
        })
        .collect();
    report("direct engine call", "PutItem", &stats(puts));
    report("direct engine call", "GetItem", &stats(gets));
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        println!(
            "{ROUNDS} calls each after {WARMUP} warm-up puts; in-memory engine; microseconds per call\n"
        );
        println!("| path                         | op      |     mean |      p50 |      p99 |");
        println!("|------------------------------|---------|---------:|---------:|---------:|");

        // Direct engine calls: the floor (request built from JSON, as the connector does).
        let engine = Engine::memory().unwrap();
        create_table(&monotable_connect::inprocess::client(engine.clone())).await;
        direct_rounds(&engine);

        // The SDK through the in-process connector.
        let engine = Engine::memory().unwrap();
        let client = monotable_connect::inprocess::client(engine.clone());
        create_table(&client).await;
        sdk_rounds(&client, "SDK, in-process connector").await;

        // The SDK over a loopback listener (what `serve` exposes).
        let engine = Engine::memory().unwrap();
        let listener = serve::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            serve::serve_dynamodb_defaults(listener, &engine, async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
        });
        let dynamo = connect(&Backend::Endpoint(format!("http://{addr}")))
            .await
            .unwrap();
        create_table(dynamo.client()).await;
        sdk_rounds(dynamo.client(), "SDK, loopback HTTP listener").await;
        stop.send(()).unwrap();
        server.await.unwrap();
    });
}
