//! Compile-fail case: a model `monotable check` finds an error in, read by a derive and
//! `patterns!`: the error is reported once.
#[derive(monotable::Entity)]
#[monotable(model = "tests/ui/model_with_check_errors.toml")]
pub struct User {
    pub user_id: String,
}

monotable::patterns! {
    model = "tests/ui/model_with_check_errors.toml";
    entities { User => crate::User }
}

fn main() {}
