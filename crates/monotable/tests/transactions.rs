//! Transactions: at most 100 actions (refused before sending), a failed condition named by its
//! action, item and index in the transaction, a conflict with another transaction retried, and
//! throttling told apart from every other failure.

mod common;

use std::sync::Arc;

use common::*;
use monotable::{
    CancelReason, Condition, Entity, MAX_ACTIONS, Retries, ServiceError, TransactError,
    Transaction, WriteError,
};
use monotable_connect::faults::{Fault, FaultRule, Faults};

#[tokio::test]
async fn every_action_is_written_or_none() {
    let t = TestTable::new().await;
    let p = project("p1", "o");
    let k = task("p1", 1);
    let c = comment("p1", 1, 1);
    Transaction::new()
        .create(&p)
        .create(&k)
        .put(&c)
        .send(&t)
        .await
        .unwrap();
    assert_eq!(t.get(k.key(), true).await.unwrap(), Some(k.clone()));

    // The second task is new, the comment's delete is refused: nothing is written.
    let two = task("p1", 2);
    let e = Transaction::new()
        .create(&two)
        .update(k.update().set_title("changed").into_update())
        .delete(c.key(), Condition::eq("author", "nobody".to_string()))
        .send(&t)
        .await
        .unwrap_err();
    assert!(e.failed_at(2), "{e}");
    assert!(!e.failed_at(0) && !e.failed_at(1), "{e}");
    assert_eq!(t.get(two.key(), true).await.unwrap(), None);
    assert_eq!(t.get(k.key(), true).await.unwrap().unwrap().title, "Task 1");
    assert_eq!(t.get(c.key(), true).await.unwrap(), Some(c));
}

#[tokio::test]
async fn a_failed_condition_names_the_action_and_its_item() {
    let t = TestTable::new().await;
    let taken = task("p1", 5);
    t.create(&taken).await.unwrap();
    let e = Transaction::new()
        .create(&task("p1", 4))
        .create(&taken)
        .check(Project::key_of("p1"), Condition::item_absent::<Project>())
        .send(&t)
        .await
        .unwrap_err();
    match &e {
        TransactError::ConditionFailed { reasons } => {
            assert_eq!(
                reasons.iter().map(|r| r.index).collect::<Vec<_>>(),
                [1],
                "{reasons:?}"
            );
            let CancelReason {
                index, item, code, ..
            } = &reasons[0];
            assert_eq!(*index, 1);
            assert_eq!(item, "Task (PK=PROJECT#p1, SK=TASK#005)");
            assert_eq!(code, "ConditionalCheckFailed");
        }
        other => panic!("expected ConditionFailed, got {other:?}"),
    }
    assert_eq!(
        e.to_string(),
        "transaction cancelled: #1 Task (PK=PROJECT#p1, SK=TASK#005) (ConditionalCheckFailed)"
    );
    assert_eq!(t.get(Task::key_of("p1", 4), true).await.unwrap(), None);
}

#[tokio::test]
async fn more_than_100_actions_are_refused_before_sending() {
    // Every TransactWriteItems that reached the connector would be throttled and counted.
    let faults = Arc::new(Faults::new(
        1,
        vec![FaultRule::always("TransactWriteItems", Fault::Throttle)],
    ));
    let t = TestTable::with_faults(faults.clone()).await;
    let mut tx = Transaction::new();
    for n in 0..=MAX_ACTIONS as i64 {
        tx = tx.put(&task("p1", n));
    }
    assert_eq!(tx.len(), 101);
    match tx.send(&t).await {
        Err(TransactError::TooManyActions { count, max }) => {
            assert_eq!((count, max), (101, 100))
        }
        other => panic!("expected TooManyActions, got {other:?}"),
    }
    assert_eq!(faults.injected(), 0, "nothing was sent");
}

#[tokio::test]
async fn a_100_action_transaction_is_accepted() {
    let t = TestTable::new().await;
    let mut tx = Transaction::new();
    for n in 1..=MAX_ACTIONS as i64 {
        tx = tx.create(&task("p1", n));
    }
    tx.send(&t).await.unwrap();
    let all = ListProjectTasks {
        project_id: "p1".into(),
    }
    .all(&t)
    .await
    .unwrap();
    assert_eq!(all.len(), 100);
}

#[tokio::test]
async fn an_invalid_update_fails_the_transaction_before_sending() {
    let faults = Arc::new(Faults::new(1, vec![]));
    let t = TestTable::with_faults(faults.clone()).await;
    faults.set(vec![FaultRule::always(
        "TransactWriteItems",
        Fault::Throttle,
    )]);
    let e = Transaction::new()
        .create(&task("p1", 1))
        .update(Task::update_key("p1", 2).set_team("web").into_update())
        .send(&t)
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            TransactError::Invalid(WriteError::PartialKeyUpdate {
                missing: "assignee",
                ..
            })
        ),
        "{e:?}"
    );
    assert_eq!(faults.injected(), 0, "nothing was sent");
}

#[tokio::test]
async fn a_transaction_conflict_is_retried() {
    let faults = Arc::new(Faults::new(
        7,
        vec![FaultRule::times(
            "TransactWriteItems",
            Fault::TransactionConflict,
            2,
        )],
    ));
    let t = TestTable::with_faults(faults.clone()).await;
    let k = task("p1", 1);
    Transaction::new()
        .create(&k)
        .create(&comment("p1", 1, 1))
        .send(&t)
        .await
        .unwrap();
    assert_eq!(faults.injected(), 2, "two conflicts, then the write");
    assert_eq!(t.get(k.key(), true).await.unwrap(), Some(k));
}

#[tokio::test]
async fn a_lasting_conflict_gives_up_after_the_attempts() {
    let faults = Arc::new(Faults::new(
        7,
        vec![FaultRule::always(
            "TransactWriteItems",
            Fault::TransactionConflict,
        )],
    ));
    let t = TestTable::with_faults(faults.clone()).await;
    let retries = Retries {
        attempts: 3,
        base: std::time::Duration::from_millis(1),
        max: std::time::Duration::from_millis(2),
    };
    let table = t.retries(retries);
    let e = Transaction::new()
        .create(&task("p1", 1))
        .send(&table)
        .await
        .unwrap_err();
    assert!(
        matches!(e, TransactError::Conflict { attempts: 3 }),
        "{e:?}"
    );
    assert_eq!(faults.injected(), 3);
    assert_eq!(t.get(Task::key_of("p1", 1), true).await.unwrap(), None);
}

#[tokio::test]
async fn throttling_is_a_throttled_service_error() {
    let faults = Arc::new(Faults::new(
        3,
        vec![FaultRule::always("TransactWriteItems", Fault::Throttle)],
    ));
    let t = TestTable::with_faults(faults.clone()).await;
    let e = Transaction::new()
        .create(&task("p1", 1))
        .send(&t)
        .await
        .unwrap_err();
    match &e {
        TransactError::Service(s @ ServiceError::Throttled { message }) => {
            assert!(message.contains("throughput"), "{message}");
            assert!(s.is_transient());
        }
        other => panic!("expected Service(Throttled), got {other:?}"),
    }
    assert!(faults.injected() >= 1);

    // The same for single writes and reads.
    faults.set(vec![FaultRule::always("PutItem", Fault::Throttle)]);
    let e = t.create(&task("p1", 2)).await.unwrap_err();
    assert!(
        matches!(e, WriteError::Service(ServiceError::Throttled { .. })),
        "{e:?}"
    );
    faults.set(vec![FaultRule::always("GetItem", Fault::Throttle)]);
    let e = t.get(Task::key_of("p1", 2), false).await.unwrap_err();
    assert!(
        matches!(
            e,
            monotable::GetError::Service(ServiceError::Throttled { .. })
        ),
        "{e:?}"
    );
}
