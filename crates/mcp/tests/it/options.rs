//! The commands' options on the tools: `cost`'s `prices`, `compare_*` and `cross_check`,
//! `export`'s `nosql-workbench` and SAM `function` options, `diff`'s `items`. Each answer is
//! held equal to the library's with that option and unequal to the one without it, so an
//! option the server dropped fails here; the files an option names are read under the root only.

use monotable_check::cost::{self, PriceTable};
use monotable_model::Model;
use serde_json::{Value, json};

use crate::client::{Client, connect, ok, still_serves, tool_error, workspace};

const SHOP: &str = "examples/shop/shop.toml";
const NATIVE: &str = "examples/shop/shop-native.toml";

/// A price table other than the shipped one: every price doubled, another region.
const PRICES: &str = r#"region = "eu-test-1"
on_demand_read_per_million = "0.25"
on_demand_write_per_million = "1.25"
provisioned_rcu_per_hour = "0.00026"
provisioned_wcu_per_hour = "0.0013"
"#;

/// An OpenAPI document with one public and one protected operation.
const OPENAPI: &str = r#"{
  "openapi": "3.1.0",
  "security": [{ "bearer": [] }],
  "paths": {
    "/health": { "get": { "security": [] } },
    "/orders/{orderId}": { "get": {}, "delete": {} }
  }
}"#;

fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn model_at(path: &str) -> Model {
    monotable_model::parse(&std::fs::read_to_string(workspace().join(path)).unwrap()).unwrap()
}

/// A root holding the shop's model, a price table and an OpenAPI document, and, outside it, a
/// price table and an OpenAPI document that links inside the root point to.
struct Project {
    root: tempfile::TempDir,
    _outside: tempfile::TempDir,
}

fn project() -> Project {
    let root = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let shop = std::fs::read_to_string(workspace().join(SHOP)).unwrap();
    std::fs::write(root.path().join("shop.toml"), shop).unwrap();
    std::fs::create_dir(root.path().join("config")).unwrap();
    std::fs::write(root.path().join("config/prices.toml"), PRICES).unwrap();
    std::fs::write(root.path().join("openapi.json"), OPENAPI).unwrap();
    std::fs::write(outside.path().join("prices.toml"), PRICES).unwrap();
    std::fs::write(outside.path().join("openapi.json"), OPENAPI).unwrap();
    #[cfg(unix)]
    for file in ["prices.toml", "openapi.json"] {
        let link = root.path().join(format!("out-{file}"));
        std::os::unix::fs::symlink(outside.path().join(file), link).unwrap();
    }
    Project {
        root,
        _outside: outside,
    }
}

#[tokio::test]
async fn cost_prices_with_the_price_table_under_the_root() {
    let project = project();
    let client = connect(project.root.path()).await;
    let shipped = ok(&client, "cost", json!({ "path": "shop.toml" })).await;
    let priced = ok(
        &client,
        "cost",
        json!({ "path": "shop.toml", "prices": "config/prices.toml" }),
    )
    .await;
    let prices = PriceTable::from_toml(PRICES).unwrap();
    let expected = cost::estimate(&model_at(SHOP), &prices).render_json();
    assert_eq!(priced, parsed(&expected));
    assert_eq!(priced["prices"]["region"], "eu-test-1", "{priced}");
    assert_ne!(priced["designs"], shipped["designs"]);
    // A missing price table is the command's message; one that is not a price table too.
    let message = tool_error(
        &client,
        "cost",
        json!({ "path": "shop.toml", "prices": "none.toml" }),
    )
    .await;
    assert!(
        message.starts_with("cannot read price table none.toml: "),
        "{message}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn cost_compares_with_another_model_given_as_a_path_or_as_text() {
    let client = connect(&workspace()).await;
    let by_path = ok(
        &client,
        "cost",
        json!({ "path": SHOP, "compare_path": NATIVE }),
    )
    .await;
    let (old, new) = (model_at(SHOP), model_at(NATIVE));
    let expected = cost::compare(SHOP, &old, NATIVE, &new, &PriceTable::default());
    assert_eq!(by_path, parsed(&expected.render_json()));
    assert_eq!(by_path["old_name"], SHOP);
    assert_eq!(by_path["new_name"], NATIVE);
    assert_eq!(by_path["entities"].as_array().map(Vec::len), Some(8));
    let text = std::fs::read_to_string(workspace().join(NATIVE)).unwrap();
    let by_text = ok(
        &client,
        "cost",
        json!({ "path": SHOP, "compare_model": text, "prices": "crates/check/data/prices.toml" }),
    )
    .await;
    assert_eq!(by_text["new_name"], "<model>");
    assert_eq!(by_text["entities"], by_path["entities"]);
    assert_eq!(by_text["new"], by_path["new"]);
    // An invalid model to compare with is refused with its diagnostics.
    let message = tool_error(
        &client,
        "cost",
        json!({ "path": SHOP, "compare_model": "[table" }),
    )
    .await;
    assert!(
        message.starts_with("<model> is not a valid model"),
        "{message}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn cost_cross_checks_on_data_of_the_seed_given() {
    let client = connect(&workspace()).await;
    let estimate = ok(&client, "cost", json!({ "path": SHOP })).await;
    let checked = ok(
        &client,
        "cost",
        json!({ "path": SHOP, "cross_check": true, "seed": 7 }),
    )
    .await;
    assert_eq!(checked["cost"], estimate);
    assert_eq!(checked["crossCheck"]["agrees"], true, "{checked}");
    assert_eq!(checked["crossCheck"]["summary"]["disagree"], 0);
    assert_eq!(checked["crossCheck"]["table"], "Shop");
    assert_eq!(checked["crossCheck"]["seed"], 7);
    let default_seed = ok(
        &client,
        "cost",
        json!({ "path": SHOP, "cross_check": true }),
    )
    .await;
    assert_eq!(
        default_seed["crossCheck"]["seed"],
        monotable_verify::DEFAULT_SEED
    );
    client.cancel().await.unwrap();
}

/// `export` in `format` with `options` beside the model's `path`: the text.
async fn exported(client: &Client, format: &str, options: Value) -> String {
    let mut args = json!({ "path": SHOP, "format": format });
    args.as_object_mut()
        .unwrap()
        .extend(options.as_object().unwrap().clone());
    let out = ok(client, "export", args).await;
    assert_eq!(out["format"], format);
    out["text"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn export_makes_a_nosql_workbench_model_with_the_seeds_data() {
    let client = connect(&workspace()).await;
    let default = parsed(&exported(&client, "nosql-workbench", json!({})).await);
    let seeded = parsed(&exported(&client, "nosql-workbench", json!({ "seed": 9 })).await);
    let model = &default["DataModel"][0];
    assert_eq!(model["TableName"], "Shop", "{default}");
    let data = model["TableData"].as_array().unwrap();
    assert!(!data.is_empty(), "the verify sample data is the table data");
    assert_ne!(seeded["DataModel"][0]["TableData"], model["TableData"]);
    let facets = |doc: &Value| -> Vec<Value> {
        let facets = doc["DataModel"][0]["TableFacets"].as_array().unwrap();
        facets.iter().map(|f| f["FacetName"].clone()).collect()
    };
    assert_eq!(facets(&seeded), facets(&default));
    assert_eq!(facets(&default).len(), 8, "one facet per entity");
    // A native multi-attribute key has no place there: refused naming the model.
    let message = tool_error(
        &client,
        "export",
        json!({ "path": NATIVE, "format": "nosql-workbench" }),
    )
    .await;
    assert!(message.starts_with(&format!("{NATIVE}: ")), "{message}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn export_deploys_a_function_with_the_sam_options() {
    let project = project();
    let client = connect(project.root.path()).await;
    let export = |options: Value| {
        let mut args = json!({ "path": "shop.toml", "format": "sam" });
        args.as_object_mut()
            .unwrap()
            .extend(options.as_object().unwrap().clone());
        let client = &client;
        async move {
            let out = ok(client, "export", args).await;
            parsed(out["text"].as_str().unwrap())
        }
    };
    let table_only = export(json!({})).await;
    assert!(table_only["Resources"].get("ShopFunction").is_none());
    let defaults = export(json!({ "function": "Shop" })).await;
    let function = &defaults["Resources"]["ShopFunction"]["Properties"];
    assert_eq!(function["Handler"], "bootstrap", "{defaults}");
    assert_eq!(function["Architectures"], json!(["x86_64"]));
    let events = function["Events"].as_object().unwrap();
    assert_eq!(events.len(), 1, "one catch-all route: {events:?}");
    let all = export(json!({
        "function": "Shop",
        "handler": "main",
        "architecture": "arm64",
        "routes_from": "openapi.json",
        "code_uri": "dist/shop",
    }))
    .await;
    let function = &all["Resources"]["ShopFunction"]["Properties"];
    assert_eq!(function["Handler"], "main", "{all}");
    assert_eq!(function["Architectures"], json!(["arm64"]));
    assert_eq!(function["CodeUri"], "dist/shop");
    // The document's three operations, `public` where `security` allows no credentials, and a
    // public catch-all for what they leave out.
    let mut routes: Vec<String> = function["Events"]
        .as_object()
        .unwrap()
        .values()
        .map(|e| {
            let p = &e["Properties"];
            let public = if p.get("Auth").is_some() {
                " public"
            } else {
                ""
            };
            format!(
                "{} {}{public}",
                p["Method"].as_str().unwrap(),
                p["Path"].as_str().unwrap()
            )
        })
        .collect();
    routes.sort();
    assert_eq!(
        routes,
        [
            "ANY /{proxy+} public",
            "DELETE /orders/{orderId}",
            "GET /health public",
            "GET /orders/{orderId}",
        ]
    );
    // `x86_64` is the flag's alias.
    let alias = export(json!({ "function": "Shop", "architecture": "x86_64" })).await;
    assert_eq!(alias, defaults);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn diff_costs_each_step_with_the_items_given() {
    let client = connect(&workspace()).await;
    let sides = json!({ "old_path": SHOP, "new_path": NATIVE });
    let from_traffic = ok(&client, "diff", sides.clone()).await;
    let mut args = sides.clone();
    args["items"] = json!(["1000", "Order=250000,User=3"]);
    let counted = ok(&client, "diff", args).await;
    assert_ne!(counted["costs"], from_traffic["costs"]);
    let (old, new) = (model_at(SHOP), model_at(NATIVE));
    let values = ["1000", "Order=250000", "User=3"].map(String::from);
    let counts = monotable_migrate::diff::ItemCounts::parse(&values).unwrap();
    let d = monotable_migrate::diff::diff(&old, &new);
    let costs = monotable_migrate::diff::cost::costs(&old, &new, &d, &counts);
    let expected = serde_json::to_value(&costs).unwrap();
    assert_eq!(counted["costs"], expected);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn every_file_an_option_names_is_read_under_the_root_only() {
    let project = project();
    let client = connect(project.root.path()).await;
    let mut cases = vec![];
    for bad in ["../prices.toml", "/etc/passwd", "config/../../prices.toml"] {
        cases.push(("cost", json!({ "path": "shop.toml", "prices": bad })));
        cases.push(("cost", json!({ "path": "shop.toml", "compare_path": bad })));
        cases.push((
            "export",
            json!({ "path": "shop.toml", "format": "sam", "function": "Shop", "routes_from": bad }),
        ));
    }
    #[cfg(unix)]
    {
        cases.push((
            "cost",
            json!({ "path": "shop.toml", "prices": "out-prices.toml" }),
        ));
        cases.push((
            "export",
            json!({ "path": "shop.toml", "format": "sam", "function": "Shop", "routes_from": "out-openapi.json" }),
        ));
    }
    for (tool, args) in cases {
        let message = tool_error(&client, tool, args.clone()).await;
        assert!(message.contains("is outside the root"), "{args}: {message}");
        still_serves_here(&client).await;
    }
    client.cancel().await.unwrap();
    // The workspace's own server still serves after the same refusals.
    let client = connect(&workspace()).await;
    let message = tool_error(
        &client,
        "cost",
        json!({ "path": SHOP, "prices": "../Cargo.toml" }),
    )
    .await;
    assert!(message.contains("is outside the root"), "{message}");
    still_serves(&client).await;
    client.cancel().await.unwrap();
}

/// The project's server still answers: its model checked.
async fn still_serves_here(client: &Client) {
    let doc = ok(client, "check", json!({ "path": "shop.toml" })).await;
    assert_eq!(doc["file"], "shop.toml");
}
