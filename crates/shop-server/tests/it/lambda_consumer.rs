//! The shop's stream consumer on Lambda as AWS runs it: the `monotable-shop` binary with
//! `MONOTABLE_CONSUMER=productSales` (as the exported template sets it) against a mock of the
//! Lambda Runtime API, over a `monotable-shop serve --no-consumers` DynamoDB endpoint. Its
//! events are the table's own stream records, read through the endpoint's DynamoDB Streams API
//! as Lambda's event source mapping reads them: the sales aggregate counts each sale once however
//! often a batch comes, a record that does not decode is named in the partial batch response,
//! and an unknown consumer is an init error naming the known ones.

use std::process::{Child, Stdio};
use std::time::Duration;

use monotable_test_support::dynamodb::UNSIGNED;
use monotable_test_support::runtime_api::{Posted, RuntimeApi};
use monotable_test_support::shop::{command, serve, token};
use monotable_test_support::{Served, http};
use serde_json::{Value, json};

use crate::common::sales::{Api, Customer, aggregate};

/// The binary as the consumer's function against `runtime`, on the DynamoDB endpoint
/// `dynamodb`. No cursor secret: the consumer's function has none.
fn function(runtime: &RuntimeApi, dynamodb: &str, consumer: &str) -> Child {
    command()
        .env("AWS_LAMBDA_RUNTIME_API", &runtime.address)
        .env("AWS_LAMBDA_FUNCTION_NAME", "ProductSalesConsumer")
        .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
        .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
        .env("TABLE_NAME", "Shop")
        .env("MONOTABLE_CONSUMER", consumer)
        .env("AWS_ENDPOINT_URL_DYNAMODB", dynamodb)
        .env("AWS_REGION", "us-east-1")
        .env("AWS_ACCESS_KEY_ID", "lambda")
        .env("AWS_SECRET_ACCESS_KEY", "lambda-secret")
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the function")
}

/// The function's logs, once killed.
fn finish(mut child: Child) -> String {
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A DynamoDB Streams `operation` on the endpoint at `url`.
fn streams(url: &str, operation: &str, body: &Value) -> Value {
    let target = format!("DynamoDBStreams_20120810.{operation}");
    let mut headers = vec![
        ("X-Amz-Target", target.as_str()),
        ("Content-Type", "application/x-amz-json-1.0"),
    ];
    headers.extend(UNSIGNED);
    let (status, answer) = http(url, "POST", "/", &headers, Some(&body.to_string())).unwrap();
    assert_eq!(status, 200, "{operation}: {answer}");
    answer
}

/// Every record the table's stream holds, as Lambda's DynamoDB event carries them.
fn stream_records(served: &Served) -> Vec<Value> {
    let listed = streams(&served.url, "ListStreams", &json!({ "TableName": "Shop" }));
    let arn = listed["Streams"][0]["StreamArn"]
        .as_str()
        .unwrap()
        .to_string();
    let described = streams(&served.url, "DescribeStream", &json!({ "StreamArn": arn }));
    let mut records = Vec::new();
    for shard in described["StreamDescription"]["Shards"].as_array().unwrap() {
        let body = json!({ "StreamArn": arn, "ShardId": shard["ShardId"], "ShardIteratorType": "TRIM_HORIZON" });
        let mut iterator = streams(&served.url, "GetShardIterator", &body)["ShardIterator"].clone();
        loop {
            let page = streams(
                &served.url,
                "GetRecords",
                &json!({ "ShardIterator": iterator }),
            );
            let got = page["Records"].as_array().unwrap();
            if got.is_empty() {
                break;
            }
            for r in got {
                let mut r = r.clone();
                r["eventSourceARN"] = json!(arn);
                records.push(r);
            }
            iterator = page["NextShardIterator"].clone();
        }
    }
    records
}

/// The sequence numbers a partial batch response names.
fn failures(posted: &Posted) -> Vec<String> {
    let Posted::Response { body, .. } = posted else {
        panic!("{posted:?}")
    };
    body["batchItemFailures"]
        .as_array()
        .unwrap_or_else(|| panic!("{body}"))
        .iter()
        .map(|f| f["itemIdentifier"].as_str().unwrap().to_string())
        .collect()
}

/// Place an order of `items` (product, quantity); its day.
fn order(api: &Api, who: &Customer, items: &[(&str, i64)]) -> (String, String) {
    let items: Vec<Value> = items
        .iter()
        .map(|(p, q)| json!({ "productId": p, "quantity": q }))
        .collect();
    let (status, o) = api
        .call(
            "POST",
            &format!("/users/{}/orders", who.user),
            &who.token,
            Some(&json!({ "items": items })),
        )
        .unwrap();
    assert_eq!(status, 201, "{o}");
    let day = o["createdAt"].as_str().unwrap()[..10].to_string();
    (o["orderId"].as_str().unwrap().to_string(), day)
}

#[test]
fn the_consumer_function_counts_each_sale_once_from_the_tables_own_stream_records() {
    let dir = tempfile::tempdir().unwrap();
    let served = serve(&["--data-dir", "data", "--no-consumers"], dir.path());
    assert!(
        served
            .banner
            .iter()
            .any(|l| l.contains("none (--no-consumers)")),
        "{:?}",
        served.banner
    );
    let api = Api {
        url: served.api.clone(),
        admin: token(dir.path(), "root", true),
    };
    let alice = Customer {
        user: "alice".into(),
        token: token(dir.path(), "alice", false),
    };
    let (lamp, cable) = (api.product("Lamp", "2.50"), api.product("Cable", "0.99"));
    let (_, day) = order(&api, &alice, &[(&lamp, 3), (&cable, 2)]);
    let (cancelled, _) = order(&api, &alice, &[(&lamp, 1)]);
    let path = format!("/orders/{cancelled}");
    let body = json!({ "status": "CANCELLED" });
    assert_eq!(
        api.call("PATCH", &path, &alice.token, Some(&body))
            .unwrap()
            .0,
        200
    );
    let sales = |p: &str| aggregate(&api, p, &day, &day).get(&day).copied();
    assert_eq!(sales(&lamp), None, "no consumer ran under serve");

    let runtime = RuntimeApi::start();
    let child = function(&runtime, &served.url, "productSales");
    let event = json!({ "Records": stream_records(&served) });
    // Twice, as a retry of the whole batch would: each sale counts once.
    for _ in 0..2 {
        assert_eq!(failures(&runtime.call(&event)), Vec::<String>::new());
        assert_eq!(
            sales(&lamp),
            Some((3, 750)),
            "the cancelled line was taken away"
        );
        assert_eq!(sales(&cable), Some((2, 198)));
    }

    // A new order's records, then a line that does not decode: the order counts, the bad
    // record is named (Lambda retries from it, then sends it to the failure queue).
    order(&api, &alice, &[(&cable, 1)]);
    let all = stream_records(&served);
    let fresh = all.len() - event["Records"].as_array().unwrap().len();
    let mut records: Vec<Value> = all[all.len() - fresh..].to_vec();
    let mut bad = records
        .iter()
        .find(|r| r["dynamodb"]["NewImage"]["entityType"]["S"] == "OrderItem")
        .unwrap()
        .clone();
    bad["dynamodb"]["NewImage"]["quantity"] = json!({ "S": "three" });
    bad["dynamodb"]["SequenceNumber"] = json!("99999999999999999999");
    records.push(bad);
    let posted = runtime.call(&json!({ "Records": records }));
    assert_eq!(failures(&posted), ["99999999999999999999"]);
    assert_eq!(sales(&cable), Some((3, 297)));

    let logs = finish(child);
    assert!(logs.contains("productSales"), "{logs}");
    served.terminate();
}

#[test]
fn an_unknown_consumer_is_an_init_error_naming_the_known_ones() {
    let runtime = RuntimeApi::start();
    let mut child = function(&runtime, "http://127.0.0.1:9", "productSale");
    let posted = runtime
        .posted(Duration::from_secs(20))
        .expect("the failure was posted");
    let Posted::InitError { body, error_type } = posted else {
        panic!("{posted:?}")
    };
    let message = body["errorMessage"].as_str().unwrap();
    assert!(
        message.contains("MONOTABLE_CONSUMER is `productSale`"),
        "{message}"
    );
    assert!(message.contains("`productSales`"), "{message}");
    assert_eq!(error_type.as_deref(), Some("Runtime.InitError"));
    assert!(!child.wait().unwrap().success());
}
