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
use monotable_connect::serve::DataGate;
use monotable_connect::{ServeError, serve};
use monotable_ui::{Live, ModelSource, Snapshot, Ui, UiOptions};

use crate::auth::AuthArgs;
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
    #[command(flatten)]
    auth: AuthArgs,
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
    let gate = DataGate::new(args.auth.credentials().await, args.host);
    let ui = Ui::new(
        ModelSource::File(args.model.clone()),
        UiOptions {
            seed: args.seed,
            prefix: String::new(),
            live: Some(Live::from_dynamo(dynamo, args.allow_writes).with_gate(gate.clone())),
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
        Snapshot::Invalid(i) => format!(
            "{}; the page shows why",
            monotable_model::text::escape(&i.message)
        ),
    };
    let mode = if args.allow_writes {
        "read-write"
    } else {
        "read-only"
    };
    let access = match &gate {
        DataGate::Open => String::new(),
        DataGate::Signed(c) => format!(", for SigV4 signatures by access key {}", c.access_key),
        DataGate::Off => ", off: --host is beyond loopback and --auth is not set".to_string(),
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "monotable ui: {} ({shown}) at {url}/ (table view: {backend}, {mode}{access}; Ctrl-C stops)",
        monotable_model::text::escape(&args.model.display().to_string()),
    );
    if !args.host.is_loopback() {
        let _ = writeln!(
            out,
            "{}",
            exposure_warning(args.host, &gate, args.allow_writes)
        );
    }
    let _ = out.flush();
    drop(out);
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

/// What `ui` says when it listens beyond loopback: who can reach what.
fn exposure_warning(host: IpAddr, gate: &DataGate, allow_writes: bool) -> String {
    let table = match (gate, allow_writes) {
        (DataGate::Signed(_), true) => {
            "the table view reads and writes the table for whoever holds the --auth secret"
        }
        (DataGate::Signed(_), false) => {
            "the table view reads the table for whoever holds the --auth secret"
        }
        (_, true) => "the table view is off (--allow-writes has no effect without --auth)",
        (_, false) => "the table view is off (set --auth KEY:SECRET to turn it on)",
    };
    format!(
        "warning: listening on {host}: anyone who reaches it sees the model and its sample items; {table}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use monotable_connect::serve::sigv4::Credentials;
    use std::net::Ipv4Addr;

    #[test]
    fn the_warning_says_what_is_exposed() {
        let any = IpAddr::V4(Ipv4Addr::UNSPECIFIED);
        let creds: Credentials = "local:s3cr3t-s3cr3t".parse().unwrap();
        let signed = DataGate::new(Some(creds), any);
        let text = exposure_warning(any, &signed, true);
        assert!(text.contains("reads and writes"), "{text}");
        assert!(!text.contains("s3cr3t"), "{text}");
        let off = DataGate::new(None, any);
        let text = exposure_warning(any, &off, true);
        assert!(text.contains("--allow-writes has no effect"), "{text}");
    }
}
