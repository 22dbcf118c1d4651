//! What the UI's tests share: a [`Ui`] over the shop's model, and requests through its router
//! with `oneshot` (no sockets).

#![allow(dead_code)]

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use monotable_ui::{Live, ModelSource, Ui, UiOptions};
use serde_json::Value;
use tokio::sync::watch;
use tower::ServiceExt;

pub const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");

/// A UI over `source` with `prefix`; the sender stops its event streams when sent `true` or
/// dropped.
pub fn ui_with(
    source: ModelSource,
    prefix: &str,
    live: Option<Live>,
) -> (Arc<Ui>, watch::Sender<bool>) {
    let (stop, stopped) = watch::channel(false);
    let ui = Ui::new(
        source,
        UiOptions {
            seed: monotable_verify::DEFAULT_SEED,
            prefix: prefix.to_string(),
            live,
            stop: stopped,
        },
    );
    (ui, stop)
}

/// A UI over the shop's model.
pub fn shop(live: Option<Live>) -> (Arc<Ui>, watch::Sender<bool>) {
    let source = ModelSource::Text {
        path: "shop.toml".to_string(),
        text: SHOP.to_string(),
    };
    ui_with(source, "", live)
}

/// A request through the router: status and body text.
pub async fn call(ui: &Arc<Ui>, request: Request<Body>) -> (StatusCode, String) {
    let response = monotable_ui::router(ui.clone())
        .oneshot(request)
        .await
        .unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

pub async fn get(ui: &Arc<Ui>, uri: &str) -> (StatusCode, String) {
    call(ui, Request::get(uri).body(Body::empty()).unwrap()).await
}

pub async fn get_json(ui: &Arc<Ui>, uri: &str) -> (StatusCode, Value) {
    let (status, body) = get(ui, uri).await;
    let value = serde_json::from_str(&body).unwrap_or_else(|_| panic!("not JSON: {body}"));
    (status, value)
}

/// A request with a JSON body.
pub async fn send_json(ui: &Arc<Ui>, method: &str, uri: &str, body: &Value) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let (status, text) = call(ui, request).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}")),
    )
}
