//! Live reload: a saved model reaches the API and the event stream; a model that stops
//! building shows its diagnostics (`422 invalid_model`, MT000 under `/api/diagnostics`) instead
//! of nothing; fixing it brings the model back; a stop ends the event streams.

use crate::common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::get_json;
use futures_util::StreamExt;
use monotable_ui::ModelSource;
use tower::ServiceExt;

/// The next `data:` of the event stream `body`.
async fn next_event(
    body: &mut (impl futures_util::Stream<Item = Result<axum::body::Bytes, axum::Error>> + Unpin),
) -> Option<String> {
    loop {
        let chunk = tokio::time::timeout(Duration::from_secs(20), body.next())
            .await
            .ok()??
            .ok()?;
        let text = String::from_utf8_lossy(&chunk).to_string();
        if let Some(data) = text.lines().find_map(|l| l.strip_prefix("data: ")) {
            return Some(data.to_string());
        }
    }
}

#[tokio::test]
async fn saving_the_model_updates_the_api_and_the_event_stream() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shop.toml");
    std::fs::write(&file, common::SHOP).unwrap();
    let (ui, stop) = common::ui_with(ModelSource::File(file.clone()), "/ui", None);
    let (status, _) = get_json(&ui, "/ui/api/model").await;
    assert_eq!(status, StatusCode::OK);
    assert!(!ui.reload().await, "an unchanged file is not rebuilt");

    let response = monotable_ui::router(ui.clone())
        .oneshot(Request::get("/ui/api/events").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut events = response.into_body().into_data_stream();
    assert_eq!(
        next_event(&mut events).await.unwrap(),
        r#"{"valid":true,"version":0}"#
    );

    // Break a pattern: the watcher sees it, the stream says so, the API shows the diagnostic.
    let watcher = tokio::spawn(monotable_ui::reload::watch(ui.clone(), stop.subscribe()));
    let broken = common::SHOP.replacen("ORDER#{orderId}\" }", "ORDER#{orderIdx}\" }", 1);
    assert_ne!(broken, common::SHOP);
    std::fs::write(&file, &broken).unwrap();
    assert_eq!(
        next_event(&mut events).await.unwrap(),
        r#"{"valid":false,"version":1}"#
    );
    let (status, body) = get_json(&ui, "/ui/api/model").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["error"], "invalid_model");
    assert_eq!(body["diagnostics"][0]["code"], "MT000", "{body}");
    let (status, d) = get_json(&ui, "/ui/api/diagnostics").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(d["valid"], false);
    let rendered = d["diagnostics"][0]["rendered"].as_str().unwrap();
    assert!(
        rendered.contains("error[MT000]") && rendered.contains("orderIdx"),
        "{rendered}"
    );
    let (status, _) = get_json(&ui, "/ui/api/collections").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // A file that cannot be read is said so too; fixing it brings the model back.
    std::fs::remove_file(&file).unwrap();
    assert_eq!(
        next_event(&mut events).await.unwrap(),
        r#"{"valid":false,"version":2}"#
    );
    let (_, d) = get_json(&ui, "/ui/api/diagnostics").await;
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .starts_with("cannot read model"),
        "{d}"
    );
    std::fs::write(&file, common::SHOP).unwrap();
    assert_eq!(
        next_event(&mut events).await.unwrap(),
        r#"{"valid":true,"version":3}"#
    );
    let (status, model) = get_json(&ui, "/ui/api/model").await;
    assert_eq!(
        (status, &model["version"]),
        (StatusCode::OK, &serde_json::json!(3))
    );

    // A stop ends the stream and the watcher.
    stop.send(true).unwrap();
    assert_eq!(next_event(&mut events).await, None);
    tokio::time::timeout(Duration::from_secs(5), watcher)
        .await
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn under_a_prefix_the_page_knows_its_base() {
    let (ui, _stop) = common::ui_with(
        ModelSource::Text {
            path: "shop.toml".into(),
            text: common::SHOP.into(),
        },
        "/ui",
        None,
    );
    let (status, page) = common::get(&ui, "/ui/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("<base href=\"/ui/\">"));
    let (status, _) = common::get(&ui, "/ui").await;
    assert_eq!(status, StatusCode::PERMANENT_REDIRECT);
    let (status, body) = get_json(&ui, "/ui/api/nope").await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
    let (status, page) = common::get(&ui, "/ui/elsewhere").await;
    assert!(
        status == StatusCode::NOT_FOUND && page.contains("/ui/elsewhere"),
        "{page}"
    );
    let (status, body) = get_json(&ui, "/ui/api/live").await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("live_off"))
    );
}
