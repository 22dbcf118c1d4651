//! Properties, on random entities: an entity comes back from its item exactly, whatever its
//! strings (unicode, `#`), decimals (every scale and sign), floats, timestamps (years 0000 to
//! 9999, in each format, at the format's precision) and optional attributes; a time finer than
//! its format holds is refused by `validate`, never truncated; and every update, whatever
//! attributes it sets, leaves the stored item's keys equal to a fresh render of the updated
//! entity, sparse keys present exactly when their flag is set. (`exact.rs` holds the values
//! of every type that are refused.)

use crate::common;

use monotable::unchecked::UncheckedWrites;

use std::collections::BTreeSet;
use std::sync::OnceLock;

use common::*;
use monotable::Entity;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rust_decimal::Decimal;
use time::{Date, OffsetDateTime, UtcOffset};

const CASES: u32 = 64;

/// One runtime for the binary.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime")
    })
}

// ---- values ----

/// Text with unicode, `#` (the key separator) and the empty string.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9#]{0,12}",
        "[#é漢字🦀 \\-_.:]{1,8}",
        any::<String>().prop_map(|s| s.chars().take(16).collect()),
    ]
}

/// Key text: what a key template reads must render a non-empty key of reasonable size.
fn key_text() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z0-9#]{1,12}", "[#é漢字🦀a-z]{1,8}"]
}

/// Every scale 0 to 28, both signs, the whole 96-bit mantissa.
fn decimal() -> impl Strategy<Value = Decimal> {
    let mantissa = prop_oneof![
        -1000i128..1000,
        (-(1i128 << 96) + 1)..(1i128 << 96),
        Just(0i128),
    ];
    (mantissa, 0u32..=28).prop_map(|(m, scale)| Decimal::from_i128_with_scale(m, scale))
}

/// Finite floats DynamoDB can hold (magnitudes from 1e-130 to 1e125, and zero).
fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("storable", |f| f.is_finite()
            && (*f == 0.0 || (1e-130..1e125).contains(&f.abs()))),
        -1e6f64..1e6,
        Just(0.1),
    ]
}

/// `0000-01-01T00:00:00Z` and `9999-12-31T23:59:59Z` as Unix seconds.
const FIRST: i64 = -62_167_219_200;
const LAST: i64 = 253_402_300_799;

/// A time in years 0000 to 9999 (UTC), whole multiples of `step` nanoseconds, seen at a
/// random offset (hours, minutes and seconds) when one holds it within those years.
fn time_at(step: i64) -> impl Strategy<Value = OffsetDateTime> {
    (
        FIRST..=LAST,
        0i64..1_000_000_000,
        -86_399i32..=86_399,
        prop::bool::ANY,
    )
        .prop_map(move |(seconds, nanos, offset, local)| {
            let nanos = nanos - nanos % step;
            let t = OffsetDateTime::from_unix_timestamp_nanos(
                i128::from(seconds) * 1_000_000_000 + i128::from(nanos),
            )
            .expect("in range");
            let offset = UtcOffset::from_whole_seconds(offset).expect("under a day");
            match local {
                true => t.checked_to_offset(offset).unwrap_or(t),
                false => t,
            }
        })
}

fn millis() -> impl Strategy<Value = OffsetDateTime> {
    time_at(1_000_000)
}

fn seconds() -> impl Strategy<Value = OffsetDateTime> {
    time_at(1_000_000_000)
}

fn date() -> impl Strategy<Value = Date> {
    seconds().prop_map(|t| t.to_offset(UtcOffset::UTC).date())
}

fn status() -> impl Strategy<Value = Status> {
    prop_oneof![
        Just(Status::Todo),
        Just(Status::InProgress),
        Just(Status::Done)
    ]
}

// ---- entities ----

fn a_project() -> impl Strategy<Value = Project> {
    (
        (key_text(), text(), key_text(), decimal(), any::<bool>()),
        (
            millis(),
            prop::option::of(prop::collection::btree_set(text(), 1..5)),
            prop::option::of(prop::collection::btree_map(key_text(), text(), 0..5)),
            any::<i64>(),
        ),
    )
        .prop_map(
            |(
                (project_id, name, owner_id, budget, archived),
                (created_at, tags, settings, version),
            )| {
                Project {
                    project_id,
                    name,
                    owner_id,
                    budget,
                    archived,
                    created_at,
                    tags,
                    settings,
                    version,
                    open_tasks: None,
                }
            },
        )
}

fn a_task() -> impl Strategy<Value = Task> {
    (
        (key_text(), 0i64..=999, text(), status(), any::<u8>()),
        (
            prop::option::of(decimal()),
            key_text(),
            key_text(),
            any::<bool>(),
        ),
        (
            millis(),
            date(),
            prop::option::of(seconds()),
            prop::collection::vec(text(), 0..4),
            prop::option::of(text()),
            0i64..1_000_000,
        ),
    )
        .prop_map(
            |(
                (project_id, task_no, title, status, priority),
                (estimate, team, assignee, flagged),
                (created_at, due_on, remind_at, labels, notes, version),
            )| Task {
                project_id,
                task_no,
                title,
                status,
                priority,
                estimate,
                team,
                assignee,
                flagged,
                created_at,
                due_on,
                remind_at,
                labels,
                notes,
                version,
            },
        )
}

fn a_comment() -> impl Strategy<Value = Comment> {
    (
        (key_text(), 0i64..=999, key_text(), text(), text(), millis()),
        (
            prop::option::of(seconds()),
            prop::option::of(time_at(1)),
            prop::option::of(time_at(1_000)),
            prop::option::of(millis()),
        ),
        (
            prop::option::of(float()),
            // DynamoDB refuses an empty name, in a map too.
            prop::option::of(prop::collection::hash_map(key_text(), any::<i64>(), 0..4)),
            prop::option::of(prop::collection::vec(text(), 0..4)),
            // A required set may be empty (stored as no attribute); an optional one present
            // has an element (an empty one reads back as None: entities.rs).
            prop::collection::btree_set(text(), 0..4),
            prop::option::of(prop::collection::btree_set(any::<i64>(), 1..4)),
            any::<bool>(),
        ),
    )
        .prop_map(
            |(
                (project_id, task_no, comment_id, author, body, posted_at),
                (edited_at, client_time, imported_at, read_at_ms),
                (score, reactions, mentions, liked_by, votes, pinned),
            )| Comment {
                project_id,
                task_no,
                comment_id,
                author,
                body,
                posted_at,
                edited_at,
                client_time,
                imported_at,
                read_at_ms,
                score,
                reactions,
                mentions,
                liked_by,
                votes,
                pinned,
            },
        )
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    })
}

#[test]
fn entities_come_back_from_their_items_exactly() {
    let mut runner = runner();
    runner
        .run(&a_project(), |p| {
            prop_assert_eq!(p.validate(), Ok(()));
            prop_assert_eq!(Project::from_item(&p.to_item()), Ok(p));
            Ok(())
        })
        .unwrap();
    runner
        .run(&a_task(), |k| {
            prop_assert_eq!(k.validate(), Ok(()));
            prop_assert_eq!(Task::from_item(&k.to_item()), Ok(k));
            Ok(())
        })
        .unwrap();
    runner
        .run(&a_comment(), |c| {
            prop_assert_eq!(c.validate(), Ok(()));
            let back = Comment::from_item(&c.to_item());
            prop_assert_eq!(&back, &Ok(c.clone()));
            // Equal as instants; an offset that RFC 3339 can write is kept too.
            if let (Some(sent), Some(got)) = (c.client_time, back.unwrap().client_time)
                && sent.offset().seconds_past_minute() == 0
            {
                prop_assert_eq!(sent.offset(), got.offset());
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn entities_come_back_from_the_table_exactly() {
    let rt = runtime();
    let table = rt.block_on(TestTable::new());
    runner()
        .run(&(a_task(), a_comment()), |(k, c)| {
            rt.block_on(async {
                table.put(&k).await.unwrap();
                table.put(&c).await.unwrap();
                prop_assert_eq!(table.get(k.key(), true).await.unwrap(), Some(k));
                prop_assert_eq!(table.get(c.key(), true).await.unwrap(), Some(c));
                Ok(())
            })
        })
        .unwrap();
}

// ---- refusal ----

/// Sets one timestamp of a comment.
type SetTime = fn(&mut Comment, OffsetDateTime);

/// The attribute `validate` names, when it refuses a value finer than its format.
fn too_fine<E: Entity>(entity: &E) -> Option<&'static str> {
    match entity.validate() {
        Ok(()) => None,
        Err(monotable::EntityError::Unstorable {
            attribute,
            source: monotable::ValueError::TooFine { .. },
            ..
        }) => Some(attribute),
        Err(other) => panic!("refused for another reason: {other}"),
    }
}

#[test]
fn a_time_finer_than_its_format_is_refused_never_truncated() {
    let exact = |text: &str| {
        OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).unwrap()
    };
    let t = exact("2024-05-01T12:34:56.987654321Z");
    // Each format alone, the others left out: only rfc3339-offset holds nanoseconds.
    let base = comment("p", 1, 1);
    let cases: [(&str, SetTime); 5] = [
        ("postedAt", |c, t| c.posted_at = t),
        ("editedAt", |c, t| c.edited_at = Some(t)),
        ("clientTime", |c, t| c.client_time = Some(t)),
        ("importedAt", |c, t| c.imported_at = Some(t)),
        ("readAtMs", |c, t| c.read_at_ms = Some(t)),
    ];
    for (attribute, set) in cases {
        let mut c = base.clone();
        set(&mut c, t);
        let refused = too_fine(&c);
        if attribute == "clientTime" {
            assert_eq!(refused, None);
            assert_eq!(Comment::from_item(&c.to_item()), Ok(c));
        } else {
            assert_eq!(refused, Some(attribute));
        }
    }
    let mut k = task("p", 1);
    k.remind_at = Some(exact("2024-05-01T12:34:56.001Z"));
    assert_eq!(too_fine(&k), Some("remindAt"), "epoch-seconds");
    // Before 1970 too.
    k.remind_at = Some(exact("1969-12-31T23:59:59.999Z"));
    assert_eq!(too_fine(&k), Some("remindAt"));
}

#[test]
fn every_time_round_trips_or_is_refused() {
    let any_precision = prop_oneof![
        time_at(1),
        time_at(1_000),
        time_at(1_000_000),
        time_at(1_000_000_000)
    ];
    runner()
        .run(&any_precision, |t| {
            let step = |nanos: i128| t.unix_timestamp_nanos() % nanos == 0;
            let cases: [(SetTime, i128); 4] = [
                (|c, t| c.posted_at = t, 1_000_000),
                (|c, t| c.read_at_ms = Some(t), 1_000_000),
                (|c, t| c.imported_at = Some(t), 1_000),
                (|c, t| c.edited_at = Some(t), 1_000_000_000),
            ];
            for (set, nanos) in cases {
                let mut c = comment("p", 1, 1);
                set(&mut c, t);
                match too_fine(&c) {
                    None => {
                        prop_assert!(step(nanos));
                        prop_assert_eq!(Comment::from_item(&c.to_item()), Ok(c));
                    }
                    Some(_) => prop_assert!(!step(nanos)),
                }
            }
            Ok(())
        })
        .unwrap();
}

// ---- updates ----

/// One setter of the typed update builder, with its value.
#[derive(Debug, Clone)]
enum Change {
    Title(String),
    Status(Status),
    Priority(u8),
    Estimate(Option<Decimal>),
    Team(String),
    Assignee(String),
    Flagged(bool),
    CreatedAt(OffsetDateTime),
    DueOn(Date),
    RemindAt(Option<OffsetDateTime>),
    Labels(Vec<String>),
    Notes(Option<String>),
}

/// A random subset of the setters, each at most once, in random order.
fn changes() -> impl Strategy<Value = Vec<Change>> {
    let all = (
        (
            text(),
            status(),
            any::<u8>(),
            prop::option::of(decimal()),
            key_text(),
            key_text(),
        ),
        (
            any::<bool>(),
            millis(),
            date(),
            prop::option::of(seconds()),
            prop::collection::vec(text(), 0..3),
            prop::option::of(text()),
        ),
    )
        .prop_map(|((a, b, c, d, e, f), (g, h, i, j, k, l))| {
            vec![
                Change::Title(a),
                Change::Status(b),
                Change::Priority(c),
                Change::Estimate(d),
                Change::Team(e),
                Change::Assignee(f),
                Change::Flagged(g),
                Change::CreatedAt(h),
                Change::DueOn(i),
                Change::RemindAt(j),
                Change::Labels(k),
                Change::Notes(l),
            ]
        });
    (all, prop::collection::vec(any::<bool>(), 12)).prop_flat_map(|(all, keep)| {
        let kept: Vec<Change> = all
            .into_iter()
            .zip(keep)
            .filter_map(|(c, k)| k.then_some(c))
            .collect();
        Just(kept).prop_shuffle()
    })
}

const KEYS: [&str; 6] = ["PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK"];

#[test]
fn every_update_keeps_the_index_keys_equal_to_a_fresh_render() {
    let rt = runtime();
    let table = rt.block_on(TestTable::new());
    runner()
        .run(&(a_task(), changes()), |(stored, changes)| {
            let mut expected = stored.clone();
            let mut update = stored.unchecked_update();
            for change in changes {
                update = match change {
                    Change::Title(v) => {
                        expected.title = v.clone();
                        update.set_title(v)
                    }
                    Change::Status(v) => {
                        expected.status = v;
                        update.set_status(v)
                    }
                    Change::Priority(v) => {
                        expected.priority = v;
                        update.set_priority(v)
                    }
                    Change::Estimate(v) => {
                        expected.estimate = v;
                        update.set_estimate(v)
                    }
                    Change::Team(v) => {
                        expected.team = v.clone();
                        update.set_team(v)
                    }
                    Change::Assignee(v) => {
                        expected.assignee = v.clone();
                        update.set_assignee(v)
                    }
                    Change::Flagged(v) => {
                        expected.flagged = v;
                        update.set_flagged(v)
                    }
                    Change::CreatedAt(v) => {
                        expected.created_at = v;
                        update.set_created_at(v)
                    }
                    Change::DueOn(v) => {
                        expected.due_on = v;
                        update.set_due_on(v)
                    }
                    Change::RemindAt(v) => {
                        expected.remind_at = v;
                        update.set_remind_at(v)
                    }
                    Change::Labels(v) => {
                        expected.labels = v.clone();
                        update.set_labels(v)
                    }
                    Change::Notes(v) => {
                        expected.notes = v.clone();
                        update.set_notes(v)
                    }
                };
            }
            expected.version += 1;
            rt.block_on(async {
                table.put(&stored).await.unwrap();
                update.send(&table).await.unwrap();
                let raw = table.raw(stored.key()).await.expect("still there");
                let fresh = expected.to_item();
                for key in KEYS {
                    prop_assert_eq!(raw.get(key), fresh.get(key), "{}", key);
                }
                prop_assert_eq!(
                    raw.contains_key("GSI2PK"),
                    expected.flagged,
                    "the sparse index follows the flag"
                );
                prop_assert_eq!(Task::from_item(&raw), Ok(expected));
                Ok(())
            })
        })
        .unwrap();
}

/// One setter of a comment's update builder (comments have no version: the update requires the
/// inputs of the keys it renders to be unchanged, which they are here).
#[derive(Debug, Clone)]
enum CommentChange {
    Author(String),
    Body(String),
    Pinned(bool),
    Score(Option<f64>),
    LikedBy(BTreeSet<String>),
    Votes(Option<BTreeSet<i64>>),
}

fn comment_changes() -> impl Strategy<Value = Vec<CommentChange>> {
    let all = (
        key_text(),
        text(),
        any::<bool>(),
        prop::option::of(float()),
        prop::collection::btree_set(text(), 0..3),
        // An optional set given empty is refused (exact.rs): `None` removes it.
        prop::option::of(prop::collection::btree_set(any::<i64>(), 1..3)),
    )
        .prop_map(|(a, b, c, d, e, f)| {
            vec![
                CommentChange::Author(a),
                CommentChange::Body(b),
                CommentChange::Pinned(c),
                CommentChange::Score(d),
                CommentChange::LikedBy(e),
                CommentChange::Votes(f),
            ]
        });
    (all, prop::collection::vec(any::<bool>(), 6)).prop_flat_map(|(all, keep)| {
        let kept: Vec<CommentChange> = all
            .into_iter()
            .zip(keep)
            .filter_map(|(c, k)| k.then_some(c))
            .collect();
        Just(kept).prop_shuffle()
    })
}

#[test]
fn every_update_without_a_version_keeps_the_index_keys_fresh_too() {
    let rt = runtime();
    let table = rt.block_on(TestTable::new());
    runner()
        .run(&(a_comment(), comment_changes()), |(stored, changes)| {
            let mut expected = stored.clone();
            let mut update = stored.unchecked_update();
            for change in changes {
                update = match change {
                    CommentChange::Author(v) => {
                        expected.author = v.clone();
                        update.set_author(v)
                    }
                    CommentChange::Body(v) => {
                        expected.body = v.clone();
                        update.set_body(v)
                    }
                    CommentChange::Pinned(v) => {
                        expected.pinned = v;
                        update.set_pinned(v)
                    }
                    CommentChange::Score(v) => {
                        expected.score = v;
                        update.set_score(v)
                    }
                    CommentChange::LikedBy(v) => {
                        expected.liked_by = v.clone();
                        update.set_liked_by(v)
                    }
                    CommentChange::Votes(v) => {
                        expected.votes = v.clone();
                        update.set_votes(v)
                    }
                };
            }
            rt.block_on(async {
                table.put(&stored).await.unwrap();
                update.send(&table).await.unwrap();
                let raw = table.raw(stored.key()).await.expect("still there");
                let fresh = expected.to_item();
                for key in KEYS {
                    prop_assert_eq!(raw.get(key), fresh.get(key), "{}", key);
                }
                prop_assert_eq!(raw.contains_key("GSI2PK"), expected.pinned);
                prop_assert_eq!(Comment::from_item(&raw), Ok(expected));
                Ok(())
            })
        })
        .unwrap();
}

#[test]
fn derived_keys_are_the_model_s_render() {
    let model = monotable::model::parse(MODEL).unwrap();
    let values = |item: &monotable::Item, name: &str| -> Option<String> {
        match item.get(name)? {
            monotable::sdk::types::AttributeValue::S(s)
            | monotable::sdk::types::AttributeValue::N(s) => Some(s.clone()),
            monotable::sdk::types::AttributeValue::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    };
    let check = |entity: &str, item: &monotable::Item| -> Result<(), TestCaseError> {
        let rendered = model
            .entity(entity)
            .unwrap()
            .render_keys(&|n| values(item, n))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        for (attribute, value) in &rendered {
            prop_assert_eq!(
                values(item, attribute),
                Some(value.clone()),
                "{}",
                attribute
            );
        }
        let written = KEYS.iter().filter(|k| item.contains_key(**k)).count();
        prop_assert_eq!(written, rendered.len());
        Ok(())
    };
    let mut runner = runner();
    runner
        .run(&a_task(), |k| check("Task", &k.to_item()))
        .unwrap();
    runner
        .run(&a_project(), |p| check("Project", &p.to_item()))
        .unwrap();
    runner
        .run(&a_comment(), |c| check("Comment", &c.to_item()))
        .unwrap();
}
