//! monotable-ui: the server side of `monotable ui MODEL`, a model's collections, patterns,
//! diagnostics and costs as a small JSON API, and one plain page that shows them.
//!
//! [`UiState::build`] does all the work once, at start: it parses the model, generates verify's
//! sample items, runs verify over them, loads them into an in-memory embedded table and runs
//! each read pattern on it once, lints the model and prices it. [`router`] then answers from that state alone (see `docs/ui.md` for the
//! routes); [`serve`] puts the router on a listener, private to this machine's programs.

mod api;
mod routes;
pub mod run;

use std::future::Future;
use std::net::IpAddr;
use std::sync::Arc;

use monotable_check::cost::{CostReport, PriceTable};
use monotable_check::{Diagnostic, Report as CheckReport};
use monotable_connect::ServeError;
use monotable_connect::serve::{self, Guard, Limits};
use monotable_model::Model;
use monotable_verify::{Dataset, Report as VerifyReport, VerifyError};

pub use routes::router;

/// Why the UI cannot start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum UiError {
    /// The model does not parse or validate; `rendered` is what `monotable check` prints.
    #[error("{path} is not a valid model:\n{rendered}")]
    Model {
        /// The file name given.
        path: String,
        /// The diagnostics, rendered as the terminal shows them.
        rendered: String,
    },
    /// The patterns could not be run on the sample data.
    #[error("cannot run the patterns on the sample data: {0}")]
    Verify(#[from] VerifyError),
    /// A sample item was refused by the engine.
    #[error("cannot load a sample `{entity}` item: {message}")]
    Load {
        /// The entity of the item.
        entity: String,
        /// The engine's message.
        message: String,
    },
    /// The listener failed.
    #[error(transparent)]
    Serve(#[from] ServeError),
}

/// Everything the routes answer from, built once.
#[derive(Debug)]
pub struct UiState {
    /// The model file's name, as given.
    pub path: String,
    /// The model file's text.
    pub source: String,
    /// The parsed model.
    pub model: Model,
    /// verify's sample items.
    pub data: Dataset,
    /// verify's report over those items.
    pub verify: VerifyReport,
    /// The in-memory engine, its table loaded with the samples.
    pub engine: monotable_connect::Dynamo,
    /// Each pattern run once on that table, by pattern name.
    pub runs: std::collections::BTreeMap<String, run::PatternRun>,
    /// check's diagnostics, sorted as `check` prints them.
    pub diagnostics: Vec<Diagnostic>,
    /// The cost report at the shipped prices.
    pub cost: CostReport,
}

impl UiState {
    /// Parses `source` (named `path` in messages) and builds everything from it with verify's
    /// sample data for `seed`.
    pub async fn build(path: &str, source: &str, seed: u64) -> Result<UiState, UiError> {
        let model = match monotable_model::parse(source) {
            Ok(model) => model,
            Err(_) => {
                let report = monotable_check::check_source(path, source);
                return Err(UiError::Model {
                    path: path.to_string(),
                    rendered: report.render(monotable_check::Format::Human),
                });
            }
        };
        let data = monotable_verify::generate(&model, seed);
        let verify = monotable_verify::run::run(&model, &data, seed).await?;
        let engine = run::loaded(&model, &data).await?;
        let runs = run::run_all(&model, engine.client(), &data).await;
        let report = CheckReport::new(path, source, monotable_check::check_model(&model));
        let diagnostics = report.diagnostics().to_vec();
        let cost = monotable_check::cost::estimate(&model, &PriceTable::default());
        Ok(UiState {
            path: path.to_string(),
            source: source.to_string(),
            model,
            data,
            verify,
            engine,
            runs,
            diagnostics,
            cost,
        })
    }
}

/// The guard of the UI listening on `listen`: loopback names and addresses and `hosts`; web
/// pages from other origins are refused, with a JSON error.
pub fn guard(listen: IpAddr, hosts: Vec<String>) -> Guard {
    Guard {
        listen,
        hosts,
        origins: Vec::new(),
        cors_methods: "GET",
        refuse: routes::refuse,
    }
}

/// Serves [`router`] for `state` on `listener` behind [`guard`] until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: UiState,
    hosts: Vec<String>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), UiError> {
    let listen = listener
        .local_addr()
        .map(|a| a.ip())
        .unwrap_or(IpAddr::V4(std::net::Ipv4Addr::LOCALHOST));
    let app = router(Arc::new(state)).layer(axum::middleware::from_fn_with_state(
        Arc::new(guard(listen, hosts)),
        serve::guard::guard,
    ));
    serve::serve_router(
        listener,
        app,
        &Limits::default(),
        routes::parse_error_body,
        shutdown,
    )
    .await?;
    Ok(())
}
