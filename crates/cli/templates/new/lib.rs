//! {{name}}: a to-do API on one DynamoDB table, whose design is `model.toml`.
//!
//! The entities derive `monotable::Entity` and the reads are the model's access patterns
//! (`monotable::patterns!`), both checked against `model.toml` when this crate compiles: a field,
//! key or pattern that disagrees with the model is a compile error naming the model's line.
//! [`router`] is the HTTP API; `src/main.rs` serves it locally or on AWS Lambda.

mod error;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use monotable::{Table, WriteError};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

pub use error::ApiError;

/// A to-do list: the model's `List`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, monotable::Entity)]
#[serde(rename_all = "camelCase")]
pub struct List {
    /// ULID.
    pub list_id: String,
    /// 1 to 200 characters.
    pub title: String,
    /// When it was created.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

/// A task's status: the model's `status` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, monotable::Enum)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[monotable(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    /// Still to do.
    Open,
    /// Done.
    Done,
}

/// A task of a list: the model's `Task`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, monotable::Entity)]
#[serde(rename_all = "camelCase")]
#[monotable(version = "version")]
pub struct Task {
    /// Its list.
    pub list_id: String,
    /// ULID: tasks sort by creation.
    pub task_id: String,
    /// What to do.
    pub title: String,
    /// Open or done.
    pub status: Status,
    /// When it was created.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When it last changed.
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
    /// Bumped by every change (optimistic locking).
    pub version: i64,
}

// Every access pattern of the model as a typed request. Reads: `GetList { list_id }`,
// `GetListWithTasks { list_id }`, `ListTasksByStatus { list_id, status }`, ... Writes, each with
// the model's condition: `CreateList { list }`, `AddTask` (a transaction of `CheckList` and
// `CreateTask`), `SetTaskStatus { list_id, task_id, expected_version }.set_status(..)`,
// `DeleteTask { list_id, task_id }`. Also `MODEL_SOURCE` (the model's text) and `TABLE_NAME`.
monotable::patterns! {
    entities {
        List => crate::List,
        Task => crate::Task,
    }
}

/// The model this crate was compiled against (for `monotable::ensure_table`).
pub fn model() -> Result<monotable::model::Model, monotable::model::ModelError> {
    monotable::model::parse(MODEL_SOURCE)
}

/// The HTTP API over `table`.
pub fn router(table: Table) -> Router {
    Router::new()
        .route("/lists", post(create_list))
        .route("/lists/{list_id}", get(get_list))
        .route("/lists/{list_id}/tasks", post(add_task).get(list_tasks))
        .route(
            "/lists/{list_id}/tasks/{task_id}",
            patch(set_status).delete(delete_task),
        )
        .with_state(table)
}

/// `POST /lists` and `POST /lists/{listId}/tasks` body.
#[derive(Debug, Deserialize)]
pub struct NewItem {
    /// The title.
    pub title: String,
}

/// `PATCH /lists/{listId}/tasks/{taskId}` body.
#[derive(Debug, Deserialize)]
pub struct StatusChange {
    /// The new status.
    pub status: Status,
}

/// A list with all its tasks.
#[derive(Debug, Serialize)]
pub struct ListWithTasks {
    /// The list.
    #[serde(flatten)]
    pub list: List,
    /// Its tasks, oldest first.
    pub tasks: Vec<Task>,
}

/// `GET /lists/{listId}/tasks` query.
#[derive(Debug, Deserialize)]
pub struct TaskQuery {
    /// Which tasks (default `OPEN`).
    pub status: Option<Status>,
    /// Page size, 1 to 100 (default 50).
    pub limit: Option<usize>,
    /// `nextCursor` of the previous page.
    pub cursor: Option<String>,
}

/// A page of a listing.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageBody<T> {
    /// The items.
    pub items: Vec<T>,
    /// Pass as `cursor` for the next page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// Now, to the millisecond (what `rfc3339-utc-millis` keeps).
fn now() -> OffsetDateTime {
    let t = OffsetDateTime::now_utc();
    t.replace_millisecond(t.millisecond()).unwrap_or(t)
}

/// A new time-sortable id.
fn new_id() -> String {
    ulid::Ulid::new().to_string()
}

/// Ids are ULIDs: anything else names nothing (and never reaches a key).
fn check_id(what: &str, id: &str) -> Result<(), ApiError> {
    match ulid::Ulid::from_string(id) {
        Ok(_) => Ok(()),
        Err(_) => Err(ApiError::NotFound(format!("no {what} {id}"))),
    }
}

/// A title: trimmed, 1 to `max` characters (the model's `max_length`).
fn title(text: &str, max: usize) -> Result<String, ApiError> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > max {
        return Err(ApiError::Invalid(format!(
            "`title` must hold 1 to {max} characters"
        )));
    }
    Ok(text.to_string())
}

async fn create_list(
    State(db): State<Table>,
    Json(input): Json<NewItem>,
) -> Result<(StatusCode, Json<List>), ApiError> {
    let list = List {
        list_id: new_id(),
        title: title(&input.title, 200)?,
        created_at: now(),
    };
    CreateList { list: &list }.send(&db).await?;
    Ok((StatusCode::CREATED, Json(list)))
}

async fn get_list(
    State(db): State<Table>,
    Path(list_id): Path<String>,
) -> Result<Json<ListWithTasks>, ApiError> {
    check_id("list", &list_id)?;
    let all = GetListWithTasks {
        list_id: list_id.clone(),
    }
    .all(&db)
    .await?;
    let list = all
        .list
        .ok_or_else(|| ApiError::NotFound(format!("no list {list_id}")))?;
    Ok(Json(ListWithTasks {
        list,
        tasks: all.tasks,
    }))
}

async fn add_task(
    State(db): State<Table>,
    Path(list_id): Path<String>,
    Json(input): Json<NewItem>,
) -> Result<(StatusCode, Json<Task>), ApiError> {
    check_id("list", &list_id)?;
    let now = now();
    let task = Task {
        list_id: list_id.clone(),
        task_id: new_id(),
        title: title(&input.title, 500)?,
        status: Status::Open,
        created_at: now,
        updated_at: now,
        version: 1,
    };
    // The model's `addTask`: the list must exist, and the task is created, atomically. A
    // failure names the action that failed.
    let written = AddTask::new()
        .check_list(CheckList {
            list_id: list_id.clone(),
        })
        .create_task(CreateTask { task: &task })
        .send(&db)
        .await;
    match written {
        Ok(()) => Ok((StatusCode::CREATED, Json(task))),
        Err(e) if e.failed(AddTask::CHECK_LIST) => {
            Err(ApiError::NotFound(format!("no list {list_id}")))
        }
        Err(e) => Err(e.into()),
    }
}

async fn list_tasks(
    State(db): State<Table>,
    Path(list_id): Path<String>,
    Query(query): Query<TaskQuery>,
) -> Result<Json<PageBody<Task>>, ApiError> {
    check_id("list", &list_id)?;
    let limit = query.limit.unwrap_or(50);
    if !(1..=100).contains(&limit) {
        return Err(ApiError::Invalid("`limit` must be 1 to 100".into()));
    }
    let status = query.status.unwrap_or(Status::Open);
    let page = ListTasksByStatus { list_id, status }
        .limit(limit)
        .cursor(query.cursor.as_deref())
        .send(&db)
        .await?;
    Ok(Json(PageBody {
        items: page.items,
        next_cursor: page.next_cursor,
    }))
}

async fn set_status(
    State(db): State<Table>,
    Path((list_id, task_id)): Path<(String, String)>,
    Json(change): Json<StatusChange>,
) -> Result<Json<Task>, ApiError> {
    check_id("list", &list_id)?;
    check_id("task", &task_id)?;
    let found = GetTask {
        list_id: list_id.clone(),
        task_id: task_id.clone(),
    }
    .send(&db)
    .await?;
    let task = found.ok_or_else(|| ApiError::NotFound(format!("no task {task_id}")))?;
    let updated_at = now();
    // Conditional on the version read (the entity's version attribute: a stale one is a 409);
    // GSI1PK, which reads `status`, is rendered again in the same write.
    SetTaskStatus {
        list_id: task.list_id.clone(),
        task_id: task.task_id.clone(),
        expected_version: task.version,
    }
    .set_status(change.status)
    .set_updated_at(updated_at)
    .send(&db)
    .await?;
    Ok(Json(Task {
        status: change.status,
        updated_at,
        version: task.version + 1,
        ..task
    }))
}

async fn delete_task(
    State(db): State<Table>,
    Path((list_id, task_id)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    check_id("list", &list_id)?;
    check_id("task", &task_id)?;
    let delete = DeleteTask {
        list_id,
        task_id: task_id.clone(),
    };
    match delete.send(&db).await {
        Ok(()) => Ok(StatusCode::NO_CONTENT),
        Err(WriteError::NotFound { .. }) => Err(ApiError::NotFound(format!("no task {task_id}"))),
        Err(e) => Err(e.into()),
    }
}
