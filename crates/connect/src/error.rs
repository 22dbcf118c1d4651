//! Error enums of the store crate, one per operation: opening the engine, connecting, serving.

use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Opening the embedded engine failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// The data directory could not be created.
    #[error("cannot create data directory {}: {source}", path.display())]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The data directory exists but cannot be written to.
    #[error("data directory {} is not writable: {source}", path.display())]
    NotWritable {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The path is not valid UTF-8 (the engine takes a UTF-8 path).
    #[error("data directory {} is not a UTF-8 path", path.display())]
    NonUtf8Path {
        /// The directory.
        path: PathBuf,
    },
    /// Another process holds the data directory.
    #[error(
        "data directory {} is in use by {holder}; stop it, or connect to it with --endpoint",
        path.display()
    )]
    Locked {
        /// The directory.
        path: PathBuf,
        /// The process holding it, as its lock file names it.
        holder: String,
    },
    /// The database file exists but cannot be written.
    #[error("database file {} cannot be written: {source}", path.display())]
    ReadOnlyDatabase {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The engine refused the database file (corrupt, written by a newer version, locked).
    #[error("cannot open the embedded database {}: {message}", path.display())]
    Engine {
        /// The database file, or `:memory:`.
        path: PathBuf,
        /// The engine's message.
        message: String,
    },
}

/// Building a client for a backend failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// The embedded engine could not be opened.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// The endpoint URL is not an `http://` or `https://` URL with a host.
    #[error("invalid DynamoDB endpoint `{url}`: {reason}")]
    InvalidEndpoint {
        /// What was given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Real DynamoDB was asked for but the SDK's chain found no region.
    #[error("no AWS region is configured: set AWS_REGION or a region in your AWS profile")]
    NoRegion,
    /// The endpoint answered a ListTables call with an error (credentials, region, permissions).
    #[error("DynamoDB at {endpoint} refused the call: {code}: {message}")]
    Refused {
        /// The endpoint, as the user named it.
        endpoint: String,
        /// DynamoDB's error code.
        code: String,
        /// DynamoDB's message.
        message: String,
    },
    /// The endpoint did not answer a ListTables call.
    #[error("cannot reach DynamoDB at {endpoint}: {reason}")]
    Unreachable {
        /// The endpoint, as the user named it.
        endpoint: String,
        /// What the SDK reported.
        reason: String,
    },
}

/// Serving the DynamoDB endpoint failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// Another process already listens on the port.
    #[error("port {} is already in use on {}", addr.port(), addr.ip())]
    PortInUse {
        /// The address asked for.
        addr: SocketAddr,
    },
    /// Binding failed for another reason (no such address, permission).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why.
        source: io::Error,
    },
    /// The server stopped with an error.
    #[error("the DynamoDB endpoint failed: {0}")]
    Server(String),
}
