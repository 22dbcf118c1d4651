//! The model view's API over the shop's model, through the router (no sockets).

use crate::common;

use axum::http::StatusCode;
use common::{get, get_json};
use serde_json::Value;

#[tokio::test]
async fn the_routes_answer() {
    let (state, _stop) = common::shop(None);

    // The model.
    let (status, model) = get_json(&state, "/api/model").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(model["table"]["partitionKey"], "PK");
    assert!(
        model["indexes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["name"] == "GSI2" && i["sparse"] == true)
    );
    assert!(
        model["entities"][0]["colour"]
            .as_str()
            .unwrap()
            .starts_with('#')
    );

    // GSI2: orders by status, published products; no draft.
    let (status, gsi2) = get_json(&state, "/api/collections?index=GSI2").await;
    assert_eq!(status, StatusCode::OK);
    let groups = gsi2["groups"].as_array().unwrap();
    let names: Vec<&str> = groups
        .iter()
        .map(|g| g["partitionKey"].as_str().unwrap())
        .collect();
    assert!(names.iter().any(|n| n.starts_with("STATUS#")), "{names:?}");
    assert!(names.contains(&"PUBLISHED"), "{names:?}");
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "groups are sorted by partition key");
    let mut products = 0;
    for g in groups {
        let items = g["items"].as_array().unwrap();
        let sks: Vec<&str> = items
            .iter()
            .map(|i| i["keys"]["GSI2SK"].as_str().unwrap())
            .collect();
        let mut sorted = sks.clone();
        sorted.sort();
        assert_eq!(sks, sorted, "items are sorted by sort key");
        for item in items {
            if item["entity"] == "Product" {
                products += 1;
                assert_eq!(item["attributes"]["published"], true, "{item}");
            }
        }
    }
    assert!(products > 0);
    let snapshot = state.snapshot().await;
    let built = snapshot.ready().expect("the shop's model builds");
    let unpublished = built
        .data
        .samples
        .iter()
        .filter(|s| {
            s.entity == "Product" && s.values.get("published").map(String::as_str) == Some("false")
        })
        .count();
    assert!(unpublished > 0, "the samples hold drafts to leave out");

    // The table.
    let (status, table) = get_json(&state, "/api/collections").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(table["index"], "table");
    let total: usize = table["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["items"].as_array().unwrap().len())
        .sum();
    assert_eq!(total, built.data.samples.len());

    // One order and its items.
    let (status, p) = get_json(&state, "/api/patterns/getOrderWithItems").await;
    assert_eq!(status, StatusCode::OK, "{p}");
    let items = p["items"].as_array().unwrap();
    let orders: Vec<&Value> = items.iter().filter(|i| i["entity"] == "Order").collect();
    assert_eq!(orders.len(), 1, "{p}");
    assert!(items.iter().any(|i| i["entity"] == "OrderItem"), "{p}");
    assert!(
        items
            .iter()
            .all(|i| (i["entity"] == "Order" || i["entity"] == "OrderItem")
                && i["pk"] == orders[0]["pk"]),
        "{p}"
    );
    assert_eq!(p["verdict"], "ok", "{p}");
    assert!(p["rcuPerCall"].as_f64().unwrap() > 0.0, "{p}");
    assert!(
        p["rendered"].as_str().unwrap().starts_with("PK = \"ORDER#"),
        "{p}"
    );
    assert!(!p["rendered"].as_str().unwrap().contains('{'), "{p}");

    // Diagnostics and cost.
    let (status, d) = get_json(&state, "/api/diagnostics").await;
    assert_eq!(status, StatusCode::OK);
    assert!(d["diagnostics"].is_array());
    for x in d["diagnostics"].as_array().unwrap() {
        assert!(
            x["rendered"]
                .as_str()
                .unwrap()
                .contains(x["code"].as_str().unwrap())
        );
    }
    let (status, c) = get_json(&state, "/api/cost").await;
    assert_eq!(status, StatusCode::OK);
    assert!(c["patterns"].is_array());

    // The page.
    let (status, page) = get(&state, "/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("api/collections"));
    assert!(page.contains("<base href=\"/\">"));
}

#[tokio::test]
async fn unknown_things_are_404() {
    let (state, _stop) = common::shop(None);
    let (status, body) = get_json(&state, "/api/nope").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"], "not_found");
    let (status, body) = get_json(&state, "/api/patterns/noSuchPattern").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["message"].as_str().unwrap().contains("noSuchPattern"));
    let (status, body) = get_json(&state, "/api/collections?index=GSI99").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"], "unknown_index");
    let (status, page) = get(&state, "/nowhere").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(page.contains("Not found") && page.contains("/nowhere"));
    let (status, _) = get(&state, "/api/patterns/%FF%FE").await;
    assert!(status.is_client_error());
}

/// The JSON the page carries in `#initial`.
fn initial(page: &str) -> Value {
    let open = "<script id=\"initial\" type=\"application/json\">";
    let start = page.find(open).expect("an #initial element") + open.len();
    let end = start + page[start..].find("</script>").expect("closed");
    serde_json::from_str(&page[start..end]).expect("JSON")
}

#[tokio::test]
async fn the_page_carries_its_first_view_and_cannot_be_broken_out_of() {
    let (ui, _stop) = common::shop(None);
    let (_, page) = get(&ui, "/").await;
    let first = initial(&page);
    let (_, model) = get_json(&ui, "/api/model").await;
    let (_, table) = get_json(&ui, "/api/collections").await;
    let (_, diagnostics) = get_json(&ui, "/api/diagnostics").await;
    assert_eq!(first["model"], model);
    assert_eq!(first["collections"], table);
    assert_eq!(first["diagnostics"], diagnostics);

    // Model text that ends the script element is carried as data, not markup.
    let hostile = common::SHOP.replacen(
        "description = \"An order and all its items",
        "description = \"</script><script>alert(1)</script><!-- An order and all its items",
        1,
    );
    assert_ne!(hostile, common::SHOP);
    let source = monotable_ui::ModelSource::Text {
        path: "x.toml".into(),
        text: hostile,
    };
    let (ui, _stop) = common::ui_with(source, "", None);
    let (_, page) = get(&ui, "/").await;
    assert!(
        !page.contains("</script><script>alert(1)"),
        "the text cannot end the element"
    );
    assert!(!page.contains("<!-- An order"), "nor open a comment in it");
    assert_eq!(
        page.matches("</script>").count(),
        2,
        "only the page's own two scripts end"
    );
    let carried = initial(&page);
    let p = carried["model"]["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "getOrderWithItems")
        .unwrap();
    assert!(
        p["description"]
            .as_str()
            .unwrap()
            .starts_with("</script><script>alert(1)</script><!--"),
        "{p}"
    );
}

#[tokio::test]
async fn scan_and_batch_get_patterns_run_on_the_samples() {
    let text = r#"
[table]
name = "Things"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "SK", type = "S" }

[entities.User]
attributes.userId = { type = "string", required = true }
keys.PK = "USER#{userId}"
keys.SK = "PROFILE"

[patterns.allUsers]
operation = "Scan"
returns = ["User"]
paginate = true

[patterns.someUsers]
operation = "BatchGet"
key = { PK = "USER#{userId}", SK = "PROFILE" }
returns = ["User"]
"#;
    let source = monotable_ui::ModelSource::Text {
        path: "things.toml".into(),
        text: text.into(),
    };
    let (ui, _stop) = common::ui_with(source, "", None);
    let snapshot = ui.snapshot().await;
    let samples = snapshot
        .ready()
        .expect("the model builds")
        .data
        .samples
        .len();
    let (status, scan) = get_json(&ui, "/api/patterns/allUsers").await;
    assert_eq!(status, StatusCode::OK, "{scan}");
    assert!(scan["runProblem"].is_null(), "{scan}");
    assert_eq!(scan["items"].as_array().unwrap().len(), samples, "{scan}");
    let (_, batch) = get_json(&ui, "/api/patterns/someUsers").await;
    assert!(batch["runProblem"].is_null(), "{batch}");
    let got = batch["items"].as_array().unwrap();
    assert_eq!(got.len(), samples.min(5), "{batch}");
    assert!(got.iter().all(|i| i["entity"] == "User"), "{batch}");
    assert!(
        batch["rendered"].as_str().unwrap().contains("PK = \"USER#"),
        "{batch}"
    );
}
