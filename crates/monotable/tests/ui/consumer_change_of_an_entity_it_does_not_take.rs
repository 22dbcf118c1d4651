//! A handler of consumer `pinnedComments` that matches a change of `Task`, an entity the
//! consumer does not take: `PinnedCommentsChange` has no such variant.
use std::collections::{BTreeMap, BTreeSet, HashMap};

use rust_decimal::Decimal;
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

#[derive(Debug, Clone, PartialEq, monotable::Entity)]
#[monotable(model = "tests/model/app.toml", version = "version")]
pub struct Project {
    pub project_id: String,
    pub name: String,
    pub owner_id: String,
    pub budget: Decimal,
    pub archived: bool,
    pub created_at: OffsetDateTime,
    pub tags: Option<BTreeSet<String>>,
    pub settings: Option<BTreeMap<String, String>>,
    pub version: i64,
    /// Not stored: filled in by the application.
    #[monotable(skip)]
    pub open_tasks: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, monotable::Entity)]
#[monotable(model = "tests/model/app.toml")]
pub struct Comment {
    pub project_id: String,
    pub task_no: i64,
    pub comment_id: String,
    pub author: String,
    pub body: String,
    pub posted_at: OffsetDateTime,
    pub edited_at: Option<OffsetDateTime>,
    pub client_time: Option<OffsetDateTime>,
    pub imported_at: Option<OffsetDateTime>,
    pub read_at_ms: Option<OffsetDateTime>,
    pub score: Option<f64>,
    pub reactions: Option<HashMap<String, i64>>,
    pub mentions: Option<Vec<String>>,
    pub liked_by: BTreeSet<String>,
    pub votes: Option<BTreeSet<i64>>,
    pub pinned: bool,
}

monotable::patterns! {
    model = "tests/model/app.toml";
    entities { Project => crate::Project, Task => crate::Task, Comment => crate::Comment }
}

fn main() {
    let _ = |change: PinnedCommentsChange| match change {
        PinnedCommentsChange::Comment(_) => {}
        PinnedCommentsChange::Task(_) => {}
    };
}
