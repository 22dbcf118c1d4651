//! Compile-fail case: plain for optional.
use std::collections::{BTreeMap, BTreeSet};

use rust_decimal::Decimal;
use time::OffsetDateTime;

#[derive(monotable::Entity)]
#[monotable(model = "tests/model/app.toml", version = "version")]
struct Project {
    project_id: String,
    name: String,
    owner_id: String,
    budget: Decimal,
    archived: bool,
    created_at: OffsetDateTime,
    tags: BTreeSet<String>,
    settings: Option<BTreeMap<String, String>>,
    version: i64,
}

fn main() {}
