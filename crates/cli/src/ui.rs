//! `monotable ui MODEL`: a web page of the model (item collections per index, patterns and the
//! items they return, diagnostics, costs), reloaded when the file is saved, and a browser for
//! the live table on the chosen backend, with the JSON API it reads, on loopback until
//! Ctrl-C/SIGTERM. See docs/ui.md.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args;
use monotable_connect::{ServeError, serve};
use monotable_ui::{Live, ModelSource, Options, Snapshot, Ui};

use crate::connection::ConnectionArgs;

#[derive(Debug, Args)]
pub struct UiArgs {
    /// The model file (TOML; see docs/model.md). Saving it updates open pages.
    model: PathBuf,
    /// Port to listen on (0 picks a free one and prints it).
    #[arg(long, default_value_t = 8080, value_name = "PORT")]
    port: u16,
    /// Address to listen on. The default keeps the page on this machine.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST), value_name = "IP")]
    host: IpAddr,
    /// Accept this host name in the Host header besides loopback names and addresses. Repeat
    /// for several.
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_hosts: Vec<String>,
    /// Seed of verify's sample data.
    #[arg(long, default_value_t = monotable_verify::DEFAULT_SEED)]
    seed: u64,
    /// Let the table view put and delete items (it only reads without this).
    #[arg(long)]
    allow_writes: bool,
    /// The table view's backend: the embedded engine (default), --endpoint or --aws.
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub async fn run(args: UiArgs) -> anyhow::Result<ExitCode> {
    let shutdown = serve::Shutdown::install();
    if !args.model.is_file() {
        bail!("cannot read model {}: no such file", args.model.display());
    }
    let backend = args.connection.backend();
    let dynamo = monotable_connect::connect(&backend)
        .await
        .with_context(|| format!("cannot open the table view's backend ({backend})"))?;
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let ui = Ui::new(
        ModelSource::File(args.model.clone()),
        Options {
            seed: args.seed,
            prefix: String::new(),
            live: Some(Live::from_dynamo(dynamo, args.allow_writes)),
            stop: stopped.clone(),
        },
    );
    let addr = SocketAddr::new(args.host, args.port);
    let listener = match serve::bind(addr).await {
        Ok(listener) => listener,
        Err(e @ ServeError::PortInUse { .. }) => bail!("{e} (choose another with --port)"),
        Err(e) => return Err(e.into()),
    };
    let url = format!("http://{}", listener.local_addr().context("bound address")?);
    let shown = match &*ui.snapshot().await {
        Snapshot::Ready(s) => format!("{} sample items", s.data.samples.len()),
        Snapshot::Invalid(i) => format!("{}; the page shows why", i.message),
    };
    println!(
        "monotable ui: {} ({shown}) at {url}/ (table view: {backend}, {}; Ctrl-C stops)",
        args.model.display(),
        if args.allow_writes {
            "read-write"
        } else {
            "read-only"
        }
    );
    let _ = std::io::stdout().flush();
    tokio::spawn(monotable_ui::reload::watch(ui.clone(), stopped.clone()));
    let mut wait = stopped;
    let server = monotable_ui::serve(listener, ui, args.allow_hosts, async move {
        let _ = wait.wait_for(|s| *s).await;
    });
    tokio::spawn(async move {
        shutdown.wait().await;
        let _ = stop.send(true);
    });
    server.await?;
    Ok(ExitCode::SUCCESS)
}
