//! `monotable serve`: the embedded engine as a DynamoDB endpoint and the shop's REST API, both on
//! loopback, until Ctrl-C/SIGTERM.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use monotable_shop::Shop;
use monotable_shop::auth::Auth;
use monotable_store::{DataLocation, Engine, ServeError, serve};

use crate::connection::DataArgs;

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Address to listen on. The default keeps both endpoints on this machine; anything else lets
    /// whoever reaches it read and write the data (the DynamoDB endpoint checks no credentials).
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
    /// Port of the shop's REST API (0 picks a free one and prints it).
    #[arg(
        long,
        env = "MONOTABLE_API_PORT",
        default_value_t = 3000,
        value_name = "PORT"
    )]
    api_port: u16,
}

async fn bind(addr: SocketAddr, flag: &str) -> anyhow::Result<tokio::net::TcpListener> {
    match serve::bind(addr).await {
        Ok(listener) => Ok(listener),
        Err(e @ ServeError::PortInUse { .. }) => {
            bail!("{e} (is another `monotable serve` running? choose a port with {flag})")
        }
        Err(e) => Err(e.into()),
    }
}

pub async fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    // Listen for Ctrl-C/SIGTERM before saying "ready", so an early stop is a clean one.
    let shutdown = serve::Shutdown::install();
    let location = args.data.location();
    let engine = Engine::open(&location)?;
    let dynamodb = bind(
        SocketAddr::new(args.host, args.dynamodb_port),
        "--dynamodb-port",
    )
    .await?;
    let api = bind(SocketAddr::new(args.host, args.api_port), "--api-port").await?;
    let dynamodb_url = format!("http://{}", dynamodb.local_addr().context("bound address")?);
    let api_url = format!("http://{}", api.local_addr().context("bound address")?);

    // The shop's table, from its model, when missing.
    let model = monotable_shop::model().context("the shop's model does not parse")?;
    let client = engine.client();
    let created = monotable_store::table::ensure_table(&client, &model).await?;
    let (secret, secret_source) = crate::secret::load(&location)?;
    let shop = Shop::new(
        client,
        model,
        Auth::Hs256 {
            secret: secret.clone(),
        },
        Shop::cursor_key_from_secret(&secret),
    );
    let table = shop.table().to_string();
    let router = monotable_shop::api::router(shop);

    let data = match &location {
        DataLocation::Memory => "memory (nothing is kept after exit)".to_string(),
        DataLocation::Dir(dir) => std::path::absolute(dir)
            .unwrap_or_else(|_| dir.clone())
            .join(monotable_store::DATABASE_FILE)
            .display()
            .to_string(),
    };
    let token_hint = match &secret_source {
        crate::secret::Source::Env => {
            "monotable token --user alice   (signed with MONOTABLE_JWT_SECRET)".to_string()
        }
        crate::secret::Source::File(path) => format!(
            "monotable token --user alice [--admin]   (secret in {})",
            path.display()
        ),
        crate::secret::Source::Ephemeral => {
            "set MONOTABLE_JWT_SECRET to mint tokens for an in-memory serve".to_string()
        }
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "monotable {} — embedded DynamoDB engine (dynoxide {})",
        env!("CARGO_PKG_VERSION"),
        monotable_store::ENGINE_VERSION
    );
    let _ = writeln!(out, "  data      {data}");
    let _ = writeln!(out, "  dynamodb  {dynamodb_url}");
    let _ = writeln!(
        out,
        "  connect   aws dynamodb list-tables --endpoint-url {dynamodb_url}"
    );
    let _ = writeln!(
        out,
        "            (any access key and region work; the engine does not check them)"
    );
    let _ = writeln!(
        out,
        "  shop      {api_url}   (table {table} {}; API at {api_url}/openapi.json)",
        if created { "created" } else { "found" }
    );
    let _ = writeln!(out, "  token     {token_hint}");
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

    // One signal stops both servers; each lets its running requests finish.
    let (stop, stopped) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown.wait().await;
        let _ = stop.send(true);
    });
    let wait = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|s| *s).await;
    };
    let api_server = axum::serve(api, router).with_graceful_shutdown(wait(stopped.clone()));
    let dynamodb_server = serve::serve_dynamodb(dynamodb, &engine, wait(stopped));
    let (api_result, dynamodb_result) = tokio::join!(api_server, dynamodb_server);
    api_result.context("the shop API failed")?;
    dynamodb_result?;
    drop(engine);
    println!("stopped; data is in {data}");
    Ok(ExitCode::SUCCESS)
}
