//! What the code `patterns!` generates for write patterns calls: the transaction and batch
//! builders' last steps, kept here so the generated code stays small. Not an API.

use monotable_access::batch::BatchError;
use monotable_access::entity::Entity;
use monotable_access::handle::Table;
use monotable_access::transact::{TransactError, Transaction, WriteAction};
use monotable_access::update::Update;
use monotable_access::write::WriteError;

/// An UpdateItem pattern's update as a transaction action (refused when it cannot be built).
pub fn update_action<E: Entity>(update: Update<E>) -> Result<WriteAction, WriteError> {
    WriteAction::update(update)
}

/// Action `action` of `pattern` added beyond the model's `count`.
pub fn too_many(pattern: &'static str, action: &'static str, max: usize) -> WriteError {
    WriteError::TooManyActions {
        pattern,
        action,
        max,
    }
}

/// A TransactWrite pattern's actions, named, in one TransactWriteItems.
pub async fn transact(
    table: &Table,
    actions: Vec<(&'static str, WriteAction)>,
) -> Result<(), TransactError> {
    actions
        .into_iter()
        .fold(Transaction::new(), |tx, (name, action)| {
            tx.push(name, action)
        })
        .send(table)
        .await
}

/// A BatchWrite pattern's puts and deletes.
pub async fn batch_write(
    table: &Table,
    actions: Vec<(&'static str, WriteAction)>,
) -> Result<(), BatchError> {
    table
        .batch_write(actions.into_iter().map(|(_, action)| action).collect())
        .await
}

/// A transaction refused before sending.
pub fn transact_invalid(e: WriteError) -> TransactError {
    TransactError::Invalid(e)
}

/// A batch refused before sending.
pub fn batch_invalid(e: WriteError) -> BatchError {
    BatchError::Invalid(e)
}
