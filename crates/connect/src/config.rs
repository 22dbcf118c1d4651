//! The connection config: the one place that decides where DynamoDB is.

use std::fmt;
use std::path::{Path, PathBuf};

/// The data directory used when none is given (`--data-dir`, `MONOTABLE_DATA_DIR`).
pub const DEFAULT_DATA_DIR: &str = ".monotable";

/// The embedded engine's database file inside a data directory. SQLite keeps its write-ahead log
/// beside it (`monotable.db-wal`, `monotable.db-shm`).
pub const DATABASE_FILE: &str = "monotable.db";

/// The secret `monotable-shop serve` signs tokens and cursors with, generated into a data
/// directory on first use (`MONOTABLE_JWT_SECRET` overrides it).
pub const SECRET_FILE: &str = "jwt-secret";

/// Where the embedded engine keeps its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataLocation {
    /// Nothing touches the disk; everything is gone when the process ends. For tests and demos.
    Memory,
    /// A directory holding [`DATABASE_FILE`]; created on first use.
    Dir(PathBuf),
}

impl DataLocation {
    /// The database file for a directory location, `None` in memory.
    pub fn database_file(&self) -> Option<PathBuf> {
        match self {
            DataLocation::Memory => None,
            DataLocation::Dir(dir) => Some(dir.join(DATABASE_FILE)),
        }
    }

    /// The directory, `None` in memory.
    pub fn dir(&self) -> Option<&Path> {
        match self {
            DataLocation::Memory => None,
            DataLocation::Dir(dir) => Some(dir),
        }
    }
}

impl Default for DataLocation {
    fn default() -> Self {
        DataLocation::Dir(PathBuf::from(DEFAULT_DATA_DIR))
    }
}

impl fmt::Display for DataLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataLocation::Memory => f.write_str("memory (nothing is kept after exit)"),
            DataLocation::Dir(dir) => write!(f, "{}", dir.join(DATABASE_FILE).display()),
        }
    }
}

/// Where DynamoDB is. Everything above the store crate gets an SDK client built from one of these.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backend {
    /// The embedded engine in this process (the default).
    Embedded(DataLocation),
    /// A DynamoDB-compatible endpoint URL: DynamoDB Local, ScyllaDB Alternator, `monotable serve`.
    /// Credentials and region come from the SDK's default chain when it has them; a local endpoint
    /// that needs neither gets placeholders.
    Endpoint(String),
    /// Real DynamoDB: the SDK's default credential and region chain (environment, profile, SSO,
    /// container or instance role). `AWS_ENDPOINT_URL_DYNAMODB` is honoured as the SDK documents.
    Aws,
}

impl Default for Backend {
    fn default() -> Self {
        Backend::Embedded(DataLocation::default())
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Backend::Embedded(location) => write!(f, "embedded engine, data in {location}"),
            Backend::Endpoint(url) => write!(f, "endpoint {url}"),
            Backend::Aws => f.write_str("AWS DynamoDB (default credential and region chain)"),
        }
    }
}

/// The SDK's standard variable for a DynamoDB endpoint override.
pub const ENDPOINT_ENV: &str = "AWS_ENDPOINT_URL_DYNAMODB";

/// What the user asked for, before defaults apply: flags, with their environment fallbacks already
/// folded in by the caller (clap does this for the CLI).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BackendChoice {
    /// `--endpoint URL` or `AWS_ENDPOINT_URL_DYNAMODB`.
    pub endpoint: Option<String>,
    /// `--aws`: real DynamoDB through the default chain.
    pub aws: bool,
    /// `--in-memory`: embedded, nothing written to disk.
    pub in_memory: bool,
    /// `--data-dir` or `MONOTABLE_DATA_DIR`.
    pub data_dir: Option<PathBuf>,
}

impl BackendChoice {
    /// Resolve the choice: `--aws` wins, then an endpoint, then the embedded engine (in memory
    /// or in the data directory, `./.monotable` by default).
    pub fn resolve(&self) -> Backend {
        if self.aws {
            Backend::Aws
        } else if let Some(url) = self.endpoint.as_ref().filter(|u| !u.trim().is_empty()) {
            Backend::Endpoint(url.trim().to_string())
        } else {
            Backend::Embedded(self.embedded_location())
        }
    }

    /// The embedded engine's location this choice names, whatever the backend.
    pub fn embedded_location(&self) -> DataLocation {
        if self.in_memory {
            DataLocation::Memory
        } else {
            DataLocation::Dir(
                self.data_dir
                    .clone()
                    .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA_DIR)),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_embedded_in_dot_monotable() {
        assert_eq!(
            BackendChoice::default().resolve(),
            Backend::Embedded(DataLocation::Dir(PathBuf::from(".monotable")))
        );
    }

    #[test]
    fn aws_beats_endpoint_and_endpoint_beats_embedded() {
        let mut choice = BackendChoice {
            endpoint: Some("http://127.0.0.1:8000".into()),
            in_memory: true,
            ..Default::default()
        };
        assert_eq!(
            choice.resolve(),
            Backend::Endpoint("http://127.0.0.1:8000".into())
        );
        choice.aws = true;
        assert_eq!(choice.resolve(), Backend::Aws);
    }

    #[test]
    fn blank_endpoint_means_embedded() {
        let choice = BackendChoice {
            endpoint: Some("  ".into()),
            in_memory: true,
            ..Default::default()
        };
        assert_eq!(choice.resolve(), Backend::Embedded(DataLocation::Memory));
    }

    #[test]
    fn data_dir_names_the_database_file() {
        let location = BackendChoice {
            data_dir: Some("/srv/shop".into()),
            ..Default::default()
        }
        .embedded_location();
        assert_eq!(
            location.database_file(),
            Some(PathBuf::from("/srv/shop/monotable.db"))
        );
        assert_eq!(DataLocation::Memory.database_file(), None);
    }
}
