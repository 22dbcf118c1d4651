//! Golden files: every export of the shop model (`examples/shop/shop.toml`), and of the shop on
//! native multi-attribute index keys (`examples/shop/shop-native.toml`).

use monotable_export::{
    Capacity, Format, MarkdownOptions, cloudformation, create_table_json, export, markdown,
    markdown_with, sam, sam_with, ttl_spec,
};
use monotable_model::{Model, Pattern};

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");
const SHOP_NATIVE: &str = include_str!("../../../../examples/shop/shop-native.toml");

fn shop() -> Model {
    match monotable_model::parse(SHOP) {
        Ok(model) => model,
        Err(e) => panic!("examples/shop/shop.toml does not parse: {e:?}"),
    }
}

fn shop_native() -> Model {
    match monotable_model::parse(SHOP_NATIVE) {
        Ok(model) => model,
        Err(e) => panic!("examples/shop/shop-native.toml does not parse: {e:?}"),
    }
}

#[test]
fn native_create_table() {
    insta::assert_snapshot!(
        "shop_native_create_table",
        create_table_json(&shop_native())
    );
}

#[test]
fn native_cloudformation_template() {
    insta::assert_snapshot!("shop_native_cloudformation", cloudformation(&shop_native()));
}

#[test]
fn native_sam_template() {
    insta::assert_snapshot!("shop_native_sam", sam(&shop_native()));
}

#[test]
fn native_markdown() {
    insta::assert_snapshot!("shop_native_markdown", markdown(&shop_native(), None));
}

/// The `KeySchema` of a global index in a table's properties, as `(name, HASH|RANGE)` pairs.
fn gsi_key_schema(table: &serde_json::Value, index: &str) -> Vec<(String, String)> {
    let gsis = table["GlobalSecondaryIndexes"].as_array().expect("indexes");
    let gsi = gsis
        .iter()
        .find(|g| g["IndexName"] == index)
        .unwrap_or_else(|| panic!("no index {index}"));
    gsi["KeySchema"]
        .as_array()
        .expect("key schema")
        .iter()
        .map(|e| {
            let text = |f: &str| e[f].as_str().expect("text").to_string();
            (text("AttributeName"), text("KeyType"))
        })
        .collect()
}

/// CreateTable, CloudFormation and SAM all list every element of a native key, HASH first, and
/// define every key attribute once with its declared type.
#[test]
fn native_key_schemas_in_every_table_export() {
    let model = shop_native();
    let create: serde_json::Value = serde_json::from_str(&create_table_json(&model)).expect("JSON");
    let cfn: serde_json::Value = serde_json::from_str(&cloudformation(&model)).expect("JSON");
    let sam: serde_json::Value = serde_json::from_str(&sam(&model)).expect("JSON");
    let pair = |n: &str, t: &str| (n.to_string(), t.to_string());
    for table in [
        &create,
        &cfn["Resources"]["Table"]["Properties"],
        &sam["Resources"]["Table"]["Properties"],
    ] {
        assert_eq!(
            gsi_key_schema(table, "ByStatus"),
            [
                pair("status", "HASH"),
                pair("shard", "HASH"),
                pair("createdAt", "RANGE"),
                pair("orderId", "RANGE"),
            ]
        );
        assert_eq!(
            gsi_key_schema(table, "ByCategory"),
            [
                pair("category", "HASH"),
                pair("publishedAt", "RANGE"),
                pair("productId", "RANGE"),
            ]
        );
        let definitions: Vec<(String, String)> = table["AttributeDefinitions"]
            .as_array()
            .expect("definitions")
            .iter()
            .map(|d| {
                let text = |f: &str| d[f].as_str().expect("text").to_string();
                (text("AttributeName"), text("AttributeType"))
            })
            .collect();
        let mut names: Vec<&str> = definitions.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            definitions.len(),
            "each attribute defined once"
        );
        for expected in [
            pair("status", "S"),
            pair("shard", "N"),
            pair("createdAt", "S"),
            pair("orderId", "S"),
            pair("category", "S"),
            pair("publishedAt", "S"),
            pair("productId", "S"),
        ] {
            assert!(
                definitions.contains(&expected),
                "{expected:?} in {definitions:?}"
            );
        }
    }
}

#[test]
fn create_table() {
    insta::assert_snapshot!("shop_create_table", create_table_json(&shop()));
}

#[test]
fn ttl() {
    let spec = ttl_spec(&shop()).expect("the shop has a TTL attribute");
    insta::assert_snapshot!("shop_ttl", spec);
}

#[test]
fn cloudformation_template() {
    insta::assert_snapshot!("shop_cloudformation", cloudformation(&shop()));
}

fn route(method: &str, path: &str, public: bool) -> monotable_export::Route {
    monotable_export::Route {
        method: method.into(),
        path: path.into(),
        public,
    }
}

#[test]
fn sam_template() {
    insta::assert_snapshot!("shop_sam", sam(&shop()));
    let mut function = monotable_export::FunctionOptions::new("Shop");
    function.routes = vec![
        route("GET", "/products", true),
        route("GET", "/products/{productId}", true),
        route("POST", "/products", false),
        route("GET", "/orders/{orderId}", false),
    ];
    let options = monotable_export::SamOptions::default().with_function(function);
    insta::assert_snapshot!("shop_sam_function", sam_with(&shop(), &options));
}

#[test]
fn markdown_without_checks() {
    insta::assert_snapshot!("shop_markdown", markdown(&shop(), None));
}

#[test]
fn markdown_with_checks_and_capacity() {
    let checks = "monotable check: examples/shop/shop.toml\n  no findings\n";
    let capacity = |pattern: &Pattern| {
        (pattern.name == "getUser").then(|| Capacity {
            read: "0.5".to_string(),
            write: "0".to_string(),
        })
    };
    let mut options = MarkdownOptions::default();
    options.check_results = Some(checks);
    options.capacity = Some(&capacity);
    insta::assert_snapshot!(
        "shop_markdown_checks_capacity",
        markdown_with(&shop(), &options)
    );
}

#[test]
fn export_dispatches_to_each_format() {
    let model = shop();
    let options = Default::default();
    assert_eq!(
        export(&model, Format::CreateTable, &options),
        create_table_json(&model)
    );
    assert_eq!(
        export(&model, Format::CloudFormation, &options),
        cloudformation(&model)
    );
    assert_eq!(export(&model, Format::Sam, &options), sam(&model));
    assert_eq!(
        export(&model, Format::Markdown, &options),
        markdown(&model, None)
    );
}

#[test]
fn json_exports_parse_as_json() {
    let model = shop();
    for text in [
        create_table_json(&model),
        cloudformation(&model),
        sam(&model),
    ] {
        let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert!(value.is_object());
    }
}

const STREAMS: &str = include_str!("../../../../examples/streams/sales.toml");

fn streams() -> Model {
    match monotable_model::parse(STREAMS) {
        Ok(model) => model,
        Err(e) => panic!("examples/streams/sales.toml does not parse: {e:?}"),
    }
}

#[test]
fn streams_exports() {
    let model = streams();
    insta::assert_snapshot!("streams_create_table", create_table_json(&model));
    insta::assert_snapshot!("streams_cloudformation", cloudformation(&model));
    insta::assert_snapshot!("streams_sam", sam(&model));
    insta::assert_snapshot!("streams_markdown", markdown(&model, None));
}

#[test]
fn a_consumers_event_filters_its_entities_and_events() {
    let template: serde_json::Value =
        serde_json::from_str(&sam(&streams())).expect("the template is JSON");
    let resources = &template["Resources"];
    assert_eq!(
        resources["Table"]["Properties"]["StreamSpecification"]["StreamViewType"],
        "NEW_AND_OLD_IMAGES"
    );
    let function = &resources["ProductSalesConsumer"]["Properties"];
    let event = &function["Events"]["Stream"]["Properties"];
    assert_eq!(
        event["Stream"]["Fn::GetAtt"],
        serde_json::json!(["Table", "StreamArn"])
    );
    assert_eq!(event["MaximumRetryAttempts"], 3);
    assert_eq!(
        event["FunctionResponseTypes"],
        serde_json::json!(["ReportBatchItemFailures"])
    );
    let filters: Vec<serde_json::Value> = event["FilterCriteria"]["Filters"]
        .as_array()
        .expect("filters")
        .iter()
        .map(|f| serde_json::from_str(f["Pattern"].as_str().expect("a string")).expect("JSON"))
        .collect();
    // Lines on creation, with no status test (lines have none); orders only when cancelled.
    assert_eq!(
        filters,
        [
            serde_json::json!({"eventName": ["INSERT", "MODIFY"], "dynamodb": {"NewImage": {"entityType": {"S": ["OrderItem"]}}}}),
            serde_json::json!({"eventName": ["INSERT", "MODIFY"], "dynamodb": {"NewImage": {"entityType": {"S": ["Order"]}, "status": {"S": ["CANCELLED"]}}}}),
        ]
    );
    assert_eq!(
        event["DestinationConfig"]["OnFailure"]["Destination"]["Fn::GetAtt"],
        serde_json::json!(["ProductSalesConsumerFailures", "Arn"])
    );
    assert_eq!(
        resources["ProductSalesConsumerFailures"]["Type"],
        "AWS::SQS::Queue"
    );
    // Its role reads the stream, runs its two updates and its Query of an order's lines, and
    // sends to its queue: nothing else.
    let role = &resources["ProductSalesConsumerRole"]["Properties"];
    let statements = role["Policies"][0]["PolicyDocument"]["Statement"]
        .as_array()
        .expect("statements");
    let actions: Vec<&serde_json::Value> = statements.iter().map(|s| &s["Action"]).collect();
    assert_eq!(
        actions,
        [
            &serde_json::json!([
                "dynamodb:DescribeStream",
                "dynamodb:GetRecords",
                "dynamodb:GetShardIterator"
            ]),
            &serde_json::json!(["dynamodb:ListStreams"]),
            &serde_json::json!(["dynamodb:Query", "dynamodb:UpdateItem"]),
            &serde_json::json!(["sqs:SendMessage"]),
        ]
    );
    assert_eq!(
        function["Role"]["Fn::GetAtt"],
        serde_json::json!(["ProductSalesConsumerRole", "Arn"])
    );
}

#[test]
fn a_table_without_a_stream_exports_no_consumer() {
    // The seed's design has no stream, and the shop's without its stream and consumer neither.
    let seed = monotable_model::parse(include_str!(
        "../../../../examples/seed-original/model.toml"
    ))
    .expect("the seed's model parses");
    assert!(seed.table.stream.is_none());
    let text = sam(&seed);
    assert!(!text.contains("StreamSpecification") && !text.contains("Consumer"));
    let mut model = shop();
    model.table.stream = None;
    model.consumers.clear();
    let text = sam(&model);
    assert!(!text.contains("StreamSpecification") && !text.contains("Consumer"));
}
