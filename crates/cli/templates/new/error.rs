//! The API's errors: `{"error": {"code", "message"}}` with the status that fits, mapped from the
//! library's error of each operation.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use monotable::{GetError, QueryError, ServiceError, TransactError, WriteError};

/// What a request can fail with.
#[derive(Debug)]
pub enum ApiError {
    /// 404: the list or task does not exist.
    NotFound(String),
    /// 400: the input breaks a rule.
    Invalid(String),
    /// 409: the item changed meanwhile (or already exists).
    Conflict(String),
    /// 503: DynamoDB is throttling or unavailable; retry later.
    Unavailable(String),
    /// 500: anything else (logged, not shown).
    Internal(String),
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code, message) = match self {
            ApiError::NotFound(m) => (StatusCode::NOT_FOUND, "not_found", m),
            ApiError::Invalid(m) => (StatusCode::BAD_REQUEST, "invalid", m),
            ApiError::Conflict(m) => (StatusCode::CONFLICT, "conflict", m),
            ApiError::Unavailable(m) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable", m),
            ApiError::Internal(m) => {
                eprintln!("internal error: {m}");
                let hidden = "internal error; the server log has the details".to_string();
                (StatusCode::INTERNAL_SERVER_ERROR, "internal", hidden)
            }
        };
        let body = serde_json::json!({ "error": { "code": code, "message": message } });
        (status, Json(body)).into_response()
    }
}

fn service(e: ServiceError) -> ApiError {
    if e.is_transient() {
        ApiError::Unavailable(e.to_string())
    } else {
        ApiError::Internal(e.to_string())
    }
}

impl From<GetError> for ApiError {
    fn from(e: GetError) -> Self {
        match e {
            GetError::Service(e) => service(e),
            e => ApiError::Internal(e.to_string()),
        }
    }
}

impl From<QueryError> for ApiError {
    fn from(e: QueryError) -> Self {
        match e {
            QueryError::Service(e) => service(e),
            QueryError::Cursor => ApiError::Invalid("`cursor` is not one this listing gave".into()),
            QueryError::Limit { .. } => ApiError::Invalid(e.to_string()),
            e => ApiError::Internal(e.to_string()),
        }
    }
}

impl From<WriteError> for ApiError {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::Service(e) => service(e),
            WriteError::NotFound { .. } => ApiError::NotFound(e.to_string()),
            // A value the model cannot hold exactly (a title over its `max_length` in bytes).
            WriteError::Invalid { .. } => ApiError::Invalid(e.to_string()),
            e if e.is_condition_failed() => ApiError::Conflict(e.to_string()),
            e => ApiError::Internal(e.to_string()),
        }
    }
}

impl From<TransactError> for ApiError {
    fn from(e: TransactError) -> Self {
        match e {
            TransactError::Service(e) => service(e),
            TransactError::Conflict { .. } => ApiError::Unavailable(e.to_string()),
            TransactError::ConditionFailed { .. } => ApiError::Conflict(e.to_string()),
            TransactError::Invalid(e @ WriteError::Invalid { .. }) => e.into(),
            e => ApiError::Internal(e.to_string()),
        }
    }
}
