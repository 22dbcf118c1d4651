//! Write patterns costed from what they send, against hand-computed units: a conditional put, a
//! replace, an update by its `sets`, a ConditionCheck as a transaction charges it, a
//! TransactWrite of actions (counts, the dearest of a `one_of`), a BatchWrite per item, and a
//! write pattern's own `writes_per_second`, and a stream consumer's writes at its input's rate.

use monotable_check::cost::{CallCost, PriceTable, call_cost, estimate};
use monotable_model::Model;

/// `Thing` (1536 B: 2 write units) in `GSI1` (ALL: its entry is the item), keyed by its status;
/// `Tag` (300 B: 1 unit) in no index; the write patterns below, and `extra`.
fn model(extra: &str) -> Model {
    let source = format!(
        r#"
[table]
name = "Things"
partition_key = {{ name = "PK" }}
sort_key = {{ name = "SK" }}
stream = "NEW_AND_OLD_IMAGES"

[indexes.GSI1]
partition_key = {{ name = "GSI1PK" }}
sort_key = {{ name = "GSI1SK" }}

[entities.Thing]
attributes.id = {{ type = "string", required = true }}
attributes.status = {{ type = "enum", values = ["NEW", "DONE"], required = true }}
attributes.note = {{ type = "string" }}
attributes.version = {{ type = "integer", required = true }}
keys.PK = "THING#{{id}}"
keys.SK = "THING"
keys.GSI1PK = "STATUS#{{status}}"
keys.GSI1SK = "THING#{{id}}"

[entities.Tag]
attributes.id = {{ type = "string", required = true }}
attributes.tag = {{ type = "string", required = true }}
keys.PK = "THING#{{id}}"
keys.SK = "TAG#{{tag}}"

[patterns.create]
operation = "PutItem"
key = {{ PK = "THING#{{id}}", SK = "THING" }}
returns = ["Thing"]
condition = "not_exists"

[patterns.replace]
operation = "PutItem"
key = {{ PK = "THING#{{id}}", SK = "THING" }}
returns = ["Thing"]
condition = "version(version)"

[patterns.annotate]
operation = "UpdateItem"
key = {{ PK = "THING#{{id}}", SK = "THING" }}
returns = ["Thing"]
sets = ["note"]
condition = "exists"

[patterns.finish]
operation = "UpdateItem"
key = {{ PK = "THING#{{id}}", SK = "THING" }}
returns = ["Thing"]
sets = ["status"]
condition = "version(version) and status = 'NEW'"

[patterns.check]
operation = "ConditionCheck"
key = {{ PK = "THING#{{id}}", SK = "THING" }}
returns = ["Thing"]
condition = "exists and status = 'NEW'"

[patterns.addTag]
operation = "PutItem"
key = {{ PK = "THING#{{id}}", SK = "TAG#{{tag}}" }}
returns = ["Tag"]

[patterns.dropTag]
operation = "DeleteItem"
key = {{ PK = "THING#{{id}}", SK = "TAG#{{tag}}" }}
returns = ["Tag"]

[traffic]
default_item_size_bytes = 1024

[traffic.entities]
Thing = {{ writes_per_second = 10, item_size_bytes = 1536 }}
Tag = {{ item_size_bytes = 300 }}
{extra}
"#
    );
    monotable_model::parse(&source).unwrap_or_else(|e| panic!("{:#?}", e.issues))
}

fn cost(m: &Model, name: &str) -> CallCost {
    call_cost(m, m.pattern(name).expect("pattern"))
}

/// (table, GSI1) write units of one call.
fn split(c: &CallCost) -> (f64, f64) {
    (c.wcu.table, c.wcu.index("GSI1"))
}

#[test]
fn single_item_writes_cost_what_they_send() {
    let m = model("");
    // A create: the item (2) and its GSI1 entry (2); a failed condition still charges the table.
    let create = cost(&m, "create");
    assert_eq!(split(&create), (2.0, 2.0));
    assert_eq!(create.wcu_if_condition_fails, 2.0);
    // A replace (its condition needs the item): the index key may move, delete + put (2 × 2).
    let replace = cost(&m, "replace");
    assert_eq!(split(&replace), (2.0, 4.0));
    assert!(
        replace.notes.iter().any(|n| n.contains("a replace")),
        "{:?}",
        replace.notes
    );
    // An update of `note` only: GSI1's entry is rewritten once (ALL), its key does not move.
    assert_eq!(split(&cost(&m, "annotate")), (2.0, 2.0));
    // An update of `status` moves GSI1's key: two index writes of 2.
    let finish = cost(&m, "finish");
    assert_eq!(split(&finish), (2.0, 4.0));
    assert!(
        finish.notes.is_empty(),
        "sets are exact: {:?}",
        finish.notes
    );
    // A delete removes the entry: one index write.
    assert_eq!(split(&cost(&m, "dropTag")), (1.0, 0.0));
}

#[test]
fn a_condition_check_is_charged_as_a_transaction_charges_it() {
    let m = model("");
    let check = cost(&m, "check");
    // The 1536 B item it reads, in 1 KB write units (2), doubled; it writes no index.
    assert_eq!(split(&check), (4.0, 0.0));
    assert_eq!(check.wcu.total, 4.0);
    assert_eq!(check.rcu.total, 0.0, "the condition costs no read units");
    assert_eq!(check.items, 1);
}

#[test]
fn a_transaction_costs_twice_its_actions_table_part() {
    let m = model(
        r#"
[patterns.tx]
operation = "TransactWrite"
writes = [{ pattern = "create" }, { pattern = "addTag", count = 3 }, { one_of = ["finish", "check"], count = 2 }]
"#,
    );
    let tx = cost(&m, "tx");
    // create 2×2 + 2; 3 tags × 1×2; 2 × the dearer of finish (2×2 + 4) and check (4 + 0).
    assert_eq!(tx.items, 1 + 3 + 2);
    assert_eq!(tx.wcu.table, 4.0 + 6.0 + 8.0);
    assert_eq!(tx.wcu.index("GSI1"), 2.0 + 8.0);
    assert_eq!(tx.wcu.total, 28.0);
    assert_eq!(tx.wcu_if_condition_fails, 18.0);
    assert!(
        tx.notes
            .iter()
            .any(|n| n.contains("costed as the dearest alternative, `finish`")),
        "{:?}",
        tx.notes
    );
    // An unbounded action takes what the transaction can still hold.
    let m = model(
        r#"
[patterns.tx]
operation = "TransactWrite"
writes = [{ pattern = "create" }, { pattern = "addTag", count = "many" }]
"#,
    );
    let tx = cost(&m, "tx");
    assert_eq!(tx.items, 100);
    assert_eq!(tx.wcu.table, 4.0 + 99.0 * 2.0);
}

#[test]
fn a_batch_costs_its_items() {
    let m = model(
        r#"
[patterns.load]
operation = "BatchWrite"
writes = [{ pattern = "addTag", count = 10 }, { pattern = "dropTag", count = "many" }]
"#,
    );
    let load = cost(&m, "load");
    // Not transactional: 10 puts of 1, and the 15 deletes one request still holds.
    assert_eq!(load.items, 25);
    assert_eq!(split(&load), (25.0, 0.0));
    assert!(
        load.notes
            .iter()
            .any(|n| n.contains("`dropTag` count is unbounded; assumed the 15 items")),
        "{:?}",
        load.notes
    );
}

#[test]
fn a_write_pattern_rate_gives_its_units_per_second() {
    let m = model(
        r#"
[traffic.patterns]
finish = { writes_per_second = 20 }
"#,
    );
    let report = estimate(&m, &PriceTable::default());
    let finish = report.patterns.iter().find(|p| p.name == "finish").unwrap();
    assert_eq!(finish.requests_per_second, Some(20.0));
    assert_eq!(finish.wcu_per_second, Some(20.0 * 6.0));
    assert_eq!(finish.rcu_per_second, Some(0.0));
    // The entity's rate is costed as its dearest write: `finish` and `replace` (6 each) beat
    // the create (4); the first by name is named.
    let thing = report
        .entity_writes
        .iter()
        .find(|w| w.entity == "Thing")
        .unwrap();
    assert_eq!(
        (thing.costed_as.as_str(), thing.per_write.total),
        ("finish", 6.0)
    );
}

#[test]
fn a_consumers_writes_are_priced_at_the_rate_of_what_it_reads() {
    let m = model(
        r#"
[consumers.tagger]
entities = ["Thing"]
writes = ["addTag"]
"#,
    );
    let report = estimate(&m, &PriceTable::default());
    // `Thing` is written 10 times/s: the consumer runs `addTag` (1 unit) as often.
    let add = report.patterns.iter().find(|p| p.name == "addTag").unwrap();
    assert_eq!(add.requests_per_second, Some(10.0));
    assert_eq!(add.wcu_per_second, Some(10.0));
    let tag = report
        .entity_writes
        .iter()
        .find(|w| w.entity == "Tag")
        .expect("the consumer's writes of `Tag` are in the totals");
    assert_eq!(tag.writes_per_second, 10.0);
    // Without the consumer, `Tag` states no rate and is not in the totals.
    let plain = estimate(&model(""), &PriceTable::default());
    assert!(plain.entity_writes.iter().all(|w| w.entity != "Tag"));
    let drop = plain.patterns.iter().find(|p| p.name == "addTag").unwrap();
    assert_eq!(drop.requests_per_second, None);
}
