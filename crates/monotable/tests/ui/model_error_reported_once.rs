//! Compile-fail case: an invalid model read by two derives and `patterns!`: its error is
//! reported once.
#[derive(monotable::Entity)]
#[monotable(model = "tests/ui/invalid_model.toml")]
pub struct Project {
    pub project_id: String,
}

#[derive(monotable::Entity)]
#[monotable(model = "tests/ui/invalid_model.toml", entity = "Project")]
pub struct ProjectHeader {
    pub project_id: String,
}

monotable::patterns! {
    model = "tests/ui/invalid_model.toml";
    entities { Project => crate::Project }
}

fn main() {}
