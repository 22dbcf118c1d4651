//! The actions of a transaction: [`WriteAction`] (a put, an update, a delete or a condition
//! check, each carrying its entity and the condition whose clauses name a failure), and each as
//! the SDK's `TransactWriteItem`, asking for the item as it was when its condition fails.

use aws_sdk_dynamodb::types::{
    ConditionCheck, Delete, Put, ReturnValuesOnConditionCheckFailure, TransactWriteItem,
    Update as SdkUpdate,
};

use super::TransactError;
use crate::delete::DeleteItem;
use crate::entity::Entity;
use crate::items::Item;
use crate::key::{Key, describe_key};
use crate::put::PutSpec;
use crate::service::ServiceError;
use crate::update::{Update, UpdateParts};
use crate::write::{Condition, Placeholders, WriteError, describe};

/// A ConditionCheck: a key and what must hold of its item, which is not written.
#[derive(Debug, Clone)]
pub struct CheckItem {
    pub(crate) key: Item,
    pub(crate) condition: Condition,
    pub(crate) entity: &'static str,
    pub(crate) description: String,
}

impl CheckItem {
    /// Require `condition` of the item of `E` at `key`.
    pub fn of<E: Entity>(key: Key<E>, condition: Condition) -> CheckItem {
        CheckItem {
            description: describe::<E>(key.item()),
            key: key.into_item(),
            condition,
            entity: E::NAME,
        }
    }

    /// Require `condition` of the item at `key`, a key built at run time.
    pub fn new(key: Item, condition: Condition) -> CheckItem {
        CheckItem {
            description: describe_key(&key),
            key,
            condition,
            entity: "",
        }
    }

    /// Name the item `description` in messages.
    pub fn described(mut self, description: String) -> CheckItem {
        self.description = description;
        self
    }
}

/// One action of a transaction.
#[derive(Debug, Clone)]
pub enum WriteAction {
    /// PutItem.
    Put(PutSpec),
    /// UpdateItem (a ConditionCheck when it changes nothing).
    Update(UpdateParts),
    /// DeleteItem.
    Delete(DeleteItem),
    /// ConditionCheck.
    Check(CheckItem),
}

impl WriteAction {
    /// Create `entity` ([`crate::WriteFailure::AlreadyExists`] when its key is taken).
    pub fn create<E: Entity>(entity: &E) -> WriteAction {
        WriteAction::Put(PutSpec::create(entity))
    }

    /// Put `entity` whatever is there.
    pub fn put<E: Entity>(entity: &E) -> WriteAction {
        WriteAction::Put(PutSpec::put(entity))
    }

    /// Replace `entity`'s item at version `expected` (see [`PutSpec::replace`]).
    pub fn replace<E: Entity>(entity: &E, expected: i64) -> WriteAction {
        WriteAction::Put(PutSpec::replace(entity, expected))
    }

    /// Apply `update`, or the reason it cannot be built (it would leave an index key stale).
    pub fn update<E: Entity>(update: Update<E>) -> Result<WriteAction, WriteError> {
        update.build().map(WriteAction::Update)
    }

    /// Delete the item of `E` at `key` if `condition` holds.
    pub fn delete<E: Entity>(key: Key<E>, condition: Condition) -> WriteAction {
        WriteAction::Delete(DeleteItem::of(key).when(condition))
    }

    /// Require `condition` of the item of `E` at `key` without writing it.
    pub fn check<E: Entity>(key: Key<E>, condition: Condition) -> WriteAction {
        WriteAction::Check(CheckItem::of(key, condition))
    }

    /// The entity it writes or checks; empty for an action built from a run-time item.
    pub fn entity(&self) -> &'static str {
        match self {
            WriteAction::Put(p) => p.entity,
            WriteAction::Update(u) => u.entity,
            WriteAction::Delete(d) => d.entity,
            WriteAction::Check(c) => c.entity,
        }
    }

    /// The item, for messages.
    pub fn description(&self) -> &str {
        match self {
            WriteAction::Put(p) => &p.description,
            WriteAction::Update(u) => &u.description,
            WriteAction::Delete(d) => &d.description,
            WriteAction::Check(c) => &c.description,
        }
    }

    /// Its condition.
    pub fn condition(&self) -> &Condition {
        match self {
            WriteAction::Put(p) => &p.condition,
            WriteAction::Update(u) => &u.condition,
            WriteAction::Delete(d) => &d.condition,
            WriteAction::Check(c) => &c.condition,
        }
    }

    /// The action as the SDK takes it, on `table`.
    pub(super) fn sdk_item(&self, table: &str) -> Result<TransactWriteItem, TransactError> {
        let rendered = match self {
            WriteAction::Update(parts) => parts.expressions(),
            other => other.condition().render("c"),
        };
        let old = rendered
            .text
            .is_some()
            .then_some(ReturnValuesOnConditionCheckFailure::AllOld);
        let (text, names, values) = rendered.into_parts();
        let item = TransactWriteItem::builder();
        let item = match self {
            WriteAction::Put(spec) => {
                let put = Put::builder()
                    .table_name(table)
                    .set_item(Some(spec.item.clone()))
                    .set_condition_expression(text)
                    .set_expression_attribute_names(names)
                    .set_expression_attribute_values(values)
                    .set_return_values_on_condition_check_failure(old)
                    .build();
                item.put(built(put)?)
            }
            // An update that changes nothing is the check of its condition.
            WriteAction::Update(parts) if parts.update.is_empty() => {
                item.condition_check(built(check(table, &parts.key, (text, names, values), old))?)
            }
            WriteAction::Update(parts) => {
                let update = SdkUpdate::builder()
                    .table_name(table)
                    .set_key(Some(parts.key.clone()))
                    .update_expression(&parts.update)
                    .set_condition_expression(text)
                    .set_expression_attribute_names(names)
                    .set_expression_attribute_values(values)
                    .set_return_values_on_condition_check_failure(old)
                    .build();
                item.update(built(update)?)
            }
            WriteAction::Delete(d) => {
                let delete = Delete::builder()
                    .table_name(table)
                    .set_key(Some(d.key.clone()))
                    .set_condition_expression(text)
                    .set_expression_attribute_names(names)
                    .set_expression_attribute_values(values)
                    .set_return_values_on_condition_check_failure(old)
                    .build();
                item.delete(built(delete)?)
            }
            WriteAction::Check(c) => {
                item.condition_check(built(check(table, &c.key, (text, names, values), old))?)
            }
        };
        Ok(item.build())
    }
}

/// A ConditionCheck of `key` under the rendered condition.
fn check(
    table: &str,
    key: &Item,
    (text, names, values): Placeholders,
    old: Option<ReturnValuesOnConditionCheckFailure>,
) -> Result<ConditionCheck, aws_sdk_dynamodb::error::BuildError> {
    ConditionCheck::builder()
        .table_name(table)
        .set_key(Some(key.clone()))
        .set_condition_expression(text)
        .set_expression_attribute_names(names)
        .set_expression_attribute_values(values)
        .set_return_values_on_condition_check_failure(old)
        .build()
}

fn built<T, E: std::fmt::Display>(result: Result<T, E>) -> Result<T, TransactError> {
    result.map_err(|e| {
        TransactError::Service(ServiceError::Validation {
            message: e.to_string(),
        })
    })
}
