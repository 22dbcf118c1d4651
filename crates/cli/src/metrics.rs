//! `GET /metrics` on `serve`'s API port: what the capacity emulator counted (consumed capacity,
//! requests and throttles per table, index and hottest partition key), as Prometheus text or,
//! with `?format=json`, as JSON. With emulation off it still answers 200, saying so.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use monotable_connect::capacity::Emulator;

/// The content type of Prometheus' text exposition format.
pub const PROMETHEUS_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The `/metrics` route over `emulator` (`None`: emulation is off). Other methods get a 405 in
/// the shop's error shape, like the shop's own routes.
pub fn router(emulator: Option<Arc<Emulator>>) -> Router {
    Router::new()
        .route(
            "/metrics",
            get(metrics).fallback(|| async {
                monotable_shop::api::refuse(
                    StatusCode::METHOD_NOT_ALLOWED,
                    "method_not_allowed",
                    "/metrics takes GET only".into(),
                )
            }),
        )
        .with_state(emulator)
}

async fn metrics(
    State(emulator): State<Option<Arc<Emulator>>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    match query.get("format").map(String::as_str) {
        None | Some("prometheus" | "text") => text(emulator.as_deref()),
        Some("json") => json(emulator.as_deref()),
        Some(other) => monotable_shop::api::refuse(
            StatusCode::BAD_REQUEST,
            "invalid_query",
            format!("unknown format `{other}`: use `json`, or none for Prometheus text"),
        ),
    }
}

/// Prometheus text: the emulator's families and its scale as a gauge, or one comment line when
/// emulation is off (an empty scrape, not an error).
fn text(emulator: Option<&Emulator>) -> Response {
    let body = match emulator {
        Some(emulator) => {
            let mut body = emulator.snapshot().prometheus();
            body.push_str(
                "# HELP monotable_capacity_scale What every capacity limit is divided by.\n\
                 # TYPE monotable_capacity_scale gauge\n",
            );
            body.push_str(&format!(
                "monotable_capacity_scale {}\n",
                emulator.settings().scale
            ));
            body
        }
        None => "# monotable capacity emulation is off (start serve with --capacity)\n".to_string(),
    };
    ([(header::CONTENT_TYPE, PROMETHEUS_TEXT)], body).into_response()
}

/// The snapshot as JSON with `"capacity": "on"` and the scale added, or `{"capacity": "off"}`.
fn json(emulator: Option<&Emulator>) -> Response {
    let body = match emulator {
        Some(emulator) => {
            let mut body = serde_json::to_value(emulator.snapshot()).unwrap_or_default();
            if let Some(fields) = body.as_object_mut() {
                fields.insert("capacity".into(), "on".into());
                fields.insert("scale".into(), emulator.settings().scale.into());
            }
            body
        }
        None => serde_json::json!({ "capacity": "off" }),
    };
    axum::Json(body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use monotable_connect::capacity::Settings;

    async fn get(router: Router, uri: &str) -> (StatusCode, String, String) {
        use tower::ServiceExt;
        let response = router
            .oneshot(
                axum::http::Request::get(uri)
                    .body(axum::body::Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        let status = response.status();
        let content_type = response.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .to_string();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (
            status,
            content_type,
            String::from_utf8(bytes.to_vec()).unwrap(),
        )
    }

    #[tokio::test]
    async fn off_answers_200_saying_so() {
        let (status, content_type, body) = get(router(None), "/metrics").await;
        assert_eq!(status, 200);
        assert_eq!(content_type, PROMETHEUS_TEXT);
        assert!(
            body.starts_with("# monotable capacity emulation is off"),
            "{body}"
        );
        let (status, _, body) = get(router(None), "/metrics?format=json").await;
        assert_eq!(status, 200);
        let json: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(json, serde_json::json!({ "capacity": "off" }));
    }

    #[tokio::test]
    async fn on_answers_the_snapshot_and_the_scale() {
        let emulator = Arc::new(Emulator::new(Settings::default().scale(1000.0)));
        let (status, _, body) = get(router(Some(emulator.clone())), "/metrics").await;
        assert_eq!(status, 200);
        assert!(
            body.contains("# TYPE monotable_throttled_requests_total counter"),
            "{body}"
        );
        assert!(body.contains("monotable_capacity_scale 1000\n"), "{body}");
        let (_, content_type, body) = get(router(Some(emulator)), "/metrics?format=json").await;
        assert!(
            content_type.starts_with("application/json"),
            "{content_type}"
        );
        let json: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(json["capacity"], "on");
        assert_eq!(json["scale"], 1000.0);
        assert!(json["resources"].is_array(), "{json}");
    }

    #[tokio::test]
    async fn an_unknown_format_is_refused_in_the_shop_shape() {
        let (status, _, body) = get(router(None), "/metrics?format=xml").await;
        assert_eq!(status, 400);
        let json: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(json["error"]["code"], "invalid_query");
    }
}
