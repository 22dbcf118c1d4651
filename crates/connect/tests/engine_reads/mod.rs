//! The engine's answers to reads, against golden files recorded from unpatched dynoxide 3.2.0:
//! every patch in vendor/patches must leave each response byte for byte as it was (after the
//! map keys are put in order). The corpus: GetItem, Query, Scan, index queries and scans,
//! BatchGetItem, TransactGetItems, PartiQL reads, and the writes that return or test the stored
//! old item; with projections, filters, reverse order, COUNT, pagination across pages (by Limit
//! and by the 1 MB page), consumed capacity, legacy parameters, nested maps and lists, sets,
//! numbers at the edges of DynamoDB's range and binary.
//!
//! The goldens are insta snapshots (`snapshots/roundtrip__engine_reads__*.snap`). They were
//! recorded before any read-path patch; re-record only for a change that is meant to alter an
//! answer, and say so in the patch.

mod corpus;

use monotable_connect::Engine;
use monotable_connect::dispatch::{self, Origin};
use serde_json::{Value, json};

/// One request and what the engine answered, ready for a golden file.
fn call(engine: &Engine, case: &str, operation: &str, request: &Value) -> Value {
    let body = serde_json::to_vec(request).expect("request");
    let target = format!("{}{operation}", dispatch::TARGET_PREFIX);
    let answer = dispatch::run(engine, Origin::Http, Some(&target), &body);
    let response: Value = serde_json::from_slice(&answer.body).unwrap_or_else(|_| {
        panic!(
            "{case}: the answer is not JSON: {}",
            String::from_utf8_lossy(&answer.body)
        )
    });
    json!({"case": case, "status": answer.status, "response": canonical(response)})
}

/// Every page of a paginated read: the request again with each page's LastEvaluatedKey as its
/// ExclusiveStartKey, until a page has none (at most 50 pages).
fn pages(engine: &Engine, case: &str, operation: &str, request: &Value) -> Value {
    let mut request = request.clone();
    let mut out = Vec::new();
    for page in 1..=50 {
        let answer = call(engine, &format!("{case}, page {page}"), operation, &request);
        let next = answer["response"].get("LastEvaluatedKey").cloned();
        out.push(answer);
        match next {
            Some(key) => request["ExclusiveStartKey"] = key,
            None => return Value::Array(out),
        }
    }
    panic!("{case}: more than 50 pages");
}

/// The response with the one order the engine does not fix put in order: BatchGetItem's
/// ConsumedCapacity list, one entry per table, follows a hash map. (Map keys are already in
/// order: serde_json's maps are sorted.)
fn canonical(mut response: Value) -> Value {
    if let Some(Value::Array(capacity)) = response.get_mut("ConsumedCapacity") {
        capacity.sort_by(|a, b| a["TableName"].to_string().cmp(&b["TableName"].to_string()));
    }
    response
}

/// A fresh engine with the corpus's tables and items.
fn loaded() -> Engine {
    let engine = Engine::memory().expect("engine");
    for (operation, request) in corpus::setup() {
        let answer = call(&engine, "setup", operation, &request);
        assert_eq!(answer["status"], 200, "{answer:#}");
    }
    engine
}

#[test]
fn get_item() {
    let engine = loaded();
    let answers: Vec<Value> = corpus::get_items()
        .into_iter()
        .map(|(case, request)| call(&engine, case, "GetItem", &request))
        .collect();
    insta::assert_json_snapshot!("get_item", answers);
}

#[test]
fn query() {
    let engine = loaded();
    let answers: Vec<Value> = corpus::queries()
        .into_iter()
        .map(|(case, request)| pages(&engine, case, "Query", &request))
        .collect();
    insta::assert_json_snapshot!("query", answers);
}

#[test]
fn index_reads() {
    let engine = loaded();
    let answers: Vec<Value> = corpus::index_reads()
        .into_iter()
        .map(|(case, operation, request)| pages(&engine, case, operation, &request))
        .collect();
    insta::assert_json_snapshot!("index_reads", answers);
}

#[test]
fn scan() {
    let engine = loaded();
    let answers: Vec<Value> = corpus::scans()
        .into_iter()
        .map(|(case, request)| pages(&engine, case, "Scan", &request))
        .collect();
    insta::assert_json_snapshot!("scan", answers);
}

#[test]
fn batch_and_transaction_reads() {
    let engine = loaded();
    let answers: Vec<Value> = corpus::batch_and_transaction_reads()
        .into_iter()
        .map(|(case, operation, request)| call(&engine, case, operation, &request))
        .collect();
    insta::assert_json_snapshot!("batch_and_transaction_reads", answers);
}

#[test]
fn partiql_reads() {
    let engine = loaded();
    let answers: Vec<Value> = corpus::partiql_reads()
        .into_iter()
        .map(|(case, operation, request)| call(&engine, case, operation, &request))
        .collect();
    insta::assert_json_snapshot!("partiql_reads", answers);
}

/// Writes that read the stored item back: the old item they return, the condition they test on
/// it, the item an update builds from it. Run in order, each on what the one before left.
#[test]
fn writes_reading_the_old_item() {
    let engine = loaded();
    let answers: Vec<Value> = corpus::writes()
        .into_iter()
        .map(|(case, operation, request)| call(&engine, case, operation, &request))
        .collect();
    insta::assert_json_snapshot!("writes_reading_the_old_item", answers);
}
