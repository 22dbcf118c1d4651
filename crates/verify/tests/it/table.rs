//! `verify_table`: the patterns over data already in a table. The shop's generated data loaded
//! into an engine table passes; the same data with a stale index key fails the pattern that
//! reads that index.

use std::path::PathBuf;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::items::Item;
use monotable_model::Model;
use monotable_verify::existing::MIGRATION_ENTITY;
use monotable_verify::{Source, VerifyReport, generate, verify_table};

fn shop() -> Model {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop/shop.toml");
    let source = std::fs::read_to_string(path).expect("readable model");
    monotable_model::parse(&source).expect("the shop parses")
}

async fn put(client: &Client, table: &str, item: Item) {
    client
        .put_item()
        .table_name(table)
        .set_item(Some(item))
        .send()
        .await
        .expect("item written");
}

/// The shop's table in a fresh engine, holding the samples of `seed` after `edit`, and a
/// migration's checkpoint item; the report of `verify_table` on it.
async fn verify_loaded(seed: u64, edit: impl Fn(&mut Item)) -> (VerifyReport, usize) {
    let model = shop();
    let dynamo = monotable_connect::memory().expect("engine");
    let client = dynamo.client();
    monotable_access::table::ensure_table(client, &model)
        .await
        .expect("table");
    let data = generate(&model, seed);
    for sample in &data.samples {
        let mut item = sample.item.clone();
        edit(&mut item);
        put(client, &model.table.name, item).await;
    }
    let checkpoint: Item = [
        ("PK", "_MIGRATION"),
        ("SK", "CHECKPOINT"),
        ("entityType", MIGRATION_ENTITY),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), AttributeValue::S(v.to_string())))
    .collect();
    put(client, &model.table.name, checkpoint).await;
    let report = verify_table(&model, client, seed)
        .await
        .expect("verify runs");
    (report, data.samples.len())
}

#[tokio::test]
async fn every_pattern_passes_on_the_shops_data_in_a_table() {
    for seed in [1, 5] {
        let (report, loaded) = verify_loaded(seed, |_| {}).await;
        assert!(report.passed(), "{}", report.render_human());
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
        assert_eq!(report.source, Source::Table);
        assert_eq!(report.items, loaded, "the checkpoint is no sample");
        let (passed, failed, skipped) = report.counts();
        assert_eq!(failed, 0);
        assert!(passed >= 9 && skipped >= 3, "{}", report.render_human());
        assert!(
            report
                .render_human()
                .starts_with(&format!("table Shop: {loaded} items read from the table")),
            "{}",
            report.render_human()
        );
    }
}

/// Every order's `GSI1PK` still in an old template's shape (`CUSTOMER#`, where the model now
/// writes `USER#`): the orders are in the index, but no user's listing finds them.
#[tokio::test]
async fn a_stale_index_key_fails_the_pattern_reading_that_index() {
    let stale = |item: &mut Item| {
        let entity = item.get("entityType").and_then(|v| v.as_s().ok());
        let is_order = entity.map(String::as_str) == Some("Order");
        if let (true, Some(AttributeValue::S(pk))) = (is_order, item.get("GSI1PK")) {
            let old = pk.replacen("USER#", "CUSTOMER#", 1);
            item.insert("GSI1PK".to_string(), AttributeValue::S(old));
        }
    };
    let (report, _) = verify_loaded(1, stale).await;
    let failed: Vec<&str> = report.failures().map(|p| p.name.as_str()).collect();
    assert_eq!(failed, ["listUserOrders"], "{}", report.render_human());
    let p = report.failures().next().expect("one failure");
    assert!(
        p.message.starts_with("expected an Order, got none"),
        "{}",
        p.message
    );
    assert!(p.request.contains("GSI1PK = \"USER#"), "{}", p.request);
}

#[tokio::test]
async fn a_table_that_does_not_exist_is_an_error() {
    let dynamo = monotable_connect::memory().expect("engine");
    let e = verify_table(&shop(), dynamo.client(), 1)
        .await
        .expect_err("no table");
    let message = e.to_string();
    assert!(
        message.starts_with("cannot scan table `Shop`: "),
        "{message}"
    );
}
