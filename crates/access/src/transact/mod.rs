//! TransactWriteItems: puts, updates, deletes and condition checks, at most [`MAX_ACTIONS`] of
//! them (checked before sending), each failing action reported by its name, its entity and
//! what failed, and a transaction that lost a race with another writer (`TransactionConflict`)
//! retried with backoff.
//!
//! Actions are [`WriteAction`]s pushed under a name ([`Transaction::push`]): a cancellation
//! names the action that failed (`TransactError::failed("reserveStock")`), never its position.
//! Each action asks for its item as it was when its condition fails, so the failure is named by
//! the clause that failed ([`WriteFailure`]). The unnamed forms ([`Transaction::create`],
//! [`Transaction::update`], [`Transaction::write`] of a [`PutSpec`], [`Transaction::apply`] of
//! an [`UpdateItem`]'s parts, [`Transaction::delete_item`], ...) remain for tools. `call` is the
//! one TransactWriteItems call; it fails with [`TransactError`].

mod action;

use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity, TransactWriteItem};

pub use action::{CheckItem, WriteAction};

use crate::delete::DeleteItem;
use crate::entity::Entity;
use crate::handle::Table;
use crate::items::Item;
use crate::key::Key;
use crate::put::PutSpec;
use crate::service::ServiceError;
#[cfg(doc)]
use crate::update::UpdateItem;
use crate::update::{Update, UpdateParts};
use crate::write::{Condition, WriteError, WriteFailure};

/// Why one action of a cancelled transaction failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CancelReason {
    /// The action's name ([`Transaction::push`]); `None` for an unnamed action.
    pub action: Option<&'static str>,
    /// The entity it writes or checks; empty for an action built from a run-time item.
    pub entity: &'static str,
    /// The item: entity and key.
    pub item: String,
    /// DynamoDB's code: `ConditionalCheckFailed`, `TransactionConflict`, `ThrottlingError`, ...
    pub code: String,
    /// DynamoDB's message.
    pub message: Option<String>,
    /// Which requirement of its condition failed, when that is why (`ConditionalCheckFailed`).
    pub failure: Option<WriteFailure>,
}

impl CancelReason {
    /// The failure as the error the same write alone would have given.
    pub fn error(&self) -> Option<WriteError> {
        self.failure.clone().map(|f| f.error(self.item.clone()))
    }
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

/// `` `reserveStock` on Product (PK=PRODUCT#1, SK=PRODUCT): the condition `stock >= 2` did not
/// hold``, for each reason.
fn describe_reasons(reasons: &[CancelReason]) -> String {
    reasons
        .iter()
        .map(|r| {
            let action = r.action.map(|a| format!("`{a}` on ")).unwrap_or_default();
            let why = match &r.failure {
                Some(failure) => failure.to_string(),
                None => r.code.clone(),
            };
            format!("{action}{}: {why}", r.item)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl TransactError {
    /// Each action that failed, and why (none for an error that cancelled no action).
    pub fn reasons(&self) -> &[CancelReason] {
        match self {
            TransactError::ConditionFailed { reasons } | TransactError::Cancelled { reasons } => {
                reasons
            }
            _ => &[],
        }
    }

    /// Whether an action named `action` failed its condition.
    pub fn failed(&self, action: &str) -> bool {
        matches!(self, TransactError::ConditionFailed { .. })
            && self
                .reasons()
                .iter()
                .any(|r| r.action == Some(action) && r.failure.is_some())
    }

    /// Why the (first) action named `action` failed, if it did.
    pub fn reason(&self, action: &str) -> Option<&CancelReason> {
        self.reasons().iter().find(|r| r.action == Some(action))
    }
}

/// The most actions one TransactWriteItems holds.
pub const MAX_ACTIONS: usize = 100;

/// An action and its name.
#[derive(Debug, Clone)]
struct Named {
    name: Option<&'static str>,
    action: WriteAction,
}

/// A transaction being built: actions in order; [`Transaction::send`] writes all or nothing.
#[derive(Debug, Default, Clone)]
pub struct Transaction {
    actions: Vec<Named>,
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

    /// Add `action` under `name`: a cancellation names it by it ([`TransactError::failed`]).
    /// A put whose entity cannot be stored exactly makes `send` fail with it and send nothing.
    pub fn push(self, name: &'static str, action: WriteAction) -> Self {
        self.add(Some(name), action)
    }

    fn unnamed(self, action: WriteAction) -> Self {
        self.add(None, action)
    }

    fn add(mut self, name: Option<&'static str>, mut action: WriteAction) -> Self {
        if let WriteAction::Put(spec) = &mut action
            && let Some(source) = spec.invalid.take()
        {
            self.invalid.get_or_insert(WriteError::Invalid {
                item: spec.description.clone(),
                source,
            });
        }
        self.actions.push(Named { name, action });
        self
    }

    /// Put as `spec` says (create, put, replace, put_if: see [`PutSpec`]).
    pub fn write(self, spec: PutSpec) -> Self {
        self.unnamed(WriteAction::Put(spec))
    }

    /// Create `entity` (fails the transaction when its key is taken).
    pub fn create<E: Entity>(self, entity: &E) -> Self {
        self.unnamed(WriteAction::create(entity))
    }

    /// Put `entity` whatever is there.
    pub fn put<E: Entity>(self, entity: &E) -> Self {
        self.unnamed(WriteAction::put(entity))
    }

    /// Apply `update` (its index keys re-rendered, its version checked); one that cannot be
    /// built fails the transaction with [`TransactError::Invalid`] before anything is sent.
    pub fn update<E: Entity>(mut self, update: Update<E>) -> Self {
        match WriteAction::update(update) {
            Ok(action) => self.unnamed(action),
            Err(e) => {
                self.invalid.get_or_insert(e);
                self
            }
        }
    }

    /// Delete `key`'s item if `condition` holds.
    pub fn delete<E: Entity>(self, key: Key<E>, condition: Condition) -> Self {
        self.unnamed(WriteAction::delete(key, condition))
    }

    /// Require `condition` of `key`'s item without writing it.
    pub fn check<E: Entity>(self, key: Key<E>, condition: Condition) -> Self {
        self.unnamed(WriteAction::check(key, condition))
    }

    /// Apply `parts`, an update built at run time ([`UpdateItem::build`]) or a typed one's.
    pub fn apply(self, parts: UpdateParts) -> Self {
        self.unnamed(WriteAction::Update(parts))
    }

    /// Delete the item at `key`, a key built at run time, if `condition` holds; `description`
    /// names it in a cancellation's reasons.
    pub fn delete_item(self, key: Item, condition: Condition, description: String) -> Self {
        let delete = DeleteItem::new(key).when(condition).described(description);
        self.unnamed(WriteAction::Delete(delete))
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
        let retries = table.retry_policy();
        for attempt in 0..retries.attempts.max(1) {
            if attempt > 0 {
                tokio::time::sleep(retries.pause(attempt)).await;
            }
            // Built for each attempt from the actions (kept to name a failure): one copy of
            // each item per call sent, none kept aside for a retry that seldom comes.
            let items: Vec<TransactWriteItem> = self
                .actions
                .iter()
                .map(|a| a.action.sdk_item(table.name()))
                .collect::<Result<_, _>>()?;
            let result = table
                .client()
                .transact_write_items()
                .set_transact_items(Some(items))
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

/// What a failed TransactWriteItems means: a lost race (retry), failed conditions (each named
/// by its action and the clause that failed), or a service error.
fn outcome(
    actions: &[Named],
    error: &aws_sdk_dynamodb::error::SdkError<
        TransactWriteItemsError,
        aws_sdk_dynamodb::config::http::HttpResponse,
    >,
) -> Outcome {
    match error.as_service_error() {
        Some(TransactWriteItemsError::TransactionCanceledException(cancelled)) => {
            // DynamoDB answers one reason per action, in the actions' order.
            let reasons: Vec<CancelReason> = cancelled
                .cancellation_reasons()
                .iter()
                .zip(actions)
                .filter(|(r, _)| r.code().is_some_and(|c| c != "None"))
                .map(|(r, named)| reason(named, r))
                .collect();
            cancellation(reasons, cancelled.message())
        }
        Some(TransactWriteItemsError::TransactionInProgressException(_)) => Outcome::Retry,
        _ => Outcome::Fail(TransactError::Service(ServiceError::from_sdk(error))),
    }
}

/// Why `named` failed, from DynamoDB's reason: a failed condition named by evaluating its
/// clauses against the item DynamoDB returned (none: there was no item).
fn reason(named: &Named, r: &aws_sdk_dynamodb::types::CancellationReason) -> CancelReason {
    let code = r.code().unwrap_or_default().to_string();
    let failure =
        (code == "ConditionalCheckFailed").then(|| named.action.condition().failure(r.item()));
    CancelReason {
        action: named.name,
        entity: named.action.entity(),
        item: named.action.description().to_string(),
        code,
        message: r.message().map(str::to_string),
        failure,
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

#[cfg(test)]
mod tests;
