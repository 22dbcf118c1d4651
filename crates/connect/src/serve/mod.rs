//! Serving over HTTP: the DynamoDB-compatible endpoint over the embedded engine ([`endpoint`]),
//! the server every listener of `serve` (the tool's, the shop's) runs on ([`serve_router`]),
//! what keeps them private to this machine ([`guard`]), and the stop signal.

pub mod endpoint;
pub mod gate;
pub mod guard;
mod http;
mod shaped;
pub mod sigv4;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::engine::Engine;
use crate::error::ServeError;

pub use endpoint::EndpointOptions;
pub use gate::{DataGate, Denied};
pub use guard::Guard;
pub use http::{Limits, serve_router};
pub use shaped::ErrorBody;

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

/// Serve the DynamoDB JSON API for `engine` on `listener` until `shutdown` resolves, behind
/// `guard` and within `limits`. On shutdown it stops accepting, lets running requests finish and
/// returns; every write it acknowledged is on disk.
pub async fn serve_dynamodb(
    listener: TcpListener,
    engine: &Engine,
    options: EndpointOptions,
    guard: Guard,
    limits: &Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let router = endpoint::router(engine.clone(), options).layer(
        axum::middleware::from_fn_with_state(Arc::new(guard), guard::guard),
    );
    serve_router(
        listener,
        router,
        limits,
        endpoint::parse_error_body,
        shutdown,
    )
    .await
}

/// [`serve_dynamodb`] with every default: loopback callers only, no signature check, default
/// limits. For tests, benchmarks and tools.
pub async fn serve_dynamodb_defaults(
    listener: TcpListener,
    engine: &Engine,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let listen = listener
        .local_addr()
        .map(|a| a.ip())
        .unwrap_or(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST));
    let guard = endpoint_guard(listen, Vec::new(), Vec::new());
    let options = EndpointOptions::default();
    serve_dynamodb(
        listener,
        engine,
        options,
        guard,
        &Limits::default(),
        shutdown,
    )
    .await
}

/// The guard of the DynamoDB endpoint listening on `listen`: loopback names, `hosts` and
/// `origins` as the user gave them, refusals in DynamoDB's error shape.
pub fn endpoint_guard(listen: std::net::IpAddr, hosts: Vec<String>, origins: Vec<String>) -> Guard {
    Guard {
        listen,
        hosts,
        origins,
        cors_methods: "GET, POST",
        refuse: endpoint::refuse,
    }
}

/// Ctrl-C and SIGTERM, listened for from the moment this is made: a signal that arrives before
/// anyone awaits [`Shutdown::wait`] is still seen (a process manager may stop a server the
/// instant it says it is ready).
pub struct Shutdown {
    #[cfg(unix)]
    interrupt: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    terminate: Option<tokio::signal::unix::Signal>,
}

impl Shutdown {
    /// Install the handlers now. Must run inside a tokio runtime. A handler that cannot be
    /// installed is left out; the other still works.
    pub fn install() -> Shutdown {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Shutdown {
                interrupt: signal(SignalKind::interrupt()).ok(),
                terminate: signal(SignalKind::terminate()).ok(),
            }
        }
        #[cfg(not(unix))]
        Shutdown {}
    }

    /// Resolves on the first Ctrl-C or SIGTERM.
    pub async fn wait(self) {
        #[cfg(unix)]
        {
            let recv = |s: Option<tokio::signal::unix::Signal>| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                _ = recv(self.interrupt) => {},
                _ = recv(self.terminate) => {},
            }
        }
        #[cfg(not(unix))]
        {
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }
}

/// Resolves on Ctrl-C or SIGTERM; handlers are installed when this is first polled. Prefer
/// [`Shutdown::install`] where a signal may arrive before then.
pub async fn shutdown_signal() {
    Shutdown::install().wait().await
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
