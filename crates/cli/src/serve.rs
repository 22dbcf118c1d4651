//! `monotable serve`: the embedded engine as a DynamoDB endpoint on loopback, until Ctrl-C/SIGTERM.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use monotable_store::{DataLocation, Engine, ServeError, serve};

use crate::connection::DataArgs;

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Address to listen on. The default keeps the endpoint on this machine; anything else lets
    /// whoever reaches it read and write the data (the engine does not check credentials).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST), value_name = "IP")]
    host: IpAddr,
    /// Port of the DynamoDB endpoint (0 picks a free one and prints it).
    #[arg(
        long,
        env = "MONOTABLE_DYNAMODB_PORT",
        default_value_t = 8000,
        value_name = "PORT"
    )]
    dynamodb_port: u16,
}

pub async fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let location = args.data.location();
    let engine = Engine::open(&location)?;
    let addr = SocketAddr::new(args.host, args.dynamodb_port);
    let listener = match serve::bind(addr).await {
        Ok(listener) => listener,
        Err(e @ ServeError::PortInUse { .. }) => {
            bail!("{e} (is another `monotable serve` running? choose a port with --dynamodb-port)")
        }
        Err(e) => return Err(e.into()),
    };
    let local = listener.local_addr().context("reading the bound address")?;
    let url = format!("http://{local}");

    let data = match &location {
        DataLocation::Memory => "memory (nothing is kept after exit)".to_string(),
        DataLocation::Dir(dir) => std::path::absolute(dir)
            .unwrap_or_else(|_| dir.clone())
            .join(monotable_store::DATABASE_FILE)
            .display()
            .to_string(),
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "monotable {} — embedded DynamoDB engine (dynoxide {})",
        env!("CARGO_PKG_VERSION"),
        monotable_store::ENGINE_VERSION
    );
    let _ = writeln!(out, "  data      {data}");
    let _ = writeln!(out, "  dynamodb  {url}");
    let _ = writeln!(
        out,
        "  connect   aws dynamodb list-tables --endpoint-url {url}"
    );
    let _ = writeln!(
        out,
        "            (any access key and region work; the engine does not check them)"
    );
    if !args.host.is_loopback() {
        let _ = writeln!(
            out,
            "  warning   listening on {} — anyone who reaches it can read and write this data",
            args.host
        );
    }
    let _ = writeln!(
        out,
        "ready in {} ms — Ctrl-C to stop",
        started.elapsed().as_millis()
    );
    let _ = out.flush();
    drop(out);

    serve::serve_dynamodb(listener, &engine, serve::shutdown_signal()).await?;
    drop(engine);
    println!("stopped; data is in {data}");
    Ok(ExitCode::SUCCESS)
}
