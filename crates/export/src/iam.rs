//! Least-privilege IAM statements derived from the model's access patterns.
//!
//! Each pattern maps to the DynamoDB IAM actions it needs ([`pattern_actions`]: its operation's,
//! or for a transaction those of the write patterns it runs); the resource is the table, or
//! `table/index/NAME` for a Query or Scan on an index. Only what the patterns use is granted.
//! A stream consumer's role ([`consumer_statements`]) reads the table's stream, runs its write
//! and read patterns, and sends failed batches to its destination.

use monotable_model::{Consumer, FailureDestination, Model, Operation, Pattern};

/// Where a statement applies.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum PolicyResource {
    /// The table's ARN.
    Table,
    /// `<table ARN>/index/NAME`.
    Index(String),
    /// The table's stream (its `StreamArn`).
    Stream,
    /// Every stream of the table, `<table ARN>/stream/*` (`ListStreams` names no one stream).
    Streams,
    /// A consumer's on-failure queue or topic.
    FailureDestination(FailureDestination),
}

/// What an event source mapping reads a stream with, on the stream itself.
pub const STREAM_READ_ACTIONS: [&str; 3] = [
    "dynamodb:DescribeStream",
    "dynamodb:GetRecords",
    "dynamodb:GetShardIterator",
];
/// How it finds the stream, on the table's streams.
pub const LIST_STREAMS_ACTION: &str = "dynamodb:ListStreams";

/// One `Allow` statement: actions on one resource.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PolicyStatement {
    /// The resource.
    pub resource: PolicyResource,
    /// The actions (`dynamodb:GetItem`, ...), sorted, without duplicates.
    pub actions: Vec<&'static str>,
}

/// The IAM actions one operation needs, when nothing more is known of it.
///
/// `TransactWrite` has no IAM action of its own (there is no `dynamodb:TransactWriteItems`
/// permission): DynamoDB authorizes each action in the transaction as the underlying `PutItem`,
/// `UpdateItem`, `DeleteItem` or `ConditionCheckItem`. A transaction whose actions name their
/// write patterns is granted exactly theirs ([`pattern_actions`]); one in the older form lists
/// only the entities it writes, not how, so it gets `PutItem`, `UpdateItem` and
/// `ConditionCheckItem` (a `Put` or `Update` of each written entity, guarded by condition
/// checks), and `DeleteItem` only comes from a `DeleteItem` pattern. A `BatchWrite` needs
/// `dynamodb:BatchWriteItem` alone.
pub fn actions(operation: Operation) -> &'static [&'static str] {
    match operation {
        Operation::GetItem => &["dynamodb:GetItem"],
        Operation::Query => &["dynamodb:Query"],
        Operation::BatchGet => &["dynamodb:BatchGetItem"],
        Operation::Scan => &["dynamodb:Scan"],
        Operation::PutItem => &["dynamodb:PutItem"],
        Operation::UpdateItem => &["dynamodb:UpdateItem"],
        Operation::DeleteItem => &["dynamodb:DeleteItem"],
        Operation::TransactWrite => &[
            "dynamodb:ConditionCheckItem",
            "dynamodb:PutItem",
            "dynamodb:UpdateItem",
        ],
        Operation::ConditionCheck => &["dynamodb:ConditionCheckItem"],
        Operation::BatchWrite => &["dynamodb:BatchWriteItem"],
    }
}

/// The IAM actions one pattern of `model` needs, sorted, without duplicates: its operation's
/// ([`actions`]), except for a `TransactWrite`, which needs those of the write patterns its
/// actions run (a `PutItem`, `UpdateItem`, `DeleteItem` or `ConditionCheckItem` each; an entry
/// in the older entity-only form, today's `PutItem`, `UpdateItem` and `ConditionCheckItem`).
pub fn pattern_actions(model: &Model, pattern: &Pattern) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = match pattern.operation {
        Operation::TransactWrite => pattern
            .writes
            .iter()
            .flat_map(|w| -> Vec<&'static str> {
                if w.patterns.is_empty() {
                    return actions(Operation::TransactWrite).to_vec();
                }
                w.patterns
                    .iter()
                    .filter_map(|name| model.pattern(name))
                    .flat_map(|p| actions(p.operation).iter().copied())
                    .collect()
            })
            .collect(),
        operation => actions(operation).to_vec(),
    };
    out.sort_unstable();
    out.dedup();
    out
}

/// The resource an operation on `index` touches: only Query and Scan read an index; every other
/// operation addresses the table by primary key.
fn resource(operation: Operation, index: Option<&str>) -> PolicyResource {
    match (operation, index) {
        (Operation::Query | Operation::Scan, Some(name)) => PolicyResource::Index(name.to_string()),
        _ => PolicyResource::Table,
    }
}

/// The statements the model's patterns need: one per resource used (the table first, then
/// indexes by name), each with the sorted union of its patterns' actions. Empty when the model has
/// no patterns.
pub fn policy_statements(model: &Model) -> Vec<PolicyStatement> {
    statements_of(model, model.patterns.iter())
}

/// The statements `patterns` need, one per resource (the table first, then indexes by name),
/// each with the sorted union of its patterns' actions.
fn statements_of<'m>(
    model: &Model,
    patterns: impl Iterator<Item = &'m Pattern>,
) -> Vec<PolicyStatement> {
    let mut statements: Vec<PolicyStatement> = Vec::new();
    for pattern in patterns {
        let resource = resource(pattern.operation, pattern.index_name());
        let position = match statements.iter().position(|s| s.resource == resource) {
            Some(position) => position,
            None => {
                statements.push(PolicyStatement {
                    resource,
                    actions: Vec::new(),
                });
                statements.len() - 1
            }
        };
        if let Some(statement) = statements.get_mut(position) {
            statement.actions.extend(pattern_actions(model, pattern));
        }
    }
    for statement in &mut statements {
        statement.actions.sort_unstable();
        statement.actions.dedup();
    }
    statements.sort_by(|a, b| a.resource.cmp(&b.resource));
    statements
}

/// The statements a consumer's role needs: read the table's stream ([`STREAM_READ_ACTIONS`],
/// and [`LIST_STREAMS_ACTION`] on the table's streams), the actions of its write and read
/// patterns (on the table, and a Query or Scan on its index), and `sqs:SendMessage` or
/// `sns:Publish` on its failure destination.
pub fn consumer_statements(model: &Model, consumer: &Consumer) -> Vec<PolicyStatement> {
    let mut statements = vec![
        PolicyStatement {
            resource: PolicyResource::Stream,
            actions: STREAM_READ_ACTIONS.to_vec(),
        },
        PolicyStatement {
            resource: PolicyResource::Streams,
            actions: vec![LIST_STREAMS_ACTION],
        },
    ];
    let runs = consumer
        .writes
        .iter()
        .chain(&consumer.reads)
        .filter_map(|name| model.pattern(name));
    statements.extend(statements_of(model, runs));
    if let Some(destination) = consumer.on_failure {
        statements.push(PolicyStatement {
            resource: PolicyResource::FailureDestination(destination),
            actions: vec![match destination {
                FailureDestination::Queue => "sqs:SendMessage",
                FailureDestination::Topic => "sns:Publish",
            }],
        });
    }
    statements
}
