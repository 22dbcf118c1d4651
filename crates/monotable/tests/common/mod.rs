//! What every test binary shares: the test model's entities and patterns, typed by the library
//! from `tests/model/app.toml`, sample values, and a fresh table: on the embedded engine, or on
//! the endpoint in `MONOTABLE_TEST_ENDPOINT` under a name of its own, deleted when the test ends.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use monotable::Table;
use monotable_connect::faults::Faults;
use rust_decimal::Decimal;
use time::{Date, OffsetDateTime};

/// The test model's text.
pub const MODEL: &str = include_str!("../model/app.toml");

/// A task's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, monotable::Enum)]
#[monotable(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    Todo,
    InProgress,
    Done,
}

/// The model's `Project`: the header of its item collection.
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

/// The model's `Task`.
#[derive(Debug, Clone, PartialEq, monotable::Entity)]
#[monotable(model = "tests/model/app.toml", version = "version")]
pub struct Task {
    pub project_id: String,
    pub task_no: i64,
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

/// The model's `Comment`: every other timestamp format, a float, a map, a list and sets.
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
    entities {
        Project => crate::common::Project,
        Task => crate::common::Task,
        Comment => crate::common::Comment,
    }
}

/// `2024-05-01T12:00:00.000Z` plus `minutes`.
pub fn at(minutes: i64) -> OffsetDateTime {
    time::macros::datetime!(2024-05-01 12:00 UTC) + time::Duration::minutes(minutes)
}

/// A decimal from its text.
pub fn dec(text: &str) -> Decimal {
    text.parse().expect("a decimal")
}

pub fn project(id: &str, owner: &str) -> Project {
    Project {
        project_id: id.to_string(),
        name: format!("Project {id}"),
        owner_id: owner.to_string(),
        budget: dec("1234.50"),
        archived: false,
        created_at: at(0),
        tags: Some(BTreeSet::from(["alpha".to_string(), "b#eta".to_string()])),
        settings: Some(BTreeMap::from([("theme".to_string(), "dark".to_string())])),
        version: 1,
        open_tasks: None,
    }
}

pub fn task(project_id: &str, task_no: i64) -> Task {
    Task {
        project_id: project_id.to_string(),
        task_no,
        title: format!("Task {task_no}"),
        status: Status::Todo,
        priority: 3,
        estimate: Some(dec("2.5")),
        team: "core".to_string(),
        assignee: "ada".to_string(),
        flagged: false,
        created_at: at(task_no),
        due_on: time::macros::date!(2024 - 06 - 01),
        remind_at: None,
        labels: vec!["bug".to_string()],
        notes: None,
        version: 1,
    }
}

pub fn comment(project_id: &str, task_no: i64, n: i64) -> Comment {
    Comment {
        project_id: project_id.to_string(),
        task_no,
        comment_id: format!("c{n:04}"),
        author: "ada".to_string(),
        body: format!("comment {n}"),
        posted_at: at(n),
        edited_at: None,
        client_time: None,
        imported_at: None,
        read_at_ms: None,
        score: None,
        reactions: None,
        mentions: None,
        liked_by: BTreeSet::new(),
        votes: None,
        pinned: false,
    }
}

/// How long an index read may take to show a write on an external endpoint.
const INDEX_LAG_DEADLINE: Duration = Duration::from_secs(15);

/// A fresh table of the test model.
pub struct TestTable {
    pub table: Table,
    /// Its connection (the stream is read through its DynamoDB Streams client).
    pub dynamo: monotable::connect::Dynamo,
    /// On an external endpoint: the table to delete when the test ends.
    external: Option<String>,
}

impl std::ops::Deref for TestTable {
    type Target = Table;
    fn deref(&self) -> &Table {
        &self.table
    }
}

impl Drop for TestTable {
    fn drop(&mut self) {
        let Some(name) = self.external.take() else {
            return;
        };
        let client = self.table.client().clone();
        // Drop may run inside the test's runtime: delete from a thread with its own.
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async {
                if let Err(e) = client.delete_table().table_name(&name).send().await {
                    eprintln!("could not delete test table {name}: {e:?}");
                }
            });
        })
        .join();
    }
}

fn model() -> monotable::model::Model {
    monotable::model::parse(MODEL).expect("the test model parses")
}

/// The endpoint in `MONOTABLE_TEST_ENDPOINT`, when one is set.
pub fn endpoint() -> Option<String> {
    std::env::var("MONOTABLE_TEST_ENDPOINT")
        .ok()
        .filter(|u| !u.trim().is_empty())
}

impl TestTable {
    /// A fresh table: the embedded engine, or the test endpoint.
    pub async fn new() -> TestTable {
        TestTable::of(MODEL).await
    }

    /// A fresh table of the model in `source`: the embedded engine, or the test endpoint.
    pub async fn of(source: &str) -> TestTable {
        let mut model = monotable::model::parse(source).expect("the test model parses");
        let mut external = None;
        let dynamo = match endpoint() {
            Some(url) => {
                let nanos = OffsetDateTime::now_utc().unix_timestamp_nanos();
                model.table.name = format!("MonotableTest-{}-{nanos}", std::process::id());
                external = Some(model.table.name.clone());
                monotable::connect::connect(&monotable::connect::Backend::Endpoint(url))
                    .await
                    .expect("endpoint")
            }
            None => monotable::connect::memory().expect("engine"),
        };
        monotable::ensure_table(dynamo.client(), &model)
            .await
            .expect("table");
        TestTable {
            table: Table::new(dynamo.client().clone(), &model.table.name),
            dynamo,
            external,
        }
    }

    /// A table on the embedded engine whose requests first meet `faults` (the fault injection
    /// lives in the in-process connector, so these tests never use an endpoint).
    pub async fn with_faults(faults: Arc<Faults>) -> TestTable {
        let model = model();
        let engine = monotable::connect::Engine::memory().expect("engine");
        monotable::ensure_table(
            &monotable::connect::inprocess::client(engine.clone()),
            &model,
        )
        .await
        .expect("table");
        let client = monotable::connect::inprocess::client_with_faults(engine.clone(), faults);
        TestTable {
            table: Table::new(client, &model.table.name),
            dynamo: monotable::connect::Dynamo::embedded(engine),
            external: None,
        }
    }

    /// A table on an embedded engine whose stream records are stamped by `clock`, which the
    /// test moves to age them past the stream's retention.
    pub async fn on_clock(clock: &monotable::connect::ManualClock) -> TestTable {
        let model = model();
        let engine = monotable::connect::Engine::memory_with_clock(clock).expect("engine");
        let dynamo = monotable::connect::Dynamo::embedded(engine);
        monotable::ensure_table(dynamo.client(), &model)
            .await
            .expect("table");
        TestTable {
            table: Table::new(dynamo.client().clone(), &model.table.name),
            dynamo,
            external: None,
        }
    }

    /// Whether the table is on an external endpoint (whose indexes lag writes).
    pub fn is_external(&self) -> bool {
        self.external.is_some()
    }

    /// `read` again until `done` holds of its answer (a global index on real DynamoDB catches
    /// up after the write), up to a deadline; on the embedded engine, once. The caller's
    /// assertions then judge the answer.
    pub async fn eventually<T, F, Fut>(&self, mut read: F, done: impl Fn(&T) -> bool) -> T
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = T>,
    {
        let deadline = Instant::now() + INDEX_LAG_DEADLINE;
        loop {
            let answer = read().await;
            if done(&answer) || !self.is_external() || Instant::now() > deadline {
                return answer;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// The raw item at `key`, read with the SDK (strongly consistent).
    pub async fn raw<E>(&self, key: monotable::Key<E>) -> Option<monotable::Item> {
        self.table
            .client()
            .get_item()
            .table_name(self.table.name())
            .set_key(Some(key.into_item()))
            .consistent_read(true)
            .send()
            .await
            .expect("GetItem")
            .item
    }
}
