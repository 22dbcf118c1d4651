//! Compile-fail case: a condition's value is typed as the attribute it is compared with;
//! `reassignTask`'s `team = {fromTeam}` takes the `team` attribute's type, a `String`.
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

fn main() {
    let _ = ReassignTask {
        project_id: "p1".to_string(),
        task_no: 1,
        expected_version: 1,
        from_team: 7,
    };
}
