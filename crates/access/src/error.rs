//! Every error of the access layer in one place: each operation's own error, defined beside the
//! operation, and the classified [`ServiceError`] they wrap (defined in [`crate::service`]).

pub use crate::batch::BatchError;
pub use crate::get::GetError;
pub use crate::query::QueryError;
pub use crate::scan::ScanError;
pub use crate::service::{ServiceError, UNREACHABLE, call_text};
pub use crate::table::{
    DeleteTableError, DescribeTableError, ListTablesError, TableError, TtlError, UpdateTableError,
};
pub use crate::transact::{CancelReason, TransactError};
pub use crate::write::{WriteError, WriteFailure};
