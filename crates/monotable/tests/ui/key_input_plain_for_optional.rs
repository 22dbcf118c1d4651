//! Compile-fail case: a key input the model leaves optional, held in a plain field: the advice is
//! to make the attribute required (a key is written on every item), not the field an Option.
#[derive(monotable::Entity)]
#[monotable(model = "tests/ui/optional_key_input.toml")]
struct Ticket {
    ticket_id: String,
    assignee: String,
}

fn main() {}
