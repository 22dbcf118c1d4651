//! What a model's items look like: `render_keys` (an entity's keys rendered from attribute
//! values, through the model's own templates) and `sample_items` (verify's generated items for
//! an entity, as DynamoDB JSON).

use std::collections::BTreeMap;

use monotable_model::Model;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::McpError;

/// The most items `sample_items` returns in one call.
pub const MAX_SAMPLES: usize = 50;

/// `render_keys`' answer.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct RenderedKeys {
    /// The entity.
    pub entity: String,
    /// The table's primary key: attribute name to rendered value.
    pub primary_key: BTreeMap<String, String>,
    /// Every key attribute the entity writes (table and indexes; a sparse index's only when its
    /// condition holds): attribute name to rendered value.
    pub keys: BTreeMap<String, String>,
}

/// `sample_items`' answer.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Samples {
    /// The seed the items were generated with (the same seed gives the same items).
    pub seed: u64,
    /// How many items of the asked entity (or of all) verify generates.
    pub total: usize,
    /// The first items, at most `count`.
    pub items: Vec<SampleItem>,
    /// Items that could not be generated, and why.
    pub warnings: Vec<String>,
}

/// One generated item.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct SampleItem {
    /// Its entity.
    pub entity: String,
    /// Its key attributes as rendered.
    pub keys: BTreeMap<String, String>,
    /// The item in DynamoDB JSON (`{"PK": {"S": "USER#1"}, ...}`).
    pub item: Value,
}

/// The entity `name` of `model`, or an error listing the entities.
fn entity<'m>(model: &'m Model, name: &str) -> Result<&'m monotable_model::EntityDecl, McpError> {
    model.entity(name).ok_or_else(|| {
        let known: Vec<&str> = model.entities.iter().map(|e| e.name.as_str()).collect();
        McpError::Refused(format!(
            "no entity `{name}`: the model has {}",
            known.join(", ")
        ))
    })
}

/// A JSON scalar as key templates see it: strings as they are, numbers as written, booleans as
/// `true`/`false`.
fn template_value(name: &str, value: &Value) -> Result<String, McpError> {
    match value {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(McpError::Refused(format!(
            "value of `{name}` is not a string, number or boolean"
        ))),
    }
}

/// `entity`'s keys rendered from `values`.
pub fn render_keys(
    model: &Model,
    name: &str,
    values: &BTreeMap<String, Value>,
) -> Result<RenderedKeys, McpError> {
    let decl = entity(model, name)?;
    let mut strings = BTreeMap::new();
    for (k, v) in values {
        strings.insert(k.clone(), template_value(k, v)?);
    }
    let lookup = |n: &str| strings.get(n).cloned();
    let refused =
        |e: monotable_model::RenderError| McpError::Refused(format!("entity `{name}`'s keys: {e}"));
    let primary_key = decl.render_primary_key(&lookup).map_err(refused)?;
    let keys = decl.render_keys(&lookup).map_err(refused)?;
    Ok(RenderedKeys {
        entity: name.to_string(),
        primary_key: primary_key.into_iter().collect(),
        keys: keys.into_iter().collect(),
    })
}

/// The first `count` of verify's generated items (of `only`, when given).
pub fn sample_items(
    model: &Model,
    only: Option<&str>,
    count: usize,
    seed: u64,
) -> Result<Samples, McpError> {
    if let Some(name) = only {
        entity(model, name)?;
    }
    if count > MAX_SAMPLES {
        return Err(McpError::Refused(format!(
            "count {count} is over the limit of {MAX_SAMPLES} items (MAX_SAMPLES)"
        )));
    }
    let data = monotable_verify::generate(model, seed);
    let wanted: Vec<_> = data
        .samples
        .iter()
        .filter(|s| only.is_none_or(|name| s.entity == name))
        .collect();
    let items = wanted
        .iter()
        .take(count)
        .map(|s| SampleItem {
            entity: s.entity.clone(),
            keys: s.keys.clone().into_iter().collect(),
            item: monotable_access::items::to_json(&s.item),
        })
        .collect();
    Ok(Samples {
        seed,
        total: wanted.len(),
        items,
        warnings: data.warnings,
    })
}
