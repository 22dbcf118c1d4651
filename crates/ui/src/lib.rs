//! monotable-ui: the server side of `monotable ui MODEL` and of `serve`'s `/ui`: a model's item
//! collections, patterns, diagnostics and costs, and a browser for a live table, as a small
//! JSON API and one plain page.
//!
//! [`Ui`] holds the model as last read ([`Snapshot`]): [`UiState::build`] does all the work
//! for one version of the file (verify's sample items, verify's report, each read pattern run
//! once on an in-memory table loaded with them, check's diagnostics, cost), and a model that
//! does not build is kept as [`Invalid`] with its diagnostics, so the page shows them. A
//! [`reload`] task rebuilds it when the file changes and tells open pages through server-sent
//! events. [`Live`] is the table view's backend. [`router`] answers from these (see
//! `docs/ui.md` for the routes); [`serve`] puts it on a listener, private to this machine's
//! programs.

mod api;
mod events;
mod gate;
mod live;
mod params;
pub mod reload;
mod reply;
mod routes;
pub mod run;

use std::future::Future;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;

use monotable_check::cost::{CostReport, PriceTable};
use monotable_check::{Diagnostic, Report as CheckReport};
use monotable_connect::ServeError;
use monotable_connect::serve::{self, Guard, Limits};
use monotable_model::Model;
use monotable_verify::{Dataset, VerifyError, VerifyReport};
use tokio::sync::{RwLock, watch};

pub use live::Live;
pub use routes::router;

/// Why a model version cannot be shown, or the UI cannot start.
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

/// One version of the model, with everything the model view shows built from it.
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
    /// Each pattern run once on an in-memory table holding the samples, by pattern name.
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
                    rendered: report.render(monotable_check::ReportFormat::Human),
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
            runs,
            diagnostics,
            cost,
        })
    }
}

/// A model version that could not be built: the page shows `message` and the diagnostics.
#[derive(Debug)]
pub struct Invalid {
    /// The model file's name, as given.
    pub path: String,
    /// The file's text (empty when it could not be read).
    pub source: String,
    /// What went wrong, in one line.
    pub message: String,
    /// check's diagnostics of the text (MT000 and the like when it does not parse).
    pub diagnostics: Vec<Diagnostic>,
}

/// The model as last read.
#[derive(Debug)]
pub enum Snapshot {
    /// It built.
    Ready(Box<UiState>),
    /// It did not.
    Invalid(Invalid),
}

impl Snapshot {
    /// Builds `source`; a failure becomes [`Snapshot::Invalid`] with check's diagnostics.
    pub async fn build(path: &str, source: &str, seed: u64) -> Snapshot {
        match UiState::build(path, source, seed).await {
            Ok(state) => Snapshot::Ready(Box::new(state)),
            Err(e) => {
                let message = match &e {
                    UiError::Model { path, .. } => format!("{path} is not a valid model"),
                    other => other.to_string(),
                };
                let report = monotable_check::check_source(path, source);
                Snapshot::Invalid(Invalid {
                    path: path.to_string(),
                    source: source.to_string(),
                    message,
                    diagnostics: report.diagnostics().to_vec(),
                })
            }
        }
    }

    /// The text this snapshot was built from.
    pub fn source(&self) -> &str {
        match self {
            Snapshot::Ready(s) => &s.source,
            Snapshot::Invalid(i) => &i.source,
        }
    }

    /// The model's state, when it built.
    pub fn ready(&self) -> Option<&UiState> {
        match self {
            Snapshot::Ready(s) => Some(s),
            Snapshot::Invalid(_) => None,
        }
    }
}

/// Where the model comes from.
#[derive(Debug, Clone)]
pub enum ModelSource {
    /// A file, read again whenever [`reload`] sees it change.
    File(PathBuf),
    /// A fixed text (`serve`'s shop model), named `path` in messages.
    Text {
        /// The name shown.
        path: String,
        /// The model.
        text: String,
    },
}

/// How a [`Ui`] is set up.
#[derive(Debug)]
pub struct UiOptions {
    /// Seed of verify's sample items.
    pub seed: u64,
    /// The path the routes live under: `""` for `monotable ui`, `"/ui"` on `serve`'s API port.
    pub prefix: String,
    /// The table view's backend; `None` leaves the table view off.
    pub live: Option<Live>,
    /// Becomes `true` when the server stops: event streams end then, so a stop is not held up.
    pub stop: watch::Receiver<bool>,
}

/// The UI's shared state: the model as last read, its version, and the table view's backend.
#[derive(Debug)]
pub struct Ui {
    source: ModelSource,
    seed: u64,
    prefix: String,
    current: RwLock<Option<Arc<Snapshot>>>,
    version: watch::Sender<u64>,
    live: Option<Live>,
    stop: watch::Receiver<bool>,
}

impl Ui {
    /// A UI over `source`; nothing is built until the first [`Ui::snapshot`].
    pub fn new(source: ModelSource, options: UiOptions) -> Arc<Ui> {
        Arc::new(Ui {
            source,
            seed: options.seed,
            prefix: options.prefix.trim_end_matches('/').to_string(),
            current: RwLock::new(None),
            version: watch::Sender::new(0),
            live: options.live,
            stop: options.stop,
        })
    }

    /// The name the model is shown under.
    pub fn path(&self) -> String {
        match &self.source {
            ModelSource::File(path) => path.display().to_string(),
            ModelSource::Text { path, .. } => path.clone(),
        }
    }

    /// The model's text now, or why it cannot be read.
    fn read(&self) -> Result<String, String> {
        match &self.source {
            ModelSource::File(path) => {
                read_model(path).map_err(|e| format!("cannot read model {}: {e}", path.display()))
            }
            ModelSource::Text { text, .. } => Ok(text.clone()),
        }
    }

    /// Builds the snapshot of `text` (or of a read failure).
    async fn build(&self, text: Result<String, String>) -> Snapshot {
        let path = self.path();
        match text {
            Ok(text) => Snapshot::build(&path, &text, self.seed).await,
            Err(message) => Snapshot::Invalid(Invalid {
                path,
                source: String::new(),
                message,
                diagnostics: Vec::new(),
            }),
        }
    }

    /// The model as last read, built on first use.
    pub async fn snapshot(&self) -> Arc<Snapshot> {
        if let Some(s) = self.current.read().await.as_ref() {
            return s.clone();
        }
        let mut slot = self.current.write().await;
        if let Some(s) = slot.as_ref() {
            return s.clone();
        }
        let built = Arc::new(self.build(self.read()).await);
        *slot = Some(built.clone());
        built
    }

    /// Reads the model again and rebuilds it when its text changed; `true` when it did (and the
    /// version went up, which open pages are told).
    pub async fn reload(&self) -> bool {
        let text = self.read();
        let current = self.snapshot().await;
        let same = match (&text, &*current) {
            (Ok(t), s) => t == s.source(),
            (Err(m), Snapshot::Invalid(i)) => i.source.is_empty() && *m == i.message,
            (Err(_), Snapshot::Ready(_)) => false,
        };
        if same {
            return false;
        }
        let built = Arc::new(self.build(text).await);
        *self.current.write().await = Some(built);
        self.version.send_modify(|v| *v += 1);
        true
    }

    /// The version of the model: 0 at start, one more at each change [`Ui::reload`] saw.
    pub fn version(&self) -> u64 {
        *self.version.borrow()
    }

    /// The file to watch, when the model comes from one.
    pub fn file(&self) -> Option<&PathBuf> {
        match &self.source {
            ModelSource::File(path) => Some(path),
            ModelSource::Text { .. } => None,
        }
    }
}

/// Resolves once `stop` is `true` (or its sender is gone).
pub(crate) async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// The guard of the UI listening on `listen`: loopback names and addresses and `hosts`; web
/// pages from other origins are refused, with a JSON error.
pub fn guard(listen: IpAddr, hosts: Vec<String>) -> Guard {
    Guard {
        listen,
        hosts,
        origins: Vec::new(),
        cors_methods: "GET, PUT, DELETE",
        refuse: reply::refuse,
    }
}

/// Serves [`router`] for `ui` on `listener` behind [`guard`] until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    ui: Arc<Ui>,
    hosts: Vec<String>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), UiError> {
    let listen = listener
        .local_addr()
        .map(|a| a.ip())
        .unwrap_or(IpAddr::V4(std::net::Ipv4Addr::LOCALHOST));
    let app = router(ui).layer(axum::middleware::from_fn_with_state(
        Arc::new(guard(listen, hosts)),
        serve::guard::guard,
    ));
    serve::serve_router(
        listener,
        app,
        &Limits::default(),
        reply::parse_error_body,
        shutdown,
    )
    .await?;
    Ok(())
}

/// The bytes of the model file at `path`, read through the model's size limit
/// (`monotable_model::limits::MAX_SOURCE_BYTES`): a larger file, `/dev/zero` or an endless pipe
/// is an error naming the limit, and no more than the limit and one byte is ever held.
pub(crate) fn read_model_bytes(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let limit = monotable_model::limits::MAX_SOURCE_BYTES;
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(cap)
        .read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(std::io::Error::other(format!(
            "it is larger than 16 MiB ({} bytes), the most a model may hold",
            monotable_model::limits::thousands(limit)
        )));
    }
    Ok(bytes)
}

/// [`read_model_bytes`] as text.
fn read_model(path: &std::path::Path) -> std::io::Result<String> {
    String::from_utf8(read_model_bytes(path)?)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod read_tests {
    use super::read_model_bytes;

    /// A model file one byte past the limit is refused naming it; one at the limit is read.
    #[test]
    fn a_model_file_past_16_mib_is_refused() {
        let limit = monotable_model::limits::MAX_SOURCE_BYTES;
        let dir = std::env::temp_dir().join(format!("monotable-ui-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let big = dir.join("big.toml");
        std::fs::write(&big, vec![b'#'; limit + 1]).expect("write");
        let refused = read_model_bytes(&big).expect_err("past the limit");
        assert!(refused.to_string().contains("16 MiB"), "{refused}");
        std::fs::write(&big, vec![b'#'; limit]).expect("write");
        assert_eq!(read_model_bytes(&big).expect("at the limit").len(), limit);
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    /// `/dev/zero` never ends: it is read only up to the limit.
    #[test]
    #[cfg(unix)]
    fn an_endless_file_is_refused() {
        let refused = read_model_bytes(std::path::Path::new("/dev/zero")).expect_err("endless");
        assert!(
            refused.to_string().contains("the most a model may hold"),
            "{refused}"
        );
    }
}
