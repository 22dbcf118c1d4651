//! The data set the connect benches share: users to get one at a time, and owners whose
//! partitions hold 40 orders each, to query a page of 20. Loaded straight into the engine.

use monotable_connect::Engine;
use monotable_connect::dispatch::{self, Origin};
use serde_json::{Value, json};

pub const TABLE: &str = "Bench";
pub const USERS: usize = 10_000;

/// The users and owners to load: `SDK_CALL_USERS` users (default 10,000) and a tenth as many
/// owners.
pub fn sizes() -> (usize, usize) {
    let users = std::env::var("SDK_CALL_USERS")
        .ok()
        .and_then(|u| u.parse().ok())
        .unwrap_or(USERS);
    (users, (users / 10).max(1))
}
const ORDERS_PER_OWNER: usize = 40;

pub fn user_pk(i: usize) -> String {
    format!("USER#{i:08}")
}

pub fn owner_pk(i: usize) -> String {
    format!("OWNER#{i:06}")
}

/// A user's profile: a few short attributes, as the shop's users have.
pub fn user(i: usize) -> Value {
    json!({
        "PK": {"S": user_pk(i)}, "SK": {"S": "PROFILE"},
        "name": {"S": "Alice Example"}, "email": {"S": format!("alice{i}@example.com")},
        "createdAt": {"S": "2026-11-30T12:00:00.000Z"}, "balance": {"N": "1234.56"}
    })
}

/// [`user`] as the SDK's item type.
#[allow(dead_code)] // not every bench that shares this file puts users
pub fn user_item(
    i: usize,
) -> std::collections::HashMap<String, aws_sdk_dynamodb::types::AttributeValue> {
    use aws_sdk_dynamodb::types::AttributeValue::{N, S};
    std::collections::HashMap::from([
        ("PK".to_string(), S(user_pk(i))),
        ("SK".to_string(), S("PROFILE".into())),
        ("name".to_string(), S("Alice Example".into())),
        ("email".to_string(), S(format!("alice{i}@example.com"))),
        (
            "createdAt".to_string(),
            S("2026-11-30T12:00:00.000Z".into()),
        ),
        ("balance".to_string(), N("1234.56".into())),
    ])
}

fn order(owner: usize, n: usize) -> Value {
    json!({
        "PK": {"S": owner_pk(owner)}, "SK": {"S": format!("ORDER#2026-11-{:02}#{n:04}", 1 + n % 28)},
        "status": {"S": "SHIPPED"}, "total": {"N": "99.95"},
        "createdAt": {"S": "2026-11-30T12:00:00.000Z"}, "lines": {"N": "3"}
    })
}

/// GetItem of user `i` through the SDK; panics unless the user is found.
pub async fn get_user(client: &aws_sdk_dynamodb::Client, i: usize) {
    let got = client
        .get_item()
        .table_name(TABLE)
        .key("PK", aws_sdk_dynamodb::types::AttributeValue::S(user_pk(i)))
        .key(
            "SK",
            aws_sdk_dynamodb::types::AttributeValue::S("PROFILE".into()),
        )
        .send()
        .await
        .expect("get");
    assert!(got.item.is_some());
}

/// Run one request on the engine, as `serve` would; panics unless it succeeds.
pub fn run(engine: &Engine, operation: &str, request: &Value) -> Vec<u8> {
    let body = serde_json::to_vec(request).expect("request");
    let target = format!("{}{operation}", dispatch::TARGET_PREFIX);
    let answer = dispatch::run(engine, Origin::Http, Some(&target), &body);
    assert_eq!(
        answer.status,
        200,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    answer.body
}

/// Create the table and load every user and order.
pub fn load(engine: &Engine) {
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
    let (users, owners) = sizes();
    let users = (0..users).map(user);
    let orders = (0..owners).flat_map(|o| (0..ORDERS_PER_OWNER).map(move |n| order(o, n)));
    let items: Vec<Value> = users.chain(orders).collect();
    for chunk in items.chunks(25) {
        let puts: Vec<Value> = chunk
            .iter()
            .map(|item| json!({"PutRequest": {"Item": item}}))
            .collect();
        run(
            engine,
            "BatchWriteItem",
            &json!({"RequestItems": {TABLE: puts}}),
        );
    }
}
