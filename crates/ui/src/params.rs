//! The table view's request parameters: a pattern's parameters (the variables of its key
//! templates) with their model types, checked before anything is sent; the page size; and the
//! cursor, which is the `LastEvaluatedKey` in DynamoDB's JSON form, base64url-encoded.

use std::collections::{BTreeMap, HashMap};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use monotable_access::items::{self, Item};
use monotable_model::{Attribute, AttributeType, Model, Pattern};

/// Items per page when the request and the pattern name none.
pub const DEFAULT_LIMIT: usize = 25;

/// Query names that are not pattern parameters.
const RESERVED: [&str; 3] = ["limit", "cursor", "index"];

/// A request the table view refuses before calling the backend: (code, message).
pub type Refusal = (&'static str, String);

/// A request's query as name → value, each name at most once: `?userId=a&userId=b` is
/// refused rather than one of them silently chosen.
#[derive(Debug, Default)]
pub struct Params(pub HashMap<String, String>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Params {
    type Rejection = axum::response::Response;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Params, Self::Rejection> {
        let query = parts.uri.query().unwrap_or("");
        let refuse =
            |code, message| crate::reply::error(axum::http::StatusCode::BAD_REQUEST, code, message);
        let pairs: Vec<(String, String)> = query_pairs(query)
            .ok_or_else(|| refuse("invalid_query", "the query string is not valid".into()))?;
        let mut out = HashMap::with_capacity(pairs.len());
        for (name, value) in pairs {
            if out.contains_key(&name) {
                return Err(refuse(
                    "repeated_parameter",
                    format!("`{name}` is given more than once; give each parameter once"),
                ));
            }
            out.insert(name, value);
        }
        Ok(Params(out))
    }
}

/// The query's name/value pairs, decoded as forms are (`+` is a space), in order.
fn query_pairs(query: &str) -> Option<Vec<(String, String)>> {
    axum::extract::Query::<Vec<(String, String)>>::try_from_uri(&format!("/?{query}").parse().ok()?)
        .ok()
        .map(|q| q.0)
}

/// One parameter of a pattern.
#[derive(Debug, Clone)]
pub struct Parameter<'m> {
    /// The template variable.
    pub name: String,
    /// Its declaration: the pattern's `params`, else an attribute of an entity it returns.
    pub attribute: Option<&'m Attribute>,
}

impl Parameter<'_> {
    /// What the page shows next to the field: `integer`, `enum: PENDING, SHIPPED`.
    pub fn hint(&self) -> String {
        let Some(a) = self.attribute else {
            return "string".to_string();
        };
        match a.ty {
            AttributeType::Enum if !a.values.is_empty() => format!("enum: {}", a.values.join(", ")),
            _ => a.type_label(),
        }
    }
}

/// The variables of `pattern`'s key templates, in order, each once.
pub fn parameters<'m>(model: &'m Model, pattern: &'m Pattern) -> Vec<Parameter<'m>> {
    pattern
        .key_variables()
        .into_iter()
        .map(|name| Parameter {
            name: name.to_string(),
            attribute: declared(model, pattern, name),
        })
        .collect()
}

/// Where `name` is declared: the pattern's own `params`, else the entities it returns, else
/// any entity.
fn declared<'m>(model: &'m Model, pattern: &'m Pattern, name: &str) -> Option<&'m Attribute> {
    if let Some(a) = pattern.params.iter().find(|a| a.name == name) {
        return Some(a);
    }
    let returned = model
        .entities
        .iter()
        .filter(|e| pattern.returns.iter().any(|r| r.name == e.name));
    let mut everyone = model.entities.iter();
    returned
        .flat_map(|e| e.attributes.iter())
        .find(|a| a.name == name)
        .or_else(|| everyone.find_map(|e| e.attributes.iter().find(|a| a.name == name)))
}

/// The parameters' values from `query`: every one present, non-empty and of its type.
pub fn values(
    model: &Model,
    pattern: &Pattern,
    query: &HashMap<String, String>,
) -> Result<BTreeMap<String, String>, Refusal> {
    let wanted = parameters(model, pattern);
    let unknown: Vec<&str> = query
        .keys()
        .map(String::as_str)
        .filter(|k| !RESERVED.contains(k) && !wanted.iter().any(|p| p.name == *k))
        .collect();
    if let Some(k) = unknown.first() {
        let names: Vec<String> = wanted.iter().map(|p| format!("`{}`", p.name)).collect();
        return Err((
            "unknown_parameter",
            format!(
                "`{}` takes no parameter `{k}`; its parameters are {}",
                pattern.name,
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        ));
    }
    let mut out = BTreeMap::new();
    for p in &wanted {
        let value = match query.get(&p.name).map(|v| v.trim()) {
            Some(v) if !v.is_empty() => v.to_string(),
            _ => {
                return Err((
                    "missing_parameter",
                    format!(
                        "`{}` needs a value for `{}` ({})",
                        pattern.name,
                        p.name,
                        p.hint()
                    ),
                ));
            }
        };
        if let Some(why) = p
            .attribute
            .and_then(|a| monotable_access::conform::text_problem(a, &value))
        {
            return Err((
                "invalid_parameter",
                format!("parameter `{}` of `{}`: {why}", p.name, pattern.name),
            ));
        }
        out.insert(p.name.clone(), value);
    }
    Ok(out)
}

/// The page size: `limit` from the query, else the pattern's, else [`DEFAULT_LIMIT`].
pub fn limit(pattern: Option<&Pattern>, query: &HashMap<String, String>) -> Result<usize, Refusal> {
    let max = monotable_access::MAX_PAGE;
    match query.get("limit") {
        Some(text) => match text.trim().parse::<usize>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err((
                "invalid_limit",
                format!("`limit` is a whole number from 1 to {max}; got `{text}`"),
            )),
        },
        None => Ok(pattern
            .and_then(|p| p.limit)
            .and_then(|l| usize::try_from(l).ok())
            .unwrap_or(DEFAULT_LIMIT)
            .clamp(1, max)),
    }
}

/// The cursor of the page after one that ended at `key`.
pub fn cursor(key: &Item) -> String {
    URL_SAFE_NO_PAD.encode(items::to_json(key).to_string())
}

/// The start key in `query`'s `cursor`, if any.
pub fn start(query: &HashMap<String, String>) -> Result<Option<Item>, Refusal> {
    let Some(text) = query.get("cursor").filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    let bad = || {
        (
            "invalid_cursor",
            "the cursor is not one this page issued; run the pattern again without it".to_string(),
        )
    };
    let bytes = URL_SAFE_NO_PAD.decode(text.trim()).map_err(|_| bad())?;
    let json: serde_json::Value = serde_json::from_slice(&bytes).map_err(|_| bad())?;
    items::key_from_json(&json)
        .filter(|k| !k.is_empty())
        .map(Some)
        .ok_or_else(bad)
}
