//! DeleteItem: one item removed by its key, under a condition or not. Typed: [`DeleteItem::of`]
//! an entity's key. Dynamic: [`DeleteItem::new`] of a key given as attribute values (a
//! migration's removal, a person's click). `DeleteItem::call` is the one DeleteItem call; both
//! fail with [`WriteError`], a failed condition named by the clause that failed.

use aws_sdk_dynamodb::types::{
    ConsumedCapacity, ReturnConsumedCapacity, ReturnValue, ReturnValuesOnConditionCheckFailure,
};

use crate::entity::Entity;
use crate::handle::Table;
use crate::items::Item;
use crate::key::{Key, describe_key};
use crate::write::{Condition, WriteError, describe, write_failed};

/// One DeleteItem.
#[derive(Debug, Clone)]
pub struct DeleteItem {
    pub(crate) key: Item,
    pub(crate) condition: Condition,
    pub(crate) entity: &'static str,
    pub(crate) description: String,
}

/// What a delete removed.
#[derive(Debug, Clone, Default)]
pub struct Deleted {
    /// The item as it was; `None` when there was none.
    pub old: Option<Item>,
    /// What it consumed, when asked for.
    pub capacity: Option<ConsumedCapacity>,
}

impl DeleteItem {
    /// Delete the item at `key`, whatever is there.
    pub fn new(key: Item) -> DeleteItem {
        DeleteItem {
            description: describe_key(&key),
            key,
            condition: Condition::none(),
            entity: "",
        }
    }

    /// Delete the item of `E` at `key`, whatever is there.
    pub fn of<E: Entity>(key: Key<E>) -> DeleteItem {
        DeleteItem {
            description: describe::<E>(key.item()),
            key: key.into_item(),
            condition: Condition::none(),
            entity: E::NAME,
        }
    }

    /// Only when `condition` holds ([`WriteError::ConditionFailed`] otherwise).
    pub fn when(mut self, condition: Condition) -> DeleteItem {
        self.condition = std::mem::take(&mut self.condition).and(condition);
        self
    }

    /// Name the item `description` in messages.
    pub fn described(mut self, description: String) -> DeleteItem {
        self.description = description;
        self
    }

    /// Delete it.
    pub async fn send(self, table: &Table) -> Result<(), WriteError> {
        self.call(table, false).await.map(drop)
    }

    /// Delete it, and say what was there and what it consumed (`ReturnValues: ALL_OLD`,
    /// `ReturnConsumedCapacity: INDEXES`).
    pub async fn measured(self, table: &Table) -> Result<Deleted, WriteError> {
        self.call(table, true).await
    }

    /// The one DeleteItem call.
    async fn call(self, table: &Table, report: bool) -> Result<Deleted, WriteError> {
        let (text, names, values) = self.condition.render("c").into_parts();
        let old = text
            .is_some()
            .then_some(ReturnValuesOnConditionCheckFailure::AllOld);
        let result = table
            .client()
            .delete_item()
            .table_name(table.name())
            .set_key(Some(self.key))
            .set_condition_expression(text)
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
            .set_return_values(report.then_some(ReturnValue::AllOld))
            .set_return_values_on_condition_check_failure(old)
            .set_return_consumed_capacity(report.then_some(ReturnConsumedCapacity::Indexes))
            .send()
            .await;
        match result {
            Ok(out) => Ok(Deleted {
                old: out.attributes,
                capacity: out.consumed_capacity,
            }),
            Err(e) => Err(write_failed(&e, &self.condition, self.description)),
        }
    }
}
