//! Designs with one defect each: verify must fail the pattern the defect breaks, and only it.

use monotable_verify::{VerifyReport, verify_source};

const HEAD: &str = r#"
[table]
name = "Mutants"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[indexes.GSI1]
partition_key = { name = "GSI1PK" }
sort_key = { name = "GSI1SK" }
"#;

async fn verify(body: &str) -> VerifyReport {
    let source = format!("{HEAD}{body}");
    verify_source("mutant.toml", &source, 5)
        .await
        .expect("verify runs")
}

fn failed(report: &VerifyReport) -> Vec<&str> {
    report.failures().map(|p| p.name.as_str()).collect()
}

const ORDER: &str = r#"
[entities.Order]
attributes.orderId = { type = "string", required = true }
attributes.customerId = { type = "string", required = true }
attributes.createdAt = { type = "timestamp", format = "epoch-millis", required = true }
keys.PK = "ORDER#{orderId}"
keys.SK = "ORDER"
keys.GSI1PK = "CUST#{customerId}"
keys.GSI1SK = "{createdAt}"

[patterns.getOrder]
operation = "GetItem"
key = { PK = "ORDER#{orderId}", SK = "ORDER" }
returns = ["Order"]
"#;

#[tokio::test]
async fn a_prefix_no_entity_writes_is_caught() {
    let report = verify(&format!(
        r#"{ORDER}
[patterns.byCustomer]
operation = "Query"
index = "GSI1"
key = {{ GSI1PK = "CUSTOMER#{{customerId}}" }}
returns = ["Order"]
"#
    ))
    .await;
    assert_eq!(failed(&report), ["byCustomer"], "{}", report.render_human());
    let p = report.failures().next().expect("one failure");
    assert!(
        p.message.starts_with("expected an Order, got none"),
        "{}",
        p.message
    );
    assert!(p.request.contains("GSI1PK = \"CUSTOMER#"), "{}", p.request);
}

#[tokio::test]
async fn a_range_in_another_timestamp_format_returns_nothing() {
    let report = verify(&format!(
        r#"{ORDER}
[patterns.byCustomerInRange]
operation = "Query"
index = "GSI1"
key = {{ GSI1PK = "CUST#{{customerId}}", GSI1SK = "between({{from}}, {{to}})" }}
params.from = {{ type = "timestamp", format = "rfc3339-utc-millis" }}
params.to = {{ type = "timestamp", format = "rfc3339-utc-millis" }}
returns = ["Order"]

[patterns.byCustomerSince]
operation = "Query"
index = "GSI1"
key = {{ GSI1PK = "CUST#{{customerId}}", GSI1SK = ">= {{from}}" }}
params.from = {{ type = "timestamp", format = "epoch-millis" }}
returns = ["Order"]
"#
    ))
    .await;
    assert_eq!(
        failed(&report),
        ["byCustomerInRange"],
        "{}",
        report.render_human()
    );
}

#[tokio::test]
async fn an_unlisted_entity_in_the_collection_is_caught() {
    let report = verify(
        r#"
[entities.User]
attributes.userId = { type = "string", required = true }
keys.PK = "USER#{userId}"
keys.SK = "PROFILE"

[entities.Session]
attributes.userId = { type = "string", required = true }
attributes.sessionId = { type = "string", required = true }
keys.PK = "USER#{userId}"
keys.SK = "SESSION#{sessionId}"
relations = []

[patterns.userSessions]
operation = "Query"
key = { PK = "USER#{userId}", SK = "begins_with(SESSION#)" }
returns = ["Session"]

[patterns.userCollection]
operation = "Query"
key = { PK = "USER#{userId}" }
returns = ["User"]
"#,
    )
    .await;
    assert_eq!(
        failed(&report),
        ["userCollection"],
        "{}",
        report.render_human()
    );
    let p = report.failures().next().expect("one failure");
    assert!(
        p.message
            .contains("a Session, which `returns` does not list"),
        "{}",
        p.message
    );
}

#[tokio::test]
async fn a_unique_pattern_over_shared_values_is_caught() {
    let report = verify(
        r#"
[entities.Product]
attributes.productId = { type = "string", required = true }
attributes.category = { type = "string", required = true }
attributes.published = { type = "boolean", required = true }
keys.PK = "PRODUCT#{productId}"
keys.SK = "PRODUCT"
keys.GSI1PK = "CATEGORY#{category}"
keys.GSI1SK = "PRODUCT#{productId}"
key_conditions = { GSI1PK = "published", GSI1SK = "published" }

[patterns.productOfCategory]
operation = "Query"
index = "GSI1"
key = { GSI1PK = "CATEGORY#{category}" }
returns = ["Product"]
unique = true

[patterns.publishedInCategory]
operation = "Query"
index = "GSI1"
key = { GSI1PK = "CATEGORY#{category}", GSI1SK = "begins_with(PRODUCT#)" }
returns = ["Product"]
"#,
    )
    .await;
    assert_eq!(
        failed(&report),
        ["productOfCategory"],
        "{}",
        report.render_human()
    );
}

#[tokio::test]
async fn scans_and_batch_gets_run() {
    let report = verify(&format!(
        r#"{ORDER}
[patterns.everything]
operation = "Scan"
returns = ["Order"]

[patterns.someOrders]
operation = "BatchGet"
key = {{ PK = "ORDER#{{orderId}}", SK = "ORDER" }}
returns = ["Order"]
"#
    ))
    .await;
    assert!(report.passed(), "{}", report.render_human());
    let items = |name: &str| {
        report
            .patterns
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.items)
    };
    assert_eq!(items("everything"), Some(8));
    assert!(
        items("someOrders").is_some_and(|n| n >= 1),
        "{}",
        report.render_human()
    );
}

/// A native index keyed on (game, season N) HASH and points N RANGE.
const NATIVE: &str = r#"
version = 1
[table]
name = "Mutants"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[indexes.ByBoard]
kind = "global"
partition_key = [{ name = "game", type = "S" }, { name = "season", type = "N" }]
sort_key = [{ name = "points", type = "N" }]

[entities.Score]
attributes.scoreId = { type = "string", required = true }
attributes.game = { type = "string", required = true }
attributes.season = { type = "integer", required = true }
attributes.points = { type = "integer", required = true }
keys.PK = "SCORE#{scoreId}"
keys.SK = "SCORE"
"#;

async fn verify_native(body: &str) -> VerifyReport {
    let source = format!("{NATIVE}{body}");
    verify_source("native-mutant.toml", &source, 5)
        .await
        .expect("verify runs")
}

#[tokio::test]
async fn an_entity_lacking_a_native_key_attribute_is_never_in_the_index() {
    let report = verify_native(
        r#"
[entities.Draft]
attributes.draftId = { type = "string", required = true }
attributes.game = { type = "string", required = true }
attributes.season = { type = "integer", required = true }
keys.PK = "DRAFT#{draftId}"
keys.SK = "DRAFT"

[patterns.board]
operation = "Query"
index = "ByBoard"
key = { game = "{game}", season = "{season}" }
returns = ["Score", "Draft"]
"#,
    )
    .await;
    assert_eq!(failed(&report), ["board"], "{}", report.render_human());
    let p = report.failures().next().expect("one failure");
    assert!(
        p.message.starts_with("expected a Draft, got none"),
        "{}",
        p.message
    );
    assert!(
        p.request.contains("game = ") && p.request.contains(" AND season = "),
        "{}",
        p.request
    );
}

#[tokio::test]
async fn a_unique_pattern_over_a_native_partition_is_caught() {
    let report = verify_native(
        r#"
[patterns.board]
operation = "Query"
index = "ByBoard"
key = { game = "{game}", season = "{season}" }
returns = ["Score"]

[patterns.top]
operation = "Query"
index = "ByBoard"
key = { game = "{game}", season = "{season}" }
returns = ["Score"]
unique = true
"#,
    )
    .await;
    assert_eq!(failed(&report), ["top"], "{}", report.render_human());
}
