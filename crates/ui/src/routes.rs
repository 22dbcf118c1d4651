//! The axum [`Router`] of the UI: the page at `/`, the JSON API under `/api`, and 404s (JSON
//! under `/api`, a small page elsewhere).

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use crate::{UiState, api};

/// The page: vanilla JS, no build step, nothing loaded from elsewhere.
const PAGE: &str = include_str!("page.html");

const NOT_FOUND_PAGE: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title></head>\n<body><h1>Not found</h1><p>There is nothing here. The model is at <a href=\"/\">/</a>.</p></body></html>\n";

type Shared = State<Arc<UiState>>;

/// The UI's routes over `state` (no host guard: [`crate::serve`] adds it).
pub fn router(state: Arc<UiState>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/model", get(model))
        .route("/api/collections", get(collections))
        .route("/api/patterns/{name}", get(pattern))
        .route("/api/diagnostics", get(diagnostics))
        .route("/api/cost", get(cost))
        .fallback(not_found)
        .with_state(state)
}

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
    error(status, code, message)
}

/// The body of an answer the server gives a request it cannot parse.
pub(crate) fn parse_error_body(status: u16) -> (&'static str, Vec<u8>) {
    let body =
        json!({ "error": "bad_request", "message": format!("malformed request ({status})") });
    ("application/json", body.to_string().into_bytes())
}

fn ok(value: Value) -> Response {
    axum::Json(value).into_response()
}

async fn page() -> Response {
    ([(header::CACHE_CONTROL, "no-store")], Html(PAGE)).into_response()
}

async fn model(State(state): Shared) -> Response {
    ok(api::model(&state))
}

async fn collections(
    State(state): Shared,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let index = query.get("index").map_or("table", String::as_str);
    match api::collections(&state, index) {
        Some(v) => ok(v),
        None => error(
            StatusCode::NOT_FOUND,
            "unknown_index",
            format!("the model has no index `{index}` (use `table` for the table)"),
        ),
    }
}

async fn pattern(State(state): Shared, Path(name): Path<String>) -> Response {
    match api::pattern(&state, &name) {
        Some(v) => ok(v),
        None => error(
            StatusCode::NOT_FOUND,
            "unknown_pattern",
            format!("the model has no pattern `{name}`"),
        ),
    }
}

async fn diagnostics(State(state): Shared) -> Response {
    ok(api::diagnostics(&state))
}

async fn cost(State(state): Shared) -> Response {
    ok(api::cost(&state))
}

async fn not_found(uri: Uri) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        error(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no API route `{path}`; see docs/ui.md"),
        )
    } else {
        (StatusCode::NOT_FOUND, Html(NOT_FOUND_PAGE)).into_response()
    }
}
