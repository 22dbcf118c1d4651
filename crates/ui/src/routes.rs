//! The axum [`Router`] of the UI under its prefix: the page at `PREFIX/`, the JSON API under
//! `PREFIX/api`, and clear 404s (JSON under `/api`, a small page elsewhere). Every model route
//! answers from the [`Ui`]'s current snapshot; while the model does not build they answer
//! `422 invalid_model` with its diagnostics, and `/api/diagnostics` shows them.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use serde_json::{Value, json};

use crate::params::Params;
use crate::reply::{MAX_BODY, error};
use crate::{Snapshot, Ui, UiState, api, events, gate};

/// The page: vanilla JS, no build step, nothing loaded from elsewhere.
const PAGE: &str = include_str!("page.html");

/// The page's Content-Security-Policy: its own inline script (by hash) and nothing else runs,
/// it talks only to this server, submits no form anywhere and no other page may frame it.
static PAGE_POLICY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    use base64::Engine as _;
    use sha2::Digest as _;
    let script = PAGE
        .split_once("<script>")
        .and_then(|(_, rest)| rest.split_once("</script>"))
        .map_or("", |(body, _)| body);
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(script));
    format!(
        "default-src 'none'; script-src 'sha256-{hash}'; style-src 'unsafe-inline'; \
         img-src 'self' data:; connect-src 'self'; base-uri 'self'; form-action 'none'; \
         frame-ancestors 'none'"
    )
});

type Shared = State<Arc<Ui>>;

/// The UI's routes over `ui`, under its prefix (no host guard: [`crate::serve`] and `serve`
/// add it). Without a prefix, every other path is the UI's 404; under one, only paths below it
/// are, so the router merges into another (as `serve` does).
pub fn router(ui: Arc<Ui>) -> Router {
    let p = ui.prefix.clone();
    // The routes that read or write the table: behind the table view's gate.
    let table = Router::new()
        .route(
            &format!("{p}/api/live/patterns/{{name}}"),
            get(live_pattern),
        )
        .route(&format!("{p}/api/live/scan"), get(live_scan))
        .route(
            &format!("{p}/api/live/item"),
            axum::routing::put(live_put).delete(live_delete),
        )
        .route_layer(axum::middleware::from_fn_with_state(
            ui.clone(),
            gate::table_gate,
        ));
    let mut router = Router::new()
        .route(&format!("{p}/"), get(page))
        .route(&format!("{p}/api/model"), get(model))
        .route(&format!("{p}/api/collections"), get(collections))
        .route(&format!("{p}/api/patterns/{{name}}"), get(pattern))
        .route(&format!("{p}/api/diagnostics"), get(diagnostics))
        .route(&format!("{p}/api/cost"), get(cost))
        .route(&format!("{p}/api/events"), get(events))
        .route(&format!("{p}/api/live"), get(live))
        .merge(table);
    if p.is_empty() {
        router = router.fallback(not_found);
    } else {
        let to = format!("{p}/");
        router = router
            .route(&p, get(move || async move { Redirect::permanent(&to) }))
            .route(&format!("{p}/{{*rest}}"), axum::routing::any(not_found));
    }
    router
        .layer(axum::middleware::from_fn_with_state(
            ui.clone(),
            gate::json_errors,
        ))
        .with_state(ui)
}

fn ok(value: Value) -> Response {
    axum::Json(value).into_response()
}

/// The current model's state, or the `422 invalid_model` answer.
async fn ready(ui: &Ui) -> Result<Arc<Snapshot>, Response> {
    let snapshot = ui.snapshot().await;
    match &*snapshot {
        Snapshot::Ready(_) => Ok(snapshot),
        Snapshot::Invalid(i) => Err((
            StatusCode::UNPROCESSABLE_ENTITY,
            axum::Json(json!({
                "error": "invalid_model",
                "message": i.message,
                "diagnostics": api::diagnostics_of(&i.path, &i.source, &i.diagnostics)["diagnostics"],
            })),
        )
            .into_response()),
    }
}

/// Runs `f` on the current model's state, or answers `422`.
async fn with_state(ui: &Ui, f: impl FnOnce(&UiState) -> Response) -> Response {
    match ready(ui).await {
        Ok(s) => f(s.ready().expect("ready() checked it")),
        Err(r) => r,
    }
}

/// The page, with its base and the current model's first view in `#initial`, so it draws the
/// model without waiting for the API (later versions it fetches).
async fn page(State(ui): Shared) -> Response {
    let base = format!("{}/", ui.prefix);
    let initial = initial(&ui).await.to_string();
    // In a <script> element only `</` could end it early; `<\/` is the same JSON.
    let initial = initial.replace("</", "<\\/").replace("<!--", "<\\u0021--");
    let html = PAGE
        .replacen("<base href=\"/\">", &format!("<base href=\"{base}\">"), 1)
        .replacen(
            "<script id=\"initial\" type=\"application/json\">null</script>",
            &format!("<script id=\"initial\" type=\"application/json\">{initial}</script>"),
            1,
        );
    (
        [
            (header::CACHE_CONTROL, "no-store"),
            (header::CONTENT_SECURITY_POLICY, PAGE_POLICY.as_str()),
        ],
        Html(html),
    )
        .into_response()
}

/// What the page's `fetchAll()` would fetch for the table: diagnostics, model, collections, cost.
async fn initial(ui: &Ui) -> Value {
    let diagnostics = diagnostics_doc(ui).await;
    let snapshot = ui.snapshot().await;
    match snapshot.ready() {
        Some(s) => {
            let mut model = api::model(s);
            model["version"] = json!(ui.version());
            json!({
                "diagnostics": diagnostics,
                "model": model,
                "collections": api::collections(s, "table"),
                "cost": api::cost(s),
            })
        }
        None => json!({ "diagnostics": diagnostics }),
    }
}

async fn model(State(ui): Shared) -> Response {
    let version = ui.version();
    with_state(&ui, |s| {
        let mut v = api::model(s);
        v["version"] = json!(version);
        ok(v)
    })
    .await
}

async fn collections(State(ui): Shared, Params(query): Params) -> Response {
    let index = query.get("index").map_or("table", String::as_str);
    with_state(&ui, |s| match api::collections(s, index) {
        Some(v) => ok(v),
        None => error(
            StatusCode::NOT_FOUND,
            "unknown_index",
            format!("the model has no index `{index}` (use `table` for the table)"),
        ),
    })
    .await
}

async fn pattern(State(ui): Shared, Path(name): Path<String>) -> Response {
    with_state(&ui, |s| match api::pattern(s, &name) {
        Some(v) => ok(v),
        None => error(
            StatusCode::NOT_FOUND,
            "unknown_pattern",
            format!("the model has no pattern `{name}`"),
        ),
    })
    .await
}

async fn diagnostics(State(ui): Shared) -> Response {
    ok(diagnostics_doc(&ui).await)
}

/// `GET /api/diagnostics`: the diagnostics, whether the model builds, and its version.
async fn diagnostics_doc(ui: &Ui) -> Value {
    let snapshot = ui.snapshot().await;
    let (valid, message, doc) = match &*snapshot {
        Snapshot::Ready(s) => (true, None, api::diagnostics(s)),
        Snapshot::Invalid(i) => (
            false,
            Some(i.message.clone()),
            api::diagnostics_of(&i.path, &i.source, &i.diagnostics),
        ),
    };
    let mut doc = doc;
    doc["valid"] = json!(valid);
    doc["message"] = json!(message);
    doc["version"] = json!(ui.version());
    doc
}

async fn cost(State(ui): Shared) -> Response {
    with_state(&ui, |s| ok(api::cost(s))).await
}

async fn events(State(ui): Shared) -> Response {
    events::stream(ui).into_response()
}

/// The table view's backend and the current model, or the answer saying why not.
async fn live_parts(ui: &Ui) -> Result<(&crate::Live, Arc<Snapshot>), Response> {
    let Some(live) = ui.live.as_ref() else {
        return Err(error(
            StatusCode::NOT_FOUND,
            "live_off",
            "this UI has no table view".to_string(),
        ));
    };
    Ok((live, ready(ui).await?))
}

async fn live(State(ui): Shared) -> Response {
    match live_parts(&ui).await {
        Ok((live, s)) => ok(live.describe(s.ready().expect("ready"))),
        Err(r) => r,
    }
}

async fn live_pattern(
    State(ui): Shared,
    Path(name): Path<String>,
    Params(query): Params,
) -> Response {
    match live_parts(&ui).await {
        Ok((live, s)) => live.run(s.ready().expect("ready"), &name, &query).await,
        Err(r) => r,
    }
}

async fn live_scan(State(ui): Shared, Params(query): Params) -> Response {
    match live_parts(&ui).await {
        Ok((live, s)) => live.scan(s.ready().expect("ready"), None, &query).await,
        Err(r) => r,
    }
}

/// The JSON body of a write, or the 400 saying why not.
async fn body(request: axum::extract::Request) -> Result<Value, Response> {
    let bytes = axum::body::to_bytes(request.into_body(), MAX_BODY)
        .await
        .map_err(|_| {
            error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!("a body holds at most {MAX_BODY} bytes"),
            )
        })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        error(
            StatusCode::BAD_REQUEST,
            "invalid_json",
            format!("the body is not JSON: {e}"),
        )
    })
}

async fn live_put(State(ui): Shared, request: axum::extract::Request) -> Response {
    live_write(&ui, request, axum::http::Method::PUT).await
}

async fn live_delete(State(ui): Shared, request: axum::extract::Request) -> Response {
    live_write(&ui, request, axum::http::Method::DELETE).await
}

/// `PUT` (an item) or `DELETE` (a key) on the table view's backend.
async fn live_write(
    ui: &Ui,
    request: axum::extract::Request,
    method: axum::http::Method,
) -> Response {
    let (live, s) = match live_parts(ui).await {
        Ok(parts) => parts,
        Err(r) => return r,
    };
    let state = s.ready().expect("ready");
    match body(request).await {
        Ok(v) if method == axum::http::Method::PUT => live.put(state, &v).await,
        Ok(v) => live.delete(state, &v).await,
        Err(r) => r,
    }
}

async fn not_found(State(ui): Shared, uri: Uri) -> Response {
    let path = uri.path();
    let api = format!("{}/api", ui.prefix);
    if path == api || path.starts_with(&format!("{api}/")) {
        return error(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no API route `{path}`; see docs/ui.md for the routes"),
        );
    }
    let home = format!("{}/", ui.prefix);
    let shown = html_escape(path);
    let page = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title></head>\n<body><h1>Not found</h1><p id=\"error\">monotable ui has no page <code>{shown}</code>. The model is at <a href=\"{home}\">{home}</a>.</p></body></html>\n"
    );
    (StatusCode::NOT_FOUND, Html(page)).into_response()
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
