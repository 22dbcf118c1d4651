//! `GET /metrics` (on `monotable serve`'s DynamoDB endpoint, on `monotable-shop serve`'s API
//! port): what the capacity emulator counted (consumed capacity, requests and throttles per
//! table, index and hottest partition key), as Prometheus text or, with `?format=json`, as
//! JSON. With emulation off it still answers 200, saying so. The stream consumers `serve` runs
//! (the shop's `productSales`) add their delivery counters: lag, failures, retries, one series
//! per consumer (`monotable_consumer_lag_records{consumer="productSales"}`).
//!
//! Partition keys are table data (an e-mail address, a draft product's id), so a hot key is
//! named by its pseudonym (`key_id`) only; `?keys=values` adds the values, behind the same
//! [`DataGate`] as every other route that reads table data.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::SystemTime;

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use monotable_access::stream::metrics::{self as consumer_metrics, Metrics as ConsumerMetrics};
use monotable_connect::capacity::{Emulator, MetricsSnapshot};
use monotable_connect::serve::DataGate;
use monotable_connect::serve::guard::Refuse;

/// The content type of Prometheus' text exposition format.
pub const PROMETHEUS_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// A stream consumer's name and its delivery counters.
pub type Consumer = (&'static str, Arc<ConsumerMetrics>);

struct Metrics {
    emulator: Option<Arc<Emulator>>,
    consumers: Vec<Consumer>,
    gate: DataGate,
    refuse: Refuse,
}

/// The `/metrics` route over `emulator` (`None`: emulation is off) and `consumers`, key values
/// behind `gate`. Refusals (a bad query, the gate's, a 405 for other methods) come in
/// `refuse`'s shape: the listener's own, like its other routes.
pub fn router(
    emulator: Option<Arc<Emulator>>,
    consumers: Vec<Consumer>,
    gate: DataGate,
    refuse: Refuse,
) -> Router {
    Router::new()
        .route(
            "/metrics",
            get(metrics).fallback(move || async move {
                refuse(
                    StatusCode::METHOD_NOT_ALLOWED,
                    "method_not_allowed",
                    "/metrics takes GET only".into(),
                )
            }),
        )
        .with_state(Arc::new(Metrics {
            emulator,
            consumers,
            gate,
            refuse,
        }))
}

async fn metrics(
    State(metrics): State<Arc<Metrics>>,
    uri: Uri,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let with_values = match query.get("keys").map(String::as_str) {
        None | Some("ids") => false,
        Some("values") => true,
        Some(other) => {
            return invalid(
                &metrics,
                format!(
                    "unknown keys `{other}`: use `values` (the partition key values, behind the \
                 DynamoDB endpoint's credentials), or none for pseudonyms"
                ),
            );
        }
    };
    if with_values
        && let Err(denied) =
            metrics
                .gate
                .check(&Method::GET, &uri, &headers, b"", SystemTime::now())
    {
        return (metrics.refuse)(denied.status, denied.code, denied.message);
    }
    let snapshot = metrics.emulator.as_deref().map(|emulator| {
        let snapshot = emulator.snapshot();
        let snapshot = if with_values {
            snapshot
        } else {
            snapshot.without_key_values()
        };
        (snapshot, emulator.settings().scale)
    });
    let consumers: Vec<_> = metrics
        .consumers
        .iter()
        .map(|(name, m)| (*name, m.snapshot()))
        .collect();
    match query.get("format").map(String::as_str) {
        None | Some("prometheus" | "text") => text(snapshot, &consumers),
        Some("json") => json(snapshot, &consumers),
        Some(other) => invalid(
            &metrics,
            format!("unknown format `{other}`: use `json`, or none for Prometheus text"),
        ),
    }
}

fn invalid(metrics: &Metrics, message: String) -> Response {
    (metrics.refuse)(StatusCode::BAD_REQUEST, "invalid_query", message)
}

/// A consumer's counters at one moment.
type ConsumerSnapshot<'a> = (&'a str, consumer_metrics::MetricsSnapshot);

/// Prometheus text: the emulator's families and its scale as a gauge, or one comment line when
/// emulation is off (an empty scrape, not an error); then the consumers' families.
fn text(snapshot: Option<(MetricsSnapshot, f64)>, consumers: &[ConsumerSnapshot<'_>]) -> Response {
    let mut body = match snapshot {
        Some((snapshot, scale)) => {
            let mut body = snapshot.prometheus();
            body.push_str(
                "# HELP monotable_capacity_scale What every capacity limit is divided by.\n\
                 # TYPE monotable_capacity_scale gauge\n",
            );
            body.push_str(&format!("monotable_capacity_scale {scale}\n"));
            body
        }
        None => "# monotable capacity emulation is off (start serve with --capacity)\n".to_string(),
    };
    if !consumers.is_empty() {
        body.push_str(&consumer_metrics::prometheus(consumers));
    }
    ([(header::CONTENT_TYPE, PROMETHEUS_TEXT)], body).into_response()
}

/// The snapshot as JSON with `"capacity": "on"` and the scale added, or `{"capacity": "off"}`;
/// and `"consumers"`, each consumer's counters by its name, when `serve` runs any.
fn json(snapshot: Option<(MetricsSnapshot, f64)>, consumers: &[ConsumerSnapshot<'_>]) -> Response {
    let mut body = match snapshot {
        Some((snapshot, scale)) => {
            let mut body = serde_json::to_value(snapshot).unwrap_or_default();
            if let Some(fields) = body.as_object_mut() {
                fields.insert("capacity".into(), "on".into());
                fields.insert("scale".into(), scale.into());
            }
            body
        }
        None => serde_json::json!({ "capacity": "off" }),
    };
    if let Some(fields) = body.as_object_mut()
        && !consumers.is_empty()
    {
        let each = consumers
            .iter()
            .map(|(name, m)| {
                let counters = serde_json::json!({
                    "delivered": m.delivered,
                    "batches": m.batches,
                    "failures": m.failures,
                    "retries": m.retries,
                    "sent_to_on_failure": m.sent_to_on_failure,
                    "lag_records": m.lag_records,
                    "lag_ms": m.lag_ms,
                });
                (name.to_string(), counters)
            })
            .collect();
        fields.insert("consumers".into(), serde_json::Value::Object(each));
    }
    axum::Json(body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use monotable_connect::capacity::Settings;

    /// Refusals as `{"error": {"code", "message"}}`, the shape of a listener like the shop's.
    fn refuse(status: StatusCode, code: &'static str, message: String) -> Response {
        let body = serde_json::json!({ "error": { "code": code, "message": message } });
        (status, axum::Json(body)).into_response()
    }

    fn metrics_router(emulator: Option<Arc<Emulator>>, gate: DataGate) -> Router {
        router(emulator, Vec::new(), gate, refuse)
    }

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
        let (status, content_type, body) =
            get(metrics_router(None, DataGate::Open), "/metrics").await;
        assert_eq!(status, 200);
        assert_eq!(content_type, PROMETHEUS_TEXT);
        assert!(
            body.starts_with("# monotable capacity emulation is off"),
            "{body}"
        );
        let (status, _, body) =
            get(metrics_router(None, DataGate::Open), "/metrics?format=json").await;
        assert_eq!(status, 200);
        let json: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(json, serde_json::json!({ "capacity": "off" }));
    }

    #[tokio::test]
    async fn each_consumer_shows_its_lag_and_failures_in_both_formats() {
        let consumers: Vec<Consumer> = vec![("productSales", Arc::default())];
        let router = || router(None, consumers.clone(), DataGate::Open, refuse);
        let (status, _, body) = get(router(), "/metrics").await;
        assert_eq!(status, 200);
        for family in [
            "monotable_consumer_lag_records",
            "monotable_consumer_lag_milliseconds",
            "monotable_consumer_failures_total",
            "monotable_consumer_retries_total",
        ] {
            assert!(
                body.contains(&format!("{family}{{consumer=\"productSales\"}} 0\n")),
                "{body}"
            );
        }
        let (_, _, body) = get(router(), "/metrics?format=json").await;
        let json: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(json["capacity"], "off");
        assert_eq!(json["consumers"]["productSales"]["lag_records"], 0);
        assert_eq!(json["consumers"]["productSales"]["failures"], 0);
    }

    #[tokio::test]
    async fn on_answers_the_snapshot_and_the_scale() {
        let emulator = Arc::new(Emulator::new(Settings::default().scale(1000.0)));
        let (status, _, body) = get(
            metrics_router(Some(emulator.clone()), DataGate::Open),
            "/metrics",
        )
        .await;
        assert_eq!(status, 200);
        assert!(
            body.contains("# TYPE monotable_throttled_requests_total counter"),
            "{body}"
        );
        assert!(body.contains("monotable_capacity_scale 1000\n"), "{body}");
        let (_, content_type, body) = get(
            metrics_router(Some(emulator), DataGate::Open),
            "/metrics?format=json",
        )
        .await;
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
    async fn key_values_stand_behind_the_data_gate() {
        let emulator = || Some(Arc::new(Emulator::new(Settings::default())));
        let signed = DataGate::Signed("local:s3cr3t-s3cr3t".parse().unwrap());
        for (gate, status, code) in [
            (signed, 401, "credentials_required"),
            (DataGate::Off, 403, "data_route_off"),
        ] {
            for uri in ["/metrics?keys=values", "/metrics?format=json&keys=values"] {
                let (got, _, body) = get(metrics_router(emulator(), gate.clone()), uri).await;
                assert_eq!(got, status, "{uri}: {body}");
                let json: serde_json::Value = serde_json::from_str(&body).unwrap();
                assert_eq!(json["error"]["code"], code, "{body}");
            }
            let (got, _, _) = get(metrics_router(emulator(), gate), "/metrics").await;
            assert_eq!(got, 200, "without key values nothing is asked for");
        }
        let (got, _, _) = get(
            metrics_router(emulator(), DataGate::Open),
            "/metrics?keys=values",
        )
        .await;
        assert_eq!(got, 200);
        let (got, _, body) = get(
            metrics_router(emulator(), DataGate::Open),
            "/metrics?keys=all",
        )
        .await;
        assert_eq!(got, 400, "{body}");
    }

    #[tokio::test]
    async fn an_unknown_format_is_refused_in_the_listeners_shape() {
        let (status, _, body) =
            get(metrics_router(None, DataGate::Open), "/metrics?format=xml").await;
        assert_eq!(status, 400);
        let json: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(json["error"]["code"], "invalid_query");
    }

    #[tokio::test]
    async fn on_the_dynamodb_endpoint_refusals_are_in_dynamodbs_shape() {
        use monotable_connect::serve::endpoint;
        let signed = DataGate::Signed("local:s3cr3t-s3cr3t".parse().unwrap());
        let emulator = Some(Arc::new(Emulator::new(Settings::default())));
        for (gate, uri, status) in [
            (DataGate::Open, "/metrics?format=xml", 400),
            (signed, "/metrics?keys=values", 401),
            (DataGate::Off, "/metrics?keys=values", 403),
        ] {
            let router = router(emulator.clone(), Vec::new(), gate, endpoint::refuse);
            let (got, content_type, body) = get(router, uri).await;
            assert_eq!(got, status, "{uri}: {body}");
            assert_eq!(content_type, "application/x-amz-json-1.0", "{uri}");
            let json: serde_json::Value = serde_json::from_str(&body).unwrap();
            assert!(json["__type"].as_str().is_some(), "{body}");
        }
    }
}
