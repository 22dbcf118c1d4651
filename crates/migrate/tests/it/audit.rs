//! `audit` on the embedded engine: the shop's table loaded with `verify`'s generated data fits
//! its model; each kind of drift seeded into it is reported, named by the drift.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, TimeToLiveSpecification};
use monotable_access::items::Item;
use monotable_connect::Dynamo;
use monotable_migrate::audit::{AuditOptions, AuditReport, MIGRATION_ENTITY, ReportFormat, audit};
use monotable_model::{BillingMode, Model, ProjectionType};

const SEED: u64 = 7;

fn source() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/shop/shop.toml");
    std::fs::read_to_string(path).expect("the shop's model")
}

fn model() -> Model {
    monotable_model::parse(&source()).expect("the shop's model is valid")
}

/// An in-memory engine with the shop's table and every generated sample in it.
async fn loaded(model: &Model) -> Dynamo {
    let dynamo = monotable_connect::memory().expect("engine");
    monotable_access::table::ensure_table(dynamo.client(), model)
        .await
        .expect("table");
    let data = monotable_verify::generate(model, SEED);
    assert!(data.samples.len() > 20, "enough samples");
    for sample in &data.samples {
        put(dynamo.client(), sample.item.clone()).await;
    }
    dynamo
}

async fn put(client: &Client, item: Item) {
    client
        .put_item()
        .table_name("Shop")
        .set_item(Some(item))
        .send()
        .await
        .expect("put");
}

/// The first generated item of `entity`, as loaded.
fn sample_of(model: &Model, entity: &str) -> Item {
    monotable_verify::generate(model, SEED)
        .samples
        .into_iter()
        .find(|s| s.entity == entity)
        .expect("a sample of the entity")
        .item
}

/// The item of `entity` loaded first, changed by `change` and put back (at its new key, the
/// old one deleted, when the change moves it).
async fn rewrite(dynamo: &Dynamo, model: &Model, entity: &str, change: impl FnOnce(&mut Item)) {
    let old = sample_of(model, entity);
    let mut new = old.clone();
    change(&mut new);
    if old.get("PK") != new.get("PK") || old.get("SK") != new.get("SK") {
        dynamo
            .client()
            .delete_item()
            .table_name("Shop")
            .key("PK", old["PK"].clone())
            .key("SK", old["SK"].clone())
            .send()
            .await
            .expect("delete");
    }
    put(dynamo.client(), new).await;
}

async fn report(dynamo: &Dynamo, model: &Model, options: &AuditOptions) -> AuditReport {
    audit(model, dynamo.client(), options)
        .await
        .expect("audit runs")
        .with_source("shop.toml", &source())
}

/// The human report of a full audit.
async fn human(dynamo: &Dynamo, model: &Model) -> String {
    report(dynamo, model, &AuditOptions::default())
        .await
        .render(ReportFormat::Human)
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_string())
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.to_string())
}

#[tokio::test]
async fn a_clean_table_reports_nothing() {
    let model = model();
    let dynamo = loaded(&model).await;
    let report = report(&dynamo, &model, &AuditOptions::default()).await;
    assert!(
        !report.has_drift(),
        "{}",
        report.render(ReportFormat::Human)
    );
    let loaded = monotable_verify::generate(&model, SEED).samples.len() as u64;
    assert_eq!(report.items_scanned(), loaded);
    assert_eq!(report.entity_counts().values().sum::<u64>(), loaded);
    assert!(report.sample().is_none());
    insta::assert_snapshot!(report.render(ReportFormat::Human));
}

#[tokio::test]
async fn a_sample_reads_about_as_many_items_as_asked_and_says_so() {
    let model = model();
    let dynamo = loaded(&model).await;
    let options = AuditOptions {
        sample: Some(10),
        ..AuditOptions::default()
    };
    let report = report(&dynamo, &model, &options).await;
    assert!(!report.has_drift());
    let sample = report.sample().expect("sampled");
    assert_eq!(sample.requested, 10);
    assert!(report.items_scanned() >= 10, "{}", report.items_scanned());
    assert!(sample.segments_read > 0 && sample.segments_read <= 1000);
    assert!(
        report
            .render(ReportFormat::Human)
            .contains("audited a sample of "),
        "{}",
        report.render(ReportFormat::Human)
    );
}

#[tokio::test]
async fn missing_entity_type() {
    let model = model();
    let dynamo = loaded(&model).await;
    rewrite(&dynamo, &model, "Order", |item| {
        item.remove("entityType");
    })
    .await;
    insta::assert_snapshot!(human(&dynamo, &model).await);
}

#[tokio::test]
async fn unknown_entity_type() {
    let model = model();
    let dynamo = loaded(&model).await;
    rewrite(&dynamo, &model, "User", |item| {
        item.insert("entityType".into(), s("Customer"));
    })
    .await;
    insta::assert_snapshot!(human(&dynamo, &model).await);
}

#[tokio::test]
async fn migration_records_are_counted_not_audited() {
    let model = model();
    let dynamo = loaded(&model).await;
    let record = Item::from([
        ("PK".to_string(), s("_MONOTABLE#MIGRATION")),
        ("SK".to_string(), s("CHECKPOINT#0")),
        ("entityType".to_string(), s(MIGRATION_ENTITY)),
    ]);
    put(dynamo.client(), record).await;
    let report = report(&dynamo, &model, &AuditOptions::default()).await;
    assert!(!report.has_drift());
    assert_eq!(report.migration_records(), 1);
    assert!(
        report
            .render(ReportFormat::Human)
            .contains("; 1 migration record not audited\n")
    );
}

#[tokio::test]
async fn table_key_not_its_render() {
    let model = model();
    let dynamo = loaded(&model).await;
    // An order line written before its sort key was zero-padded: ITEM#7, not ITEM#007.
    rewrite(&dynamo, &model, "OrderItem", |item| {
        let line = item["lineNo"].as_n().unwrap().clone();
        item.insert("SK".into(), s(&format!("ITEM#{line}")));
    })
    .await;
    insta::assert_snapshot!(human(&dynamo, &model).await);
}

#[tokio::test]
async fn stale_index_key() {
    let model = model();
    let dynamo = loaded(&model).await;
    // The status changed without its status index key.
    rewrite(&dynamo, &model, "Order", |item| {
        let next = match item["status"].as_s().unwrap().as_str() {
            "SHIPPED" => "DELIVERED",
            _ => "SHIPPED",
        };
        item.insert("status".into(), s(next));
    })
    .await;
    insta::assert_snapshot!(human(&dynamo, &model).await);
}

#[tokio::test]
async fn stale_index_key_as_json() {
    let model = model();
    let dynamo = loaded(&model).await;
    rewrite(&dynamo, &model, "Order", |item| {
        item.insert("day".into(), s("1999-12-31"));
    })
    .await;
    let report = report(&dynamo, &model, &AuditOptions::default()).await;
    let json = report.render(ReportFormat::Json);
    let doc: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(doc["summary"]["drift"], true);
    assert_eq!(doc["counts"]["MA013"], 1);
    insta::assert_snapshot!(json);
}

#[tokio::test]
async fn missing_index_key() {
    let model = model();
    let dynamo = loaded(&model).await;
    rewrite(&dynamo, &model, "Order", |item| {
        item.remove("GSI3PK");
        item.remove("GSI3SK");
    })
    .await;
    insta::assert_snapshot!(human(&dynamo, &model).await);
}

#[tokio::test]
async fn item_in_a_sparse_index_while_its_condition_is_false() {
    let model = model();
    let dynamo = loaded(&model).await;
    // Unpublished, its category key re-rendered, but still in the published index.
    let published = sample_of(&model, "Product");
    let id = published["productId"].as_s().unwrap().clone();
    let category = published["category"].as_s().unwrap().clone();
    rewrite(&dynamo, &model, "Product", |item| {
        item.insert("published".into(), AttributeValue::Bool(false));
        item.insert("GSI1SK".into(), s(&format!("PRODUCT#false#{id}")));
        item.insert("GSI1PK".into(), s(&format!("CATEGORY#{category}")));
        item.insert("GSI2PK".into(), s("PUBLISHED"));
        item.insert("GSI2SK".into(), s(&format!("PRODUCT#{id}")));
    })
    .await;
    insta::assert_snapshot!(human(&dynamo, &model).await);
}

#[tokio::test]
async fn index_key_the_entity_does_not_write() {
    let model = model();
    let dynamo = loaded(&model).await;
    rewrite(&dynamo, &model, "User", |item| {
        let user = item["userId"].as_s().unwrap().clone();
        item.insert("GSI1PK".into(), s(&format!("USER#{user}")));
    })
    .await;
    insta::assert_snapshot!(human(&dynamo, &model).await);
}

#[tokio::test]
async fn required_attribute_missing() {
    let model = model();
    let dynamo = loaded(&model).await;
    rewrite(&dynamo, &model, "Order", |item| {
        item.remove("currency");
    })
    .await;
    insta::assert_snapshot!(human(&dynamo, &model).await);
}

#[tokio::test]
async fn attribute_of_the_wrong_type() {
    let model = model();
    let dynamo = loaded(&model).await;
    rewrite(&dynamo, &model, "OrderItem", |item| {
        item.insert("stockTracked".into(), s("true"));
        item.insert("quantity".into(), s("2"));
    })
    .await;
    insta::assert_snapshot!(human(&dynamo, &model).await);
}

#[tokio::test]
async fn float_where_the_model_says_integer_or_decimal() {
    let model = model();
    let dynamo = loaded(&model).await;
    rewrite(&dynamo, &model, "OrderItem", |item| {
        item.insert("quantity".into(), n("2.5"));
        item.insert("lineTotal".into(), n("0.30000000000000004"));
    })
    .await;
    insta::assert_snapshot!(human(&dynamo, &model).await);
}

#[tokio::test]
async fn value_the_model_does_not_allow() {
    let model = model();
    let dynamo = loaded(&model).await;
    rewrite(&dynamo, &model, "User", |item| {
        item.insert("updatedAt".into(), s("2024-05-01 12:00:00"));
    })
    .await;
    rewrite(&dynamo, &model, "Order", |item| {
        // The status key follows the status, so only the status is wrong.
        let key = item["GSI2PK"].as_s().unwrap().clone();
        let shard = key.rsplit('#').next().unwrap().to_string();
        item.insert("status".into(), s("LOST"));
        item.insert("GSI2PK".into(), s(&format!("STATUS#LOST#{shard}")));
    })
    .await;
    insta::assert_snapshot!(human(&dynamo, &model).await);
}

#[tokio::test]
async fn value_over_a_model_bound() {
    let model = model();
    let dynamo = loaded(&model).await;
    rewrite(&dynamo, &model, "User", |item| {
        item.insert("name".into(), s(&"n".repeat(201)));
    })
    .await;
    rewrite(&dynamo, &model, "Order", |item| {
        item.insert("currency".into(), s("EURO"));
    })
    .await;
    insta::assert_snapshot!(human(&dynamo, &model).await);
}

#[tokio::test]
async fn many_findings_of_one_kind_are_shown_up_to_a_cap_and_counted() {
    let model = model();
    let dynamo = loaded(&model).await;
    for i in 0..25 {
        let item = Item::from([
            ("PK".to_string(), s(&format!("LEGACY#{i:02}"))),
            ("SK".to_string(), s("ROW")),
        ]);
        put(dynamo.client(), item).await;
    }
    let report = report(&dynamo, &model, &AuditOptions::default()).await;
    assert_eq!(report.problems(), 25);
    assert_eq!(report.untyped_items(), 25);
    let text = report.render(ReportFormat::Human);
    assert_eq!(text.matches("error[MA010]").count(), 20);
    assert!(
        text.contains("... and 5 more MA010 (missing-entity-type)"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&report.render(ReportFormat::Json)).unwrap();
    assert_eq!(json["counts"]["MA010"], 25);
    assert_eq!(json["findings"].as_array().unwrap().len(), 25);
}

#[tokio::test]
async fn table_described_otherwise_than_the_model() {
    let model = model();
    // The table as an older model made it: no GSI3, GSI1 keys only, an index since dropped from
    // the model, provisioned, and time to live on another attribute.
    let mut older = model.clone();
    older.indexes.retain(|i| i.name != "GSI3");
    let gsi1 = older.indexes.iter_mut().find(|i| i.name == "GSI1").unwrap();
    gsi1.projection = ProjectionType::KeysOnly;
    let mut dropped = gsi1.clone();
    dropped.name = "ByUser".into();
    older.indexes.push(dropped);
    older.table.billing_mode = BillingMode::Provisioned;
    older.table.ttl_attribute = None;
    let dynamo = monotable_connect::memory().expect("engine");
    monotable_access::table::ensure_table(dynamo.client(), &older)
        .await
        .expect("table");
    dynamo
        .client()
        .update_time_to_live()
        .table_name("Shop")
        .time_to_live_specification(
            TimeToLiveSpecification::builder()
                .attribute_name("ttl")
                .enabled(true)
                .build()
                .unwrap(),
        )
        .send()
        .await
        .expect("ttl");
    let report = report(&dynamo, &model, &AuditOptions::default()).await;
    assert_eq!(
        report.codes(),
        ["MA003", "MA005", "MA006", "MA007", "MA008"]
    );
    insta::assert_snapshot!(report.render(ReportFormat::Human));
}

#[tokio::test]
async fn table_with_another_key_or_none() {
    let model = model();
    let mut other = model.clone();
    other.table.sort_key = None;
    other.indexes.clear();
    let dynamo = monotable_connect::memory().expect("engine");
    monotable_access::table::ensure_table(dynamo.client(), &other)
        .await
        .expect("table");
    let report = report(&dynamo, &model, &AuditOptions::default()).await;
    assert!(
        report.codes().starts_with(&["MA002", "MA003"]),
        "{:?}",
        report.codes()
    );
    let options = AuditOptions {
        table: Some("Nowhere".into()),
        ..AuditOptions::default()
    };
    let missing = self::report(&dynamo, &model, &options).await;
    assert_eq!(missing.codes(), ["MA001"]);
    insta::assert_snapshot!(missing.render(ReportFormat::Human));
}
