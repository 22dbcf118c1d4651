//! The differential corpus: four tables (a table with two GSIs and an LSI, one keyed by number
//! and binary, one of 95 KB items, one hash-only), their items, and the requests each golden
//! file answers.

use serde_json::{Value, json};

const ORDERS: &str = "Orders";
const NUMBERS: &str = "Numbers";
const BIG: &str = "Big";
const PLAIN: &str = "Plain";

const STATUSES: [&str; 3] = ["PENDING", "SHIPPED", "DELIVERED"];

/// Numbers at the edges of DynamoDB's range and precision, as a client writes them.
const EDGE_NUMBERS: [&str; 8] = [
    "12345678901234567890123456789012345678",
    "9.9999999999999999999999999999999999999E+125",
    "-9.9999999999999999999999999999999999999E+125",
    "1E-130",
    "-1E-130",
    "0.000123400",
    "1.5e3",
    "-0",
];

fn order(user: u32, n: u32) -> Value {
    json!({
        "PK": {"S": format!("USER#{user}")},
        "SK": {"S": format!("ORDER#{n:02}")},
        "status": {"S": STATUSES[(n % 3) as usize]},
        "createdAt": {"S": format!("2026-11-{:02}T10:00:00Z", 1 + n % 9)},
        "customer": {"S": format!("C{}", 1 + (user + n) % 2)},
        "amount": {"N": format!("{}.{}", 10 * n + user, n % 10)},
        "orderLines": {"L": [
            {"M": {"sku": {"S": format!("SKU-{n}")}, "qty": {"N": format!("{}", 1 + n % 4)}}},
            {"M": {"sku": {"S": "SKU-GIFT"}, "qty": {"N": "1"}, "gift": {"BOOL": true}}}
        ]},
        "tags": {"SS": ["new", "web", format!("batch-{}", n % 3)]}
    })
}

/// One item with every type, nested three levels, numbers at the edges and binary.
fn every_type(pk: &str) -> Value {
    let mut item = json!({
        "PK": {"S": pk},
        "SK": {"S": "PROFILE"},
        "customer": {"S": "C1"},
        "text": {"S": "quote \" backslash \\ newline \n tab \t unicode äß 🦀 \u{0001}"},
        "empty": {"S": ""},
        "b": {"B": "AAEC/v8="},
        "bs": {"BS": ["/w==", "AAE=", "AA=="]},
        "ss": {"SS": ["b", "a", "ä", "A"]},
        "ns": {"NS": ["10", "2", "-1", "1E+3", "-0.5", "12345678901234567890123456789012345678"]},
        "yes": {"BOOL": true},
        "no": {"BOOL": false},
        "nothing": {"NULL": true},
        "m": {"M": {
            "nest": {"M": {
                "list": {"L": [
                    {"N": "1"},
                    {"S": "two"},
                    {"M": {"deep": {"L": [{"NULL": true}, {"BOOL": false}, {"B": "AQID"}]}}},
                    {"SS": ["x"]},
                    {"NS": ["3", "1"]}
                ]},
                "emptyMap": {"M": {}},
                "emptyList": {"L": []}
            }},
            "n": {"N": "-42.50"}
        }},
        "l": {"L": [{"L": [{"L": [{"S": "nested"}]}]}, {"M": {"k": {"BS": ["AA=="]}}}]}
    });
    for (i, number) in EDGE_NUMBERS.iter().enumerate() {
        item[format!("n{i}")] = json!({"N": number});
    }
    item
}

fn put(table: &str, item: Value) -> (&'static str, Value) {
    ("PutItem", json!({"TableName": table, "Item": item}))
}

fn key_schema(hash: (&str, &str), range: Option<(&str, &str)>) -> (Value, Vec<Value>) {
    let mut keys = vec![json!({"AttributeName": hash.0, "KeyType": "HASH"})];
    let mut defs = vec![json!({"AttributeName": hash.0, "AttributeType": hash.1})];
    if let Some((name, kind)) = range {
        keys.push(json!({"AttributeName": name, "KeyType": "RANGE"}));
        defs.push(json!({"AttributeName": name, "AttributeType": kind}));
    }
    (Value::Array(keys), defs)
}

fn create(table: &str, hash: (&str, &str), range: Option<(&str, &str)>) -> Value {
    let (keys, defs) = key_schema(hash, range);
    json!({"TableName": table, "BillingMode": "PAY_PER_REQUEST",
           "KeySchema": keys, "AttributeDefinitions": defs})
}

/// The tables and their items, as requests.
pub fn setup() -> Vec<(&'static str, Value)> {
    let mut orders = create(ORDERS, ("PK", "S"), Some(("SK", "S")));
    orders["AttributeDefinitions"]
        .as_array_mut()
        .expect("definitions")
        .extend([
            json!({"AttributeName": "status", "AttributeType": "S"}),
            json!({"AttributeName": "createdAt", "AttributeType": "S"}),
            json!({"AttributeName": "customer", "AttributeType": "S"}),
            json!({"AttributeName": "amount", "AttributeType": "N"}),
        ]);
    orders["GlobalSecondaryIndexes"] = json!([
        {"IndexName": "ByStatus",
         "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"},
                       {"AttributeName": "createdAt", "KeyType": "RANGE"}],
         "Projection": {"ProjectionType": "ALL"}},
        {"IndexName": "ByCustomer",
         "KeySchema": [{"AttributeName": "customer", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "KEYS_ONLY"}}
    ]);
    orders["LocalSecondaryIndexes"] = json!([
        {"IndexName": "ByTotal",
         "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                       {"AttributeName": "amount", "KeyType": "RANGE"}],
         "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["status"]}}
    ]);
    let mut requests = vec![
        ("CreateTable", orders),
        ("CreateTable", create(NUMBERS, ("K", "N"), Some(("B", "B")))),
        ("CreateTable", create(BIG, ("PK", "S"), None)),
        ("CreateTable", create(PLAIN, ("id", "S"), None)),
    ];
    for n in 1..=12 {
        requests.push(put(ORDERS, order(1, n)));
    }
    for n in 1..=5 {
        requests.push(put(ORDERS, order(2, n)));
    }
    requests.push(put(ORDERS, every_type("USER#3")));
    let sort_keys = ["AA==", "AAE=", "/w==", "gA=="];
    for (i, k) in EDGE_NUMBERS.iter().chain(["0", "-42.5"].iter()).enumerate() {
        for (j, b) in sort_keys.iter().enumerate() {
            requests.push(put(
                NUMBERS,
                json!({"K": {"N": k}, "B": {"B": b}, "v": {"N": format!("{i}.{j}")},
                       "ns": {"NS": EDGE_NUMBERS[..=i.min(7)].to_vec()}}),
            ));
        }
    }
    for n in 1..=14 {
        requests.push(put(
            BIG,
            json!({"PK": {"S": format!("BIG#{n:02}")}, "n": {"N": format!("{n}")},
                   "blob": {"S": "x".repeat(95_000)}}),
        ));
    }
    for n in 0..30 {
        requests.push(put(
            PLAIN,
            json!({"id": {"S": format!("P-{n:02}")}, "v": {"N": format!("{}", n * 7 % 11)},
                   "tag": {"SS": [format!("t{}", n % 4)]}}),
        ));
    }
    requests
}

fn orders_key(pk: &str, sk: &str) -> Value {
    json!({"PK": {"S": pk}, "SK": {"S": sk}})
}

pub fn get_items() -> Vec<(&'static str, Value)> {
    vec![
        (
            "every type",
            json!({"TableName": ORDERS, "Key": orders_key("USER#3", "PROFILE")}),
        ),
        (
            "nested projection",
            json!({"TableName": ORDERS, "Key": orders_key("USER#3", "PROFILE"),
            "ProjectionExpression": "m.nest.#l[2].deep[2], m.nest.#l[4], ss, n0, #l2[0][0], b",
            "ExpressionAttributeNames": {"#l": "list", "#l2": "l"}}),
        ),
        (
            "AttributesToGet",
            json!({"TableName": ORDERS, "Key": orders_key("USER#1", "ORDER#03"),
            "AttributesToGet": ["amount", "orderLines", "missing"]}),
        ),
        (
            "missing item",
            json!({"TableName": ORDERS, "Key": orders_key("USER#1", "ORDER#99"),
            "ReturnConsumedCapacity": "TOTAL"}),
        ),
        (
            "consistent, capacity",
            json!({"TableName": ORDERS, "Key": orders_key("USER#1", "ORDER#07"),
            "ConsistentRead": true, "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            "numeric key, 38 digits; binary sort key",
            json!({"TableName": NUMBERS,
            "Key": {"K": {"N": "12345678901234567890123456789012345678"}, "B": {"B": "/w=="}}}),
        ),
        (
            "numeric key at the smallest magnitude",
            json!({"TableName": NUMBERS,
            "Key": {"K": {"N": "-1E-130"}, "B": {"B": "gA=="}}}),
        ),
        (
            "hash-only table",
            json!({"TableName": PLAIN, "Key": {"id": {"S": "P-17"}},
            "ReturnConsumedCapacity": "TOTAL"}),
        ),
        (
            "95 KB item, projected",
            json!({"TableName": BIG, "Key": {"PK": {"S": "BIG#03"}},
            "ProjectionExpression": "n", "ReturnConsumedCapacity": "TOTAL"}),
        ),
        (
            "a key of the wrong type",
            json!({"TableName": ORDERS,
            "Key": {"PK": {"N": "1"}, "SK": {"S": "PROFILE"}}}),
        ),
    ]
}

fn by_pk(pk: &str) -> Value {
    json!({"TableName": ORDERS, "KeyConditionExpression": "PK = :pk",
           "ExpressionAttributeValues": {":pk": {"S": pk}}})
}

fn with(mut request: Value, extra: Value) -> Value {
    for (k, v) in extra.as_object().expect("object") {
        if k == "ExpressionAttributeValues" {
            let values = request[k].as_object_mut().expect("values");
            values.extend(v.as_object().expect("values").clone());
        } else {
            request[k] = v.clone();
        }
    }
    request
}

pub fn queries() -> Vec<(&'static str, Value)> {
    vec![
        ("a partition, every item", by_pk("USER#1")),
        ("Limit 1, paged", with(by_pk("USER#2"), json!({"Limit": 1}))),
        (
            "Limit 5, reverse, paged",
            with(
                by_pk("USER#1"),
                json!({"Limit": 5, "ScanIndexForward": false}),
            ),
        ),
        (
            "begins_with",
            with(
                by_pk("USER#1"),
                json!({
            "KeyConditionExpression": "PK = :pk AND begins_with(SK, :p)",
            "ExpressionAttributeValues": {":p": {"S": "ORDER#0"}}}),
            ),
        ),
        (
            "between, filter, projection",
            with(
                by_pk("USER#1"),
                json!({
            "KeyConditionExpression": "PK = :pk AND SK BETWEEN :lo AND :hi",
            "FilterExpression": "#t > :min AND contains(tags, :tag)",
            "ProjectionExpression": "SK, #t, orderLines[0].sku, tags",
            "ExpressionAttributeNames": {"#t": "amount"},
            "ExpressionAttributeValues": {":lo": {"S": "ORDER#03"}, ":hi": {"S": "ORDER#10"},
                ":min": {"N": "45"}, ":tag": {"S": "web"}}}),
            ),
        ),
        (
            "filter with Limit, paged",
            with(
                by_pk("USER#1"),
                json!({"Limit": 4,
            "FilterExpression": "#s = :s", "ExpressionAttributeNames": {"#s": "status"},
            "ExpressionAttributeValues": {":s": {"S": "SHIPPED"}}}),
            ),
        ),
        (
            "COUNT with a filter",
            with(
                by_pk("USER#1"),
                json!({"Select": "COUNT",
            "FilterExpression": "size(orderLines) = :two AND orderLines[1].gift = :t",
            "ExpressionAttributeValues": {":two": {"N": "2"}, ":t": {"BOOL": true}}}),
            ),
        ),
        (
            "consistent, capacity TOTAL",
            with(
                by_pk("USER#2"),
                json!({"ConsistentRead": true, "ReturnConsumedCapacity": "TOTAL"}),
            ),
        ),
        (
            "legacy KeyConditions, QueryFilter, AttributesToGet",
            json!({"TableName": ORDERS,
            "KeyConditions": {
                "PK": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "USER#1"}]},
                "SK": {"ComparisonOperator": "GE", "AttributeValueList": [{"S": "ORDER#06"}]}},
            "QueryFilter": {"status": {"ComparisonOperator": "NE",
                "AttributeValueList": [{"S": "PENDING"}]}},
            "AttributesToGet": ["SK", "status", "amount"]}),
        ),
        ("one item with every type", by_pk("USER#3")),
        (
            "nested projection",
            with(
                by_pk("USER#3"),
                json!({
            "ProjectionExpression": "m.nest.#l, m.n, l[1].k, ns, n1, n3, n7, nothing",
            "ExpressionAttributeNames": {"#l": "list"}}),
            ),
        ),
        (
            "numeric partition, binary sort key range",
            json!({"TableName": NUMBERS,
            "KeyConditionExpression": "K = :k AND B BETWEEN :lo AND :hi",
            "ExpressionAttributeValues": {":k": {"N": "0"}, ":lo": {"B": "AAE="},
                ":hi": {"B": "gA=="}}}),
        ),
        (
            "numeric partition of 38 digits, reverse",
            json!({"TableName": NUMBERS,
            "KeyConditionExpression": "K = :k", "ScanIndexForward": false, "Limit": 3,
            "ExpressionAttributeValues": {":k": {"N": "12345678901234567890123456789012345678"}}}),
        ),
        (
            "Limit beyond the partition",
            with(by_pk("USER#2"), json!({"Limit": 100})),
        ),
        (
            "a key condition on another attribute",
            with(
                by_pk("USER#1"),
                json!({
            "KeyConditionExpression": "PK = :pk AND amount > :t",
            "ExpressionAttributeValues": {":t": {"N": "1"}}}),
            ),
        ),
    ]
}

fn on_index(index: &str, condition: &str, values: Value) -> Value {
    json!({"TableName": ORDERS, "IndexName": index, "KeyConditionExpression": condition,
           "ExpressionAttributeValues": values})
}

pub fn index_reads() -> Vec<(&'static str, &'static str, Value)> {
    let shipped = on_index("ByStatus", "#s = :s", json!({":s": {"S": "SHIPPED"}}));
    vec![
        (
            "GSI, Limit 3, paged, capacity INDEXES",
            "Query",
            with(
                shipped.clone(),
                json!({
            "Limit": 3, "ReturnConsumedCapacity": "INDEXES",
            "ExpressionAttributeNames": {"#s": "status"}}),
            ),
        ),
        (
            "GSI, sort key range, reverse",
            "Query",
            with(
                on_index(
                    "ByStatus",
                    "#s = :s AND createdAt >= :from",
                    json!({":s": {"S": "PENDING"},
            ":from": {"S": "2026-11-03"}}),
                ),
                json!({"ScanIndexForward": false,
            "ExpressionAttributeNames": {"#s": "status"}}),
            ),
        ),
        (
            "hash-only KEYS_ONLY GSI, Limit 2, paged",
            "Query",
            with(
                on_index("ByCustomer", "customer = :c", json!({":c": {"S": "C1"}})),
                json!({"Limit": 2}),
            ),
        ),
        (
            "LSI, Limit 3, paged, capacity INDEXES",
            "Query",
            with(
                on_index(
                    "ByTotal",
                    "PK = :pk AND #t > :t",
                    json!({":pk": {"S": "USER#1"}, ":t": {"N": "50"}}),
                ),
                json!({"Limit": 3, "ReturnConsumedCapacity": "INDEXES",
                   "ExpressionAttributeNames": {"#t": "amount"}}),
            ),
        ),
        (
            "LSI, ALL_ATTRIBUTES from the table, paged",
            "Query",
            with(
                on_index("ByTotal", "PK = :pk", json!({":pk": {"S": "USER#2"}})),
                json!({"Select": "ALL_ATTRIBUTES",
            "Limit": 2, "ReturnConsumedCapacity": "INDEXES"}),
            ),
        ),
        (
            "LSI, projected attribute and filter",
            "Query",
            with(
                on_index(
                    "ByTotal",
                    "PK = :pk",
                    json!({":pk": {"S": "USER#1"}, ":s": {"S": "DELIVERED"}}),
                ),
                json!({"ProjectionExpression": "#t, #s", "FilterExpression": "#s = :s",
                   "ExpressionAttributeNames": {"#t": "amount", "#s": "status"}}),
            ),
        ),
        (
            "GSI COUNT",
            "Query",
            with(
                shipped,
                json!({"Select": "COUNT",
            "ExpressionAttributeNames": {"#s": "status"}}),
            ),
        ),
        (
            "GSI scan, Limit 5, paged",
            "Scan",
            json!({"TableName": ORDERS,
            "IndexName": "ByStatus", "Limit": 5}),
        ),
        (
            "LSI scan, Limit 6, paged, capacity",
            "Scan",
            json!({"TableName": ORDERS,
            "IndexName": "ByTotal", "Limit": 6, "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            "KEYS_ONLY GSI scan, filter",
            "Scan",
            json!({"TableName": ORDERS,
            "IndexName": "ByCustomer", "FilterExpression": "begins_with(SK, :o)",
            "ExpressionAttributeValues": {":o": {"S": "ORDER#1"}}}),
        ),
    ]
}

pub fn scans() -> Vec<(&'static str, Value)> {
    vec![
        ("a table, every item", json!({"TableName": ORDERS})),
        ("Limit 7, paged", json!({"TableName": ORDERS, "Limit": 7})),
        (
            "filter, projection, capacity",
            json!({"TableName": ORDERS,
            "FilterExpression": "attribute_exists(orderLines) AND #t BETWEEN :lo AND :hi",
            "ProjectionExpression": "PK, SK, #t, orderLines[1]",
            "ExpressionAttributeNames": {"#t": "amount"},
            "ExpressionAttributeValues": {":lo": {"N": "20"}, ":hi": {"N": "80"}},
            "ReturnConsumedCapacity": "TOTAL"}),
        ),
        (
            "segment 0 of 3, Limit 4, paged",
            json!({"TableName": PLAIN, "Segment": 0,
            "TotalSegments": 3, "Limit": 4}),
        ),
        (
            "segment 2 of 3",
            json!({"TableName": PLAIN, "Segment": 2, "TotalSegments": 3}),
        ),
        (
            "95 KB items: 1 MB pages",
            json!({"TableName": BIG, "ProjectionExpression": "PK, n",
            "ReturnConsumedCapacity": "TOTAL"}),
        ),
        (
            "numbers and binary keys",
            json!({"TableName": NUMBERS, "Limit": 9}),
        ),
        (
            "COUNT with a filter",
            json!({"TableName": NUMBERS, "Select": "COUNT",
            "FilterExpression": "v > :v", "ExpressionAttributeValues": {":v": {"N": "3"}}}),
        ),
        (
            "legacy ScanFilter, AttributesToGet",
            json!({"TableName": PLAIN,
            "ScanFilter": {"v": {"ComparisonOperator": "LT", "AttributeValueList": [{"N": "5"}]}},
            "AttributesToGet": ["id", "tag"]}),
        ),
    ]
}

pub fn batch_and_transaction_reads() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "three tables, a missing key, projection, capacity",
            "BatchGetItem",
            json!({
            "RequestItems": {
                ORDERS: {"Keys": [orders_key("USER#3", "PROFILE"), orders_key("USER#1", "ORDER#99"),
                                  orders_key("USER#2", "ORDER#04")],
                         "ProjectionExpression": "PK, SK, m.nest.#l[2], ns, #t",
                         "ExpressionAttributeNames": {"#l": "list", "#t": "amount"}},
                NUMBERS: {"Keys": [{"K": {"N": "1E-130"}, "B": {"B": "AA=="}},
                                   {"K": {"N": "-0"}, "B": {"B": "AAE="}}]},
                PLAIN: {"Keys": [{"id": {"S": "P-01"}}, {"id": {"S": "P-29"}}],
                        "ConsistentRead": true}},
            "ReturnConsumedCapacity": "TOTAL"}),
        ),
        (
            "AttributesToGet",
            "BatchGetItem",
            json!({"RequestItems": {ORDERS: {
            "Keys": [orders_key("USER#1", "ORDER#01"), orders_key("USER#1", "ORDER#12")],
            "AttributesToGet": ["SK", "orderLines", "tags"]}}}),
        ),
        (
            "four gets, one missing, projection, capacity",
            "TransactGetItems",
            json!({
            "TransactItems": [
                {"Get": {"TableName": ORDERS, "Key": orders_key("USER#3", "PROFILE")}},
                {"Get": {"TableName": ORDERS, "Key": orders_key("USER#9", "NONE")}},
                {"Get": {"TableName": ORDERS, "Key": orders_key("USER#1", "ORDER#05"),
                         "ProjectionExpression": "orderLines[0], #s",
                         "ExpressionAttributeNames": {"#s": "status"}}},
                {"Get": {"TableName": NUMBERS,
                         "Key": {"K": {"N": "9.9999999999999999999999999999999999999E+125"},
                                 "B": {"B": "gA=="}}}}],
            "ReturnConsumedCapacity": "TOTAL"}),
        ),
    ]
}

pub fn partiql_reads() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "one item with every type",
            "ExecuteStatement",
            json!({
            "Statement": "SELECT * FROM \"Orders\" WHERE PK = 'USER#3'"}),
        ),
        (
            "a sort key range, projected",
            "ExecuteStatement",
            json!({
            "Statement": "SELECT SK, amount, orderLines FROM \"Orders\" WHERE PK = ? AND SK BETWEEN ? AND ?",
            "Parameters": [{"S": "USER#1"}, {"S": "ORDER#02"}, {"S": "ORDER#05"}]}),
        ),
        (
            "an index",
            "ExecuteStatement",
            json!({
            "Statement": "SELECT PK, SK, createdAt FROM \"Orders\".\"ByStatus\" WHERE status = 'SHIPPED'"}),
        ),
        (
            "two statements",
            "BatchExecuteStatement",
            json!({"Statements": [
            {"Statement": "SELECT * FROM \"Orders\" WHERE PK = 'USER#2' AND SK = 'ORDER#01'"},
            {"Statement": "SELECT * FROM \"Numbers\" WHERE K = 0 AND B = ?",
             "Parameters": [{"B": "/w=="}]}]}),
        ),
    ]
}

pub fn writes() -> Vec<(&'static str, &'static str, Value)> {
    let copy = orders_key("USER#9", "PROFILE");
    let mut changed = every_type("USER#9");
    changed["text"] = json!({"S": "changed"});
    vec![
        (
            "put a copy of the every-type item",
            "PutItem",
            json!({"TableName": ORDERS,
            "Item": every_type("USER#9"), "ReturnValues": "ALL_OLD"}),
        ),
        (
            "put over it: the old item back",
            "PutItem",
            json!({"TableName": ORDERS,
            "Item": changed, "ReturnValues": "ALL_OLD", "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            "update nested paths and a set: UPDATED_OLD",
            "UpdateItem",
            json!({"TableName": ORDERS,
            "Key": copy, "UpdateExpression": "SET m.nest.#l[0] = :n, m.n = m.n + :n \
             ADD ns :more REMOVE #no, m.nest.emptyMap",
            "ExpressionAttributeNames": {"#l": "list", "#no": "no"},
            "ExpressionAttributeValues": {":n": {"N": "7"}, ":more": {"NS": ["4", "1E-130"]}},
            "ReturnValues": "UPDATED_OLD"}),
        ),
        (
            "arithmetic on 38 digits: ALL_NEW",
            "UpdateItem",
            json!({"TableName": ORDERS,
            "Key": copy, "UpdateExpression": "SET n0 = n0 - :one, l[0][0] = list_append(l[0][0], :x)",
            "ExpressionAttributeValues": {":one": {"N": "1"}, ":x": {"L": [{"B": "AA=="}]}},
            "ReturnValues": "ALL_NEW"}),
        ),
        (
            "update: ALL_OLD",
            "UpdateItem",
            json!({"TableName": ORDERS, "Key": copy,
            "UpdateExpression": "DELETE ss :a", "ExpressionAttributeValues": {":a": {"SS": ["a"]}},
            "ReturnValues": "ALL_OLD"}),
        ),
        (
            "a condition on the old item, met",
            "PutItem",
            json!({"TableName": ORDERS,
            "Item": every_type("USER#9"), "ReturnValues": "ALL_OLD",
            "ConditionExpression": "attribute_exists(m.nest.#l[2].deep) AND size(ss) = :three \
             AND m.n = :n AND contains(bs, :b)",
            "ExpressionAttributeNames": {"#l": "list"},
            "ExpressionAttributeValues": {":three": {"N": "3"}, ":n": {"N": "-35.5"},
                ":b": {"B": "/w=="}}}),
        ),
        (
            "a condition on the old item, failed: the item back",
            "PutItem",
            json!({
            "TableName": ORDERS, "Item": every_type("USER#9"),
            "ConditionExpression": "n3 < :zero", "ExpressionAttributeValues": {":zero": {"N": "0"}},
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}),
        ),
        (
            "update with a failed condition: the item back",
            "UpdateItem",
            json!({
            "TableName": ORDERS, "Key": orders_key("USER#1", "ORDER#04"),
            "UpdateExpression": "SET #s = :s", "ConditionExpression": "#s = :s",
            "ExpressionAttributeNames": {"#s": "status"},
            "ExpressionAttributeValues": {":s": {"S": "LOST"}},
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}),
        ),
        (
            "a transaction's failed check: the item back",
            "TransactWriteItems",
            json!({
            "TransactItems": [
                {"ConditionCheck": {"TableName": ORDERS, "Key": orders_key("USER#1", "ORDER#01"),
                    "ConditionExpression": "orderLines[0].qty > :q",
                    "ExpressionAttributeValues": {":q": {"N": "9"}},
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
                {"Delete": {"TableName": ORDERS, "Key": copy}}]}),
        ),
        (
            "move an order to another status: its indexes follow",
            "UpdateItem",
            json!({
            "TableName": ORDERS, "Key": orders_key("USER#1", "ORDER#02"),
            "UpdateExpression": "SET #s = :s, customer = :c, #t = :t",
            "ExpressionAttributeNames": {"#s": "status", "#t": "amount"},
            "ExpressionAttributeValues": {":s": {"S": "SHIPPED"}, ":c": {"S": "C9"},
                ":t": {"N": "0.000000000000000000000000000000000000001"}},
            "ReturnValues": "ALL_NEW"}),
        ),
        (
            "the indexes after the move",
            "Query",
            json!({"TableName": ORDERS,
            "IndexName": "ByCustomer", "KeyConditionExpression": "customer = :c",
            "ExpressionAttributeValues": {":c": {"S": "C9"}}}),
        ),
        (
            "a number on a numeric key: ADD, ALL_NEW",
            "UpdateItem",
            json!({"TableName": NUMBERS,
            "Key": {"K": {"N": "-9.9999999999999999999999999999999999999E+125"}, "B": {"B": "AA=="}},
            "UpdateExpression": "ADD v :d, ns :s",
            "ExpressionAttributeValues": {":d": {"N": "-0.25"}, ":s": {"NS": ["8"]}},
            "ReturnValues": "ALL_NEW"}),
        ),
        (
            "delete with a condition: ALL_OLD",
            "DeleteItem",
            json!({"TableName": ORDERS,
            "Key": copy, "ConditionExpression": "m.nest.#l[4] = :ns AND nothing = :null",
            "ExpressionAttributeNames": {"#l": "list"},
            "ExpressionAttributeValues": {":ns": {"NS": ["1", "3"]}, ":null": {"NULL": true}},
            "ReturnValues": "ALL_OLD"}),
        ),
        (
            "batch: replace and delete",
            "BatchWriteItem",
            json!({"RequestItems": {ORDERS: [
            {"DeleteRequest": {"Key": orders_key("USER#2", "ORDER#05")}},
            {"PutRequest": {"Item": order(2, 6)}}]}}),
        ),
        (
            "PartiQL update: ALL_OLD",
            "ExecuteStatement",
            json!({
            "Statement": "UPDATE \"Orders\" SET status = 'RETURNED' WHERE PK = 'USER#2' AND SK = 'ORDER#06' RETURNING ALL OLD *"}),
        ),
        ("the partition after the writes", "Query", by_pk("USER#2")),
    ]
}
