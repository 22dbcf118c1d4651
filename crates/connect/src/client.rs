//! Building the SDK client for a [`Backend`]: the only way the rest of monotable reaches DynamoDB.

use std::time::Duration;

use aws_config::BehaviorVersion;
use aws_config::environment::region::EnvironmentVariableRegionProvider;
use aws_config::meta::region::RegionProviderChain;
use aws_config::profile::ProfileFileRegionProvider;
use aws_sdk_dynamodb::config::{Credentials, Region};

use crate::config::Backend;
#[cfg(feature = "engine")]
use crate::config::DataLocation;
#[cfg(feature = "engine")]
use crate::engine::Engine;
use crate::error::ConnectError;

/// A connected DynamoDB: the SDK client, and where its requests go ([`Source`]).
#[derive(Debug, Clone)]
pub struct Dynamo {
    client: aws_sdk_dynamodb::Client,
    #[cfg_attr(
        not(feature = "streams"),
        allow(
            dead_code,
            reason = "without `streams` only the table client is built from it"
        )
    )]
    source: Source,
    backend: Backend,
}

/// Where a [`Dynamo`]'s clients send their requests: the embedded engine through the
/// in-process connector, or the endpoint (or AWS) an SDK config names. The DynamoDB client and
/// the Streams client are both built from it, so they always reach the same DynamoDB.
#[derive(Debug, Clone)]
enum Source {
    /// The embedded engine, answered in this process.
    #[cfg(feature = "engine")]
    Engine(Engine),
    /// An endpoint or AWS: the SDK config (endpoint, region, credentials) the clients share.
    Sdk(Box<aws_config::SdkConfig>),
}

impl Source {
    fn dynamodb_client(&self) -> aws_sdk_dynamodb::Client {
        match self {
            #[cfg(feature = "engine")]
            Source::Engine(engine) => crate::inprocess::client(engine.clone()),
            Source::Sdk(config) => aws_sdk_dynamodb::Client::new(config),
        }
    }

    #[cfg(feature = "streams")]
    fn streams_client(&self) -> aws_sdk_dynamodbstreams::Client {
        match self {
            #[cfg(feature = "engine")]
            Source::Engine(engine) => crate::inprocess::streams_client(engine.clone()),
            Source::Sdk(config) => aws_sdk_dynamodbstreams::Client::new(config),
        }
    }
}

impl Dynamo {
    /// A connection to `source`, which `backend` names.
    fn new(source: Source, backend: Backend) -> Dynamo {
        Dynamo {
            client: source.dynamodb_client(),
            source,
            backend,
        }
    }

    /// The client. Callers never learn which backend answers it.
    pub fn client(&self) -> &aws_sdk_dynamodb::Client {
        &self.client
    }

    /// The embedded engine, when the backend is embedded (for `serve` to expose it).
    #[cfg(feature = "engine")]
    pub fn engine(&self) -> Option<&Engine> {
        match &self.source {
            Source::Engine(engine) => Some(engine),
            Source::Sdk(_) => None,
        }
    }

    /// The official DynamoDB Streams client for the same DynamoDB: the same endpoint, region
    /// and credentials, or for the embedded engine the same in-process connector. The table's
    /// stream is read only through it.
    #[cfg(feature = "streams")]
    pub fn streams_client(&self) -> aws_sdk_dynamodbstreams::Client {
        self.source.streams_client()
    }

    /// The backend this client talks to.
    pub fn backend(&self) -> &Backend {
        &self.backend
    }

    /// A connected embedded engine.
    #[cfg(feature = "engine")]
    pub fn embedded(engine: Engine) -> Dynamo {
        let backend = Backend::Embedded(engine.location().clone());
        Dynamo::new(Source::Engine(engine), backend)
    }

    /// One cheap call (ListTables, limit 1) that fails with [`ConnectError::Unreachable`] when
    /// nothing answers, so a wrong endpoint is named at start-up rather than on the first
    /// request, and with [`ConnectError::Refused`] when DynamoDB answers with an error (wrong
    /// credentials or region, say).
    pub async fn ping(&self) -> Result<(), ConnectError> {
        use aws_sdk_dynamodb::error::ProvideErrorMetadata;
        let endpoint = match &self.backend {
            Backend::Endpoint(url) => url.clone(),
            other => other.to_string(),
        };
        let call = self.client.list_tables().limit(1).send();
        let reason = match tokio::time::timeout(Duration::from_secs(10), call).await {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(e)) => match e.as_service_error() {
                Some(answer) => {
                    return Err(ConnectError::Refused {
                        endpoint,
                        code: answer.code().unwrap_or("an error").to_string(),
                        message: answer.message().unwrap_or_default().trim().to_string(),
                    });
                }
                None => innermost_cause(&e),
            },
            Err(_) => "no answer within 10 s".to_string(),
        };
        Err(ConnectError::Unreachable { endpoint, reason })
    }
}

/// Connect to `backend`. Embedded: open the engine (creating the data directory); a build
/// without the `engine` feature refuses it ([`ConnectError::NoEngine`]). Endpoint: validate the
/// URL; credentials and region come from the SDK's chain when it has them and are placeholders
/// otherwise (local endpoints ignore them). AWS: the SDK's default chain, which must find a
/// region. No call is made; use [`Dynamo::ping`] to test reachability.
pub async fn connect(backend: &Backend) -> Result<Dynamo, ConnectError> {
    match backend {
        #[cfg(feature = "engine")]
        Backend::Embedded(location) => Ok(Dynamo::embedded(with_env_capacity(Engine::open(
            location,
        )?)?)),
        #[cfg(not(feature = "engine"))]
        Backend::Embedded(_) => Err(ConnectError::NoEngine),
        Backend::Endpoint(url) => {
            validate_endpoint(url)?;
            let mut loader = aws_config::defaults(BehaviorVersion::latest())
                .region(local_region())
                .endpoint_url(url.clone());
            if !has_credential_source() {
                loader = loader.credentials_provider(Credentials::new(
                    "monotable",
                    "local-endpoint",
                    None,
                    None,
                    "monotable-placeholder",
                ));
            }
            let config = loader.load().await;
            Ok(Dynamo::new(Source::Sdk(Box::new(config)), backend.clone()))
        }
        Backend::Aws => {
            let config = aws_config::defaults(BehaviorVersion::latest()).load().await;
            if config.region().is_none() {
                return Err(ConnectError::NoRegion);
            }
            Ok(Dynamo::new(Source::Sdk(Box::new(config)), backend.clone()))
        }
    }
}

/// The most specific message in an error's source chain ("Connection refused (os error 111)"),
/// which says more to a user than the SDK's outer "dispatch failure".
fn innermost_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut current = error;
    while let Some(next) = current.source() {
        current = next;
    }
    current.to_string()
}

/// An in-memory embedded engine and its client: what tests use.
#[cfg(feature = "engine")]
pub fn memory() -> Result<Dynamo, ConnectError> {
    Ok(Dynamo::embedded(with_env_capacity(Engine::open(
        &DataLocation::Memory,
    )?)?))
}

/// `engine`, with capacity emulation when the environment asks for it
/// ([`crate::capacity::Settings::from_env`]).
#[cfg(feature = "capacity")]
fn with_env_capacity(engine: Engine) -> Result<Engine, ConnectError> {
    Ok(match crate::capacity::Settings::from_env() {
        Some(settings) => engine.with_capacity(settings),
        None => engine,
    })
}

/// `engine` as it is: this build has no capacity emulation, so an environment that asks for it
/// ([`crate::config::CAPACITY_ENV`]) is refused rather than ignored.
#[cfg(all(feature = "engine", not(feature = "capacity")))]
fn with_env_capacity(engine: Engine) -> Result<Engine, ConnectError> {
    match crate::config::capacity_asked() {
        true => Err(ConnectError::NoCapacity),
        false => Ok(engine),
    }
}

/// The region for an endpoint: from the environment (`AWS_REGION`, then `AWS_DEFAULT_REGION`)
/// or the profile when set, else `us-east-1`. Unlike the default chain it never asks instance
/// metadata, which is slow or absent off AWS.
fn local_region() -> RegionProviderChain {
    RegionProviderChain::first_try(EnvironmentVariableRegionProvider::new())
        .or_else(ProfileFileRegionProvider::new())
        .or_else(Region::new(crate::config::DEFAULT_REGION))
}

/// The region an endpoint client built here signs for ([`local_region`]): what `serve --auth`
/// accepts unless told otherwise, so monotable's own commands, the SDKs and boto3 in the same
/// environment sign for the region it expects.
pub async fn local_region_name() -> String {
    local_region().region().await.map_or_else(
        || crate::config::DEFAULT_REGION.to_string(),
        |r| r.to_string(),
    )
}

fn validate_endpoint(url: &str) -> Result<(), ConnectError> {
    let invalid = |reason: &str| ConnectError::InvalidEndpoint {
        url: url.to_string(),
        reason: reason.to_string(),
    };
    let uri: http::Uri = url
        .parse()
        .map_err(|e: http::uri::InvalidUri| invalid(&e.to_string()))?;
    match uri.scheme_str() {
        Some("http") | Some("https") => {}
        Some(other) => return Err(invalid(&format!("scheme `{other}` is not http or https"))),
        None => return Err(invalid("it needs a scheme, e.g. http://127.0.0.1:8000")),
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err(invalid("it has no host"));
    }
    Ok(())
}

/// Whether the SDK's default chain has anything to find. Without one, the chain would spend
/// seconds probing instance metadata before failing; local endpoints accept any credentials.
fn has_credential_source() -> bool {
    const VARS: [&str; 6] = [
        "AWS_ACCESS_KEY_ID",
        "AWS_PROFILE",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
        "AWS_SHARED_CREDENTIALS_FILE",
    ];
    if VARS.iter().any(|v| std::env::var_os(v).is_some()) {
        return true;
    }
    std::env::var_os("HOME")
        .map(std::path::PathBuf::from)
        .is_some_and(|home| {
            home.join(".aws/credentials").exists() || home.join(".aws/config").exists()
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(not(feature = "engine"))]
    use crate::config::DataLocation;

    #[test]
    fn endpoint_urls_are_checked() {
        assert!(validate_endpoint("http://127.0.0.1:8000").is_ok());
        assert!(validate_endpoint("https://dynamodb.eu-west-1.amazonaws.com").is_ok());
        for bad in ["127.0.0.1:8000", "ftp://host", "http://", "not a url"] {
            let err = validate_endpoint(bad).unwrap_err();
            assert!(
                matches!(err, ConnectError::InvalidEndpoint { .. }),
                "{bad}: {err}"
            );
        }
    }

    /// An endpoint connection holds no engine, and its Streams client is built from the same
    /// SDK config as its table client (the same region; the endpoint is the config's).
    #[tokio::test]
    async fn an_endpoint_connection_builds_both_clients_from_one_config() {
        let dynamo = connect(&Backend::Endpoint("http://127.0.0.1:8000".into()))
            .await
            .unwrap();
        assert!(matches!(dynamo.source, Source::Sdk(_)));
        #[cfg(feature = "engine")]
        assert!(dynamo.engine().is_none());
        #[cfg(feature = "streams")]
        assert_eq!(
            dynamo
                .streams_client()
                .config()
                .region()
                .map(|r| r.as_ref()),
            dynamo.client().config().region().map(|r| r.as_ref()),
        );
    }

    /// An embedded connection's two clients reach its one engine: a table created through the
    /// DynamoDB client has its stream listed by the Streams client, and a clone shares both.
    #[cfg(feature = "engine")]
    #[tokio::test]
    async fn an_embedded_connections_streams_client_reads_its_own_engine() {
        use aws_sdk_dynamodb::types::{
            AttributeDefinition, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType,
            StreamSpecification, StreamViewType,
        };
        let dynamo = memory().unwrap();
        assert!(dynamo.engine().is_some());
        dynamo
            .client()
            .create_table()
            .table_name("Tbl")
            .key_schema(
                KeySchemaElement::builder()
                    .attribute_name("pk")
                    .key_type(KeyType::Hash)
                    .build()
                    .unwrap(),
            )
            .attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name("pk")
                    .attribute_type(ScalarAttributeType::S)
                    .build()
                    .unwrap(),
            )
            .billing_mode(BillingMode::PayPerRequest)
            .stream_specification(
                StreamSpecification::builder()
                    .stream_enabled(true)
                    .stream_view_type(StreamViewType::NewImage)
                    .build()
                    .unwrap(),
            )
            .send()
            .await
            .unwrap();
        let streams = dynamo.clone().streams_client().list_streams().send().await;
        let tables: Vec<_> = streams
            .unwrap()
            .streams()
            .iter()
            .filter_map(|s| s.table_name().map(str::to_string))
            .collect();
        assert_eq!(tables, ["Tbl"]);
    }

    /// Without the `engine` feature the embedded backend is refused, saying which feature is
    /// off; an endpoint still connects (`cargo test -p monotable-connect --no-default-features`).
    #[cfg(not(feature = "engine"))]
    #[tokio::test]
    async fn a_build_without_the_engine_refuses_the_embedded_backend() {
        for location in [DataLocation::Memory, DataLocation::default()] {
            let err = connect(&Backend::Embedded(location)).await.unwrap_err();
            assert!(matches!(err, ConnectError::NoEngine), "{err}");
            assert!(err.to_string().contains("`engine` feature"), "{err}");
        }
        assert!(!std::path::Path::new(crate::DEFAULT_DATA_DIR).exists());
        let endpoint = Backend::Endpoint("http://127.0.0.1:8000".into());
        assert!(connect(&endpoint).await.is_ok());
    }

    /// With the engine but without capacity emulation, `MONOTABLE_CAPACITY=1` is refused by
    /// `memory()` and `connect()` rather than ignored. The test runs itself again with the
    /// variable set (setting it in this process would race with the other tests).
    #[cfg(all(feature = "engine", not(feature = "capacity")))]
    #[tokio::test]
    async fn capacity_asked_of_a_build_without_it_is_refused() {
        const CHILD: &str = "MONOTABLE_CONNECT_TEST_CHILD";
        if std::env::var_os(CHILD).is_some() {
            let err = memory().unwrap_err();
            assert!(matches!(err, ConnectError::NoCapacity), "{err}");
            let embedded = Backend::Embedded(DataLocation::Memory);
            let err = connect(&embedded).await.unwrap_err();
            assert!(err.to_string().contains("`capacity`"), "{err}");
            return;
        }
        assert!(memory().is_ok() || crate::config::capacity_asked());
        let name = "client::tests::capacity_asked_of_a_build_without_it_is_refused";
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", name, "--test-threads=1"])
            .env(CHILD, "1")
            .env(crate::config::CAPACITY_ENV, "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}");
        assert!(stdout.contains("1 passed"), "{stdout}");
    }
}
