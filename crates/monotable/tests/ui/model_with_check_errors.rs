//! Compile-fail case: model with check errors.
#[derive(monotable::Entity)]
#[monotable(model = "tests/ui/model_with_check_errors.toml")]
struct User {
    user_id: String,
}

fn main() {}
