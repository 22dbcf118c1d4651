//! Errors of the typed access layer: one enum per operation, each telling apart what a caller
//! acts on differently: a failed condition (naming the item), throttling, a conflict with
//! another writer, a request DynamoDB refused as invalid, and a missing table. A throttled call
//! is never a string inside a generic error.

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{DisplayErrorContext, ProvideErrorMetadata, SdkError};

use crate::entity::EntityError;

/// What DynamoDB (or the way to it) said, classified.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ServiceError {
    /// Throttled after the SDK's retries (`ProvisionedThroughputExceededException`,
    /// `ThrottlingException`, `RequestLimitExceeded`): retry later.
    #[error("throttled: {message}")]
    Throttled {
        /// DynamoDB's message.
        message: String,
    },
    /// The table does not exist.
    #[error("table not found: {message}")]
    TableMissing {
        /// DynamoDB's message.
        message: String,
    },
    /// DynamoDB refused the request as invalid (`ValidationException`): a bug to fix, not to
    /// retry.
    #[error("invalid request: {message}")]
    Validation {
        /// DynamoDB's message.
        message: String,
    },
    /// DynamoDB failed (5xx) or did not answer: retry later.
    #[error("unavailable: {message}")]
    Unavailable {
        /// What happened.
        message: String,
    },
    /// Anything else DynamoDB answered.
    #[error("{code}: {message}")]
    Other {
        /// DynamoDB's error code.
        code: String,
        /// DynamoDB's message.
        message: String,
    },
}

impl ServiceError {
    /// Classify an SDK error.
    pub fn from_sdk<E>(e: &SdkError<E, HttpResponse>) -> ServiceError
    where
        E: ProvideErrorMetadata + std::error::Error + 'static,
    {
        let status = e.raw_response().map(|r| r.status().as_u16());
        let Some(service) = e.as_service_error() else {
            return ServiceError::Unavailable {
                message: DisplayErrorContext(e).to_string(),
            };
        };
        let code = service.code().unwrap_or("error").to_string();
        let message = service.message().unwrap_or("no message").to_string();
        Self::classify(&code, message, status)
    }

    /// Classify an error code and message.
    pub fn classify(code: &str, message: String, status: Option<u16>) -> ServiceError {
        match code {
            "ProvisionedThroughputExceededException"
            | "ThrottlingException"
            | "RequestLimitExceeded" => ServiceError::Throttled { message },
            "ResourceNotFoundException" => ServiceError::TableMissing { message },
            "ValidationException" | "SerializationException" => {
                ServiceError::Validation { message }
            }
            _ if status.is_none_or(|s| s >= 500) => ServiceError::Unavailable { message },
            _ => ServiceError::Other {
                code: code.to_string(),
                message,
            },
        }
    }

    /// Worth retrying later (throttled or unavailable).
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            ServiceError::Throttled { .. } | ServiceError::Unavailable { .. }
        )
    }
}

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
}

/// Reading a page (or all pages) failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// DynamoDB refused or failed the call.
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// An item is not a valid entity.
    #[error(transparent)]
    Entity(#[from] EntityError),
    /// The cursor is not one this listing issued.
    #[error("the cursor is not one this listing issued")]
    Cursor,
    /// A page size of 0, or beyond what DynamoDB takes.
    #[error("a page holds 1 to {max} items; got {got}")]
    Limit {
        /// What was asked.
        got: usize,
        /// The largest page.
        max: usize,
    },
}

/// A write (put, create, update, delete) failed.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The write's condition did not hold.
    #[error("the condition on {item} did not hold")]
    ConditionFailed {
        /// The item: entity and key.
        item: String,
    },
    /// `create` found the item already there.
    #[error("{item} already exists")]
    AlreadyExists {
        /// The item: entity and key.
        item: String,
    },
    /// The item's version is not the one the write expected (optimistic locking).
    #[error("{item} changed meanwhile (expected version {expected})")]
    VersionConflict {
        /// The item: entity and key.
        item: String,
        /// The version expected.
        expected: i64,
    },
    /// An update changes an input of an index key without the others, so the key cannot be
    /// re-rendered and would go stale.
    #[error(
        "updating `{changed}` of {entity} re-renders index key `{key}`, which also needs `{missing}`: set it too, or update from the whole entity"
    )]
    PartialKeyUpdate {
        /// The entity.
        entity: &'static str,
        /// The index key attribute.
        key: &'static str,
        /// An input the update changes.
        changed: &'static str,
        /// An input it neither changes nor knows.
        missing: &'static str,
    },
    /// An update adds to an attribute an index key reads: the new value, and so the key, is
    /// not known before the write.
    #[error(
        "adding to `{attribute}` of {entity} changes index key `{key}` to a value not known before the write: set `{attribute}` instead"
    )]
    KeyInputAdded {
        /// The entity.
        entity: &'static str,
        /// The index key attribute.
        key: &'static str,
        /// The attribute added to.
        attribute: &'static str,
    },
    /// DynamoDB refused or failed the call.
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl WriteError {
    /// The write's condition failed (including a version conflict or an existing item).
    pub fn is_condition_failed(&self) -> bool {
        matches!(
            self,
            WriteError::ConditionFailed { .. }
                | WriteError::AlreadyExists { .. }
                | WriteError::VersionConflict { .. }
        )
    }
}

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
    #[error("transaction cancelled: {}", describe(.reasons))]
    ConditionFailed {
        /// Each action that failed, and why.
        reasons: Vec<CancelReason>,
    },
    /// DynamoDB cancelled the transaction for another reason than a condition (a validation
    /// error of one action, for instance), each failing action named.
    #[error("transaction cancelled: {}", describe(.reasons))]
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

fn describe(reasons: &[CancelReason]) -> String {
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
    /// An item read is not a valid entity.
    #[error(transparent)]
    Entity(#[from] EntityError),
    /// DynamoDB refused or failed the call.
    #[error(transparent)]
    Service(#[from] ServiceError),
}
