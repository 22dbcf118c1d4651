//! The API on the embedded in-memory engine: requests through the Router (no socket), and the
//! typed access patterns on the same table.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use monotable::Table;
use serde_json::{Value, json};
use tower::ServiceExt;

// `::` names the library crate, whatever its name: never an item of this file.
use ::__crate_name__::{self as app, ListTasksByStatus, SetTaskStatus, Status};

/// A fresh table on the in-memory engine, and the Router over it.
async fn setup() -> (axum::Router, Table) {
    let dynamo = monotable::connect::memory().expect("the in-memory engine starts");
    let model = app::model().expect("the model parses");
    monotable::ensure_table(dynamo.client(), &model)
        .await
        .expect("the table is created");
    let table = Table::new(dynamo.client().clone(), app::TABLE_NAME);
    (app::router(table.clone()), table)
}

/// Send one request; the status and the JSON body (`null` when empty).
async fn call(
    api: &axum::Router,
    method: Method,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    if body.is_some() {
        request = request.header("content-type", "application/json");
    }
    let body = body.map_or_else(Body::empty, |b| Body::from(b.to_string()));
    let response = api
        .clone()
        .oneshot(request.body(body).expect("a request"))
        .await
        .expect("the router answers");
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("a body");
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, json)
}

fn id(value: &Value, field: &str) -> String {
    value[field].as_str().expect("an id").to_string()
}

#[tokio::test]
async fn a_list_and_its_tasks_through_the_api() {
    let (api, _) = setup().await;
    let (status, list) = call(
        &api,
        Method::POST,
        "/lists",
        Some(json!({"title": "Groceries"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{list}");
    let tasks = format!("/lists/{}/tasks", id(&list, "listId"));
    for title in ["Milk", "Bread"] {
        let (status, _) = call(&api, Method::POST, &tasks, Some(json!({"title": title}))).await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (_, open) = call(&api, Method::GET, &tasks, None).await;
    assert_eq!(open["items"].as_array().map(Vec::len), Some(2), "{open}");
    let milk = format!("{tasks}/{}", id(&open["items"][0], "taskId"));
    let (status, done) = call(&api, Method::PATCH, &milk, Some(json!({"status": "DONE"}))).await;
    assert_eq!(
        (status, done["version"].as_i64()),
        (StatusCode::OK, Some(2)),
        "{done}"
    );
    let (_, open) = call(&api, Method::GET, &tasks, None).await;
    assert_eq!(open["items"][0]["title"], "Bread", "{open}");
    let (_, whole) = call(
        &api,
        Method::GET,
        &format!("/lists/{}", id(&list, "listId")),
        None,
    )
    .await;
    assert_eq!(
        (
            whole["title"].as_str(),
            whole["tasks"].as_array().map(Vec::len)
        ),
        (Some("Groceries"), Some(2))
    );
    assert_eq!(
        call(&api, Method::DELETE, &milk, None).await.0,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        call(&api, Method::DELETE, &milk, None).await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn errors_say_what_is_wrong() {
    let (api, _) = setup().await;
    let missing = "/lists/01ARZ3NDEKTSV4RRFFQ69G5FAV";
    assert_eq!(
        call(&api, Method::GET, missing, None).await.0,
        StatusCode::NOT_FOUND
    );
    let (status, body) = call(
        &api,
        Method::POST,
        &format!("{missing}/tasks"),
        Some(json!({"title": "x"})),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
    let (status, _) = call(&api, Method::POST, "/lists", Some(json!({"title": " "}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = call(
        &api,
        Method::GET,
        &format!("{missing}/tasks?cursor=forged"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_typed_patterns_see_what_the_api_wrote() {
    let (api, table) = setup().await;
    let (_, list) = call(
        &api,
        Method::POST,
        "/lists",
        Some(json!({"title": "Chores"})),
    )
    .await;
    let list_id = id(&list, "listId");
    let tasks = format!("/lists/{list_id}/tasks");
    for title in ["Dishes", "Laundry", "Floors"] {
        call(&api, Method::POST, &tasks, Some(json!({"title": title}))).await;
    }
    // Two pages of two and one: the cursor of the first resumes the second.
    let open = ListTasksByStatus {
        list_id: list_id.clone(),
        status: Status::Open,
    };
    let first = open.limit(2).send(&table).await.expect("a page");
    assert_eq!(first.items.len(), 2);
    let rest = open
        .limit(2)
        .cursor(first.next_cursor.as_deref())
        .send(&table)
        .await
        .expect("a page");
    assert_eq!((rest.items.len(), rest.next_cursor), (1, None));
    // The model's `setTaskStatus` moves the task to the DONE partition of the index.
    let task = first.items[0].clone();
    SetTaskStatus {
        list_id: task.list_id.clone(),
        task_id: task.task_id.clone(),
        expected_version: task.version,
    }
    .set_status(Status::Done)
    .send(&table)
    .await
    .expect("updated");
    let done = ListTasksByStatus {
        list_id,
        status: Status::Done,
    }
    .all(&table)
    .await
    .expect("read");
    assert_eq!(
        done.iter().map(|t| t.task_id.clone()).collect::<Vec<_>>(),
        [task.task_id]
    );
    assert_eq!(done[0].version, 2);
}
