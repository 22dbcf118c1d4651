//! Compile-fail case: float for decimal.
use std::collections::{BTreeMap, BTreeSet};

use time::OffsetDateTime;

#[derive(monotable::Entity)]
#[monotable(model = "tests/model/app.toml", version = "version")]
struct Project {
    project_id: String,
    name: String,
    owner_id: String,
    budget: f64,
    archived: bool,
    created_at: OffsetDateTime,
    tags: Option<BTreeSet<String>>,
    settings: Option<BTreeMap<String, String>>,
    version: i64,
}

fn main() {}
