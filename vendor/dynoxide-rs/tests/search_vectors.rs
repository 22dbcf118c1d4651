//! SearchVectors data-plane tests: scoring per distance function, ranking and
//! tie-breaks, TopK bounds, SearchConditionExpression handling, projection,
//! and the captured error strings.
//!
//! Error strings and score semantics are pinned byte-for-byte to real
//! DynamoDB behaviour captured in eu-west-2 on 2026-08-11, with follow-up
//! captures on 2026-08-12 and 2026-08-13 that were byte-identical in
//! eu-west-2 and us-east-1. Elements are f32 (the index's storage precision)
//! but scores accumulate in f64 and saturate to the f32 range: extremal
//! scores are asserted exactly, intermediate ones within a tolerance that
//! absorbs floating-point rounding.

use dynoxide::actions::search_vectors::{SearchVectorsRequest, SearchVectorsResponse};
use dynoxide::actions::vector_lifecycle::{
    ACTIVE_AFTER_SECS, SEARCHABLE_AFTER_SECS, VectorIndexLifecycle,
};
use dynoxide::storage::Storage;
use dynoxide::storage_backend::ManualClock;
use serde_json::json;

async fn create_table(storage: &Storage, req: serde_json::Value) {
    let req: dynoxide::actions::create_table::CreateTableRequest =
        serde_json::from_value(req).unwrap();
    dynoxide::actions::create_table::execute(storage, req)
        .await
        .unwrap();
}

async fn put_item(storage: &Storage, table: &str, item: serde_json::Value) {
    let req = serde_json::from_value(json!({"TableName": table, "Item": item})).unwrap();
    dynoxide::actions::put_item::execute(storage, req)
        .await
        .unwrap();
}

/// Search against a lifecycle nothing has armed, which is every index
/// provisioned through CreateTable.
async fn search(
    storage: &Storage,
    req: serde_json::Value,
) -> dynoxide::Result<SearchVectorsResponse> {
    search_with(storage, &VectorIndexLifecycle::new(), req).await
}

/// As [`search`], but reading a caller-held lifecycle, so an index added
/// through UpdateTable is still inside its creation window.
async fn search_with(
    storage: &Storage,
    lifecycle: &VectorIndexLifecycle,
    req: serde_json::Value,
) -> dynoxide::Result<SearchVectorsResponse> {
    let req: SearchVectorsRequest = serde_json::from_value(req).unwrap();
    dynoxide::actions::search_vectors::execute(storage, req, lifecycle).await
}

/// Unwrap a request-model rejection raised inside serde deserialisation.
/// The raw serde error carries the internal `VALIDATION:` marker that the
/// server layer strips before anything reaches the wire; strip it here so
/// assertions pin the full client-visible message.
fn request_model_error(result: Result<SearchVectorsRequest, serde_json::Error>) -> String {
    let err = result.unwrap_err().to_string();
    err.strip_prefix("VALIDATION:")
        .expect("request-model rejections carry the VALIDATION: marker")
        .to_string()
}

/// Unwrap a rejection raised inside serde that passes the deserialiser's own
/// text through, which carries the internal `SERIALIZATION_AS_READ:` marker
/// the server layer strips.
fn as_read_error(result: Result<SearchVectorsRequest, serde_json::Error>) -> String {
    let err = result.unwrap_err().to_string();
    err.strip_prefix("SERIALIZATION_AS_READ:")
        .expect("deserialiser rejections carry the SERIALIZATION_AS_READ: marker")
        .to_string()
}

/// The `(pk, score)` pairs of a response, in response order.
fn scores(resp: &SearchVectorsResponse) -> Vec<(String, f64)> {
    resp.search_results
        .iter()
        .map(|r| {
            let pk = match r.item.get("pk") {
                Some(dynoxide::types::AttributeValue::S(s)) => s.clone(),
                other => panic!("expected string pk, got {other:?}"),
            };
            (pk, r.score)
        })
        .collect()
}

fn n_vec(ns: &[&str]) -> serde_json::Value {
    json!(ns.iter().map(|n| json!({"N": n})).collect::<Vec<_>>())
}

/// As [`n_vec`], as the attribute values a request built in Rust carries.
fn n_vec_values(ns: &[&str]) -> Vec<dynoxide::types::AttributeValue> {
    ns.iter()
        .map(|n| dynoxide::types::AttributeValue::N(n.to_string()))
        .collect()
}

/// The epoch second every lifecycle test starts its clock at. An index armed
/// while the clock reads this has its window measured from here.
const ARMED: u64 = 1_700_000_000;

/// Move the clock to where the index reports `ACTIVE` but a search is still
/// refused, and to past the whole window.
///
/// Derived from the thresholds rather than written as a number, so raising or
/// lowering either one fails these assertions loudly instead of quietly
/// re-pointing them at the wrong phase.
fn advance_to_active_not_searchable(clock: &ManualClock) {
    clock.set(ARMED + ACTIVE_AFTER_SECS as u64 + 1);
}

fn advance_past_the_window(clock: &ManualClock) {
    clock.set(ARMED + SEARCHABLE_AFTER_SECS as u64 + 1);
}

/// A table with one index per distance function over the suite's separation
/// fixture: `a` equals the query vector, `d` is a unit-norm mix, `b` is
/// orthogonal, `c` is opposite.
async fn create_distance_fixture(storage: &Storage, table: &str) {
    create_table(
        storage,
        json!({
            "TableName": table,
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST",
            "VectorIndexes": [
                {"IndexName": "cosine", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "COSINE",
                 "Projection": {"ProjectionType": "ALL"}},
                {"IndexName": "euclidean", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "EUCLIDEAN",
                 "Projection": {"ProjectionType": "ALL"}},
                {"IndexName": "dot", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "DOT_PRODUCT",
                 "Projection": {"ProjectionType": "ALL"}}
            ]
        }),
    )
    .await;
    for (pk, v) in [
        ("a", ["1", "0", "0"]),
        ("b", ["0", "1", "0"]),
        ("c", ["-1", "0", "0"]),
        ("d", ["0.6", "0.8", "0"]),
    ] {
        put_item(
            storage,
            table,
            json!({
                "pk": {"S": pk},
                "label": {"S": format!("item-{pk}")},
                "embedding": {"L": n_vec(&v)}
            }),
        )
        .await;
    }
}

/// A table with a schemaless index and a HASH + INLINE_FILTER index, plus a
/// partitioned fixture: tenant t1 holds p1 (category c1), p2 (category c2),
/// and p4 (no category); tenant t2 holds p3 (category c1); p5 has no tenant.
async fn create_schema_fixture(storage: &Storage, table: &str) {
    create_table(
        storage,
        json!({
            "TableName": table,
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "tenant", "AttributeType": "S"},
                {"AttributeName": "category", "AttributeType": "S"}
            ],
            "BillingMode": "PAY_PER_REQUEST",
            "VectorIndexes": [
                {"IndexName": "plain", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "COSINE",
                 "Projection": {"ProjectionType": "ALL"}},
                {"IndexName": "schema", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "COSINE",
                 "Projection": {"ProjectionType": "ALL"},
                 "SearchSchema": [
                     {"AttributeName": "tenant", "SearchSchemaElementType": "HASH"},
                     {"AttributeName": "category", "SearchSchemaElementType": "INLINE_FILTER"}
                 ]}
            ]
        }),
    )
    .await;
    for (pk, tenant, category) in [
        ("p1", Some("t1"), Some("c1")),
        ("p2", Some("t1"), Some("c2")),
        ("p3", Some("t2"), Some("c1")),
        ("p4", Some("t1"), None),
        ("p5", None, Some("c1")),
    ] {
        let mut item = json!({
            "pk": {"S": pk},
            "embedding": {"L": n_vec(&["1", "0", "0"])}
        });
        if let Some(t) = tenant {
            item["tenant"] = json!({"S": t});
        }
        if let Some(c) = category {
            item["category"] = json!({"S": c});
        }
        put_item(storage, table, item).await;
    }
}

fn assert_close(actual: f64, expected: f64) {
    assert!(
        (actual - expected).abs() < 1e-6,
        "score {actual} not within 1e-6 of {expected}"
    );
}

// ---------------------------------------------------------------------------
// Scoring per distance function
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "current_thread")]
async fn cosine_self_match_scores_exactly_zero_and_ranks_lower_is_better() {
    let storage = Storage::memory().unwrap();
    create_distance_fixture(&storage, "VecCos").await;

    let resp = search(
        &storage,
        json!({
            "TableName": "VecCos", "IndexName": "cosine",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10
        }),
    )
    .await
    .unwrap();

    let got = scores(&resp);
    let order: Vec<&str> = got.iter().map(|(pk, _)| pk.as_str()).collect();
    assert_eq!(order, ["a", "d", "b", "c"]);
    assert_eq!(got[0].1, 0.0, "self-match must score exactly 0.0");
    assert_close(got[1].1, 0.4);
    assert_eq!(got[2].1, 1.0);
    assert_eq!(got[3].1, 2.0);
}

#[tokio::test(flavor = "current_thread")]
async fn euclidean_self_match_scores_exactly_zero_and_ranks_lower_is_better() {
    let storage = Storage::memory().unwrap();
    create_distance_fixture(&storage, "VecEuc").await;

    let resp = search(
        &storage,
        json!({
            "TableName": "VecEuc", "IndexName": "euclidean",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10
        }),
    )
    .await
    .unwrap();

    let got = scores(&resp);
    let order: Vec<&str> = got.iter().map(|(pk, _)| pk.as_str()).collect();
    assert_eq!(order, ["a", "d", "b", "c"]);
    assert_eq!(got[0].1, 0.0, "self-match must score exactly 0.0");
    assert_close(got[1].1, 0.8f64.sqrt());
    assert_close(got[2].1, 2.0f64.sqrt());
    assert_eq!(got[3].1, 2.0);
}

#[tokio::test(flavor = "current_thread")]
async fn dot_product_ranks_higher_is_better_and_scores_can_be_negative() {
    let storage = Storage::memory().unwrap();
    create_distance_fixture(&storage, "VecDot").await;

    let resp = search(
        &storage,
        json!({
            "TableName": "VecDot", "IndexName": "dot",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10
        }),
    )
    .await
    .unwrap();

    let got = scores(&resp);
    let order: Vec<&str> = got.iter().map(|(pk, _)| pk.as_str()).collect();
    assert_eq!(order, ["a", "d", "b", "c"]);
    assert_eq!(got[0].1, 1.0);
    assert_close(got[1].1, 0.6);
    assert_eq!(got[2].1, 0.0);
    assert_eq!(got[3].1, -1.0, "negative dot-product scores are legal");
}

// ---------------------------------------------------------------------------
// Zero vectors under COSINE (captured 2026-08-12: defined as exactly 1.0 with
// a zero-magnitude operand on either side, never NaN)
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "current_thread")]
async fn cosine_zero_vectors_score_exactly_one_on_either_side() {
    let storage = Storage::memory().unwrap();
    create_table(
        &storage,
        json!({
            "TableName": "VecZero",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST",
            "VectorIndexes": [
                {"IndexName": "cosine", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "COSINE",
                 "Projection": {"ProjectionType": "ALL"}}
            ]
        }),
    )
    .await;
    put_item(
        &storage,
        "VecZero",
        json!({"pk": {"S": "zero"}, "embedding": {"L": n_vec(&["0", "0", "0"])}}),
    )
    .await;
    put_item(
        &storage,
        "VecZero",
        json!({"pk": {"S": "unit"}, "embedding": {"L": n_vec(&["1", "0", "0"])}}),
    )
    .await;

    // A zero query vector scores every item exactly 1.0, including the
    // stored zero vector.
    let resp = search(
        &storage,
        json!({
            "TableName": "VecZero", "IndexName": "cosine",
            "SearchVector": n_vec(&["0", "0", "0"]), "TopK": 10
        }),
    )
    .await
    .unwrap();
    assert_eq!(resp.search_results.len(), 2);
    for result in &resp.search_results {
        assert_eq!(result.score, 1.0);
    }

    // A valid query scores the stored zero vector exactly 1.0 as well.
    let resp = search(
        &storage,
        json!({
            "TableName": "VecZero", "IndexName": "cosine",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10
        }),
    )
    .await
    .unwrap();
    let got = scores(&resp);
    assert_eq!(got[0], ("unit".to_string(), 0.0));
    assert_eq!(got[1], ("zero".to_string(), 1.0));
}

// ---------------------------------------------------------------------------
// Tie-breaks: score then base-table primary key, deterministic across calls
// and across how the index was populated (a documented divergence: real
// DynamoDB's equal-score order is non-deterministic, captured 2026-08-12)
// ---------------------------------------------------------------------------

async fn put_identical_vectors_reversed(storage: &Storage, table: &str) {
    for pk in ["c", "b", "a"] {
        put_item(
            storage,
            table,
            json!({"pk": {"S": pk}, "embedding": {"L": n_vec(&["0.5", "0.5", "0"])}}),
        )
        .await;
    }
}

#[tokio::test(flavor = "current_thread")]
async fn equal_scores_order_by_primary_key_across_repeated_calls() {
    let storage = Storage::memory().unwrap();
    create_table(
        &storage,
        json!({
            "TableName": "VecTie",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST",
            "VectorIndexes": [
                {"IndexName": "cosine", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "COSINE",
                 "Projection": {"ProjectionType": "ALL"}}
            ]
        }),
    )
    .await;
    put_identical_vectors_reversed(&storage, "VecTie").await;

    let req = json!({
        "TableName": "VecTie", "IndexName": "cosine",
        "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10
    });
    let first = scores(&search(&storage, req.clone()).await.unwrap());
    let order: Vec<&str> = first.iter().map(|(pk, _)| pk.as_str()).collect();
    assert_eq!(
        order,
        ["a", "b", "c"],
        "ties order by primary key regardless of insertion order"
    );
    assert!(first.windows(2).all(|w| w[0].1 == w[1].1));
    for _ in 0..5 {
        assert_eq!(scores(&search(&storage, req.clone()).await.unwrap()), first);
    }
}

#[tokio::test(flavor = "current_thread")]
async fn tie_order_is_identical_between_backfill_and_incremental_builds() {
    // The backfilled index arrives through UpdateTable, so it opens a creation
    // window a search is refused for. The clock is driven rather than waited
    // on, and the comparison is between two searchable indexes.
    let clock = ManualClock::new(ARMED);
    let storage = Storage::memory().unwrap().with_clock(clock.arc());
    let lifecycle = VectorIndexLifecycle::new();

    // Incremental: index exists first, items written through maintenance.
    create_table(
        &storage,
        json!({
            "TableName": "VecInc",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST",
            "VectorIndexes": [
                {"IndexName": "vix", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "COSINE",
                 "Projection": {"ProjectionType": "ALL"}}
            ]
        }),
    )
    .await;
    put_identical_vectors_reversed(&storage, "VecInc").await;

    // Backfill: items first, then the index arrives via UpdateTable.
    create_table(
        &storage,
        json!({
            "TableName": "VecBack",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST"
        }),
    )
    .await;
    put_identical_vectors_reversed(&storage, "VecBack").await;
    let update: dynoxide::actions::update_table::UpdateTableRequest =
        serde_json::from_value(json!({
            "TableName": "VecBack",
            "VectorIndexUpdates": [{"Create": {
                "IndexName": "vix", "VectorAttribute": {"AttributeName": "embedding"},
                "Dimensions": 3, "DistanceFunction": "COSINE",
                "Projection": {"ProjectionType": "ALL"}
            }}]
        }))
        .unwrap();
    dynoxide::actions::update_table::execute(&storage, update, &lifecycle)
        .await
        .unwrap();
    advance_past_the_window(&clock);

    let query = |table: &str| {
        json!({
            "TableName": table, "IndexName": "vix",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10
        })
    };
    let incremental = scores(
        &search_with(&storage, &lifecycle, query("VecInc"))
            .await
            .unwrap(),
    );
    let backfilled = scores(
        &search_with(&storage, &lifecycle, query("VecBack"))
            .await
            .unwrap(),
    );
    assert_eq!(incremental, backfilled);
    let order: Vec<&str> = incremental.iter().map(|(pk, _)| pk.as_str()).collect();
    assert_eq!(order, ["a", "b", "c"]);
}

// ---------------------------------------------------------------------------
// TopK bounds
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "current_thread")]
async fn top_k_above_item_count_returns_everything_ranked() {
    let storage = Storage::memory().unwrap();
    create_distance_fixture(&storage, "VecAll").await;

    let resp = search(
        &storage,
        json!({
            "TableName": "VecAll", "IndexName": "cosine",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 100
        }),
    )
    .await
    .unwrap();
    assert_eq!(resp.search_results.len(), 4);
    // SearchResults is the response's only data key: no pagination surface.
    let body = serde_json::to_string(&resp).unwrap();
    assert!(!body.contains("LastEvaluatedKey"));
    assert!(!body.contains("NextToken"));
}

#[tokio::test(flavor = "current_thread")]
async fn top_k_one_returns_the_best_match() {
    let storage = Storage::memory().unwrap();
    create_distance_fixture(&storage, "VecOne").await;

    let resp = search(
        &storage,
        json!({
            "TableName": "VecOne", "IndexName": "cosine",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1
        }),
    )
    .await
    .unwrap();
    assert_eq!(scores(&resp), vec![("a".to_string(), 0.0)]);
}

#[test]
fn top_k_zero_rejects_at_the_request_model_layer_enveloped() {
    // The newer validation layer's wording, with no value echo (captured
    // 2026-10-09, six of six regions; it echoed '0' at 'topK' in August).
    let err = request_model_error(serde_json::from_value(json!({
        "TableName": "T", "IndexName": "vix",
        "SearchVector": [{"N": "1"}], "TopK": 0
    })));
    assert_eq!(
        err,
        "1 validation error detected: Value at 'TopK' failed to satisfy constraint: \
         Member must have value greater than or equal to 1"
    );
}

/// A request built in Rust must meet the same IndexName and SearchVector
/// checks as one decoded from a body, and say the same thing about them.
#[tokio::test(flavor = "current_thread")]
async fn a_request_built_in_rust_meets_the_index_name_and_search_vector_checks() {
    let storage = Storage::memory().unwrap();
    let one = [dynoxide::types::AttributeValue::N("1".to_string())];

    // (IndexName, SearchVector length, the member errors the wire gives).
    let short = "Value at 'IndexName' failed to satisfy constraint: \
                 Member must have length greater than or equal to 3";
    let empty = "Value at 'SearchVector' failed to satisfy constraint: \
                 Member must have length greater than or equal to 1";
    let cases: [(&str, usize, String); 4] = [
        ("", 1, format!("1 validation error detected: {short}")),
        ("ab", 1, format!("1 validation error detected: {short}")),
        ("vix", 0, format!("1 validation error detected: {empty}")),
        (
            "ab",
            0,
            format!("2 validation errors detected: {short}; {empty}"),
        ),
    ];

    for (index_name, vector_len, expected) in cases {
        let request = SearchVectorsRequest {
            table_name: "AnyTable".to_string(),
            index_name: index_name.to_string(),
            search_vector: one.iter().take(vector_len).cloned().collect(),
            top_k: 1,
            ..Default::default()
        };
        let in_process = dynoxide::actions::search_vectors::execute(
            &storage,
            request,
            &VectorIndexLifecycle::new(),
        )
        .await
        .expect_err("a member that breaks its constraint is refused")
        .to_string();

        // The same request decoded from a body gives the same text.
        let wire = request_model_error(serde_json::from_value(json!({
            "TableName": "AnyTable", "IndexName": index_name,
            "SearchVector": one.iter().take(vector_len).map(|_| json!({"N": "1"})).collect::<Vec<_>>(),
            "TopK": 1
        })));

        assert_eq!(
            wire, expected,
            "wire answer for {index_name:?}/{vector_len}"
        );
        assert_eq!(
            in_process, expected,
            "in-process answer for {index_name:?}/{vector_len}"
        );
    }
}

/// Every combination of the members that can break a constraint, with and
/// without a malformed table name: the request decoded from a body and the
/// same request built in Rust give the same text, the same errors in the same
/// order.
#[tokio::test(flavor = "current_thread")]
async fn in_process_and_wire_requests_agree_on_every_member_combination() {
    use dynoxide::types::AttributeValue;
    let storage = Storage::memory().unwrap();
    let tables = ["AnyTable", "a"];
    let index_names = ["", "ab", "vix", &"i".repeat(256)];
    let mut compared = 0;
    for table in tables {
        for index_name in index_names {
            for vector_len in [0usize, 1] {
                for top_k in [0i64, 1] {
                    let vector_json: Vec<_> = (0..vector_len).map(|_| json!({"N": "1"})).collect();
                    let wire = serde_json::from_value::<SearchVectorsRequest>(json!({
                        "TableName": table, "IndexName": index_name,
                        "SearchVector": vector_json, "TopK": top_k
                    }));
                    // The one clean combination reaches the index lookup in
                    // both paths; there is nothing to compare.
                    let Err(wire) = wire else { continue };
                    let wire = wire.to_string();
                    let wire = wire.strip_prefix("VALIDATION:").unwrap();

                    let request = SearchVectorsRequest {
                        table_name: table.to_string(),
                        index_name: index_name.to_string(),
                        search_vector: (0..vector_len)
                            .map(|_| AttributeValue::N("1".to_string()))
                            .collect(),
                        top_k,
                        ..Default::default()
                    };
                    let in_process = dynoxide::actions::search_vectors::execute(
                        &storage,
                        request,
                        &VectorIndexLifecycle::new(),
                    )
                    .await
                    .unwrap_err()
                    .to_string();

                    assert_eq!(
                        in_process,
                        wire,
                        "{table:?} / {} chars / vector of {vector_len} / TopK {top_k}",
                        index_name.len()
                    );
                    compared += 1;
                }
            }
        }
    }
    // 2 tables x 4 index names x 2 vector lengths x 2 TopK values, less the
    // one clean request.
    assert_eq!(compared, 31, "every refused combination was compared");
}

/// Member errors win over a malformed table name, as they do on the wire
/// (the table name is only looked at once the members are clean).
#[tokio::test(flavor = "current_thread")]
async fn member_errors_come_before_a_malformed_table_name_in_process() {
    let storage = Storage::memory().unwrap();
    let request = SearchVectorsRequest {
        table_name: "a".to_string(),
        index_name: "ab".to_string(),
        search_vector: vec![dynoxide::types::AttributeValue::N("1".to_string())],
        top_k: 1,
        ..Default::default()
    };
    let err =
        dynoxide::actions::search_vectors::execute(&storage, request, &VectorIndexLifecycle::new())
            .await
            .unwrap_err()
            .to_string();
    assert!(err.contains("'IndexName'"), "{err}");
    assert!(!err.contains("tableName"), "{err}");
}

#[test]
fn unrecognised_return_consumed_capacity_rejects_at_the_request_model_layer() {
    // SearchVectors asks the shared enum helper for the wording Query, Scan
    // and PutItem give, but reports it bare, on its own after the member
    // constraints: this pinned the envelope those operations use until the
    // search endpoint was captured (eu-west-2 and us-east-1, 23 October 2026).
    // The table name has to be valid: a short one is reported first.
    let err = request_model_error(serde_json::from_value(json!({
        "TableName": "AnyTable", "IndexName": "vix",
        "SearchVector": [{"N": "1"}], "TopK": 1,
        "ReturnConsumedCapacity": "INDEX"
    })));
    assert_eq!(
        err,
        "Value 'INDEX' at 'returnConsumedCapacity' failed to satisfy constraint: Member must \
         satisfy enum value set: [INDEXES, TOTAL, NONE]"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn top_k_101_rejects_bare_with_the_value_interpolated() {
    let expected = "Provided TopK value '101' is out of valid range. The value must be \
                    between 1 and 100 inclusive";
    let err = request_model_error(serde_json::from_value(json!({
        "TableName": "VecBig", "IndexName": "cosine",
        "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 101
    })));
    assert_eq!(err, expected);

    // A request built in Rust meets the same check, before the table is
    // looked up.
    let storage = Storage::memory().unwrap();
    let err = dynoxide::actions::search_vectors::execute(
        &storage,
        SearchVectorsRequest {
            table_name: "Absent".to_string(),
            index_name: "cosine".to_string(),
            search_vector: n_vec_values(&["1", "0", "0"]),
            top_k: 101,
            ..Default::default()
        },
        &VectorIndexLifecycle::new(),
    )
    .await
    .unwrap_err();
    assert_eq!(err.to_string(), expected);
}

// ---------------------------------------------------------------------------
// SearchConditionExpression
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "current_thread")]
async fn hash_equality_scopes_the_search_to_one_partition() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecScope").await;

    let resp = search(
        &storage,
        json!({
            "TableName": "VecScope", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10,
            "SearchConditionExpression": "tenant = :t",
            "ExpressionAttributeValues": {":t": {"S": "t1"}}
        }),
    )
    .await
    .unwrap();
    let mut pks: Vec<String> = scores(&resp).into_iter().map(|(pk, _)| pk).collect();
    pks.sort();
    assert_eq!(pks, ["p1", "p2", "p4"]);

    let resp = search(
        &storage,
        json!({
            "TableName": "VecScope", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10,
            "SearchConditionExpression": "tenant = :t",
            "ExpressionAttributeValues": {":t": {"S": "t2"}}
        }),
    )
    .await
    .unwrap();
    let pks: Vec<String> = scores(&resp).into_iter().map(|(pk, _)| pk).collect();
    assert_eq!(pks, ["p3"]);
}

#[tokio::test(flavor = "current_thread")]
async fn missing_condition_on_a_hash_schema_index_rejects() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecNoCond").await;

    let err = search(
        &storage,
        json!({
            "TableName": "VecNoCond", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "SearchConditionExpression must be provided when SearchSchema has a HASH key"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn non_equality_comparator_rejects_on_hash_and_inline_filter_elements() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecComp").await;

    let expected =
        "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression";

    // On the HASH element.
    let err = search(
        &storage,
        json!({
            "TableName": "VecComp", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
            "SearchConditionExpression": "tenant < :t",
            "ExpressionAttributeValues": {":t": {"S": "t9"}}
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(err.to_string(), expected);

    // On the INLINE_FILTER element.
    let err = search(
        &storage,
        json!({
            "TableName": "VecComp", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
            "SearchConditionExpression": "tenant = :t AND category < :c",
            "ExpressionAttributeValues": {":t": {"S": "t1"}, ":c": {"S": "c9"}}
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(err.to_string(), expected);
}

#[tokio::test(flavor = "current_thread")]
async fn condition_attribute_outside_the_search_schema_rejects() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecOutside").await;

    // The message preserves AWS's own grammar exactly as captured.
    let err = search(
        &storage,
        json!({
            "TableName": "VecOutside", "IndexName": "plain",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
            "SearchConditionExpression": "tenant = :t",
            "ExpressionAttributeValues": {":t": {"S": "t1"}}
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "SearchConditionExpression must not contain any attributes that is not in \
         SearchSchema. Invalid attribute: tenant"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn inline_filter_equality_narrows_and_absent_attributes_exclude() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecFilter").await;

    // Only p1 carries tenant t1 with category c1; p4 (t1, category absent)
    // is excluded by the filter.
    let resp = search(
        &storage,
        json!({
            "TableName": "VecFilter", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10,
            "SearchConditionExpression": "tenant = :t AND category = :c",
            "ExpressionAttributeValues": {":t": {"S": "t1"}, ":c": {"S": "c1"}}
        }),
    )
    .await
    .unwrap();
    let pks: Vec<String> = scores(&resp).into_iter().map(|(pk, _)| pk).collect();
    assert_eq!(pks, ["p1"]);
}

// ---------------------------------------------------------------------------
// Query-vector validation
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "current_thread")]
async fn dimension_mismatch_rejects_with_both_dimensions_interpolated() {
    let storage = Storage::memory().unwrap();
    create_distance_fixture(&storage, "VecDims").await;

    let err = search(
        &storage,
        json!({
            "TableName": "VecDims", "IndexName": "cosine",
            "SearchVector": n_vec(&["1", "0"]), "TopK": 1
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Input search vector dimension 2 does not match vector index dimension 3"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn invalid_search_vector_elements_reject_with_the_captured_string() {
    let expected = "Search vector contains invalid values. All values in the search vector \
                    must be a 32-bit floating-point number attribute";

    // An out-of-f32-range element (captured 2026-08-12). The vector is checked
    // before the table is looked up (captured eu-west-2 and us-east-1, 23
    // October 2026), so a decoded request never reaches it.
    let err = request_model_error(serde_json::from_value(json!({
        "TableName": "VecBad", "IndexName": "cosine",
        "SearchVector": [{"N": "1E+39"}, {"N": "0"}, {"N": "0"}], "TopK": 1
    })));
    assert_eq!(err, expected);

    // An L-wrapped vector (captured 2026-08-11): the element check fires
    // before the dimension check even though the count also mismatches.
    let err = request_model_error(serde_json::from_value(json!({
        "TableName": "VecBad", "IndexName": "cosine",
        "SearchVector": [{"L": n_vec(&["1", "0", "0"])}], "TopK": 1
    })));
    assert_eq!(err, expected);

    // A request built in Rust meets the same check, before the table is
    // looked up.
    let storage = Storage::memory().unwrap();
    for search_vector in [
        n_vec_values(&["1E+39", "0", "0"]),
        vec![dynoxide::types::AttributeValue::S("1".to_string())],
    ] {
        let err = dynoxide::actions::search_vectors::execute(
            &storage,
            SearchVectorsRequest {
                table_name: "Absent".to_string(),
                index_name: "cosine".to_string(),
                search_vector,
                top_k: 1,
                ..Default::default()
            },
            &VectorIndexLifecycle::new(),
        )
        .await
        .unwrap_err();
        assert_eq!(err.to_string(), expected);
    }
}

// ---------------------------------------------------------------------------
// Projection: the vector attribute is excluded by default and returned only
// when requested AND projected (captured)
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "current_thread")]
async fn vector_attribute_is_absent_by_default_and_projected_on_request() {
    let storage = Storage::memory().unwrap();
    create_distance_fixture(&storage, "VecProj").await;

    // Default: item keys only, no embedding.
    let resp = search(
        &storage,
        json!({
            "TableName": "VecProj", "IndexName": "cosine",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1
        }),
    )
    .await
    .unwrap();
    let item = &resp.search_results[0].item;
    let mut keys: Vec<&str> = item.keys().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(keys, ["label", "pk"]);

    // Requested and projected (ALL): the index hands back its own f32 copy,
    // serialised shortest-decimal, so "1" comes back as "1.0".
    let resp = search(
        &storage,
        json!({
            "TableName": "VecProj", "IndexName": "cosine",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
            "ProjectionExpression": "pk, embedding"
        }),
    )
    .await
    .unwrap();
    let item = &resp.search_results[0].item;
    let embedding = match item.get("embedding") {
        Some(dynoxide::types::AttributeValue::L(l)) => l,
        other => panic!("expected projected embedding list, got {other:?}"),
    };
    let ns: Vec<&str> = embedding
        .iter()
        .map(|v| match v {
            dynoxide::types::AttributeValue::N(n) => n.as_str(),
            other => panic!("expected N element, got {other:?}"),
        })
        .collect();
    assert_eq!(ns, ["1.0", "0.0", "0.0"]);
}

#[tokio::test(flavor = "current_thread")]
async fn requested_vector_attribute_stays_absent_when_the_index_does_not_project_it() {
    let storage = Storage::memory().unwrap();
    create_table(
        &storage,
        json!({
            "TableName": "VecKeys",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST",
            "VectorIndexes": [
                {"IndexName": "keysonly", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "COSINE",
                 "Projection": {"ProjectionType": "KEYS_ONLY"}},
                {"IndexName": "with-vec", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "COSINE",
                 "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["embedding"]}}
            ]
        }),
    )
    .await;
    put_item(
        &storage,
        "VecKeys",
        json!({"pk": {"S": "a"}, "embedding": {"L": n_vec(&["1", "0", "0"])}}),
    )
    .await;

    // KEYS_ONLY without the vector attribute: requested but not projected,
    // so it stays absent.
    let resp = search(
        &storage,
        json!({
            "TableName": "VecKeys", "IndexName": "keysonly",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
            "ProjectionExpression": "pk, embedding"
        }),
    )
    .await
    .unwrap();
    let item = &resp.search_results[0].item;
    assert!(item.get("embedding").is_none());
    assert!(item.get("pk").is_some());

    // INCLUDE naming the vector attribute: requested and projected.
    let resp = search(
        &storage,
        json!({
            "TableName": "VecKeys", "IndexName": "with-vec",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
            "ProjectionExpression": "pk, embedding"
        }),
    )
    .await
    .unwrap();
    assert!(resp.search_results[0].item.contains_key("embedding"));
}

// ---------------------------------------------------------------------------
// Nonexistent table and index
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "current_thread")]
async fn nonexistent_table_answers_resource_not_found() {
    let storage = Storage::memory().unwrap();

    // The conformance suite's data-plane probe depends on this shape: a real
    // ResourceNotFoundException, not an unsupported-operation fault.
    let err = search(
        &storage,
        json!({
            "TableName": "NoSuchTable", "IndexName": "no-such-index",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1
        }),
    )
    .await
    .unwrap_err();
    assert!(matches!(
        err,
        dynoxide::DynoxideError::ResourceNotFoundException(_)
    ));
    assert_eq!(err.to_string(), "Requested resource not found");
}

#[tokio::test(flavor = "current_thread")]
async fn nonexistent_index_answers_the_captured_message() {
    let storage = Storage::memory().unwrap();
    create_distance_fixture(&storage, "VecNoIx").await;

    let err = search(
        &storage,
        json!({
            "TableName": "VecNoIx", "IndexName": "absent",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "The table does not have the specified index: absent"
    );
}

// ---------------------------------------------------------------------------
// Expression attribute bookkeeping follows the Query family (uncaptured for
// this operation)
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "current_thread")]
async fn expression_attribute_values_without_expressions_reject() {
    let storage = Storage::memory().unwrap();
    create_distance_fixture(&storage, "VecEav").await;

    let err = search(
        &storage,
        json!({
            "TableName": "VecEav", "IndexName": "cosine",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
            "ExpressionAttributeValues": {":t": {"S": "t1"}}
        }),
    )
    .await
    .unwrap_err();
    // Bare, with nothing after it (captured eu-west-2 and us-east-1, 23
    // October 2026).
    assert_eq!(
        err.to_string(),
        "ExpressionAttributeValues can only be specified when using expressions"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn unused_expression_attribute_values_reject() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecUnused").await;

    let err = search(
        &storage,
        json!({
            "TableName": "VecUnused", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
            "SearchConditionExpression": "tenant = :t",
            "ExpressionAttributeValues": {":t": {"S": "t1"}, ":spare": {"S": "x"}}
        }),
    )
    .await
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("Value provided in ExpressionAttributeValues unused in expressions"),
        "got: {err}"
    );
}

// ---------------------------------------------------------------------------
// Scoring precision: f64 accumulation saturated to the f32 range (captured
// 2026-08-13, byte-identical in eu-west-2 and us-east-1)
// ---------------------------------------------------------------------------

/// A table with one two-dimensional index named `vix` using the given
/// distance function.
async fn create_two_dim_fixture(storage: &Storage, table: &str, distance: &str) {
    create_table(
        storage,
        json!({
            "TableName": table,
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST",
            "VectorIndexes": [
                {"IndexName": "vix", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 2, "DistanceFunction": distance,
                 "Projection": {"ProjectionType": "ALL"}}
            ]
        }),
    )
    .await;
}

#[tokio::test(flavor = "current_thread")]
async fn dot_product_overflowing_products_cancel_to_exactly_zero() {
    let storage = Storage::memory().unwrap();
    create_two_dim_fixture(&storage, "VecDotOvf", "DOT_PRODUCT").await;
    put_item(
        &storage,
        "VecDotOvf",
        json!({"pk": {"S": "a"}, "embedding": {"L": n_vec(&["3.4e38", "-3.4e38"])}}),
    )
    .await;

    // Each product overflows f32 but the f64 accumulation cancels them
    // exactly; a naive f32 sum would report NaN (captured 2026-08-13).
    let resp = search(
        &storage,
        json!({
            "TableName": "VecDotOvf", "IndexName": "vix",
            "SearchVector": n_vec(&["3.4e38", "3.4e38"]), "TopK": 1
        }),
    )
    .await
    .unwrap();
    assert_eq!(scores(&resp), vec![("a".to_string(), 0.0)]);
}

#[tokio::test(flavor = "current_thread")]
async fn euclidean_overflowing_distance_saturates_to_f32_max() {
    let storage = Storage::memory().unwrap();
    create_two_dim_fixture(&storage, "VecEucOvf", "EUCLIDEAN").await;
    put_item(
        &storage,
        "VecEucOvf",
        json!({"pk": {"S": "a"}, "embedding": {"L": n_vec(&["-3.4e38", "0"])}}),
    )
    .await;

    // The difference overflows the f32 range, so the final score saturates
    // to exactly f32::MAX rather than reporting infinity (captured
    // 2026-08-13: exactly 3.4028234663852886e+38).
    let resp = search(
        &storage,
        json!({
            "TableName": "VecEucOvf", "IndexName": "vix",
            "SearchVector": n_vec(&["3.4e38", "0"]), "TopK": 1
        }),
    )
    .await
    .unwrap();
    let got = scores(&resp);
    assert_eq!(got, vec![("a".to_string(), f64::from(f32::MAX))]);
    assert_eq!(got[0].1, 3.4028234663852886e38);
}

#[tokio::test(flavor = "current_thread")]
async fn cosine_underflowing_self_match_scores_exactly_zero() {
    let storage = Storage::memory().unwrap();
    create_two_dim_fixture(&storage, "VecCosUdf", "COSINE").await;
    put_item(
        &storage,
        "VecCosUdf",
        json!({"pk": {"S": "tiny"}, "embedding": {"L": n_vec(&["1e-23", "0"])}}),
    )
    .await;

    // The f32 square of 1e-23 flushes to zero, but the f64 accumulation
    // keeps the magnitude nonzero, so the self-match scores 0.0 instead of
    // wrongly tripping the zero-magnitude branch's 1.0 (captured
    // 2026-08-13). The true-zero-vector case stays pinned at 1.0 by
    // cosine_zero_vectors_score_exactly_one_on_either_side.
    let resp = search(
        &storage,
        json!({
            "TableName": "VecCosUdf", "IndexName": "vix",
            "SearchVector": n_vec(&["1e-23", "0"]), "TopK": 1
        }),
    )
    .await
    .unwrap();
    assert_eq!(scores(&resp), vec![("tiny".to_string(), 0.0)]);
}

// ---------------------------------------------------------------------------
// HASH operand validation (captured 2026-08-13, byte-identical in eu-west-2
// and us-east-1) and the remaining uncaptured match-nothing shapes
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "current_thread")]
async fn empty_string_hash_operand_rejects_with_the_key_suffix() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecEmptyKey").await;

    // A "Key:" suffix, distinct from the write path's IndexName/IndexKey
    // form (captured 2026-08-13).
    let err = search(
        &storage,
        json!({
            "TableName": "VecEmptyKey", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
            "SearchConditionExpression": "tenant = :t",
            "ExpressionAttributeValues": {":t": {"S": ""}}
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "One or more parameter values are not valid. The AttributeValue for a key attribute \
         cannot contain an empty string value. Key: tenant"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn type_mismatched_hash_operand_rejects_with_both_types() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecTypeMis").await;

    // Captured for an N operand against the declared S (2026-08-13); the
    // BOOL, L, and M letters are uncaptured within the captured format.
    for (operand, letter) in [
        (json!({"N": "1"}), "N"),
        (json!({"BOOL": true}), "BOOL"),
        (json!({"L": [{"S": "t1"}]}), "L"),
        (json!({"M": {"v": {"S": "t1"}}}), "M"),
    ] {
        let err = search(
            &storage,
            json!({
                "TableName": "VecTypeMis", "IndexName": "schema",
                "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
                "SearchConditionExpression": "tenant = :t",
                "ExpressionAttributeValues": {":t": operand}
            }),
        )
        .await
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "Type of 'tenant' attribute in SearchConditionExpression ({letter}) does not \
                 match type in search schema (S)"
            )
        );
    }
}

#[tokio::test(flavor = "current_thread")]
async fn contradictory_hash_equalities_are_refused_as_duplicate_conditions() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecContra").await;

    // Two equalities on one attribute are refused whatever their values, so
    // this never reaches the scoped load. Matching nothing was the earlier
    // reading and the 2026-08-19 capture retired it.
    let err = search(
        &storage,
        json!({
            "TableName": "VecContra", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10,
            "SearchConditionExpression": "tenant = :a AND tenant = :b",
            "ExpressionAttributeValues": {":a": {"S": "t1"}, ":b": {"S": "t2"}}
        }),
    )
    .await
    .expect_err("one condition per attribute");
    assert_eq!(
        err.to_string(),
        "Invalid SearchConditionExpression: SearchConditionExpression must only contain \
         one condition per attribute"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn nested_path_conjunct_is_refused() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecNested").await;

    // A nested path is refused rather than quietly matching nothing, so a
    // malformed search cannot be mistaken for an empty one. Matching nothing
    // was the earlier reading and the 2026-08-19 capture retired it.
    let err = search(
        &storage,
        json!({
            "TableName": "VecNested", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10,
            "SearchConditionExpression": "tenant = :t AND category.child = :c",
            "ExpressionAttributeValues": {":t": {"S": "t1"}, ":c": {"S": "c1"}}
        }),
    )
    .await
    .expect_err("a nested condition is refused");
    assert_eq!(
        err.to_string(),
        "Invalid SearchConditionExpression: SearchConditionExpression cannot have \
         conditions on nested attributes"
    );
}

// ---------------------------------------------------------------------------
// Expression reference errors carry the operation's prefix
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "current_thread")]
async fn undefined_expression_attribute_value_rejects_with_the_prefix() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecNoVal").await;

    let err = search(
        &storage,
        json!({
            "TableName": "VecNoVal", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
            "SearchConditionExpression": "tenant = :t AND category = :c",
            "ExpressionAttributeValues": {":t": {"S": "t1"}}
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Invalid SearchConditionExpression: An expression attribute value used in expression \
         is not defined; attribute value: :c"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn reserved_word_in_condition_rejects_with_the_captured_prefix() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecReserved").await;

    // Captured 2026-08-13: the reserved-word rejection carries the
    // operation's prefix through the shared condition machinery.
    let err = search(
        &storage,
        json!({
            "TableName": "VecReserved", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
            "SearchConditionExpression": "bucket = :t",
            "ExpressionAttributeValues": {":t": {"S": "t1"}}
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Invalid SearchConditionExpression: Attribute name is a reserved keyword; \
         reserved keyword: bucket"
    );
}

// ---------------------------------------------------------------------------
// Numeric spelling normalisation (HASH scope captured 2026-08-13; the
// INLINE_FILTER side goes through the condition machinery's numeric equality)
// ---------------------------------------------------------------------------

/// A table whose index keys its SearchSchema HASH on an N-typed attribute:
/// g1 sits in partition 1, g2 in partition 2.
async fn create_numeric_hash_fixture(storage: &Storage, table: &str) {
    create_table(
        storage,
        json!({
            "TableName": table,
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "grp", "AttributeType": "N"}
            ],
            "BillingMode": "PAY_PER_REQUEST",
            "VectorIndexes": [
                {"IndexName": "schema", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "COSINE",
                 "Projection": {"ProjectionType": "ALL"},
                 "SearchSchema": [
                     {"AttributeName": "grp", "SearchSchemaElementType": "HASH"}
                 ]}
            ]
        }),
    )
    .await;
    for (pk, grp) in [("g1", "1"), ("g2", "2")] {
        put_item(
            storage,
            table,
            json!({
                "pk": {"S": pk},
                "grp": {"N": grp},
                "embedding": {"L": n_vec(&["1", "0", "0"])}
            }),
        )
        .await;
    }
}

#[tokio::test(flavor = "current_thread")]
async fn numeric_hash_operand_spelling_normalises() {
    let storage = Storage::memory().unwrap();
    create_numeric_hash_fixture(&storage, "VecNumHash").await;

    // {N: "1.0"} matches stored {N: "1"}: the key-string encoding
    // normalises numeric spellings on both sides (captured 2026-08-13).
    let resp = search(
        &storage,
        json!({
            "TableName": "VecNumHash", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10,
            "SearchConditionExpression": "grp = :g",
            "ExpressionAttributeValues": {":g": {"N": "1.0"}}
        }),
    )
    .await
    .unwrap();
    let pks: Vec<String> = scores(&resp).into_iter().map(|(pk, _)| pk).collect();
    assert_eq!(pks, ["g1"]);
}

/// A table whose index declares an INLINE_FILTER-only SearchSchema on an
/// N-typed attribute, with no HASH element: a sits at tier 1, b at tier 2,
/// c carries no tier.
async fn create_inline_filter_fixture(storage: &Storage, table: &str) {
    create_table(
        storage,
        json!({
            "TableName": table,
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "tier", "AttributeType": "N"}
            ],
            "BillingMode": "PAY_PER_REQUEST",
            "VectorIndexes": [
                {"IndexName": "filtered", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "COSINE",
                 "Projection": {"ProjectionType": "ALL"},
                 "SearchSchema": [
                     {"AttributeName": "tier", "SearchSchemaElementType": "INLINE_FILTER"}
                 ]}
            ]
        }),
    )
    .await;
    for (pk, tier) in [("a", Some("1")), ("b", Some("2")), ("c", None)] {
        let mut item = json!({
            "pk": {"S": pk},
            "embedding": {"L": n_vec(&["1", "0", "0"])}
        });
        if let Some(t) = tier {
            item["tier"] = json!({"N": t});
        }
        put_item(storage, table, item).await;
    }
}

#[tokio::test(flavor = "current_thread")]
async fn inline_filter_numeric_equality_normalises_spelling() {
    let storage = Storage::memory().unwrap();
    create_inline_filter_fixture(&storage, "VecIfNum").await;

    // {N: "1.0"} matches stored {N: "1"} through the condition machinery's
    // numeric equality.
    let resp = search(
        &storage,
        json!({
            "TableName": "VecIfNum", "IndexName": "filtered",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10,
            "SearchConditionExpression": "tier = :r",
            "ExpressionAttributeValues": {":r": {"N": "1.0"}}
        }),
    )
    .await
    .unwrap();
    let pks: Vec<String> = scores(&resp).into_iter().map(|(pk, _)| pk).collect();
    assert_eq!(pks, ["a"]);
}

#[tokio::test(flavor = "current_thread")]
async fn hashless_schema_accepts_a_condition_without_requiring_one() {
    let storage = Storage::memory().unwrap();
    create_inline_filter_fixture(&storage, "VecIfOnly").await;

    // No HASH element, so no mandatory-condition rejection: a search without
    // any condition returns everything, and a filter condition narrows.
    let resp = search(
        &storage,
        json!({
            "TableName": "VecIfOnly", "IndexName": "filtered",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10
        }),
    )
    .await
    .unwrap();
    assert_eq!(resp.search_results.len(), 3);

    let resp = search(
        &storage,
        json!({
            "TableName": "VecIfOnly", "IndexName": "filtered",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10,
            "SearchConditionExpression": "tier = :r",
            "ExpressionAttributeValues": {":r": {"N": "2"}}
        }),
    )
    .await
    .unwrap();
    let pks: Vec<String> = scores(&resp).into_iter().map(|(pk, _)| pk).collect();
    assert_eq!(pks, ["b"]);
}

// ---------------------------------------------------------------------------
// Condition shapes: name aliasing, multi-filter AND chains, parentheses
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "current_thread")]
async fn expression_attribute_names_alias_resolves_to_the_hash_attribute() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecAlias").await;

    let resp = search(
        &storage,
        json!({
            "TableName": "VecAlias", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10,
            "SearchConditionExpression": "#t = :v",
            "ExpressionAttributeNames": {"#t": "tenant"},
            "ExpressionAttributeValues": {":v": {"S": "t1"}}
        }),
    )
    .await
    .unwrap();
    let mut pks: Vec<String> = scores(&resp).into_iter().map(|(pk, _)| pk).collect();
    pks.sort();
    assert_eq!(pks, ["p1", "p2", "p4"]);
}

/// A table whose index chains a HASH element with two INLINE_FILTER elements.
async fn create_multi_filter_fixture(storage: &Storage, table: &str) {
    create_table(
        storage,
        json!({
            "TableName": table,
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "tenant", "AttributeType": "S"},
                {"AttributeName": "category", "AttributeType": "S"},
                {"AttributeName": "tier", "AttributeType": "N"}
            ],
            "BillingMode": "PAY_PER_REQUEST",
            "VectorIndexes": [
                {"IndexName": "schema", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "COSINE",
                 "Projection": {"ProjectionType": "ALL"},
                 "SearchSchema": [
                     {"AttributeName": "tenant", "SearchSchemaElementType": "HASH"},
                     {"AttributeName": "category", "SearchSchemaElementType": "INLINE_FILTER"},
                     {"AttributeName": "tier", "SearchSchemaElementType": "INLINE_FILTER"}
                 ]}
            ]
        }),
    )
    .await;
    for (pk, tenant, category, tier) in [
        ("m1", "t1", "c1", "1"),
        ("m2", "t1", "c1", "2"),
        ("m3", "t1", "c2", "1"),
        ("m4", "t2", "c1", "1"),
    ] {
        put_item(
            storage,
            table,
            json!({
                "pk": {"S": pk},
                "tenant": {"S": tenant},
                "category": {"S": category},
                "tier": {"N": tier},
                "embedding": {"L": n_vec(&["1", "0", "0"])}
            }),
        )
        .await;
    }
}

#[tokio::test(flavor = "current_thread")]
async fn multi_inline_filter_and_chain_narrows_to_the_intersection() {
    let storage = Storage::memory().unwrap();
    create_multi_filter_fixture(&storage, "VecMulti").await;

    let resp = search(
        &storage,
        json!({
            "TableName": "VecMulti", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10,
            "SearchConditionExpression": "tenant = :t AND category = :c AND tier = :r",
            "ExpressionAttributeValues": {
                ":t": {"S": "t1"}, ":c": {"S": "c1"}, ":r": {"N": "1"}
            }
        }),
    )
    .await
    .unwrap();
    let pks: Vec<String> = scores(&resp).into_iter().map(|(pk, _)| pk).collect();
    assert_eq!(pks, ["m1"]);
}

#[tokio::test(flavor = "current_thread")]
async fn parenthesised_and_shape_is_accepted() {
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecParen").await;

    let resp = search(
        &storage,
        json!({
            "TableName": "VecParen", "IndexName": "schema",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10,
            "SearchConditionExpression": "(tenant = :t AND category = :c)",
            "ExpressionAttributeValues": {":t": {"S": "t1"}, ":c": {"S": "c1"}}
        }),
    )
    .await
    .unwrap();
    let pks: Vec<String> = scores(&resp).into_iter().map(|(pk, _)| pk).collect();
    assert_eq!(pks, ["p1"]);
}

// ---------------------------------------------------------------------------
// Request-model constraints (captured 2026-08-13, byte-identical in
// eu-west-2 and us-east-1: the no-echo forms)
// ---------------------------------------------------------------------------

#[test]
fn short_index_name_rejects_without_a_value_echo() {
    // "Value at", not "Value '<x>' at" (captured 2026-08-13).
    let err = request_model_error(serde_json::from_value(json!({
        "TableName": "T", "IndexName": "ab",
        "SearchVector": [{"N": "1"}], "TopK": 1
    })));
    assert_eq!(
        err,
        "1 validation error detected: Value at 'IndexName' failed to satisfy constraint: \
         Member must have length greater than or equal to 3"
    );
}

#[test]
fn overlong_index_name_rejects_with_the_upper_bound() {
    // The 255 upper bound mirrors the CreateTable family; its wording for
    // this operation is uncaptured beyond the captured no-echo form.
    let err = request_model_error(serde_json::from_value(json!({
        "TableName": "T", "IndexName": "x".repeat(256),
        "SearchVector": [{"N": "1"}], "TopK": 1
    })));
    assert_eq!(
        err,
        "1 validation error detected: Value at 'IndexName' failed to satisfy constraint: \
         Member must have length less than or equal to 255"
    );
}

#[test]
fn empty_search_vector_rejects_without_a_value_echo() {
    let err = request_model_error(serde_json::from_value(json!({
        "TableName": "T", "IndexName": "vix",
        "SearchVector": [], "TopK": 1
    })));
    assert_eq!(
        err,
        "1 validation error detected: Value at 'SearchVector' failed to satisfy constraint: \
         Member must have length greater than or equal to 1"
    );
}

// ---------------------------------------------------------------------------
// TopK shapes that never reach the request model: the i32 field rejects them
// inside serde (captured 2026-08-13 over the wire, where serde_json's
// position suffix is naturally present; `from_value` has no position, so
// these pin the captured message minus the tail)
// ---------------------------------------------------------------------------

#[test]
fn top_k_fractional_rejects_inside_serde_with_the_captured_message_shape() {
    let err = as_read_error(serde_json::from_value::<SearchVectorsRequest>(json!({
        "TableName": "T", "IndexName": "vix",
        "SearchVector": [{"N": "1"}], "TopK": 3.5
    })));
    assert_eq!(err, "invalid type: floating point `3.5`, expected i32");
}

#[test]
fn top_k_out_of_range_floats_reject_without_echoing_saturated_sentinels() {
    for (v, spelled) in [(1e300, "1e+300"), (-1e300, "-1e+300")] {
        let err = as_read_error(serde_json::from_value::<SearchVectorsRequest>(json!({
            "TableName": "T", "IndexName": "vix",
            "SearchVector": [{"N": "1"}], "TopK": v
        })));
        assert_eq!(
            err,
            format!("invalid type: floating point `{spelled}`, expected i32"),
            "no saturated i64/i32 sentinel may leak into the message"
        );
    }
}

// ---------------------------------------------------------------------------
// Response surface and index maintenance end to end
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "current_thread")]
async fn empty_table_search_returns_an_empty_search_results_array() {
    let storage = Storage::memory().unwrap();
    create_two_dim_fixture(&storage, "VecNone", "COSINE").await;

    let resp = search(
        &storage,
        json!({
            "TableName": "VecNone", "IndexName": "vix",
            "SearchVector": n_vec(&["1", "0"]), "TopK": 10
        }),
    )
    .await
    .unwrap();
    assert_eq!(
        serde_json::to_string(&resp).unwrap(),
        r#"{"SearchResults":[]}"#
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_nested_path_in_the_condition_is_rejected_not_silently_empty() {
    // Captured eu-west-2, 2026-08-19: a condition on a nested attribute is
    // refused outright, and the same message covers a HASH element and an
    // INLINE_FILTER one. Answering with an empty result set instead would let
    // a malformed search look like a search that matched nothing.
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecNest").await;

    // Both expressions share one body, so the first leaves #c and :c unused:
    // the nested refusal still comes first (captured eu-west-2 and us-east-1,
    // 23 October 2026).
    for expr in ["#t.deep = :t", "#t = :t AND #c.deep = :c"] {
        let err = search(
            &storage,
            json!({
                "TableName": "VecNest", "IndexName": "schema",
                "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 5,
                "SearchConditionExpression": expr,
                "ExpressionAttributeNames": {"#t": "tenant", "#c": "category"},
                "ExpressionAttributeValues": {":t": {"S": "t1"}, ":c": {"S": "c1"}}
            }),
        )
        .await
        .expect_err("a nested condition is refused");
        assert_eq!(
            err.to_string(),
            "Invalid SearchConditionExpression: SearchConditionExpression cannot have \
             conditions on nested attributes",
            "expression: {expr}"
        );
    }
}

#[tokio::test(flavor = "current_thread")]
async fn two_conditions_on_one_attribute_are_rejected_however_they_are_ordered() {
    // Captured eu-west-2, 2026-08-19. DynamoDB allows exactly one condition per
    // attribute: two that contradict, two that agree, and two with a type error
    // among them all give the same message, and reordering does not change it.
    // So an engine that tries to reconcile two scope values is modelling
    // something the wire never accepts.
    let storage = Storage::memory().unwrap();
    create_schema_fixture(&storage, "VecDup").await;

    let cases = [
        (
            json!({":a": {"S": "x"}, ":b": {"S": "y"}}),
            "#t = :a AND #t = :b",
        ),
        (json!({":a": {"S": "t1"}}), "#t = :a AND #t = :a"),
        (
            json!({":a": {"S": "x"}, ":b": {"S": "y"}, ":c": {"N": "1"}}),
            "#t = :a AND #t = :b AND #t = :c",
        ),
        (
            json!({":a": {"S": "x"}, ":b": {"S": "y"}, ":c": {"N": "1"}}),
            "#t = :c AND #t = :a AND #t = :b",
        ),
    ];
    for (values, expr) in cases {
        let err = search(
            &storage,
            json!({
                "TableName": "VecDup", "IndexName": "schema",
                "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 5,
                "SearchConditionExpression": expr,
                "ExpressionAttributeNames": {"#t": "tenant"},
                "ExpressionAttributeValues": values
            }),
        )
        .await
        .expect_err("one condition per attribute");
        assert_eq!(
            err.to_string(),
            "Invalid SearchConditionExpression: SearchConditionExpression must only contain \
             one condition per attribute",
            "expression: {expr}"
        );
    }
}

#[tokio::test(flavor = "current_thread")]
async fn consumed_capacity_reports_request_bytes_alone_under_total_and_indexes() {
    // Captured 2026-08-11, eu-west-2: a search reports VectorSearchRequestBytes
    // and nothing else. No CapacityUnits, no TableName, no Table arm, and the
    // two modes read identically. 1024.0 is the billable floor, which the
    // capture's three-dimensional fixture also reported.
    let storage = Storage::memory().unwrap();
    create_distance_fixture(&storage, "VecCap").await;

    for rcc in ["INDEXES", "TOTAL"] {
        let resp = search(
            &storage,
            json!({
                "TableName": "VecCap", "IndexName": "cosine",
                "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
                "ReturnConsumedCapacity": rcc
            }),
        )
        .await
        .unwrap();
        let body = serde_json::to_value(&resp).unwrap();
        assert_eq!(
            body["ConsumedCapacity"],
            json!({"VectorSearchRequestBytes": 1024.0}),
            "capacity shape under {rcc}"
        );
    }
}

#[tokio::test(flavor = "current_thread")]
async fn consumed_capacity_is_absent_under_none_and_when_unasked() {
    let storage = Storage::memory().unwrap();
    create_distance_fixture(&storage, "VecCap2").await;

    for rcc in [Some("NONE"), None] {
        let mut req = json!({
            "TableName": "VecCap2", "IndexName": "cosine",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1
        });
        if let Some(mode) = rcc {
            req["ReturnConsumedCapacity"] = json!(mode);
        }
        let resp = search(&storage, req).await.unwrap();
        let body = serde_json::to_string(&resp).unwrap();
        assert!(
            !body.contains("ConsumedCapacity"),
            "unexpected capacity under {rcc:?}: {body}"
        );
    }
}

/// A one-index table whose entries are large enough to clear the 1KB floor,
/// so a capacity assertion over it can tell one sizing model from another.
/// `entries` controls how many the index holds, which is what the search
/// figure is sized on.
async fn create_above_floor_fixture(storage: &Storage, table: &str, entries: usize) {
    create_table(
        storage,
        json!({
            "TableName": table,
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST",
            "VectorIndexes": [
                {"IndexName": "vix", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 3, "DistanceFunction": "COSINE",
                 "Projection": {"ProjectionType": "ALL"}}
            ]
        }),
    )
    .await;
    for i in 0..entries {
        put_item(
            storage,
            table,
            json!({
                "pk": {"S": format!("k{i:03}")},
                "blob": {"S": "x".repeat(500)},
                "embedding": {"L": n_vec(&["1", "0", "0"])}
            }),
        )
        .await;
    }
}

#[tokio::test(flavor = "current_thread")]
async fn search_capacity_sizes_on_the_entries_scanned_not_the_results_returned() {
    // The search axis has no oracle. Real DynamoDB does not reproduce its own
    // figure: five identical searches over one unchanged index reported 14214,
    // 13903, 14214, 14214 and 14518 in eu-west-2 on 2026-08-18. So this pins
    // Dynoxide's deterministic answer, not an AWS number, and it must sit above
    // the 1024 floor or it cannot tell one model from another. Every other
    // search capacity assertion in this file sits on the floor and would pass
    // against any model at all. The unit is the captured write measure, summed
    // over the entries scanned and read from the column each write stores.
    let storage = Storage::memory().unwrap();
    create_above_floor_fixture(&storage, "VecAbove", 3).await;

    // TopK does not move the figure: the charge is for the entries scanned, so
    // asking for one result costs the same as asking for all three.
    let mut seen = Vec::new();
    for top_k in [1, 3] {
        let resp = search(
            &storage,
            json!({
                "TableName": "VecAbove", "IndexName": "vix",
                "SearchVector": n_vec(&["1", "0", "0"]), "TopK": top_k,
                "ReturnConsumedCapacity": "INDEXES"
            }),
        )
        .await
        .unwrap();
        let bytes =
            serde_json::to_value(&resp).unwrap()["ConsumedCapacity"]["VectorSearchRequestBytes"]
                .as_f64()
                .expect("a search asked for capacity reports it");
        assert!(
            bytes > 1024.0,
            "TopK {top_k} reported {bytes}, which is at or below the floor, so \
             this assertion cannot distinguish two sizing models"
        );
        seen.push(bytes);
    }
    assert_eq!(seen[0], seen[1], "TopK must not move the scanned figure");
    // 3 entries at 531 bytes each, by the captured formula: 4 * 3 dimensions,
    // plus 9 for the vector attribute's name, plus the item size of the
    // rest of the entry (6 for pk, 504 for the blob).
    assert_eq!(seen[0], 1593.0);
}

#[tokio::test(flavor = "current_thread")]
async fn search_capacity_grows_with_the_number_of_entries_scanned() {
    // The companion property: the figure is sized on what the search read, so
    // doubling the entries doubles it. A model sized on the query, the request
    // or the results would report the same for both.
    let storage = Storage::memory().unwrap();
    create_above_floor_fixture(&storage, "VecGrow3", 3).await;
    create_above_floor_fixture(&storage, "VecGrow6", 6).await;

    let mut figures = Vec::new();
    for table in ["VecGrow3", "VecGrow6"] {
        let resp = search(
            &storage,
            json!({
                "TableName": table, "IndexName": "vix",
                "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 1,
                "ReturnConsumedCapacity": "INDEXES"
            }),
        )
        .await
        .unwrap();
        figures.push(
            serde_json::to_value(&resp).unwrap()["ConsumedCapacity"]["VectorSearchRequestBytes"]
                .as_f64()
                .expect("a search asked for capacity reports it"),
        );
    }

    assert_eq!(figures[0], 1593.0, "three entries");
    assert_eq!(figures[1], 3186.0, "six entries");
    assert_eq!(
        figures[1],
        figures[0] * 2.0,
        "the figure must track the entries scanned"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn remove_update_deindexes_the_item_end_to_end() {
    let storage = Storage::memory().unwrap();
    create_distance_fixture(&storage, "VecRemove").await;

    let update: dynoxide::actions::update_item::UpdateItemRequest = serde_json::from_value(json!({
        "TableName": "VecRemove",
        "Key": {"pk": {"S": "a"}},
        "UpdateExpression": "REMOVE embedding"
    }))
    .unwrap();
    dynoxide::actions::update_item::execute(&storage, update)
        .await
        .unwrap();

    let resp = search(
        &storage,
        json!({
            "TableName": "VecRemove", "IndexName": "cosine",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 10
        }),
    )
    .await
    .unwrap();
    let mut pks: Vec<String> = scores(&resp).into_iter().map(|(pk, _)| pk).collect();
    pks.sort();
    assert_eq!(pks, ["b", "c", "d"], "the de-indexed item must not score");
}

#[tokio::test(flavor = "current_thread")]
async fn four_thousand_ninety_six_dimension_vectors_search() {
    let storage = Storage::memory().unwrap();
    create_table(
        &storage,
        json!({
            "TableName": "VecWide",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST",
            "VectorIndexes": [
                {"IndexName": "vix", "VectorAttribute": {"AttributeName": "embedding"},
                 "Dimensions": 4096, "DistanceFunction": "COSINE",
                 "Projection": {"ProjectionType": "ALL"}}
            ]
        }),
    )
    .await;

    // Unit basis vectors: e0 self-matches the query, e1 is orthogonal.
    let basis = |one_at: usize| -> serde_json::Value {
        json!(
            (0..4096)
                .map(|i| json!({"N": if i == one_at { "1" } else { "0" }}))
                .collect::<Vec<_>>()
        )
    };
    for (pk, at) in [("a", 0), ("b", 1)] {
        put_item(
            &storage,
            "VecWide",
            json!({"pk": {"S": pk}, "embedding": {"L": basis(at)}}),
        )
        .await;
    }

    let resp = search(
        &storage,
        json!({
            "TableName": "VecWide", "IndexName": "vix",
            "SearchVector": basis(0), "TopK": 10
        }),
    )
    .await
    .unwrap();
    assert_eq!(
        scores(&resp),
        vec![("a".to_string(), 0.0), ("b".to_string(), 1.0)]
    );
}

// ---------------------------------------------------------------------------
// The creation window an UpdateTable index opens
//
// An index added to a live table refuses a search for the whole of its
// creation window, and keeps refusing for a period after DescribeTable reports
// it ACTIVE (captured eu-west-2, 2026-08-11). The clock is driven rather than
// waited on.
// ---------------------------------------------------------------------------

/// A table seeded with five items and an index added afterwards, so the index
/// is inside its creation window when this returns.
async fn table_with_an_index_added_afterwards(
    storage: &Storage,
    lifecycle: &VectorIndexLifecycle,
    table: &str,
) {
    create_table(
        storage,
        json!({
            "TableName": table,
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST"
        }),
    )
    .await;
    for i in 0..5 {
        put_item(
            storage,
            table,
            json!({
                "pk": {"S": format!("item-{i}")},
                "embedding": {"L": n_vec(&[&i.to_string(), "1", "0"])}
            }),
        )
        .await;
    }
    let update: dynoxide::actions::update_table::UpdateTableRequest =
        serde_json::from_value(json!({
            "TableName": table,
            "VectorIndexUpdates": [{"Create": {
                "IndexName": "vix", "VectorAttribute": {"AttributeName": "embedding"},
                "Dimensions": 3, "DistanceFunction": "COSINE",
                "Projection": {"ProjectionType": "ALL"}
            }}]
        }))
        .unwrap();
    dynoxide::actions::update_table::execute(storage, update, lifecycle)
        .await
        .unwrap();
}

fn query(table: &str) -> serde_json::Value {
    json!({
        "TableName": table, "IndexName": "vix",
        "SearchVector": n_vec(&["1", "1", "0"]), "TopK": 5
    })
}

#[tokio::test(flavor = "current_thread")]
async fn a_search_refuses_for_the_whole_creation_window_then_returns_every_item() {
    let clock = ManualClock::new(ARMED);
    let storage = Storage::memory().unwrap().with_clock(clock.arc());
    let lifecycle = VectorIndexLifecycle::new();
    table_with_an_index_added_afterwards(&storage, &lifecycle, "VecWindow").await;

    // While the index reports CREATING.
    let err = search_with(&storage, &lifecycle, query("VecWindow"))
        .await
        .unwrap_err();
    assert!(
        matches!(err, dynoxide::DynoxideError::ValidationException(_)),
        "expected a ValidationException, got {err:?}"
    );
    assert_eq!(
        err.to_string(),
        "Cannot search backfilling vector index: vix"
    );

    // And after it reports ACTIVE, which is the trap a poll-until-ACTIVE
    // readiness check falls into on AWS.
    advance_to_active_not_searchable(&clock);
    let err = search_with(&storage, &lifecycle, query("VecWindow"))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Cannot search backfilling vector index: vix"
    );

    // The first search that succeeds carries every seeded item, never a
    // partial view.
    advance_past_the_window(&clock);
    let resp = search_with(&storage, &lifecycle, query("VecWindow"))
        .await
        .unwrap();
    assert_eq!(scores(&resp).len(), 5);
}

#[tokio::test(flavor = "current_thread")]
async fn an_index_that_does_not_exist_still_answers_its_own_message() {
    let clock = ManualClock::new(ARMED);
    let storage = Storage::memory().unwrap().with_clock(clock.arc());
    let lifecycle = VectorIndexLifecycle::new();
    table_with_an_index_added_afterwards(&storage, &lifecycle, "VecMissing").await;

    let err = search_with(
        &storage,
        &lifecycle,
        json!({
            "TableName": "VecMissing", "IndexName": "absent",
            "SearchVector": n_vec(&["1", "1", "0"]), "TopK": 5
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "The table does not have the specified index: absent"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn an_index_created_with_its_table_is_searchable_immediately() {
    let storage = Storage::memory().unwrap();
    let lifecycle = VectorIndexLifecycle::new();
    create_distance_fixture(&storage, "VecNow").await;

    let resp = search_with(
        &storage,
        &lifecycle,
        json!({
            "TableName": "VecNow", "IndexName": "cosine",
            "SearchVector": n_vec(&["1", "0", "0"]), "TopK": 4
        }),
    )
    .await
    .unwrap();
    assert_eq!(scores(&resp).len(), 4);
}

/// Where the refusal sits relative to the vector and SearchSchema checks is
/// uncaptured, so this pins the choice rather than a captured behaviour: the
/// refusal comes first, matching the operation's other resource-state answers
/// rather than its input validation.
#[tokio::test(flavor = "current_thread")]
async fn a_malformed_search_against_a_creating_index_reports_the_refusal_first() {
    let clock = ManualClock::new(ARMED);
    let storage = Storage::memory().unwrap().with_clock(clock.arc());
    let lifecycle = VectorIndexLifecycle::new();
    table_with_an_index_added_afterwards(&storage, &lifecycle, "VecMalformed").await;

    let err = search_with(
        &storage,
        &lifecycle,
        json!({
            "TableName": "VecMalformed", "IndexName": "vix",
            "SearchVector": n_vec(&["1", "0"]), "TopK": 5
        }),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Cannot search backfilling vector index: vix"
    );

    // Past the window the same request reports the dimension mismatch, so the
    // refusal is masking that answer rather than replacing it.
    advance_past_the_window(&clock);
    let err = search_with(
        &storage,
        &lifecycle,
        json!({
            "TableName": "VecMalformed", "IndexName": "vix",
            "SearchVector": n_vec(&["1", "0"]), "TopK": 5
        }),
    )
    .await
    .unwrap_err();
    assert!(
        err.to_string().contains("dimension"),
        "expected the dimension mismatch, got {err}"
    );
}
