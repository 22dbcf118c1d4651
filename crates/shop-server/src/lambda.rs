//! The binary as the shop's AWS Lambda functions (`bootstrap` on provided.al2023): real DynamoDB,
//! the table named by `TABLE_NAME`, logs for CloudWatch, and init failures reported to the
//! Runtime API. Without `MONOTABLE_CONSUMER` it is the HTTP API, callers from API Gateway's JWT
//! authorizer; with it, that stream consumer (`productSales`): DynamoDB stream events in,
//! partial batch responses out.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::{Context, bail};
use monotable_shop::Shop;
use monotable_shop::auth::Auth;

/// The variable naming the table (the SAM template sets it).
pub const TABLE_ENV: &str = "TABLE_NAME";
/// The secret that signs pagination cursors; the same for every instance of the function.
pub const CURSOR_SECRET_ENV: &str = "MONOTABLE_CURSOR_SECRET";
/// Claims that carry the caller's groups, comma-separated (default `groups,cognito:groups`).
pub const GROUPS_CLAIM_ENV: &str = "MONOTABLE_GROUPS_CLAIM";
/// The group that makes a caller an admin (default `admin`).
pub const ADMIN_GROUP_ENV: &str = "MONOTABLE_ADMIN_GROUP";
/// The stream consumer the function runs instead of the HTTP API (the SAM template sets it on
/// each consumer's function).
pub const CONSUMER_ENV: &str = "MONOTABLE_CONSUMER";

/// Logs as CloudWatch wants them: no colour, no timestamp of our own (CloudWatch adds one),
/// JSON when the function's log format is JSON, and the request id of the invocation in every
/// line logged while it runs (lambda_runtime opens a span carrying it). The level is
/// `AWS_LAMBDA_LOG_LEVEL`, else `RUST_LOG`, else `info`.
pub fn init_logging() {
    use tracing_subscriber::EnvFilter;
    let level = std::env::var("AWS_LAMBDA_LOG_LEVEL")
        .or_else(|_| std::env::var("RUST_LOG"))
        .unwrap_or_else(|_| "info".into());
    let filter =
        EnvFilter::try_new(level.to_ascii_lowercase()).unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .without_time()
        .with_writer(std::io::stderr);
    let json = std::env::var("AWS_LAMBDA_LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json"));
    let _ = if json {
        builder.json().with_current_span(true).try_init()
    } else {
        builder.try_init()
    };
}

pub fn main() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return init_failed(&anyhow::anyhow!("cannot start the async runtime: {e}")),
    };
    let consumer = std::env::var(CONSUMER_ENV)
        .ok()
        .filter(|name| !name.is_empty());
    let shop = match runtime.block_on(init(consumer.as_deref())) {
        Ok(shop) => shop,
        Err(e) => return init_failed(&e),
    };
    let served = match &consumer {
        None => runtime.block_on(monotable_shop::lambda::run(monotable_shop::api::router(
            shop,
        ))),
        Some(name) => match runtime.block_on(monotable_shop::lambda::run_consumer(name, shop)) {
            Some(served) => served,
            None => return init_failed(&unknown_consumer(name)),
        },
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "the Lambda runtime loop failed");
            ExitCode::FAILURE
        }
    }
}

/// A `MONOTABLE_CONSUMER` this binary does not run.
fn unknown_consumer(name: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "{CONSUMER_ENV} is `{name}`, not a consumer of the shop; it runs {}",
        monotable_shop::lambda::CONSUMERS
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// What the Lambda runtime library reads from the environment Lambda sets (it panics without
/// them; here their absence is an init error that says which).
const RUNTIME_ENV: [&str; 3] = [
    "AWS_LAMBDA_FUNCTION_NAME",
    "AWS_LAMBDA_FUNCTION_VERSION",
    "AWS_LAMBDA_FUNCTION_MEMORY_SIZE",
];

/// Everything before the first invocation: the environment, the model, the secret (for the
/// HTTP API), the client; `consumer` is the stream consumer to run instead of the API.
async fn init(consumer: Option<&str>) -> anyhow::Result<Shop> {
    for name in RUNTIME_ENV {
        if std::env::var(name).is_err() {
            bail!(
                "{name} is not set: Lambda sets it for a function; set it to run the function elsewhere"
            );
        }
    }
    let memory = std::env::var("AWS_LAMBDA_FUNCTION_MEMORY_SIZE").unwrap_or_default();
    if memory.parse::<i32>().is_err() {
        bail!("AWS_LAMBDA_FUNCTION_MEMORY_SIZE is `{memory}`, not a number of MB");
    }
    if let Some(name) = consumer
        && !monotable_shop::lambda::CONSUMERS.contains(&name)
    {
        return Err(unknown_consumer(name));
    }
    let mut model = monotable_shop::model().context("the shop's model does not parse")?;
    if let Ok(table) = std::env::var(TABLE_ENV) {
        model.table.name = table;
    }
    let cursor_key = match consumer {
        // A consumer answers no caller: it verifies no token and seals no cursor.
        Some(_) => Vec::new(),
        None => cursor_key()?,
    };
    let dynamo = monotable_connect::connect(&monotable_connect::Backend::Aws).await?;
    Ok(Shop::new(
        dynamo.client().clone(),
        model,
        Auth::LambdaAuthorizer(monotable_shop::auth::GatewayClaims::from_env(
            std::env::var(GROUPS_CLAIM_ENV).ok().as_deref(),
            std::env::var(ADMIN_GROUP_ENV).ok().as_deref(),
        )),
        cursor_key,
    ))
}

/// The cursor key from `MONOTABLE_CURSOR_SECRET`, which must be long enough.
fn cursor_key() -> anyhow::Result<Vec<u8>> {
    let secret = std::env::var(CURSOR_SECRET_ENV).unwrap_or_default();
    if secret.len() < crate::secret::MIN_SECRET_LEN {
        bail!(
            "{CURSOR_SECRET_ENV} must hold at least {} characters so every instance seals cursors alike",
            crate::secret::MIN_SECRET_LEN
        );
    }
    Ok(Shop::cursor_key_from_secret(secret.as_bytes()))
}

/// Log an init failure, tell the Runtime API (so Lambda reports the reason, not a bare exit),
/// and exit 1.
fn init_failed(error: &anyhow::Error) -> ExitCode {
    let message = format!("{error:#}");
    tracing::error!(error = %message, "init failed");
    if let Ok(api) = std::env::var("AWS_LAMBDA_RUNTIME_API")
        && let Err(e) = post_init_error(&api, &message)
    {
        tracing::error!(error = %e, "could not report the init failure to the Runtime API");
    }
    ExitCode::FAILURE
}

/// `POST /2018-06-01/runtime/init/error` on the Runtime API at `api` (`host:port`, plain HTTP on
/// the function's sandbox loopback).
fn post_init_error(api: &str, message: &str) -> std::io::Result<()> {
    let body = serde_json::json!({ "errorMessage": message, "errorType": "Runtime.InitError" })
        .to_string();
    let request = format!(
        "POST /2018-06-01/runtime/init/error HTTP/1.1\r\nHost: {api}\r\nContent-Type: application/json\r\nLambda-Runtime-Function-Error-Type: Runtime.InitError\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = std::net::TcpStream::connect(api)?;
    stream.set_read_timeout(Some(std::time::Duration::from_secs(5)))?;
    stream.write_all(request.as_bytes())?;
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    if answer.starts_with("HTTP/1.1 2") {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "the Runtime API answered {:?}",
            answer.lines().next().unwrap_or("")
        )))
    }
}
