//! Unit tests over small models: IAM mapping, projections, local indexes, billing, formats.

use monotable_export::{
    Architecture, Billing, ExportError, Format, FunctionOptions, PolicyResource, Projection, Route,
    SamOptions, actions, cloudformation, create_table_json, markdown, policy_statements, sam,
    sam_with, table_definition, ttl_spec,
};
use monotable_model::{Model, Operation};
use serde_json::{Value, json};

fn model(source: &str) -> Model {
    match monotable_model::parse(source) {
        Ok(model) => model,
        Err(e) => panic!("test model does not parse: {e:?}"),
    }
}

fn parse_json(text: &str) -> Value {
    serde_json::from_str(text).expect("valid JSON")
}

const HEADER: &str = r#"
version = 1

[table]
name = "Things"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "SK", type = "S" }
"#;

const THING: &str = r#"
[entities.Thing]
attributes.id = { type = "string", required = true }
attributes.kind = { type = "string", required = true }
keys.PK = "THING#{id}"
keys.SK = "THING"
"#;

/// A model with only GetItem patterns.
fn get_only() -> Model {
    model(&format!(
        r#"{HEADER}{THING}
[patterns.getThing]
operation = "GetItem"
key = {{ PK = "THING#{{id}}", SK = "THING" }}
returns = ["Thing"]

[patterns.getThingAgain]
operation = "GetItem"
key = {{ PK = "THING#{{id}}", SK = "THING" }}
returns = ["Thing"]
consistent_read = true
"#
    ))
}

#[test]
fn get_item_only_grants_get_item_on_the_table() {
    let statements = policy_statements(&get_only());
    assert_eq!(statements.len(), 1);
    assert_eq!(statements[0].resource, PolicyResource::Table);
    assert_eq!(statements[0].actions, vec!["dynamodb:GetItem"]);

    let template = parse_json(&sam(&get_only()));
    let policy = &template["Resources"]["TableAccessPolicy"]["Properties"]["PolicyDocument"];
    assert_eq!(
        policy,
        &json!({
            "Version": "2012-10-17",
            "Statement": [{
                "Effect": "Allow",
                "Action": ["dynamodb:GetItem"],
                "Resource": {"Fn::GetAtt": ["Table", "Arn"]}
            }]
        })
    );
}

#[test]
fn operations_map_to_their_actions() {
    assert_eq!(actions(Operation::GetItem), ["dynamodb:GetItem"]);
    assert_eq!(actions(Operation::Query), ["dynamodb:Query"]);
    assert_eq!(actions(Operation::BatchGet), ["dynamodb:BatchGetItem"]);
    assert_eq!(actions(Operation::Scan), ["dynamodb:Scan"]);
    assert_eq!(actions(Operation::PutItem), ["dynamodb:PutItem"]);
    assert_eq!(actions(Operation::UpdateItem), ["dynamodb:UpdateItem"]);
    assert_eq!(actions(Operation::DeleteItem), ["dynamodb:DeleteItem"]);
    let transact = actions(Operation::TransactWrite);
    assert!(transact.contains(&"dynamodb:PutItem"));
    assert!(transact.contains(&"dynamodb:UpdateItem"));
    assert!(transact.contains(&"dynamodb:ConditionCheckItem"));
    // Not an IAM action: transactions are authorized per item action.
    assert!(!transact.contains(&"dynamodb:TransactWriteItems"));
}

#[test]
fn index_queries_grant_the_index_only() {
    let m = model(&format!(
        r#"{HEADER}
[indexes.ByKind]
partition_key = {{ name = "KindPK", type = "S" }}
sort_key = {{ name = "KindSK", type = "S" }}

[indexes.Unused]
partition_key = {{ name = "UnusedPK", type = "S" }}

[entities.Thing]
attributes.id = {{ type = "string", required = true }}
attributes.kind = {{ type = "string", required = true }}
keys.PK = "THING#{{id}}"
keys.SK = "THING"
keys.KindPK = "KIND#{{kind}}"
keys.KindSK = "THING#{{id}}"
keys.UnusedPK = "X#{{id}}"

[patterns.thingsOfKind]
operation = "Query"
index = "ByKind"
key = {{ KindPK = "KIND#{{kind}}" }}
returns = ["Thing"]

[patterns.putThing]
operation = "PutItem"
returns = ["Thing"]
key = {{ PK = "THING#{{id}}", SK = "THING" }}

[patterns.everything]
operation = "Scan"
returns = ["Thing"]
"#
    ));
    let statements = policy_statements(&m);
    let pairs: Vec<(PolicyResource, Vec<&str>)> = statements
        .into_iter()
        .map(|s| (s.resource, s.actions))
        .collect();
    assert_eq!(
        pairs,
        vec![
            (
                PolicyResource::Table,
                vec!["dynamodb:PutItem", "dynamodb:Scan"]
            ),
            (
                PolicyResource::Index("ByKind".to_string()),
                vec!["dynamodb:Query"]
            ),
        ]
    );
    let template = parse_json(&sam(&m));
    let statements =
        &template["Resources"]["TableAccessPolicy"]["Properties"]["PolicyDocument"]["Statement"];
    assert_eq!(
        statements[1]["Resource"],
        json!({"Fn::Sub": "${Table.Arn}/index/ByKind"})
    );
    assert!(!statements.to_string().contains("Unused"));
}

#[test]
fn no_patterns_means_no_policy() {
    let m = model(&format!("{HEADER}{THING}"));
    assert!(policy_statements(&m).is_empty());
    let template = parse_json(&sam(&m));
    assert!(template["Resources"].get("TableAccessPolicy").is_none());
    let with_function = SamOptions::default().with_function(FunctionOptions::new("App"));
    let template = parse_json(&sam_with(&m, &with_function));
    assert!(
        template["Resources"]["AppFunction"]["Properties"]
            .get("Policies")
            .is_none()
    );
}

fn routes(list: &[(&str, &str, bool)]) -> Vec<Route> {
    list.iter()
        .map(|(method, path, public)| Route {
            method: method.to_string(),
            path: path.to_string(),
            public: *public,
        })
        .collect()
}

#[test]
fn without_a_function_the_template_holds_the_table_and_its_policy_only() {
    let template = parse_json(&sam(&get_only()));
    let resources: Vec<&String> = template["Resources"].as_object().unwrap().keys().collect();
    assert_eq!(resources, ["Table", "TableAccessPolicy"]);
    assert!(template["Parameters"].get("JwtIssuer").is_none());
    assert_eq!(
        template["Outputs"]["TableAccessPolicyArn"]["Value"],
        json!({"Ref": "TableAccessPolicy"})
    );
}

#[test]
fn public_routes_have_no_authorizer_and_protected_ones_keep_it() {
    let mut function = FunctionOptions::new("Store front!");
    function.architecture = Architecture::Arm64;
    function.routes = routes(&[
        ("GET", "/products", true),
        ("GET", "/products/{productId}", true),
        ("POST", "/products", false),
    ]);
    let options = SamOptions::default().with_function(function);
    let template = parse_json(&sam_with(&get_only(), &options));
    let f = &template["Resources"]["StorefrontFunction"]["Properties"];
    assert_eq!(f["Architectures"], json!(["arm64"]));
    assert_eq!(f["Policies"], json!([{"Ref": "TableAccessPolicy"}]));
    let events = f["Events"].as_object().unwrap();
    let auth = |name: &str| events[name]["Properties"].get("Auth").cloned();
    assert_eq!(auth("GetProducts"), Some(json!({"Authorizer": "NONE"})));
    assert_eq!(
        auth("GetProductsProductId"),
        Some(json!({"Authorizer": "NONE"}))
    );
    assert_eq!(
        auth("PostProducts"),
        None,
        "the default JWT authorizer applies"
    );
    // Unknown paths reach the function (its own 404/405), without a token.
    assert_eq!(events["AnyProxy"]["Properties"]["Path"], "/{proxy+}");
    assert_eq!(auth("AnyProxy"), Some(json!({"Authorizer": "NONE"})));
    let api = &template["Resources"]["HttpApi"]["Properties"];
    assert_eq!(api["Auth"]["DefaultAuthorizer"], "JwtAuthorizer");
    assert!(template["Parameters"].get("JwtIssuer").is_some());
}

#[test]
fn an_all_public_api_has_no_authorizer_and_no_route_list_means_one_protected_catch_all() {
    let mut function = FunctionOptions::new("Open");
    function.routes = routes(&[("GET", "/status", true)]);
    let options = SamOptions::default().with_function(function);
    let template = parse_json(&sam_with(&get_only(), &options));
    assert!(
        template["Resources"]["HttpApi"]["Properties"]
            .get("Auth")
            .is_none()
    );
    assert!(template["Parameters"].get("JwtIssuer").is_none());
    let options = SamOptions::default().with_function(FunctionOptions::new("Closed"));
    let template = parse_json(&sam_with(&get_only(), &options));
    let events = &template["Resources"]["ClosedFunction"]["Properties"]["Events"];
    assert_eq!(events.as_object().unwrap().len(), 1);
    assert!(events["AnyProxy"]["Properties"].get("Auth").is_none());
    assert_eq!(
        template["Resources"]["ClosedFunction"]["Properties"]["Architectures"],
        json!(["x86_64"])
    );
}

/// A provisioned table with a numeric sort key, a GSI with KEYS_ONLY and an LSI with INCLUDE.
fn indexed() -> Model {
    model(
        r#"
version = 1

[table]
name = "Events"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "TS", type = "N" }
billing_mode = "PROVISIONED"

[indexes.ByOwner]
kind = "global"
partition_key = { name = "OwnerPK", type = "S" }
sort_key = { name = "TS", type = "N" }
projection = "KEYS_ONLY"

[indexes.ByType]
kind = "local"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "TypeSK", type = "S" }
projection = "INCLUDE"
include = ["title", "owner", "title"]

[entities.Event]
attributes.stream = { type = "string", required = true }
attributes.ts = { type = "integer", required = true }
attributes.owner = { type = "string", required = true }
attributes.type = { type = "string", required = true }
attributes.title = { type = "string", required = true }
keys.PK = "STREAM#{stream}"
keys.TS = "{ts}"
keys.OwnerPK = "OWNER#{owner}"
keys.TypeSK = "{type}#{ts}"
"#,
    )
}

#[test]
fn local_index_and_include_projection() {
    let definition = table_definition(&indexed());
    assert_eq!(definition.local_secondary_indexes.len(), 1);
    let lsi = &definition.local_secondary_indexes[0];
    assert_eq!(lsi.key_schema.partition_keys, ["PK"]);
    assert_eq!(
        lsi.projection,
        Projection::Include(vec!["title".to_string(), "owner".to_string()])
    );
    assert_eq!(lsi.throughput, None);

    let input = parse_json(&create_table_json(&indexed()));
    assert_eq!(
        input["LocalSecondaryIndexes"],
        json!([{
            "IndexName": "ByType",
            "KeySchema": [
                {"AttributeName": "PK", "KeyType": "HASH"},
                {"AttributeName": "TypeSK", "KeyType": "RANGE"}
            ],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title", "owner"]}
        }])
    );
    assert_eq!(
        input["GlobalSecondaryIndexes"][0]["Projection"],
        json!({"ProjectionType": "KEYS_ONLY"})
    );
    // Deduplicated, typed: TS is the table's numeric sort key, shared with the GSI.
    assert_eq!(
        input["AttributeDefinitions"],
        json!([
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "TS", "AttributeType": "N"},
            {"AttributeName": "OwnerPK", "AttributeType": "S"},
            {"AttributeName": "TypeSK", "AttributeType": "S"}
        ])
    );
}

#[test]
fn provisioned_billing_gets_default_throughput() {
    let definition = table_definition(&indexed());
    assert!(matches!(definition.billing, Billing::Provisioned(_)));
    let units = json!({"ReadCapacityUnits": 5, "WriteCapacityUnits": 5});

    let input = parse_json(&create_table_json(&indexed()));
    assert_eq!(input["BillingMode"], "PROVISIONED");
    assert_eq!(input["ProvisionedThroughput"], units);
    assert_eq!(
        input["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"],
        units
    );
    assert!(
        input["LocalSecondaryIndexes"][0]
            .get("ProvisionedThroughput")
            .is_none()
    );

    let template = parse_json(&cloudformation(&indexed()));
    let properties = &template["Resources"]["Table"]["Properties"];
    assert_eq!(properties["BillingMode"], "PROVISIONED");
    assert_eq!(properties["ProvisionedThroughput"], units);
    assert_eq!(
        properties["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"],
        units
    );
}

#[test]
fn on_demand_has_no_throughput_and_ttl_is_separate() {
    let m = get_only();
    let input = parse_json(&create_table_json(&m));
    assert_eq!(input["BillingMode"], "PAY_PER_REQUEST");
    assert!(input.get("ProvisionedThroughput").is_none());
    assert!(input.get("GlobalSecondaryIndexes").is_none());
    assert!(input.get("TimeToLiveSpecification").is_none());
    assert_eq!(ttl_spec(&m), None);
    let template = parse_json(&cloudformation(&m));
    assert!(
        template["Resources"]["Table"]["Properties"]
            .get("TimeToLiveSpecification")
            .is_none()
    );
}

#[test]
fn format_names_round_trip() {
    for format in Format::ALL {
        assert_eq!(format.name().parse::<Format>(), Ok(format));
        assert_eq!(format.to_string(), format.name());
    }
    assert_eq!("CFN".parse::<Format>(), Ok(Format::CloudFormation));
    assert_eq!(
        "terraform".parse::<Format>(),
        Err(ExportError::UnknownFormat {
            name: "terraform".to_string()
        })
    );
}

#[test]
fn markdown_escapes_table_cells() {
    let m = model(&format!(
        r#"{HEADER}{THING}
[patterns.getThing]
description = """Pipes | and
newlines stay in one cell."""
operation = "GetItem"
key = {{ PK = "THING#{{id}}", SK = "THING" }}
returns = ["Thing"]
"#
    ));
    let doc = markdown(&m, Some("```\nfenced\n```\n"));
    assert!(doc.contains("| Pipes \\| and newlines stay in one cell. |"));
    assert!(doc.contains("````text\n```\nfenced\n```\n````\n"));
}

#[test]
fn every_export_of_the_seed_model() {
    let source = include_str!("../../../../examples/seed-original/model.toml");
    // The seed design's defects are `monotable check` findings; it is a valid model.
    let m = model(source);
    for text in [create_table_json(&m), cloudformation(&m), sam(&m)] {
        parse_json(&text);
    }
    assert!(markdown(&m, None).starts_with("# AppTable"));
}
