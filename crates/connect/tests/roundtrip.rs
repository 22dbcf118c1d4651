//! SDK round trips (create table with a GSI, put, get, query, conditional update, transaction,
//! pagination) on every backend: the embedded engine in-process, `serve` over HTTP, and, when
//! `MONOTABLE_TEST_ENDPOINT` is set, any external DynamoDB-compatible endpoint. The tests through
//! `serve` need its feature (`cargo test -p monotable-connect --all-features`; the workspace's
//! test run has it on). On the embedded engine alone, with a clock the test moves: a stream
//! trimmed past its retention, read through the official Streams client. `engine_reads`: the
//! engine's answers to reads against golden files recorded from unpatched dynoxide
//! (vendor/patches).

mod engine_reads;

use std::collections::HashMap;
#[cfg(feature = "serve")]
use std::net::SocketAddr;
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    Projection, ProjectionType, Put, ScalarAttributeType, TableStatus, TransactWriteItem,
};
use monotable_connect::{Backend, Dynamo, connect};
#[cfg(feature = "serve")]
use monotable_connect::{DataLocation, Engine, serve};

/// The client under test: the external endpoint when `MONOTABLE_TEST_ENDPOINT` is set, else a
/// fresh in-memory embedded engine.
async fn client_under_test() -> Dynamo {
    match std::env::var("MONOTABLE_TEST_ENDPOINT") {
        Ok(url) if !url.trim().is_empty() => {
            let dynamo = connect(&Backend::Endpoint(url)).await.expect("endpoint");
            dynamo
                .ping()
                .await
                .expect("MONOTABLE_TEST_ENDPOINT answers");
            dynamo
        }
        _ => monotable_connect::memory().expect("in-memory engine"),
    }
}

/// A table name no other test (or earlier run against a shared endpoint) uses.
fn unique_table(stem: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!("{stem}-{}-{nanos}", std::process::id())
}

fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_string())
}

fn key(pk: &str, sk: &str) -> HashMap<String, AttributeValue> {
    HashMap::from([("PK".to_string(), s(pk)), ("SK".to_string(), s(sk))])
}

async fn create_table(client: &Client, table: &str) {
    let attr = |name: &str| {
        AttributeDefinition::builder()
            .attribute_name(name)
            .attribute_type(ScalarAttributeType::S)
            .build()
            .unwrap()
    };
    let key_el = |name: &str, kind: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(kind)
            .build()
            .unwrap()
    };
    client
        .create_table()
        .table_name(table)
        .billing_mode(aws_sdk_dynamodb::types::BillingMode::PayPerRequest)
        .key_schema(key_el("PK", KeyType::Hash))
        .key_schema(key_el("SK", KeyType::Range))
        .attribute_definitions(attr("PK"))
        .attribute_definitions(attr("SK"))
        .attribute_definitions(attr("GSI1PK"))
        .attribute_definitions(attr("GSI1SK"))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("GSI1")
                .key_schema(key_el("GSI1PK", KeyType::Hash))
                .key_schema(key_el("GSI1SK", KeyType::Range))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::All)
                        .build(),
                )
                .build()
                .unwrap(),
        )
        .send()
        .await
        .expect("create table");
    // Real DynamoDB creates tables asynchronously; the engine is ACTIVE at once.
    for _ in 0..120 {
        let described = client
            .describe_table()
            .table_name(table)
            .send()
            .await
            .expect("describe table");
        if described.table().and_then(|t| t.table_status()) == Some(&TableStatus::Active) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    panic!("table {table} never became ACTIVE");
}

/// Everything the platform promises the layers above, on one client.
async fn round_trip(client: &Client) {
    let table = unique_table("roundtrip");
    create_table(client, &table).await;

    // Put and get a user profile.
    client
        .put_item()
        .table_name(&table)
        .set_item(Some(HashMap::from([
            ("PK".into(), s("USER#u1")),
            ("SK".into(), s("PROFILE")),
            ("name".into(), s("Alice")),
            (
                "balance".into(),
                AttributeValue::N("12345678901234567890.12".into()),
            ),
        ])))
        .send()
        .await
        .expect("put user");
    let got = client
        .get_item()
        .table_name(&table)
        .set_key(Some(key("USER#u1", "PROFILE")))
        .consistent_read(true)
        .send()
        .await
        .expect("get user");
    let item = got.item().expect("user found");
    assert_eq!(item.get("name"), Some(&s("Alice")));
    // Numbers travel as exact decimal strings, never through a float.
    assert_eq!(
        item.get("balance"),
        Some(&AttributeValue::N("12345678901234567890.12".into()))
    );

    // A transaction: an order and two items, all or nothing.
    let order_put = |pk: &str, sk: &str, extra: &[(&str, &str)]| {
        let mut item = key(pk, sk);
        for (k, v) in extra {
            item.insert((*k).to_string(), s(v));
        }
        TransactWriteItem::builder()
            .put(
                Put::builder()
                    .table_name(&table)
                    .set_item(Some(item))
                    .condition_expression("attribute_not_exists(PK)")
                    .build()
                    .unwrap(),
            )
            .build()
    };
    client
        .transact_write_items()
        .transact_items(order_put(
            "ORDER#o1",
            "ORDER",
            &[
                ("GSI1PK", "STATUS#PENDING"),
                ("GSI1SK", "2026-12-01T10:00:00Z#o1"),
            ],
        ))
        .transact_items(order_put("ORDER#o1", "ITEM#001", &[]))
        .transact_items(order_put("ORDER#o1", "ITEM#002", &[]))
        .send()
        .await
        .expect("transaction");

    // The same transaction again fails on its conditions and writes nothing.
    let err = client
        .transact_write_items()
        .transact_items(order_put("ORDER#o1", "ITEM#003", &[]))
        .transact_items(order_put("ORDER#o1", "ITEM#001", &[]))
        .send()
        .await
        .expect_err("duplicate item must cancel the transaction");
    assert_eq!(
        err.as_service_error().and_then(|e| e.code()),
        Some("TransactionCanceledException")
    );

    // Query the item collection: the order and exactly its two items.
    let collection = client
        .query()
        .table_name(&table)
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(":pk", s("ORDER#o1"))
        .consistent_read(true)
        .send()
        .await
        .expect("query collection");
    let sks: Vec<_> = collection
        .items()
        .iter()
        .filter_map(|i| i.get("SK").and_then(|v| v.as_s().ok()).cloned())
        .collect();
    assert_eq!(sks, ["ITEM#001", "ITEM#002", "ORDER"]);

    let items_only = client
        .query()
        .table_name(&table)
        .key_condition_expression("PK = :pk AND begins_with(SK, :sk)")
        .expression_attribute_values(":pk", s("ORDER#o1"))
        .expression_attribute_values(":sk", s("ITEM#"))
        .send()
        .await
        .expect("begins_with query");
    assert_eq!(items_only.count(), 2);

    // The GSI, queried with a date range on its sort key (eventually consistent on real DynamoDB).
    let mut by_status = 0;
    for _ in 0..20 {
        let page = client
            .query()
            .table_name(&table)
            .index_name("GSI1")
            .key_condition_expression("GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to")
            .expression_attribute_values(":pk", s("STATUS#PENDING"))
            .expression_attribute_values(":from", s("2026-12-01"))
            .expression_attribute_values(":to", s("2026-12-02"))
            .send()
            .await
            .expect("gsi query");
        by_status = page.count();
        if by_status == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert_eq!(by_status, 1);

    // A conditional update that fails comes back as the typed SDK error.
    let err = client
        .update_item()
        .table_name(&table)
        .set_key(Some(key("ORDER#o1", "ORDER")))
        .update_expression("SET GSI1PK = :new")
        .condition_expression("GSI1PK = :expected")
        .expression_attribute_values(":new", s("STATUS#SHIPPED"))
        .expression_attribute_values(":expected", s("STATUS#PAID"))
        .send()
        .await
        .expect_err("condition must fail");
    assert!(
        err.as_service_error()
            .is_some_and(|e| e.is_conditional_check_failed_exception()),
        "{err:?}"
    );

    // Pagination: Limit + LastEvaluatedKey walk the collection one item at a time.
    let mut start = None;
    let mut seen = Vec::new();
    loop {
        let page = client
            .query()
            .table_name(&table)
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(":pk", s("ORDER#o1"))
            .limit(1)
            .set_exclusive_start_key(start)
            .consistent_read(true)
            .send()
            .await
            .expect("page");
        seen.extend(
            page.items()
                .iter()
                .filter_map(|i| i.get("SK").and_then(|v| v.as_s().ok()).cloned()),
        );
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
        assert!(seen.len() <= 3, "pagination does not end: {seen:?}");
    }
    assert_eq!(seen, ["ITEM#001", "ITEM#002", "ORDER"]);

    client
        .delete_table()
        .table_name(&table)
        .send()
        .await
        .expect("delete table");
}

/// Serve `engine` on an ephemeral loopback port; the sender stops it.
#[cfg(feature = "serve")]
async fn serve_in_background(
    engine: Engine,
) -> (
    SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let listener = serve::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        serve::serve_dynamodb_defaults(listener, &engine, async {
            let _ = stopped.await;
        })
        .await
        .expect("serve");
    });
    (addr, stop, task)
}

#[tokio::test]
async fn round_trip_on_the_client_under_test() {
    let dynamo = client_under_test().await;
    round_trip(dynamo.client()).await;
}

#[cfg(feature = "serve")]
#[tokio::test]
async fn round_trip_through_serve_over_http() {
    let (addr, stop, task) = serve_in_background(Engine::memory().unwrap()).await;
    let dynamo = connect(&Backend::Endpoint(format!("http://{addr}")))
        .await
        .unwrap();
    dynamo.ping().await.expect("serve answers");
    round_trip(dynamo.client()).await;
    stop.send(()).unwrap();
    task.await.unwrap();
}

#[cfg(feature = "serve")]
#[tokio::test]
async fn a_file_backed_write_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let location = DataLocation::Dir(dir.path().join("data"));
    let table = unique_table("durable");

    // First life: write through the SDK over HTTP, then shut the endpoint down cleanly.
    {
        let engine = Engine::open(&location).unwrap();
        let (addr, stop, task) = serve_in_background(engine.clone()).await;
        let dynamo = connect(&Backend::Endpoint(format!("http://{addr}")))
            .await
            .unwrap();
        create_table(dynamo.client(), &table).await;
        dynamo
            .client()
            .put_item()
            .table_name(&table)
            .set_item(Some(key("USER#u1", "PROFILE")))
            .send()
            .await
            .unwrap();
        stop.send(()).unwrap();
        task.await.unwrap();
    }

    // Second life: a new engine on the same directory sees the acknowledged write.
    let dynamo = connect(&Backend::Embedded(location)).await.unwrap();
    let got = dynamo
        .client()
        .get_item()
        .table_name(&table)
        .set_key(Some(key("USER#u1", "PROFILE")))
        .send()
        .await
        .unwrap();
    assert!(
        got.item().is_some(),
        "the write did not survive the restart"
    );
}

#[tokio::test]
async fn an_unreachable_endpoint_is_named() {
    // Bind then drop a listener: the port is closed when the client tries it.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}");
    let dynamo = connect(&Backend::Endpoint(url.clone())).await.unwrap();
    let err = dynamo.ping().await.unwrap_err();
    let message = err.to_string();
    assert!(
        message.starts_with(&format!("cannot reach DynamoDB at {url}: ")),
        "{message}"
    );
}

/// The embedded engine keeps a stream's records for its retention (24 hours, as on
/// DynamoDB), as DynamoDB Streams does, on a clock the test moves. Through the official
/// Streams client: a position whose following records were trimmed, by sequence number or by
/// an iterator held across the gap, answers `TrimmedDataAccessException`; TRIM_HORIZON starts at
/// the oldest record kept; a reader that had everything loses nothing.
#[tokio::test]
async fn records_past_the_retention_answer_trimmed_data_access_to_the_streams_client() {
    use aws_sdk_dynamodbstreams::types::ShardIteratorType as Kind;
    let clock = monotable_connect::ManualClock::new(1_800_000_000);
    let engine = monotable_connect::Engine::memory_with_clock(&clock).unwrap();
    let client = monotable_connect::inprocess::client(engine.clone());
    let streams = monotable_connect::inprocess::streams_client(engine);
    let stream = Stream::create(&client, &streams).await;
    for pk in ["A", "B"] {
        stream.put(pk).await;
    }
    let old_horizon = stream.iterator(Kind::TrimHorizon, None).await.unwrap();
    let seqs = stream.sequence_numbers(&old_horizon).await;
    clock.tick(Duration::from_secs(48 * 3600));
    stream.put("C").await;

    let trimmed = |e: &aws_sdk_dynamodbstreams::Error| {
        matches!(
            e,
            aws_sdk_dynamodbstreams::Error::TrimmedDataAccessException(_)
        )
    };
    let after_a = stream
        .iterator(Kind::AfterSequenceNumber, Some(&seqs[0]))
        .await;
    assert!(after_a.as_ref().is_err_and(trimmed), "{after_a:?}");
    let at_b = stream
        .iterator(Kind::AtSequenceNumber, Some(&seqs[1]))
        .await;
    assert!(at_b.as_ref().is_err_and(trimmed), "{at_b:?}");
    let held = stream.records(&old_horizon).await;
    assert!(held.as_ref().is_err_and(trimmed), "{held:?}");

    let horizon = stream.iterator(Kind::TrimHorizon, None).await.unwrap();
    let kept = stream.sequence_numbers(&horizon).await;
    assert_eq!(kept.len(), 1);
    let after_b = stream
        .iterator(Kind::AfterSequenceNumber, Some(&seqs[1]))
        .await
        .unwrap();
    assert_eq!(stream.sequence_numbers(&after_b).await, kept);
    assert_eq!(stream.starting_sequence_number().await, kept[0]);
}

/// A table with a stream, read through the official Streams client.
struct Stream {
    client: Client,
    streams: aws_sdk_dynamodbstreams::Client,
    table: String,
    arn: String,
}

impl Stream {
    async fn create(client: &Client, streams: &aws_sdk_dynamodbstreams::Client) -> Stream {
        use aws_sdk_dynamodb::types::{BillingMode, StreamSpecification, StreamViewType};
        let table = unique_table("Trim");
        client
            .create_table()
            .table_name(&table)
            .key_schema(
                KeySchemaElement::builder()
                    .attribute_name("PK")
                    .key_type(KeyType::Hash)
                    .build()
                    .unwrap(),
            )
            .attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name("PK")
                    .attribute_type(ScalarAttributeType::S)
                    .build()
                    .unwrap(),
            )
            .billing_mode(BillingMode::PayPerRequest)
            .stream_specification(
                StreamSpecification::builder()
                    .stream_enabled(true)
                    .stream_view_type(StreamViewType::KeysOnly)
                    .build()
                    .unwrap(),
            )
            .send()
            .await
            .unwrap();
        let listed = streams.list_streams().table_name(&table).send().await;
        let arn = listed.unwrap().streams()[0]
            .stream_arn()
            .unwrap()
            .to_string();
        Stream {
            client: client.clone(),
            streams: streams.clone(),
            table,
            arn,
        }
    }

    async fn put(&self, pk: &str) {
        let put = self
            .client
            .put_item()
            .table_name(&self.table)
            .item("PK", s(pk));
        put.send().await.unwrap();
    }

    async fn iterator(
        &self,
        kind: aws_sdk_dynamodbstreams::types::ShardIteratorType,
        sequence: Option<&str>,
    ) -> Result<String, aws_sdk_dynamodbstreams::Error> {
        let out = self
            .streams
            .get_shard_iterator()
            .stream_arn(&self.arn)
            .shard_id(format!("shardId-00000001-{}", self.table))
            .shard_iterator_type(kind)
            .set_sequence_number(sequence.map(str::to_string))
            .send()
            .await?;
        Ok(out.shard_iterator.unwrap())
    }

    async fn records(
        &self,
        iterator: &str,
    ) -> Result<Vec<aws_sdk_dynamodbstreams::types::Record>, aws_sdk_dynamodbstreams::Error> {
        let out = self
            .streams
            .get_records()
            .shard_iterator(iterator)
            .send()
            .await?;
        Ok(out.records().to_vec())
    }

    async fn sequence_numbers(&self, iterator: &str) -> Vec<String> {
        let records = self.records(iterator).await.unwrap();
        records
            .iter()
            .filter_map(|r| r.dynamodb()?.sequence_number().map(str::to_string))
            .collect()
    }

    async fn starting_sequence_number(&self) -> String {
        let described = self.streams.describe_stream().stream_arn(&self.arn).send();
        let described = described.await.unwrap();
        let shard = &described.stream_description().unwrap().shards()[0];
        let range = shard.sequence_number_range().unwrap();
        range.starting_sequence_number().unwrap().to_string()
    }
}
