//! The JSON documents of the API, computed from [`UiState`]: the model, an index's item
//! collections, one pattern's run, the diagnostics and the cost table.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_check::Diagnostic;
use monotable_model::diagnostic::SourceFile;
use monotable_model::raw::ProjectionType;
use monotable_model::{Condition, KeyCondition, KeyTemplate, Model, Operation, Pattern};
use monotable_verify::Sample;
use monotable_verify::oracle;
use serde_json::{Map, Value, json};

use crate::UiState;

/// Entity colours, by the entity's position in the model (wrapping around).
pub const PALETTE: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];

/// The colour of `entity`: its position among the model's entities in [`PALETTE`].
pub fn colour(model: &Model, entity: &str) -> &'static str {
    let i = model
        .entities
        .iter()
        .position(|e| e.name == entity)
        .unwrap_or(PALETTE.len() - 1);
    PALETTE[i % PALETTE.len()]
}

/// One key condition as text: `PK = "ORDER#{orderId}"`, `begins_with(SK, "ITEM#")`.
fn condition_text(c: &KeyCondition) -> String {
    condition_with(c, &|t| t.to_string())
}

/// One key condition with each template shown by `show` (as written, or rendered).
pub fn condition_with(c: &KeyCondition, show: &dyn Fn(&KeyTemplate) -> String) -> String {
    let a = &c.attribute;
    match &c.condition {
        Condition::Eq(t) => format!("{a} = \"{}\"", show(t)),
        Condition::BeginsWith(t) => format!("begins_with({a}, \"{}\")", show(t)),
        Condition::Between(x, y) => format!("{a} BETWEEN \"{}\" AND \"{}\"", show(x), show(y)),
        Condition::Lt(t) => format!("{a} < \"{}\"", show(t)),
        Condition::Le(t) => format!("{a} <= \"{}\"", show(t)),
        Condition::Gt(t) => format!("{a} > \"{}\"", show(t)),
        Condition::Ge(t) => format!("{a} >= \"{}\"", show(t)),
    }
}

/// A pattern's key condition as the model states it (templates, not values).
pub fn key_condition_text(pattern: &Pattern) -> String {
    pattern
        .key_conditions()
        .into_iter()
        .map(condition_text)
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// `GET /api/model`.
pub fn model(state: &UiState) -> Value {
    let m = &state.model;
    let indexes: Vec<Value> = m
        .indexes
        .iter()
        .map(|i| {
            json!({
                "name": i.name,
                "kind": format!("{:?}", i.kind).to_lowercase(),
                "partitionKey": i.partition_keys.iter().map(|k| k.name.clone()).collect::<Vec<_>>(),
                "sortKey": i.sort_keys.iter().map(|k| k.name.clone()).collect::<Vec<_>>(),
                "projection": projection_name(i.projection),
                "include": i.include,
                "sparse": i.sparse,
            })
        })
        .collect();
    let entities: Vec<Value> = m
        .entities
        .iter()
        .map(|e| json!({ "name": e.name, "colour": colour(m, &e.name) }))
        .collect();
    let patterns: Vec<Value> = m
        .patterns
        .iter()
        .map(|p| {
            let parameters: Vec<Value> = crate::params::parameters(m, p)
                .iter()
                .map(|x| json!({ "name": x.name, "hint": x.hint() }))
                .collect();
            json!({
                "name": p.name,
                "description": p.description,
                "operation": format!("{:?}", p.operation),
                "index": p.index_name().unwrap_or("table"),
                "keyCondition": key_condition_text(p),
                "reads": p.is_read(),
                "parameters": parameters,
                "limit": p.limit,
            })
        })
        .collect();
    json!({
        "path": state.path,
        "table": {
            "name": m.table.name,
            "partitionKey": m.table.partition_key.name,
            "sortKey": m.table.sort_key.as_ref().map(|k| k.name.clone()),
        },
        "indexes": indexes,
        "entities": entities,
        "patterns": patterns,
    })
}

fn projection_name(p: ProjectionType) -> &'static str {
    match p {
        ProjectionType::All => "ALL",
        ProjectionType::KeysOnly => "KEYS_ONLY",
        ProjectionType::Include => "INCLUDE",
    }
}

/// A value as plain JSON: strings and numbers as text, booleans as booleans, anything else in
/// DynamoDB's JSON form.
fn plain(value: &AttributeValue) -> Value {
    match value {
        AttributeValue::S(s) | AttributeValue::N(s) => Value::String(s.clone()),
        AttributeValue::Bool(b) => Value::Bool(*b),
        AttributeValue::Null(_) => Value::Null,
        other => {
            let mut item = std::collections::HashMap::new();
            item.insert(String::new(), other.clone());
            monotable_access::items::to_json(&item)
                .get("")
                .cloned()
                .unwrap_or(Value::Null)
        }
    }
}

/// Key text order: numerically when both are numbers, else by text.
fn key_order(a: &str, b: &str) -> Ordering {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        _ => a.cmp(b),
    }
}

/// What `GET /api/collections` reads: the table or one index.
struct View<'a> {
    name: String,
    partition: Vec<String>,
    sort: Vec<String>,
    /// `None`: every attribute; `Some(list)`: the keys and these.
    include: Option<&'a [String]>,
}

impl View<'_> {
    fn of<'m>(model: &'m Model, index: &str) -> Option<View<'m>> {
        if index == "table" {
            return Some(View {
                name: "table".to_string(),
                partition: vec![model.table.partition_key.name.clone()],
                sort: model
                    .table
                    .sort_key
                    .iter()
                    .map(|k| k.name.clone())
                    .collect(),
                include: None,
            });
        }
        let i = model.index(index)?;
        Some(View {
            name: i.name.clone(),
            partition: i.partition_keys.iter().map(|k| k.name.clone()).collect(),
            sort: i.sort_keys.iter().map(|k| k.name.clone()).collect(),
            include: match i.projection {
                ProjectionType::All => None,
                ProjectionType::KeysOnly => Some(&[]),
                ProjectionType::Include => Some(&i.include),
            },
        })
    }

    fn key_of(names: &[String], sample: &Sample) -> Option<String> {
        let parts: Option<Vec<&str>> = names.iter().map(|n| sample.key(n)).collect();
        parts.map(|p| p.join(" | "))
    }
}

/// One sample as the collections view shows it.
fn item_json(model: &Model, view: &View<'_>, sample: &Sample) -> Value {
    let id = oracle::ident(model, sample);
    let mut keys: Vec<&str> = vec![model.table.partition_key.name.as_str()];
    keys.extend(model.table.sort_key.iter().map(|k| k.name.as_str()));
    keys.extend(view.partition.iter().chain(&view.sort).map(String::as_str));
    let mut key_map = Map::new();
    for k in &keys {
        if let Some(v) = sample.item.get(*k) {
            key_map.insert((*k).to_string(), plain(v));
        }
    }
    let mut attributes: BTreeMap<String, Value> = BTreeMap::new();
    for (name, value) in &sample.item {
        if keys.contains(&name.as_str()) {
            continue;
        }
        let projected = match view.include {
            None => true,
            Some(list) => list.iter().any(|n| n == name),
        };
        if projected {
            attributes.insert(name.clone(), plain(value));
        }
    }
    json!({
        "id": id.to_string(),
        "entity": sample.entity,
        "colour": colour(model, &sample.entity),
        "pk": id.pk,
        "sk": id.sk,
        "keys": key_map,
        "attributes": attributes,
    })
}

/// `GET /api/collections?index=NAME`: `None` when there is no such index.
pub fn collections(state: &UiState, index: &str) -> Option<Value> {
    let model = &state.model;
    let view = View::of(model, index)?;
    // Partition value -> (sort value, sample); an item lacking a key attribute is not in the
    // index (which is what makes a sparse index sparse).
    let mut groups: BTreeMap<String, Vec<(String, &Sample)>> = BTreeMap::new();
    for s in &state.data.samples {
        let Some(pk) = View::key_of(&view.partition, s) else {
            continue;
        };
        let Some(sk) = View::key_of(&view.sort, s) else {
            continue;
        };
        groups.entry(pk).or_default().push((sk, s));
    }
    let mut ordered: Vec<(String, Vec<(String, &Sample)>)> = groups.into_iter().collect();
    ordered.sort_by(|a, b| key_order(&a.0, &b.0));
    let groups: Vec<Value> = ordered
        .into_iter()
        .map(|(pk, mut items)| {
            items.sort_by(|a, b| key_order(&a.0, &b.0));
            json!({
                "partitionKey": pk,
                "items": items.iter().map(|(_, s)| item_json(model, &view, s)).collect::<Vec<_>>(),
            })
        })
        .collect();
    Some(json!({
        "index": view.name,
        "partitionKey": view.partition,
        "sortKey": view.sort,
        "groups": groups,
    }))
}

/// `GET /api/patterns/NAME`: `None` when there is no such pattern.
pub fn pattern(state: &UiState, name: &str) -> Option<Value> {
    let model = &state.model;
    let pattern = model.patterns.iter().find(|p| p.name == name)?;
    let result = state.verify.patterns.iter().find(|r| r.name == name);
    let run = state.runs.get(name);
    // The run's items are named `Entity PK | SK`, as verify names samples; BatchGet and Scan
    // show the items of verify's own run.
    let by_ident: BTreeMap<String, &Sample> = state
        .data
        .samples
        .iter()
        .map(|s| (oracle::ident(model, s).to_string(), s))
        .collect();
    let from_engine = run.is_some_and(|r| r.problem.is_none());
    let names: &[String] = match (run, result) {
        (Some(r), _) if from_engine => &r.items,
        (_, Some(r)) if matches!(pattern.operation, Operation::BatchGet | Operation::Scan) => {
            &r.got
        }
        _ => &[],
    };
    let items: Vec<Value> = names
        .iter()
        .map(|g| match by_ident.get(g) {
            Some(s) => {
                let id = oracle::ident(model, s);
                json!({ "id": g, "entity": id.entity, "pk": id.pk, "sk": id.sk })
            }
            None => json!({ "id": g }),
        })
        .collect();
    let cost = state.cost.patterns.iter().find(|c| c.name == name);
    let verdict = match result {
        Some(r) if r.skipped => "skipped",
        Some(r) if r.passed => "ok",
        Some(_) => "failed",
        None => "not run",
    };
    Some(json!({
        "name": pattern.name,
        "operation": format!("{:?}", pattern.operation),
        "index": pattern.index_name().unwrap_or("table"),
        "keyCondition": key_condition_text(pattern),
        "rendered": run.map(|r| r.key_condition.clone()).unwrap_or_default(),
        "runProblem": run.and_then(|r| r.problem.clone()),
        "verifyRequest": result.map(|r| r.request.clone()).unwrap_or_default(),
        "items": items,
        "rcuPerCall": cost.map(|c| c.rcu_per_call()),
        "wcuPerCall": cost.map(|c| c.wcu_per_call()),
        "verdict": verdict,
        "message": result.map(|r| r.message.clone()).unwrap_or_default(),
    }))
}

/// `GET /api/diagnostics` of a model that built.
pub fn diagnostics(state: &UiState) -> Value {
    diagnostics_of(&state.path, &state.source, &state.diagnostics)
}

/// The diagnostics of `source` (named `path`), each rendered as `monotable check` prints it.
pub fn diagnostics_of(path: &str, source: &str, diagnostics: &[Diagnostic]) -> Value {
    let file = SourceFile::new(path, source);
    let list: Vec<Value> = diagnostics
        .iter()
        .map(|d| {
            let rendered = file.render(d);
            let (line, column) = d
                .span
                .as_ref()
                .map(|s| file.line_col(s.start))
                .map_or((None, None), |(l, c)| (Some(l), Some(c)));
            json!({
                "code": d.code,
                "severity": d.severity.as_str(),
                "message": d.message,
                "line": line,
                "column": column,
                "rendered": rendered,
            })
        })
        .collect();
    json!({ "path": path, "diagnostics": list })
}

/// `GET /api/cost`: the `cost --format json` document.
pub fn cost(state: &UiState) -> Value {
    serde_json::from_str(&state.cost.render_json()).unwrap_or(Value::Null)
}
