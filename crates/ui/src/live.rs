//! The table view: the model's read patterns run against a live backend with the parameters a
//! person typed, a page at a time with a cursor; a plain Scan to browse; each item with its
//! entity type and whether its keys are what the model renders (the access layer's conformance
//! check, which `audit` runs too); and, with `--allow-writes` only, putting and deleting an
//! item. Every call goes through the access layer and fails with its classified errors.

use std::collections::HashMap;
use std::fmt::Display;

use aws_sdk_dynamodb::Client;
use axum::http::StatusCode;
use axum::response::Response;
use monotable_access::conform::{self, ItemKind};
use monotable_access::delete::DeleteItem;
use monotable_access::error::{ScanError, ServiceError, WriteError};
use monotable_access::items::{self, Item};
use monotable_access::pattern::{self as store_pattern, PatternError};
use monotable_access::scan::Scan;
use monotable_access::value::template_text;
use monotable_access::{PutSpec, Table};
use monotable_connect::serve::DataGate;
use monotable_model::{Model, Operation, Pattern};
use serde_json::{Value, json};

use crate::UiState;
use crate::params::{self, Refusal};
use crate::reply::error;

/// The backend the table view reads.
#[derive(Debug)]
pub struct Live {
    client: Client,
    backend: String,
    allow_writes: bool,
    /// Who may call the routes that read or write the table ([`DataGate::Open`] unless set).
    pub(crate) gate: DataGate,
    /// Keeps an embedded engine open as long as the view.
    _dynamo: Option<monotable_connect::Dynamo>,
}

impl Live {
    /// A view over `client`, described as `backend` on the page.
    pub fn new(client: Client, backend: impl Display, allow_writes: bool) -> Live {
        Live {
            client,
            backend: backend.to_string(),
            allow_writes,
            gate: DataGate::Open,
            _dynamo: None,
        }
    }

    /// A view over `dynamo`'s client, keeping `dynamo` (and its engine) open.
    pub fn from_dynamo(dynamo: monotable_connect::Dynamo, allow_writes: bool) -> Live {
        let backend = dynamo.backend().to_string();
        Live {
            client: dynamo.client().clone(),
            backend,
            allow_writes,
            gate: DataGate::Open,
            _dynamo: Some(dynamo),
        }
    }

    /// The same view behind `gate`: its table routes then ask for what the gate asks for, or
    /// are off.
    pub fn with_gate(mut self, gate: DataGate) -> Live {
        self.gate = gate;
        self
    }

    /// `GET /api/live`: the backend and what the table routes ask for (never table data).
    pub(crate) fn describe(&self, state: &UiState) -> Value {
        json!({
            "backend": self.backend,
            "table": state.model.table.name,
            "allowWrites": self.allow_writes,
            "access": {
                "mode": self.gate.mode(),
                "accessKey": self.gate.access_key(),
                "region": self.gate.region(),
                "service": "dynamodb",
            },
        })
    }

    /// Why a call failed, as the page's error: no answer at all (502 `backend_unreachable`), no
    /// such table (404), a request the backend refused as invalid (400), throttled (503), any
    /// other refusal (502 `backend_error`).
    fn failure(&self, table: &str, e: &ServiceError) -> Response {
        let backend = &self.backend;
        let (status, code, message) = match e {
            ServiceError::Unreachable { cause, .. } => (
                StatusCode::BAD_GATEWAY,
                "backend_unreachable",
                format!("cannot reach the backend ({backend}): {cause}"),
            ),
            ServiceError::TableMissing { .. } => (
                StatusCode::NOT_FOUND,
                "table_not_found",
                format!(
                    "the backend ({backend}) has no table `{table}` ({e}); `monotable tables` lists the tables it has"
                ),
            ),
            ServiceError::Validation { .. } => (
                StatusCode::BAD_REQUEST,
                "rejected",
                format!("the backend ({backend}) refused the request: {e}"),
            ),
            ServiceError::Throttled { .. } => (
                StatusCode::SERVICE_UNAVAILABLE,
                "throttled",
                format!("the backend ({backend}) throttled the request: {e}; try again"),
            ),
            _ => (
                StatusCode::BAD_GATEWAY,
                "backend_error",
                format!("the backend ({backend}) failed the call: {e}"),
            ),
        };
        error(status, code, message)
    }

    /// The model's table, reached through the view's client.
    fn table(&self, model: &Model) -> Table {
        Table::new(self.client.clone(), &model.table.name)
    }

    fn pattern_failure(&self, table: &str, e: &PatternError) -> Response {
        match e {
            PatternError::Call { error: service, .. } => self.failure(table, service),
            PatternError::Render { .. } => {
                error(StatusCode::BAD_REQUEST, "invalid_parameter", e.to_string())
            }
            other => error(StatusCode::BAD_REQUEST, "bad_request", other.to_string()),
        }
    }

    fn write_failure(&self, table: &str, e: &WriteError) -> Response {
        match e {
            WriteError::Service(service) => self.failure(table, service),
            other => error(StatusCode::CONFLICT, "write_refused", other.to_string()),
        }
    }
}

fn refused((code, message): Refusal) -> Response {
    error(StatusCode::BAD_REQUEST, code, message)
}

/// One item as the table view shows it.
fn item_json(model: &Model, item: &Item) -> Value {
    let checked = conform::check_item(model, item);
    let (kind, entity) = match &checked.kind {
        ItemKind::Entity(name) => ("entity", Some(name.clone())),
        ItemKind::Unknown(name) => ("unknown", Some(name.clone())),
        ItemKind::Untyped => ("untyped", None),
        ItemKind::Migration => ("migration", None),
        _ => ("unknown", None),
    };
    let keys_match = kind == "entity" && !checked.findings.iter().any(|f| f.code.concerns_keys());
    let text = |name: &str| item.get(name).and_then(template_text);
    let findings: Vec<Value> = checked
        .findings
        .iter()
        .map(|f| json!({ "code": f.code.code(), "message": f.diagnostic.message }))
        .collect();
    json!({
        "entity": entity,
        "kind": kind,
        "colour": entity.as_deref().map(|e| crate::api::colour(model, e)),
        "pk": text(&model.table.partition_key.name),
        "sk": model.table.sort_key.as_ref().and_then(|k| text(&k.name)),
        "keysMatch": keys_match,
        "findings": findings,
        "item": items::to_json(item),
    })
}

fn page_json(model: &Model, request: String, found: &[Item], next: Option<&Item>) -> Value {
    json!({
        "request": request,
        "count": found.len(),
        "items": found.iter().map(|i| item_json(model, i)).collect::<Vec<_>>(),
        "cursor": next.map(params::cursor),
    })
}

impl Live {
    /// `GET /api/live/patterns/NAME?PARAM=..&limit=N&cursor=C`.
    pub(crate) async fn run(
        &self,
        state: &UiState,
        name: &str,
        query: &HashMap<String, String>,
    ) -> Response {
        let model = &state.model;
        let Some(pattern) = model.pattern(name) else {
            return error(
                StatusCode::NOT_FOUND,
                "unknown_pattern",
                format!("the model has no pattern `{name}`"),
            );
        };
        match pattern.operation {
            Operation::Query | Operation::GetItem => {}
            Operation::Scan => return self.scan(state, pattern.index_name(), query).await,
            Operation::BatchGet => {
                return error(
                    StatusCode::BAD_REQUEST,
                    "not_runnable",
                    format!(
                        "`{name}` is a BatchGet: run the GetItem pattern of its entity once per key"
                    ),
                );
            }
            _ if !self.allow_writes => return read_only(),
            _ => {
                return error(
                    StatusCode::BAD_REQUEST,
                    "not_runnable",
                    format!(
                        "`{name}` writes: the page runs read patterns; change items by editing their JSON"
                    ),
                );
            }
        }
        let values = match params::values(model, pattern, query) {
            Ok(v) => v,
            Err(r) => return refused(r),
        };
        let (limit, start) = match (params::limit(Some(pattern), query), params::start(query)) {
            (Ok(l), Ok(s)) => (l, s),
            (Err(r), _) | (_, Err(r)) => return refused(r),
        };
        let request = rendered(pattern, &values);
        let lookup = |n: &str| values.get(n).cloned();
        if pattern.operation == Operation::GetItem {
            return match store_pattern::get(&self.table(model), model, name, &lookup).await {
                Ok(found) => json_ok(page_json(model, request, found.as_slice(), None)),
                Err(e) => self.pattern_failure(&model.table.name, &e),
            };
        }
        let table = self.table(model);
        match store_pattern::query_page(&table, model, name, &lookup, limit, start).await {
            Ok(page) => json_ok(page_json(
                model,
                request,
                &page.items,
                page.last_evaluated_key.as_ref(),
            )),
            Err(e) => self.pattern_failure(&model.table.name, &e),
        }
    }

    /// `GET /api/live/scan?index=NAME&limit=N&cursor=C`: the table (or an index) in storage
    /// order, to browse.
    pub(crate) async fn scan(
        &self,
        state: &UiState,
        index: Option<&str>,
        query: &HashMap<String, String>,
    ) -> Response {
        let model = &state.model;
        let index = index.or(query
            .get("index")
            .map(String::as_str)
            .filter(|i| *i != "table"));
        if let Some(i) = index.filter(|i| model.index(i).is_none()) {
            return error(
                StatusCode::NOT_FOUND,
                "unknown_index",
                format!("the model has no index `{i}` (use `table` for the table)"),
            );
        }
        let (limit, start) = match (params::limit(None, query), params::start(query)) {
            (Ok(l), Ok(s)) => (l, s),
            (Err(r), _) | (_, Err(r)) => return refused(r),
        };
        let answer = Scan::new()
            .index(index)
            .limit(limit)
            .start(start)
            .page(&self.table(model))
            .await;
        match answer {
            Ok(page) => {
                let request = format!("Scan {}", index.unwrap_or("table"));
                json_ok(page_json(
                    model,
                    request,
                    &page.items,
                    page.last_evaluated_key.as_ref(),
                ))
            }
            Err(ScanError::Service(e)) => self.failure(&model.table.name, &e),
            Err(e) => error(StatusCode::BAD_GATEWAY, "backend_error", e.to_string()),
        }
    }

    /// `PUT /api/live/item` with `{"item": {...}}` in DynamoDB's JSON form.
    pub(crate) async fn put(&self, state: &UiState, body: &Value) -> Response {
        if !self.allow_writes {
            return read_only();
        }
        let item = match body.get("item").map(items::from_json) {
            Some(Ok(item)) if !item.is_empty() => item,
            Some(Err(why)) => return error(StatusCode::BAD_REQUEST, "invalid_item", why),
            _ => {
                return error(
                    StatusCode::BAD_REQUEST,
                    "invalid_item",
                    "the body is {\"item\": {...}}, the item in DynamoDB's JSON form".to_string(),
                );
            }
        };
        let model = &state.model;
        let answer = PutSpec::item(item.clone(), &model.table_key_names())
            .send(&self.table(model))
            .await;
        match answer {
            Ok(()) => json_ok(json!({ "written": item_json(model, &item) })),
            Err(e) => self.write_failure(&model.table.name, &e),
        }
    }

    /// `DELETE /api/live/item` with `{"key": {...}}` in DynamoDB's JSON form.
    pub(crate) async fn delete(&self, state: &UiState, body: &Value) -> Response {
        if !self.allow_writes {
            return read_only();
        }
        let Some(key) = body
            .get("key")
            .and_then(items::key_from_json)
            .filter(|k| !k.is_empty())
        else {
            return error(
                StatusCode::BAD_REQUEST,
                "invalid_key",
                "the body is {\"key\": {...}}, the item's key in DynamoDB's JSON form".to_string(),
            );
        };
        let answer = DeleteItem::new(key)
            .measured(&self.table(&state.model))
            .await;
        match answer {
            Ok(deleted) => json_ok(json!({ "deleted": deleted.old.is_some() })),
            Err(e) => self.write_failure(&state.model.table.name, &e),
        }
    }
}

fn read_only() -> Response {
    error(
        StatusCode::FORBIDDEN,
        "read_only",
        "the table view is read-only; start `monotable ui` with --allow-writes to change items"
            .to_string(),
    )
}

fn json_ok(value: Value) -> Response {
    axum::response::IntoResponse::into_response(axum::Json(value))
}

/// The key condition with the values filled in.
fn rendered(pattern: &Pattern, values: &std::collections::BTreeMap<String, String>) -> String {
    let lookup = |n: &str| values.get(n).cloned();
    pattern
        .key_conditions()
        .into_iter()
        .map(|c| {
            crate::api::condition_with(c, &|t| t.render(&lookup).unwrap_or_else(|_| t.to_string()))
        })
        .collect::<Vec<_>>()
        .join(" AND ")
}
