//! Compile-fail case: a key input optional both in the model and in the struct.
#[derive(monotable::Entity)]
#[monotable(model = "tests/ui/optional_key_input.toml")]
struct Ticket {
    ticket_id: String,
    assignee: Option<String>,
}

fn main() {}
