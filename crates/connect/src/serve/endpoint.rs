//! The DynamoDB JSON API over HTTP, for boto3, the AWS CLI, NoSQL Workbench and other
//! `monotable` processes: `POST /` runs the operation in `x-amz-target` through the same
//! [`dispatch`] as the in-process connector, after the signature check when `--auth` is set.

use std::sync::Arc;
use std::time::SystemTime;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::Response;
use axum::routing::any;

use super::sigv4::{self, Credentials};
use crate::dispatch::{self, Answer};
use crate::engine::Engine;

/// DynamoDB accepts request bodies up to 16 MB.
pub const MAX_BODY: usize = 16 * 1024 * 1024;
const AMZ_JSON: &str = "application/x-amz-json-1.0";

/// How the endpoint checks callers.
#[derive(Debug, Clone, Default)]
pub struct EndpointOptions {
    /// Verify SigV4 signatures made with these; `None`: accept any (the engine's default, as
    /// DynamoDB Local does), checking only that the auth material is complete.
    pub auth: Option<Credentials>,
}

struct Endpoint {
    engine: Engine,
    options: EndpointOptions,
}

/// The endpoint's Router.
pub fn router(engine: Engine, options: EndpointOptions) -> Router {
    Router::new()
        .route("/", any(root))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(Arc::new(Endpoint { engine, options }))
}

async fn root(
    State(endpoint): State<Arc<Endpoint>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    match method {
        Method::GET => plain(StatusCode::OK, "healthy: dynamodb.us-east-1.amazonaws.com "),
        Method::POST => post(&endpoint, &method, &uri, &headers, &body).await,
        _ => not_found().await,
    }
}

async fn not_found() -> Response {
    plain(StatusCode::NOT_FOUND, "<UnknownOperationException/>\n")
}

fn plain(status: StatusCode, text: &'static str) -> Response {
    let mut response = Response::new(Body::from(text));
    *response.status_mut() = status;
    response
}

async fn post(
    endpoint: &Endpoint,
    method: &Method,
    uri: &Uri,
    headers: &HeaderMap,
    body: &[u8],
) -> Response {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let base = content_type.split(';').next().unwrap_or("").trim();
    let reply_type = if base.eq_ignore_ascii_case(AMZ_JSON) {
        AMZ_JSON
    } else if base.eq_ignore_ascii_case("application/json") || (base.is_empty() && body.is_empty())
    {
        "application/json"
    } else {
        return not_found().await;
    };
    if let Some(refused) = check_auth(&endpoint.options, method, uri, headers, body) {
        return response(refused, reply_type);
    }
    let target = headers
        .get("x-amz-target")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let answer = dispatch::run_async(
        &endpoint.engine,
        dispatch::Origin::Http,
        target,
        body.to_vec(),
    )
    .await;
    response(answer, reply_type)
}

/// The refusal for a request whose credentials do not pass. Incomplete auth material is refused
/// first, as DynamoDB (and DynamoDB Local) words it; with `--auth`, the signature is then
/// verified.
fn check_auth(
    options: &EndpointOptions,
    method: &Method,
    uri: &Uri,
    headers: &HeaderMap,
    body: &[u8],
) -> Option<Answer> {
    let material = dynoxide::auth_material::AuthMaterial {
        authorization: headers.get("authorization").and_then(|v| v.to_str().ok()),
        query: uri.query().unwrap_or(""),
        has_date_header: headers.contains_key("x-amz-date") || headers.contains_key("date"),
    };
    if let Some(body) = dynoxide::auth_material::validate(material) {
        return Some(Answer {
            status: 400,
            body: body.into_bytes(),
            ticket: None,
        });
    }
    let credentials = options.auth.as_ref()?;
    sigv4::verify(credentials, method, uri, headers, body, SystemTime::now())
        .err()
        .map(|r| r.answer())
}

fn response(answer: Answer, content_type: &'static str) -> Response {
    let mut response = Response::new(Body::from(answer.body));
    *response.status_mut() =
        StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(id) = HeaderValue::from_str(&request_id()) {
        headers.insert("x-amzn-requestid", id);
    }
    response
}

fn request_id() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!("MONOTABLEHTTP{:039}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A DynamoDB-shaped refusal for the endpoint's guard and for hyper's own parse errors.
pub fn refuse(status: StatusCode, code: &'static str, message: String) -> Response {
    let error_type = match status {
        StatusCode::FORBIDDEN => "com.amazon.coral.service#AccessDeniedException",
        _ => "com.amazon.coral.service#SerializationException",
    };
    let mut answer = Answer::error(status.as_u16(), error_type, &format!("{code}: {message}"));
    answer.status = status.as_u16();
    response(answer, AMZ_JSON)
}

/// The body hyper's own parse-error answers get on the endpoint.
pub fn parse_error_body(status: u16) -> (&'static str, Vec<u8>) {
    let answer = Answer::error(
        status,
        "com.amazon.coral.service#SerializationException",
        "the request could not be read (URI or headers too large, or malformed)",
    );
    (AMZ_JSON, answer.body)
}
