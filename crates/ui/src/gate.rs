//! What stands between a request and the UI's handlers: the table view's [`DataGate`] (the
//! routes that read or write the table ask for the backend's credentials, or are off), and the
//! rule that every API answer is JSON, whatever turned the request away (axum's own extractor
//! rejections included).

use std::sync::Arc;
use std::time::SystemTime;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::Ui;
use crate::reply::{MAX_BODY, error};

/// The table view's gate: the request (its body read, up to [`MAX_BODY`]) goes on only when the
/// view's [`DataGate`] lets it; otherwise the gate's answer, with `WWW-Authenticate` naming the
/// signature it asks for. Without a table view the handler answers `live_off` itself.
pub(crate) async fn table_gate(
    State(ui): State<Arc<Ui>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(live) = ui.live.as_ref() else {
        return next.run(request).await;
    };
    let (parts, body) = request.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_BODY).await {
        Ok(bytes) => bytes,
        Err(_) => {
            return error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!("a body holds at most {MAX_BODY} bytes"),
            );
        }
    };
    let checked = live.gate.check(
        &parts.method,
        &parts.uri,
        &parts.headers,
        &bytes,
        SystemTime::now(),
    );
    if let Err(denied) = checked {
        let mut response = error(denied.status, denied.code, denied.message);
        if denied.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("AWS4-HMAC-SHA256"),
            );
        }
        return response;
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// Every error answer under `PREFIX/api` in the API's JSON shape: a handler's own answers
/// already are; axum's rejections (a path that is not UTF-8, a query it cannot read) and other
/// plain answers are rewritten, their text kept as the message.
pub(crate) async fn json_errors(
    State(ui): State<Arc<Ui>>,
    request: Request,
    next: Next,
) -> Response {
    let api = format!("{}/api", ui.prefix);
    let path = request.uri().path();
    let under_api = path == api || path.starts_with(&format!("{api}/"));
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json") || t.starts_with("text/event-stream"));
    if !under_api || !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let text = axum::body::to_bytes(response.into_body(), 64 * 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_string()
    } else {
        text
    };
    error(status, code_of(status), message)
}

/// The API's error code for a status a handler did not choose itself.
fn code_of(status: StatusCode) -> &'static str {
    match status {
        StatusCode::BAD_REQUEST => "bad_request",
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
        StatusCode::UNPROCESSABLE_ENTITY => "unprocessable",
        s if s.is_client_error() => "bad_request",
        _ => "internal_error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_for_statuses_a_handler_did_not_choose() {
        assert_eq!(code_of(StatusCode::BAD_REQUEST), "bad_request");
        assert_eq!(
            code_of(StatusCode::METHOD_NOT_ALLOWED),
            "method_not_allowed"
        );
        assert_eq!(code_of(StatusCode::IM_A_TEAPOT), "bad_request");
        assert_eq!(code_of(StatusCode::BAD_GATEWAY), "internal_error");
    }
}
