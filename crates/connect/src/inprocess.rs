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

use aws_runtime::invocation_id::InvocationIdInterceptor;
use aws_runtime::request_info::RequestInfoInterceptor;
use aws_runtime::service_clock_skew::ServiceClockSkewInterceptor;
use aws_runtime::user_agent::UserAgentInterceptor;
use aws_sdk_dynamodb::config::endpoint::{self, Endpoint, EndpointFuture, ResolveEndpoint};
use aws_sdk_dynamodb::config::{
    BehaviorVersion, ConfigBag, IdentityCache, Intercept, Region, StalledStreamProtectionConfig,
};
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::auth::AuthSchemeId;
use aws_smithy_runtime_api::client::http::{
    HttpConnector, HttpConnectorFuture, SharedHttpConnector, http_client_fn,
};
use aws_smithy_runtime_api::client::interceptors::context::BeforeSerializationInterceptorContextRef;
use aws_smithy_runtime_api::client::interceptors::disable_interceptor;
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::http::StatusCode;
use aws_smithy_types::body::SdkBody;

use crate::dispatch::{self, Answer, Origin};
use crate::engine::Engine;

/// The region the embedded client claims. The engine ignores it; the SDK needs one to sign.
pub const EMBEDDED_REGION: &str = "us-east-1";

/// The endpoint URL the embedded client is configured with. No request ever resolves it: the
/// connector answers first. `.invalid` is reserved (RFC 2606), so it can never reach a network.
pub const EMBEDDED_ENDPOINT: &str = "http://embedded.monotable.invalid";

const CONTENT_TYPE: &str = "application/x-amz-json-1.0";

/// An SDK client whose every request `engine` answers in this process.
pub fn client(engine: Engine) -> aws_sdk_dynamodb::Client {
    build(InProcessConnector {
        engine,
        #[cfg(feature = "faults")]
        faults: None,
    })
}

/// The same client with the SDK's standard per-call components (everything [`client`] trims
/// left in): for measuring what the trimming saves, and for tests that compare the two.
pub fn sdk_default_client(engine: Engine) -> aws_sdk_dynamodb::Client {
    let connector = InProcessConnector {
        engine,
        #[cfg(feature = "faults")]
        faults: None,
    };
    aws_sdk_dynamodb::Client::from_conf(sdk_defaults(connector).build())
}

/// An SDK client over `engine` whose requests first meet `faults` (tests only), retrying quickly
/// so that tests that exhaust the SDK's retries stay fast.
#[cfg(feature = "faults")]
pub fn client_with_faults(
    engine: Engine,
    faults: std::sync::Arc<crate::faults::Faults>,
) -> aws_sdk_dynamodb::Client {
    let client = build(InProcessConnector {
        engine,
        faults: Some(faults),
    });
    let config = client
        .config()
        .to_builder()
        .retry_config(
            retry_config()
                .with_initial_backoff(std::time::Duration::from_millis(2))
                .with_max_backoff(std::time::Duration::from_millis(20)),
        )
        .build();
    aws_sdk_dynamodb::Client::from_conf(config)
}

/// The official DynamoDB Streams client whose every request `engine` answers in this process:
/// the same connector, region, `noAuth` and fixed endpoint as [`client`], so the engine's stream
/// is read exactly as DynamoDB's is (ListStreams, DescribeStream, GetShardIterator, GetRecords).
pub fn streams_client(engine: Engine) -> aws_sdk_dynamodbstreams::Client {
    use aws_sdk_dynamodbstreams::config as streams;
    let connector = SharedHttpConnector::new(InProcessConnector {
        engine,
        #[cfg(feature = "faults")]
        faults: None,
    });
    let config = streams::Config::builder()
        .behavior_version(streams::BehaviorVersion::latest())
        .region(streams::Region::new(EMBEDDED_REGION))
        .allow_no_auth()
        .auth_scheme_preference([AuthSchemeId::new("noAuth")])
        .retry_config(
            streams::retry::RetryConfig::standard()
                .with_reconnect_mode(streams::retry::ReconnectMode::ReuseAllConnections),
        )
        .stalled_stream_protection(streams::StalledStreamProtectionConfig::disabled())
        .endpoint_url(EMBEDDED_ENDPOINT)
        .http_client(http_client_fn(move |_, _| connector.clone()));
    aws_sdk_dynamodbstreams::Client::from_conf(config.build())
}

/// The SDK's standard retries, minus reconnecting after a transient error: there is no
/// connection to close in-process (the SDK would log that it found none to mark).
fn retry_config() -> aws_sdk_dynamodb::config::retry::RetryConfig {
    aws_sdk_dynamodb::config::retry::RetryConfig::standard()
        .with_reconnect_mode(aws_sdk_dynamodb::config::retry::ReconnectMode::ReuseAllConnections)
}

fn build(connector: InProcessConnector) -> aws_sdk_dynamodb::Client {
    aws_sdk_dynamodb::Client::from_conf(trim(sdk_defaults(connector)).build())
}

/// The in-process client's configuration before [`trim`]: the SDK's standard per-call components.
/// No credentials and no signing: the engine checks neither, and SigV4 would be the largest cost
/// of an in-process call (docs/benchmarks.md). Stalled-stream protection watches network bodies;
/// there are none here.
fn sdk_defaults(connector: InProcessConnector) -> aws_sdk_dynamodb::config::Builder {
    let connector = SharedHttpConnector::new(connector);
    aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new(EMBEDDED_REGION))
        .allow_no_auth()
        .retry_config(retry_config())
        .idempotency_token_provider(dispatch::AUTO_TOKEN)
        .stalled_stream_protection(StalledStreamProtectionConfig::disabled())
        .endpoint_url(EMBEDDED_ENDPOINT)
        .http_client(http_client_fn(move |_, _| connector.clone()))
}

/// Leave out the per-call work that only a network peer needs, through the SDK's own settings
/// (measured in docs/benchmarks.md, "Where an SDK call's time goes"):
///
/// - the endpoint is fixed: a static resolver instead of DynamoDB's endpoint rules per call;
/// - no identity to cache and no SigV4 to try first: `noAuth` is the preferred scheme;
/// - no `User-Agent`, invocation id, `amz-sdk-request` header or clock-skew reading: the engine
///   reads none of them ([`PeerHeadersOff`]).
///
/// Serialization, retries, error parsing and the orchestrator stay exactly the SDK's.
fn trim(config: aws_sdk_dynamodb::config::Builder) -> aws_sdk_dynamodb::config::Builder {
    config
        .endpoint_resolver(FixedEndpoint(
            Endpoint::builder().url(EMBEDDED_ENDPOINT).build(),
        ))
        .auth_scheme_preference([AuthSchemeId::new("noAuth")])
        .identity_cache(IdentityCache::no_cache())
        .interceptor(PeerHeadersOff)
}

/// The embedded endpoint, resolved once.
#[derive(Debug)]
struct FixedEndpoint(Endpoint);

impl ResolveEndpoint for FixedEndpoint {
    fn resolve_endpoint<'a>(&'a self, _: &'a endpoint::Params) -> EndpointFuture<'a> {
        EndpointFuture::ready(Ok(self.0.clone()))
    }
}

/// Switches off, for each call, the SDK interceptors whose work only a remote service reads:
/// the user agent (formatted per call from the features in use), the invocation id (a random
/// UUID), the request-info header (attempt and TTL) and the clock-skew reading of the response's
/// `Date`. It uses the SDK's own mechanism ([`disable_interceptor`]); interceptors the SDK marks
/// permanent stay on.
#[derive(Debug)]
struct PeerHeadersOff;

const PEER_ONLY: &str = "in-process: only a network peer reads it";

impl Intercept for PeerHeadersOff {
    fn name(&self) -> &'static str {
        "PeerHeadersOff"
    }

    fn read_before_execution(
        &self,
        _: &BeforeSerializationInterceptorContextRef<'_>,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let state = cfg.interceptor_state();
        state.store_put(disable_interceptor::<UserAgentInterceptor>(PEER_ONLY));
        state.store_put(disable_interceptor::<InvocationIdInterceptor>(PEER_ONLY));
        state.store_put(disable_interceptor::<RequestInfoInterceptor>(PEER_ONLY));
        state.store_put(disable_interceptor::<ServiceClockSkewInterceptor>(
            PEER_ONLY,
        ));
        Ok(())
    }
}

/// The connector: one engine, shared by every request.
#[derive(Debug, Clone)]
struct InProcessConnector {
    engine: Engine,
    #[cfg(feature = "faults")]
    faults: Option<std::sync::Arc<crate::faults::Faults>>,
}

impl HttpConnector for InProcessConnector {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        // In memory the engine (SQLite behind a mutex) answers in microseconds: it runs on the
        // calling task. A file-backed engine runs on a blocking thread and its answer waits for
        // the disk (group commit): `dispatch::run_async`.
        let target = request.headers().get("x-amz-target").map(str::to_string);
        let Some(body) = request.body().bytes() else {
            // The DynamoDB client never streams a request body; say so rather than guess.
            let answer = Answer::error(
                400,
                "com.amazon.coral.service#SerializationException",
                "the in-process connector needs an in-memory request body",
            );
            return HttpConnectorFuture::ready(Ok(response(answer)));
        };
        #[cfg(feature = "faults")]
        if let Some(faults) = &self.faults {
            let (engine, faults, body) = (self.engine.clone(), faults.clone(), body.to_vec());
            return HttpConnectorFuture::new(async move {
                let answer = faults.run(&engine, target.as_deref(), &body).await;
                Ok(response(dispatch::settle(&engine, answer).await))
            });
        }
        if self.engine.is_file_backed() {
            let (engine, body) = (self.engine.clone(), body.to_vec());
            return HttpConnectorFuture::new(async move {
                Ok(response(
                    dispatch::run_async(&engine, Origin::InProcess, target, body).await,
                ))
            });
        }
        let answer = dispatch::run(&self.engine, Origin::InProcess, target.as_deref(), body);
        HttpConnectorFuture::ready(Ok(response(answer)))
    }
}

static REQUEST_IDS: AtomicU64 = AtomicU64::new(1);

fn response(answer: Answer) -> HttpResponse {
    let status: StatusCode = http::StatusCode::from_u16(answer.status)
        .unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR)
        .into();
    let mut response = HttpResponse::new(status, SdkBody::from(answer.body));
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
    use std::sync::{Arc, Mutex};

    use aws_sdk_dynamodb::config::RuntimeComponents;
    use aws_smithy_runtime_api::client::interceptors::context::BeforeTransmitInterceptorContextRef;

    use super::*;

    /// Records the headers of the last request as it leaves for the connector.
    #[derive(Debug, Clone, Default)]
    struct Headers(Arc<Mutex<Vec<String>>>);

    impl Intercept for Headers {
        fn name(&self) -> &'static str {
            "Headers"
        }

        fn read_before_transmit(
            &self,
            context: &BeforeTransmitInterceptorContextRef<'_>,
            _: &RuntimeComponents,
            _: &mut ConfigBag,
        ) -> Result<(), BoxError> {
            let names = context
                .request()
                .headers()
                .iter()
                .map(|(n, _)| n.to_string());
            *self.0.lock().expect("lock") = names.collect();
            Ok(())
        }
    }

    /// The headers a ListTables call sends through `client`, and whether it succeeded.
    async fn sent(client: aws_sdk_dynamodb::Client) -> (Vec<String>, bool) {
        let headers = Headers::default();
        let config = client.config().to_builder().interceptor(headers.clone());
        let client = aws_sdk_dynamodb::Client::from_conf(config.build());
        let ok = client.list_tables().send().await.is_ok();
        let names = headers.0.lock().expect("lock").clone();
        (names, ok)
    }

    const PEER_HEADERS: [&str; 3] = ["user-agent", "amz-sdk-invocation-id", "amz-sdk-request"];

    #[tokio::test]
    async fn the_shipped_client_sends_no_header_only_a_network_peer_reads() {
        let engine = Engine::memory().unwrap();
        let (trimmed, ok) = sent(client(engine.clone())).await;
        assert!(ok);
        for header in PEER_HEADERS {
            assert!(
                !trimmed.iter().any(|h| h == header),
                "{header} in {trimmed:?}"
            );
        }
        assert!(trimmed.iter().any(|h| h == "x-amz-target"), "{trimmed:?}");
        // The same call with the SDK's defaults sends them: the trimming is what removed them.
        let (defaults, ok) = sent(sdk_default_client(engine)).await;
        assert!(ok);
        for header in PEER_HEADERS {
            assert!(
                defaults.iter().any(|h| h == header),
                "{header} not in {defaults:?}"
            );
        }
    }

    #[tokio::test]
    async fn the_shipped_client_still_parses_typed_errors() {
        let client = client(Engine::memory().unwrap());
        let err = client
            .describe_table()
            .table_name("Missing")
            .send()
            .await
            .unwrap_err();
        assert!(err.into_service_error().is_resource_not_found_exception());
    }
}
