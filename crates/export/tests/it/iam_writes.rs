//! The IAM grant of write patterns: a transaction is granted the actions of the write patterns it
//! runs, no more; a batch `BatchWriteItem` alone; a transaction in the older entity-only form
//! keeps its grant (puts, updates and condition checks).

use monotable_export::{PolicyResource, pattern_actions, policy_statements};
use monotable_model::Model;

const MODEL: &str = r#"
[table]
name = "Things"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "SK", type = "S" }

[entities.Thing]
attributes.id = { type = "string", required = true }
attributes.open = { type = "boolean", required = true }
keys.PK = "THING#{id}"
keys.SK = "THING"

[entities.Tag]
attributes.id = { type = "string", required = true }
attributes.tag = { type = "string", required = true }
keys.PK = "THING#{id}"
keys.SK = "TAG#{tag}"

[patterns.checkOpen]
operation = "ConditionCheck"
key = { PK = "THING#{id}", SK = "THING" }
returns = ["Thing"]
condition = "exists and open = true"

[patterns.dropTag]
operation = "DeleteItem"
key = { PK = "THING#{id}", SK = "TAG#{tag}" }
returns = ["Tag"]
condition = "exists"

[patterns.putTag]
operation = "PutItem"
key = { PK = "THING#{id}", SK = "TAG#{tag}" }
returns = ["Tag"]
"#;

fn model(extra: &str) -> Model {
    monotable_model::parse(&format!("{MODEL}{extra}")).unwrap_or_else(|e| panic!("{e:?}"))
}

fn of(m: &Model, name: &str) -> Vec<&'static str> {
    pattern_actions(m, m.pattern(name).expect("pattern"))
}

#[test]
fn a_transaction_is_granted_what_its_actions_send() {
    let m = model(
        r#"
[patterns.untag]
operation = "TransactWrite"
writes = [{ pattern = "checkOpen" }, { pattern = "dropTag", count = 10 }]

[patterns.retag]
operation = "TransactWrite"
writes = [{ pattern = "checkOpen" }, { one_of = ["putTag", "dropTag"], count = 5 }]
"#,
    );
    // A check and deletes: no PutItem, no UpdateItem.
    assert_eq!(
        of(&m, "untag"),
        ["dynamodb:ConditionCheckItem", "dynamodb:DeleteItem"]
    );
    // Alternatives grant each alternative's action.
    assert_eq!(
        of(&m, "retag"),
        [
            "dynamodb:ConditionCheckItem",
            "dynamodb:DeleteItem",
            "dynamodb:PutItem"
        ]
    );
    // The policy is the union over the patterns, on the table; still no UpdateItem.
    let statements = policy_statements(&m);
    assert_eq!(statements.len(), 1);
    assert_eq!(statements[0].resource, PolicyResource::Table);
    assert_eq!(
        statements[0].actions,
        [
            "dynamodb:ConditionCheckItem",
            "dynamodb:DeleteItem",
            "dynamodb:PutItem"
        ]
    );
}

#[test]
fn a_batch_is_granted_batch_write_item_alone() {
    let m = model(
        r#"
[patterns.load]
operation = "BatchWrite"
writes = [{ pattern = "putTag", count = 100 }]
"#,
    );
    assert_eq!(of(&m, "load"), ["dynamodb:BatchWriteItem"]);
}

#[test]
fn a_transaction_of_entities_keeps_its_grant() {
    let m = model(
        r#"
[patterns.old]
operation = "TransactWrite"
writes = [{ entity = "Thing" }, { entity = "Tag", count = 3 }]

[patterns.mixed]
operation = "TransactWrite"
writes = [{ entity = "Thing" }, { pattern = "dropTag" }]
"#,
    );
    let old = [
        "dynamodb:ConditionCheckItem",
        "dynamodb:PutItem",
        "dynamodb:UpdateItem",
    ];
    assert_eq!(of(&m, "old"), old);
    // An entry of each form: the older one's grant and the pattern's.
    assert_eq!(
        of(&m, "mixed"),
        [
            "dynamodb:ConditionCheckItem",
            "dynamodb:DeleteItem",
            "dynamodb:PutItem",
            "dynamodb:UpdateItem"
        ]
    );
}
