//! The shop's errors: what went wrong, as the REST API reports it (`{"error": {code, message}}`).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use monotable::{BatchError, GetError, QueryError, ServiceError, TransactError, WriteError};
use serde::Serialize;

/// An error the shop reports to its caller.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ShopError {
    /// Invalid input (400).
    #[error("{message}")]
    Invalid {
        /// Stable machine-readable code.
        code: &'static str,
        /// What is wrong, for people.
        message: String,
    },
    /// No or bad credentials (401).
    #[error("{0}")]
    Unauthenticated(String),
    /// Authenticated but not allowed (403).
    #[error("{0}")]
    Forbidden(String),
    /// Does not exist, or is not the caller's (404).
    #[error("{0}")]
    NotFound(String),
    /// Conflicts with the current state (409).
    #[error("{message}")]
    Conflict {
        /// Stable machine-readable code.
        code: &'static str,
        /// What conflicts.
        message: String,
    },
    /// DynamoDB is unavailable for now: throttled, failing, the table missing, or retries ran
    /// out against concurrent writers (503 with `Retry-After`).
    #[error("{message}")]
    Unavailable {
        /// Stable machine-readable code.
        code: &'static str,
        /// What is unavailable, for people.
        message: String,
    },
    /// The request body is larger than the API accepts (413).
    #[error("{0}")]
    TooLarge(String),
    /// DynamoDB or the shop failed (500); the message is logged, not shown.
    #[error("internal error: {0}")]
    Internal(String),
}

/// Seconds a client should wait before retrying a 503.
pub const RETRY_AFTER_SECONDS: u32 = 1;

/// Marks a response whose request found the shop's table missing, so the server can recreate it.
#[derive(Debug, Clone, Copy)]
pub struct TableMissing;

impl ShopError {
    /// A 400 with `code`.
    pub fn invalid(code: &'static str, message: impl Into<String>) -> ShopError {
        ShopError::Invalid {
            code,
            message: message.into(),
        }
    }

    /// A 409 with `code`.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ShopError {
        ShopError::Conflict {
            code,
            message: message.into(),
        }
    }

    /// A 503: retries ran out against concurrent writers.
    pub fn busy(message: impl Into<String>) -> ShopError {
        ShopError::Unavailable {
            code: "busy",
            message: message.into(),
        }
    }

    /// A 500 from anything printable.
    pub fn internal(e: impl std::fmt::Display) -> ShopError {
        ShopError::Internal(e.to_string())
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ShopError::Invalid { .. } => StatusCode::BAD_REQUEST,
            ShopError::Unauthenticated(_) => StatusCode::UNAUTHORIZED,
            ShopError::Forbidden(_) => StatusCode::FORBIDDEN,
            ShopError::NotFound(_) => StatusCode::NOT_FOUND,
            ShopError::Conflict { .. } => StatusCode::CONFLICT,
            ShopError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ShopError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ShopError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The stable code in the error body.
    pub fn code(&self) -> &'static str {
        match self {
            ShopError::Invalid { code, .. }
            | ShopError::Conflict { code, .. }
            | ShopError::Unavailable { code, .. } => code,
            ShopError::TooLarge(_) => "body_too_large",
            ShopError::Unauthenticated(_) => "unauthenticated",
            ShopError::Forbidden(_) => "forbidden",
            ShopError::NotFound(_) => "not_found",
            ShopError::Internal(_) => "internal",
        }
    }
}

/// The 400 for a cursor this listing did not issue.
pub(crate) fn invalid_cursor() -> ShopError {
    ShopError::invalid(
        "invalid_cursor",
        "`cursor` is not a cursor this listing issued; start again without it",
    )
}

/// What a DynamoDB error means to the caller: a missing table, throttling, DynamoDB failing or
/// unreachable are 503s that say so; anything else is a 500 whose detail is logged.
impl From<ServiceError> for ShopError {
    fn from(e: ServiceError) -> Self {
        match e {
            ServiceError::TableMissing { message } => {
                tracing::error!(detail = %message, "the shop's table is missing");
                ShopError::Unavailable {
                    code: "table_missing",
                    message: "the shop's table does not exist (was it deleted?); retry shortly"
                        .into(),
                }
            }
            ServiceError::Throttled { .. } => ShopError::Unavailable {
                code: "throttled",
                message: "DynamoDB is throttling requests; retry shortly".into(),
            },
            unreachable @ ServiceError::Unreachable { .. } => {
                tracing::error!(detail = %unreachable, "DynamoDB did not answer");
                ShopError::Unavailable {
                    code: "unavailable",
                    message: "the database is unavailable; retry shortly".into(),
                }
            }
            ServiceError::Unavailable { message } => {
                tracing::error!(detail = %message, "DynamoDB failed or did not answer");
                ShopError::Unavailable {
                    code: "unavailable",
                    message: "the database is unavailable; retry shortly".into(),
                }
            }
            other => ShopError::Internal(other.to_string()),
        }
    }
}

impl From<GetError> for ShopError {
    fn from(e: GetError) -> Self {
        match e {
            GetError::Service(e) => e.into(),
            other => ShopError::internal(other),
        }
    }
}

impl From<QueryError> for ShopError {
    fn from(e: QueryError) -> Self {
        match e {
            QueryError::Service(e) => e.into(),
            QueryError::Cursor => invalid_cursor(),
            other => ShopError::internal(other),
        }
    }
}

impl From<WriteError> for ShopError {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::Service(e) => e.into(),
            // A value the model's attribute cannot hold (a name longer than its `max_length` in
            // UTF-8 bytes, say): the request's fault, said as the library says it.
            WriteError::Invalid { .. } => ShopError::invalid("invalid_value", e.to_string()),
            other => ShopError::internal(other),
        }
    }
}

impl From<TransactError> for ShopError {
    fn from(e: TransactError) -> Self {
        match e {
            TransactError::Service(e) => e.into(),
            TransactError::Conflict { .. } => {
                ShopError::busy("other requests kept changing the same items; try again")
            }
            TransactError::Invalid(e @ WriteError::Invalid { .. }) => e.into(),
            other => ShopError::internal(other),
        }
    }
}

impl From<BatchError> for ShopError {
    fn from(e: BatchError) -> Self {
        match e {
            BatchError::Service(e) => e.into(),
            BatchError::Unprocessed { .. } => ShopError::Unavailable {
                code: "throttled",
                message: e.to_string(),
            },
            other => ShopError::internal(other),
        }
    }
}

impl From<monotable::TableError> for ShopError {
    fn from(e: monotable::TableError) -> Self {
        ShopError::internal(e)
    }
}

/// The JSON error body.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// Code and message.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorDetail {
    /// Stable machine-readable code, e.g. `invalid_input`, `out_of_stock`.
    pub code: String,
    /// What went wrong, for people.
    pub message: String,
}

impl IntoResponse for ShopError {
    fn into_response(self) -> Response {
        let message = match &self {
            ShopError::Internal(detail) => {
                tracing::error!(%detail, "request failed");
                "internal error; the server log has the details".to_string()
            }
            other => other.to_string(),
        };
        let mut response = error_response(self.status(), self.code(), message);
        if let ShopError::Unavailable { code, .. } = &self {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(RETRY_AFTER_SECONDS),
            );
            if *code == "table_missing" {
                response.extensions_mut().insert(TableMissing);
            }
        }
        response
    }
}

/// A response in the shop's error shape.
pub fn error_response(status: StatusCode, code: &str, message: String) -> Response {
    let body = ErrorBody {
        error: ErrorDetail {
            code: code.to_string(),
            message,
        },
    };
    (status, Json(body)).into_response()
}
