//! Native multi-attribute index keys: how the model reads them, what it refuses (where DynamoDB
//! allows one attribute, more than four, a type conflict, a template on a native attribute), and
//! DynamoDB's query rules on patterns over them, each with the attribute it names.

use monotable_model::{KeyTest, parse};

const BASE: &str = r#"
[table]
name = "Orders"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[indexes.ByStatus]
partition_key = [{ name = "status" }, { name = "shard", type = "N" }]
sort_key = [{ name = "createdAt" }, { name = "orderId" }]

[entities.Order]
attributes.orderId = { type = "string", required = true }
attributes.status = { type = "enum", values = ["NEW", "DONE"], required = true }
attributes.shard = { type = "integer", required = true, cardinality = 4 }
attributes.createdAt = { type = "timestamp", format = "rfc3339-utc-millis", required = true }
attributes.note = { type = "string" }
keys.PK = "ORDER#{orderId}"
keys.SK = "ORDER"
"#;

fn pattern(key: &str) -> String {
    format!(
        "{BASE}\n[patterns.byStatus]\noperation = \"Query\"\nindex = \"ByStatus\"\nkey = {key}\nreturns = [\"Order\"]\nparams.from = {{ type = \"timestamp\", format = \"rfc3339-utc-millis\" }}\nparams.to = {{ type = \"timestamp\", format = \"rfc3339-utc-millis\" }}\nparams.id = {{ type = \"string\" }}\n"
    )
}

fn issues(source: &str) -> Vec<String> {
    match parse(source) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .issues
            .into_iter()
            .map(|i| format!("{} [{}]", i.message, i.help.unwrap_or_default()))
            .collect(),
    }
}

fn one_issue(source: &str, needle: &str) {
    let got = issues(source);
    assert!(
        got.len() == 1 && got[0].contains(needle),
        "expected one issue containing {needle:?}, got {got:?}"
    );
}

#[test]
fn a_native_index_lists_its_attributes_in_order() {
    let model = parse(&pattern(
        r#"{ status = "{status}", shard = "{shard}", createdAt = "between({from}, {to})" }"#,
    ))
    .expect("valid");
    let index = model.index("ByStatus").unwrap();
    assert!(index.native);
    let names: Vec<&str> = index.key_attributes().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["status", "shard", "createdAt", "orderId"]);
    assert_eq!(
        model.key_attribute_type("shard"),
        Some(monotable_model::KeyAttributeType::N)
    );
    let order = model.entity("Order").unwrap();
    assert!(index.native_member(order) && index.native_always(order));
    let p = model.pattern("byStatus").unwrap();
    let keyed: Vec<&str> = p.key.iter().map(|k| k.attribute.as_str()).collect();
    assert_eq!(keyed, ["status", "shard", "createdAt"]);
    assert_eq!(p.pk.as_ref().unwrap().attribute, "status");
    let sk = p.sk.as_ref().unwrap();
    assert_eq!(sk.attribute, "createdAt");
    assert!(matches!(sk.condition, KeyTest::Between(..)));
}

#[test]
fn an_entity_lacking_an_attribute_is_not_in_the_index() {
    let source = BASE.replace(
        "attributes.shard = { type = \"integer\", required = true, cardinality = 4 }",
        "attributes.shard = { type = \"integer\", cardinality = 4 }",
    );
    let model = parse(&source).expect("valid");
    let index = model.index("ByStatus").unwrap();
    let order = model.entity("Order").unwrap();
    assert!(index.native_member(order));
    assert!(
        !index.native_always(order),
        "an optional key attribute makes it sparse"
    );
}

#[test]
fn the_table_keys_and_local_indexes_keep_one_attribute() {
    let table = BASE.replace(
        "partition_key = { name = \"PK\" }",
        "partition_key = [{ name = \"PK\" }, { name = \"tenant\" }]",
    );
    one_issue(&table, "only on global secondary indexes");
    let local = format!(
        "{BASE}\n[indexes.Local]\nkind = \"local\"\nsort_key = [{{ name = \"a\" }}, {{ name = \"b\" }}]\n"
    );
    one_issue(&local, "only on global secondary indexes");
}

#[test]
fn more_than_four_attributes_or_a_repeat_are_refused() {
    let five = BASE.replace(
        r#"sort_key = [{ name = "createdAt" }, { name = "orderId" }]"#,
        r#"sort_key = [{ name = "a" }, { name = "b" }, { name = "c" }, { name = "d" }, { name = "e" }]"#,
    );
    one_issue(&five, "lists 5 attributes, and DynamoDB takes 0 to 4");
    let none = BASE.replace(
        r#"partition_key = [{ name = "status" }, { name = "shard", type = "N" }]"#,
        "partition_key = []",
    );
    one_issue(&none, "lists 0 attributes, and DynamoDB takes 1 to 4");
    let twice = BASE.replace(r#"{ name = "orderId" }]"#, r#"{ name = "createdAt" }]"#);
    one_issue(&twice, "lists `createdAt` twice");
}

#[test]
fn one_attribute_has_one_type() {
    let conflict = BASE.replace(
        "attributes.shard = { type = \"integer\"",
        "attributes.shard = { type = \"string\"",
    );
    one_issue(&conflict, "index `ByStatus` keys on it as N");
    let table_clash = format!(
        "{BASE}\n[indexes.Other]\npartition_key = [{{ name = \"shard\", type = \"S\" }}]\n"
    );
    one_issue(&table_clash, "typed S here and N in index `ByStatus`");
}

#[test]
fn a_native_attribute_is_not_written_through_a_template() {
    let templated = BASE.replace(
        "keys.SK = \"ORDER\"",
        "keys.SK = \"ORDER\"\nkeys.status = \"S#{status}\"",
    );
    one_issue(&templated, "writes it through a key template");
}

#[test]
fn every_partition_attribute_needs_an_equality() {
    one_issue(
        &pattern(r#"{ status = "{status}" }"#),
        "gives no condition on `shard`",
    );
    one_issue(
        &pattern(r#"{ status = "{status}", shard = ">= {shard}" }"#),
        "its condition in `byStatus` must be an equality",
    );
}

#[test]
fn sort_attributes_go_left_to_right_with_no_gaps() {
    one_issue(
        &pattern(r#"{ status = "{status}", shard = "{shard}", orderId = "{id}" }"#),
        "gives `orderId` but not `createdAt` before it",
    );
    one_issue(
        &pattern(
            r#"{ status = "{status}", shard = "{shard}", createdAt = ">= {from}", orderId = "{id}" }"#,
        ),
        "only the last sort attribute given may carry a range",
    );
    assert!(
        issues(&pattern(
            r#"{ status = "{status}", shard = "{shard}", createdAt = "{from}", orderId = "begins_with({id})" }"#
        ))
        .is_empty()
    );
}

#[test]
fn a_native_condition_compares_the_plain_value() {
    one_issue(
        &pattern(r#"{ status = "STATUS#{status}", shard = "{shard}" }"#),
        "builds a string",
    );
    one_issue(
        &pattern(r#"{ status = "{status}", shard = "{shard}", note = "{id}" }"#),
        "`note` is not a key attribute of index `ByStatus`",
    );
}
