//! Golden files: every export of the shop model (`examples/shop/shop.toml`).

use monotable_export::{
    Capacity, Format, MarkdownOptions, cloudformation, create_table_json, export, markdown,
    markdown_with, sam, sam_with, ttl_spec,
};
use monotable_model::{Model, Pattern};

const SHOP: &str = include_str!("../../../examples/shop/shop.toml");

fn shop() -> Model {
    match monotable_model::parse(SHOP) {
        Ok(model) => model,
        Err(e) => panic!("examples/shop/shop.toml does not parse: {e:?}"),
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
