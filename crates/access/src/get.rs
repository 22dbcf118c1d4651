//! GetItem: one item by its key. Typed: [`GetRequest`] and [`Table::get`] read an entity.
//! Dynamic: [`GetItem`] reads the item at a key given as attribute values (a pattern's key
//! rendered at run time, a migration's re-read). `GetItem::call` is the one GetItem call; both
//! faces fail with [`GetError`].

use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity};

use crate::entity::{self, Entity, EntityError};
use crate::handle::Table;
use crate::items::Item;
use crate::key::{Key, ParameterError};
use crate::service::ServiceError;

/// Reading one item failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GetError {
    /// DynamoDB refused or failed the call.
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// The item is not a valid entity.
    #[error(transparent)]
    Entity(#[from] EntityError),
    /// A parameter cannot be rendered into the key exactly: nothing was sent.
    #[error(transparent)]
    Parameter(#[from] ParameterError),
}

/// One GetItem of a key given as attribute values.
#[derive(Debug, Clone)]
pub struct GetItem {
    key: Item,
    consistent: bool,
}

impl GetItem {
    /// A read of the item at `key` (eventually consistent unless [`GetItem::consistent`]).
    pub fn new(key: Item) -> GetItem {
        GetItem {
            key,
            consistent: false,
        }
    }

    /// A strongly consistent read when `consistent`.
    pub fn consistent(mut self, consistent: bool) -> GetItem {
        self.consistent = consistent;
        self
    }

    /// The item, or `None` when there is none at the key.
    pub async fn send(self, table: &Table) -> Result<Option<Item>, GetError> {
        Ok(self.call(table, false).await?.0)
    }

    /// The item, and what the read consumed (`ReturnConsumedCapacity: INDEXES`).
    pub async fn measured(
        self,
        table: &Table,
    ) -> Result<(Option<Item>, Option<ConsumedCapacity>), GetError> {
        self.call(table, true).await
    }

    /// The one GetItem call.
    async fn call(
        self,
        table: &Table,
        measure: bool,
    ) -> Result<(Option<Item>, Option<ConsumedCapacity>), GetError> {
        let out = table
            .client()
            .get_item()
            .table_name(table.name())
            .set_key(Some(self.key))
            .consistent_read(self.consistent)
            .set_return_consumed_capacity(measure.then_some(ReturnConsumedCapacity::Indexes))
            .send()
            .await
            .map_err(|e| ServiceError::from_sdk(&e))?;
        Ok((out.item, out.consumed_capacity))
    }
}

/// Read one item of `E` by its key.
pub struct GetRequest<E> {
    key: Key<E>,
    consistent: bool,
    invalid: Option<ParameterError>,
}

impl<E: Entity> GetRequest<E> {
    /// A read of `key`; `consistent` for a strongly consistent read.
    pub fn new(key: Key<E>, consistent: bool) -> GetRequest<E> {
        GetRequest {
            key,
            consistent,
            invalid: None,
        }
    }

    /// The same read, refused when `check` (of a parameter its key was rendered from) failed:
    /// `send` then returns the first such error and sends nothing.
    pub fn checked(mut self, check: Result<(), ParameterError>) -> Self {
        if let Err(e) = check {
            self.invalid.get_or_insert(e);
        }
        self
    }

    /// The entity, or `None` when there is no such item.
    pub async fn send(self, table: &Table) -> Result<Option<E>, GetError> {
        if let Some(e) = self.invalid {
            return Err(e.into());
        }
        let item = GetItem::new(self.key.into_item())
            .consistent(self.consistent)
            .send(table)
            .await?;
        Ok(item.as_ref().map(entity::read::<E>).transpose()?)
    }
}

impl Table {
    /// Read `key`'s entity (eventually consistent unless `consistent`).
    pub async fn get<E: Entity>(
        &self,
        key: Key<E>,
        consistent: bool,
    ) -> Result<Option<E>, GetError> {
        GetRequest::new(key, consistent).send(self).await
    }
}
