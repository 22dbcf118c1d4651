//! Compile-fail case: a key input the model leaves optional, with no field: the advice makes the
//! attribute required as well as adding the field.
#[derive(monotable::Entity)]
#[monotable(model = "tests/ui/optional_key_input.toml")]
struct Ticket {
    ticket_id: String,
}

fn main() {}
