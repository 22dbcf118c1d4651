//! Compile-fail case: a model file that is not there, named by a derive and by `patterns!`: one
//! error.
#[derive(monotable::Entity)]
#[monotable(model = "tests/model/ap.toml")]
pub struct Project {
    pub project_id: String,
}

monotable::patterns! {
    model = "tests/model/ap.toml";
    entities { Project => crate::Project }
}

fn main() {}
