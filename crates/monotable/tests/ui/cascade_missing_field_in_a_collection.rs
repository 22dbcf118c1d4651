//! Compile-fail case: a required attribute without a field, in an entity a collection pattern
//! returns with another: one error, on the struct, and none from `patterns!`.
use std::collections::{BTreeMap, BTreeSet};

use rust_decimal::Decimal;
use time::{Date, OffsetDateTime};

#[derive(Debug, Clone, monotable::Enum)]
#[monotable(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    Todo,
    InProgress,
    Done,
}

#[derive(Debug, Clone, monotable::Entity)]
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
}

#[derive(Debug, Clone, monotable::Entity)]
#[monotable(model = "tests/model/app.toml", version = "version")]
pub struct Task {
    pub project_id: String,
    pub title: String,
    pub status: Status,
    pub priority: u8,
    pub estimate: Option<Decimal>,
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
    entities { Project => crate::Project, Task => crate::Task }
}

fn main() {}
