//! The server's resources (the model format, the rules, the model's JSON Schema, the example
//! models), embedded at build time, and its one prompt: the design loop.

use rmcp::model::{
    AnnotateAble, GetPromptResult, Prompt, PromptArgument, PromptMessage, PromptMessageRole,
    RawResource, Resource, ResourceContents,
};

/// The model's JSON Schema (schema/monotable-model.schema.json).
pub const MODEL_SCHEMA: &str = include_str!("../../../schema/monotable-model.schema.json");

/// Each resource: URI, name, MIME type, description, text.
const RESOURCES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "monotable://docs/model.md",
        "model.md",
        "text/markdown",
        "The model file format: table, indexes, entities, key templates, access patterns, traffic.",
        include_str!("../../../docs/model.md"),
    ),
    (
        "monotable://docs/checks.md",
        "checks.md",
        "text/markdown",
        "Every rule `check` runs (MT000..), what it catches and how to fix it.",
        crate::explain::CHECKS_MD,
    ),
    (
        "monotable://schema/monotable-model.schema.json",
        "monotable-model.schema.json",
        "application/schema+json",
        "The model file's JSON Schema.",
        MODEL_SCHEMA,
    ),
    (
        "monotable://examples/shop/shop.toml",
        "shop.toml",
        "application/toml",
        "The shop's model: a complete single-table design (users, products, orders) to start from.",
        include_str!("../../../examples/shop/shop.toml"),
    ),
    (
        "monotable://examples/shop/shop-native.toml",
        "shop-native.toml",
        "application/toml",
        "The shop's model on native multi-attribute index keys instead of synthetic ones.",
        include_str!("../../../examples/shop/shop-native.toml"),
    ),
    (
        "monotable://examples/streams/sales.toml",
        "sales.toml",
        "application/toml",
        "A table stream and a consumer that keeps per-product daily sales.",
        include_str!("../../../examples/streams/sales.toml"),
    ),
    (
        "monotable://examples/seed-original/model.toml",
        "seed-original.toml",
        "application/toml",
        "A flawed design to practise on: the tutorial's original model, on which check reports errors and warnings.",
        include_str!("../../../examples/seed-original/model.toml"),
    ),
];

/// The resources, for `resources/list`.
pub fn list() -> Vec<Resource> {
    RESOURCES
        .iter()
        .map(|(uri, name, mime, description, text)| {
            let mut raw = RawResource::new(*uri, *name)
                .with_description(*description)
                .with_mime_type(*mime);
            if let Ok(size) = u32::try_from(text.len()) {
                raw = raw.with_size(size);
            }
            raw.no_annotation()
        })
        .collect()
}

/// The resource `uri` names, or `None`.
pub fn read(uri: &str) -> Option<ResourceContents> {
    RESOURCES
        .iter()
        .find(|(u, ..)| *u == uri)
        .map(|(uri, _, mime, _, text)| ResourceContents::text(*text, *uri).with_mime_type(*mime))
}

/// The prompt's name.
pub const DESIGN_LOOP: &str = "design-loop";

/// The design loop prompt, for `prompts/list`.
pub fn prompt() -> Prompt {
    Prompt::new(
        DESIGN_LOOP,
        Some(
            "Draft a single-table design, then check, explain and fix until clean, then verify, then cost.",
        ),
        Some(vec![
            PromptArgument::new("requirements")
                .with_description("The application's entities and access patterns, in prose.")
                .with_required(true),
        ]),
    )
}

/// The design loop, filled in with `requirements`.
pub fn design_loop(requirements: &str) -> GetPromptResult {
    let text = format!(
        "Design a DynamoDB single-table model for these requirements:\n\n{requirements}\n\n\
         Work in this loop, with the monotable tools:\n\
         1. Draft the model as TOML (read the resource monotable://docs/model.md for the format, \
         and monotable://examples/shop/shop.toml for a complete example; the `schema` tool gives \
         its JSON Schema).\n\
         2. Run `check` on it (the `model` argument takes the text).\n\
         3. For each diagnostic, run `explain` with its code: read why it matters and compare the \
         failing and passing models. Fix the model; a diagnostic's `help` and `fix` say how.\n\
         4. Repeat 2 and 3 until `check` reports no errors and no warnings.\n\
         5. Run `verify`: every access pattern must return exactly what it promises on generated \
         data. A failing pattern shows its request and the items expected and returned: fix the \
         key templates or the pattern and go back to 2.\n\
         6. Run `cost`, and report the design with its capacity units per pattern and its monthly \
         price. Use `export` with format `markdown` for the design document."
    );
    let mut result =
        GetPromptResult::new(vec![PromptMessage::new_text(PromptMessageRole::User, text)]);
    result.description = Some("The design loop: draft, check, explain, fix, verify, cost.".into());
    result
}
