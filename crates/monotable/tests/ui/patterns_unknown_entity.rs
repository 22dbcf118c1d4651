//! Compile-fail case: patterns unknown entity.
use std::collections::{BTreeMap, BTreeSet};

use rust_decimal::Decimal;
use time::OffsetDateTime;

#[derive(monotable::Entity)]
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

monotable::patterns! {
    model = "tests/model/app.toml";
    entities {
        Project => crate::Project,
        Projects => crate::Project,
    }
}

fn main() {}
