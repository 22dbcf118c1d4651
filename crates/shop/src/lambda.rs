//! The Lambda entry: the same Router under `lambda_http`, with callers taken from API Gateway's
//! JWT authorizer and one log line per request (inside the runtime's span, so it carries the
//! invocation's request id); or, for the function of a stream consumer, its handler: a DynamoDB
//! stream event in, a partial batch response (`ReportBatchItemFailures`) out.

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

/// The stream consumers this entry runs, by their model names (`MONOTABLE_CONSUMER`).
pub const CONSUMERS: &[&str] = &[crate::sales::consumer::NAME];

/// Serve consumer `name` (one of [`CONSUMERS`]) to the Lambda runtime until it stops the
/// process: each DynamoDB stream event handled in order, its failed records named in the
/// answer. `None` for a name this entry does not run.
pub async fn run_consumer(name: &str, shop: crate::Shop) -> Option<Result<(), lambda_http::Error>> {
    use lambda_http::lambda_runtime::{self, LambdaEvent, service_fn};
    if name != crate::sales::consumer::NAME {
        return None;
    }
    let handler = service_fn(move |event: LambdaEvent<monotable::stream::Event>| {
        let shop = shop.clone();
        async move {
            let response = crate::sales::consumer::handle_event(&shop, &event.payload).await;
            tracing::info!(
                "{} {} records, {} failed",
                crate::sales::consumer::NAME,
                event.payload.records.len(),
                response.batch_item_failures.len(),
            );
            Ok::<_, lambda_http::Error>(response)
        }
    });
    Some(lambda_runtime::run(handler).await)
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
