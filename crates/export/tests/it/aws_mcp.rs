//! `import --from aws-mcp`: the AWS DynamoDB MCP server's public example files
//! (tests/fixtures/aws-mcp, see its README) each imported to a model `check` accepts (no MT000),
//! with exactly what could not be mapped listed (golden files); malformed and hostile input
//! refused or listed, never a panic.

use monotable_export::aws_mcp::{AwsMcpError, AwsMcpFormat, AwsMcpOptions, import_aws_mcp};
use proptest::prelude::*;
use serde_json::{Value, json};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/aws-mcp");

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{FIXTURES}/{name}")).unwrap()
}

fn options(table: Option<&str>) -> AwsMcpOptions {
    AwsMcpOptions::table(table.map(str::to_string))
}

/// The MT000 diagnostics `check` reports on `source`.
fn mt000(source: &str) -> Vec<String> {
    monotable_check::check_source("imported.toml", source)
        .diagnostics()
        .iter()
        .filter(|d| d.code == "MT000")
        .map(|d| d.message.clone())
        .collect()
}

/// The import of `name` (its table `table`, or the first) as the golden text: the model, then
/// every part not mapped; asserts `check` finds no MT000 in the model.
fn imported(name: &str, table: Option<&str>) -> String {
    let import = import_aws_mcp(&fixture(name), &options(table)).unwrap();
    let errors = mt000(&import.source);
    assert!(errors.is_empty(), "{name}: {errors:#?}\n{}", import.source);
    let mut out = import.source.clone();
    out.push_str("\n# ---- not mapped ----\n");
    for u in &import.unmapped {
        out.push_str(&format!("# {u}\n"));
    }
    out
}

#[test]
fn the_code_generators_schemas_import() {
    let cases = [
        ("schema_social_media", "social_media_schema.json", None),
        ("schema_user_analytics", "user_analytics_schema.json", None),
        (
            "schema_user_registration",
            "user_registration_schema.json",
            None,
        ),
        (
            "schema_email_lookup",
            "user_registration_schema.json",
            Some("EmailLookup"),
        ),
        (
            "schema_shipments",
            "package_delivery_schema.json",
            Some("Shipments"),
        ),
        (
            "schema_warehouses",
            "package_delivery_schema.json",
            Some("Warehouses"),
        ),
        ("schema_food_delivery", "food_delivery_schema.json", None),
    ];
    for (snapshot, file, table) in cases {
        insta::assert_snapshot!(snapshot, imported(file, table));
    }
}

#[test]
fn validation_data_models_import() {
    let cases = [
        ("data_model_shop", "shop_data_model.json", None),
        ("data_model_cdk_users", "cdk_complex_data_model.json", None),
        (
            "data_model_cdk_orders",
            "cdk_complex_data_model.json",
            Some("OrderTable"),
        ),
    ];
    for (snapshot, file, table) in cases {
        insta::assert_snapshot!(snapshot, imported(file, table));
    }
}

#[test]
fn the_format_is_told_by_its_shape() {
    let schema = import_aws_mcp(&fixture("social_media_schema.json"), &options(None)).unwrap();
    assert_eq!(schema.format, AwsMcpFormat::Schema);
    assert_eq!(schema.table, "SocialMedia");
    let data = import_aws_mcp(&fixture("shop_data_model.json"), &options(None)).unwrap();
    assert_eq!(data.format, AwsMcpFormat::DataModel);
    assert_eq!(data.format.file_name(), "dynamodb_data_model.json");
}

#[test]
fn malformed_json_is_refused_with_its_line_and_column() {
    let text = "{\n  \"tables\": [\n    {,\n  ]\n}\n";
    let err = import_aws_mcp(text, &options(None)).unwrap_err();
    let AwsMcpError::Json { line, column, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!((*line, *column), (3, 6));
    assert!(err.to_string().contains("at line 3, column 6"), "{err}");
    // Cut short: the end of the text is where it fails.
    let err = import_aws_mcp("{\"tables\": [", &options(None)).unwrap_err();
    assert!(
        matches!(
            err,
            AwsMcpError::Json {
                line: 1,
                column: 12,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string().starts_with("not JSON: EOF while parsing"),
        "{err}"
    );
}

#[test]
fn json_that_is_neither_file_is_refused() {
    for (text, why) in [
        ("[]", "not a JSON object"),
        ("{}", "no `tables`"),
        ("{\"tables\": []}", "`tables` is empty"),
        (
            "{\"DataModel\": [], \"tables\": [{\"name\": \"T\"}]}",
            "no table has",
        ),
    ] {
        let err = import_aws_mcp(text, &options(None)).unwrap_err();
        assert!(
            matches!(err, AwsMcpError::NotAwsMcp { .. }),
            "{text}: {err:?}"
        );
        assert!(err.to_string().contains(why), "{text}: {err}");
    }
}

#[test]
fn a_table_not_in_the_file_is_refused_naming_those_that_are() {
    let err = import_aws_mcp(
        &fixture("user_registration_schema.json"),
        &options(Some("Nope")),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "no table `Nope` in it; its tables: Users, EmailLookup"
    );
}

/// A schema.json of one table and `entities`.
fn schema(entities: Value) -> String {
    json!({
        "tables": [{
            "table_config": { "table_name": "Things", "partition_key": "pk", "sort_key": "sk" },
            "entities": entities,
        }]
    })
    .to_string()
}

#[test]
fn nothing_usable_fails_with_everything_listed() {
    let text = schema(json!({
        "A": { "entity_type": "A", "pk_template": "A#{id", "sk_template": "A", "fields": [] },
        "B": { "entity_type": "B", "pk_template": "B#{id}", "fields": [{ "name": "id", "type": "string", "required": true }] },
    }));
    let err = import_aws_mcp(&text, &options(None)).unwrap_err();
    assert!(
        err.to_string().contains("no entity could be imported"),
        "{err}"
    );
    let paths: Vec<&str> = err.unmapped().iter().map(|u| u.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "tables[0].entities.A.pk_template",
            "tables[0].entities.A",
            "tables[0].entities.B"
        ],
        "{err:#?}"
    );
    assert!(
        err.unmapped()[0].reason.contains("never closed"),
        "{err:#?}"
    );
    assert!(err.unmapped()[2].reason.contains("sk_template"), "{err:#?}");
}

#[test]
fn a_part_the_model_refuses_is_taken_out_and_said_and_the_rest_imported() {
    // `pattern` returns an entity the model refuses (a hidden character in an attribute's
    // name); the other entity and its pattern stay.
    let text = schema(json!({
        "Bad": {
            "entity_type": "BAD", "pk_template": "BAD#{id}", "sk_template": "BAD",
            "fields": [
                { "name": "id", "type": "string", "required": true },
                { "name": "x\u{1b}[31m", "type": "string", "required": false }
            ],
            "access_patterns": [{ "pattern_id": 1, "name": "get_bad", "description": "d", "operation": "GetItem",
                "parameters": [{ "name": "id", "type": "string" }], "return_type": "single_entity" }]
        },
        "Good": {
            "entity_type": "GOOD", "pk_template": "GOOD#{id}", "sk_template": "GOOD",
            "fields": [{ "name": "id", "type": "string", "required": true }],
            "access_patterns": [{ "pattern_id": 2, "name": "get_good", "description": "d", "operation": "GetItem",
                "parameters": [{ "name": "id", "type": "string" }], "return_type": "single_entity" }]
        }
    }));
    let import = import_aws_mcp(&text, &options(None)).unwrap();
    assert!(mt000(&import.source).is_empty(), "{}", import.source);
    assert!(import.source.contains("[entities.Good]"));
    assert!(!import.source.contains("[entities.Bad]"));
    assert!(!import.source.contains('\u{1b}'));
    let lines: Vec<String> = import.unmapped.iter().map(ToString::to_string).collect();
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(
        lines[0].starts_with("tables[0].entities.Bad: not imported: the model refuses it:"),
        "{lines:#?}"
    );
    assert!(
        lines[0].contains("\\u{1b}") && !lines[0].contains('\u{1b}'),
        "{lines:#?}"
    );
    assert_eq!(
        lines[1],
        "tables[0].entities.Bad.access_patterns[0]: not imported: it returns `Bad`, not imported"
    );
}

#[test]
fn fields_of_no_format_and_values_of_the_wrong_type_are_listed() {
    let text = schema(json!({
        "E": {
            "entity_type": "E", "pk_template": "E#{id}", "sk_template": "E", "colour": "blue",
            "fields": [{ "name": "id", "type": "string", "required": "yes" }, "id2", { "name": "n", "type": "float", "required": true }],
            "access_patterns": { "not": "a list" }
        }
    }));
    let import = import_aws_mcp(&text, &options(None)).unwrap();
    let lines: Vec<String> = import.unmapped.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "tables[0].entities.E.colour: is not a field of schema.json; ignored",
            "tables[0].entities.E.fields[0].required: is a string, not true or false; ignored",
            "tables[0].entities.E.fields[1]: is a string, not an object; ignored",
            "tables[0].entities.E.fields[2].type: type `float` is not one of string, integer, decimal, boolean, array, object, uuid; not imported",
        ],
        "{}",
        import.source
    );
    // The access patterns are not a list: the entity has none, and nothing else is said of it.
    assert!(!import.source.contains("[patterns."));
}

#[test]
fn a_data_model_command_that_does_not_read_is_listed() {
    let mut doc: Value = serde_json::from_str(&fixture("shop_data_model.json")).unwrap();
    doc["access_patterns"] = json!([
        { "pattern": "1", "description": "quotes", "table": "ShopTable", "implementation": "aws dynamodb get-item --table-name 'ShopTable" },
        { "pattern": "2", "description": "names", "table": "ShopTable", "implementation": "aws dynamodb query --table-name ShopTable --key-condition-expression '#pk = :pk' --expression-attribute-values '{\":pk\": {\"S\": \"USER#u1\"}}'" },
        { "pattern": "3", "description": "another service", "implementation": "aws s3 ls" },
    ]);
    let import = import_aws_mcp(&doc.to_string(), &options(None)).unwrap();
    let reasons: Vec<&str> = import
        .unmapped
        .iter()
        .filter(|u| u.path.starts_with("access_patterns"))
        .map(|u| u.reason.as_str())
        .collect();
    assert_eq!(
        reasons,
        [
            "not imported: its command does not read: its quotes do not close",
            "not imported: its command does not read: `#pk` is not in --expression-attribute-names",
            "not imported: its command does not read: it is not an `aws dynamodb` command",
        ]
    );
}

/// Any JSON value, nested a few levels.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        "[A-Za-z#{}_:. \u{1b}]{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z_]{1,8}|pk_template|fields|tables|table_config|KeySchema|items|access_patterns|implementation", inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Whatever one field of an example holds, the import does not panic, and what it writes
    /// parses.
    #[test]
    fn any_value_in_any_field_is_imported_or_refused_never_a_panic(
        value in any_json(),
        which in 0usize..4,
        pick in any::<usize>(),
    ) {
        let file = ["social_media_schema.json", "shop_data_model.json", "package_delivery_schema.json", "food_delivery_schema.json"][which];
        let mut doc: Value = serde_json::from_str(&fixture(file)).unwrap();
        let mut slots = Vec::new();
        pointers(&doc, String::new(), &mut slots);
        let at = &slots[pick % slots.len()];
        if let Some(slot) = doc.pointer_mut(at) {
            *slot = value;
        }
        if let Ok(import) = import_aws_mcp(&doc.to_string(), &options(None)) {
            prop_assert!(mt000(&import.source).is_empty(), "{}", import.source);
        }
    }
}

/// Every JSON pointer in `v`.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                pointers(
                    x,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                pointers(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn free_text_with_hidden_characters_is_written_escaped() {
    let text = schema(json!({
        "E": {
            "entity_type": "E\u{202e}X", "pk_template": "E#{id}", "sk_template": "E",
            "fields": [{ "name": "id", "type": "string", "required": true }],
            "access_patterns": [{ "pattern_id": "1\u{1b}[2J", "name": "get", "description": "right\u{202e}left \u{1b}[31m",
                "operation": "GetItem", "parameters": [{ "name": "id", "type": "string" }, { "name": "x\u{200b}", "type": "string" }],
                "return_type": "single_entity" }]
        }
    }));
    let import = import_aws_mcp(&text, &options(None)).unwrap();
    let raw = |s: &str| {
        s.chars()
            .any(|c| c != '\n' && monotable_model::text::is_hidden(c))
    };
    assert!(!raw(&import.source), "{}", import.source);
    assert!(
        import.source.contains("right\\u202Eleft \\u001B[31m"),
        "{}",
        import.source
    );
    assert!(mt000(&import.source).is_empty());
    // The model reads the description back as it was.
    let model = monotable_model::parse(&import.source).unwrap();
    let get = model.patterns.iter().find(|p| p.name == "get").unwrap();
    assert!(
        get.description
            .as_deref()
            .unwrap()
            .contains("right\u{202e}left")
    );
    for u in &import.unmapped {
        assert!(!raw(&u.path) && !raw(&u.reason), "{u:?}");
    }
    assert!(
        import
            .unmapped
            .iter()
            .any(|u| u.reason.contains("x\\u{200b}")),
        "{:#?}",
        import.unmapped
    );
}
