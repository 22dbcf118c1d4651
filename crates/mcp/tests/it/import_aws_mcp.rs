//! `import_aws_mcp` through the `rmcp` client: the AWS DynamoDB MCP server's example files read
//! by path and as text answer exactly what the library's import gives (the model's text and
//! every part not mapped), with typed input and output schemas; malformed JSON, a missing table,
//! a file with nothing usable and a path outside the root are tool errors, after which the
//! server still serves.

use monotable_export::aws_mcp::{AwsMcpOptions, import_aws_mcp};
use serde_json::json;

use crate::client::{connect, ok, still_serves, tool_error, workspace};

const FIXTURES: &str = "crates/export/tests/fixtures/aws-mcp";

#[tokio::test]
async fn the_schemas_name_json_path_table_and_the_answers_fields() {
    let client = connect(&workspace()).await;
    let tools = client.list_all_tools().await.unwrap();
    let tool = tools.iter().find(|t| t.name == "import_aws_mcp").unwrap();
    let input = serde_json::to_value(&tool.input_schema).unwrap();
    for field in ["json", "path", "table"] {
        assert!(input["properties"].get(field).is_some(), "{input}");
    }
    let output = serde_json::to_value(tool.output_schema.as_ref().unwrap()).unwrap();
    for field in ["format", "table", "model", "unmapped"] {
        assert!(output["properties"].get(field).is_some(), "{output}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn each_example_answers_what_the_library_imports() {
    let client = connect(&workspace()).await;
    let cases = [
        ("social_media_schema.json", None),
        ("user_registration_schema.json", Some("EmailLookup")),
        ("shop_data_model.json", None),
        ("cdk_complex_data_model.json", Some("OrderTable")),
    ];
    for (file, table) in cases {
        let path = format!("{FIXTURES}/{file}");
        let text = std::fs::read_to_string(workspace().join(&path)).unwrap();
        let expected =
            import_aws_mcp(&text, &AwsMcpOptions::table(table.map(str::to_string))).unwrap();
        let by_path = ok(
            &client,
            "import_aws_mcp",
            json!({ "path": path, "table": table }),
        )
        .await;
        let by_text = ok(
            &client,
            "import_aws_mcp",
            json!({ "json": text, "table": table }),
        )
        .await;
        assert_eq!(by_path, by_text, "{file}");
        assert_eq!(by_path["model"], expected.source, "{file}");
        assert_eq!(by_path["table"], expected.table, "{file}");
        assert_eq!(by_path["format"], expected.format.file_name(), "{file}");
        let unmapped: Vec<(String, String)> = expected
            .unmapped
            .iter()
            .map(|u| (u.path.clone(), u.reason.clone()))
            .collect();
        let answered: Vec<(String, String)> = by_path["unmapped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| {
                (
                    u["path"].as_str().unwrap().into(),
                    u["reason"].as_str().unwrap().into(),
                )
            })
            .collect();
        assert_eq!(answered, unmapped, "{file}");
        // The model it answers is one `check` accepts.
        let checked = ok(&client, "check", json!({ "model": by_path["model"] })).await;
        let codes: Vec<&str> = checked["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|d| d["code"].as_str())
            .collect();
        assert!(!codes.contains(&"MT000"), "{file}: {checked}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_files_are_tool_errors_and_the_server_keeps_serving() {
    let client = connect(&workspace()).await;
    let nothing = r#"{"tables": [{"table_config": {"table_name": "Things", "partition_key": "pk"},
        "entities": {"A": {"entity_type": "A", "pk_template": "A#{id", "fields": []}}}]}"#;
    let huge = " ".repeat(monotable_mcp::MAX_MODEL_BYTES + 1);
    let cases = [
        (
            json!({ "json": "{\n  \"tables\": [\n    {,\n" }),
            "at line 3, column 6",
        ),
        (json!({ "json": "{\"tables\": []}" }), "`tables` is empty"),
        (
            json!({ "path": format!("{FIXTURES}/user_registration_schema.json"), "table": "Nope" }),
            "no table `Nope` in it; its tables: Users, EmailLookup",
        ),
        (
            json!({ "json": nothing }),
            "nothing usable could be imported: no entity could be imported\n- tables[0].entities.A.pk_template: `{` at character 3 is never closed; not imported",
        ),
        (json!({ "path": "../secret.json" }), "outside the root"),
        (json!({ "json": huge }), "MAX_MODEL_BYTES"),
        (json!({}), "neither"),
        (json!({ "json": "{}", "path": "x.json" }), "both"),
    ];
    for (args, needle) in cases {
        let message = tool_error(&client, "import_aws_mcp", args.clone()).await;
        assert!(
            message.contains(needle),
            "{args}: {needle} not in {message}"
        );
        still_serves(&client).await;
    }
    client.cancel().await.unwrap();
}
