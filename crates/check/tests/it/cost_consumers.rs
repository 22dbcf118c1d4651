//! Stream consumers in `cost`: every row agrees with the totals (the read rows sum to the read
//! units priced, a consumer's write rows to the entity writes priced as them, its section to
//! both), for the shop and the streams example, against hand-computed figures; and the shapes
//! around them: an aggregate written only through a transaction, a write pattern two consumers
//! share, a consumer's read of a sharded key, a consumer pattern with a rate of its own; and
//! what `[traffic.consumers.NAME]` states a consumer handles, on a consumer of two reads and on
//! a filtered consumer of one entity, each with and without it, and on a consumer that states
//! only a read's rate.

use monotable_check::cost::{ConsumerPattern, CostReport, PatternCost, PriceTable, estimate};
use monotable_model::Model;
use rust_decimal::Decimal;

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");
const SALES: &str = include_str!("../../../../examples/streams/sales.toml");

fn report(source: &str) -> CostReport {
    let model: Model = monotable_model::parse(source).unwrap_or_else(|e| panic!("{:#?}", e.issues));
    estimate(&model, &PriceTable::default())
}

fn row<'r>(r: &'r CostReport, name: &str) -> &'r PatternCost {
    r.patterns
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no row {name}"))
}

#[track_caller]
fn near(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-6, "{a} != {b}");
}

/// What every report must hold: the read rows add up to the read units priced, the entity
/// writes to the write units priced, and each consumer's section to its rows and to the entity
/// writes priced as its patterns; no consumer row exceeds the whole workload.
#[track_caller]
fn rows_agree_with_totals(r: &CostReport) {
    let single = &r.designs[0];
    let reads: f64 = r.patterns.iter().filter_map(|p| p.rcu_per_second).sum();
    near(reads, single.rcu_per_second);
    let by_pool: f64 = r.indexes.iter().map(|i| i.rcu_per_second).sum();
    near(by_pool, single.rcu_per_second);
    let writes: f64 = r.entity_writes.iter().map(|w| w.per_second.total).sum();
    near(writes, single.wcu_per_second);
    // The consumers' write patterns, each once however many consumers list it.
    let mut own: Vec<&str> = r
        .consumers
        .iter()
        .flat_map(|c| c.patterns.iter())
        .filter(|p| p.kind == "write")
        .map(|p| p.pattern.as_str())
        .collect();
    own.sort_unstable();
    own.dedup();
    let priced_as: f64 = r
        .entity_writes
        .iter()
        .filter(|w| own.contains(&w.costed_as.as_str()))
        .map(|w| w.per_second.total)
        .sum();
    let rows: f64 = own.iter().filter_map(|n| row(r, n).wcu_per_second).sum();
    near(rows, priced_as);
    near(r.consumers.iter().map(|c| c.wcu_per_second).sum(), rows);
    for c in &r.consumers {
        let section = |f: fn(&ConsumerPattern) -> Option<f64>| -> f64 {
            c.patterns.iter().filter_map(f).sum()
        };
        near(c.rcu_per_second, section(|p| p.rcu_per_second));
        near(c.wcu_per_second, section(|p| p.wcu_per_second));
        for p in &c.patterns {
            assert!(
                p.wcu_per_second.unwrap_or(0.0) <= single.wcu_per_second,
                "{} alone writes more than the whole workload",
                p.pattern
            );
        }
    }
}

#[test]
fn the_shops_consumer_rows_add_up_to_its_total() {
    let r = report(SHOP);
    rows_agree_with_totals(&r);
    // Each line is one applySale of its marker and its product's day, 2 WCU each (doubled):
    // 500 calls/s, 2,000 WCU/s, the figure the entity writes price. Not 600 calls (every
    // record) of 100 WCU (49 lines): 60,000.
    let apply = row(&r, "applySale");
    assert_eq!(apply.requests_per_second, Some(500.0));
    assert_eq!(apply.wcu_per_second, Some(2000.0));
    assert_eq!(apply.wcu_per_call(), 100.0, "the per-call bound stays");
    // Opening a day is priced under applySale (ProductDailySales' dearest write): not again.
    let open = row(&r, "openSalesDay");
    assert_eq!(open.wcu_per_second, None);
    assert!(
        open.call
            .notes
            .iter()
            .any(|n| n.contains("`ProductDailySales` as `applySale`")),
        "{:?}",
        open.call.notes
    );
    // What the shop states its consumer handles: the 500 lines and the 2 cancellations a second
    // its events and filter let through (502 records/s), and the Query of a cancelled order's
    // lines (strongly consistent, 2 RCU) only for those 2: on top of the 300 reads/s the API
    // states.
    let read = row(&r, "getOrderWithItems");
    assert_eq!(read.requests_per_second, Some(302.0));
    assert_eq!(read.rcu_per_second, Some(604.0));
    let c = &r.consumers[0];
    assert_eq!(
        (
            c.consumer.as_str(),
            c.records_per_second,
            c.records_upper_bound
        ),
        ("productSales", Some(502.0), false)
    );
    assert_eq!((c.rcu_per_second, c.wcu_per_second), (4.0, 2000.0));
    // 4 RCU/s × $0.125/M + 2,000 WCU/s × $0.625/M, for 730 hours: 1.31 + 3,285.00.
    assert_eq!(c.on_demand_monthly, Some(Decimal::new(328_631, 2)));
    // Without those figures: every write of its entities (500 lines + 100 orders) is a record
    // and reads the lines, 600 × 2 RCU: 394.20 + 3,285.00, an upper bound it notes.
    let bound = report(
        SHOP.split("[traffic.consumers.productSales]")
            .next()
            .expect("the shop"),
    );
    rows_agree_with_totals(&bound);
    assert_eq!(
        row(&bound, "getOrderWithItems").rcu_per_second,
        Some(1800.0)
    );
    let c = &bound.consumers[0];
    assert_eq!(
        (c.records_per_second, c.records_upper_bound),
        (Some(600.0), true)
    );
    assert_eq!((c.rcu_per_second, c.wcu_per_second), (1200.0, 2000.0));
    assert_eq!(c.on_demand_monthly, Some(Decimal::new(367_920, 2)));
    // Half the writes are the idempotency markers: 500/s, 2 WCU each.
    let markers = r
        .entity_writes
        .iter()
        .find(|w| w.entity == "SaleApplied")
        .expect("markers");
    assert_eq!(
        (markers.costed_as.as_str(), markers.per_second.total),
        ("applySale", 1000.0)
    );
}

#[test]
fn the_streams_examples_aggregate_is_written_once_per_record() {
    let r = report(SALES);
    rows_agree_with_totals(&r);
    // 60 lines/s and 20 orders/s are 80 records; each changes the day's item once: 80 items/s,
    // not 80 for `addSales` and 80 more for `removeSales`.
    let days = r
        .entity_writes
        .iter()
        .find(|w| w.entity == "ProductDailySales")
        .expect("the aggregate is priced");
    assert_eq!(
        (days.writes_per_second, days.costed_as.as_str()),
        (80.0, "addSales")
    );
    assert_eq!(row(&r, "addSales").wcu_per_second, Some(80.0));
    assert_eq!(row(&r, "removeSales").wcu_per_second, None);
    // `getOrder` (0.5 RCU) once per record, beside the 50 reads/s stated.
    assert_eq!(row(&r, "getOrder").requests_per_second, Some(130.0));
    let c = &r.consumers[0];
    assert_eq!((c.rcu_per_second, c.wcu_per_second), (40.0, 80.0));
}

/// Orders with a stated rate, consumed by `extra`'s consumers.
fn orders(extra: &str) -> String {
    format!(
        r#"
[table]
name = "Orders"
partition_key = {{ name = "PK" }}
sort_key = {{ name = "SK" }}
stream = "NEW_AND_OLD_IMAGES"

[entities.Order]
attributes.orderId = {{ type = "string", required = true }}
attributes.day = {{ type = "timestamp", format = "date", required = true }}
attributes.shard = {{ type = "integer", required = true, cardinality = 4 }}
keys.PK = "ORDER#{{orderId}}"
keys.SK = "ORDER"

[entities.Tally]
attributes.day = {{ type = "timestamp", format = "date", required = true }}
attributes.shard = {{ type = "integer", required = true, cardinality = 4 }}
attributes.orders = {{ type = "integer", required = true }}
keys.PK = "TALLY#{{day}}#{{shard}}"
keys.SK = "TALLY"

[entities.Seen]
attributes.orderId = {{ type = "string", required = true }}
keys.PK = "SEEN#{{orderId}}"
keys.SK = "SEEN"

[patterns.placeOrder]
operation = "PutItem"
key = {{ PK = "ORDER#{{orderId}}", SK = "ORDER" }}
returns = ["Order"]
condition = "not_exists"

[patterns.markSeen]
operation = "PutItem"
key = {{ PK = "SEEN#{{orderId}}", SK = "SEEN" }}
returns = ["Seen"]
condition = "not_exists"

[patterns.count]
operation = "UpdateItem"
key = {{ PK = "TALLY#{{day}}#{{shard}}", SK = "TALLY" }}
returns = ["Tally"]
sets = ["orders"]

[patterns.countOnce]
operation = "TransactWrite"
writes = [{{ pattern = "markSeen" }}, {{ pattern = "count" }}]

[patterns.tallies]
operation = "Query"
key = {{ PK = "TALLY#{{day}}#{{shard}}" }}
returns = ["Tally"]

[traffic]
entities.Order = {{ writes_per_second = 40, item_size_bytes = 500 }}
entities.Tally = {{ item_size_bytes = 100 }}
entities.Seen = {{ item_size_bytes = 100 }}
{extra}
"#
    )
}

#[test]
fn an_aggregate_written_only_in_a_transaction_is_priced_once_per_record() {
    let r = report(&orders(
        "[consumers.tally]\nentities = [\"Order\"]\nevents = [\"INSERT\"]\nwrites = [\"countOnce\"]\n",
    ));
    rows_agree_with_totals(&r);
    // Neither `Tally` nor `Seen` states a rate: each is written once per order, in the
    // transaction (1 unit, doubled).
    for entity in ["Tally", "Seen"] {
        let w = r
            .entity_writes
            .iter()
            .find(|w| w.entity == entity)
            .unwrap_or_else(|| panic!("{entity} is priced"));
        assert_eq!(
            (
                w.writes_per_second,
                w.costed_as.as_str(),
                w.per_second.total
            ),
            (40.0, "countOnce", 80.0)
        );
    }
    let tx = row(&r, "countOnce");
    assert_eq!(
        (tx.requests_per_second, tx.wcu_per_second),
        (Some(40.0), Some(160.0))
    );
    // The actions it runs are not rows of their own at that rate.
    assert_eq!(row(&r, "count").wcu_per_second, None);
}

#[test]
fn two_consumers_of_one_write_pattern_share_its_row_by_their_records() {
    let extra = "\n[entities.Refund]\nattributes.orderId = { type = \"string\", required = true }\nkeys.PK = \"ORDER#{orderId}\"\nkeys.SK = \"REFUND\"\n\n[patterns.refund]\noperation = \"PutItem\"\nkey = { PK = \"ORDER#{orderId}\", SK = \"REFUND\" }\nreturns = [\"Refund\"]\ncondition = \"not_exists\"\n\n[traffic.entities.Refund]\nwrites_per_second = 10\n\n[consumers.orders]\nentities = [\"Order\"]\nevents = [\"INSERT\"]\nwrites = [\"count\"]\n\n[consumers.refunds]\nentities = [\"Refund\"]\nevents = [\"INSERT\"]\nwrites = [\"count\"]\n";
    let r = report(&orders(extra));
    rows_agree_with_totals(&r);
    // 40 + 10 records/s, one tally update each.
    assert_eq!(row(&r, "count").wcu_per_second, Some(50.0));
    let wcu = |name: &str| {
        r.consumers
            .iter()
            .find(|c| c.consumer == name)
            .map(|c| c.wcu_per_second)
    };
    assert_eq!((wcu("orders"), wcu("refunds")), (Some(40.0), Some(10.0)));
}

#[test]
fn a_consumers_read_of_a_sharded_key_queries_every_shard_per_record() {
    let r = report(&orders(
        "[consumers.tally]\nentities = [\"Order\"]\nevents = [\"INSERT\"]\nwrites = [\"count\"]\nreads = [\"tallies\"]\n",
    ));
    rows_agree_with_totals(&r);
    // 40 records/s, each four Queries (one per shard) of 0.5 RCU.
    let tallies = row(&r, "tallies");
    assert_eq!(tallies.requests_per_second, Some(160.0));
    assert_eq!(tallies.rcu_per_second, Some(80.0));
    let c = &r.consumers[0];
    assert_eq!(c.patterns[0].calls_per_second, Some(160.0));
    assert_eq!(c.rcu_per_second, 80.0);
}

#[test]
fn a_consumer_pattern_with_a_rate_of_its_own_keeps_it() {
    // The designer knows a tally is updated 5 times/s: the row says so, and `Tally`, stating
    // no rate, is written at that rate rather than once per record.
    let r = report(&orders(
        "[traffic.patterns]\ncount = { writes_per_second = 5 }\n\n[consumers.tally]\nentities = [\"Order\"]\nevents = [\"INSERT\"]\nwrites = [\"count\"]\n",
    ));
    rows_agree_with_totals(&r);
    assert_eq!(row(&r, "count").requests_per_second, Some(5.0));
    let tally = r
        .entity_writes
        .iter()
        .find(|w| w.entity == "Tally")
        .unwrap();
    assert_eq!(tally.writes_per_second, 5.0);
}

/// A consumer of orders that reads the sharded tallies (4 Queries of 0.5 RCU) and the order
/// (one GetItem of 0.5 RCU), and updates a tally; `figures` is its traffic.
fn two_reads(figures: &str) -> CostReport {
    report(&orders(&format!(
        "[consumers.tally]\nentities = [\"Order\"]\nevents = [\"INSERT\"]\nwrites = [\"count\"]\nreads = [\"tallies\", \"getOrder\"]\n\n[patterns.getOrder]\noperation = \"GetItem\"\nkey = {{ PK = \"ORDER#{{orderId}}\", SK = \"ORDER\" }}\nreturns = [\"Order\"]\n{figures}"
    )))
}

fn consumer_row<'r>(r: &'r CostReport, pattern: &str) -> &'r ConsumerPattern {
    r.consumers[0]
        .patterns
        .iter()
        .find(|p| p.pattern == pattern)
        .unwrap_or_else(|| panic!("no consumer row {pattern}"))
}

#[test]
fn a_consumer_of_two_reads_runs_each_at_its_stated_rate_else_once_per_record() {
    // Unstated: 40 records/s (every Order write), each read once per record.
    let bound = two_reads("");
    rows_agree_with_totals(&bound);
    assert_eq!(
        consumer_row(&bound, "tallies").calls_per_second,
        Some(160.0)
    );
    assert_eq!(
        consumer_row(&bound, "getOrder").calls_per_second,
        Some(40.0)
    );
    let c = &bound.consumers[0];
    assert_eq!(
        (c.records_per_second, c.records_upper_bound),
        (Some(40.0), true)
    );
    assert_eq!(c.rcu_per_second, 100.0);
    assert!(
        bound.notes.iter().any(|n| n.contains(
            "consumer `tally`: its records/s are its entities' writes/s, an upper bound"
        ) && n.contains("[traffic.consumers.tally] as `records_per_second` and `reads_per_second = { tallies = N, getOrder = N }`")),
        "{:?}",
        bound.notes
    );
    // Stated: 10 records/s after its events; the tallies read once a second, `getOrder`
    // (no rate of its own) once per record.
    let stated = two_reads(
        "\n[traffic.consumers.tally]\nrecords_per_second = 10\nreads_per_second = { tallies = 1 }\n",
    );
    rows_agree_with_totals(&stated);
    let tallies = consumer_row(&stated, "tallies");
    assert_eq!(
        (tallies.calls_per_second, tallies.rcu_per_second),
        (Some(4.0), Some(2.0))
    );
    let get = consumer_row(&stated, "getOrder");
    assert_eq!(
        (get.calls_per_second, get.rcu_per_second),
        (Some(10.0), Some(5.0))
    );
    let c = &stated.consumers[0];
    assert_eq!(
        (c.records_per_second, c.records_upper_bound),
        (Some(10.0), false)
    );
    assert_eq!(c.rcu_per_second, 7.0);
    // The pattern rows carry the same, and the tally it writes once per record is 10 items/s.
    assert_eq!(row(&stated, "tallies").requests_per_second, Some(4.0));
    assert_eq!(row(&stated, "getOrder").rcu_per_second, Some(5.0));
    assert_eq!(row(&stated, "count").wcu_per_second, Some(10.0));
    assert_eq!(c.wcu_per_second, 10.0);
    assert!(
        !stated.notes.iter().any(|n| n.contains("an upper bound")),
        "{:?}",
        stated.notes
    );
    let note = &row(&stated, "tallies").call.notes;
    assert!(
        note.iter()
            .any(|n| n == "run by consumer `tally` at the 1 reads/s its traffic states"),
        "{note:?}"
    );
}

#[test]
fn a_filtered_consumer_of_one_entity_handles_the_records_its_traffic_states() {
    // Only orders of shard 0 pass the filter: a quarter of the 40 orders/s.
    let consumer = "[consumers.tally]\nentities = [\"Order\"]\nfilter = { shard = [0] }\nwrites = [\"countOnce\"]\nreads = [\"tallies\"]\n";
    let bound = report(&orders(consumer));
    rows_agree_with_totals(&bound);
    assert_eq!(row(&bound, "countOnce").wcu_per_second, Some(160.0));
    let stated = report(&orders(&format!(
        "{consumer}\n[traffic.consumers.tally]\nrecords_per_second = 10\n"
    )));
    rows_agree_with_totals(&stated);
    // `Tally` and `Seen` state no rate: written once per record, 10/s each, doubled in the
    // transaction; the tallies read once per record, 4 Queries of 0.5 RCU.
    for entity in ["Tally", "Seen"] {
        let w = stated
            .entity_writes
            .iter()
            .find(|w| w.entity == entity)
            .unwrap_or_else(|| panic!("{entity} is priced"));
        assert_eq!((w.writes_per_second, w.per_second.total), (10.0, 20.0));
    }
    let tx = row(&stated, "countOnce");
    assert_eq!(
        (tx.requests_per_second, tx.wcu_per_second),
        (Some(10.0), Some(40.0))
    );
    assert_eq!(row(&stated, "tallies").rcu_per_second, Some(20.0));
    let c = &stated.consumers[0];
    assert_eq!((c.rcu_per_second, c.wcu_per_second), (20.0, 40.0));
    // 20 RCU/s × $0.125/M + 40 WCU/s × $0.625/M, for 730 hours: 6.57 + 65.70.
    assert_eq!(c.on_demand_monthly, Some(Decimal::new(7227, 2)));
}

#[test]
fn a_consumer_that_states_only_read_rates_is_still_an_upper_bound() {
    // The tallies read once a second; the records are still every Order write (40/s), and the
    // note asks for them and for the one read that states no rate.
    let r = two_reads("\n[traffic.consumers.tally]\nreads_per_second = { tallies = 1 }\n");
    rows_agree_with_totals(&r);
    assert_eq!(consumer_row(&r, "tallies").calls_per_second, Some(4.0));
    assert_eq!(consumer_row(&r, "getOrder").calls_per_second, Some(40.0));
    let c = &r.consumers[0];
    assert_eq!(
        (c.records_per_second, c.records_upper_bound),
        (Some(40.0), true)
    );
    assert!(
        r.notes.iter().any(|n| n.ends_with(
            "[traffic.consumers.tally] as `records_per_second` and `reads_per_second = { getOrder = N }`"
        )),
        "{:?}",
        r.notes
    );
}
