//! cfn-lint validates the CloudFormation and SAM exports of the shop, the shop on native
//! multi-attribute index keys, the seed model, a provisioned model with local and INCLUDE
//! indexes, the streams example (its consumers' functions, roles and failure destinations), and
//! a consumer whose role reads an index.
//!
//! Needs `cfn-lint` (PyPI) on PATH, or its path in `CFN_LINT`; `scripts/test.sh` installs it from
//! `requirements-dev.txt`. Without it this test fails rather than silently passing.

use std::path::PathBuf;
use std::process::Command;

use monotable_export::{cloudformation, sam};

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");
const SHOP_NATIVE: &str = include_str!("../../../../examples/shop/shop-native.toml");
const SEED: &str = include_str!("../../../../examples/seed-original/model.toml");
/// A stream with a consumer (an SQS failure queue) and, below, one with an SNS topic.
const STREAMS: &str = include_str!("../../../../examples/streams/sales.toml");
/// Provisioned billing, a numeric sort key, a KEYS_ONLY global index and an INCLUDE local index.
const PROVISIONED: &str = r#"
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
sort_key = { name = "TypeSK", type = "S" }
projection = "INCLUDE"
include = ["title", "owner"]

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

[patterns.byOwner]
operation = "Query"
index = "ByOwner"
key = { OwnerPK = "OWNER#{owner}" }
returns = ["Event"]

[patterns.byType]
operation = "Query"
index = "ByType"
key = { PK = "STREAM#{stream}", TypeSK = "begins_with({type}#)" }
returns = ["Event"]
"#;

#[test]
fn cloudformation_and_sam_pass_cfn_lint() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut files: Vec<PathBuf> = Vec::new();
    for (name, source) in [
        ("shop", SHOP),
        ("shop-native", SHOP_NATIVE),
        ("seed", SEED),
        ("provisioned", PROVISIONED),
        ("streams", STREAMS),
        (
            "streams-topic",
            &STREAMS
                .replace("on_failure = \"queue\"", "on_failure = \"topic\"")
                .replace("retries = 3", "retries = -1"),
        ),
        (
            // A consumer whose role reads an index: `${Table.Arn}/index/NAME`.
            "consumer-reads",
            &crate::iam_consumers::source(
                "writes = [\"putTally\"]\nreads = [\"byOwner\", \"getThing\"]",
            ),
        ),
    ] {
        let model = match monotable_model::parse(source) {
            Ok(model) => model,
            Err(e) => panic!("{name} model does not parse: {e:?}"),
        };
        let mut function = monotable_export::FunctionOptions::new("App");
        function.routes = vec![
            monotable_export::Route {
                method: "GET".into(),
                path: "/things".into(),
                public: true,
            },
            monotable_export::Route {
                method: "POST".into(),
                path: "/things/{id}".into(),
                public: false,
            },
        ];
        let with_function = monotable_export::SamOptions::default().with_function(function);
        for (format, text) in [
            ("cloudformation", cloudformation(&model)),
            ("sam", sam(&model)),
            (
                "sam-function",
                monotable_export::sam_with(&model, &with_function),
            ),
        ] {
            if name == "shop-native" {
                assert_native_key_schema(&text);
            }
            let path = dir.path().join(format!("{name}-{format}.json"));
            std::fs::write(&path, text).expect("write template");
            files.push(path);
        }
    }

    let program = std::env::var_os("CFN_LINT").unwrap_or_else(|| "cfn-lint".into());
    let output = match Command::new(&program)
        .args(["--non-zero-exit-code", "warning", "--"])
        .args(&files)
        .output()
    {
        Ok(output) => output,
        Err(e) => panic!(
            "cannot run `{}` ({e}): cfn-lint is not installed. Install it with \
             `python3 -m pip install -r requirements-dev.txt` (scripts/test.sh does), \
             or set CFN_LINT to its path.",
            program.to_string_lossy()
        ),
    };
    assert!(
        output.status.success(),
        "cfn-lint reported problems in the exported templates ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
}

/// The template cfn-lint is given has a global index keyed on more than two attributes, so the
/// lint covers a native multi-attribute `KeySchema`.
fn assert_native_key_schema(template: &str) {
    let value: serde_json::Value = serde_json::from_str(template).expect("template is JSON");
    let gsis = value["Resources"]["Table"]["Properties"]["GlobalSecondaryIndexes"]
        .as_array()
        .expect("global indexes");
    let longest = gsis
        .iter()
        .filter_map(|g| g["KeySchema"].as_array().map(Vec::len))
        .max()
        .unwrap_or(0);
    assert!(
        longest > 2,
        "no global index KeySchema with more than two elements: {gsis:?}"
    );
}
