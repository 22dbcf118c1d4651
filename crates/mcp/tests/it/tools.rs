//! The server driven in-process through the official `rmcp` client over a duplex pipe: the
//! tools listed with their schemas, each tool called, the resources and the prompt read, and
//! every kind of bad input answered with an error after which the server still serves.

use rmcp::model::{GetPromptRequestParams, ReadResourceRequestParams};
use serde_json::json;

use crate::client::{call, connect, ok, still_serves, tool_error, workspace};

#[tokio::test]
async fn every_tool_is_listed_with_its_input_and_output_schema() {
    let client = connect(&workspace()).await;
    let tools = client.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "check",
            "cost",
            "diff",
            "explain",
            "export",
            "import_aws_mcp",
            "render_keys",
            "sample_items",
            "schema",
            "verify",
        ]
    );
    for tool in &tools {
        assert_eq!(
            tool.input_schema.get("type"),
            Some(&json!("object")),
            "{}",
            tool.name
        );
        let output = tool
            .output_schema
            .as_ref()
            .unwrap_or_else(|| panic!("{} has no output schema", tool.name));
        assert_eq!(output.get("type"), Some(&json!("object")), "{}", tool.name);
    }
    // Each output schema names its document's fields; `cost`'s is one of three shapes.
    let cost = tools.iter().find(|t| t.name == "cost").unwrap();
    let cost = cost.output_schema.as_ref().unwrap();
    assert_eq!(cost["anyOf"].as_array().map(Vec::len), Some(3), "{cost:?}");
    for (shape, field) in [
        ("CostOutput", "patterns"),
        ("CostComparison", "entities"),
        ("CostCrossChecked", "crossCheck"),
    ] {
        assert!(cost["$defs"][shape]["properties"].get(field).is_some());
    }
    for (tool, field) in [
        ("check", "diagnostics"),
        ("diff", "changes"),
        ("verify", "patterns"),
        ("explain", "failing_model"),
        ("render_keys", "primary_key"),
        ("sample_items", "items"),
        ("export", "text"),
        ("schema", "schema"),
        ("import_aws_mcp", "unmapped"),
    ] {
        let listed = tools.iter().find(|t| t.name == tool).unwrap();
        let output = listed.output_schema.as_ref().unwrap();
        assert!(
            output["properties"].get(field).is_some(),
            "{tool}: {output:?}"
        );
    }
    let export = tools.iter().find(|t| t.name == "export").unwrap();
    let schema = serde_json::to_string(&export.input_schema).unwrap();
    for format in [
        "create-table",
        "cloudformation",
        "sam",
        "markdown",
        "nosql-workbench",
        "arm64",
        "\"function\"",
        "\"routes_from\"",
        "\"model\"",
        "\"path\"",
    ] {
        assert!(schema.contains(format), "{format} missing from {schema}");
    }
    client.cancel().await.unwrap();
}

/// Every tool's input schema, and `cost`'s output schema (one of three shapes), as golden files:
/// a change to a field, its type or its documentation shows in review.
#[tokio::test]
async fn the_input_schemas_are_the_golden_ones() {
    let client = connect(&workspace()).await;
    let tools = client.list_all_tools().await.unwrap();
    let inputs: std::collections::BTreeMap<&str, _> = tools
        .iter()
        .map(|t| (t.name.as_ref(), t.input_schema.clone()))
        .collect();
    insta::assert_json_snapshot!("input_schemas", inputs);
    let cost = tools.iter().find(|t| t.name == "cost").unwrap();
    insta::assert_json_snapshot!("cost_output_schema", cost.output_schema);
    // Every integer a plain one: a client typing `key=value` by the schema reads one type.
    let text = serde_json::to_string(&inputs).unwrap();
    assert!(!text.contains(r#"["integer","null"]"#), "{text}");
    assert!(!text.contains(r#"["boolean","null"]"#), "{text}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn each_tool_answers_on_the_shop_model() {
    let client = connect(&workspace()).await;
    let shop = json!({ "path": "examples/shop/shop.toml" });
    let checked = ok(&client, "check", shop.clone()).await;
    assert_eq!(checked["file"], "examples/shop/shop.toml");
    assert_eq!(checked["summary"]["errors"], 0, "{checked}");

    let cost = ok(&client, "cost", shop.clone()).await;
    assert!(cost.as_object().is_some_and(|o| !o.is_empty()), "{cost}");

    for (format, needle) in [
        ("create-table", "\"TableName\""),
        ("cloudformation", "AWS::DynamoDB::Table"),
        ("sam", "AWS::Serverless"),
        ("markdown", "# "),
    ] {
        let args = json!({ "path": "examples/shop/shop.toml", "format": format });
        let out = ok(&client, "export", args).await;
        assert_eq!(out["format"], format);
        let text = out["text"].as_str().unwrap();
        assert!(text.contains(needle), "{format}: {needle} not in {text}");
    }

    let diff = ok(
        &client,
        "diff",
        json!({ "old_path": "examples/shop/shop.toml", "new_path": "examples/shop/shop-native.toml" }),
    )
    .await;
    assert_eq!(diff["old"], "examples/shop/shop.toml");
    assert!(
        diff["changes"].as_array().is_some_and(|c| !c.is_empty()),
        "{diff}"
    );

    let schema = ok(&client, "schema", json!({})).await;
    assert!(
        schema["schema"]["properties"]["table"].is_object(),
        "{schema}"
    );

    let explained = ok(&client, "explain", json!({ "code": "MT001" })).await;
    assert_eq!(explained["rule"], "unwritten-key");
    assert!(
        explained["failing_model"]
            .as_str()
            .unwrap()
            .contains("ACCOUNT#")
    );

    let keys = ok(
        &client,
        "render_keys",
        json!({ "path": "crates/check/tests/fixtures/MT001/pass.toml", "entity": "User", "values": { "userId": "u1" } }),
    )
    .await;
    assert_eq!(
        keys["primary_key"],
        json!({ "PK": "USER#u1", "SK": "PROFILE" })
    );
    assert_eq!(keys["keys"]["PK"], "USER#u1");

    let samples = ok(
        &client,
        "sample_items",
        json!({ "path": "examples/shop/shop.toml", "entity": "Order", "count": 3 }),
    )
    .await;
    let items = samples["items"].as_array().unwrap();
    assert_eq!(items.len(), 3, "{samples}");
    assert!(samples["total"].as_u64().unwrap() >= 3);
    for item in items {
        assert_eq!(item["entity"], "Order");
        let pk = item["keys"]["PK"].as_str().unwrap();
        assert_eq!(item["item"]["PK"]["S"], pk, "{item}");
    }

    let text =
        std::fs::read_to_string(workspace().join("crates/check/tests/fixtures/MT001/pass.toml"))
            .unwrap();
    let verified = ok(&client, "verify", json!({ "model": text })).await;
    assert_eq!(verified["passed"], true, "{verified}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_model_given_as_text_is_checked_as_the_file_would_be() {
    let client = connect(&workspace()).await;
    let path = "crates/check/tests/fixtures/MT001/fail.toml";
    let text = std::fs::read_to_string(workspace().join(path)).unwrap();
    let by_text = ok(&client, "check", json!({ "model": text })).await;
    let by_path = ok(&client, "check", json!({ "path": path })).await;
    assert_eq!(by_text["file"], "<model>");
    assert_eq!(by_text["diagnostics"][0]["code"], "MT001");
    assert_eq!(by_text["summary"], by_path["summary"]);
    assert_eq!(
        by_text["diagnostics"][0]["line"],
        by_path["diagnostics"][0]["line"]
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn resources_and_the_design_loop_prompt_are_served() {
    let client = connect(&workspace()).await;
    let listed = client.list_all_resources().await.unwrap();
    let uris: Vec<&str> = listed.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris.len(), 7, "{uris:?}");
    for uri in uris {
        let read = client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .unwrap();
        assert_eq!(read.contents.len(), 1, "{uri}");
        let text = serde_json::to_value(&read.contents[0]).unwrap()["text"].clone();
        let file = uri.strip_prefix("monotable://").unwrap();
        let on_disk = std::fs::read_to_string(workspace().join(file)).unwrap();
        assert_eq!(text.as_str(), Some(on_disk.as_str()), "{uri}");
    }
    let missing = client
        .read_resource(ReadResourceRequestParams::new("monotable://nothing"))
        .await;
    assert!(missing.is_err());
    let prompts = client.list_all_prompts().await.unwrap();
    assert_eq!(prompts.len(), 1);
    let mut args = serde_json::Map::new();
    args.insert("requirements".into(), json!("a todo app: lists and items"));
    let prompt = client
        .get_prompt(GetPromptRequestParams::new("design-loop").with_arguments(args))
        .await
        .unwrap();
    let text = serde_json::to_string(&prompt.messages).unwrap();
    for step in ["a todo app", "check", "explain", "verify", "cost"] {
        assert!(text.contains(step), "{step}");
    }
    still_serves(&client).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_input_gets_an_error_and_the_server_keeps_serving() {
    let client = connect(&workspace()).await;
    // Unknown tool, wrong argument types, missing required arguments: JSON-RPC errors.
    for (tool, args) in [
        ("no-such-tool", json!({})),
        ("check", json!({ "model": 5 })),
        ("check", json!({ "path": ["a"] })),
        ("explain", json!({})),
        (
            "export",
            json!({ "path": "examples/shop/shop.toml", "format": "yaml" }),
        ),
        (
            "verify",
            json!({ "path": "examples/shop/shop.toml", "seed": -1 }),
        ),
        (
            "cost",
            json!({ "path": "examples/shop/shop.toml", "cross_check": "yes" }),
        ),
        (
            "export",
            json!({ "path": "examples/shop/shop.toml", "format": "sam", "function": "F", "architecture": "sparc" }),
        ),
        (
            "diff",
            json!({ "old_path": "examples/shop/shop.toml", "new_path": "examples/shop/shop.toml", "items": 5 }),
        ),
    ] {
        let answer = call(&client, tool, args.clone()).await;
        let refused = match &answer {
            Err(_) => true,
            Ok(result) => result.is_error == Some(true),
        };
        assert!(refused, "{tool} {args}: {answer:?}");
        still_serves(&client).await;
    }
    // Tool errors, each with its message.
    let huge = "#".repeat(monotable_mcp::MAX_MODEL_BYTES + 1);
    let cases = [
        ("check", json!({ "model": huge }), "MAX_MODEL_BYTES"),
        (
            "check",
            json!({ "path": "../Cargo.toml" }),
            "outside the root",
        ),
        ("cost", json!({ "path": "/etc/passwd" }), "outside the root"),
        (
            "export",
            json!({ "path": "crates/../../x", "format": "sam" }),
            "outside the root",
        ),
        (
            "check",
            json!({ "path": "no/such/file.toml" }),
            "cannot read",
        ),
        ("check", json!({ "path": "crates" }), "not a regular file"),
        ("check", json!({}), "neither"),
        ("check", json!({ "model": "x", "path": "y" }), "both"),
        (
            "diff",
            json!({ "old_path": "crates/check/tests/fixtures/MT001/pass.toml" }),
            "new_model",
        ),
        ("diff", json!({ "old_model": "x" }), "not a valid model"),
        ("cost", json!({ "model": "[table" }), "not a valid model"),
        ("verify", json!({ "model": "nonsense = 1" }), "MT000"),
        ("explain", json!({ "code": "MT999" }), "no rule `MT999`"),
        (
            "render_keys",
            json!({ "path": "examples/shop/shop.toml", "entity": "Nobody" }),
            "no entity `Nobody`",
        ),
        (
            "render_keys",
            json!({ "path": "crates/check/tests/fixtures/MT001/pass.toml", "entity": "User" }),
            "no value for `userId`",
        ),
        (
            "render_keys",
            json!({ "path": "crates/check/tests/fixtures/MT001/pass.toml", "entity": "User", "values": { "userId": [1] } }),
            "not a string, number or boolean",
        ),
        (
            "sample_items",
            json!({ "path": "examples/shop/shop.toml", "count": 51 }),
            "MAX_SAMPLES",
        ),
        // The commands' options: refused as the flags are, files only under the root.
        (
            "cost",
            json!({ "path": "examples/shop/shop.toml", "prices": "../prices.toml" }),
            "outside the root",
        ),
        (
            "cost",
            json!({ "path": "examples/shop/shop.toml", "compare_path": "/etc/passwd" }),
            "outside the root",
        ),
        (
            "cost",
            json!({ "path": "examples/shop/shop.toml", "prices": "examples/shop/shop.toml" }),
            "price table examples/shop/shop.toml: price file is not valid",
        ),
        (
            "cost",
            json!({ "path": "examples/shop/shop.toml", "compare_model": "x", "compare_path": "y" }),
            "`compare_model` (text) or `compare_path`",
        ),
        (
            "cost",
            json!({ "path": "examples/shop/shop.toml", "compare_model": "x", "cross_check": true }),
            "`compare_model` cannot be used with `cross_check`",
        ),
        (
            "cost",
            json!({ "path": "examples/shop/shop.toml", "seed": 3 }),
            "`cross_check` (`seed` goes with it)",
        ),
        (
            "export",
            json!({ "path": "examples/shop/shop.toml", "format": "markdown", "function": "Shop" }),
            "`function` and its options go with `format` sam",
        ),
        (
            "export",
            json!({ "path": "examples/shop/shop.toml", "format": "sam", "code_uri": "x" }),
            "`function` (`code_uri` goes with it)",
        ),
        (
            "export",
            json!({ "path": "examples/shop/shop.toml", "format": "sam", "function": "Shop", "routes_from": "../openapi.json" }),
            "outside the root",
        ),
        (
            "export",
            json!({ "path": "examples/shop/shop.toml", "format": "sam", "function": "Shop", "routes_from": "examples/shop/shop.toml" }),
            "examples/shop/shop.toml is not a JSON OpenAPI document",
        ),
        (
            "diff",
            json!({ "old_path": "examples/shop/shop.toml", "new_path": "examples/shop/shop.toml", "items": ["Order=many"] }),
            "`items` `Order=many`: expected N or Entity=N",
        ),
    ];
    for (tool, args, needle) in cases {
        let message = tool_error(&client, tool, args).await;
        assert!(
            message.contains(needle),
            "{tool}: {needle} not in {message}"
        );
        still_serves(&client).await;
    }
    client.cancel().await.unwrap();
}

#[cfg(unix)]
#[tokio::test]
async fn a_link_leaving_the_root_is_refused_and_one_inside_it_is_read() {
    let outside = tempfile::tempdir().unwrap();
    let model =
        std::fs::read_to_string(workspace().join("crates/check/tests/fixtures/MT001/pass.toml"))
            .unwrap();
    std::fs::write(outside.path().join("secret.toml"), &model).unwrap();
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("inside.toml"), &model).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.toml"),
        root.path().join("out.toml"),
    )
    .unwrap();
    std::os::unix::fs::symlink(root.path().join("inside.toml"), root.path().join("in.toml"))
        .unwrap();
    let client = connect(root.path()).await;
    let message = tool_error(&client, "check", json!({ "path": "out.toml" })).await;
    assert!(message.contains("outside the root"), "{message}");
    let doc = ok(&client, "check", json!({ "path": "in.toml" })).await;
    assert_eq!(doc["summary"]["errors"], 0);
    client.cancel().await.unwrap();
}
