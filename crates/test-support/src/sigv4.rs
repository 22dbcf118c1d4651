//! Requests signed as the SDKs sign DynamoDB requests, for the routes behind `--auth`.

use std::time::SystemTime;

use serde_json::Value;

/// Authorization headers for `method base+path` with `body`, signed with `key:secret`
/// (`credentials`) for service `dynamodb` in us-east-1, as the SDKs sign DynamoDB requests.
pub fn signed(
    base: &str,
    method: &str,
    path: &str,
    body: &str,
    credentials: &str,
) -> Vec<(String, String)> {
    use aws_sigv4::http_request::{SignableBody, SignableRequest, SigningSettings, sign};
    use aws_sigv4::sign::v4::SigningParams;
    let (key, secret) = credentials.split_once(':').unwrap();
    let host = base.trim_start_matches("http://");
    let identity = aws_credential_types::Credentials::new(key, secret, None, None, "test").into();
    let params = SigningParams::builder()
        .identity(&identity)
        .region("us-east-1")
        .name("dynamodb")
        .time(SystemTime::now())
        .settings(SigningSettings::default())
        .build()
        .unwrap()
        .into();
    let url = format!("{base}{path}");
    let signable = SignableRequest::new(
        method,
        &url,
        [("host", host)].into_iter(),
        SignableBody::Bytes(body.as_bytes()),
    )
    .unwrap();
    let (instructions, _) = sign(signable, &params).unwrap().into_parts();
    let mut request = http::Request::builder()
        .method(method)
        .uri(&url)
        .body(())
        .unwrap();
    instructions.apply_to_request_http1x(&mut request);
    request
        .headers()
        .iter()
        .filter(|(k, _)| k.as_str() != "host")
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap().to_string()))
        .collect()
}

/// `headers` as the `(&str, &str)` pairs [`crate::http`] and [`crate::get_text`] take.
pub fn pairs(headers: &[(String, String)]) -> Vec<(&str, &str)> {
    headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// A route beside the endpoint: (method, path, body).
pub type Route<'a> = (&'a str, &'a str, Option<&'a str>);

/// `route` on `base` with `headers`: the status and the body as JSON.
pub fn call(base: &str, route: Route<'_>, headers: &[(String, String)]) -> (u16, Value) {
    let (method, path, body) = route;
    crate::http(base, method, path, &pairs(headers), body).expect("the listener answers")
}

/// `route` on `base`, signed with `credentials` (`KEY:SECRET`).
pub fn call_signed(base: &str, route: Route<'_>, credentials: &str) -> (u16, Value) {
    let headers = signed(base, route.0, route.1, route.2.unwrap_or(""), credentials);
    call(base, route, &headers)
}
