//! Compile-fail case: a model `number` held in a `String`, in a struct that derives `Eq`: the
//! advice names the type that is `Eq` too (`rust_decimal::Decimal`), not `f64` alone.
use std::collections::{BTreeSet, HashMap};

use time::OffsetDateTime;

#[derive(PartialEq, Eq, monotable::Entity)]
#[monotable(model = "tests/model/app.toml")]
struct Comment {
    project_id: String,
    task_no: i64,
    comment_id: String,
    author: String,
    body: String,
    posted_at: OffsetDateTime,
    edited_at: Option<OffsetDateTime>,
    client_time: Option<OffsetDateTime>,
    imported_at: Option<OffsetDateTime>,
    read_at_ms: Option<OffsetDateTime>,
    score: Option<String>,
    reactions: Option<HashMap<String, i64>>,
    mentions: Option<Vec<String>>,
    liked_by: BTreeSet<String>,
    votes: Option<BTreeSet<i64>>,
    pinned: bool,
}

fn main() {}
