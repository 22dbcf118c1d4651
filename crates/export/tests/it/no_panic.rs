//! Property tests: no model makes an export panic, and the JSON exports are always valid JSON.

use monotable_export::{
    Capacity, MarkdownOptions, cloudformation, create_table_json, markdown_with, policy_statements,
    sam, ttl_spec,
};
use monotable_model::{
    BillingMode, IndexKind, KeyAttributeType, Model, Named, Operation, Pattern, ProjectionType,
};
use proptest::prelude::*;

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");
const SEED: &str = include_str!("../../../../examples/seed-original/model.toml");

fn shop() -> Model {
    match monotable_model::parse(SHOP) {
        Ok(model) => model,
        Err(e) => panic!("shop does not parse: {e:?}"),
    }
}

fn export_all(model: &Model) {
    for text in [create_table_json(model), cloudformation(model), sam(model)] {
        if let Err(e) = serde_json::from_str::<serde_json::Value>(&text) {
            panic!("invalid JSON ({e}):\n{text}");
        }
    }
    if let Some(ttl) = ttl_spec(model) {
        assert!(serde_json::from_str::<serde_json::Value>(&ttl).is_ok());
    }
    let hook = |p: &Pattern| {
        Some(Capacity {
            read: p.name.clone(),
            write: "|`".to_string(),
        })
    };
    let mut options = MarkdownOptions::default();
    options.check_results = Some("```\n| x |\n````");
    options.capacity = Some(&hook);
    let doc = markdown_with(model, &options);
    assert!(doc.ends_with('\n') && !doc.ends_with("\n\n"));
    policy_statements(model);
}

/// Names DynamoDB would refuse, and text that is special in JSON, Markdown or `Fn::Sub`.
fn nasty() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("${Table.Arn}".to_string()),
        Just("a|b`c``d".to_string()),
        Just("\"\\\n\r\t\u{0}".to_string()),
        Just("é😀".repeat(300)),
        "[A-Za-z0-9_.-]{1,12}",
        any::<String>(),
    ]
}

fn operation() -> impl Strategy<Value = Operation> {
    prop::sample::select(vec![
        Operation::GetItem,
        Operation::Query,
        Operation::BatchGet,
        Operation::Scan,
        Operation::PutItem,
        Operation::UpdateItem,
        Operation::DeleteItem,
        Operation::TransactWrite,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Models made by dropping lines of the shop and seed files: whatever still parses exports.
    #[test]
    fn models_from_dropped_lines(seed_file in any::<bool>(), keep in prop::collection::vec(prop::bool::weighted(0.97), 400)) {
        let source = if seed_file { SEED } else { SHOP };
        let text: String = source
            .lines()
            .zip(keep.iter().chain(std::iter::repeat(&true)))
            .filter(|(_, keep)| **keep)
            .map(|(line, _)| format!("{line}\n"))
            .collect();
        if let Ok(model) = monotable_model::parse(&text) {
            export_all(&model);
        }
    }

    /// The shop with arbitrary names, kinds, projections, operations and billing.
    #[test]
    fn shop_with_arbitrary_fields(
        table_name in nasty(),
        key_name in nasty(),
        index_names in prop::collection::vec(nasty(), 3),
        include in prop::collection::vec(nasty(), 0..4),
        local in any::<bool>(),
        provisioned in any::<bool>(),
        numeric in any::<bool>(),
        ttl in prop::option::of(nasty()),
        operations in prop::collection::vec(operation(), 14),
        pattern_index in prop::option::of(nasty()),
        description in nasty(),
    ) {
        let mut model = shop();
        model.table.name = table_name;
        model.table.ttl_attribute = ttl;
        if let Some(sk) = &mut model.table.sort_key {
            sk.name = key_name.clone();
            sk.ty = if numeric { KeyAttributeType::N } else { KeyAttributeType::B };
        }
        if provisioned {
            model.table.billing_mode = BillingMode::Provisioned;
        }
        for (index, name) in model.indexes.iter_mut().zip(index_names) {
            index.name = name;
            index.projection = ProjectionType::Include;
            index.include = include.clone();
            if local {
                index.kind = IndexKind::Local;
                index.sort_key = Some(key_name.clone());
            }
        }
        for (pattern, op) in model.patterns.iter_mut().zip(operations) {
            pattern.operation = op;
            pattern.description = Some(description.clone());
            if let Some(name) = &pattern_index {
                pattern.index = Some(Named { name: name.clone(), span: 0..0 });
            }
        }
        export_all(&model);
    }
}
