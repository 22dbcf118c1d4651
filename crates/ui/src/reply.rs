//! The API's answers when something is refused: the JSON error every route gives
//! (`{"error": code, "message": message}`), the host guard's refusals and the answer to a
//! request the server cannot parse in that shape, and the largest request body read.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// The largest request body read (an item to put, a key to delete).
pub(crate) const MAX_BODY: usize = 512 * 1024;

/// A JSON error: `{"error": code, "message": message}`.
pub(crate) fn error(status: StatusCode, code: &str, message: String) -> Response {
    (
        status,
        axum::Json(json!({ "error": code, "message": message })),
    )
        .into_response()
}

/// Refusals of the host guard, in the API's error shape.
pub(crate) fn refuse(status: StatusCode, code: &'static str, message: String) -> Response {
    let message = if code == "forbidden_origin" {
        "web pages from other sites may not call monotable ui; open it at its own address"
            .to_string()
    } else {
        message
    };
    error(status, code, message)
}

/// The body of an answer the server gives a request it cannot parse.
pub(crate) fn parse_error_body(status: u16) -> (&'static str, Vec<u8>) {
    let body =
        json!({ "error": "bad_request", "message": format!("malformed request ({status})") });
    ("application/json", body.to_string().into_bytes())
}
