//! TransactWriteItems: puts, updates, deletes and condition checks, at most [`MAX_ACTIONS`] of
//! them (checked before sending), cancellation reasons mapped back to the action and its item,
//! and a transaction that lost a race with another writer (`TransactionConflict`) retried with
//! backoff. Typed actions take entities and their keys ([`Transaction::create`],
//! [`Transaction::update`], ...); dynamic ones take what was built at run time
//! ([`Transaction::write`] of a [`PutSpec`], [`Transaction::apply`] of an [`UpdateItem`]'s
//! parts, [`Transaction::delete_item`]). `Transaction::call` is the one TransactWriteItems call;
//! it fails with [`TransactError`].

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{
    ConditionCheck, ConsumedCapacity, Delete, Put, ReturnConsumedCapacity, TransactWriteItem,
    Update as SdkUpdate,
};

use crate::entity::Entity;
use crate::handle::Table;
use crate::items::Item;
use crate::key::Key;
use crate::put::PutSpec;
use crate::service::ServiceError;
#[cfg(doc)]
use crate::update::UpdateItem;
use crate::update::{Update, UpdateParts};
use crate::write::{Condition, WriteError, describe};

/// Why one action of a cancelled transaction failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CancelReason {
    /// The action's position in the transaction.
    pub index: usize,
    /// The item: entity and key.
    pub item: String,
    /// DynamoDB's code: `ConditionalCheckFailed`, `TransactionConflict`, `ThrottlingError`, ...
    pub code: String,
    /// DynamoDB's message.
    pub message: Option<String>,
}

/// A transaction failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TransactError {
    /// More actions than one transaction holds.
    #[error("a transaction holds at most {max} actions; this one has {count}")]
    TooManyActions {
        /// The actions given.
        count: usize,
        /// DynamoDB's limit.
        max: usize,
    },
    /// An action's condition failed (and nothing was written).
    #[error("transaction cancelled: {}", describe_reasons(.reasons))]
    ConditionFailed {
        /// Each action that failed, and why.
        reasons: Vec<CancelReason>,
    },
    /// DynamoDB cancelled the transaction for another reason than a condition (a validation
    /// error of one action, for instance), each failing action named.
    #[error("transaction cancelled: {}", describe_reasons(.reasons))]
    Cancelled {
        /// Each action that failed, and why.
        reasons: Vec<CancelReason>,
    },
    /// An update in it could not be built (it would leave an index key stale).
    #[error(transparent)]
    Invalid(WriteError),
    /// Other transactions kept touching the same items; retried with backoff until the
    /// attempts ran out.
    #[error("transaction kept conflicting with other writers ({attempts} attempts)")]
    Conflict {
        /// Attempts made.
        attempts: u32,
    },
    /// DynamoDB refused or failed the call.
    #[error(transparent)]
    Service(#[from] ServiceError),
}

fn describe_reasons(reasons: &[CancelReason]) -> String {
    reasons
        .iter()
        .map(|r| format!("#{} {} ({})", r.index, r.item, r.code))
        .collect::<Vec<_>>()
        .join(", ")
}

impl TransactError {
    /// Whether the action at `index` failed its condition.
    pub fn failed_at(&self, index: usize) -> bool {
        match self {
            TransactError::ConditionFailed { reasons } => reasons
                .iter()
                .any(|r| r.index == index && r.code == "ConditionalCheckFailed"),
            _ => false,
        }
    }
}

/// The most actions one TransactWriteItems holds.
pub const MAX_ACTIONS: usize = 100;

/// A delete or a condition check: a key, what must hold of its item, and its name in a
/// cancellation's reasons.
#[derive(Debug, Clone)]
struct Keyed {
    key: Item,
    condition: Condition,
    description: String,
}

#[derive(Debug, Clone)]
enum Action {
    Put(PutSpec),
    Update(UpdateParts),
    Delete(Keyed),
    Check(Keyed),
}

impl Action {
    fn description(&self) -> &str {
        match self {
            Action::Put(p) => &p.description,
            Action::Update(u) => &u.description,
            Action::Delete(k) | Action::Check(k) => &k.description,
        }
    }
}

/// A transaction being built: actions in order; [`Transaction::send`] writes all or nothing.
#[derive(Debug, Default, Clone)]
pub struct Transaction {
    actions: Vec<Action>,
    invalid: Option<WriteError>,
}

impl Transaction {
    /// An empty transaction.
    pub fn new() -> Transaction {
        Transaction::default()
    }

    /// Actions so far.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// Whether it has no action.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// Put as `spec` says (create, put, replace, put_if: see [`PutSpec`]); a spec whose entity
    /// cannot be stored exactly makes `send` fail with it and send nothing.
    pub fn write(mut self, mut spec: PutSpec) -> Self {
        if let Some(source) = spec.invalid.take() {
            self.invalid.get_or_insert(WriteError::Invalid {
                item: spec.description.clone(),
                source,
            });
        }
        self.actions.push(Action::Put(spec));
        self
    }

    /// Create `entity` (fails the transaction when its key is taken).
    pub fn create<E: Entity>(self, entity: &E) -> Self {
        self.write(PutSpec::create(entity))
    }

    /// Put `entity` whatever is there.
    pub fn put<E: Entity>(self, entity: &E) -> Self {
        self.write(PutSpec::put(entity))
    }

    /// Apply `update` (its index keys re-rendered, its version checked).
    pub fn update<E: Entity>(mut self, update: Update<E>) -> Self {
        match update.build() {
            Ok(parts) => self.actions.push(Action::Update(parts)),
            Err(e) => {
                self.invalid.get_or_insert(e);
            }
        }
        self
    }

    /// Delete `key`'s item if `condition` holds.
    pub fn delete<E: Entity>(self, key: Key<E>, condition: Condition) -> Self {
        self.keyed(Action::Delete, key, condition)
    }

    /// Require `condition` of `key`'s item without writing it.
    pub fn check<E: Entity>(self, key: Key<E>, condition: Condition) -> Self {
        self.keyed(Action::Check, key, condition)
    }

    fn keyed<E: Entity>(
        mut self,
        action: fn(Keyed) -> Action,
        key: Key<E>,
        condition: Condition,
    ) -> Self {
        let description = describe::<E>(key.item());
        self.actions.push(action(Keyed {
            key: key.into_item(),
            condition,
            description,
        }));
        self
    }

    /// Apply `parts`, an update built at run time ([`UpdateItem::build`]) or a typed one's.
    pub fn apply(mut self, parts: UpdateParts) -> Self {
        self.actions.push(Action::Update(parts));
        self
    }

    /// Delete the item at `key`, a key built at run time, if `condition` holds; `description`
    /// names it in a cancellation's reasons.
    pub fn delete_item(mut self, key: Item, condition: Condition, description: String) -> Self {
        self.actions.push(Action::Delete(Keyed {
            key,
            condition,
            description,
        }));
        self
    }

    /// Write every action or none. A conflict with another transaction is retried with backoff
    /// (the table's [`crate::Retries`]); a failed condition is reported with each failing action.
    pub async fn send(self, table: &Table) -> Result<(), TransactError> {
        self.call(table, false).await.map(drop)
    }

    /// [`Transaction::send`], and what it consumed, per table and index
    /// (`ReturnConsumedCapacity: INDEXES`).
    pub async fn measured(self, table: &Table) -> Result<Vec<ConsumedCapacity>, TransactError> {
        self.call(table, true).await
    }

    /// The one TransactWriteItems call, retried while it loses races.
    async fn call(
        self,
        table: &Table,
        measure: bool,
    ) -> Result<Vec<ConsumedCapacity>, TransactError> {
        if let Some(invalid) = self.invalid {
            return Err(TransactError::Invalid(invalid));
        }
        if self.actions.len() > MAX_ACTIONS {
            return Err(TransactError::TooManyActions {
                count: self.actions.len(),
                max: MAX_ACTIONS,
            });
        }
        if self.actions.is_empty() {
            return Ok(Vec::new());
        }
        let items: Vec<TransactWriteItem> = self
            .actions
            .iter()
            .map(|a| sdk_item(a, table.name()))
            .collect::<Result<_, _>>()?;
        let retries = table.retry_policy();
        for attempt in 0..retries.attempts.max(1) {
            if attempt > 0 {
                tokio::time::sleep(retries.pause(attempt)).await;
            }
            let result = table
                .client()
                .transact_write_items()
                .set_transact_items(Some(items.clone()))
                .set_return_consumed_capacity(measure.then_some(ReturnConsumedCapacity::Indexes))
                .send()
                .await;
            let error = match result {
                Ok(out) => return Ok(out.consumed_capacity.unwrap_or_default()),
                Err(e) => e,
            };
            match outcome(&self.actions, &error) {
                Outcome::Retry => continue,
                Outcome::Fail(e) => return Err(e),
            }
        }
        Err(TransactError::Conflict {
            attempts: retries.attempts.max(1),
        })
    }
}

enum Outcome {
    Retry,
    Fail(TransactError),
}

/// What a failed TransactWriteItems means: a lost race (retry), failed conditions (named), or
/// a service error.
fn outcome(
    actions: &[Action],
    error: &aws_sdk_dynamodb::error::SdkError<
        TransactWriteItemsError,
        aws_sdk_dynamodb::config::http::HttpResponse,
    >,
) -> Outcome {
    match error.as_service_error() {
        Some(TransactWriteItemsError::TransactionCanceledException(cancelled)) => {
            let reasons: Vec<CancelReason> = cancelled
                .cancellation_reasons()
                .iter()
                .enumerate()
                .filter(|(_, r)| r.code().is_some_and(|c| c != "None"))
                .map(|(index, r)| CancelReason {
                    index,
                    item: actions
                        .get(index)
                        .map(|a| a.description().to_string())
                        .unwrap_or_default(),
                    code: r.code().unwrap_or_default().to_string(),
                    message: r.message().map(str::to_string),
                })
                .collect();
            cancellation(reasons, cancelled.message())
        }
        Some(TransactWriteItemsError::TransactionInProgressException(_)) => Outcome::Retry,
        _ => Outcome::Fail(TransactError::Service(ServiceError::from_sdk(error))),
    }
}

/// What a cancelled transaction means, from the reasons of its failing actions.
fn cancellation(reasons: Vec<CancelReason>, message: Option<&str>) -> Outcome {
    if reasons.iter().any(|r| r.code == "ConditionalCheckFailed") {
        Outcome::Fail(TransactError::ConditionFailed { reasons })
    } else if !reasons.is_empty() && reasons.iter().all(|r| r.code == "TransactionConflict") {
        Outcome::Retry
    } else if reasons
        .iter()
        .any(|r| r.code.starts_with("Throttling") || r.code.contains("Throughput"))
    {
        Outcome::Fail(TransactError::Service(ServiceError::Throttled {
            message: message.unwrap_or("throttled").to_string(),
        }))
    } else {
        Outcome::Fail(TransactError::Cancelled { reasons })
    }
}

fn built<T, E: std::fmt::Display>(result: Result<T, E>) -> Result<T, TransactError> {
    result.map_err(|e| {
        TransactError::Service(ServiceError::Validation {
            message: e.to_string(),
        })
    })
}

/// A `Delete` or `ConditionCheck` of `key` under `condition`, built (both builders have the same
/// setters but no trait in common).
macro_rules! keyed {
    ($builder:ident, $table:expr, $key:expr, $condition:expr) => {{
        let (text, names, values) = $condition.render("c").into_parts();
        $builder::builder()
            .table_name($table)
            .set_key(Some($key.clone()))
            .set_condition_expression(text)
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
            .build()
    }};
}

fn sdk_item(action: &Action, table: &str) -> Result<TransactWriteItem, TransactError> {
    let item = match action {
        Action::Put(spec) => {
            let (text, names, values) = spec.condition.render("c").into_parts();
            let put = Put::builder()
                .table_name(table)
                .set_item(Some(spec.item.clone()))
                .set_condition_expression(text)
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .build();
            TransactWriteItem::builder().put(built(put)?).build()
        }
        // An update that changes nothing is the check of its condition.
        Action::Update(parts) if parts.update.is_empty() => {
            let check = ConditionCheck::builder()
                .table_name(table)
                .set_key(Some(parts.key.clone()))
                .set_condition_expression(parts.condition.clone())
                .set_expression_attribute_names(Some(parts.names.clone()))
                .set_expression_attribute_values(
                    (!parts.values.is_empty()).then(|| parts.values.clone()),
                )
                .build();
            TransactWriteItem::builder()
                .condition_check(built(check)?)
                .build()
        }
        Action::Update(parts) => {
            let update = SdkUpdate::builder()
                .table_name(table)
                .set_key(Some(parts.key.clone()))
                .update_expression(&parts.update)
                .set_condition_expression(parts.condition.clone())
                .set_expression_attribute_names(Some(parts.names.clone()))
                .set_expression_attribute_values(
                    (!parts.values.is_empty()).then(|| parts.values.clone()),
                )
                .build();
            TransactWriteItem::builder().update(built(update)?).build()
        }
        Action::Delete(Keyed { key, condition, .. }) => {
            let delete = keyed!(Delete, table, key, condition);
            TransactWriteItem::builder().delete(built(delete)?).build()
        }
        Action::Check(Keyed { key, condition, .. }) => {
            let check = keyed!(ConditionCheck, table, key, condition);
            TransactWriteItem::builder()
                .condition_check(built(check)?)
                .build()
        }
    };
    Ok(item)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(index: usize, code: &str) -> CancelReason {
        CancelReason {
            index,
            item: format!("Task (PK=P, SK={index})"),
            code: code.to_string(),
            message: None,
        }
    }

    #[test]
    fn a_cancellation_without_reasons_is_not_retried_as_a_conflict() {
        // `all` of no reasons is true: a cancellation that named no failing action was taken
        // for a conflict and retried until the attempts ran out, then reported as one.
        assert!(matches!(
            cancellation(vec![], Some("cancelled")),
            Outcome::Fail(TransactError::Cancelled { .. })
        ));
        assert!(matches!(
            cancellation(vec![reason(0, "TransactionConflict")], None),
            Outcome::Retry
        ));
        assert!(matches!(
            cancellation(
                vec![
                    reason(0, "TransactionConflict"),
                    reason(2, "ConditionalCheckFailed")
                ],
                None
            ),
            Outcome::Fail(TransactError::ConditionFailed { .. })
        ));
        assert!(matches!(
            cancellation(vec![reason(1, "ThrottlingError")], Some("slow down")),
            Outcome::Fail(TransactError::Service(ServiceError::Throttled { .. }))
        ));
        assert!(matches!(
            cancellation(vec![reason(1, "ValidationError")], None),
            Outcome::Fail(TransactError::Cancelled { .. })
        ));
    }
}
