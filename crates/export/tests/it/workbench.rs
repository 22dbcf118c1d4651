//! NoSQL Workbench: golden export of the shop, and export → import round trips.

use monotable_export::workbench::{DEFAULT_DATE, SOURCE_BEGIN};
use monotable_export::{
    ExportError, ImportError, WorkbenchOptions, import_nosql_workbench,
    import_nosql_workbench_detailed, nosql_workbench,
};
use monotable_model::Model;
use serde_json::{Value, json};

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");
const SEED: &str = include_str!("../../../../examples/seed-original/model.toml");
const SHOP_NATIVE: &str = include_str!("../../../../examples/shop/shop-native.toml");

fn parse(source: &str) -> Model {
    match monotable_model::parse(source) {
        Ok(m) => m,
        Err(e) => panic!("model does not parse: {e:?}\n{source}"),
    }
}

/// What both tools hold: table, indexes, entity names and table key templates.
fn canonical(model: &Model) -> String {
    let mut out = format!(
        "table {} pk {}:{:?} sk {:?} billing {:?}\n",
        model.table.name,
        model.table.partition_key.name,
        model.table.partition_key.ty,
        model.table.sort_key.as_ref().map(|k| (&k.name, k.ty)),
        model.table.billing_mode,
    );
    for i in model
        .indexes
        .iter()
        .filter(|i| i.kind == monotable_model::IndexKind::Global)
    {
        out.push_str(&format!(
            "index {} {} {:?} {:?} {:?}\n",
            i.name, i.partition_key, i.sort_key, i.projection, i.include
        ));
    }
    for e in &model.entities {
        let keys = e.key(None).expect("table keys");
        out.push_str(&format!(
            "entity {} {} {:?}\n",
            e.name,
            keys.pk.template,
            keys.sk.as_ref().map(|k| k.template.to_string())
        ));
    }
    out
}

fn export(source: &str, data: &[Value], embed: bool) -> String {
    let mut options = WorkbenchOptions::default();
    options.embed_source = embed;
    nosql_workbench(&parse(source), source, data, &options)
        .expect("a model without native keys exports")
}

/// Without the embedded source, so the golden file shows the Workbench side only.
#[test]
fn shop_golden() {
    insta::assert_snapshot!("shop_nosql_workbench", export(SHOP, &[], false));
}

#[test]
fn source_is_embedded_in_the_description() {
    let doc: Value = serde_json::from_str(&export(SHOP, &[], true)).expect("json");
    let description = doc["ModelMetadata"]["Description"].as_str().expect("text");
    assert!(description.contains(SOURCE_BEGIN));
    assert!(description.contains(SHOP));
}

#[test]
fn round_trip_gives_back_the_source() {
    for source in [SHOP, SEED] {
        let json = export(source, &[], true);
        let imported = import_nosql_workbench_detailed(&json).expect("imports");
        assert!(imported.embedded, "{:?}", imported.warnings);
        assert_eq!(imported.source, source);
        assert!(imported.warnings.is_empty());
    }
}

#[test]
fn round_trip_without_embedded_source_keeps_table_indexes_and_entities() {
    for source in [SHOP, SEED] {
        let json = export(source, &[], false);
        assert!(!json.contains(SOURCE_BEGIN));
        let imported = import_nosql_workbench_detailed(&json).expect("imports");
        assert!(!imported.embedded);
        let rebuilt = parse(&imported.source);
        assert_eq!(canonical(&rebuilt), canonical(&parse(source)));
        // Exporting the rebuilt model gives the same Workbench table again, up to the
        // attributes the facets name.
        let again = import_nosql_workbench(&export(&imported.source, &[], false)).expect("imports");
        assert_eq!(canonical(&parse(&again)), canonical(&rebuilt));
    }
}

#[test]
fn edits_in_workbench_take_precedence() {
    let mut doc: Value = serde_json::from_str(&export(SHOP, &[], true)).expect("json");
    doc["DataModel"][0]["GlobalSecondaryIndexes"]
        .as_array_mut()
        .expect("gsis")
        .push(json!({
            "IndexName": "GSI4",
            "KeyAttributes": {
                "PartitionKey": { "AttributeName": "GSI4PK", "AttributeType": "S" },
            },
            "Projection": { "ProjectionType": "KEYS_ONLY" },
        }));
    let imported = import_nosql_workbench_detailed(&doc.to_string()).expect("imports");
    assert!(!imported.embedded);
    assert!(
        imported.warnings[0].contains("index `GSI4` was added"),
        "{:?}",
        imported.warnings
    );
    let model = parse(&imported.source);
    assert!(model.index("GSI4").is_some());
    assert_eq!(model.entities.len(), parse(SHOP).entities.len());
}

#[test]
fn table_data_goes_to_the_matching_facet() {
    let user = json!({
        "PK": {"S": "USER#01HZX3"}, "SK": {"S": "PROFILE"}, "name": {"S": "Ada"},
    });
    let item = json!({
        "PK": {"S": "ORDER#01HZX4"}, "SK": {"S": "ITEM#007"}, "quantity": {"N": "2"},
    });
    let stray = json!({ "PK": {"S": "NOPE"}, "SK": {"S": "NOPE"} });
    let json = export(SHOP, &[user.clone(), item.clone(), stray], true);
    let doc: Value = serde_json::from_str(&json).expect("json");
    let table = &doc["DataModel"][0];
    assert_eq!(table["TableData"].as_array().map(Vec::len), Some(3));
    let facet = |name: &str| {
        table["TableFacets"]
            .as_array()
            .and_then(|f| f.iter().find(|f| f["FacetName"] == name))
            .cloned()
            .expect("facet")
    };
    assert_eq!(facet("User")["TableData"], json!([user]));
    assert_eq!(facet("OrderItem")["TableData"], json!([item]));
    assert_eq!(facet("Order")["TableData"], json!([]));
    assert_eq!(
        facet("User")["KeyAttributeAlias"]["PartitionKeyAlias"],
        "USER#{userId}"
    );
    assert_eq!(doc["ModelMetadata"]["DateCreated"], DEFAULT_DATE);
}

#[test]
fn workbench_authored_file() {
    let json = r#"{
      "ModelName": "Music",
      "ModelMetadata": { "Author": "x", "Description": "hand made", "AWSService": "Amazon DynamoDB", "Version": "3.0" },
      "DataModel": [{
        "TableName": "Music",
        "KeyAttributes": {
          "PartitionKey": { "AttributeName": "Artist", "AttributeType": "S" },
          "SortKey": { "AttributeName": "SongTitle", "AttributeType": "S" }
        },
        "NonKeyAttributes": [
          { "AttributeName": "AlbumTitle", "AttributeType": "S" },
          { "AttributeName": "Year", "AttributeType": "N" },
          { "AttributeName": "Genre", "AttributeType": "S" }
        ],
        "TableFacets": [{
          "FacetName": "Song",
          "KeyAttributeAlias": { "PartitionKeyAlias": "ArtistName", "SortKeyAlias": "SONG" },
          "NonKeyAttributes": ["AlbumTitle", "Year", "Genre"],
          "TableData": [],
          "DataAccess": { "MySql": {} }
        }],
        "GlobalSecondaryIndexes": [{
          "IndexName": "ByGenre",
          "KeyAttributes": { "PartitionKey": { "AttributeName": "Genre", "AttributeType": "S" } },
          "Projection": { "ProjectionType": "INCLUDE", "NonKeyAttributes": ["AlbumTitle"] }
        }],
        "TableData": [],
        "BillingMode": "PROVISIONED"
      }]
    }"#;
    let imported = import_nosql_workbench_detailed(json).expect("imports");
    assert!(!imported.embedded);
    let model = parse(&imported.source);
    let song = model.entity("Song").expect("entity");
    assert_eq!(
        song.key(None).expect("keys").pk.template.to_string(),
        "{ArtistName}"
    );
    assert_eq!(
        song.key(None)
            .and_then(|k| k.sk.as_ref())
            .map(|k| k.template.to_string())
            .as_deref(),
        Some("SONG")
    );
    assert!(song.attribute("Year").is_some());
    let genre = model.index("ByGenre").expect("index");
    assert_eq!(genre.include, vec!["AlbumTitle".to_string()]);
    assert_eq!(
        model.table.billing_mode,
        monotable_model::BillingMode::Provisioned
    );
    assert!(
        imported.warnings.iter().any(|w| w.contains("Genre")),
        "{:?}",
        imported.warnings
    );
}

#[test]
fn bad_inputs_are_errors() {
    assert!(matches!(
        import_nosql_workbench("nope"),
        Err(ImportError::Json { .. })
    ));
    assert!(matches!(
        import_nosql_workbench("{}"),
        Err(ImportError::NotWorkbench { .. })
    ));
    assert!(matches!(
        import_nosql_workbench(r#"{"DataModel": []}"#),
        Err(ImportError::NotWorkbench { .. })
    ));
    let two = r#"{"DataModel": [
        {"TableName": "A", "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}}},
        {"TableName": "B", "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}}}]}"#;
    assert!(matches!(
        import_nosql_workbench(two),
        Err(ImportError::MultipleTables { .. })
    ));
}

#[test]
fn native_multi_attribute_keys_are_refused_naming_the_index() {
    let model = parse(SHOP_NATIVE);
    let refused = nosql_workbench(&model, SHOP_NATIVE, &[], &WorkbenchOptions::default());
    let Err(error) = refused else {
        panic!("a model with native multi-attribute keys exported for Workbench");
    };
    assert_eq!(
        error,
        ExportError::NativeKeys {
            index: "ByCategory".into(),
            partition: 1,
            sort: 2,
        }
    );
    let message = error.to_string();
    assert!(
        message.contains("NoSQL Workbench cannot represent native multi-attribute keys")
            && message.contains("`ByCategory`"),
        "{message}"
    );
}

/// A native index of one attribute on each side is an ordinary index in Workbench's terms.
#[test]
fn a_native_index_of_one_attribute_each_side_exports_and_round_trips() {
    let source = r#"
version = 1
[table]
name = "Things"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "SK", type = "S" }
[indexes.ByOwner]
kind = "global"
partition_key = [{ name = "owner", type = "S" }]
sort_key = [{ name = "rank", type = "N" }]
[entities.Thing]
attributes.id = { type = "string", required = true }
attributes.owner = { type = "string", required = true }
attributes.rank = { type = "integer", required = true }
keys.PK = "THING#{id}"
keys.SK = "THING"
[patterns.byOwner]
operation = "Query"
index = "ByOwner"
key = { owner = "{owner}" }
returns = ["Thing"]
"#;
    let json = export(source, &[], true);
    let doc: Value = serde_json::from_str(&json).expect("JSON");
    let gsi = &doc["DataModel"][0]["GlobalSecondaryIndexes"][0]["KeyAttributes"];
    assert_eq!(gsi["PartitionKey"]["AttributeName"], "owner");
    assert_eq!(gsi["SortKey"]["AttributeName"], "rank");
    assert_eq!(gsi["SortKey"]["AttributeType"], "N");
    let imported = import_nosql_workbench_detailed(&json).expect("imports");
    assert!(imported.embedded, "{:?}", imported.warnings);
}

#[test]
fn import_refuses_listed_key_attributes_and_an_embedded_native_model() {
    let mut doc: Value = serde_json::from_str(&export(SHOP, &[], false)).expect("JSON");
    doc["DataModel"][0]["GlobalSecondaryIndexes"][0]["KeyAttributes"]["PartitionKey"] = json!([
        { "AttributeName": "status", "AttributeType": "S" },
        { "AttributeName": "shard", "AttributeType": "N" }
    ]);
    assert_eq!(
        import_nosql_workbench(&doc.to_string()),
        Err(ImportError::NativeKeys {
            index: "GSI1".into()
        })
    );

    // A Workbench file whose description embeds a native model (written by hand: the export
    // refuses one) would restore keys the Workbench table does not have.
    let mut doc: Value = serde_json::from_str(&export(SHOP, &[], true)).expect("JSON");
    let description = doc["ModelMetadata"]["Description"].as_str().expect("text");
    let native = description.replace(SHOP, SHOP_NATIVE);
    assert_ne!(native, description, "the shop's source is embedded");
    doc["ModelMetadata"]["Description"] = Value::String(native);
    let refused = import_nosql_workbench(&doc.to_string());
    assert_eq!(
        refused,
        Err(ImportError::NativeKeys {
            index: "ByCategory".into()
        })
    );
    let message = refused.expect_err("refused").to_string();
    assert!(
        message.contains("cannot represent native multi-attribute keys"),
        "{message}"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    #[test]
    fn export_and_import_never_panic_on_edited_models(drop in 0usize..300, seed in proptest::prelude::any::<bool>()) {
        let base = if seed { SEED } else { SHOP };
        let edited: Vec<&str> = base.lines().enumerate().filter(|(i, _)| *i != drop).map(|(_, l)| l).collect();
        let source = edited.join("\n");
        if let Ok(model) = monotable_model::parse(&source) {
            let item = json!({"PK": {"S": "USER#1"}, "SK": {"S": "PROFILE"}});
            let json = nosql_workbench(&model, &source, &[item], &WorkbenchOptions::default()).expect("exports");
            let imported = import_nosql_workbench_detailed(&json).expect("own export imports");
            proptest::prop_assert!(imported.embedded);
            proptest::prop_assert_eq!(imported.source, source);
        }
    }

    #[test]
    fn import_never_panics(s in proptest::prelude::any::<String>()) {
        let _ = import_nosql_workbench_detailed(&s);
    }

    #[test]
    fn import_never_panics_on_edited_exports(drop in 0usize..400, seed in proptest::prelude::any::<bool>()) {
        let json = export(if seed { SEED } else { SHOP }, &[], seed);
        let edited: Vec<&str> = json.lines().enumerate().filter(|(i, _)| *i != drop).map(|(_, l)| l).collect();
        let _ = import_nosql_workbench_detailed(&edited.join("\n"));
    }
}

#[test]
fn import_skips_sample_items_and_refuses_lists_past_their_limits() {
    let table = |extra: &str| {
        format!(
            r#"{{"DataModel": [{{"TableName": "T", "KeyAttributes": {{"PartitionKey": {{"AttributeName": "PK", "AttributeType": "S"}}}}{extra}}}]}}"#
        )
    };
    // Sample items, however many and however nested, are read past and never held.
    let item = r#"{"PK": {"S": "A"}, "deep": {"M": {"x": {"L": [{"S": "y"}]}}}}"#;
    let items = vec![item; 10_000].join(",");
    let imported = import_nosql_workbench_detailed(&table(&format!(
        r#", "TableData": [{items}], "TableFacets": [{{"FacetName": "A", "TableData": [{items}]}}]"#
    )))
    .expect("imports");
    assert!(
        imported.source.contains("[entities.A]"),
        "{}",
        imported.source
    );

    let gsi = r#"{"IndexName": "G", "KeyAttributes": {"PartitionKey": {"AttributeName": "GPK", "AttributeType": "S"}}}"#;
    let at_limit = vec![gsi; 20].join(",");
    assert!(
        import_nosql_workbench(&table(&format!(
            r#", "GlobalSecondaryIndexes": [{at_limit}]"#
        )))
        .is_ok()
    );
    let over = vec![gsi; 21].join(",");
    let refused =
        import_nosql_workbench(&table(&format!(r#", "GlobalSecondaryIndexes": [{over}]"#)));
    assert_eq!(
        refused.expect_err("refused").to_string(),
        "it lists more than 20 global secondary indexes (`GlobalSecondaryIndexes`), the most a monotable model can hold"
    );
    let attrs = vec!["\"a\""; 1_001].join(",");
    let refused = import_nosql_workbench(&table(&format!(
        r#", "TableFacets": [{{"FacetName": "Wide", "NonKeyAttributes": [{attrs}]}}]"#
    )));
    assert!(matches!(
        refused,
        Err(ImportError::TooMany { limit: 1_000, .. })
    ));
}
