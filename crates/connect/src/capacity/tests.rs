//! The throughput rules on the virtual clock, request by request through `dispatch::run`:
//! partition limits, sharding, provisioned burst, GSI back-pressure, batches, transactions and
//! what the caller sees of consumed capacity.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::*;
use crate::dispatch::{self, Origin};
use crate::engine::Engine;

const TARGET: &str = "DynamoDB_20120810.";

struct Rig {
    engine: Engine,
    clock: VirtualClock,
}

impl Rig {
    fn new(scale: f64) -> Rig {
        let clock = VirtualClock::new();
        let settings = Settings::default()
            .scale(scale)
            .clock(Arc::new(clock.clone()));
        let engine = Engine::memory().unwrap().with_capacity(settings);
        Rig { engine, clock }
    }

    fn call(&self, operation: &str, body: Value) -> (u16, Value) {
        let target = format!("{TARGET}{operation}");
        let answer = dispatch::run(
            &self.engine,
            Origin::Http,
            Some(&target),
            body.to_string().as_bytes(),
        );
        (answer.status, serde_json::from_slice(&answer.body).unwrap())
    }

    fn ok(&self, operation: &str, body: Value) -> Value {
        let (status, body) = self.call(operation, body);
        assert_eq!(status, 200, "{operation}: {body}");
        body
    }

    /// An on-demand table `Tbl` (PK, SK) with GSI1 on (GSI1PK, SK); `provisioned` makes it
    /// provisioned with that many RCU and WCU on the table and the index.
    fn table(&self, provisioned: Option<(u32, u32)>) {
        self.ok("CreateTable", create_table(provisioned));
    }

    fn at(&self, seconds: f64) {
        self.clock.set(Duration::from_secs_f64(seconds));
    }

    fn units(&self, index: Option<&str>) -> (f64, f64, u64) {
        let snapshot = self.engine.capacity().unwrap().snapshot();
        snapshot
            .resources
            .iter()
            .find(|r| r.table == "Tbl" && r.index.as_deref() == index)
            .map_or((0.0, 0.0, 0), |r| {
                (
                    r.read_units,
                    r.write_units,
                    r.throttled_reads + r.throttled_writes,
                )
            })
    }
}

/// The CreateTable request of [`Rig::table`].
fn create_table(provisioned: Option<(u32, u32)>) -> Value {
    let mut request = json!({
        "TableName": "Tbl",
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"}
        ],
        "GlobalSecondaryIndexes": [{
            "IndexName": "GSI1",
            "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}
        }],
        "BillingMode": "PAY_PER_REQUEST"
    });
    if let Some((read, write)) = provisioned {
        let throughput = json!({"ReadCapacityUnits": read, "WriteCapacityUnits": write});
        request["BillingMode"] = json!("PROVISIONED");
        request["ProvisionedThroughput"] = throughput.clone();
        request["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"] = throughput;
    }
    request
}

/// An item of `bytes` bytes (as DynamoDB sizes it) at (`pk`, `sk`).
fn item(pk: &str, sk: &str, bytes: usize, gsi: Option<&str>) -> Value {
    let mut item = json!({"PK": {"S": pk}, "SK": {"S": sk}});
    let mut used = 2 + pk.len() + 2 + sk.len();
    if let Some(g) = gsi {
        item["GSI1PK"] = json!({"S": g});
        used += 6 + g.len();
    }
    item["data"] = json!({"S": "x".repeat(bytes - used - 4)});
    item
}

/// Write 1 KB items at `per_second` for `seconds`, to `keys` partition keys in turn; the
/// statuses.
fn drive_writes(rig: &Rig, per_second: u32, seconds: u32, keys: &[String]) -> Vec<u16> {
    let step = 1.0 / f64::from(per_second);
    (0..per_second * seconds)
        .map(|i| {
            rig.at(f64::from(i) * step);
            let pk = &keys[i as usize % keys.len()];
            let body = json!({"TableName": "Tbl", "Item": item(pk, &format!("S#{i}"), 1000, None)});
            rig.call("PutItem", body).0
        })
        .collect()
}

#[test]
fn a_constant_key_written_at_2000_items_a_second_gets_1000_wcu_a_second() {
    let rig = Rig::new(1.0);
    rig.table(None);
    let statuses = drive_writes(&rig, 2000, 6, &["HOT".to_string()]);
    // The first second spends the partition's full bucket; from then on it is the rate.
    rig.at(1.0);
    let per_second = 2000;
    let after_first: usize = statuses[per_second..].iter().filter(|s| **s == 200).count();
    let rate = after_first as f64 / 5.0;
    assert!(
        (rate - 1000.0).abs() <= 50.0,
        "{rate} WCU/s after the first second"
    );
    let throttled = statuses.iter().filter(|s| **s == 400).count();
    assert!(throttled > 4000, "{throttled} throttled");
    let (_, units, counted) = rig.units(None);
    assert_eq!(counted as usize, throttled);
    assert!(
        (units - (statuses.len() - throttled) as f64).abs() < 1e-6,
        "1 WCU each: {units}"
    );
}

#[test]
fn the_same_traffic_sharded_eight_ways_is_not_throttled() {
    let rig = Rig::new(1.0);
    rig.table(None);
    let keys: Vec<String> = (0..8).map(|i| format!("HOT#{i}")).collect();
    let statuses = drive_writes(&rig, 2000, 6, &keys);
    assert!(statuses.iter().all(|s| *s == 200));
}

#[test]
fn strongly_consistent_4kb_reads_of_one_key_get_3000_rcu_a_second() {
    let rig = Rig::new(1.0);
    rig.table(None);
    rig.ok(
        "PutItem",
        json!({"TableName": "Tbl", "Item": item("HOT", "A", 4000, None)}),
    );
    let get = json!({"TableName": "Tbl", "Key": {"PK": {"S": "HOT"}, "SK": {"S": "A"}}, "ConsistentRead": true});
    let per_second = 6000u32;
    let mut served_after_first = 0;
    for i in 0..per_second * 4 {
        rig.at(10.0 + f64::from(i) / f64::from(per_second));
        let (status, body) = rig.call("GetItem", get.clone());
        if status == 400 {
            assert_eq!(
                body["ThrottlingReasons"][0]["reason"],
                "TableReadKeyRangeThroughputExceeded"
            );
        }
        if status == 200 && i >= per_second {
            served_after_first += 1;
        }
    }
    let rate = f64::from(served_after_first) / 3.0;
    assert!((rate - 3000.0).abs() <= 150.0, "{rate} RCU/s");
}

#[test]
fn a_provisioned_tables_burst_lasts_as_long_as_the_unused_capacity_it_kept() {
    // 10 WCU/s, idle for 400 s: 300 s of unused capacity (3,000 units) is kept. Written at 20
    // WCU/s, the burst pays the 10 units/s over the provisioned rate for 300 s.
    let rig = Rig::new(1.0);
    rig.table(Some((10, 10)));
    let start = 400.0;
    let mut first_throttle = None;
    for i in 0..20 * 400u32 {
        let t = start + f64::from(i) / 20.0;
        rig.at(t);
        let body = json!({"TableName": "Tbl", "Item": item(&format!("K#{i}"), "S", 1000, None)});
        let (status, answer) = rig.call("PutItem", body);
        if status == 400 {
            assert_eq!(
                answer["ThrottlingReasons"][0]["reason"],
                "TableWriteProvisionedThroughputExceeded"
            );
            first_throttle = Some(t - start);
            break;
        }
    }
    let lasted = first_throttle.expect("throttled once the burst ran out");
    assert!((lasted - 300.0).abs() <= 3.0, "burst lasted {lasted} s");
}

#[test]
fn a_hot_index_partition_throttles_writes_to_the_table() {
    let rig = Rig::new(1.0);
    rig.table(None);
    let mut reasons = Vec::new();
    for i in 0..6000u32 {
        rig.at(f64::from(i) / 2000.0);
        let body = json!({"TableName": "Tbl", "Item": item(&format!("ORDER#{i}"), "S", 1000, Some("STATUS#PENDING"))});
        let (status, answer) = rig.call("PutItem", body);
        if status == 400 {
            reasons.push(
                answer["ThrottlingReasons"][0]["reason"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            );
        }
    }
    // 3 s at 2,000 writes/s into one index partition: 1,000 units to start, 1,000/s after.
    assert!(
        (reasons.len() as f64 - 2000.0).abs() <= 100.0,
        "{}",
        reasons.len()
    );
    assert!(
        reasons
            .iter()
            .all(|r| r == "IndexWriteKeyRangeThroughputExceeded"),
        "{reasons:?}"
    );
    let snapshot = rig.engine.capacity().unwrap().snapshot();
    let gsi = snapshot
        .resources
        .iter()
        .find(|r| r.index.as_deref() == Some("GSI1"))
        .unwrap();
    assert_eq!(gsi.throttled_keys[0].key.as_deref(), Some("STATUS#PENDING"));
}

#[test]
fn a_batch_returns_its_throttled_writes_unprocessed_and_fails_only_when_none_ran() {
    let rig = Rig::new(1.0);
    rig.table(None);
    let batch = |first: u32| {
        let writes: Vec<Value> = (first..first + 25)
            .map(|i| json!({"PutRequest": {"Item": item("HOT", &format!("S#{i}"), 1000, None)}}))
            .collect();
        json!({"RequestItems": {"Tbl": writes}})
    };
    // 40 batches of 25 in the first instant: the partition's 1,000 units go, then the rest
    // comes back unprocessed.
    let mut unprocessed = 0;
    for b in 0..40 {
        let (status, body) = rig.call("BatchWriteItem", batch(b * 25));
        assert_eq!(status, 200, "{body}");
        unprocessed += body["UnprocessedItems"]["Tbl"]
            .as_array()
            .map_or(0, Vec::len);
    }
    assert_eq!(unprocessed, 0);
    let (status, body) = rig.call("BatchWriteItem", batch(1000));
    assert_eq!(status, 400, "{body}");
    assert!(
        body["__type"]
            .as_str()
            .unwrap()
            .ends_with("ProvisionedThroughputExceededException")
    );
    rig.at(0.01);
    let (status, body) = rig.call("BatchWriteItem", batch(2000));
    assert_eq!(status, 200);
    let left = body["UnprocessedItems"]["Tbl"].as_array().unwrap().len();
    assert!(left > 0 && left < 25, "{left} of 25 left unprocessed");
}

#[test]
fn a_transaction_on_a_throttled_partition_is_cancelled_naming_the_action() {
    let rig = Rig::new(1000.0);
    rig.table(None);
    // Scaled by 1,000 a partition writes 1 WCU/s: this put spends it.
    rig.ok(
        "PutItem",
        json!({"TableName": "Tbl", "Item": item("HOT", "A", 1000, None)}),
    );
    let put = |pk: &str| json!({"Put": {"TableName": "Tbl", "Item": item(pk, "C", 1000, None)}});
    let (status, body) = rig.call(
        "TransactWriteItems",
        json!({"TransactItems": [put("COLD"), put("HOT")]}),
    );
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["CancellationReasons"][0]["Code"], "None");
    assert_eq!(body["CancellationReasons"][1]["Code"], "ThrottlingError");
}

#[test]
fn the_caller_sees_only_the_consumed_capacity_it_asked_for() {
    let rig = Rig::new(1.0);
    rig.table(None);
    let put = |mode: Option<&str>, i: u32| {
        let mut body =
            json!({"TableName": "Tbl", "Item": item(&format!("K#{i}"), "S", 1000, Some("G"))});
        if let Some(mode) = mode {
            body["ReturnConsumedCapacity"] = json!(mode);
        }
        rig.ok("PutItem", body)
    };
    assert!(put(None, 1).get("ConsumedCapacity").is_none());
    assert!(put(Some("NONE"), 2).get("ConsumedCapacity").is_none());
    let total = put(Some("TOTAL"), 3);
    assert_eq!(total["ConsumedCapacity"]["CapacityUnits"], 2.0);
    assert!(
        total["ConsumedCapacity"]
            .get("GlobalSecondaryIndexes")
            .is_none()
    );
    let indexes = put(Some("INDEXES"), 4);
    assert_eq!(
        indexes["ConsumedCapacity"]["GlobalSecondaryIndexes"]["GSI1"]["CapacityUnits"],
        1.0
    );
    // The emulator metered all four: 1 WCU on the table and 1 on the index each.
    assert_eq!(rig.units(None).1, 4.0);
    assert_eq!(rig.units(Some("GSI1")).1, 4.0);
}

#[test]
fn an_update_that_moves_an_item_between_index_partitions_charges_both() {
    let rig = Rig::new(1.0);
    rig.table(None);
    rig.ok(
        "PutItem",
        json!({"TableName": "Tbl", "Item": item("ORDER#1", "S", 500, Some("STATUS#PENDING"))}),
    );
    rig.ok(
        "UpdateItem",
        json!({
            "TableName": "Tbl",
            "Key": {"PK": {"S": "ORDER#1"}, "SK": {"S": "S"}},
            "UpdateExpression": "SET #g = :g",
            "ExpressionAttributeNames": {"#g": "GSI1PK"},
            "ExpressionAttributeValues": {":g": {"S": "STATUS#SHIPPED"}}
        }),
    );
    let snapshot = rig.engine.capacity().unwrap().snapshot();
    let gsi = snapshot
        .resources
        .iter()
        .find(|r| r.index.as_deref() == Some("GSI1"))
        .unwrap();
    let keys: Vec<&str> = gsi
        .hot_keys
        .iter()
        .filter_map(|k| k.key.as_deref())
        .collect();
    assert!(
        keys.contains(&"STATUS#PENDING") && keys.contains(&"STATUS#SHIPPED"),
        "{keys:?}"
    );
    // A put (1) and a move (delete 1 + put 1).
    assert_eq!(gsi.write_units, 3.0);
}

#[test]
fn queries_are_held_to_the_partition_they_read() {
    let rig = Rig::new(1000.0);
    rig.table(None);
    rig.ok(
        "PutItem",
        json!({"TableName": "Tbl", "Item": item("A", "1", 4000, Some("G"))}),
    );
    let query = |index: Option<&str>, pk: &str| {
        let (name, value) = if index.is_some() {
            ("GSI1PK", pk)
        } else {
            ("PK", pk)
        };
        let mut body = json!({
            "TableName": "Tbl",
            "KeyConditionExpression": "#p = :p",
            "ExpressionAttributeNames": {"#p": name},
            "ExpressionAttributeValues": {":p": {"S": value}},
            "ConsistentRead": index.is_none()
        });
        if let Some(i) = index {
            body["IndexName"] = json!(i);
        }
        rig.call("Query", body)
    };
    // Scaled by 1,000, a partition reads 3 RCU/s: one 4 KB consistent read each 1/3 s.
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(query(None, "A").0);
    }
    assert_eq!(statuses, [200, 200, 200, 400, 400]);
    // Another partition, and the index, are not held by it.
    assert_eq!(query(None, "B").0, 200);
    assert_eq!(query(Some("GSI1"), "G").0, 200);
}

#[test]
fn an_on_demand_table_accommodates_twice_its_previous_peak() {
    // Scaled by 1,000: warm throughput 4 WRU/s, each partition 1 WCU/s. Writes spread over
    // 40 keys at 10/s: the table's warm 4 units/s (plus its first second) throttle them until
    // the peak it served lets it double.
    let rig = Rig::new(1000.0);
    rig.table(None);
    let mut throttled_per_second = vec![0u32; 10];
    for i in 0..100u32 {
        rig.at(f64::from(i) / 10.0);
        let body = json!({"TableName": "Tbl", "Item": item(&format!("K#{}", i % 40), &format!("S#{i}"), 1000, None)});
        let (status, answer) = rig.call("PutItem", body);
        if status == 400 {
            assert_eq!(
                answer["ThrottlingReasons"][0]["reason"],
                "TableWriteKeyRangeThroughputExceeded"
            );
            throttled_per_second[(i / 10) as usize] += 1;
        }
    }
    assert!(throttled_per_second[0] > 0, "{throttled_per_second:?}");
    assert!(
        throttled_per_second[3..].iter().all(|t| *t == 0),
        "{throttled_per_second:?}"
    );
}

#[test]
fn a_provisioned_index_short_of_writes_throttles_the_tables_writes() {
    let rig = Rig::new(1.0);
    let request = json!({
        "TableName": "Tbl",
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}, {"AttributeName": "G", "AttributeType": "S"}],
        "BillingMode": "PROVISIONED",
        "ProvisionedThroughput": {"ReadCapacityUnits": 100, "WriteCapacityUnits": 100},
        "GlobalSecondaryIndexes": [{
            "IndexName": "ByG",
            "KeySchema": [{"AttributeName": "G", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
        }]
    });
    rig.ok("CreateTable", request);
    let mut reasons = Vec::new();
    for i in 0..20u32 {
        rig.at(f64::from(i) / 20.0);
        let body = json!({"TableName": "Tbl", "Item": {"PK": {"S": format!("K#{i}")}, "G": {"S": format!("G#{i}")}}});
        let (status, answer) = rig.call("PutItem", body);
        if status == 400 {
            reasons.push(
                answer["ThrottlingReasons"][0]["reason"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            );
            assert!(
                answer["ThrottlingReasons"][0]["resource"]
                    .as_str()
                    .unwrap()
                    .ends_with("/index/ByG")
            );
        }
    }
    assert!(reasons.len() >= 15, "{reasons:?}");
    assert!(
        reasons
            .iter()
            .all(|r| r == "IndexWriteProvisionedThroughputExceeded")
    );
    // Writes that leave the index alone are not held by it.
    let body = json!({"TableName": "Tbl", "Item": {"PK": {"S": "plain"}}});
    assert_eq!(rig.call("PutItem", body).0, 200);
}

#[test]
fn a_write_whose_condition_fails_still_consumes_the_size_of_the_item_it_found() {
    let rig = Rig::new(1.0);
    rig.table(None);
    rig.ok(
        "PutItem",
        json!({"TableName": "Tbl", "Item": item("A", "1", 3000, None)}),
    );
    let before = rig.units(None).1;
    let body = json!({
        "TableName": "Tbl",
        "Item": item("A", "1", 100, None),
        "ConditionExpression": "attribute_not_exists(PK)"
    });
    let (status, answer) = rig.call("PutItem", body);
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["__type"]
            .as_str()
            .unwrap()
            .ends_with("ConditionalCheckFailedException")
    );
    assert_eq!(rig.units(None).1 - before, 3.0);
}

#[test]
fn emulation_off_leaves_the_engines_answers_as_they_were() {
    // The same requests on an engine without the emulator and on one with it (limits far out
    // of reach) answer the same (JSON objects compared as values: key order is the engine's
    // hash order either way).
    let plain = Engine::memory().unwrap();
    let rig = Rig::new(0.000_001);
    let run = |engine: &Engine, operation: &str, body: &Value| {
        let target = format!("{TARGET}{operation}");
        let answer = dispatch::run(
            engine,
            Origin::Http,
            Some(&target),
            body.to_string().as_bytes(),
        );
        let body: Value = serde_json::from_slice(&answer.body).unwrap();
        (answer.status, body)
    };
    rig.table(None);
    let create = create_table(None);
    assert_eq!(run(&plain, "CreateTable", &create).0, 200);
    let requests = [
        (
            "PutItem",
            json!({"TableName": "Tbl", "Item": item("A", "1", 900, Some("G")), "ReturnValues": "ALL_OLD"}),
        ),
        (
            "PutItem",
            json!({"TableName": "Tbl", "Item": item("A", "1", 700, Some("G")), "ReturnValues": "ALL_OLD", "ReturnConsumedCapacity": "TOTAL"}),
        ),
        (
            "GetItem",
            json!({"TableName": "Tbl", "Key": {"PK": {"S": "A"}, "SK": {"S": "1"}}}),
        ),
        (
            "Query",
            json!({"TableName": "Tbl", "IndexName": "GSI1", "KeyConditionExpression": "GSI1PK = :g", "ExpressionAttributeValues": {":g": {"S": "G"}}, "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            "UpdateItem",
            json!({"TableName": "Tbl", "Key": {"PK": {"S": "A"}, "SK": {"S": "1"}}, "UpdateExpression": "SET n = :n", "ExpressionAttributeValues": {":n": {"N": "1"}}, "ReturnValues": "UPDATED_NEW"}),
        ),
        (
            "PutItem",
            json!({"TableName": "Tbl", "Item": item("B", "1", 500, Some("G"))}),
        ),
        (
            "UpdateItem",
            json!({"TableName": "Tbl", "Key": {"PK": {"S": "B"}, "SK": {"S": "1"}}, "UpdateExpression": "SET GSI1PK = :g", "ExpressionAttributeValues": {":g": {"S": "H"}}}),
        ),
        (
            "UpdateItem",
            json!({"TableName": "Tbl", "Key": {"PK": {"S": "B"}, "SK": {"S": "1"}}, "UpdateExpression": "SET n = :n", "ExpressionAttributeValues": {":n": {"N": "2"}}, "ReturnValues": "ALL_OLD"}),
        ),
        (
            "DeleteItem",
            json!({"TableName": "Tbl", "Key": {"PK": {"S": "B"}, "SK": {"S": "1"}}}),
        ),
        (
            "PutItem",
            json!({"TableName": "Tbl", "Item": item("C", "1", 500, None), "ReturnValues": "ALL_NEW"}),
        ),
        (
            "BatchGetItem",
            json!({"RequestItems": {"Tbl": {"Keys": [{"PK": {"S": "A"}, "SK": {"S": "1"}}]}}}),
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [{"Delete": {"TableName": "Tbl", "Key": {"PK": {"S": "A"}, "SK": {"S": "1"}}}}]}),
        ),
        ("Scan", json!({"TableName": "Tbl"})),
    ];
    for (operation, body) in requests {
        let emulated = run(&rig.engine, operation, &body);
        assert_eq!(run(&plain, operation, &body), emulated, "{operation}");
    }
}

#[test]
fn the_stored_definition_reads_as_describe_table_says() {
    let rig = Rig::new(1.0);
    rig.table(Some((5, 7)));
    let described = rig.ok("DescribeTable", json!({"TableName": "Tbl"}));
    let from_describe = catalog::from_description(&described["Table"]).unwrap();
    let db = rig.engine.database();
    let stored = catalog::describe(db, "Tbl").unwrap();
    assert_eq!(
        format!("{:?}", stored.table),
        format!("{:?}", from_describe.table)
    );
    assert_eq!(
        format!("{:?}", stored.indexes),
        format!("{:?}", from_describe.indexes)
    );
    assert_eq!(
        stored.table.billing,
        Billing::Provisioned {
            read: 5.0,
            write: 7.0
        }
    );
    assert!(
        stored.indexes[0].arn.ends_with(":table/Tbl/index/GSI1"),
        "{}",
        stored.indexes[0].arn
    );
}

#[test]
fn raising_a_provisioned_tables_throughput_takes_effect_at_once() {
    let rig = Rig::new(1.0);
    rig.table(Some((1, 1)));
    let put = |i: u32| {
        let body = json!({"TableName": "Tbl", "Item": item(&format!("K#{i}"), "S", 1000, None)});
        rig.call("PutItem", body).0
    };
    let statuses: Vec<u16> = (0..5).map(put).collect();
    assert!(statuses.contains(&400), "{statuses:?}");
    rig.ok(
        "UpdateTable",
        json!({"TableName": "Tbl", "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 100}}),
    );
    let statuses: Vec<u16> = (5..50).map(put).collect();
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
}
