//! Compile-fail case: a field of the wrong type, in an entity `patterns!` reads: one error, on
//! the field, and none from the code `patterns!` generates for it.
use std::collections::{BTreeMap, BTreeSet};

use rust_decimal::Decimal;
use time::OffsetDateTime;

#[derive(monotable::Entity)]
#[monotable(model = "tests/model/app.toml", version = "version")]
pub struct Project {
    pub project_id: i64,
    pub name: String,
    pub owner_id: String,
    pub budget: Decimal,
    pub archived: bool,
    pub created_at: OffsetDateTime,
    pub tags: Option<BTreeSet<String>>,
    pub settings: Option<BTreeMap<String, String>>,
    pub version: i64,
}

monotable::patterns! {
    model = "tests/model/app.toml";
    entities { Project => crate::Project }
}

fn main() {}
