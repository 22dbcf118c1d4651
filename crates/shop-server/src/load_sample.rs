//! `monotable-shop load-sample`: realistic shop data (users, products, orders over months in every
//! status) into the shop's table, with a progress bar.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use monotable_shop::Shop;
use monotable_shop::auth::Auth;
use monotable_shop::sample::{self, SampleConfig};

use monotable_cli_common::connection::ConnectionArgs;

#[derive(Debug, Args)]
pub struct LoadSampleArgs {
    /// Users to create.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(0..=10_000_000))]
    users: u32,
    /// Products to create.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(0..=10_000_000))]
    products: u32,
    /// Orders to create (1 to 5 lines each).
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u32).range(0..=100_000_000))]
    orders: u32,
    /// Spread the orders over this many days up to now.
    #[arg(long, default_value_t = 180, value_parser = clap::value_parser!(i64).range(1..=3650))]
    days: i64,
    /// The same seed writes the same users, products and order shapes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub async fn run(args: LoadSampleArgs) -> anyhow::Result<ExitCode> {
    let backend = args.connection.backend();
    let dynamo = monotable_connect::connect(&backend).await?;
    dynamo.ping().await?;
    let model = monotable_shop::model().context("the shop's model does not parse")?;
    monotable_access::table::ensure_table(dynamo.client(), &model).await?;
    // Loading writes items directly; no token or cursor is ever signed here.
    let shop = Shop::new(
        dynamo.client().clone(),
        model,
        Auth::hs256(Vec::new()),
        Vec::new(),
    );
    let config = SampleConfig {
        users: args.users as usize,
        products: args.products as usize,
        orders: args.orders as usize,
        days: args.days,
        seed: args.seed,
        ..SampleConfig::default()
    };
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(sample::estimated_items(&config) as u64)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {wide_bar} {pos}/~{len} items  {per_sec}  eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // On the embedded engine, relax fsync for the load (a crash loses only the load).
    if let Some(engine) = dynamo.engine() {
        engine.set_bulk_loading(true)?;
    }
    let started = Instant::now();
    let loaded = sample::load(&shop, &config, &|n| bar.set_position(n as u64)).await;
    if let Some(engine) = dynamo.engine() {
        engine.set_bulk_loading(false)?;
    }
    let loaded = loaded?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    println!(
        "loaded {} users, {} products, {} orders: {} items in {:.2} s ({:.0} items/s) into {} on {backend}",
        loaded.users,
        loaded.products,
        loaded.orders,
        loaded.items,
        secs,
        loaded.items as f64 / secs.max(1e-9),
        shop.table(),
    );
    Ok(ExitCode::SUCCESS)
}
