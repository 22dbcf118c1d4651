//! Compile-fail case: a write no pattern declares. An app writes through its model's write
//! patterns; the generic writes are only under `monotable::unchecked`, for tools.
use time::{Date, OffsetDateTime};

#[derive(Debug, Clone, Copy, PartialEq, Eq, monotable::Enum)]
#[monotable(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    Todo,
    InProgress,
    Done,
}

#[derive(monotable::Entity)]
#[monotable(model = "tests/model/app.toml", version = "version")]
pub struct Task {
    pub project_id: String,
    pub task_no: i64,
    pub title: String,
    pub status: Status,
    pub priority: u8,
    pub estimate: Option<rust_decimal::Decimal>,
    pub team: String,
    pub assignee: String,
    pub flagged: bool,
    pub created_at: OffsetDateTime,
    pub due_on: Date,
    pub remind_at: Option<OffsetDateTime>,
    pub labels: Vec<String>,
    pub notes: Option<String>,
    pub version: i64,
}

monotable::patterns! {
    model = "tests/model/app.toml";
    entities { Task => crate::Task }
}

async fn undeclared(table: &monotable::Table, task: &Task) {
    let _ = table.put(task).await;
}

fn main() {}
