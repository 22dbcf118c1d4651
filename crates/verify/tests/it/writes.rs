//! The write checks: every write pattern of the clean designs (the shop on synthetic and native
//! keys, the `monotable new` template, the shop's change) runs and passes, none skipped; each
//! design in `tests/write-defects` has one family of write defect planted, which verify fails
//! naming it, and only where it is.

use std::path::PathBuf;

use monotable_verify::report::CheckKind;
use monotable_verify::{PatternResult, VerifyReport, verify_source};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

async fn verify_text(name: &str, source: &str) -> VerifyReport {
    verify_source(name, source, 1).await.expect("verify runs")
}

async fn verify_file(path: PathBuf) -> VerifyReport {
    let source = std::fs::read_to_string(&path).expect("readable model");
    verify_text(&path.display().to_string(), &source).await
}

async fn defect(name: &str) -> VerifyReport {
    verify_file(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/write-defects")
            .join(name),
    )
    .await
}

fn failed(report: &VerifyReport) -> Vec<&str> {
    report.failures().map(|p| p.name.as_str()).collect()
}

fn pattern<'r>(report: &'r VerifyReport, name: &str) -> &'r PatternResult {
    report
        .patterns
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("{name} is reported"))
}

/// The failed checks of `name` of `kind`, their details.
fn failures<'r>(report: &'r VerifyReport, name: &str, kind: CheckKind) -> Vec<&'r str> {
    pattern(report, name)
        .checks
        .iter()
        .filter(|c| !c.passed && c.kind == kind)
        .map(|c| c.detail.as_str())
        .collect()
}

/// Every write pattern ran (none skipped) and every check held.
fn all_writes_pass(report: &VerifyReport) {
    let shown = report.render_human();
    assert!(report.passed(), "{shown}");
    assert_eq!(report.counts().2, 0, "nothing skipped:\n{shown}");
    for p in report.patterns.iter().filter(|p| !p.checks.is_empty()) {
        assert!(p.checks.iter().all(|c| c.passed), "{}: {shown}", p.name);
        assert!(
            p.checks
                .iter()
                .any(|c| c.kind == CheckKind::Cleanup && c.passed),
            "{} cleans up",
            p.name
        );
    }
}

#[tokio::test]
async fn the_shop_runs_every_write_and_passes() {
    for file in ["examples/shop/shop.toml", "examples/shop/shop-native.toml"] {
        let report = verify_file(root().join(file)).await;
        all_writes_pass(&report);
        let create = pattern(&report, "createOrder");
        let kinds: Vec<CheckKind> = create.checks.iter().map(|c| c.kind).collect();
        for kind in [
            CheckKind::Effect,
            CheckKind::Reads,
            CheckKind::Condition,
            CheckKind::Atomicity,
        ] {
            assert!(kinds.contains(&kind), "{file}: {kind:?} in {kinds:?}");
        }
        let named = create.checks.iter().any(|c| {
            c.detail.contains("takeStock: `stock >= {quantity}`")
                && c.detail
                    .contains("refused as `takeStock` ConditionFailed `stock >= {quantity}`")
        });
        assert!(named, "{file}: {:#?}", create.checks);
        let change = pattern(&report, "changeEmail");
        let unique: Vec<&str> = change
            .checks
            .iter()
            .filter(|c| c.kind == CheckKind::Unique)
            .map(|c| c.detail.as_str())
            .collect();
        assert!(
            unique
                .iter()
                .any(|d| d.contains("is gone: its value is free again"))
                && unique
                    .iter()
                    .any(|d| d.contains("refused as `claimEmail` AlreadyExists")),
            "{file}: {unique:?}"
        );
        // A status change moves the order out of its old status partition.
        let status = pattern(&report, "updateOrderStatus");
        assert!(
            status
                .checks
                .iter()
                .any(|c| c.kind == CheckKind::Reads && c.detail.contains("listOrdersByStatus")),
            "{file}: {:#?}",
            status.checks
        );
    }
}

#[tokio::test]
async fn the_template_and_the_shops_change_run_every_write_and_pass() {
    let template = std::fs::read_to_string(root().join("crates/cli/templates/new/model.toml"))
        .expect("template")
        .replace("{{table}}", "TodoTable")
        .replace("{{name}}", "todo");
    all_writes_pass(&verify_text("model.toml", &template).await);
    all_writes_pass(
        &verify_file(root().join("examples/shop/changes/orders-by-product.toml")).await,
    );
}

#[tokio::test]
async fn the_seed_design_runs_every_write() {
    let report = verify_file(root().join("examples/seed-original/model.toml")).await;
    assert_eq!(report.counts().2, 0, "{}", report.render_human());
    // Its order lines are not where its order read looks.
    let misses = failures(&report, "createOrderWithItems", CheckKind::Reads);
    assert!(
        misses
            .iter()
            .any(|d| d.starts_with("read-back: getOrderWithItems")),
        "{misses:?}"
    );
}

#[tokio::test]
async fn a_delete_that_leaves_a_guard_behind_fails() {
    let report = defect("delete-leaves-guard.toml").await;
    assert_eq!(failed(&report), ["deleteUser"], "{}", report.render_human());
    let p = pattern(&report, "deleteUser");
    assert!(
        p.message
            .starts_with("unique: deleteUser leaves the guard EmailGuard EMAIL#"),
        "{}",
        p.message
    );
    assert!(
        p.request.starts_with("DeleteItem User (PK=USER#"),
        "{}",
        p.request
    );
    assert!(!failures(&report, "deleteUser", CheckKind::Unique).is_empty());
}

#[tokio::test]
async fn an_update_that_does_not_move_its_guard_fails() {
    let report = defect("guard-does-not-move.toml").await;
    assert_eq!(
        failed(&report),
        ["switchEmail", "updateEmail"],
        "{}",
        report.render_human()
    );
    let update = failures(&report, "updateEmail", CheckKind::Unique);
    assert!(
        update.iter().any(|d| d.contains("has no guard EmailGuard"))
            && update
                .iter()
                .any(|d| d.contains("leaves the guard EmailGuard")),
        "{update:?}"
    );
    let switch = failures(&report, "switchEmail", CheckKind::Unique);
    assert!(
        switch
            .iter()
            .any(|d| d.starts_with("switchEmail leaves the guard")),
        "{switch:?}"
    );
}

#[tokio::test]
async fn an_update_whose_sets_leave_an_index_key_stale_fails() {
    let report = defect("stale-index-key.toml").await;
    assert_eq!(
        failed(&report),
        ["publish", "setStatus"],
        "{}",
        report.render_human()
    );
    let status = &pattern(&report, "setStatus").message;
    assert!(
        status.contains("re-renders index key `GSI1PK`, which also needs `shard`"),
        "{status}"
    );
    let publish = &pattern(&report, "publish").message;
    assert!(
        publish.contains("index key `GSI2SK`, which also needs `published`"),
        "{publish}"
    );
    // Listing both inputs moves the order between status partitions.
    let moved = pattern(&report, "moveOrder");
    assert!(
        moved
            .checks
            .iter()
            .any(|c| c.kind == CheckKind::Reads && c.passed && c.detail.contains("byStatus")),
        "{:#?}",
        moved.checks
    );
}

#[tokio::test]
async fn a_condition_that_does_not_protect_what_it_says_fails() {
    let report = defect("condition-unprotected.toml").await;
    assert_eq!(
        failed(&report),
        ["addTask", "checkList", "renameProduct"],
        "{}",
        report.render_human()
    );
    let check = failures(&report, "checkList", CheckKind::Effect);
    assert!(
        check
            .iter()
            .any(|d| d.contains("refused although every clause holds: `checkList` NotFound"))
            && check
                .iter()
                .any(|d| d.contains("the pattern's key is PK = \"LIST#")
                    && d.contains("SK = \"META\"")),
        "{check:?}"
    );
    let rename = &pattern(&report, "renameProduct").message;
    assert!(
        rename.starts_with("condition: renameProduct changes Product but not `version`, which `version(version)` of replaceProduct relies on"),
        "{rename}"
    );
}

#[tokio::test]
async fn a_transaction_whose_read_back_misses_its_own_item_fails() {
    let report = defect("read-back-misses.toml").await;
    let shown = report.render_human();
    for (name, read, missed) in [
        ("createOrder", "getOrderWithItems", "OrderLine LINE#"),
        ("checkout", "userActivity", "Payment PAYMENT#"),
    ] {
        let reads = failures(&report, name, CheckKind::Reads);
        assert!(
            reads.iter().any(|d| d
                .starts_with(&format!("read-back: {read} with the values of Order"))
                && d.contains(&format!("misses {missed}"))),
            "{name}: {reads:?}\n{shown}"
        );
    }
    // The single puts are fine on their own.
    for name in ["placeOrder", "addLine", "recordPayment"] {
        assert!(pattern(&report, name).passed, "{name}: {shown}");
    }
}

#[tokio::test]
async fn the_json_report_lists_each_write_check() {
    let report = verify_file(root().join("examples/shop/shop.toml")).await;
    let json: serde_json::Value = serde_json::from_str(&report.render_json()).expect("json");
    let patterns = json["patterns"].as_array().expect("patterns");
    let register = patterns
        .iter()
        .find(|p| p["name"] == "registerUser")
        .expect("registerUser");
    let checks = register["checks"].as_array().expect("checks");
    let kinds: Vec<&str> = checks.iter().filter_map(|c| c["kind"].as_str()).collect();
    for kind in [
        "effect",
        "reads",
        "condition",
        "unique",
        "atomicity",
        "cleanup",
    ] {
        assert!(kinds.contains(&kind), "{kind} in {kinds:?}");
    }
    assert!(
        checks
            .iter()
            .all(|c| c["passed"] == true && c["detail"].is_string())
    );
    assert_eq!(json["summary"]["skipped"], 0);
}

/// An update listing attributes that hold one live value (a shard of `cardinality = 1`, an enum
/// of one value) sends them again as they are, so the index key they feed is rendered again: the
/// write passes, none skipped.
#[tokio::test]
async fn an_update_sets_again_what_holds_one_value() {
    let model = r#"
version = 1

[table]
name = "Orders"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "SK", type = "S" }

[indexes.GSI1]
partition_key = { name = "GSI1PK", type = "S" }
sort_key = { name = "GSI1SK", type = "S" }

[entities.Order]
attributes.orderId = { type = "string", required = true }
attributes.status = { type = "enum", values = ["OPEN", "PAID"], required = true }
attributes.shard = { type = "integer", required = true, cardinality = 1 }
attributes.region = { type = "enum", values = ["EU"], required = true }
keys.PK = "ORDER#{orderId}"
keys.SK = "ORDER"
keys.GSI1PK = "STATUS#{status}#{region}#{shard}"
keys.GSI1SK = "ORDER#{orderId}"

[patterns.getOrder]
operation = "GetItem"
key = { PK = "ORDER#{orderId}", SK = "ORDER" }
returns = ["Order"]

[patterns.byStatus]
operation = "Query"
index = "GSI1"
key = { GSI1PK = "STATUS#{status}#{region}#{shard}" }
returns = ["Order"]

[patterns.setStatus]
operation = "UpdateItem"
key = { PK = "ORDER#{orderId}", SK = "ORDER" }
returns = ["Order"]
sets = ["status", "region", "shard"]
"#;
    let report = verify_text("one-value.toml", model).await;
    all_writes_pass(&report);
    assert!(
        !pattern(&report, "setStatus").checks.is_empty(),
        "{}",
        report.render_human()
    );
}
