//! The connection flags every command that talks to DynamoDB shares.

use std::path::PathBuf;
use std::sync::OnceLock;

use clap::Args;
use monotable_connect::config::{BackendChoice, ENDPOINT_ENV};
use monotable_connect::{Backend, DataLocation};

/// The endpoint this run's command talks to, once it chose one ([`ConnectionArgs::backend`],
/// [`RemoteArgs::backend_or_memory`]).
static ENDPOINT: OnceLock<String> = OnceLock::new();

fn remembered(backend: Backend) -> Backend {
    if let Backend::Endpoint(url) = &backend {
        let _ = ENDPOINT.set(url.clone());
    }
    backend
}

/// `text` with the endpoint named where it says a call got no answer: the SDK's client does not
/// say where it sends (so the libraries write "cannot reach DynamoDB: CAUSE"), the command line
/// does.
pub fn name_endpoint(text: String) -> String {
    match ENDPOINT.get() {
        Some(url) => named(&text, url),
        None => text,
    }
}

fn named(text: &str, url: &str) -> String {
    use monotable_access::error::UNREACHABLE;
    text.replace(
        &format!("{UNREACHABLE}: "),
        &format!("{UNREACHABLE} at {url}: "),
    )
}

/// Where the embedded engine keeps its data.
#[derive(Debug, Clone, Args)]
pub struct DataArgs {
    /// Directory of the embedded engine's data (created if missing).
    #[arg(long, env = "MONOTABLE_DATA_DIR", value_name = "DIR", default_value = monotable_connect::DEFAULT_DATA_DIR)]
    pub data_dir: PathBuf,
    /// Keep the embedded engine's data in memory only; nothing is written to disk.
    #[arg(long, conflicts_with = "data_dir")]
    pub in_memory: bool,
}

impl DataArgs {
    pub fn location(&self) -> DataLocation {
        BackendChoice {
            in_memory: self.in_memory,
            data_dir: Some(self.data_dir.clone()),
            ..Default::default()
        }
        .embedded_location()
    }
}

/// Which DynamoDB to use: embedded (default), an endpoint, or AWS.
#[derive(Debug, Clone, Args)]
pub struct ConnectionArgs {
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub remote: RemoteArgs,
}

/// A DynamoDB other than the embedded engine: an endpoint, or AWS.
#[derive(Debug, Clone, Args)]
pub struct RemoteArgs {
    /// Use a DynamoDB-compatible endpoint instead of the embedded engine: DynamoDB Local,
    /// ScyllaDB Alternator, another `monotable serve`. Defaults to AWS_ENDPOINT_URL_DYNAMODB.
    #[arg(long, value_name = "URL", conflicts_with = "aws")]
    pub endpoint: Option<String>,
    /// Use real DynamoDB with the AWS SDK's default credential and region chain.
    #[arg(long)]
    pub aws: bool,
}

impl RemoteArgs {
    /// The endpoint, from the flag or the environment.
    fn endpoint(&self) -> Option<String> {
        self.endpoint
            .clone()
            .or_else(|| std::env::var(ENDPOINT_ENV).ok())
    }

    /// The endpoint or AWS when chosen, else the embedded engine in memory.
    pub fn backend_or_memory(&self) -> Backend {
        remembered(
            BackendChoice {
                endpoint: self.endpoint(),
                aws: self.aws,
                in_memory: true,
                data_dir: None,
            }
            .resolve(),
        )
    }
}

impl ConnectionArgs {
    pub fn backend(&self) -> Backend {
        remembered(
            BackendChoice {
                endpoint: self.remote.endpoint(),
                aws: self.remote.aws,
                in_memory: self.data.in_memory,
                data_dir: Some(self.data.data_dir.clone()),
            }
            .resolve(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::named;

    #[test]
    fn a_call_without_an_answer_names_the_endpoint_and_nothing_else_changes() {
        let url = "http://127.0.0.1:8000";
        assert_eq!(
            named(
                "UpdateItem failed: cannot reach DynamoDB: Connection refused (os error 111)",
                url
            ),
            "UpdateItem failed: cannot reach DynamoDB at http://127.0.0.1:8000: Connection refused (os error 111)"
        );
        let answered =
            "UpdateItem failed: ValidationException: One or more parameter values were invalid";
        assert_eq!(named(answered, url), answered);
    }
}
