//! BatchWriteItem and BatchGetItem: writes in chunks of 25 and reads in chunks of 100
//! (DynamoDB's limits), with what DynamoDB leaves unprocessed (throttling) retried with bounded
//! exponential backoff and jitter. Typed: `UncheckedWrites::batch_put` and
//! [`Table::batch_get`] of entities. Dynamic: `UncheckedWrites::batch_put_items` and
//! [`Table::batch_get_items`] of items and keys built at run time. `write_chunk` and `read_chunk`
//! are the one call of each; both faces fail with [`BatchError`].

use std::collections::{HashMap, HashSet};

use aws_sdk_dynamodb::types::{DeleteRequest, KeysAndAttributes, PutRequest, WriteRequest};

use crate::entity::{self, Entity, EntityError};
use crate::handle::Table;
use crate::items::Item;
use crate::key::Key;
use crate::service::ServiceError;

/// A batch read or write failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BatchError {
    /// Items stayed unprocessed after every retry (the table is throttled).
    #[error("{left} items were still unprocessed after {attempts} attempts")]
    Unprocessed {
        /// Items (or keys) left.
        left: usize,
        /// Attempts made.
        attempts: u32,
    },
    /// An item read is not a valid entity, or an entity to put cannot be stored exactly
    /// (nothing of the batch was written then).
    #[error(transparent)]
    Entity(#[from] EntityError),
    /// A write could not be built (a value it cannot store exactly, an action beyond its
    /// count); nothing was sent.
    #[error(transparent)]
    Invalid(crate::write::WriteError),
    /// A batch takes puts and deletes only, with no condition.
    #[error("a batch takes puts and deletes without conditions; `{action}` is not one")]
    NotBatchable {
        /// The action's description.
        action: String,
    },
    /// DynamoDB refused or failed the call.
    #[error(transparent)]
    Service(#[from] ServiceError),
}

/// Items in one BatchWriteItem.
pub const WRITE_CHUNK: usize = 25;
/// Keys in one BatchGetItem.
pub const READ_CHUNK: usize = 100;

impl Table {
    /// Put every item, 25 at a time (`UncheckedWrites::batch_put_items`).
    pub(crate) async fn put_items(&self, items: Vec<Item>) -> Result<(), BatchError> {
        let mut items = items.into_iter().peekable();
        while items.peek().is_some() {
            let chunk: Vec<WriteRequest> = items
                .by_ref()
                .take(WRITE_CHUNK)
                .map(|item| {
                    let put = PutRequest::builder().set_item(Some(item)).build();
                    put.map(|p| WriteRequest::builder().put_request(p).build())
                })
                .collect::<Result<_, _>>()
                .map_err(|e| ServiceError::Validation {
                    message: e.to_string(),
                })?;
            self.write_chunk(chunk).await?;
        }
        Ok(())
    }

    /// Send puts and deletes built as transaction actions (a generated BatchWrite pattern's),
    /// 25 per BatchWriteItem; an action with a condition, an update or a check is refused
    /// before anything is sent.
    pub async fn batch_write(
        &self,
        actions: Vec<crate::transact::WriteAction>,
    ) -> Result<(), BatchError> {
        use crate::transact::WriteAction;
        let mut requests = Vec::with_capacity(actions.len());
        for action in actions {
            if !action.condition().is_empty() {
                return Err(BatchError::NotBatchable {
                    action: action.description().to_string(),
                });
            }
            let request = match action {
                WriteAction::Put(p) => PutRequest::builder()
                    .set_item(Some(p.item))
                    .build()
                    .map(|p| WriteRequest::builder().put_request(p).build()),
                WriteAction::Delete(d) => DeleteRequest::builder()
                    .set_key(Some(d.key))
                    .build()
                    .map(|d| WriteRequest::builder().delete_request(d).build()),
                other => {
                    return Err(BatchError::NotBatchable {
                        action: other.description().to_string(),
                    });
                }
            };
            requests.push(request.map_err(|e| ServiceError::Validation {
                message: e.to_string(),
            })?);
        }
        let mut requests = requests.into_iter().peekable();
        while requests.peek().is_some() {
            self.write_chunk(requests.by_ref().take(WRITE_CHUNK).collect())
                .await?;
        }
        Ok(())
    }

    async fn write_chunk(&self, mut requests: Vec<WriteRequest>) -> Result<(), BatchError> {
        let retries = self.retry_policy();
        let mut attempt = 0;
        while !requests.is_empty() {
            if attempt > 0 {
                if attempt >= retries.attempts {
                    return Err(BatchError::Unprocessed {
                        left: requests.len(),
                        attempts: attempt,
                    });
                }
                tokio::time::sleep(retries.pause(attempt)).await;
            }
            attempt += 1;
            let out = self
                .client()
                .batch_write_item()
                .set_request_items(Some(HashMap::from([(self.name().to_string(), requests)])))
                .send()
                .await
                .map_err(|e| ServiceError::from_sdk(&e))?;
            requests = out
                .unprocessed_items
                .and_then(|mut u| u.remove(self.name()))
                .unwrap_or_default();
        }
        Ok(())
    }

    /// The entities at `keys`, 100 keys at a time (missing items are left out, a key given twice
    /// is read once; the order is not the keys' order).
    pub async fn batch_get<E: Entity>(
        &self,
        keys: Vec<Key<E>>,
        consistent: bool,
    ) -> Result<Vec<E>, BatchError> {
        let keys = keys.into_iter().map(Key::into_item).collect();
        let items = self.batch_get_items(keys, consistent).await?;
        Ok(items
            .iter()
            .map(entity::read::<E>)
            .collect::<Result<_, _>>()?)
    }

    /// The items at `keys`, 100 keys at a time (missing items are left out, a key given twice is
    /// read once; the order is not the keys' order).
    pub async fn batch_get_items(
        &self,
        keys: Vec<Item>,
        consistent: bool,
    ) -> Result<Vec<Item>, BatchError> {
        let mut found = Vec::with_capacity(keys.len());
        // DynamoDB refuses a request that holds a key twice.
        let mut seen = HashSet::new();
        let mut keys = keys
            .into_iter()
            .filter(|k| seen.insert(identity(k)))
            .peekable();
        while keys.peek().is_some() {
            let chunk: Vec<Item> = keys.by_ref().take(READ_CHUNK).collect();
            found.extend(self.read_chunk(chunk, consistent).await?);
        }
        Ok(found)
    }

    async fn read_chunk(
        &self,
        mut keys: Vec<Item>,
        consistent: bool,
    ) -> Result<Vec<Item>, BatchError> {
        let retries = self.retry_policy();
        let mut items = Vec::with_capacity(keys.len());
        let mut attempt = 0;
        while !keys.is_empty() {
            if attempt > 0 {
                if attempt >= retries.attempts {
                    return Err(BatchError::Unprocessed {
                        left: keys.len(),
                        attempts: attempt,
                    });
                }
                tokio::time::sleep(retries.pause(attempt)).await;
            }
            attempt += 1;
            let request = KeysAndAttributes::builder()
                .set_keys(Some(keys))
                .consistent_read(consistent)
                .build()
                .map_err(|e| ServiceError::Validation {
                    message: e.to_string(),
                })?;
            let out = self
                .client()
                .batch_get_item()
                .request_items(self.name(), request)
                .send()
                .await
                .map_err(|e| ServiceError::from_sdk(&e))?;
            items.extend(
                out.responses
                    .and_then(|mut r| r.remove(self.name()))
                    .unwrap_or_default(),
            );
            keys = out
                .unprocessed_keys
                .and_then(|mut u| u.remove(self.name()))
                .map(|k| k.keys)
                .unwrap_or_default();
        }
        Ok(items)
    }
}

/// A key's attributes with their types, in name order: equal for equal keys.
fn identity(key: &Item) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = key
        .iter()
        .map(|(name, value)| (name.clone(), format!("{value:?}")))
        .collect();
    out.sort();
    out
}
