//! Least-privilege IAM statements derived from the model's access patterns.
//!
//! Each pattern's operation maps to the DynamoDB IAM actions it needs ([`actions`]); the resource
//! is the table, or `table/index/NAME` for a Query or Scan on an index. Only what the patterns use
//! is granted.

use monotable_model::{Model, Operation};

/// Where a statement applies.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum PolicyResource {
    /// The table's ARN.
    Table,
    /// `<table ARN>/index/NAME`.
    Index(String),
}

/// One `Allow` statement: actions on one resource.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PolicyStatement {
    /// The resource.
    pub resource: PolicyResource,
    /// The actions (`dynamodb:GetItem`, ...), sorted, without duplicates.
    pub actions: Vec<&'static str>,
}

/// The IAM actions one operation needs.
///
/// `TransactWrite` has no IAM action of its own (there is no `dynamodb:TransactWriteItems`
/// permission): DynamoDB authorizes each action in the transaction as the underlying `PutItem`,
/// `UpdateItem`, `DeleteItem` or `ConditionCheckItem`. The model lists the entities a transaction
/// writes but not how, so it gets `PutItem`, `UpdateItem` and `ConditionCheckItem` (a `Put` or
/// `Update` of each written entity, guarded by condition checks); `DeleteItem` only comes from a
/// `DeleteItem` pattern.
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
    let mut statements: Vec<PolicyStatement> = Vec::new();
    for pattern in &model.patterns {
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
            statement.actions.extend(actions(pattern.operation));
        }
    }
    for statement in &mut statements {
        statement.actions.sort_unstable();
        statement.actions.dedup();
    }
    statements.sort_by(|a, b| a.resource.cmp(&b.resource));
    statements
}
