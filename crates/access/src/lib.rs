//! The access layer: the one door to DynamoDB above the connection layer. Every request a
//! library user or a tool sends goes through one module per DynamoDB operation, through an
//! [`aws_sdk_dynamodb::Client`] from wherever it comes (`monotable-connect` builds one for the
//! embedded engine, an endpoint or AWS).
//!
//! Each operation has two faces over one call: a typed one (entities, compiled keys: what the
//! derives generate) and a dynamic one (items and keys built at run time: what the tools that
//! hold a model only at run time use, [`pattern`] rendering a model's access patterns into
//! them, [`pattern::write`] its write patterns with the same conditions and failures the
//! generated code has). Both return the operation's own error, which wraps the classified [`ServiceError`].
//!
//! | module | DynamoDB | typed | dynamic | error |
//! |---|---|---|---|---|
//! | [`get`] | GetItem | [`GetRequest`], [`Table::get`] | [`get::GetItem`] | [`GetError`] |
//! | [`query`] | Query | [`QueryRequest`] (pages, cursors, streams) | [`query::Query`] | [`QueryError`] |
//! | [`scan`] | Scan | | [`scan::Scan`] (segments, pages) | [`ScanError`] |
//! | [`put`] | PutItem | [`PutSpec::create`], [`PutSpec::put`], [`PutSpec::replace`] | [`PutSpec::item`] | [`WriteError`] |
//! | [`update`] | UpdateItem | [`Update`] (index keys re-rendered) | [`update::UpdateItem`] | [`WriteError`] |
//! | [`delete`] | DeleteItem | [`DeleteItem::of`] | [`DeleteItem::new`] | [`WriteError`] |
//! | [`batch`] | BatchGetItem, BatchWriteItem | [`Table::batch_get`], [`UncheckedWrites::batch_put`] | `batch_get_items`, `batch_put_items` | [`BatchError`] |
//! | [`transact`] | TransactWriteItems | [`Transaction::push`] of a named [`WriteAction`] | [`Transaction::write`], [`Transaction::apply`] | [`TransactError`] |
//! | [`table`] | CreateTable, DescribeTable, DeleteTable, UpdateTable, time to live, ListTables | | one module each | one error each |
//!
//! To support a new operation: add its module here (the request, its one SDK call, its error
//! wrapping [`ServiceError`]), list the error in [`error`], and give it a typed face if the
//! library's users need one. No other crate calls the SDK client (`tests/it/one_door.rs` fails if
//! one does).
//!
//! Beside the operations: [`handle`] (the [`Table`] they run on), [`write`](mod@write) (the conditions and
//! error the item writes share, a failed condition named by the clause that failed),
//! [`unchecked`] (writes on a [`Table`] that no model pattern names, for tools), [`entity`] and
//! [`key`] (what the derive implements), [`cursor`]
//! (sealed pagination cursors), [`items`] (keys rendered from a model's templates, items as
//! JSON), [`value`] (values both ways: Rust, DynamoDB, key text, timestamps in each format) and
//! [`conform`] (whether an item or a value fits the model).

/// `send` and `measured` for a write whose one call answers the capacity it consumed when asked
/// (PutItem, UpdateItem), around `$call`, the SDK call itself in `call(self, table, measure)`:
/// its answer's capacity, or its failure as a [`write::WriteError`].
macro_rules! send_and_measured {
    ($what:literal, |$this:ident, $table:ident, $measure:ident| $call:block) => {
        /// Send it.
        pub async fn send(self, table: &Table) -> Result<(), WriteError> {
            self.call(table, false).await.map(drop)
        }

        /// Send it, and what it consumed (`ReturnConsumedCapacity: INDEXES`).
        pub async fn measured(self, table: &Table) -> Result<Option<ConsumedCapacity>, WriteError> {
            self.call(table, true).await
        }

        #[doc = concat!("The one ", $what, " call.")]
        async fn call(
            self,
            $table: &Table,
            $measure: bool,
        ) -> Result<Option<ConsumedCapacity>, WriteError> {
            let $this = self;
            match $call {
                Ok(out) => Ok(out.consumed_capacity),
                Err(e) => Err(write_failed(&e, &$this.condition, $this.description)),
            }
        }
    };
}

pub mod batch;
pub mod conform;
pub mod cursor;
pub mod delete;
pub mod entity;
pub mod error;
pub mod get;
pub mod handle;
pub mod items;
pub mod key;
pub mod pattern;
pub mod put;
pub mod query;
pub mod scan;
pub mod service;
pub mod stream;
pub mod table;
pub mod transact;
pub mod unchecked;
pub mod update;
pub mod value;
pub mod write;

pub use delete::DeleteItem;
pub use entity::{Entity, EntityError, KeySpec};
pub use error::{
    BatchError, CancelReason, GetError, QueryError, ScanError, ServiceError, TransactError,
    WriteError, WriteFailure,
};
pub use get::GetRequest;
pub use handle::{Retries, Table};
pub use key::{Key, KeyArg, KeyKind, ParameterError, Seg};
pub use put::PutSpec;
pub use query::{KeyCondition, MAX_PAGE, Page, QueryRequest, QuerySpec, Row, SortCondition};
pub use transact::{CheckItem, MAX_ACTIONS, Transaction, WriteAction};
pub use unchecked::UncheckedWrites;
pub use update::{Update, UpdateItem, UpdateParts};
pub use value::{Value, ValueError};
pub use write::Condition;
