//! Writes that no model pattern names, for tools: [`UncheckedWrites`] puts, creates, replaces
//! and deletes any entity (or item) on a [`Table`]. An app writes through the write patterns its
//! model declares (what `patterns!` generates); a seeder, a migration or a test fixture writes
//! through these, under a name that says the model does not check them.

use std::future::Future;

use crate::batch::BatchError;
use crate::delete::DeleteItem;
use crate::entity::Entity;
use crate::handle::Table;
use crate::items::Item;
use crate::key::Key;
use crate::put::PutSpec;
use crate::write::{Condition, WriteError};

/// Generic writes on a [`Table`], outside the model's write patterns.
pub trait UncheckedWrites {
    /// Write one item as `spec` says.
    fn write(&self, spec: PutSpec) -> impl Future<Output = Result<(), WriteError>> + Send;

    /// Create `entity`; [`WriteError::AlreadyExists`] when its key is taken.
    fn create<E: Entity>(&self, entity: &E) -> impl Future<Output = Result<(), WriteError>> + Send;

    /// Write `entity` whatever is there.
    fn put<E: Entity>(&self, entity: &E) -> impl Future<Output = Result<(), WriteError>> + Send;

    /// Replace `entity`'s item if it exists ([`WriteError::NotFound`]) at version `expected`
    /// ([`WriteError::VersionMismatch`]).
    fn replace<E: Entity>(
        &self,
        entity: &E,
        expected: i64,
    ) -> impl Future<Output = Result<(), WriteError>> + Send;

    /// Delete `key`'s item if `condition` holds (none: whatever is there).
    fn delete<E: Entity>(
        &self,
        key: Key<E>,
        condition: Condition,
    ) -> impl Future<Output = Result<(), WriteError>> + Send;

    /// Put every entity, 25 at a time (no conditions: a batch takes none).
    fn batch_put<E: Entity>(
        &self,
        entities: &[E],
    ) -> impl Future<Output = Result<(), BatchError>> + Send;

    /// Put every item, 25 at a time.
    fn batch_put_items(
        &self,
        items: Vec<Item>,
    ) -> impl Future<Output = Result<(), BatchError>> + Send;
}

impl UncheckedWrites for Table {
    async fn write(&self, spec: PutSpec) -> Result<(), WriteError> {
        spec.send(self).await
    }

    async fn create<E: Entity>(&self, entity: &E) -> Result<(), WriteError> {
        PutSpec::create(entity).send(self).await
    }

    async fn put<E: Entity>(&self, entity: &E) -> Result<(), WriteError> {
        PutSpec::put(entity).send(self).await
    }

    async fn replace<E: Entity>(&self, entity: &E, expected: i64) -> Result<(), WriteError> {
        PutSpec::replace(entity, expected).send(self).await
    }

    async fn delete<E: Entity>(&self, key: Key<E>, condition: Condition) -> Result<(), WriteError> {
        DeleteItem::of(key).when(condition).send(self).await
    }

    async fn batch_put<E: Entity>(&self, entities: &[E]) -> Result<(), BatchError> {
        // None is written when one cannot be stored exactly.
        entities.iter().try_for_each(Entity::validate)?;
        self.put_items(entities.iter().map(Entity::to_item).collect())
            .await
    }

    async fn batch_put_items(&self, items: Vec<Item>) -> Result<(), BatchError> {
        self.put_items(items).await
    }
}
