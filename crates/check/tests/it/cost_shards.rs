//! `cost` prices a read of a sharded key as `check` counts it: one request per shard, each
//! for its share of the items and charged on its own, at least one read unit.

use monotable_check::cost::{
    PriceTable, ReadConsistency, call_cost, estimate, query_units, shard_queries,
};
use monotable_check::{ReportFormat, check_source};
use monotable_model::Model;

/// Orders by status sharded `shards` ways (1 KB each), read 20 at a time at 400 reads/s; a
/// day's total kept in `shards` counter items, and a user's item found by id beside its shard.
fn source(shards: u32) -> String {
    format!(
        r#"
[table]
name = "Shards"
partition_key = {{ name = "PK", type = "S" }}
sort_key = {{ name = "SK", type = "S" }}

[indexes.GSI1]
partition_key = {{ name = "GSI1PK" }}
sort_key = {{ name = "GSI1SK" }}

[entities.Order]
attributes.orderId = {{ type = "string", required = true }}
attributes.status = {{ type = "enum", values = ["NEW", "PAID"], required = true }}
attributes.shard = {{ type = "integer", required = true, cardinality = {shards} }}
keys.PK = "ORDER#{{orderId}}#{{shard}}"
keys.SK = "ORDER"
keys.GSI1PK = "STATUS#{{status}}#{{shard}}"
keys.GSI1SK = "{{orderId}}"

[entities.Total]
attributes.day = {{ type = "timestamp", format = "date", required = true }}
attributes.shard = {{ type = "integer", required = true, cardinality = {shards} }}
attributes.sum = {{ type = "integer", required = true }}
keys.PK = "TOTAL#{{day}}#{{shard}}"
keys.SK = "TOTAL"

[patterns.byStatus]
operation = "Query"
index = "GSI1"
key = {{ GSI1PK = "STATUS#{{status}}#{{shard}}" }}
returns = ["Order"]
paginate = true
limit = 20

[patterns.getOrder]
operation = "GetItem"
key = {{ PK = "ORDER#{{orderId}}#{{shard}}", SK = "ORDER" }}
returns = ["Order"]

[patterns.getTotal]
operation = "GetItem"
key = {{ PK = "TOTAL#{{day}}#{{shard}}", SK = "TOTAL" }}
returns = ["Total"]

[traffic.entities]
Order = {{ writes_per_second = 10, item_size_bytes = 1024 }}
Total = {{ writes_per_second = 10, item_size_bytes = 100 }}

[traffic.patterns]
byStatus = {{ reads_per_second = 400, items_per_read = 20 }}
getTotal = {{ reads_per_second = 5 }}
"#
    )
}

fn model(shards: u32) -> Model {
    monotable_model::parse(&source(shards)).expect("model")
}

#[test]
fn a_sharded_query_is_one_query_per_shard_each_charged_on_its_own() {
    for shards in [1u32, 3, 8, 32] {
        let m = model(shards);
        let p = m.pattern("byStatus").expect("pattern");
        let call = call_cost(&m, p);
        let (queries, each) = shard_queries(20, u64::from(shards));
        assert_eq!(call.requests, queries, "{shards} shards");
        let per_query = query_units(each * 1024, ReadConsistency::Eventual);
        assert_eq!(
            call.rcu.total,
            per_query * f64::from(shards),
            "{shards} shards"
        );
    }
    // By hand: 8 Queries of 3 items (3 KB, one unit, half of it): 4 RCU a read, not the 2.5 of
    // one Query of 20 KB.
    let m = model(8);
    assert_eq!(call_cost(&m, m.pattern("byStatus").unwrap()).rcu.total, 4.0);
    let m = model(1);
    assert_eq!(call_cost(&m, m.pattern("byStatus").unwrap()).rcu.total, 2.5);
}

#[test]
fn a_sharded_counter_is_read_once_per_shard_and_an_item_by_id_once() {
    let m = model(8);
    let total = call_cost(&m, m.pattern("getTotal").unwrap());
    assert_eq!((total.requests, total.rcu.total), (8, 4.0));
    // The shard beside an id is found from the id: one GetItem.
    let order = call_cost(&m, m.pattern("getOrder").unwrap());
    assert_eq!((order.requests, order.rcu.total), (1, 0.5));
}

#[test]
fn cost_says_how_many_queries_and_agrees_with_check() {
    let m = model(8);
    let report = estimate(&m, &PriceTable::default());
    let human = report.render_human();
    let row = human
        .lines()
        .find(|l| l.trim_start().starts_with("byStatus"))
        .expect("a row for byStatus");
    assert!(row.contains("Query ×8"), "{row}");
    assert!(
        human.contains("byStatus: its key is sharded 8 ways: each read is 8 Queries"),
        "{human}"
    );
    let by_status = report
        .patterns
        .iter()
        .find(|c| c.name == "byStatus")
        .unwrap();
    // 400 reads/s of 8 Queries: 3,200 Queries/s, 1,600 RCU/s.
    assert_eq!(by_status.requests_per_second, Some(3200.0));
    assert_eq!(by_status.rcu_per_second, Some(1600.0));
    // check's MT017 prices the extra shards the same way: 8 shards' RCU/s less 1 shard's.
    let one = estimate(&model(1), &PriceTable::default());
    let one = one.patterns.iter().find(|c| c.name == "byStatus").unwrap();
    let extra = by_status.rcu_per_second.unwrap() - one.rcu_per_second.unwrap();
    assert_eq!(extra, 600.0);
    let check = check_source("shards.toml", &source(8)).render(ReportFormat::Human);
    assert!(
        check.contains(
            "`byStatus` makes 8 Queries per read where 1 would do: ~2,800 more Queries/s at its 400 reads/s, ~600.0 more RCU/s"
        ),
        "{check}"
    );
}
