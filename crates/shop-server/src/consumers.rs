//! `serve`'s stream consumers: the shop's `productSales` delivered from the engine's own stream
//! by `monotable::stream::runner` (through the official DynamoDB Streams client on the
//! in-process connector; its checkpoint and failure file in `<data dir>/consumers/`, in memory
//! for `--in-memory`), run beside the listeners until Ctrl-C/SIGTERM, its counters on
//! `/metrics`.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use monotable::stream::{ConsumerSettings, Options};
use monotable_cli_common::serve::Local;
use monotable_connect::{DataLocation, Dynamo};
use monotable_shop::Shop;
use monotable_shop::sales::consumer::{self, Handler, ProductSalesConsumer};

/// Start every consumer the shop has on `local`'s engine; the banner's lines: one per consumer,
/// and one for faults injected (a test build only).
pub async fn start(local: &mut Local, shop: &Shop) -> anyhow::Result<Vec<(&'static str, String)>> {
    let data_dir = match local.engine().location() {
        DataLocation::Dir(dir) => Some(dir.clone()),
        DataLocation::Memory => None,
    };
    let options = Options {
        data_dir: data_dir.clone(),
        ..Options::default()
    };
    let handler = Arc::new(Handler::from_env().map_err(anyhow::Error::msg)?);
    let faults = handler.faults();
    let on_batch = {
        let shop = shop.clone();
        move |batch| {
            let (shop, handler) = (shop.clone(), handler.clone());
            async move { handler.handle(&shop, batch).await }
        }
    };
    let dynamo = Dynamo::embedded(local.engine().clone());
    let delivery =
        monotable::stream::runner(&dynamo, shop.db(), ProductSalesConsumer, on_batch, options)
            .await
            .with_context(|| format!("cannot start consumer {}", consumer::NAME))?;
    let mut lines = vec![("consumer", describe(delivery.settings(), data_dir))];
    lines.extend(faults.map(|f| ("faults", f)));
    local.run_consumer(
        consumer::NAME,
        delivery.metrics(),
        delivery.run(local.stop()),
    );
    Ok(lines)
}

/// `productSales   (OrderItem, Order: INSERT, MODIFY; batches of 100, 3 retries, bisect;
/// checkpoint in /srv/shop/consumers)`.
fn describe(settings: &ConsumerSettings, data_dir: Option<PathBuf>) -> String {
    let events: Vec<&str> = settings.events.iter().map(|e| e.as_str()).collect();
    let place = match data_dir {
        Some(dir) => std::path::absolute(&dir)
            .unwrap_or(dir)
            .join("consumers")
            .display()
            .to_string(),
        None => "memory".to_string(),
    };
    format!(
        "{}   ({}: {}; batches of {}, {} retries{}; checkpoint in {place})",
        settings.name,
        settings.entities.join(", "),
        events.join(", "),
        settings.batch_size,
        settings.retries,
        if settings.bisect_on_error {
            ", bisect"
        } else {
            ""
        },
    )
}
