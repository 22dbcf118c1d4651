//! How many times the engine repeats work it has already done.
//!
//! Two open performance questions are about counts rather than durations:
//! whether an index entry is rebuilt when one was already to hand, and whether a
//! batch resolves the same table's metadata once or twice per statement. Both
//! are answered exactly here and identically on every machine.
//!
//! Run with `cargo test --features bench-counters --test repeated_work_counts`.
//! Without the feature the counters compile to nothing and every test skips, so
//! the default `cargo test` is unaffected.
//!
//! The counters are process-wide, and the test harness runs tests in parallel by
//! default, so a measurement can pick up another test's work. That is not a
//! hypothetical: read under parallel threads, an insert into a two-index table
//! reported 8 entries built where the true figure is 2, and an insert costing
//! more than an overwrite is the opposite of the answer. Every test therefore
//! takes `METER` for its whole body, so the counters mean what they say however
//! the suite is run.
//!
//! The metadata figure is the one worth reading carefully. It is counted at the
//! `StorageBackend` boundary, so it is what a *caller* asks for, not what a
//! backend does about it. The native backend answers most of them from a
//! `RefCell` cache and the wasm backend crosses a bridge to a JS worker for
//! every one of them, caching nothing. The count is the same either way, which
//! is what makes the wasm cost measurable without a browser.

#![cfg(feature = "bench-counters")]

use dynoxide::Database;
use dynoxide::bench_counters::{Counts, reset, snapshot};
use std::sync::{Mutex, MutexGuard};

const TABLE: &str = "counts_tbl";

/// A table with two indexes, which is the shape that shows repeated index work.
fn two_index_table() -> Database {
    let db = Database::memory().unwrap();
    db.create_table(
        serde_json::from_value(serde_json::json!({
            "TableName": TABLE,
            "KeySchema": [
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"}
            ],
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
                {"AttributeName": "gsiPk", "AttributeType": "S"},
                {"AttributeName": "lsiSk", "AttributeType": "S"}
            ],
            "BillingMode": "PAY_PER_REQUEST",
            "GlobalSecondaryIndexes": [{
                "IndexName": "gsi-inc",
                "KeySchema": [{"AttributeName": "gsiPk", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["proj"]}
            }],
            "LocalSecondaryIndexes": [{
                "IndexName": "lsi-all",
                "KeySchema": [
                    {"AttributeName": "pk", "KeyType": "HASH"},
                    {"AttributeName": "lsiSk", "KeyType": "RANGE"}
                ],
                "Projection": {"ProjectionType": "ALL"}
            }]
        }))
        .unwrap(),
    )
    .unwrap();
    db
}

fn put(db: &Database, sk: &str, mode: Option<&str>) {
    let mut req = serde_json::json!({
        "TableName": TABLE,
        "Item": {
            "pk": {"S": "p"}, "sk": {"S": sk},
            "gsiPk": {"S": "g"}, "lsiSk": {"S": "l"},
            "proj": {"S": "v"}, "other": {"S": "w"}
        }
    });
    if let Some(mode) = mode {
        req["ReturnConsumedCapacity"] = serde_json::json!(mode);
    }
    db.put_item(serde_json::from_value(req).unwrap()).unwrap();
}

static METER: Mutex<()> = Mutex::new(());

/// Claim the counters for one test, for its whole body.
///
/// It has to cover the setup too, not just the measurements. Building a fixture
/// table reads metadata, so a test still in `two_index_table` lands its reads in
/// whatever another test is measuring at that moment. Guarding only `measure`
/// leaves that hole open, and it is the hole that made an insert read as 8
/// entries built rather than 2.
fn meter() -> MutexGuard<'static, ()> {
    // A panicking test would otherwise poison the lock and turn every later test
    // into a second, unrelated failure that buries the real one.
    METER.lock().unwrap_or_else(|e| e.into_inner())
}

/// Count what one operation costs, with the setup already done. Call `meter()`
/// at the top of the test first.
fn measure(f: impl FnOnce()) -> Counts {
    reset();
    f();
    snapshot()
}

// --- index entries rebuilt on a write -------------------------------------

#[test]
fn report_index_entry_builds_on_an_overwrite() {
    let _meter = meter();
    let db = two_index_table();
    put(&db, "s1", None); // seed, so the write measured below has an old image

    let without = measure(|| put(&db, "s1", None));
    let with_indexes = measure(|| put(&db, "s1", Some("INDEXES")));

    println!(
        "overwrite, two indexes, capacity not asked for : {} index entries built",
        without.index_entries_built
    );
    println!(
        "overwrite, two indexes, INDEXES requested      : {} index entries built",
        with_indexes.index_entries_built
    );

    // The floor is one projected entry per index: the fan-out has to build the
    // row it stores. An overwrite with no capacity asked for now sits on that
    // floor, so it costs an insert's projections rather than an insert's plus a
    // pass over the old image that only sizing wanted.
    assert_eq!(
        without.index_entries_built, 2,
        "an overwrite reporting no capacity should build one entry per index"
    );

    // Sizing an index needs the old image projected as well, and that is the
    // whole of the difference. Asking for capacity is what pays for it.
    assert_eq!(
        with_indexes.index_entries_built, 4,
        "sizing two indexes needs the old image projected for each"
    );
}

#[test]
fn report_index_entry_builds_on_an_insert() {
    let _meter = meter();
    let db = two_index_table();
    let counts = measure(|| put(&db, "fresh", None));
    println!(
        "insert, two indexes, capacity not asked for    : {} index entries built",
        counts.index_entries_built
    );

    // One entry per index and nothing more. An insert has no old image, so
    // there is nothing for sizing to project even when capacity is asked for,
    // which is what makes this the floor the overwrite test measures against.
    assert_eq!(
        counts.index_entries_built, 2,
        "an insert should build one entry per index"
    );
}

// --- metadata resolved per statement in a batch ---------------------------

fn batch(db: &Database, count: usize) {
    let statements: Vec<serde_json::Value> = (0..count)
        .map(|i| {
            serde_json::json!({
                "Statement": format!(
                    "INSERT INTO \"{TABLE}\" VALUE {{'pk':'p','sk':'b{i}','gsiPk':'g','lsiSk':'l'}}"
                )
            })
        })
        .collect();
    db.batch_execute_statement(
        serde_json::from_value(serde_json::json!({"Statements": statements})).unwrap(),
    )
    .unwrap();
}

#[test]
fn report_metadata_reads_across_a_batch() {
    let _meter = meter();
    let db = two_index_table();

    let one = measure(|| batch(&db, 1));
    let twenty_five = measure(|| batch(&db, 25));

    println!(
        "batch of 1  : {} metadata reads, {} key schema parses",
        one.metadata_reads, one.key_schema_parses
    );
    println!(
        "batch of 25 : {} metadata reads, {} key schema parses",
        twenty_five.metadata_reads, twenty_five.key_schema_parses
    );
    println!(
        "per statement: {:.1} metadata reads, {:.1} key schema parses",
        twenty_five.metadata_reads as f64 / 25.0,
        twenty_five.key_schema_parses as f64 / 25.0
    );

    // One table, so one resolution does for the whole batch. The figure not
    // moving with the statement count is the whole point: metadata and key
    // schema are per-table facts, and only the item key is per statement.
    assert_eq!(
        one.metadata_reads, 1,
        "a single-statement batch resolves its table once"
    );
    assert_eq!(
        twenty_five.metadata_reads, 1,
        "25 statements against one table still resolve it once"
    );
    assert_eq!(
        twenty_five.key_schema_parses, 1,
        "the parsed key schema is kept alongside the metadata"
    );
}

#[test]
fn report_metadata_reads_for_a_single_statement() {
    let _meter = meter();
    let db = two_index_table();
    let counts = measure(|| {
        db.execute_statement(
            serde_json::from_value(serde_json::json!({
                "Statement": format!(
                    "INSERT INTO \"{TABLE}\" VALUE {{'pk':'p','sk':'one','gsiPk':'g','lsiSk':'l'}}"
                )
            }))
            .unwrap(),
        )
        .unwrap();
    });
    println!(
        "single ExecuteStatement insert: {} metadata reads, {} key schema parses",
        counts.metadata_reads, counts.key_schema_parses
    );

    // A single statement has no preparation pass to share a resolution with, so
    // the executor resolves the table itself. Once is the floor, and pinning it
    // here is what would catch a caller that starts resolving ahead of it again.
    assert_eq!(
        counts.metadata_reads, 1,
        "one statement should read its table's metadata once"
    );
    assert_eq!(counts.key_schema_parses, 1, "and parse its key schema once");
}

// --- index definitions parsed on a TTL sweep -------------------------------

const TTL_TABLE: &str = "counts_ttl";
const TTL_STREAM_TABLE: &str = "counts_ttl_stream";

/// A table with a GSI and an LSI, TTL enabled on `exp`.
fn ttl_table() -> Database {
    ttl_table_named(TTL_TABLE, false)
}

/// As [`ttl_table`], optionally with a stream, which is the path that reaches
/// `extract_keys` and so the one where a per-item key schema parse can hide.
fn ttl_table_streamed() -> Database {
    ttl_table_named(TTL_STREAM_TABLE, true)
}

fn ttl_table_named(name: &str, stream: bool) -> Database {
    let db = Database::memory().unwrap();
    let mut create = serde_json::json!({
            "TableName": name,
            "KeySchema": [
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"}
            ],
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
                {"AttributeName": "gsiPk", "AttributeType": "S"},
                {"AttributeName": "lsiSk", "AttributeType": "S"}
            ],
            "BillingMode": "PAY_PER_REQUEST",
            "GlobalSecondaryIndexes": [{
                "IndexName": "gsi-all",
                "KeySchema": [{"AttributeName": "gsiPk", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"}
            }],
            "LocalSecondaryIndexes": [{
                "IndexName": "lsi-all",
                "KeySchema": [
                    {"AttributeName": "pk", "KeyType": "HASH"},
                    {"AttributeName": "lsiSk", "KeyType": "RANGE"}
                ],
                "Projection": {"ProjectionType": "ALL"}
            }]
    });
    // Only when asked for: a view type alongside a disabled stream is rejected.
    if stream {
        create["StreamSpecification"] =
            serde_json::json!({"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"});
    }
    db.create_table(serde_json::from_value(create).unwrap())
        .unwrap();
    db.update_time_to_live(
        serde_json::from_value(serde_json::json!({
            "TableName": name,
            "TimeToLiveSpecification": {"Enabled": true, "AttributeName": "exp"}
        }))
        .unwrap(),
    )
    .unwrap();
    db
}

fn put_expired_in(db: &Database, table: &str, sk: &str) {
    db.put_item(
        serde_json::from_value(serde_json::json!({
            "TableName": table,
            "Item": {
                "pk": {"S": "p"}, "sk": {"S": sk},
                "gsiPk": {"S": "g"}, "lsiSk": {"S": sk},
                // Long past, so the sweep takes it.
                "exp": {"N": "1000000000"}
            }
        }))
        .unwrap(),
    )
    .unwrap();
}

#[test]
fn report_index_definition_parses_on_a_ttl_sweep() {
    // A sweep is precisely the case where many items expire together, because a
    // shared TTL is how they got there. The definitions belong to the table, so
    // the count must not follow the number of items.
    let _meter = meter();

    let few = {
        let db = ttl_table();
        for i in 0..2 {
            put_expired_in(&db, TTL_TABLE, &format!("s{i}"));
        }
        measure(|| assert_eq!(db.sweep_ttl().unwrap(), 2))
    };
    let many = {
        let db = ttl_table();
        for i in 0..20 {
            put_expired_in(&db, TTL_TABLE, &format!("s{i}"));
        }
        measure(|| assert_eq!(db.sweep_ttl().unwrap(), 20))
    };

    println!(
        "ttl sweep,  2 expired items : {} index definition sets parsed",
        few.index_defs_parses
    );
    println!(
        "ttl sweep, 20 expired items : {} index definition sets parsed",
        many.index_defs_parses
    );

    // Ten times the items must not mean ten times the parsing. Before the
    // definitions were hoisted out of the per-item loop it was exactly that:
    // two families parsed per item, so 4 against 40.
    assert_eq!(
        few.index_defs_parses, many.index_defs_parses,
        "index definition parses must not scale with the number of expired items"
    );
}

#[test]
fn report_key_schema_parses_on_a_streamed_ttl_sweep() {
    // A stream-enabled sweep records a REMOVE per expired item, and the key
    // extraction behind it took the schema as JSON, so it deserialised once per
    // item while the sweep already held the parsed form. The index definition
    // count above cannot see this: its table has no stream.
    let _meter = meter();

    let few = {
        let db = ttl_table_streamed();
        for i in 0..2 {
            put_expired_in(&db, TTL_STREAM_TABLE, &format!("s{i}"));
        }
        measure(|| assert_eq!(db.sweep_ttl().unwrap(), 2))
    };
    let many = {
        let db = ttl_table_streamed();
        for i in 0..20 {
            put_expired_in(&db, TTL_STREAM_TABLE, &format!("s{i}"));
        }
        measure(|| assert_eq!(db.sweep_ttl().unwrap(), 20))
    };

    println!(
        "streamed ttl sweep,  2 expired items : {} key schemas parsed",
        few.key_schema_parses
    );
    println!(
        "streamed ttl sweep, 20 expired items : {} key schemas parsed",
        many.key_schema_parses
    );

    assert_eq!(
        few.key_schema_parses, many.key_schema_parses,
        "key schema parses must not scale with the number of expired items"
    );
}

#[test]
fn report_definition_parses_on_a_ttl_sweep_spanning_pages() {
    // A sweep reads its table a page at a time. The definitions belong to the
    // table, so a sweep that needs several pages must parse them no more often
    // than one that fits in a single page.
    let _meter = meter();

    let one_page = {
        let db = ttl_table_streamed();
        for i in 0..20 {
            put_expired_in(&db, TTL_STREAM_TABLE, &format!("s{i:04}"));
        }
        measure(|| assert_eq!(db.sweep_ttl().unwrap(), 20))
    };
    let several_pages = {
        let db = ttl_table_streamed();
        for i in 0..120 {
            put_expired_in(&db, TTL_STREAM_TABLE, &format!("s{i:04}"));
        }
        measure(|| assert_eq!(db.sweep_ttl().unwrap(), 120))
    };

    println!(
        "ttl sweep,  20 expired items : {} index definition sets, {} key schemas parsed",
        one_page.index_defs_parses, one_page.key_schema_parses
    );
    println!(
        "ttl sweep, 120 expired items : {} index definition sets, {} key schemas parsed",
        several_pages.index_defs_parses, several_pages.key_schema_parses
    );

    assert_eq!(
        one_page.index_defs_parses, several_pages.index_defs_parses,
        "index definition parses must not scale with the number of pages swept"
    );
    assert_eq!(
        one_page.key_schema_parses, several_pages.key_schema_parses,
        "key schema parses must not scale with the number of pages swept"
    );
}

// --- reads of a table whose metadata is already cached --------------------

#[test]
fn report_key_schema_parses_on_reads() {
    // A read needs the table's key schema on every call. The metadata it comes
    // from changes only with the table, so once a read has loaded it no later
    // read parses it again, and each read asks the backend for it once.
    let _meter = meter();
    let db = two_index_table();
    put(&db, "s1", None);
    let get = || {
        db.get_item(
            serde_json::from_value(serde_json::json!({
                "TableName": TABLE,
                "Key": {"pk": {"S": "p"}, "sk": {"S": "s1"}}
            }))
            .unwrap(),
        )
        .unwrap()
    };
    let query = || {
        db.query(
            serde_json::from_value(serde_json::json!({
                "TableName": TABLE,
                "KeyConditionExpression": "pk = :p",
                "ExpressionAttributeValues": {":p": {"S": "p"}}
            }))
            .unwrap(),
        )
        .unwrap()
    };
    get();

    let warm_get = measure(|| assert!(get().item.is_some()));
    let warm_query = measure(|| assert_eq!(query().count, 1));
    println!(
        "warm GetItem : {} key schemas parsed, {} metadata reads",
        warm_get.key_schema_parses, warm_get.metadata_reads
    );
    println!(
        "warm Query   : {} key schemas parsed, {} metadata reads",
        warm_query.key_schema_parses, warm_query.metadata_reads
    );
    assert_eq!(warm_get.key_schema_parses, 0);
    assert_eq!(warm_query.key_schema_parses, 0);
    assert_eq!(warm_get.metadata_reads, 1);
    assert_eq!(warm_query.metadata_reads, 1);
}

// --- index reads and paginated reads of a table already cached ------------

/// What a warm read cost: the counters, and the expressions it parsed.
fn measure_with_expressions(f: impl FnOnce()) -> (Counts, usize) {
    let counts = measure(f);
    let expressions =
        dynoxide::bench_counters::EXPRESSION_PARSES.load(std::sync::atomic::Ordering::Relaxed);
    (counts, expressions)
}

fn query_json(
    db: &Database,
    request: serde_json::Value,
) -> dynoxide::actions::query::QueryResponse {
    db.query(serde_json::from_value(request).unwrap()).unwrap()
}

#[test]
fn report_definition_parses_on_index_and_paginated_reads() {
    // The index definitions, like the key schema, belong to the table: a read
    // of an index, or a page that starts from a cursor checked against the
    // key schema and the index's keys, must not parse them again while the
    // table's metadata is cached.
    let _meter = meter();
    let db = two_index_table();
    put(&db, "s1", None);
    put(&db, "s2", None);
    let gsi_query = serde_json::json!({
        "TableName": TABLE, "IndexName": "gsi-inc", "Limit": 1,
        "KeyConditionExpression": "gsiPk = :g",
        "ExpressionAttributeValues": {":g": {"S": "g"}}
    });
    let lsi_query = serde_json::json!({
        "TableName": TABLE, "IndexName": "lsi-all", "Limit": 1,
        "KeyConditionExpression": "pk = :p AND lsiSk = :l",
        "ExpressionAttributeValues": {":p": {"S": "p"}, ":l": {"S": "l"}}
    });
    let table_query = serde_json::json!({
        "TableName": TABLE, "Limit": 1,
        "KeyConditionExpression": "pk = :p",
        "FilterExpression": "proj = :v",
        "ExpressionAttributeValues": {":p": {"S": "p"}, ":v": {"S": "v"}}
    });
    let next_page = |request: &serde_json::Value| {
        let first = query_json(&db, request.clone());
        let mut next = request.clone();
        next["ExclusiveStartKey"] =
            serde_json::to_value(first.last_evaluated_key.unwrap()).unwrap();
        next
    };
    let (gsi_page, lsi_page, table_page) = (
        next_page(&gsi_query),
        next_page(&lsi_query),
        next_page(&table_query),
    );
    let gsi_scan = serde_json::json!({"TableName": TABLE, "IndexName": "gsi-inc", "Limit": 1});
    let scan_page = {
        let first = db
            .scan(serde_json::from_value(gsi_scan.clone()).unwrap())
            .unwrap();
        let mut next = gsi_scan.clone();
        next["ExclusiveStartKey"] =
            serde_json::to_value(first.last_evaluated_key.unwrap()).unwrap();
        next
    };

    let cases: [(&str, Box<dyn Fn()>, usize); 6] = [
        (
            "GSI Query          ",
            Box::new(|| assert_eq!(query_json(&db, gsi_query.clone()).count, 1)),
            1,
        ),
        (
            "LSI Query          ",
            Box::new(|| assert_eq!(query_json(&db, lsi_query.clone()).count, 1)),
            1,
        ),
        (
            "GSI Query, 2nd page",
            Box::new(|| assert_eq!(query_json(&db, gsi_page.clone()).count, 1)),
            1,
        ),
        (
            "LSI Query, 2nd page",
            Box::new(|| assert_eq!(query_json(&db, lsi_page.clone()).count, 1)),
            1,
        ),
        (
            "Query+filter, 2nd p",
            Box::new(|| assert_eq!(query_json(&db, table_page.clone()).count, 1)),
            2,
        ),
        (
            "GSI Scan, 2nd page ",
            Box::new(|| {
                db.scan(serde_json::from_value(scan_page.clone()).unwrap())
                    .unwrap();
            }),
            0,
        ),
    ];
    for (name, read, expressions) in cases {
        let (counts, parsed) = measure_with_expressions(read);
        println!(
            "warm {name}: {} index definition sets, {} key schemas, {} expressions parsed, {} metadata reads",
            counts.index_defs_parses, counts.key_schema_parses, parsed, counts.metadata_reads
        );
        assert_eq!(
            counts.index_defs_parses, 0,
            "{name}: index definitions parsed"
        );
        assert_eq!(counts.key_schema_parses, 0, "{name}: key schema parsed");
        assert_eq!(counts.metadata_reads, 1, "{name}: metadata reads");
        assert_eq!(parsed, expressions, "{name}: each expression parsed once");
    }
}

// --- writes to a table already cached --------------------------------------

fn write(db: &Database, operation: &str, request: serde_json::Value) {
    match operation {
        "PutItem" => drop(
            db.put_item(serde_json::from_value(request).unwrap())
                .unwrap(),
        ),
        "UpdateItem" => drop(
            db.update_item(serde_json::from_value(request).unwrap())
                .unwrap(),
        ),
        "DeleteItem" => drop(
            db.delete_item(serde_json::from_value(request).unwrap())
                .unwrap(),
        ),
        "BatchWriteItem" => drop(
            db.batch_write_item(serde_json::from_value(request).unwrap())
                .unwrap(),
        ),
        "TransactWriteItems" => drop(
            db.transact_write_items(serde_json::from_value(request).unwrap())
                .unwrap(),
        ),
        other => panic!("no such write: {other}"),
    }
}

#[test]
fn report_definition_and_expression_parses_on_writes() {
    // A write needs the table's key schema, its attribute definitions and its
    // index definitions on every call, and they change only with the table.
    // Its ConditionExpression and UpdateExpression change with the request,
    // and are parsed once each however many checks read them.
    let _meter = meter();
    let db = two_index_table();
    put(&db, "s1", None);
    let item = |sk: &str| {
        serde_json::json!({
            "pk": {"S": "p"}, "sk": {"S": sk}, "gsiPk": {"S": "g"}, "lsiSk": {"S": "l"},
            "proj": {"S": "v"}
        })
    };
    let key = |sk: &str| serde_json::json!({"pk": {"S": "p"}, "sk": {"S": sk}});
    let cases: Vec<(&str, &str, serde_json::Value, usize)> = vec![
        (
            "PutItem",
            "PutItem",
            serde_json::json!({
                "TableName": TABLE, "Item": item("s1"),
                "ConditionExpression": "attribute_exists(pk) AND proj = :v",
                "ExpressionAttributeValues": {":v": {"S": "v"}}
            }),
            1,
        ),
        (
            "UpdateItem",
            "UpdateItem",
            serde_json::json!({
                "TableName": TABLE, "Key": key("s1"),
                "UpdateExpression": "SET gsiPk = :g, note = :o",
                "ConditionExpression": "proj = :v",
                "ExpressionAttributeValues": {":g": {"S": "g"}, ":o": {"S": "o"}, ":v": {"S": "v"}},
                "ReturnValues": "UPDATED_NEW"
            }),
            2,
        ),
        (
            "DeleteItem",
            "DeleteItem",
            serde_json::json!({
                "TableName": TABLE, "Key": key("s1"),
                "ConditionExpression": "attribute_exists(pk)"
            }),
            1,
        ),
        (
            "BatchWriteItem",
            "BatchWriteItem",
            serde_json::json!({
                "RequestItems": {TABLE: [
                    {"PutRequest": {"Item": item("b1")}},
                    {"PutRequest": {"Item": item("b2")}},
                    {"DeleteRequest": {"Key": key("s0")}}
                ]}
            }),
            0,
        ),
        (
            "TransactWriteItems",
            "TransactWriteItems",
            serde_json::json!({
                "TransactItems": [
                    {"Put": {"TableName": TABLE, "Item": item("t1"),
                        "ConditionExpression": "attribute_not_exists(pk)"}},
                    {"Update": {"TableName": TABLE, "Key": key("b2"),
                        "UpdateExpression": "SET note = :o",
                        "ConditionExpression": "proj = :v",
                        "ExpressionAttributeValues": {":o": {"S": "o"}, ":v": {"S": "v"}}}},
                    {"ConditionCheck": {"TableName": TABLE, "Key": key("s2"),
                        "ConditionExpression": "attribute_not_exists(pk)"}}
                ]
            }),
            4,
        ),
    ];
    put(&db, "s0", None); // the table's metadata loaded, its index definitions read
    for (name, operation, request, expressions) in cases {
        let (counts, parsed) = measure_with_expressions(|| write(&db, operation, request));
        println!(
            "warm {name:18}: {} index definition sets, {} key schemas, {} expressions parsed",
            counts.index_defs_parses, counts.key_schema_parses, parsed
        );
        assert_eq!(
            counts.index_defs_parses, 0,
            "{name}: index definitions parsed"
        );
        assert_eq!(counts.key_schema_parses, 0, "{name}: key schema parsed");
        assert_eq!(parsed, expressions, "{name}: each expression parsed once");
    }
}

#[test]
fn report_key_schema_parses_on_a_streamed_write() {
    // A table with a stream records each write's keys, which were taken from
    // the key schema's JSON once per record.
    let _meter = meter();
    let db = ttl_table_streamed();
    put_expired_in(&db, TTL_STREAM_TABLE, "s0");
    let counts = measure(|| put_expired_in(&db, TTL_STREAM_TABLE, "s1"));
    println!(
        "warm PutItem, streamed table: {} key schemas, {} index definition sets parsed",
        counts.key_schema_parses, counts.index_defs_parses
    );
    assert_eq!(counts.key_schema_parses, 0);
    assert_eq!(counts.index_defs_parses, 0);
}
