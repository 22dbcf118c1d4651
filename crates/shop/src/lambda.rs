//! The Lambda entry: the same Router under `lambda_http`, with callers taken from API Gateway's
//! JWT authorizer.

/// Whether this process runs inside AWS Lambda.
pub fn in_lambda() -> bool {
    std::env::var_os("AWS_LAMBDA_RUNTIME_API").is_some()
}

/// Serve `router` to the Lambda runtime until it stops the process.
pub async fn run(router: axum::Router) -> Result<(), lambda_http::Error> {
    lambda_http::run(router).await
}
