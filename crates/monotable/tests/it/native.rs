//! Native multi-attribute index keys through the typed library: patterns take every partition
//! attribute and a sort condition that follows DynamoDB's rules; items sort attribute by
//! attribute (N as numbers); an item lacking a key attribute is not in the index; an update
//! moves the item between partitions with nothing to re-render; no key string is written.

use crate::common;

use monotable::unchecked::UncheckedWrites;

use common::TestTable;
use time::OffsetDateTime;

#[derive(Debug, Clone, Copy, PartialEq, Eq, monotable::Enum)]
#[monotable(rename_all = "SCREAMING_SNAKE_CASE")]
enum State {
    Open,
    Closed,
}

#[derive(Debug, Clone, PartialEq, monotable::Entity)]
#[monotable(model = "tests/model/native.toml", version = "version")]
struct Ticket {
    ticket_id: String,
    state: State,
    shard: i64,
    opened_at: OffsetDateTime,
    assignee: Option<String>,
    priority: i64,
    title: String,
    version: i64,
}

monotable::patterns! {
    model = "tests/model/native.toml";
    entities { Ticket => crate::native::Ticket }
}

const MODEL: &str = include_str!("../model/native.toml");

/// A fresh table of the native model: the embedded engine, or the test endpoint under a name of
/// its own, deleted at the end.
async fn table() -> TestTable {
    TestTable::of(MODEL).await
}

fn at(minutes: i64) -> OffsetDateTime {
    common::at(minutes)
}

fn ticket(id: &str, state: State, shard: i64, minutes: i64, priority: i64) -> Ticket {
    Ticket {
        ticket_id: id.into(),
        state,
        shard,
        opened_at: at(minutes),
        assignee: None,
        priority,
        title: format!("ticket {id}"),
        version: 0,
    }
}

fn ids(tickets: &[Ticket]) -> Vec<&str> {
    tickets.iter().map(|t| t.ticket_id.as_str()).collect()
}

async fn seed(table: &TestTable, tickets: &[Ticket]) {
    table.batch_put(tickets).await.expect("batch put");
}

#[tokio::test]
async fn a_partition_is_every_attribute_and_items_sort_attribute_by_attribute() {
    let t = table().await;
    seed(
        &t,
        &[
            ticket("b", State::Open, 1, 10, 1),
            ticket("a", State::Open, 1, 10, 1),
            ticket("c", State::Open, 1, 5, 1),
            ticket("d", State::Open, 2, 1, 1),
            ticket("e", State::Closed, 1, 1, 1),
        ],
    )
    .await;
    let open1 = TicketsInState {
        state: State::Open,
        shard: 1,
    };
    let got = t
        .eventually(|| open1.all(&t), |v| v.as_ref().is_ok_and(|v| v.len() == 3))
        .await
        .unwrap();
    // openedAt first, then ticketId: c (5), then a and b (10).
    assert_eq!(ids(&got), ["c", "a", "b"]);
    let since = TicketsInStateSince {
        state: State::Open,
        shard: 1,
        since: at(6),
    };
    assert_eq!(ids(&since.all(&t).await.unwrap()), ["b", "a"], "descending");
    let exact = TicketsOpenedAt {
        state: State::Open,
        shard: 1,
        at: at(10),
        prefix: "b".into(),
    };
    assert_eq!(ids(&exact.all(&t).await.unwrap()), ["b"]);
}

#[tokio::test]
async fn pages_resume_inside_a_native_partition() {
    let t = table().await;
    let tickets: Vec<Ticket> = (0..7)
        .map(|i| ticket(&format!("t{i}"), State::Open, 3, 100 - i, 1))
        .collect();
    seed(&t, &tickets).await;
    let listing = TicketsInState {
        state: State::Open,
        shard: 3,
    };
    t.eventually(
        || listing.all(&t),
        |v| v.as_ref().is_ok_and(|v| v.len() == 7),
    )
    .await
    .unwrap();
    let (mut seen, mut cursor) = (Vec::new(), None::<String>);
    loop {
        let page = listing
            .limit(3)
            .cursor(cursor.as_deref())
            .send(&t)
            .await
            .unwrap();
        seen.extend(page.items.iter().map(|t| t.ticket_id.clone()));
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    assert_eq!(seen, ["t6", "t5", "t4", "t3", "t2", "t1", "t0"]);
    let other = TicketsInState {
        state: State::Open,
        shard: 2,
    };
    let first = listing
        .limit(3)
        .send(&t)
        .await
        .unwrap()
        .next_cursor
        .unwrap();
    assert!(
        other.limit(3).cursor(Some(&first)).send(&t).await.is_err(),
        "a cursor is bound to its partition"
    );
}

#[tokio::test]
async fn an_item_without_a_key_attribute_is_not_in_the_index_and_numbers_sort_as_numbers() {
    let t = table().await;
    let mut list = Vec::new();
    for (id, priority) in [("p10", 10), ("p2", 2), ("p9", 9)] {
        let mut k = ticket(id, State::Open, 0, 1, priority);
        k.assignee = Some("ann".into());
        list.push(k);
    }
    list.push(ticket("nobody", State::Open, 0, 1, 5));
    seed(&t, &list).await;
    let all = AssignedTickets {
        assignee: "ann".into(),
        low: 0,
        high: 100,
    };
    let got = t
        .eventually(|| all.all(&t), |v| v.as_ref().is_ok_and(|v| v.len() == 3))
        .await
        .unwrap();
    assert_eq!(ids(&got), ["p2", "p9", "p10"], "N compares as numbers");
    let some = AssignedTickets {
        assignee: "ann".into(),
        low: 2,
        high: 9,
    };
    assert_eq!(ids(&some.all(&t).await.unwrap()), ["p2", "p9"]);
}

#[tokio::test]
async fn an_update_moves_the_item_and_writes_no_key_string() {
    let t = table().await;
    let k = ticket("m", State::Open, 1, 1, 1);
    t.create(&k).await.unwrap();
    k.unchecked_update()
        .set_state(State::Closed)
        .send(&t)
        .await
        .unwrap();
    let closed = TicketsInState {
        state: State::Closed,
        shard: 1,
    };
    let got = t
        .eventually(
            || closed.all(&t),
            |v| v.as_ref().is_ok_and(|v| v.len() == 1),
        )
        .await
        .unwrap();
    assert_eq!(ids(&got), ["m"]);
    let open = TicketsInState {
        state: State::Open,
        shard: 1,
    };
    assert!(open.all(&t).await.unwrap().is_empty());
    let raw = t.raw(Ticket::key_of("m")).await.expect("the item");
    let mut names: Vec<&str> = raw.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "PK",
            "SK",
            "entityType",
            "openedAt",
            "priority",
            "shard",
            "state",
            "ticketId",
            "title",
            "version"
        ]
    );
    assert_eq!(
        raw["shard"],
        monotable::sdk::types::AttributeValue::N("1".into())
    );
}
