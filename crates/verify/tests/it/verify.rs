//! `verify` end to end: the shop passes, every passing lint fixture passes, the seed's original
//! design fails naming its broken patterns, and the seed makes runs reproducible.

use std::path::PathBuf;

use monotable_verify::{VerifyReport, verify_source};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

async fn verify_file(path: &PathBuf, seed: u64) -> VerifyReport {
    let source = std::fs::read_to_string(path).expect("readable model");
    verify_source(&path.display().to_string(), &source, seed)
        .await
        .expect("verify runs")
}

#[tokio::test]
async fn the_shop_passes() {
    let report = verify_file(&root().join("examples/shop/shop.toml"), 1).await;
    assert!(report.passed(), "{}", report.render_human());
    let (passed, failed, skipped) = report.counts();
    assert_eq!(failed, 0);
    assert!(passed >= 9, "{}", report.render_human());
    assert_eq!(
        skipped,
        0,
        "every write pattern runs:\n{}",
        report.render_human()
    );
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let range = report
        .patterns
        .iter()
        .find(|p| p.name == "listOrdersByStatusInRange")
        .expect("pattern reported");
    assert!(range.items > 0, "{}", report.render_human());
}

/// The shop on native multi-attribute keys: every read passes, the native patterns included, and
/// their requests send each equality and the sort condition in one key condition.
#[tokio::test]
async fn the_native_shop_passes() {
    let report = verify_file(&root().join("examples/shop/shop-native.toml"), 1).await;
    assert!(report.passed(), "{}", report.render_human());
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    for name in [
        "listOrdersByStatus",
        "listOrdersByStatusInRange",
        "listPublishedProductsByCategory",
    ] {
        let p = report
            .patterns
            .iter()
            .find(|p| p.name == name)
            .expect("pattern reported");
        assert!(p.passed && p.items > 0, "{name}: {}", report.render_human());
    }
    let range = report
        .patterns
        .iter()
        .find(|p| p.name == "listOrdersByStatusInRange")
        .expect("pattern reported");
    assert!(
        range.request.starts_with("Query ByStatus: status = ")
            && range.request.contains(" AND shard = ")
            && range.request.contains(" AND createdAt BETWEEN "),
        "{}",
        range.request
    );
}

#[tokio::test]
async fn the_same_seed_gives_the_same_report() {
    let path = root().join("examples/shop/shop.toml");
    let a = verify_file(&path, 99).await;
    let b = verify_file(&path, 99).await;
    assert_eq!(a, b);
    assert_eq!(a.render_json(), b.render_json());
    let c = verify_file(&root().join("examples/seed-original/model.toml"), 99).await;
    let d = verify_file(&root().join("examples/seed-original/model.toml"), 99).await;
    assert_eq!(c.render_human(), d.render_human());
}

#[tokio::test]
async fn the_seed_design_fails_naming_its_broken_patterns() {
    let path = root().join("examples/seed-original/model.toml");
    let report = verify_file(&path, 1).await;
    assert!(!report.passed());
    let failed: Vec<&str> = report.failures().map(|p| p.name.as_str()).collect();
    for name in ["getOrderWithItems", "listOrdersByDate", "getOrderById"] {
        assert!(
            failed.contains(&name),
            "{name} should fail:\n{}",
            report.render_human()
        );
    }
    for name in [
        "getUser",
        "getUserOrders",
        "getOrderItems",
        "listOrdersByStatus",
    ] {
        assert!(
            !failed.contains(&name),
            "{name} should pass:\n{}",
            report.render_human()
        );
    }
    let human = report.render_human();
    assert!(
        human.contains("FAIL getOrderWithItems (Query): expected an Order, got none"),
        "{human}"
    );
    assert!(
        human.contains("FAIL listOrdersByDate (Query): expected an Order, got none"),
        "{human}"
    );
    assert!(
        human.contains("request:  Query GSI1: GSI1PK = \"ORDERBYDATE\" AND GSI1SK BETWEEN"),
        "{human}"
    );
    assert!(
        human.contains("request:  Query table: PK = \"ORDER#"),
        "{human}"
    );
    assert!(
        human.lines().last().is_some_and(|l| l.contains("failed")),
        "{human}"
    );
    let json: serde_json::Value = serde_json::from_str(&report.render_json()).expect("json");
    assert_eq!(json["passed"], false);
}

#[tokio::test]
async fn an_invalid_model_is_an_error_naming_the_issue() {
    let err = verify_source("bad.toml", "[table]\nname = 1\n", 1)
        .await
        .expect_err("invalid");
    let text = err.to_string();
    assert!(text.starts_with("bad.toml: invalid model"), "{text}");
    assert!(text.contains("bad.toml:2:"), "{text}");
}

/// Seeds every correct design is verified with: each draws other sample values, other targets
/// and so other bounds. 16 by default, enough that a generator choosing bounds by luck fails
/// some; `VERIFY_SEEDS=150 cargo test -p monotable-verify --test it verify::` tries more.
fn seeds() -> std::ops::Range<u64> {
    let count = std::env::var("VERIFY_SEEDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(16);
    0..count
}

/// The correct designs: the shop (on synthetic and on native index keys), every passing lint
/// fixture with a read pattern, and the designs in `tests/designs` (numeric and binary sort keys,
/// ranges over keys that go on after the bounded value, native multi-attribute keys).
fn correct_designs() -> Vec<PathBuf> {
    let mut files = vec![
        root().join("examples/shop/shop.toml"),
        root().join("examples/shop/shop-native.toml"),
    ];
    let fixtures = root().join("crates/check/tests/fixtures");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .collect();
    dirs.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/designs"));
    for dir in dirs {
        for f in std::fs::read_dir(&dir).expect("directory") {
            let f = f.expect("entry").path();
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let correct = name.starts_with("pass") || dir.ends_with("designs");
            if correct && name.ends_with(".toml") {
                files.push(f);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .filter(|f| {
            let source = std::fs::read_to_string(f).expect("readable");
            let model = monotable_model::parse(&source).expect("a correct design parses");
            model.patterns.iter().any(|p| p.is_read())
        })
        .collect()
}

/// No seed may make a correct design fail, and every seed finds the seed design's four broken
/// patterns. The runs go two at a time (the machines this runs on have two cores).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_seed_fails_a_passing_model() {
    let files = correct_designs();
    assert!(files.len() >= 20, "only {} correct designs", files.len());
    let seed_design = root().join("examples/seed-original/model.toml");
    let mut runs = tokio::task::JoinSet::new();
    for seed in seeds() {
        for f in files.iter().chain([&seed_design]) {
            let f = f.clone();
            runs.spawn(async move { (verify_file(&f, seed).await, f, seed) });
        }
    }
    while let Some(done) = runs.join_next().await {
        let (report, file, seed) = done.expect("the run finishes");
        let shown = format!("{} seed {seed}:\n{}", file.display(), report.render_human());
        if file == seed_design {
            let failed: Vec<&str> = report.failures().map(|p| p.name.as_str()).collect();
            assert_eq!(
                failed,
                [
                    "createOrderWithItems",
                    "getOrderById",
                    "getOrderWithItems",
                    "listOrdersByDate",
                    "listPublishedProducts"
                ],
                "{shown}"
            );
        } else {
            assert!(report.passed(), "{shown}");
            assert!(report.counts().0 > 0, "nothing passed: {shown}");
        }
    }
}

#[tokio::test]
async fn every_model_in_the_repository_runs_without_panicking() {
    let mut files = vec![
        root().join("examples/shop/shop.toml"),
        root().join("examples/shop/shop-native.toml"),
        root().join("examples/seed-original/model.toml"),
    ];
    for rule in std::fs::read_dir(root().join("crates/check/tests/fixtures")).expect("fixtures") {
        let rule = rule.expect("entry").path();
        for f in std::fs::read_dir(&rule).expect("rule") {
            files.push(f.expect("entry").path());
        }
    }
    files.sort();
    for f in files {
        let source = std::fs::read_to_string(&f).expect("readable");
        // Failing fixtures may fail verification or not parse; either way a report or an error.
        match verify_source(&f.display().to_string(), &source, 3).await {
            Ok(report) => assert!(report.render_human().ends_with('\n')),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}
