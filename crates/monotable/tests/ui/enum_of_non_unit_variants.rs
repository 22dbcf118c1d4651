//! Compile-fail case: an enum attribute's enum with a variant that holds data: one error, on the
//! enum, and none from the entity that holds it.
use rust_decimal::Decimal;
use time::{Date, OffsetDateTime};

#[derive(monotable::Enum)]
#[monotable(rename_all = "SCREAMING_SNAKE_CASE")]
enum Status {
    Todo,
    InProgress(u8),
    Done,
}

#[derive(monotable::Entity)]
#[monotable(model = "tests/model/app.toml", version = "version")]
struct Task {
    project_id: String,
    task_no: i64,
    title: String,
    status: Status,
    priority: u8,
    estimate: Option<Decimal>,
    team: String,
    assignee: String,
    flagged: bool,
    created_at: OffsetDateTime,
    due_on: Date,
    remind_at: Option<OffsetDateTime>,
    labels: Vec<String>,
    notes: Option<String>,
    version: i64,
}

fn main() {}
