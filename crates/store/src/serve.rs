//! The DynamoDB-compatible HTTP endpoint over the embedded engine, for the AWS CLI, boto3, NoSQL
//! Workbench and other `monotable` processes.

use std::future::Future;
use std::io;
use std::net::SocketAddr;

use tokio::net::TcpListener;

use crate::engine::Engine;
use crate::error::ServeError;

/// Bind `addr`, naming the port when another process holds it.
pub async fn bind(addr: SocketAddr) -> Result<TcpListener, ServeError> {
    TcpListener::bind(addr).await.map_err(|source| {
        if source.kind() == io::ErrorKind::AddrInUse {
            ServeError::PortInUse { addr }
        } else {
            ServeError::Bind { addr, source }
        }
    })
}

/// Serve the DynamoDB JSON API for `engine` on `listener` until `shutdown` resolves. On shutdown
/// it stops accepting, lets running requests finish and returns; every write it acknowledged is
/// already committed to the engine's file (SQLite WAL, synchronous commits).
pub async fn serve_dynamodb(
    listener: TcpListener,
    engine: &Engine,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    dynoxide::server::serve_with_shutdown(listener, engine.database().clone(), shutdown)
        .await
        .map_err(ServeError::Server)
}

/// Resolves on Ctrl-C or SIGTERM (Ctrl-C only off Unix). If a handler cannot be installed the
/// future never resolves from that source, and the other still works.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_taken_port_is_named() {
        let taken = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = taken.local_addr().unwrap();
        let err = bind(addr).await.unwrap_err();
        assert!(matches!(err, ServeError::PortInUse { .. }));
        assert_eq!(
            err.to_string(),
            format!("port {} is already in use on 127.0.0.1", addr.port())
        );
    }
}
