//! Compile-fail case: invalid model file.
use std::collections::{BTreeMap, BTreeSet};

use rust_decimal::Decimal;
use time::OffsetDateTime;

#[derive(monotable::Entity)]
#[monotable(model = "tests/ui/invalid_model.toml")]
struct Project {
    project_id: String,
    name: String,
    owner_id: String,
    budget: Decimal,
    archived: bool,
    created_at: OffsetDateTime,
    tags: Option<BTreeSet<String>>,
    settings: Option<BTreeMap<String, String>>,
    version: i64,
}

fn main() {}
