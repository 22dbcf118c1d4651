//! The in-process transport: an smithy `HttpClient` that hands each SDK request to the embedded
//! engine without a socket.
//!
//! The SDK builds, signs and retries requests exactly as it does for real DynamoDB; only the last
//! hop differs. The connector reads the operation from `x-amz-target`, deserializes the JSON body
//! into the engine's typed request, runs it, and answers with the JSON body and status code the
//! engine's own HTTP server would send, so typed SDK errors (`ConditionalCheckFailedException`,
//! `TransactionCanceledException`, ...) come out the same on both paths. docs/benchmarks.md has the
//! measurement that chose this design over a loopback listener.

use std::sync::atomic::{AtomicU64, Ordering};

use aws_sdk_dynamodb::config::{BehaviorVersion, Region, StalledStreamProtectionConfig};
use aws_smithy_runtime_api::client::http::{
    HttpConnector, HttpConnectorFuture, SharedHttpConnector, http_client_fn,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::http::StatusCode;
use aws_smithy_types::body::SdkBody;
use dynoxide::DynoxideError;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::engine::Engine;

/// The region the embedded client claims. The engine ignores it; the SDK needs one to sign.
pub const EMBEDDED_REGION: &str = "us-east-1";

/// The endpoint URL the embedded client is configured with. No request ever resolves it: the
/// connector answers first. `.invalid` is reserved (RFC 2606), so it can never reach a network.
pub const EMBEDDED_ENDPOINT: &str = "http://embedded.monotable.invalid";

const TARGET_PREFIX: &str = "DynamoDB_20120810.";
const CONTENT_TYPE: &str = "application/x-amz-json-1.0";

/// An SDK client whose every request `engine` answers in this process.
pub fn client(engine: Engine) -> aws_sdk_dynamodb::Client {
    let connector = SharedHttpConnector::new(InProcessConnector { engine });
    // No credentials and no signing: the engine checks neither, and SigV4 would be the largest
    // cost of an in-process call (docs/benchmarks.md). Stalled-stream protection watches network
    // bodies; there are none here.
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new(EMBEDDED_REGION))
        .allow_no_auth()
        .stalled_stream_protection(StalledStreamProtectionConfig::disabled())
        .endpoint_url(EMBEDDED_ENDPOINT)
        .http_client(http_client_fn(move |_, _| connector.clone()))
        .build();
    aws_sdk_dynamodb::Client::from_conf(config)
}

/// The connector: one engine, shared by every request.
#[derive(Debug, Clone)]
struct InProcessConnector {
    engine: Engine,
}

impl HttpConnector for InProcessConnector {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        // The engine is synchronous (SQLite behind a mutex) and answers in microseconds for the
        // requests this project makes; it runs on the calling task, as in dynoxide's own server.
        HttpConnectorFuture::ready(Ok(answer(&self.engine, &request)))
    }
}

/// Answer one SDK request as the engine's HTTP server would.
fn answer(engine: &Engine, request: &HttpRequest) -> HttpResponse {
    let Some(operation) = request
        .headers()
        .get("x-amz-target")
        .and_then(|t| t.strip_prefix(TARGET_PREFIX))
    else {
        return bare_error(400, "com.amazon.coral.service#UnknownOperationException");
    };
    let Some(body) = request.body().bytes() else {
        // The DynamoDB client never streams a request body; say so rather than guess.
        return error_response(&DynoxideError::SerializationException(
            "the in-process connector needs an in-memory request body".into(),
        ));
    };
    match dispatch(engine, operation, body) {
        Some(Ok(json)) => response(200, json),
        Some(Err(e)) => error_response(&e),
        None => bare_error(400, "com.amazon.coral.service#UnknownOperationException"),
    }
}

fn run<Req, Resp>(
    body: &[u8],
    op: impl FnOnce(Req) -> dynoxide::Result<Resp>,
) -> dynoxide::Result<Vec<u8>>
where
    Req: DeserializeOwned,
    Resp: Serialize,
{
    let request: Req = serde_json::from_slice(body)
        .map_err(|e| DynoxideError::SerializationException(e.to_string()))?;
    let response = op(request)?;
    serde_json::to_vec(&response).map_err(|e| DynoxideError::InternalServerError(e.to_string()))
}

/// Run `operation`; `None` for an operation the engine does not implement.
fn dispatch(engine: &Engine, operation: &str, body: &[u8]) -> Option<dynoxide::Result<Vec<u8>>> {
    let db = engine.database();
    macro_rules! ops {
        ($($name:literal => $method:ident),* $(,)?) => {
            match operation {
                $($name => Some(run(body, |r| db.$method(r))),)*
                _ => None,
            }
        };
    }
    ops! {
        "GetItem" => get_item,
        "PutItem" => put_item,
        "UpdateItem" => update_item,
        "DeleteItem" => delete_item,
        "Query" => query,
        "Scan" => scan,
        "BatchGetItem" => batch_get_item,
        "BatchWriteItem" => batch_write_item,
        "TransactWriteItems" => transact_write_items,
        "TransactGetItems" => transact_get_items,
        "CreateTable" => create_table,
        "DeleteTable" => delete_table,
        "DescribeTable" => describe_table,
        "ListTables" => list_tables,
        "UpdateTable" => update_table,
        "UpdateTimeToLive" => update_time_to_live,
        "DescribeTimeToLive" => describe_time_to_live,
        "ExecuteStatement" => execute_statement,
        "ExecuteTransaction" => execute_transaction,
        "BatchExecuteStatement" => batch_execute_statement,
        "TagResource" => tag_resource,
        "UntagResource" => untag_resource,
        "ListTagsOfResource" => list_tags_of_resource,
    }
}

fn error_response(error: &DynoxideError) -> HttpResponse {
    response(error.status_code(), error.to_json().into_bytes())
}

fn bare_error(status: u16, error_type: &str) -> HttpResponse {
    response(
        status,
        format!(r#"{{"__type":"{error_type}"}}"#).into_bytes(),
    )
}

static REQUEST_IDS: AtomicU64 = AtomicU64::new(1);

fn response(status: u16, body: Vec<u8>) -> HttpResponse {
    let status: StatusCode = http::StatusCode::from_u16(status)
        .unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR)
        .into();
    let mut response = HttpResponse::new(status, SdkBody::from(body));
    let headers = response.headers_mut();
    headers.insert("content-type", CONTENT_TYPE);
    headers.insert(
        "x-amzn-requestid",
        format!(
            "MONOTABLE{:043}",
            REQUEST_IDS.fetch_add(1, Ordering::Relaxed)
        ),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(target: Option<&str>, body: &str) -> HttpRequest {
        let mut request = HttpRequest::new(SdkBody::from(body.to_string()));
        if let Some(target) = target {
            request
                .headers_mut()
                .insert("x-amz-target", target.to_string());
        }
        request
    }

    fn body_of(response: &HttpResponse) -> String {
        String::from_utf8(response.body().bytes().unwrap().to_vec()).unwrap()
    }

    #[test]
    fn missing_or_foreign_target_is_an_unknown_operation() {
        let engine = Engine::memory().unwrap();
        for target in [
            None,
            Some("DynamoDB_20120810.Frobnicate"),
            Some("S3.GetObject"),
        ] {
            let response = answer(&engine, &request(target, "{}"));
            assert_eq!(response.status().as_u16(), 400);
            assert!(body_of(&response).contains("UnknownOperationException"));
        }
    }

    #[test]
    fn malformed_body_is_a_serialization_exception() {
        let engine = Engine::memory().unwrap();
        let response = answer(
            &engine,
            &request(Some("DynamoDB_20120810.GetItem"), "{not json"),
        );
        assert_eq!(response.status().as_u16(), 400);
        assert!(body_of(&response).contains("SerializationException"));
    }

    #[test]
    fn engine_errors_keep_their_dynamodb_type() {
        let engine = Engine::memory().unwrap();
        let response = answer(
            &engine,
            &request(
                Some("DynamoDB_20120810.GetItem"),
                r#"{"TableName":"Missing","Key":{"PK":{"S":"x"}}}"#,
            ),
        );
        assert_eq!(response.status().as_u16(), 400);
        assert!(
            body_of(&response).contains("#ResourceNotFoundException"),
            "{}",
            body_of(&response)
        );
    }
}
