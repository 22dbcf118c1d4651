//! `monotable ui MODEL`: a web page of the model (item collections per index, patterns and the
//! items they return, diagnostics, costs) and the JSON API it reads, on loopback, until
//! Ctrl-C/SIGTERM. See docs/ui.md.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args;
use monotable_connect::{ServeError, serve};

#[derive(Debug, Args)]
pub struct UiArgs {
    /// The model file (TOML; see docs/model.md).
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
}

pub async fn run(args: UiArgs) -> anyhow::Result<ExitCode> {
    let shutdown = serve::Shutdown::install();
    let path = args.model.display().to_string();
    let source = std::fs::read_to_string(&args.model)
        .with_context(|| format!("cannot read model {path}"))?;
    let state = monotable_ui::UiState::build(&path, &source, args.seed).await?;
    let addr = SocketAddr::new(args.host, args.port);
    let listener = match serve::bind(addr).await {
        Ok(listener) => listener,
        Err(e @ ServeError::PortInUse { .. }) => bail!("{e} (choose another with --port)"),
        Err(e) => return Err(e.into()),
    };
    let url = format!("http://{}", listener.local_addr().context("bound address")?);
    println!(
        "monotable ui: {path} ({} sample items) at {url}/ (Ctrl-C stops)",
        state.data.samples.len()
    );
    let _ = std::io::stdout().flush();
    monotable_ui::serve(listener, state, args.allow_hosts, shutdown.wait()).await?;
    Ok(ExitCode::SUCCESS)
}
