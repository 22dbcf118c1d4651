//! DynamoDB JSON requests by hand to a `serve` endpoint.

use serde_json::Value;

use crate::http;

/// The SigV4 material the endpoint asks for without `--auth`: complete, not verified.
pub const UNSIGNED: [(&str, &str); 2] = [
    ("X-Amz-Date", "20261203T000000Z"),
    (
        "Authorization",
        "AWS4-HMAC-SHA256 Credential=k/20261203/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00",
    ),
];

/// `operation` (`PutItem`) with `body` on the DynamoDB endpoint at `url`, carrying
/// [`UNSIGNED`] material: the status and the answer.
pub fn call(url: &str, operation: &str, body: &Value) -> (u16, Value) {
    let material = UNSIGNED.map(|(k, v)| (k.to_string(), v.to_string()));
    send(url, operation, &body.to_string(), &material)
}

/// [`call`] signed with `credentials` (`KEY:SECRET`) as the SDKs sign it.
pub fn call_signed(url: &str, operation: &str, body: &Value, credentials: &str) -> (u16, Value) {
    let body = body.to_string();
    let signature = crate::sigv4::signed(url, "POST", "/", &body, credentials);
    send(url, operation, &body, &signature)
}

fn send(url: &str, operation: &str, body: &str, auth: &[(String, String)]) -> (u16, Value) {
    let target = format!("DynamoDB_20120810.{operation}");
    let mut headers = vec![
        ("X-Amz-Target", target.as_str()),
        ("Content-Type", "application/x-amz-json-1.0"),
    ];
    headers.extend(crate::sigv4::pairs(auth));
    http(url, "POST", "/", &headers, Some(body)).expect("the DynamoDB endpoint answers")
}
