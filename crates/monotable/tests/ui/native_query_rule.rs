//! Compile-fail case: a pattern on a native index that breaks DynamoDB's query rules.
use time::OffsetDateTime;

#[derive(monotable::Entity)]
#[monotable(model = "tests/ui/native_query_rule.toml")]
struct Ticket {
    ticket_id: String,
    state: String,
    shard: i64,
    opened_at: OffsetDateTime,
}

monotable::patterns! {
    model = "tests/ui/native_query_rule.toml";
    entities { Ticket => crate::Ticket }
}

fn main() {}
