//! `monotable-shop serve`: the shop's REST API on its own port beside the embedded engine's
//! DynamoDB endpoint (`monotable_cli_common::serve`, as `monotable serve` runs it), with the
//! shop's table created from its model, its stream consumers run from the engine's stream
//! ([`consumers`](crate::consumers)), `/metrics`, and `monotable ui` for the shop's model under
//! `/ui`; both listeners on loopback and private to this machine's programs, until
//! Ctrl-C/SIGTERM.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::Args;
use monotable_cli_common::serve::{EngineArgs, Listener, Local};
use monotable_connect::Engine;
use monotable_connect::serve::{self, DataGate};
use monotable_shop::auth::Auth;
use monotable_shop::{Shop, ShopOptions};

use crate::{consumers, secret};

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// Port of the shop's REST API (0 picks a free one and prints it).
    #[arg(
        long,
        env = "MONOTABLE_API_PORT",
        default_value_t = 3000,
        value_name = "PORT"
    )]
    api_port: u16,
    /// Longest token lifetime the shop accepts, in seconds (`exp` from now, or from `iat`).
    #[arg(long, default_value_t = monotable_shop::auth::DEFAULT_MAX_LIFETIME_SECONDS, value_parser = clap::value_parser!(u64).range(60..=31_536_000), value_name = "SECONDS")]
    max_token_lifetime: u64,
    /// Longest date range `GET /orders?from&to` accepts, in days.
    #[arg(long, default_value_t = monotable_shop::orders::MAX_RANGE_DAYS, value_parser = clap::value_parser!(i64).range(1..=3660), value_name = "DAYS")]
    max_range_days: i64,
    /// Run no stream consumer (the shop's `productSales`): the table keeps its stream, for a
    /// consumer run elsewhere to read from the DynamoDB endpoint.
    #[arg(long)]
    no_consumers: bool,
}

/// The shop over `engine`'s client, with the table created when missing; tokens may live
/// `max_lifetime` seconds.
async fn shop(
    engine: &Engine,
    max_lifetime: u64,
    options: ShopOptions,
) -> anyhow::Result<(Shop, bool, secret::Source)> {
    let model = monotable_shop::model().context("the shop's model does not parse")?;
    let client = monotable_connect::inprocess::client(engine.clone());
    let created = monotable_access::table::ensure_table(&client, &model).await?;
    let (secret, source) = secret::load(engine.location())?;
    let auth = Auth::Hs256 {
        secret: secret.clone(),
        max_lifetime,
    };
    let shop =
        Shop::new(client, model, auth, Shop::cursor_key_from_secret(&secret)).with_options(options);
    Ok((shop, created, source))
}

pub async fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let ServeArgs {
        engine,
        api_port,
        max_token_lifetime,
        max_range_days,
        no_consumers,
    } = args;
    let mut local = Local::open(engine).await?;
    let (api, api_url) = local.bind(api_port, "--api-port").await?;
    let options = ShopOptions {
        max_range_days,
        recreate_missing_table: true,
    };
    let (shop, created, secret_source) = shop(local.engine(), max_token_lifetime, options).await?;
    let consumer_lines = match no_consumers {
        true => vec![("consumer", "none (--no-consumers)".to_string())],
        false => consumers::start(&mut local, &shop).await?,
    };
    let table = shop.table().to_string();
    let table_view = match local.gate() {
        DataGate::Open => "the shop's model and its table, read-only",
        DataGate::Signed(_) => {
            "the shop's model; its table, read-only, with the --auth key and secret"
        }
        DataGate::Off => "the shop's model; its table is off beyond loopback without --auth",
    };
    let mut banner = local
        .banner(
            "monotable-shop",
            "the shop on the embedded DynamoDB engine",
            &api_url,
        )
        .line(
            "shop",
            format!(
                "{api_url}   (table {table} {}; API at {api_url}/openapi.json)",
                if created { "created" } else { "found" }
            ),
        )
        .line("ui", format!("{api_url}/ui/   ({table_view})"))
        .line("token", token_hint(&secret_source));
    for (label, line) in consumer_lines {
        banner = banner.line(label, line);
    }
    banner.print();

    let router = monotable_shop::api::router(shop)
        .merge(local.metrics(monotable_shop::api::refuse))
        .merge(ui_router(&local))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(local.guard("GET, POST, PUT, PATCH", monotable_shop::api::refuse)),
            serve::guard::guard,
        ));
    let api = Listener {
        listener: api,
        router,
        errors: monotable_shop::api::parse_error_body,
    };
    Ok(local.serve(axum::Router::new(), vec![api]).await?)
}

/// How to mint a token for this serve's shop.
fn token_hint(source: &secret::Source) -> String {
    match source {
        secret::Source::Env => {
            "monotable-shop token --user alice   (signed with MONOTABLE_JWT_SECRET)".to_string()
        }
        secret::Source::File(path) => format!(
            "monotable-shop token --user alice [--admin]   (secret in {})",
            path.display()
        ),
        secret::Source::Ephemeral => {
            "set MONOTABLE_JWT_SECRET to mint tokens for an in-memory serve".to_string()
        }
    }
}

/// `monotable ui` for the shop's model under `/ui` on the API port, its table view reading this
/// serve's engine (read-only) behind the endpoint's data gate. Nothing is built until the page
/// is first asked for, so `serve` is ready as fast without it.
fn ui_router(local: &Local) -> axum::Router {
    let client = monotable_connect::inprocess::client(local.engine().clone());
    let ui = monotable_ui::Ui::new(
        monotable_ui::ModelSource::Text {
            path: "shop.toml".to_string(),
            text: monotable_shop::MODEL_SOURCE.to_string(),
        },
        monotable_ui::UiOptions {
            seed: monotable_verify::DEFAULT_SEED,
            prefix: "/ui".to_string(),
            live: Some(
                monotable_ui::Live::new(client, "this serve's engine", false)
                    .with_gate(local.gate()),
            ),
            stop: local.stopped(),
        },
    );
    monotable_ui::router(ui)
}
