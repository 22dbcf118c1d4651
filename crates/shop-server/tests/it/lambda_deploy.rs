//! What a user deploys: the SAM template for the shop (`monotable-shop openapi` then the tool's
//! `monotable export --format sam --function Shop --routes-from`) agrees with the shop's OpenAPI
//! document route by route (public routes without an authorizer), passes cfn-lint, and names an
//! architecture and runtime the shop's binary built here can run on.

use std::collections::BTreeMap;
use std::process::Command;

use monotable_test_support::{shop, tool};

fn shop_template(dir: &std::path::Path) -> (serde_json::Value, serde_json::Value) {
    let out = shop::run(&["openapi"], dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(dir.join("openapi.json"), &out.stdout).unwrap();
    let openapi: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let model =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop/shop.toml");
    let out = tool::run(
        &[
            "export",
            model.to_str().unwrap(),
            "--format",
            "sam",
            "--function",
            "Shop",
            "--routes-from",
            "openapi.json",
            "--output",
            "template.json",
        ],
        dir,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let template =
        serde_json::from_str(&std::fs::read_to_string(dir.join("template.json")).unwrap()).unwrap();
    (openapi, template)
}

#[test]
fn the_template_routes_are_the_openapi_routes_with_the_same_auth() {
    let dir = tempfile::tempdir().unwrap();
    let (openapi, template) = shop_template(dir.path());
    // (METHOD, path) -> public, from each side.
    let mut documented = BTreeMap::new();
    for (path, item) in openapi["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let public = op["security"].as_array().is_some_and(|s| {
                s.iter()
                    .any(|r| r.as_object().is_some_and(|o| o.is_empty()))
            });
            documented.insert((method.to_ascii_uppercase(), path.clone()), public);
        }
    }
    let mut deployed = BTreeMap::new();
    let events = template["Resources"]["ShopFunction"]["Properties"]["Events"]
        .as_object()
        .unwrap();
    for event in events.values() {
        let p = &event["Properties"];
        let key = (
            p["Method"].as_str().unwrap().to_string(),
            p["Path"].as_str().unwrap().to_string(),
        );
        let public = p["Auth"]["Authorizer"] == "NONE";
        deployed.insert(key, public);
    }
    // The catch-all lets the function answer unknown routes in its own error shape, unauthenticated.
    assert_eq!(
        deployed.remove(&("ANY".to_string(), "/{proxy+}".to_string())),
        Some(true)
    );
    assert_eq!(deployed, documented, "template and OpenAPI disagree");
    // The regression itself: the public catalogue is reachable without a token.
    for path in ["/products", "/products/{productId}"] {
        assert!(documented[&("GET".to_string(), path.to_string())], "{path}");
    }
    assert!(!documented[&("POST".to_string(), "/products".to_string())]);
    assert_eq!(
        template["Resources"]["HttpApi"]["Properties"]["Auth"]["DefaultAuthorizer"],
        "JwtAuthorizer"
    );
}

#[test]
fn the_shop_template_passes_cfn_lint() {
    let dir = tempfile::tempdir().unwrap();
    shop_template(dir.path());
    let program = std::env::var_os("CFN_LINT").unwrap_or_else(|| "cfn-lint".into());
    let out = Command::new(&program)
        .args(["--non-zero-exit-code", "warning", "--", "template.json"])
        .current_dir(dir.path())
        .output()
        .expect("cfn-lint is installed (scripts/test.sh installs requirements-dev.txt)");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_binary_built_here_runs_on_the_templates_runtime() {
    // provided.al2023 ships glibc 2.34: the binary may use no newer symbol version.
    let dir = tempfile::tempdir().unwrap();
    let (_, template) = shop_template(dir.path());
    let function = &template["Resources"]["ShopFunction"]["Properties"];
    assert_eq!(function["Runtime"], "provided.al2023");
    assert_eq!(
        function["Architectures"],
        serde_json::json!([std::env::consts::ARCH.replace("aarch64", "arm64")])
    );
    let out = Command::new("objdump")
        .args(["-T", env!("CARGO_BIN_EXE_monotable-shop")])
        .output()
        .expect("objdump (binutils) is installed");
    let symbols = String::from_utf8_lossy(&out.stdout);
    let newest = symbols
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter_map(|w| w.strip_prefix("GLIBC_"))
        .filter_map(|v| {
            let mut parts = v.split('.').map(|p| p.parse::<u32>().ok());
            Some((parts.next()??, parts.next().flatten().unwrap_or(0)))
        })
        .max()
        .expect("the binary links glibc");
    assert!(
        newest <= (2, 34),
        "the binary needs glibc {}.{}, newer than provided.al2023's 2.34",
        newest.0,
        newest.1
    );
}
