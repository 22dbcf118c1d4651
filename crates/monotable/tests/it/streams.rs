//! Stream consumers of the test model (`tests/model/app.toml`: `taskActivity` takes every change
//! of a task or a comment, three records a batch, two retries, bisect, a failure queue;
//! `pinnedComments` only pinned comments as they are created): items written through the
//! generated write patterns, the stream delivered to a typed handler through the official
//! DynamoDB Streams client, as Lambda would: in order, filtered, retried, bisected, sent to the
//! failure file, resumed after the checkpoint.

use crate::common;

use std::sync::{Arc, Mutex};

use common::*;
use monotable::Entity;
use monotable::stream::{self, Change, Delivered};
use monotable::unchecked::UncheckedWrites;

/// What a handler saw: one line per change, in delivery order.
type Seen = Arc<Mutex<Vec<String>>>;

fn line(change: &TaskActivityChange) -> String {
    match change {
        TaskActivityChange::Task(Change::Created(t)) => format!("task {} created", t.task_no),
        TaskActivityChange::Task(Change::Updated { old, new }) => {
            format!("task {} {} -> {}", new.task_no, old.title, new.title)
        }
        TaskActivityChange::Task(Change::Removed(t)) => format!("task {} removed", t.task_no),
        TaskActivityChange::Comment(Change::Created(c)) => {
            format!("comment {} created", c.comment_id)
        }
        TaskActivityChange::Comment(Change::Updated { new, .. }) => {
            format!("comment {} updated", new.comment_id)
        }
        TaskActivityChange::Comment(Change::Removed(c)) => {
            format!("comment {} removed", c.comment_id)
        }
    }
}

/// A handler that records every change and fails those `fail` picks (by their line).
fn recorder(
    seen: Seen,
    fail: impl Fn(&str) -> bool + Send + Sync + 'static,
) -> impl Fn(Vec<Delivered<TaskActivityChange>>) -> std::future::Ready<stream::BatchResponse>
+ Send
+ Sync
+ 'static {
    move |changes| {
        let mut failed = Vec::new();
        for d in changes {
            let text = line(&d.change);
            if fail(&text) {
                failed.push(d.sequence.clone());
            }
            seen.lock().unwrap().push(text);
        }
        std::future::ready(stream::failed(failed))
    }
}

/// A project (not the consumer's), two tasks, a rename, a comment and its deletion.
async fn write_some(t: &TestTable) {
    t.create(&project("p1", "ada")).await.unwrap();
    let mut k = task("p1", 1);
    CreateTask { task: &k }.send(t).await.unwrap();
    CreateTask {
        task: &task("p1", 2),
    }
    .send(t)
    .await
    .unwrap();
    k.title = "renamed".to_string();
    k.version = 2;
    PutTask {
        task: &k,
        expected_version: 1,
    }
    .send(t)
    .await
    .unwrap();
    let c = comment("p1", 1, 7);
    AddComment { comment: &c }.send(t).await.unwrap();
    delete_comment(t, &c).await;
}

async fn delete_comment(t: &TestTable, c: &Comment) {
    DeleteComment {
        project_id: c.project_id.clone(),
        task_no: c.task_no,
        posted_at: c.posted_at,
        comment_id: c.comment_id.clone(),
        by: c.author.clone(),
    }
    .send(t)
    .await
    .unwrap();
}

const ALL_CHANGES: [&str; 5] = [
    "task 1 created",
    "task 2 created",
    "task 1 Task 1 -> renamed",
    "comment c0007 created",
    "comment c0007 removed",
];

#[tokio::test]
async fn a_consumer_sees_exactly_its_entities_changes_typed_and_in_order() {
    let t = TestTable::new().await;
    write_some(&t).await;
    let seen = Seen::default();
    let n = stream::testing::deliver(
        &t.dynamo,
        &t,
        TaskActivityConsumer,
        recorder(seen.clone(), |_| false),
    )
    .await
    .unwrap();
    assert_eq!(n, 5);
    assert_eq!(*seen.lock().unwrap(), ALL_CHANGES);
}

#[tokio::test]
async fn a_filtered_consumer_gets_only_the_records_its_lambda_filter_lets_through() {
    let t = TestTable::new().await;
    let mut pinned = comment("p1", 1, 1);
    pinned.pinned = true;
    AddComment { comment: &pinned }.send(&t).await.unwrap();
    AddComment {
        comment: &comment("p1", 1, 2),
    }
    .send(&t)
    .await
    .unwrap();
    CreateTask {
        task: &task("p1", 1),
    }
    .send(&t)
    .await
    .unwrap();
    delete_comment(&t, &pinned).await;
    let seen = Seen::default();
    let handler = {
        let seen = seen.clone();
        move |changes: Vec<Delivered<PinnedCommentsChange>>| {
            for d in changes {
                let PinnedCommentsChange::Comment(change) = d.change;
                seen.lock()
                    .unwrap()
                    .push(change.latest().comment_id.clone());
            }
            std::future::ready(stream::success())
        }
    };
    stream::testing::deliver(&t.dynamo, &t, PinnedCommentsConsumer, handler)
        .await
        .unwrap();
    assert_eq!(*seen.lock().unwrap(), ["c0001"]);
}

#[tokio::test]
async fn a_failed_record_is_retried_from_where_it_failed_and_nothing_is_lost() {
    let t = TestTable::new().await;
    write_some(&t).await;
    let seen = Seen::default();
    // The rename fails once, then succeeds.
    let failed_once = Arc::new(Mutex::new(false));
    let fail = move |text: &str| {
        let mut done = failed_once.lock().unwrap();
        let fail = text.contains("renamed") && !*done;
        *done |= fail;
        fail
    };
    let mut delivery = stream::runner(
        &t.dynamo,
        &t,
        TaskActivityConsumer,
        recorder(seen.clone(), fail),
        stream::testing::options(),
    )
    .await
    .unwrap();
    delivery.drain().await.unwrap();
    // Batches of three: the first batch is redelivered from the rename, the records before it
    // are not.
    assert_eq!(
        *seen.lock().unwrap(),
        [
            "task 1 created",
            "task 2 created",
            "task 1 Task 1 -> renamed",
            "task 1 Task 1 -> renamed",
            "comment c0007 created",
            "comment c0007 removed",
        ]
    );
    let m = delivery.metrics().snapshot();
    assert_eq!(
        (m.delivered, m.failures, m.retries, m.sent_to_on_failure),
        (5, 1, 1, 0)
    );
    assert_eq!(m.lag_records, 0);
    assert!(delivery.failed_records().await.unwrap().is_empty());
}

#[tokio::test]
async fn a_record_that_always_fails_is_bisected_retried_a_bounded_number_of_times_then_sent_on() {
    let t = TestTable::new().await;
    write_some(&t).await;
    let dir = tempfile::tempdir().unwrap();
    let seen = Seen::default();
    let options = stream::Options {
        data_dir: Some(dir.path().to_path_buf()),
        ..stream::testing::options()
    };
    let mut delivery = stream::runner(
        &t.dynamo,
        &t,
        TaskActivityConsumer,
        recorder(seen.clone(), |text| text.contains("task 2")),
        options,
    )
    .await
    .unwrap();
    delivery.drain().await.unwrap();
    let seen = seen.lock().unwrap().clone();
    // Batch [1, 2, rename] fails at 2 (the rename, after it, comes again); bisected: [2] and
    // [rename]; [2] alone fails, is retried twice (`retries = 2`), then sent to the failure
    // file, and delivery moves on.
    assert_eq!(
        seen.iter().filter(|s| *s == "task 2 created").count(),
        4,
        "{seen:?}"
    );
    assert_eq!(
        seen.iter().filter(|s| s.contains("renamed")).count(),
        2,
        "{seen:?}"
    );
    assert_eq!(
        seen.iter().filter(|s| *s == "task 1 created").count(),
        1,
        "{seen:?}"
    );
    assert_eq!(
        seen.last().map(String::as_str),
        Some("comment c0007 removed")
    );
    let failed =
        std::fs::read_to_string(dir.path().join("consumers/taskActivity.failed.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = failed
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{failed}");
    assert_eq!(lines[0]["eventName"], "INSERT");
    assert_eq!(lines[0]["dynamodb"]["NewImage"]["taskNo"]["N"], "2");
    assert_eq!(delivery.metrics().snapshot().sent_to_on_failure, 1);
}

#[tokio::test]
async fn a_restart_resumes_after_the_checkpoint_and_a_crash_before_it_redelivers() {
    let t = TestTable::new().await;
    let dir = tempfile::tempdir().unwrap();
    let options = || stream::Options {
        data_dir: Some(dir.path().to_path_buf()),
        ..stream::testing::options()
    };
    CreateTask {
        task: &task("p1", 1),
    }
    .send(&t)
    .await
    .unwrap();
    let seen = Seen::default();
    let open = |seen: Seen| {
        stream::runner(
            &t.dynamo,
            &t,
            TaskActivityConsumer,
            recorder(seen.clone(), |_| false),
            options(),
        )
    };
    open(seen.clone()).await.unwrap().drain().await.unwrap();
    assert_eq!(*seen.lock().unwrap(), ["task 1 created"]);

    // A crash while the next batch is being handled: its checkpoint is never written.
    CreateTask {
        task: &task("p1", 2),
    }
    .send(&t)
    .await
    .unwrap();
    let (handled, got) = tokio::sync::oneshot::channel::<()>();
    let handled = Arc::new(Mutex::new(Some(handled)));
    let hang = move |_: Vec<Delivered<TaskActivityChange>>| {
        let handled = handled.clone();
        async move {
            if let Some(tx) = handled.lock().unwrap().take() {
                let _ = tx.send(());
            }
            std::future::pending::<stream::BatchResponse>().await
        }
    };
    let mut crashing = stream::runner(&t.dynamo, &t, TaskActivityConsumer, hang, options())
        .await
        .unwrap();
    let task_handle = tokio::spawn(async move { crashing.drain().await });
    got.await.unwrap();
    task_handle.abort();
    let _ = task_handle.await;

    // The restart gets the batch again, and only it.
    let again = Seen::default();
    open(again.clone()).await.unwrap().drain().await.unwrap();
    assert_eq!(*again.lock().unwrap(), ["task 2 created"]);
    let after = Seen::default();
    open(after.clone()).await.unwrap().drain().await.unwrap();
    assert!(after.lock().unwrap().is_empty());
}

/// `run` stopped while its first batch is handled (the handler fires the stop, then answers:
/// success, or every record failed when `fail`); what the handler saw.
async fn run_stopped_in_first_batch(
    t: &TestTable,
    options: stream::Options,
    fail: bool,
) -> Vec<String> {
    let seen = Seen::default();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let stop = Arc::new(Mutex::new(Some(stop)));
    let record = recorder(seen.clone(), move |_| fail);
    let handler = move |changes: Vec<Delivered<TaskActivityChange>>| {
        if let Some(stop) = stop.lock().unwrap().take() {
            let _ = stop.send(());
        }
        let response = record(changes);
        async move {
            tokio::task::yield_now().await;
            response.await
        }
    };
    let delivery = stream::runner(&t.dynamo, t, TaskActivityConsumer, handler, options)
        .await
        .unwrap();
    delivery
        .run(async {
            let _ = stopped.await;
        })
        .await;
    seen.lock().unwrap().clone()
}

#[tokio::test]
async fn a_stop_lets_the_batch_in_hand_finish_and_starts_no_other_batch_nor_a_retry() {
    for fail in [false, true] {
        let t = TestTable::new().await;
        write_some(&t).await;
        let dir = tempfile::tempdir().unwrap();
        let options = || stream::Options {
            data_dir: Some(dir.path().to_path_buf()),
            ..stream::testing::options()
        };
        let seen = run_stopped_in_first_batch(&t, options(), fail).await;
        assert_eq!(seen, ALL_CHANGES[..3], "fail: {fail}");
        let after = Seen::default();
        let mut delivery = stream::runner(
            &t.dynamo,
            &t,
            TaskActivityConsumer,
            recorder(after.clone(), |_| false),
            options(),
        )
        .await
        .unwrap();
        delivery.drain().await.unwrap();
        // A batch done is checkpointed; a failed one stopped before its retry is not, and was
        // not sent to the failure file: the restart gets it again.
        let rest = if fail {
            &ALL_CHANGES[..]
        } else {
            &ALL_CHANGES[3..]
        };
        assert_eq!(*after.lock().unwrap(), rest, "fail: {fail}");
        assert!(delivery.failed_records().await.unwrap().is_empty());
    }
}

#[tokio::test]
async fn an_item_that_does_not_decode_is_a_typed_error_and_goes_to_the_failure_file() {
    let t = TestTable::new().await;
    let k = task("p1", 1);
    let mut item = k.to_item();
    item.remove("title");
    t.client()
        .put_item()
        .table_name(t.name())
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
    CreateTask {
        task: &task("p1", 2),
    }
    .send(&t)
    .await
    .unwrap();
    let seen = Seen::default();
    let mut delivery = stream::runner(
        &t.dynamo,
        &t,
        TaskActivityConsumer,
        recorder(seen.clone(), |_| false),
        stream::testing::options(),
    )
    .await
    .unwrap();
    delivery.drain().await.unwrap();
    assert_eq!(*seen.lock().unwrap(), ["task 2 created"]);
    let failed = delivery.failed_records().await.unwrap();
    assert_eq!(failed.len(), 1, "{failed:?}");
    // The Lambda function's own decoding names the record, the entity and why.
    let record: stream::EventRecord = serde_json::from_str(&failed[0]).unwrap();
    let mut event = stream::Event::default();
    event.records.push(record);
    let decoded = TaskActivityConsumer::decode(&event);
    let err = decoded[0].as_ref().unwrap_err();
    assert_eq!(err.entity.as_deref(), Some("Task"));
    assert!(err.to_string().contains("title"), "{err}");
}

/// A day and an hour: past the 24 hours a stream keeps a record.
const PAST_RETENTION: std::time::Duration = std::time::Duration::from_secs(25 * 3600);

async fn create_tasks(t: &TestTable, numbers: std::ops::RangeInclusive<i64>) {
    for n in numbers {
        CreateTask {
            task: &task("p1", n),
        }
        .send(t)
        .await
        .unwrap();
    }
}

/// A consumer that fell more than a day behind, with its stream iterator held across the gap:
/// the records it missed were trimmed, so it resumes at the oldest record kept, as Lambda's
/// event source mapping does, and counts the skip. One that had caught up loses nothing.
#[tokio::test]
async fn a_consumer_whose_records_were_trimmed_skips_to_the_oldest_record_kept() {
    let clock = monotable::connect::ManualClock::new(1_800_000_000);
    let t = TestTable::on_clock(&clock).await;
    write_some(&t).await;
    let seen = Seen::default();
    let mut delivery = stream::runner(
        &t.dynamo,
        &t,
        TaskActivityConsumer,
        recorder(seen.clone(), |_| false),
        stream::testing::options(),
    )
    .await
    .unwrap();
    assert_eq!(delivery.drain().await.unwrap(), 5);

    // Caught up, then a day passes: the next record comes with nothing skipped.
    clock.tick(PAST_RETENTION);
    create_tasks(&t, 3..=3).await;
    assert_eq!(delivery.drain().await.unwrap(), 1);
    assert_eq!(delivery.metrics().snapshot().trimmed_skips, 0);

    // Two records it never read age out: it resumes at the record after them.
    create_tasks(&t, 4..=5).await;
    clock.tick(PAST_RETENTION);
    create_tasks(&t, 6..=6).await;
    seen.lock().unwrap().clear();
    assert_eq!(delivery.drain().await.unwrap(), 1);
    assert_eq!(*seen.lock().unwrap(), ["task 6 created"]);
    let metrics = delivery.metrics().snapshot();
    assert_eq!((metrics.trimmed_skips, metrics.lag_records), (1, 0));
    assert!(
        stream::prometheus(&[("taskActivity", metrics)])
            .contains("monotable_consumer_trimmed_skips_total{consumer=\"taskActivity\"} 1\n")
    );
}

/// A restart whose checkpoint is older than the stream keeps records: the engine answers
/// TrimmedDataAccessException to the iterator after it, and delivery resumes at the oldest
/// record kept (and keeps going from there after the next restart).
#[tokio::test]
async fn a_restart_from_a_checkpoint_older_than_the_stream_resumes_at_the_oldest_record() {
    let clock = monotable::connect::ManualClock::new(1_800_000_000);
    let t = TestTable::on_clock(&clock).await;
    let dir = tempfile::tempdir().unwrap();
    let open = |seen: Seen| {
        stream::runner(
            &t.dynamo,
            &t,
            TaskActivityConsumer,
            recorder(seen, |_| false),
            stream::Options {
                data_dir: Some(dir.path().to_path_buf()),
                ..stream::testing::options()
            },
        )
    };
    create_tasks(&t, 1..=1).await;
    open(Seen::default()).await.unwrap().drain().await.unwrap();

    // While it is down: a record, a day, and two more.
    create_tasks(&t, 2..=2).await;
    clock.tick(PAST_RETENTION);
    create_tasks(&t, 3..=4).await;
    let seen = Seen::default();
    let mut restarted = open(seen.clone()).await.unwrap();
    assert_eq!(restarted.drain().await.unwrap(), 2);
    assert_eq!(*seen.lock().unwrap(), ["task 3 created", "task 4 created"]);
    assert_eq!(restarted.metrics().snapshot().trimmed_skips, 1);

    create_tasks(&t, 5..=5).await;
    let seen = Seen::default();
    let mut again = open(seen.clone()).await.unwrap();
    assert_eq!(again.drain().await.unwrap(), 1);
    assert_eq!(*seen.lock().unwrap(), ["task 5 created"]);
    assert_eq!(again.metrics().snapshot().trimmed_skips, 0);
}

mod decoding {
    use proptest::prelude::*;

    use super::*;

    fn value() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            any::<String>().prop_map(|s| serde_json::json!({ "S": s })),
            any::<i64>().prop_map(|n| serde_json::json!({ "N": n.to_string() })),
            "[0-9e.+-]{0,8}".prop_map(|n| serde_json::json!({ "N": n })),
            any::<bool>().prop_map(|b| serde_json::json!({ "BOOL": b })),
            Just(serde_json::json!({ "NULL": true })),
            proptest::collection::vec(any::<String>(), 1..3)
                .prop_map(|ss| serde_json::json!({ "SS": ss })),
        ];
        leaf.prop_recursive(2, 8, 3, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..3)
                    .prop_map(|l| serde_json::json!({ "L": l })),
                proptest::collection::btree_map("[a-z]{1,3}", inner, 0..3)
                    .prop_map(|m| serde_json::json!({ "M": m })),
            ]
        })
    }

    /// An image: arbitrary attributes, often named as the model's, and an `entityType` of
    /// either entity or none.
    fn image() -> impl Strategy<Value = serde_json::Map<String, serde_json::Value>> {
        let names = prop_oneof![
            Just("projectId".to_string()),
            Just("taskNo".to_string()),
            Just("title".to_string()),
            Just("status".to_string()),
            Just("createdAt".to_string()),
            Just("commentId".to_string()),
            Just("postedAt".to_string()),
            "[a-zA-Z]{1,8}",
        ];
        let entity = prop_oneof![Just(Some("Task")), Just(Some("Comment")), Just(None)];
        (
            proptest::collection::btree_map(names, value(), 0..12),
            entity,
        )
            .prop_map(|(attributes, entity)| {
                let mut image: serde_json::Map<_, _> = attributes.into_iter().collect();
                if let Some(e) = entity {
                    image.insert("entityType".into(), serde_json::json!({ "S": e }));
                }
                image
            })
    }

    proptest! {
        /// Whatever the images hold, decoding answers a change or a `DecodeError` naming the
        /// record: it never panics.
        #[test]
        fn any_image_decodes_or_is_a_typed_error(
            new in image(),
            old in image(),
            event in prop_oneof![Just("INSERT"), Just("MODIFY"), Just("REMOVE")],
        ) {
            let json = serde_json::json!({ "Records": [{
                "eventID": "e", "eventName": event, "awsRegion": "local",
                "dynamodb": { "SequenceNumber": "42", "SizeBytes": 1,
                    "Keys": { "PK": { "S": "x" } }, "NewImage": new, "OldImage": old }
            }]});
            let event: stream::Event = serde_json::from_value(json).unwrap();
            for decoded in TaskActivityConsumer::decode(&event) {
                if let Err(e) = decoded {
                    prop_assert_eq!(e.sequence.as_str(), "42");
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }
    }
}
