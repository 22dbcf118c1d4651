//! What the shop's benches share: an in-memory engine with the shop's table, loaded with the
//! sample data (the same seed, so every bench and every design sees the same data).

use aws_sdk_dynamodb::Client;
use monotable_connect::Engine;
use monotable_shop::Shop;
use monotable_shop::auth::Auth;
use monotable_shop::sample::{self, SampleConfig};

/// The engine, an SDK client on it, and a shop over the table its crate's model describes,
/// holding `orders` sample orders (orders / 20 users, 500 products, 30 days, seed 42).
pub async fn loaded_shop(orders: usize) -> (Engine, Client, Shop) {
    let engine = Engine::memory().expect("engine");
    let client = monotable_connect::inprocess::client(engine.clone());
    let model = monotable_shop::model().expect("model");
    monotable::ensure_table(&client, &model)
        .await
        .expect("table");
    let shop = Shop::new(client.clone(), model, Auth::hs256(vec![]), vec![1; 32]);
    let config = SampleConfig {
        users: (orders / 20).clamp(10, 50_000),
        products: 500,
        orders,
        days: 30,
        end: time::macros::datetime!(2026-11-30 12:00 UTC),
        seed: 42,
    };
    sample::load(&shop, &config, &|_| {}).await.expect("load");
    (engine, client, shop)
}
