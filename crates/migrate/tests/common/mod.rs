//! Shared by the migration tests: a table on the embedded engine (or MONOTABLE_TEST_ENDPOINT)
//! loaded with verify's sample data for a model, and a full scan of it.

#![allow(dead_code)]

use std::sync::OnceLock;

use aws_sdk_dynamodb::Client;
use monotable_access::items::Item;
use monotable_model::Model;

pub const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");
pub const ORDERS_BY_PRODUCT: &str =
    include_str!("../../../../examples/shop/changes/orders-by-product.toml");

pub fn model(source: &str) -> Model {
    monotable_model::parse(source).expect("a valid model")
}

/// A model with its table renamed, so each test has its own table.
pub fn named(source: &str, table: &str) -> Model {
    let renamed = source.replacen("name = \"Shop\"", &format!("name = \"{table}\""), 1);
    model(&renamed)
}

/// One runtime for every test in the binary.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime")
    })
}

/// A client: MONOTABLE_TEST_ENDPOINT when set, else a fresh in-memory engine.
pub async fn client() -> Client {
    let backend = match std::env::var("MONOTABLE_TEST_ENDPOINT") {
        Ok(url) => monotable_connect::Backend::Endpoint(url),
        Err(_) => monotable_connect::Backend::Embedded(monotable_connect::DataLocation::Memory),
    };
    let dynamo = monotable_connect::connect(&backend).await.expect("connect");
    let client = dynamo.client().clone();
    std::mem::forget(dynamo);
    client
}

/// The model's table, created fresh (an old one of the same name is deleted), with `seed`'s
/// sample data in it. Returns the samples' items.
pub async fn loaded(client: &Client, model: &Model, seed: u64) -> Vec<Item> {
    let _ = client
        .delete_table()
        .table_name(&model.table.name)
        .send()
        .await;
    monotable_access::table::ensure_table(client, model)
        .await
        .expect("table");
    let data = monotable_verify::generate(model, seed);
    let items: Vec<Item> = data.samples.into_iter().map(|s| s.item).collect();
    for item in &items {
        client
            .put_item()
            .table_name(&model.table.name)
            .set_item(Some(item.clone()))
            .send()
            .await
            .expect("put");
    }
    items
}

/// Every item of the table, sorted by primary key.
pub async fn scan(client: &Client, model: &Model) -> Vec<Item> {
    let table = monotable_access::Table::new(client.clone(), &model.table.name);
    let mut out = monotable_access::scan::Scan::new()
        .consistent(true)
        .all(&table)
        .await
        .expect("scan");
    let key = |i: &Item| {
        let text = |n: &str| {
            i.get(n)
                .and_then(monotable_access::value::template_text)
                .unwrap_or_default()
        };
        (text("PK"), text("SK"))
    };
    out.sort_by_key(key);
    out
}
