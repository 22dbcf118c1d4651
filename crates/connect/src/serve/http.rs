//! The HTTP/1.1 server under both of `serve`'s listeners: a deadline for every request head (and
//! so for idle kept-alive connections), a deadline for request bodies, a cap on open connections,
//! hyper's own parse-error answers rewritten into the listener's error shape, and a graceful stop.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use super::shaped::{ErrorBody, ShapedErrors};
use crate::error::ServeError;

/// The largest request head (request line and headers) read, in bytes: beyond it the answer is
/// 431 (a URI over 64 KiB that fits is a 414).
pub const MAX_HEAD_BYTES: usize = 80 * 1024;
/// The most headers a request may carry: beyond it the answer is 431.
pub const MAX_HEADERS: usize = 100;

/// The limits every listener of `serve` enforces. docs/serve.md lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// A connection must deliver a complete request head within this long of opening, or of its
    /// previous response (so an idle kept-alive connection closes after it too).
    pub header_timeout: Duration,
    /// A request body must arrive within this long.
    pub body_timeout: Duration,
    /// Connections served at once; further ones wait in the listen backlog until one closes.
    pub max_connections: usize,
    /// How long a stop waits for running requests before it gives up on them.
    pub shutdown_grace: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            max_connections: 512,
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// Serve `router` on `listener` with `limits` until `shutdown` resolves; answers hyper itself
/// gives to unparseable requests carry `errors`' body. On shutdown it stops accepting, closes idle
/// connections, and waits up to [`Limits::shutdown_grace`] for running requests.
pub async fn serve_router(
    listener: TcpListener,
    router: Router,
    limits: &Limits,
    errors: ErrorBody,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let router = router.layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
        limits.body_timeout,
    ));
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_HEAD_BYTES)
        .max_headers(MAX_HEADERS)
        .keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            p = permits.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors and the like: pause rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let io = TokioIo::new(ShapedErrors::new(stream, errors));
        let service = TowerToHyperService::new(router.clone());
        let connection = graceful.watch(builder.serve_connection(io, service));
        tokio::spawn(async move {
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    if tokio::time::timeout(limits.shutdown_grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("stopped with requests still running");
    }
    Ok(())
}
