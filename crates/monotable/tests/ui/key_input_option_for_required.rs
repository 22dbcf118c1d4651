//! Compile-fail case: a key input typed `Option` for an attribute the model already requires:
//! the advice is to make the field a plain value, never to make the attribute required.
use std::collections::{BTreeMap, BTreeSet};

use rust_decimal::Decimal;
use time::OffsetDateTime;

#[derive(monotable::Entity)]
#[monotable(model = "tests/model/app.toml", version = "version")]
struct Project {
    project_id: String,
    name: String,
    owner_id: Option<String>,
    budget: Decimal,
    archived: bool,
    created_at: OffsetDateTime,
    tags: Option<BTreeSet<String>>,
    settings: Option<BTreeMap<String, String>>,
    version: i64,
}

fn main() {}
