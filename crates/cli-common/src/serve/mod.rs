//! `serve` as both programs run it: the embedded engine opened at the data location (with
//! `--capacity`, its capacity-emulating clone), served as a DynamoDB endpoint on `--host` behind
//! the guard and limits, with more routes beside it (`monotable serve` puts `/metrics` there)
//! and more listeners (`monotable-shop serve` adds the shop's API port), stream consumers run
//! beside them ([`Local::run_consumer`]), one stop signal for all, and the start-up banner
//! ([`Banner`]).

mod args;
mod banner;
pub mod metrics;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use monotable_connect::serve::sigv4::Credentials;
use monotable_connect::serve::{
    self, DataGate, EndpointOptions, ErrorBody, Guard, endpoint, guard::Refuse,
};
use monotable_connect::{DataLocation, Engine, OpenError, ServeError};
use tokio::net::TcpListener;
use tokio::sync::watch;

pub use args::EngineArgs;
pub use banner::{Banner, data_text};

/// Why `serve` could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StartError {
    /// Another process listens on the port; `flag` picks another.
    #[error("{source} (is another serve running? choose a port with {flag})")]
    PortInUse {
        /// The bind error, naming the address.
        source: ServeError,
        /// The flag that sets the port.
        flag: &'static str,
    },
    /// A listener could not be bound for another reason, or a server failed.
    #[error(transparent)]
    Serve(#[from] ServeError),
    /// The engine could not be opened at the data location.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// The address a listener was bound to could not be read back.
    #[error("cannot read the address the {flag} listener is bound to: {source}")]
    Address {
        /// The flag that sets the listener's port.
        flag: &'static str,
        /// Why.
        source: io::Error,
    },
}

/// One more listener beside the DynamoDB endpoint: its router (already behind its guard), and
/// the body of hyper's own answers to requests it cannot read, in the listener's error shape.
pub struct Listener {
    /// The bound socket ([`Local::bind`]).
    pub listener: TcpListener,
    /// What it serves.
    pub router: Router,
    /// Its error shape for unreadable requests.
    pub errors: ErrorBody,
}

/// The embedded engine opened and its DynamoDB endpoint bound, not serving yet: what both
/// programs' `serve` start from.
pub struct Local {
    args: EngineArgs,
    engine: Engine,
    location: DataLocation,
    auth: Option<Credentials>,
    endpoint: TcpListener,
    dynamodb_url: String,
    stopped: watch::Receiver<bool>,
    started: Instant,
    /// The stream consumers' counters, for `/metrics`.
    consumers: Vec<metrics::Consumer>,
    /// Their deliveries, each ending once the stop signal came.
    deliveries: Vec<(&'static str, tokio::task::JoinHandle<()>)>,
}

impl Local {
    /// Listen for Ctrl-C and SIGTERM (before anything else, so an early stop is a clean one),
    /// open the engine at the data location (the emulating clone with `--capacity`, which every
    /// listener then shares), and bind the DynamoDB endpoint's port.
    pub async fn open(args: EngineArgs) -> Result<Local, StartError> {
        let started = Instant::now();
        let shutdown = serve::Shutdown::install();
        let location = args.data.location();
        let auth = args.auth.credentials().await;
        let engine = Engine::open(&location)?;
        let engine = match args.capacity() {
            Some(settings) => engine.with_capacity(settings),
            None => engine,
        };
        let (endpoint, dynamodb_url) = bind(&args, args.dynamodb_port, "--dynamodb-port").await?;
        let (stop, stopped) = watch::channel(false);
        tokio::spawn(async move {
            shutdown.wait().await;
            let _ = stop.send(true);
        });
        Ok(Local {
            args,
            engine,
            location,
            auth,
            endpoint,
            dynamodb_url,
            stopped,
            started,
            consumers: Vec::new(),
            deliveries: Vec::new(),
        })
    }

    /// The engine every listener serves.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// `http://HOST:PORT` of the DynamoDB endpoint.
    pub fn dynamodb_url(&self) -> &str {
        &self.dynamodb_url
    }

    /// The flags it was opened with.
    pub fn args(&self) -> &EngineArgs {
        &self.args
    }

    /// What every route that reads table data beside the endpoint asks for: the endpoint's own
    /// `--auth` signature, open on loopback without it, off beyond it.
    pub fn gate(&self) -> DataGate {
        DataGate::new(self.auth.clone(), self.args.host)
    }

    /// Becomes `true` on Ctrl-C or SIGTERM; every listener stops then.
    pub fn stopped(&self) -> watch::Receiver<bool> {
        self.stopped.clone()
    }

    /// Completes on Ctrl-C or SIGTERM (at once if one came already).
    pub fn stop(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut stopped = self.stopped.clone();
        async move {
            let _ = stopped.wait_for(|s| *s).await;
        }
    }

    /// Run stream consumer `name`'s delivery beside the listeners: `delivery` should end soon
    /// after [`Local::stop`] completes (`monotable::stream::Delivery::run` finishes the batch in
    /// hand), and [`Local::serve`] waits for it before it closes the engine. `/metrics`
    /// ([`Local::metrics`], made after this call) shows `metrics` as its counters.
    pub fn run_consumer(
        &mut self,
        name: &'static str,
        metrics: Arc<monotable_access::stream::metrics::Metrics>,
        delivery: impl Future<Output = ()> + Send + 'static,
    ) {
        self.consumers.push((name, metrics));
        self.deliveries.push((name, tokio::spawn(delivery)));
    }

    /// Bind another listener on `--host` at `port` (set by `flag`); the socket and its URL.
    pub async fn bind(
        &self,
        port: u16,
        flag: &'static str,
    ) -> Result<(TcpListener, String), StartError> {
        bind(&self.args, port, flag).await
    }

    /// The guard of a listener on `--host` ([`EngineArgs::guard`]).
    pub fn guard(&self, cors_methods: &'static str, refuse: Refuse) -> Guard {
        self.args.guard(cors_methods, refuse)
    }

    /// `GET /metrics` over this engine's capacity emulator and the consumers run so far, key
    /// values behind [`Local::gate`], refusals in `refuse`'s shape.
    pub fn metrics(&self, refuse: Refuse) -> Router {
        metrics::router(
            self.engine.capacity().cloned(),
            self.consumers.clone(),
            self.gate(),
            refuse,
        )
    }

    /// The banner's first lines, for `program` (`monotable`), serving `what`; the capacity
    /// line, when `--capacity` is on, points at `metrics_url`/metrics.
    pub fn banner(&self, program: &str, what: &str, metrics_url: &str) -> Banner {
        Banner::new(self, program, what, metrics_url)
    }

    /// Serve the DynamoDB endpoint, with `beside` merged into its router, and `others`, until
    /// Ctrl-C or SIGTERM; then let running requests finish and the consumers end, close the
    /// engine (every acknowledged write is on disk) and say where the data is.
    pub async fn serve(
        self,
        beside: Router,
        others: Vec<Listener>,
    ) -> Result<ExitCode, StartError> {
        let limits = self.args.limits();
        let wait = |mut stopped: watch::Receiver<bool>| async move {
            let _ = stopped.wait_for(|s| *s).await;
        };
        let options = EndpointOptions {
            auth: self.auth.clone(),
        };
        let endpoint = endpoint::router(self.engine.clone(), options)
            .merge(beside)
            .layer(axum::middleware::from_fn_with_state(
                Arc::new(self.guard("GET, POST", endpoint::refuse)),
                serve::guard::guard,
            ));
        let mut servers = tokio::task::JoinSet::new();
        for other in others {
            let (limits, stop) = (limits.clone(), wait(self.stopped.clone()));
            servers.spawn(async move {
                serve::serve_router(other.listener, other.router, &limits, other.errors, stop).await
            });
        }
        let served = serve::serve_router(
            self.endpoint,
            endpoint,
            &limits,
            endpoint::parse_error_body,
            wait(self.stopped.clone()),
        )
        .await;
        while let Some(joined) = servers.join_next().await {
            joined.map_err(|e| ServeError::Server(e.to_string()))??;
        }
        for (name, delivery) in self.deliveries {
            // A listener that failed did not stop the consumers: stop them here.
            if served.is_err() {
                delivery.abort();
            }
            match delivery.await {
                Err(e) if !e.is_cancelled() => eprintln!("consumer {name} stopped abnormally: {e}"),
                _ => {}
            }
        }
        served?;
        drop(self.engine);
        println!("stopped; data is in {}", data_text(&self.location));
        Ok(ExitCode::SUCCESS)
    }
}

async fn bind(
    args: &EngineArgs,
    port: u16,
    flag: &'static str,
) -> Result<(TcpListener, String), StartError> {
    let listener = match serve::bind(SocketAddr::new(args.host, port)).await {
        Ok(listener) => listener,
        Err(source @ ServeError::PortInUse { .. }) => {
            return Err(StartError::PortInUse { source, flag });
        }
        Err(e) => return Err(e.into()),
    };
    let addr = listener
        .local_addr()
        .map_err(|source| StartError::Address { flag, source })?;
    Ok((listener, format!("http://{addr}")))
}
