//! Compile-fail case: a struct mapped to an entity the model lacks, which `patterns!` maps by
//! its model name: one error, on the name, and none from the code `patterns!` generates.
use std::collections::{BTreeMap, BTreeSet};

use rust_decimal::Decimal;
use time::OffsetDateTime;

#[derive(monotable::Entity)]
#[monotable(model = "tests/model/app.toml", entity = "Projet")]
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
    entities { Project => crate::Project }
}

fn main() {}
