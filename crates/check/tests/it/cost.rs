//! Cost arithmetic against hand-computed values from the AWS sizing rules, and the shop's report.

use monotable_check::cost::{
    CostReport, PriceTable, ReadConsistency, call_cost, capacity_for, estimate, index_entry_bytes,
    item_size, put_units, read_units, update_units, write_units,
};
use monotable_model::Model;
use rust_decimal::Decimal;

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");
const SEED: &str = include_str!("../../../../examples/seed-original/model.toml");

fn parse(source: &str) -> Model {
    match monotable_model::parse(source) {
        Ok(m) => m,
        Err(e) => panic!("test model does not parse: {e:?}"),
    }
}

/// One table with a GSI, entity `Thing` of `size` bytes, plus extra TOML.
fn model(size: u64, projection: &str, extra: &str) -> Model {
    parse(&format!(
        r#"
[table]
name = "Things"
partition_key = {{ name = "PK" }}
sort_key = {{ name = "SK" }}

[indexes.GSI1]
partition_key = {{ name = "GSI1PK" }}
sort_key = {{ name = "GSI1SK" }}
projection = "{projection}"

[entities.Thing]
attributes.id = {{ type = "string", required = true }}
attributes.email = {{ type = "string", required = true, max_length = 320 }}
attributes.status = {{ type = "enum", values = ["NEW", "DONE"], required = true }}
attributes.note = {{ type = "string" }}
keys.PK = "THING#{{id}}"
keys.SK = "THING"
keys.GSI1PK = "STATUS#{{status}}"
keys.GSI1SK = "{{email}}"

[traffic.entities]
Thing = {{ writes_per_second = 10, item_size_bytes = {size} }}
{extra}
"#
    ))
}

fn pattern_cost(m: &Model, name: &str) -> monotable_check::cost::CallCost {
    call_cost(m, m.pattern(name).expect("pattern"))
}

#[test]
fn unit_rules() {
    assert_eq!(read_units(5 * 1024, ReadConsistency::Strong), 2.0);
    assert_eq!(read_units(5 * 1024, ReadConsistency::Eventual), 1.0);
    assert_eq!(read_units(5 * 1024, ReadConsistency::Transactional), 4.0);
    assert_eq!(read_units(4096, ReadConsistency::Strong), 1.0);
    assert_eq!(read_units(4097, ReadConsistency::Strong), 2.0);
    // An absent item still costs one unit.
    assert_eq!(read_units(0, ReadConsistency::Eventual), 0.5);
    assert_eq!(write_units(1536, false), 2.0);
    assert_eq!(write_units(1024, true), 2.0);
    assert_eq!(write_units(1025, true), 4.0);
}

#[test]
fn get_item_5kb() {
    let extra = r#"
[patterns.strong]
operation = "GetItem"
key = { PK = "THING#{id}", SK = "THING" }
returns = ["Thing"]
consistent_read = true

[patterns.eventual]
operation = "GetItem"
key = { PK = "THING#{id}", SK = "THING" }
returns = ["Thing"]
"#;
    let m = model(5 * 1024, "ALL", extra);
    let strong = pattern_cost(&m, "strong");
    assert_eq!(strong.rcu.total, 2.0);
    assert_eq!(strong.rcu.table, 2.0);
    assert_eq!(strong.wcu.total, 0.0);
    assert_eq!(pattern_cost(&m, "eventual").rcu.total, 1.0);
}

#[test]
fn put_item_with_one_gsi() {
    let extra = r#"
[patterns.put]
operation = "PutItem"
key = { PK = "THING#{id}", SK = "THING" }
returns = ["Thing"]
"#;
    let m = model(1536, "ALL", extra);
    let put = pattern_cost(&m, "put");
    assert_eq!(put.wcu.table, 2.0);
    assert_eq!(put.wcu.index("GSI1"), 2.0);
    assert_eq!(put.wcu.total, 4.0);
    // A failed condition still charges the table write, but no index write.
    assert_eq!(put.wcu_if_condition_fails, 2.0);
    assert_eq!(
        capacity_for(&m, m.pattern("put").unwrap()),
        Some(("0".into(), "4".into()))
    );
}

#[test]
fn keys_only_entry_is_estimated_from_keys() {
    let m = model(1536, "KEYS_ONLY", "");
    let thing = m.entity("Thing").unwrap();
    // PK "THING#"+26 (2+32), SK "THING" (2+5), GSI1PK "STATUS#"+4 (6+11), GSI1SK 26 (6+26).
    assert_eq!(
        index_entry_bytes(&m, thing, m.index("GSI1").unwrap(), 1536),
        34 + 7 + 17 + 32
    );
    let put = put_units(&m, thing, false);
    assert_eq!(put.wcu_total_for_test(), (2.0, 1.0));
}

trait Split {
    fn wcu_total_for_test(&self) -> (f64, f64);
}

impl Split for monotable_check::cost::Units {
    fn wcu_total_for_test(&self) -> (f64, f64) {
        (self.table, self.index("GSI1"))
    }
}

#[test]
fn query_ten_items_of_500_bytes() {
    let extra = r#"
[patterns.byStatus]
operation = "Query"
index = "GSI1"
key = { GSI1PK = "STATUS#{status}" }
returns = ["Thing"]

[traffic.patterns]
byStatus = { reads_per_second = 10, items_per_read = 10 }
"#;
    let m = model(500, "ALL", extra);
    let q = pattern_cost(&m, "byStatus");
    // ceil(5000 / 4096) = 2 units, halved: eventually consistent (a GSI).
    assert_eq!(q.bytes, 5000);
    assert_eq!(q.rcu.total, 1.0);
    assert_eq!(q.rcu.table, 0.0);
    assert_eq!(q.rcu.index("GSI1"), 1.0);
}

#[test]
fn query_is_capped_at_one_page() {
    let extra = r#"
[patterns.all]
operation = "Query"
key = { PK = "THING#{id}" }
returns = ["Thing"]
consistent_read = true

[traffic.patterns]
all = { items_per_read = 300 }
"#;
    let m = model(4096, "ALL", extra);
    // 300 × 4 KB > 1 MB: one page of 1 MB = 256 strongly consistent units.
    assert_eq!(pattern_cost(&m, "all").rcu.total, 256.0);
}

#[test]
fn batch_get_rounds_each_item() {
    let extra = r#"
[patterns.batch]
operation = "BatchGet"
key = { PK = "THING#{id}", SK = "THING" }
returns = ["Thing"]

[traffic.patterns]
batch = { items_per_read = 3 }
"#;
    let m = model(5 * 1024, "ALL", extra);
    // 3 × ceil(5 KB / 4 KB) × 0.5.
    assert_eq!(pattern_cost(&m, "batch").rcu.total, 3.0);
}

#[test]
fn transaction_of_three_1kb_items() {
    let source = r#"
[table]
name = "Things"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[entities.A]
attributes.id = { type = "string", required = true }
keys.PK = "A#{id}"
keys.SK = "A"

[patterns.tx]
operation = "TransactWrite"
writes = [{ entity = "A", count = 3 }]

[traffic]
default_item_size_bytes = 1024
"#;
    let m = parse(source);
    let tx = pattern_cost(&m, "tx");
    assert_eq!(tx.items, 3);
    assert_eq!(tx.wcu.total, 6.0);
}

#[test]
fn update_moving_an_index_key() {
    let m = model(800, "ALL", "");
    let thing = m.entity("Thing").unwrap();
    // status is in GSI1PK: delete + put in the index.
    let moved = update_units(&m, thing, &["status"], false);
    assert_eq!((moved.table, moved.index("GSI1")), (1.0, 2.0));
    // note is only projected: one index write.
    let projected = update_units(&m, thing, &["note"], false);
    assert_eq!((projected.table, projected.index("GSI1")), (1.0, 1.0));
    // KEYS_ONLY: a non-key change does not touch the index.
    let m = model(800, "KEYS_ONLY", "");
    let thing = m.entity("Thing").unwrap();
    let untouched = update_units(&m, thing, &["note"], false);
    assert_eq!((untouched.table, untouched.index("GSI1")), (1.0, 0.0));
    // Transactional update: the table write doubles.
    assert_eq!(update_units(&m, thing, &["status"], true).table, 2.0);
}

/// `Thing` in a native index keyed on its own `status` and `email`.
fn native(projection: &str) -> Model {
    parse(&format!(
        r#"
[table]
name = "Things"
partition_key = {{ name = "PK" }}
sort_key = {{ name = "SK" }}

[indexes.ByStatus]
partition_key = [{{ name = "status" }}]
sort_key = [{{ name = "email" }}]
projection = "{projection}"

[entities.Thing]
attributes.id = {{ type = "string", required = true }}
attributes.email = {{ type = "string", required = true, max_length = 320 }}
attributes.status = {{ type = "enum", values = ["NEW", "DONE"], required = true }}
attributes.note = {{ type = "string" }}
keys.PK = "THING#{{id}}"
keys.SK = "THING"

[traffic.entities]
Thing = {{ writes_per_second = 10, item_size_bytes = 800 }}
"#
    ))
}

#[test]
fn a_native_index_is_written_for_its_members() {
    let m = native("ALL");
    let thing = m.entity("Thing").unwrap();
    let put = put_units(&m, thing, false);
    assert_eq!((put.table, put.index("ByStatus")), (1.0, 1.0));
    // Its key is `status` itself: changing it moves the entry (delete + put).
    let moved = update_units(&m, thing, &["status"], false);
    assert_eq!(moved.index("ByStatus"), 2.0);
    let m = native("KEYS_ONLY");
    let thing = m.entity("Thing").unwrap();
    // PK "THING#"+26 (2+32), SK "THING" (2+5), status (6+4), email (5+26): the attributes.
    assert_eq!(
        index_entry_bytes(&m, thing, m.index("ByStatus").unwrap(), 800),
        34 + 7 + 10 + 31
    );
    assert_eq!(
        update_units(&m, thing, &["note"], false).index("ByStatus"),
        0.0
    );
    let report = estimate(&m, &PriceTable::default());
    let index = report
        .indexes
        .iter()
        .find(|i| i.index == "ByStatus")
        .unwrap();
    assert_eq!(index.wcu_per_second, 10.0);
}

#[test]
fn sizes_from_dynamodb_json() {
    let item = serde_json::json!({
        "PK": {"S": "USER#01HZX3"},      // 2 + 11
        "total": {"N": "12.50"},        // 5 + 3 (digits 125 → 2 + 1)
        "tags": {"SS": ["a", "bc"]},     // 4 + 3
        "m": {"M": {"k": {"BOOL": true}}}, // 1 + 3 + 1 + (1 + 1)
    });
    assert_eq!(item_size(&item), Some(13 + 8 + 7 + 7));
}

#[test]
fn monthly_prices() {
    let source = r#"
[table]
name = "Things"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[entities.A]
attributes.id = { type = "string", required = true }
keys.PK = "A#{id}"
keys.SK = "A"

[patterns.get]
operation = "GetItem"
key = { PK = "A#{id}", SK = "A" }
returns = ["A"]

[traffic]
default_item_size_bytes = 1024
[traffic.entities]
A = { writes_per_second = 10 }
[traffic.patterns]
get = { reads_per_second = 100 }
"#;
    let report = estimate(&parse(source), &PriceTable::default());
    let single = &report.designs[0];
    assert_eq!(single.rcu_per_second, 50.0);
    assert_eq!(single.wcu_per_second, 10.0);
    // 50 RRU/s × 2,628,000 s × $0.125/M + 10 WRU/s × 2,628,000 s × $0.625/M = 16.425 + 16.425
    assert_eq!(single.on_demand_monthly, Some(Decimal::new(3285, 2)));
    // (50 × 0.00013 + 10 × 0.00065) × 730
    assert_eq!(single.provisioned_monthly, Some(Decimal::new(949, 2)));
    assert_eq!(
        (single.provisioned_rcu, single.provisioned_wcu),
        (Some(50), Some(10))
    );
}

fn shop() -> CostReport {
    estimate(&parse(SHOP), &PriceTable::default())
}

#[test]
fn shop_hand_computed() {
    let report = shop();
    let p = |name: &str| report.patterns.iter().find(|p| p.name == name).unwrap();
    // User 600 B, eventually consistent.
    assert_eq!(p("getUser").rcu_per_call(), 0.5);
    // 1 Order of 1500 B + 10 OrderItems of 400 B = 5500 B → 2, strongly consistent.
    assert_eq!(p("getOrderWithItems").rcu_per_call(), 2.0);
    // Table per entity: Order 1500 B → 1, 10 OrderItems 4000 B → 1, in two requests.
    assert_eq!(p("getOrderWithItems").call.rcu_table_per_entity, 2.0);
    assert_eq!(p("getOrderWithItems").call.requests_table_per_entity, 2);
    // 20 orders × 1500 B = 30000 B → 8 × 0.5.
    assert_eq!(p("listUserOrders").rcu_per_call(), 4.0);
    // recordIdempotency 300 B (2) + placeOrder 1500 B (4 + 3 GSIs × 2) + 49 addOrderLine
    // 400 B (49 × 2) + 49 × the dearer of takeStock (2000 B: 4, and GSI1 and GSI2 rewritten
    // once each, 2 + 2; `stock` moves no key) and checkProduct (4, no index).
    let create = p("createOrder");
    assert_eq!(create.call.wcu.table, 2.0 + 4.0 + 98.0 + 196.0);
    assert_eq!(create.call.wcu.index("GSI1"), 2.0 + 98.0);
    assert_eq!(create.call.wcu.index("GSI3"), 2.0);
    assert_eq!(create.wcu_per_call(), 300.0 + 6.0 + 196.0);
    assert_eq!(create.call.items, 100);
    // Sign-up: createUser 600 B and claimEmail 200 B, transactional.
    assert_eq!(p("registerUser").wcu_per_call(), 4.0);
    // Status change, by its `sets`: table 2, GSI2 and GSI3 moved (status, day: 2 × 2 each),
    // GSI1 rewritten once (2): its key does not change.
    let status = p("updateOrderStatus");
    assert_eq!(status.call.wcu.table, 2.0);
    assert_eq!(status.call.wcu.index("GSI1"), 2.0);
    assert_eq!(status.call.wcu.index("GSI2"), 4.0);
    assert_eq!(status.wcu_per_call(), 12.0);
    // A product's check: the 2000 B it reads, 2 write units, doubled; no index.
    assert_eq!(p("checkProduct").wcu_per_call(), 4.0);
    assert_eq!(p("checkProduct").call.wcu.table, 4.0);
    // Cancel: the status change in the transaction (4 + 2 + 4 + 4) and 49 restocks (4 + 2 + 2).
    assert_eq!(p("cancelOrder").wcu_per_call(), 14.0 + 49.0 * 8.0);
    // A product change moves GSI1 (category, published) and GSI2 (gated by published).
    assert_eq!(p("updateProduct").wcu_per_call(), 2.0 + 4.0 + 4.0);
}

#[test]
fn shop_human() {
    insta::assert_snapshot!("shop_cost_human", shop().render_human());
}

#[test]
fn shop_json_is_json() {
    let json: serde_json::Value = serde_json::from_str(&shop().render_json()).expect("json");
    assert_eq!(json["table"], "Shop");
    assert!(json["designs"][0]["on_demand_monthly"].is_string());
}

#[test]
fn seed_without_traffic_has_per_call_figures_only() {
    let report = estimate(&parse(SEED), &PriceTable::default());
    assert!(!report.traffic);
    assert!(report.designs.is_empty());
    assert!(
        report
            .patterns
            .iter()
            .all(|p| p.requests_per_second.is_none())
    );
    // createOrderWithItems: Order + "many" OrderItems = 99, both 1 KB, transactional.
    let tx = report
        .patterns
        .iter()
        .find(|p| p.name == "createOrderWithItems")
        .unwrap();
    assert_eq!(tx.call.items, 100);
    assert_eq!(tx.call.wcu.table, 200.0);
    let _ = report.render_human();
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    #[test]
    fn estimate_never_panics_on_line_edits(drop in 0usize..300, shop in proptest::prelude::any::<bool>()) {
        let base = if shop { SHOP } else { SEED };
        let edited: Vec<&str> = base.lines().enumerate().filter(|(i, _)| *i != drop).map(|(_, l)| l).collect();
        if let Ok(model) = monotable_model::parse(&edited.join("\n")) {
            let report = estimate(&model, &PriceTable::default());
            let _ = report.render_human();
            let _ = report.render_json();
            for p in &model.patterns {
                let _ = capacity_for(&model, p);
            }
        }
    }

    #[test]
    fn price_files_never_panic(s in proptest::prelude::any::<String>()) {
        let _ = PriceTable::from_toml(&s);
    }

    #[test]
    fn sizes_never_panic(s in proptest::prelude::any::<String>()) {
        let _ = monotable_check::cost::number_size(&s);
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&s) {
            let _ = item_size(&v);
        }
    }
}

#[test]
fn actual_entries_of_sample_items() {
    use monotable_check::cost::actual_entry_bytes;
    let m = model(800, "KEYS_ONLY", "");
    let item = serde_json::json!({
        "PK": {"S": "THING#1"},        // 2 + 7
        "SK": {"S": "THING"},          // 2 + 5
        "GSI1PK": {"S": "STATUS#NEW"}, // 6 + 10
        "GSI1SK": {"S": "a@b.c"},      // 6 + 5
        "note": {"S": "hello"},        // 4 + 5
    });
    assert_eq!(
        actual_entry_bytes(&m, None, &item),
        Some(9 + 7 + 16 + 11 + 9)
    );
    assert_eq!(
        actual_entry_bytes(&m, Some("GSI1"), &item),
        Some(9 + 7 + 16 + 11)
    );
    let sparse = serde_json::json!({ "PK": {"S": "THING#1"}, "SK": {"S": "THING"} });
    assert_eq!(actual_entry_bytes(&m, Some("GSI1"), &sparse), None);
}

/// A model whose figures are beyond what the model file accepts (only a `Model` built in code
/// can hold them): every size, count and rate at the type's maximum.
fn beyond_bounds(mut m: Model) -> Model {
    for t in m.traffic.entities.values_mut() {
        t.item_size_bytes = Some(u64::MAX);
        t.writes_per_second = Some(f64::MAX);
        t.items = Some(u64::MAX);
    }
    for t in m.traffic.patterns.values_mut() {
        t.items_per_read = Some(u64::MAX);
        t.reads_per_second = Some(f64::MAX);
    }
    for p in &mut m.patterns {
        for w in &mut p.writes {
            w.count = Some(u64::MAX);
        }
    }
    for e in &mut m.entities {
        for a in &mut e.attributes {
            a.max_length = Some(u64::MAX);
            a.max_items = Some(u64::MAX);
        }
    }
    m.traffic.default_item_size_bytes = u64::MAX;
    m
}

#[test]
fn extreme_figures_do_not_panic() {
    // The largest figures a model file accepts.
    let extra = r#"
[patterns.all]
operation = "Query"
key = { PK = "THING#{id}" }
returns = ["Thing"]

[patterns.tx]
operation = "TransactWrite"
writes = [{ entity = "Thing", count = 100 }, { entity = "Thing", count = 100 }]

[traffic.patterns]
all = { reads_per_second = 1e9, items_per_read = 1048576 }
"#;
    let largest = model(409_600, "KEYS_ONLY", extra);
    let beyond = beyond_bounds(largest.clone());
    let dearest = PriceTable::from_toml(
        "hours_per_month = \"744\"\non_demand_read_per_million = \"1000000\"",
    )
    .expect("the largest plausible prices");
    for (m, prices) in [
        (&largest, PriceTable::default()),
        (&largest, dearest.clone()),
        (&beyond, dearest),
    ] {
        let report = estimate(m, &prices);
        let human = report.render_human();
        let json = report.render_json();
        for text in [&human, &json] {
            // Never the decimal type's maximum, never NaN, never a negative amount.
            assert!(!text.contains("79228162514264337593543950335"), "{text}");
            assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
        }
        for d in &report.designs {
            for amount in [d.on_demand_monthly, d.provisioned_monthly]
                .into_iter()
                .flatten()
            {
                assert!(!amount.is_sign_negative(), "{amount}");
            }
        }
    }
}

#[test]
fn a_workload_too_large_to_price_says_so() {
    // Reads/s and items of 2^64 bytes (a `Model` built in code; the file refuses them) at the
    // dearest plausible price.
    let extra = r#"
[patterns.get]
operation = "GetItem"
key = { PK = "THING#{id}", SK = "THING" }
returns = ["Thing"]
consistent_read = true

[traffic.patterns]
get = { reads_per_second = 1e9 }
"#;
    let m = beyond_bounds(model(409_600, "ALL", extra));
    let dearest = PriceTable::from_toml(
        "hours_per_month = \"744\"\non_demand_read_per_million = \"1000000\"",
    )
    .expect("the largest plausible prices");
    let report = estimate(&m, &dearest);
    let single = &report.designs[0];
    assert_eq!(single.on_demand_monthly, None);
    let human = report.render_human();
    assert!(human.contains("too large to price"), "{human}");
    let json: serde_json::Value = serde_json::from_str(&report.render_json()).expect("json");
    assert!(json["designs"][0]["on_demand_monthly"].is_null());
}

#[test]
fn a_small_write_amplification_is_not_zero() {
    // 29,900 writes/s stay on the table; 100/s also go to GSI1: 100 / 30,000 ≈ 0.0033.
    let source = r#"
[table]
name = "Things"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[indexes.GSI1]
partition_key = { name = "GSI1PK" }
sort_key = { name = "GSI1SK" }

[entities.Log]
attributes.id = { type = "string", required = true }
keys.PK = "LOG#{id}"
keys.SK = "LOG"

[entities.Alert]
attributes.id = { type = "string", required = true }
attributes.kind = { type = "string", required = true }
keys.PK = "ALERT#{id}"
keys.SK = "ALERT"
keys.GSI1PK = "KIND#{kind}"
keys.GSI1SK = "{id}"

[patterns.byKind]
operation = "Query"
index = "GSI1"
key = { GSI1PK = "KIND#{kind}" }
returns = ["Alert"]
paginate = true

[traffic]
default_item_size_bytes = 1000

[traffic.entities]
Log = { writes_per_second = 29900 }
Alert = { writes_per_second = 100 }
"#;
    let report = estimate(&parse(source), &PriceTable::default());
    let gsi = report
        .indexes
        .iter()
        .find(|i| i.index == "GSI1")
        .expect("GSI1");
    assert_eq!(gsi.wcu_per_second, 100.0);
    let human = report.render_human();
    let row = human
        .lines()
        .find(|l| l.split_whitespace().take(2).eq(["GSI1", "global"]))
        .expect("GSI1 row");
    assert!(row.ends_with(" 0.0033x"), "{row}");
    // Large figures print in full.
    assert!(human.contains("30000"), "{human}");
}
