//! The Lambda entry: the same Router under `lambda_http`, with callers taken from API Gateway's
//! JWT authorizer and one log line per request (inside the runtime's span, so it carries the
//! invocation's request id).

use std::time::Instant;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

/// Whether this process runs inside AWS Lambda.
pub fn in_lambda() -> bool {
    std::env::var_os("AWS_LAMBDA_RUNTIME_API").is_some()
}

/// Serve `router` to the Lambda runtime until it stops the process.
pub async fn run(router: axum::Router) -> Result<(), lambda_http::Error> {
    lambda_http::run(router.layer(axum::middleware::from_fn(access_log))).await
}

/// `GET /products 200 1.2ms`: the method, the path (never the query, which may hold an email),
/// the status and the time taken.
async fn access_log(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = next.run(request).await;
    tracing::info!(
        "{method} {path} {} {:.1}ms",
        response.status().as_u16(),
        started.elapsed().as_secs_f64() * 1e3
    );
    response
}
