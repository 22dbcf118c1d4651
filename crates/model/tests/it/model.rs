//! Parsing the examples, validation errors with line numbers, and key rendering through the model.

use std::collections::BTreeMap;

use monotable_model::{
    IssueKind, KeyTemplate, KeyTest, Operation, RenderError, line_col, parse, parse_condition,
};

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");
const SEED: &str = include_str!("../../../../examples/seed-original/model.toml");

fn values(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn examples_parse() {
    let shop = parse(SHOP).expect("shop parses");
    assert_eq!(shop.table.name, "Shop");
    assert_eq!(shop.indexes.len(), 3);
    assert!(shop.traffic.declared);
    let seed = parse(SEED).expect("seed parses");
    assert_eq!(seed.indexes.len(), 1);
    assert!(!seed.traffic.declared);
    let p = seed.pattern("listOrdersByDate").unwrap();
    assert_eq!(p.operation, Operation::Query);
    assert!(matches!(
        p.sk.as_ref().unwrap().condition,
        KeyTest::Between(..)
    ));
}

#[test]
fn shop_renders_the_keys_it_writes() {
    let model = parse(SHOP).unwrap();
    let order = model.entity("Order").unwrap();
    let v = values(&[
        ("orderId", "01HZX3"),
        ("userId", "u1"),
        ("status", "PAID"),
        ("createdAt", "2024-05-01T12:00:00.000Z"),
        ("day", "2024-05-01"),
        ("shard", "3"),
    ]);
    let get = |n: &str| v.get(n).cloned();
    let table = order.key(None).unwrap();
    assert_eq!(table.pk.template.render(&get).unwrap(), "ORDER#01HZX3");
    assert_eq!(
        table.sk.as_ref().unwrap().template.render(&get).unwrap(),
        "ORDER"
    );
    let gsi2 = order.key(Some("GSI2")).unwrap();
    assert_eq!(
        gsi2.sk.as_ref().unwrap().template.render(&get).unwrap(),
        "2024-05-01T12:00:00.000Z#01HZX3"
    );
    let keys = order.render_keys(&get).unwrap();
    assert!(keys.contains(&("GSI3PK".to_string(), "ORDERDAY#2024-05-01#3".to_string())));
    assert_eq!(order.render_primary_key(&get).unwrap().len(), 2);

    let item = model.entity("OrderItem").unwrap();
    let sk = &item.key(None).unwrap().sk.as_ref().unwrap().template;
    assert_eq!(sk.render(&|_| Some("7".into())).unwrap(), "ITEM#007");
    assert!(matches!(
        sk.render(&|_| None),
        Err(RenderError::MissingValue { .. })
    ));
    assert!(item.key(Some("GSI1")).is_none());

    // Sparse: GSI2 keys only while published.
    let product = model.entity("Product").unwrap();
    let draft = values(&[
        ("productId", "p1"),
        ("category", "c"),
        ("published", "false"),
    ]);
    let keys = product.render_keys(&|n| draft.get(n).cloned()).unwrap();
    assert!(keys.iter().all(|(k, _)| !k.starts_with("GSI2")));
    let live = values(&[
        ("productId", "p1"),
        ("category", "c"),
        ("published", "true"),
    ]);
    let keys = product.render_keys(&|n| live.get(n).cloned()).unwrap();
    assert!(keys.contains(&("GSI2PK".to_string(), "PUBLISHED".to_string())));
}

fn issue_lines(source: &str) -> Vec<(usize, IssueKind, String)> {
    let err = parse(source).expect_err("should fail");
    assert!(!err.issues.is_empty());
    err.issues
        .iter()
        .map(|i| {
            let line = i.span.as_ref().map_or(0, |s| line_col(source, s.start).0);
            (line, i.kind, i.message.clone())
        })
        .collect()
}

const BASE: &str = r#"[table]
name = "Things"
partition_key = { name = "PK" }
sort_key = { name = "SK" }
"#;

#[test]
fn syntax_errors_point_at_the_line() {
    let src = format!("{BASE}[entities.User\n");
    let issues = issue_lines(&src);
    assert_eq!(issues[0].0, 5);
    assert_eq!(issues[0].1, IssueKind::Syntax);
}

#[test]
fn unknown_fields_are_rejected() {
    let src = format!("{BASE}[entities.User]\nkey.PK = \"X\"\n");
    let issues = issue_lines(&src);
    assert_eq!(issues[0].1, IssueKind::Syntax);
    assert!(issues[0].2.contains("key"), "{issues:?}");
}

#[test]
fn reference_errors_point_at_the_line() {
    let src = format!(
        r#"{BASE}
[entities.User]
attributes.userId = {{ type = "string" }}
keys.PK = "USER#{{id}}"
keys.SK = "PROFILE"

[patterns.getUser]
operation = "GetItem"
key = {{ PK = "USER#{{userId}}", SK = "PROFILE" }}
returns = ["Person"]
"#
    );
    let issues = issue_lines(&src);
    assert!(
        issues
            .iter()
            .any(|(l, k, m)| *l == 8 && *k == IssueKind::UnknownReference && m.contains("`{id}`")),
        "{issues:?}"
    );
    assert!(
        issues
            .iter()
            .any(|(l, _, m)| *l == 14 && m.contains("Person")),
        "{issues:?}"
    );
}

#[test]
fn bad_templates_and_keys_are_reported() {
    let src = format!(
        r#"{BASE}
[entities.User]
attributes.userId = {{ type = "string" }}
keys.PK = "USER#{{userId"

[patterns.q]
operation = "Query"
key = {{ XX = "a" }}
"#
    );
    let issues = issue_lines(&src);
    assert!(
        issues
            .iter()
            .any(|(l, k, _)| *l == 8 && *k == IssueKind::InvalidTemplate),
        "{issues:?}"
    );
    assert!(
        issues
            .iter()
            .any(|(l, _, m)| *l == 12 && m.contains("`XX`")),
        "{issues:?}"
    );
    // Missing SK on the entity is reported at the entity header.
    assert!(
        issues
            .iter()
            .any(|(l, _, m)| *l == 6 && m.contains("sort key")),
        "{issues:?}"
    );
}

#[test]
fn conditions_parse() {
    let t = |s: &str| KeyTemplate::parse(s).unwrap();
    assert_eq!(
        parse_condition("PROFILE").unwrap(),
        KeyTest::Eq(t("PROFILE"))
    );
    assert_eq!(
        parse_condition("begins_with(ORDER#)").unwrap(),
        KeyTest::BeginsWith(t("ORDER#"))
    );
    assert_eq!(
        parse_condition("between(DATE#{a}, DATE#{b})").unwrap(),
        KeyTest::Between(t("DATE#{a}"), t("DATE#{b}"))
    );
    assert_eq!(parse_condition(">= {x}").unwrap(), KeyTest::Ge(t("{x}")));
    assert!(parse_condition("between(a)").is_err());
    assert!(parse_condition("begins_with(").is_err());
}

#[test]
fn index_key_types_are_kept_and_must_agree() {
    let source = |second: &str| {
        format!(
            r#"
version = 1
[table]
name = "Scores"
partition_key = {{ name = "PK", type = "S" }}
sort_key = {{ name = "SK", type = "N" }}
[indexes.GSIA]
partition_key = {{ name = "GPK", type = "S" }}
sort_key = {{ name = "GSK", type = "N" }}
[indexes.GSIB]
partition_key = {{ name = "GPK", type = "S" }}
sort_key = {{ name = "GSK", type = "{second}" }}
"#
        )
    };
    let model = monotable_model::parse(&source("N")).expect("consistent types parse");
    let a = model.index("GSIA").unwrap();
    assert_eq!(a.sort_key_type, Some(monotable_model::KeyAttributeType::N));
    assert_eq!(
        model.key_attribute_type("SK"),
        Some(monotable_model::KeyAttributeType::N)
    );
    assert_eq!(
        model.key_attribute_type("GPK"),
        Some(monotable_model::KeyAttributeType::S)
    );
    assert_eq!(model.key_attribute_type("nope"), None);
    let err = monotable_model::parse(&source("S")).expect_err("GSK is N in GSIA and S in GSIB");
    assert!(
        err.issues.iter().any(|i| i
            .message
            .contains("`GSK` of index `GSIB` is typed S here and N in index `GSIA`")),
        "{err:?}"
    );
}
