//! The connection flags every command that talks to DynamoDB shares.

use std::path::PathBuf;

use clap::Args;
use monotable_connect::config::{BackendChoice, ENDPOINT_ENV};
use monotable_connect::{Backend, DataLocation};

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
        BackendChoice {
            endpoint: self.endpoint(),
            aws: self.aws,
            in_memory: true,
            data_dir: None,
        }
        .resolve()
    }
}

impl ConnectionArgs {
    pub fn backend(&self) -> Backend {
        BackendChoice {
            endpoint: self.remote.endpoint(),
            aws: self.remote.aws,
            in_memory: self.data.in_memory,
            data_dir: Some(self.data.data_dir.clone()),
        }
        .resolve()
    }
}
