//! The shop's errors: what went wrong, as the REST API reports it (`{"error": {code, message}}`).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
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
    /// DynamoDB or the shop failed (500); the message is logged, not shown.
    #[error("internal error: {0}")]
    Internal(String),
}

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
            ShopError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The stable code in the error body.
    pub fn code(&self) -> &'static str {
        match self {
            ShopError::Invalid { code, .. } | ShopError::Conflict { code, .. } => code,
            ShopError::Unauthenticated(_) => "unauthenticated",
            ShopError::Forbidden(_) => "forbidden",
            ShopError::NotFound(_) => "not_found",
            ShopError::Internal(_) => "internal",
        }
    }
}

impl From<monotable_store::items::ItemError> for ShopError {
    fn from(e: monotable_store::items::ItemError) -> Self {
        ShopError::internal(e)
    }
}

impl From<monotable_store::pattern::PatternError> for ShopError {
    fn from(e: monotable_store::pattern::PatternError) -> Self {
        ShopError::internal(e)
    }
}

/// An SDK error as a 500, keeping DynamoDB's code and message for the log.
pub(crate) fn sdk<E, R>(operation: &str, e: aws_sdk_dynamodb::error::SdkError<E, R>) -> ShopError
where
    E: aws_sdk_dynamodb::error::ProvideErrorMetadata + std::error::Error + 'static,
    R: std::fmt::Debug,
{
    let detail = match e.as_service_error() {
        Some(s) => format!(
            "{}: {}",
            s.code().unwrap_or("error"),
            s.message().unwrap_or("no message")
        ),
        None => aws_sdk_dynamodb::error::DisplayErrorContext(&e).to_string(),
    };
    ShopError::Internal(format!("{operation}: {detail}"))
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
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code().to_string(),
                message,
            },
        };
        (self.status(), Json(body)).into_response()
    }
}
