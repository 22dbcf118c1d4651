//! `monotable serve`: the embedded engine as a DynamoDB endpoint and the shop's REST API, both on
//! loopback and private to this machine's programs, until Ctrl-C/SIGTERM.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;
use monotable_connect::capacity::{PARTITION_READ_UNITS, PARTITION_WRITE_UNITS, Settings};
use monotable_connect::serve::sigv4::Credentials;
use monotable_connect::serve::{DataGate, EndpointOptions, Guard, Limits};
use monotable_connect::{DataLocation, Engine, ServeError, serve};
use monotable_shop::auth::Auth;
use monotable_shop::{Shop, ShopOptions};

use crate::auth::AuthArgs;
use crate::connection::DataArgs;

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Address to listen on. The default keeps both endpoints on this machine; anything else lets
    /// whoever reaches it call them (use --auth for the DynamoDB endpoint then).
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
    #[command(flatten)]
    auth: AuthArgs,
    /// Let web pages from this origin call both endpoints (CORS), e.g. http://localhost:5173.
    /// Repeat for several. Pages from any other origin are refused.
    #[arg(long = "cors-origin", value_name = "ORIGIN")]
    cors_origins: Vec<String>,
    /// Accept this host name in the Host header besides loopback names and addresses (for a
    /// name that points at this machine). Repeat for several.
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_hosts: Vec<String>,
    /// Connections each listener serves at once; more wait until one closes.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    max_connections: u32,
    /// Seconds a connection has to send a complete request head (also how long an idle
    /// kept-alive connection stays open).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600), value_name = "SECONDS")]
    header_timeout: u64,
    /// Longest token lifetime the shop accepts, in seconds (`exp` from now, or from `iat`).
    #[arg(long, default_value_t = monotable_shop::auth::DEFAULT_MAX_LIFETIME_SECONDS, value_parser = clap::value_parser!(u64).range(60..=31_536_000), value_name = "SECONDS")]
    max_token_lifetime: u64,
    /// Longest date range `GET /orders?from&to` accepts, in days.
    #[arg(long, default_value_t = monotable_shop::orders::MAX_RANGE_DAYS, value_parser = clap::value_parser!(i64).range(1..=3660), value_name = "DAYS")]
    max_range_days: i64,
    /// Emulate DynamoDB's throughput limits on the embedded engine (per-partition limits,
    /// provisioned capacity and burst, on-demand scaling): requests over them fail as DynamoDB's
    /// do (ProvisionedThroughputExceededException), for the DynamoDB endpoint and the shop alike.
    /// GET /metrics on the API port reports what was consumed and throttled.
    #[arg(long, env = "MONOTABLE_CAPACITY", value_parser = clap::builder::BoolishValueParser::new())]
    capacity: bool,
    /// Divide every capacity limit by X, so a laptop can reach them (at 1000 a partition key
    /// takes 1 WCU/s and 3 RCU/s). Requires --capacity.
    #[arg(
        long,
        env = "MONOTABLE_CAPACITY_SCALE",
        default_value_t = 1.0,
        value_parser = parse_scale,
        requires = "capacity",
        value_name = "X"
    )]
    capacity_scale: f64,
}

fn parse_scale(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        Ok(_) => Err("must be a number above 0".to_string()),
        Err(e) => Err(e.to_string()),
    }
}

impl ServeArgs {
    /// The capacity emulator's settings, when --capacity asks for it.
    fn capacity(&self) -> Option<Settings> {
        self.capacity
            .then(|| Settings::default().scale(self.capacity_scale))
    }

    fn limits(&self) -> Limits {
        Limits {
            header_timeout: Duration::from_secs(self.header_timeout),
            max_connections: usize::try_from(self.max_connections).unwrap_or(usize::MAX),
            ..Limits::default()
        }
    }

    fn guard(&self, cors_methods: &'static str, refuse: serve::guard::Refuse) -> Guard {
        Guard {
            listen: self.host,
            hosts: self.allow_hosts.clone(),
            origins: self.cors_origins.clone(),
            cors_methods,
            refuse,
        }
    }
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

/// The shop over `engine`'s client, with the table created when missing.
async fn shop(
    args: &ServeArgs,
    engine: &Engine,
) -> anyhow::Result<(Shop, bool, crate::secret::Source)> {
    let model = monotable_shop::model().context("the shop's model does not parse")?;
    let client = monotable_connect::inprocess::client(engine.clone());
    let created = monotable_access::table::ensure_table(&client, &model).await?;
    let location = engine.location().clone();
    let (secret, source) = crate::secret::load(&location)?;
    let auth = Auth::Hs256 {
        secret: secret.clone(),
        max_lifetime: args.max_token_lifetime,
    };
    let shop = Shop::new(client, model, auth, Shop::cursor_key_from_secret(&secret)).with_options(
        ShopOptions {
            max_range_days: args.max_range_days,
            recreate_missing_table: true,
        },
    );
    Ok((shop, created, source))
}

pub async fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    // Listen for Ctrl-C/SIGTERM before saying "ready", so an early stop is a clean one.
    let shutdown = serve::Shutdown::install();
    let location = args.data.location();
    let auth = args.auth.credentials().await;
    let engine = Engine::open(&location)?;
    // One engine for both listeners: with --capacity, the emulating clone, so the DynamoDB
    // endpoint and the shop draw on the same limits and are counted together.
    let engine = match args.capacity() {
        Some(settings) => engine.with_capacity(settings),
        None => engine,
    };
    let dynamodb = bind(
        SocketAddr::new(args.host, args.dynamodb_port),
        "--dynamodb-port",
    )
    .await?;
    let api = bind(SocketAddr::new(args.host, args.api_port), "--api-port").await?;
    let dynamodb_url = format!("http://{}", dynamodb.local_addr().context("bound address")?);
    let api_url = format!("http://{}", api.local_addr().context("bound address")?);
    let (shop, created, secret_source) = shop(&args, &engine).await?;
    let table = shop.table().to_string();
    let banner = Banner {
        location: &location,
        dynamodb_url: &dynamodb_url,
        api_url: &api_url,
        table: &table,
        created,
        secret_source: &secret_source,
        auth: auth.as_ref(),
        args: &args,
    };
    banner.print(started);

    // One signal stops both servers; each lets its running requests finish.
    let (stop, stopped) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown.wait().await;
        let _ = stop.send(true);
    });
    let wait = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|s| *s).await;
    };
    let limits = args.limits();
    let shop_guard = args.guard("GET, POST, PUT, PATCH", monotable_shop::api::refuse);
    let gate = DataGate::new(auth.clone(), args.host);
    let router = monotable_shop::api::router(shop)
        .merge(crate::metrics::router(
            engine.capacity().cloned(),
            gate.clone(),
        ))
        .merge(ui_router(&engine, stopped.clone(), gate))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(shop_guard),
            serve::guard::guard,
        ));
    let api_server = serve::serve_router(
        api,
        router,
        &limits,
        monotable_shop::api::parse_error_body,
        wait(stopped.clone()),
    );
    let endpoint_guard = args.guard("GET, POST", serve::endpoint::refuse);
    let options = EndpointOptions { auth: auth.clone() };
    let dynamodb_server = serve::serve_dynamodb(
        dynamodb,
        &engine,
        options,
        endpoint_guard,
        &limits,
        wait(stopped),
    );
    let (api_result, dynamodb_result) = tokio::join!(api_server, dynamodb_server);
    api_result.context("the shop API failed")?;
    dynamodb_result?;
    drop(engine);
    println!("stopped; data is in {}", data_text(&location));
    Ok(ExitCode::SUCCESS)
}

/// `monotable ui` for the shop's model under `/ui` on the API port, its table view reading this
/// serve's engine (read-only) behind `gate`. Nothing is built until the page is first asked
/// for, so `serve` is ready as fast without it.
fn ui_router(
    engine: &Engine,
    stop: tokio::sync::watch::Receiver<bool>,
    gate: DataGate,
) -> axum::Router {
    let client = monotable_connect::inprocess::client(engine.clone());
    let ui = monotable_ui::Ui::new(
        monotable_ui::ModelSource::Text {
            path: "shop.toml".to_string(),
            text: monotable_shop::MODEL_SOURCE.to_string(),
        },
        monotable_ui::Options {
            seed: monotable_verify::DEFAULT_SEED,
            prefix: "/ui".to_string(),
            live: Some(
                monotable_ui::Live::new(client, "this serve's engine", false).with_gate(gate),
            ),
            stop,
        },
    );
    monotable_ui::router(ui)
}

fn data_text(location: &DataLocation) -> String {
    match location {
        DataLocation::Memory => "memory (nothing is kept after exit)".to_string(),
        DataLocation::Dir(dir) => std::path::absolute(dir)
            .unwrap_or_else(|_| dir.clone())
            .join(monotable_connect::DATABASE_FILE)
            .display()
            .to_string(),
    }
}

/// What `serve` says once it is ready.
struct Banner<'a> {
    location: &'a DataLocation,
    dynamodb_url: &'a str,
    api_url: &'a str,
    table: &'a str,
    created: bool,
    secret_source: &'a crate::secret::Source,
    auth: Option<&'a Credentials>,
    args: &'a ServeArgs,
}

impl Banner<'_> {
    fn print(&self, started: Instant) {
        let token_hint = match self.secret_source {
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
        let (dynamodb_url, api_url) = (self.dynamodb_url, self.api_url);
        let auth = match self.auth {
            Some(c) => format!(
                "SigV4 required (access key {}, region {}; clients set AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and that region)",
                c.access_key, c.region
            ),
            None => "none: any program on this machine can read and write every table (--auth KEY:SECRET requires SigV4); web pages are refused".to_string(),
        };
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "monotable {} — embedded DynamoDB engine (dynoxide {})",
            env!("CARGO_PKG_VERSION"),
            monotable_connect::ENGINE_VERSION
        );
        let _ = writeln!(out, "  data      {}", data_text(self.location));
        let _ = writeln!(out, "  dynamodb  {dynamodb_url}");
        let _ = writeln!(out, "  auth      {auth}");
        let _ = writeln!(
            out,
            "  connect   aws dynamodb list-tables --endpoint-url {dynamodb_url}"
        );
        let _ = writeln!(
            out,
            "  shop      {api_url}   (table {} {}; API at {api_url}/openapi.json)",
            self.table,
            if self.created { "created" } else { "found" }
        );
        let table_view = match DataGate::new(self.auth.cloned(), self.args.host) {
            DataGate::Open => "the shop's model and its table, read-only",
            DataGate::Signed(_) => {
                "the shop's model; its table, read-only, with the --auth key and secret"
            }
            DataGate::Off => "the shop's model; its table is off beyond loopback without --auth",
        };
        let _ = writeln!(out, "  ui        {api_url}/ui/   ({table_view})");
        let _ = writeln!(out, "  token     {token_hint}");
        if self.args.capacity {
            let scale = self.args.capacity_scale;
            let _ = writeln!(
                out,
                "  capacity  DynamoDB's throughput limits{} (a partition key: {} WCU/s, {} RCU/s); over them requests are throttled; metrics at {api_url}/metrics",
                if scale == 1.0 {
                    String::new()
                } else {
                    format!(" / {scale}")
                },
                PARTITION_WRITE_UNITS / scale,
                PARTITION_READ_UNITS / scale,
            );
        }
        if !self.args.host.is_loopback() {
            let _ = writeln!(
                out,
                "  warning   listening on {} — anyone who reaches it can call both endpoints",
                self.args.host
            );
        }
        let _ = writeln!(
            out,
            "ready in {} ms — Ctrl-C to stop",
            started.elapsed().as_millis()
        );
        let _ = out.flush();
    }
}
