//! A stream consumer's role: its stream reads, exactly the actions of the write and read
//! patterns it names (a read on the table, a Query or Scan on the index it reads, nothing of
//! the model's other patterns), and its failure destination; the SAM template renders each
//! resource as its ARN.

use monotable_export::{PolicyResource, consumer_statements, sam};
use monotable_model::Model;

/// Two indexes, two entities, a read of each kind and two puts (cfn-lint checks it too).
pub(crate) const MODEL: &str = r#"
[table]
name = "Things"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "SK", type = "S" }
stream = "NEW_AND_OLD_IMAGES"

[indexes.ByOwner]
partition_key = { name = "OwnerPK" }
sort_key = { name = "OwnerSK" }

[indexes.ByDay]
partition_key = { name = "DayPK" }
sort_key = { name = "DaySK" }

[entities.Thing]
attributes.id = { type = "string", required = true }
attributes.owner = { type = "string", required = true }
attributes.day = { type = "timestamp", format = "date", required = true }
keys.PK = "THING#{id}"
keys.SK = "THING"
keys.OwnerPK = "OWNER#{owner}"
keys.OwnerSK = "THING#{id}"
keys.DayPK = "DAY#{day}"
keys.DaySK = "THING#{id}"

[entities.Tally]
attributes.owner = { type = "string", required = true }
attributes.things = { type = "integer", required = true }
keys.PK = "TALLY#{owner}"
keys.SK = "TALLY"

[patterns.getThing]
operation = "GetItem"
key = { PK = "THING#{id}", SK = "THING" }
returns = ["Thing"]

[patterns.getThings]
operation = "BatchGet"
key = { PK = "THING#{id}", SK = "THING" }
returns = ["Thing"]

[patterns.byOwner]
operation = "Query"
index = "ByOwner"
key = { OwnerPK = "OWNER#{owner}" }
returns = ["Thing"]

[patterns.byDay]
operation = "Query"
index = "ByDay"
key = { DayPK = "DAY#{day}" }
returns = ["Thing"]

[patterns.everyThing]
operation = "Scan"
index = "ByDay"
returns = ["Thing"]

[patterns.putThing]
operation = "PutItem"
key = { PK = "THING#{id}", SK = "THING" }
returns = ["Thing"]

[patterns.putTally]
operation = "PutItem"
key = { PK = "TALLY#{owner}", SK = "TALLY" }
returns = ["Tally"]
"#;

/// [`MODEL`] with one consumer `counter` of `Thing`, whose `writes` and `reads` are `runs`.
pub(crate) fn source(runs: &str) -> String {
    format!(
        "{MODEL}\n[consumers.counter]\nentities = [\"Thing\"]\non_failure = \"queue\"\n{runs}\n"
    )
}

fn model(runs: &str) -> Model {
    monotable_model::parse(&source(runs)).unwrap_or_else(|e| panic!("{:#?}", e.issues))
}

/// (resource, actions) of the consumer's role, in order.
fn grants(m: &Model) -> Vec<(PolicyResource, Vec<&'static str>)> {
    let c = m.consumer("counter").expect("consumer");
    consumer_statements(m, c)
        .into_iter()
        .map(|s| (s.resource, s.actions))
        .collect()
}

/// The grants beyond reading the stream and sending to the queue.
fn table_grants(m: &Model) -> Vec<(PolicyResource, Vec<&'static str>)> {
    grants(m)
        .into_iter()
        .filter(|(r, _)| matches!(r, PolicyResource::Table | PolicyResource::Index(_)))
        .collect()
}

#[test]
fn a_consumer_without_reads_may_read_nothing_of_the_table() {
    let m = model("writes = [\"putTally\"]");
    assert_eq!(
        table_grants(&m),
        [(PolicyResource::Table, vec!["dynamodb:PutItem"])]
    );
}

#[test]
fn a_query_on_an_index_is_granted_on_that_index_only() {
    let m = model("writes = [\"putTally\"]\nreads = [\"byOwner\"]");
    assert_eq!(
        table_grants(&m),
        [
            (PolicyResource::Table, vec!["dynamodb:PutItem"]),
            (
                PolicyResource::Index("ByOwner".into()),
                vec!["dynamodb:Query"]
            ),
        ]
    );
    // Not `ByDay`, which the model's other patterns read and the consumer does not.
    let template: serde_json::Value = serde_json::from_str(&sam(&m)).expect("JSON");
    let statements = &template["Resources"]["CounterConsumerRole"]["Properties"]["Policies"][0]["PolicyDocument"]
        ["Statement"];
    let index = statements
        .as_array()
        .expect("statements")
        .iter()
        .find(|s| s["Action"] == serde_json::json!(["dynamodb:Query"]))
        .expect("the index statement");
    assert_eq!(
        index["Resource"],
        serde_json::json!({"Fn::Sub": "${Table.Arn}/index/ByOwner"})
    );
    assert!(
        !statements.to_string().contains("ByDay"),
        "only the index it reads: {statements}"
    );
}

#[test]
fn reads_on_the_table_join_its_writes_in_one_statement() {
    // A GetItem and a BatchGet: the table's own read actions, with the put, on the table.
    let m = model("writes = [\"putTally\"]\nreads = [\"getThing\", \"getThings\"]");
    assert_eq!(
        table_grants(&m),
        [(
            PolicyResource::Table,
            vec![
                "dynamodb:BatchGetItem",
                "dynamodb:GetItem",
                "dynamodb:PutItem"
            ]
        )]
    );
}

#[test]
fn a_reading_consumer_that_writes_nothing_is_granted_its_reads_alone() {
    // Two reads of one index (a Query and a Scan) share its statement; no write action.
    let m = model("reads = [\"byDay\", \"everyThing\"]");
    assert_eq!(
        table_grants(&m),
        [(
            PolicyResource::Index("ByDay".into()),
            vec!["dynamodb:Query", "dynamodb:Scan"]
        )]
    );
    // The stream and the queue are there as ever, first and last.
    let all = grants(&m);
    assert_eq!(all.first().map(|g| &g.0), Some(&PolicyResource::Stream));
    assert!(matches!(
        all.last().map(|g| &g.0),
        Some(PolicyResource::FailureDestination(_))
    ));
}
