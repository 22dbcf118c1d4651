//! Batches: writes in chunks of 25 and reads in chunks of 100, what DynamoDB leaves unprocessed
//! written again until done, and a batch that stays unprocessed reported as such.

use crate::common;

use monotable::unchecked::UncheckedWrites;

use std::sync::Arc;

use common::*;
use monotable::{BatchError, Entity, Retries, ServiceError};
use monotable_connect::faults::{Fault, FaultRule, Faults};

fn tasks(n: i64) -> Vec<Task> {
    (1..=n).map(|i| task("p1", i)).collect()
}

#[tokio::test]
async fn sixty_items_are_put_and_150_keys_read_in_chunks() {
    let t = TestTable::new().await;
    let written = tasks(60);
    t.batch_put(&written).await.unwrap();

    // 150 keys: the 60 written and 90 that are not there, over two BatchGetItem calls.
    let keys: Vec<_> = (1..=150).map(|i| Task::key_of("p1", i)).collect();
    let mut found = t.batch_get(keys, true).await.unwrap();
    found.sort_by_key(|k| k.task_no);
    assert_eq!(found, written);

    // Items of several entities, put as items.
    let items = vec![project("p1", "o").to_item(), comment("p1", 1, 1).to_item()];
    t.batch_put_items(items).await.unwrap();
    assert!(t.get(Project::key_of("p1"), true).await.unwrap().is_some());
}

#[tokio::test]
async fn unprocessed_items_are_written_again_until_done() {
    let faults = Arc::new(Faults::new(
        11,
        vec![FaultRule::always("BatchWriteItem", Fault::UnprocessedItems)],
    ));
    let t = TestTable::with_faults(faults.clone()).await;
    // Each call writes half its items and returns the rest: 25 → 13, 6, 3, 2, 1 left over.
    let written = tasks(60);
    let t = t.retries(Retries {
        attempts: 10,
        base: std::time::Duration::from_millis(1),
        max: std::time::Duration::from_millis(5),
    });
    t.batch_put(&written).await.unwrap();
    assert!(faults.injected() > 3, "{}", faults.injected());
    faults.set(vec![]);
    let keys: Vec<_> = written.iter().map(Entity::key).collect();
    let mut found = t.batch_get(keys, true).await.unwrap();
    found.sort_by_key(|k| k.task_no);
    assert_eq!(found, written);
}

#[tokio::test]
async fn items_left_unprocessed_after_every_attempt_are_reported() {
    let faults = Arc::new(Faults::new(
        11,
        vec![FaultRule::always("BatchWriteItem", Fault::UnprocessedItems)],
    ));
    let t = TestTable::with_faults(faults).await;
    let t = t.retries(Retries {
        attempts: 2,
        base: std::time::Duration::from_millis(1),
        max: std::time::Duration::from_millis(2),
    });
    // 25 items: 13 written on the first call, 6 on the second, 6 left.
    match t.batch_put(&tasks(25)).await {
        Err(BatchError::Unprocessed { left, attempts }) => {
            assert_eq!((left, attempts), (6, 2))
        }
        other => panic!("expected Unprocessed, got {other:?}"),
    }
}

#[tokio::test]
async fn a_throttled_batch_is_a_throttled_service_error() {
    let faults = Arc::new(Faults::new(
        5,
        vec![FaultRule::always("BatchGetItem", Fault::Throttle)],
    ));
    let t = TestTable::with_faults(faults).await;
    let e = t
        .batch_get(vec![Task::key_of("p1", 1)], false)
        .await
        .unwrap_err();
    assert!(
        matches!(e, BatchError::Service(ServiceError::Throttled { .. })),
        "{e:?}"
    );
}

#[tokio::test]
async fn an_empty_batch_sends_nothing() {
    let faults = Arc::new(Faults::new(
        5,
        vec![FaultRule::always("BatchWriteItem", Fault::Throttle)],
    ));
    let t = TestTable::with_faults(faults.clone()).await;
    t.batch_put::<Task>(&[]).await.unwrap();
    assert!(t.batch_get::<Task>(vec![], false).await.unwrap().is_empty());
    assert_eq!(faults.injected(), 0);
}

#[tokio::test]
async fn batch_get_takes_a_key_twice() {
    // DynamoDB refuses a BatchGetItem that holds a key twice: the whole read failed.
    let t = TestTable::new().await;
    t.batch_put(&tasks(3)).await.unwrap();
    let keys = vec![
        Task::key_of("p1", 1),
        Task::key_of("p1", 2),
        Task::key_of("p1", 1),
        Task::key_of("p1", 9),
        Task::key_of("p1", 9),
    ];
    let mut found = t.batch_get(keys, true).await.unwrap();
    found.sort_by_key(|k| k.task_no);
    assert_eq!(found, tasks(2));
}
