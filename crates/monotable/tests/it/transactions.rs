//! Transactions: at most 100 actions (refused before sending), a failed condition named by its
//! action's name, its entity and item and the clause that failed (never by its position), a
//! conflict with another transaction retried, and throttling told apart from every other
//! failure.

use crate::common;

use monotable::unchecked::UncheckedWrites;

use std::sync::Arc;

use common::*;
use monotable::unchecked::{CheckItem, Condition, Transaction, WriteAction};
use monotable::{
    CancelReason, Entity, MAX_ACTIONS, Retries, ServiceError, TransactError, WriteError,
    WriteFailure,
};
use monotable_connect::faults::{Fault, FaultRule, Faults};

fn failed(condition: &str) -> Option<WriteFailure> {
    Some(WriteFailure::ConditionFailed {
        condition: Some(condition.to_string()),
    })
}

#[tokio::test]
async fn every_action_is_written_or_none() {
    let t = TestTable::new().await;
    let p = project("p1", "o");
    let k = task("p1", 1);
    let c = comment("p1", 1, 1);
    Transaction::new()
        .push("createProject", WriteAction::create(&p))
        .push("createTask", WriteAction::create(&k))
        .push("putComment", WriteAction::put(&c))
        .send(&t)
        .await
        .unwrap();
    assert_eq!(t.get(k.key(), true).await.unwrap(), Some(k.clone()));

    // The second task is new, the comment's delete is refused: nothing is written.
    let two = task("p1", 2);
    let retitle = k.unchecked_update().set_title("changed").into_update();
    let e = Transaction::new()
        .push("createTask", WriteAction::create(&two))
        .push("retitle", WriteAction::update(retitle).unwrap())
        .push(
            "dropComment",
            WriteAction::delete(c.key(), Condition::eq("author", "nobody".to_string())),
        )
        .send(&t)
        .await
        .unwrap_err();
    assert!(e.failed("dropComment"), "{e}");
    assert!(!e.failed("createTask") && !e.failed("retitle"), "{e}");
    let reason = e.reason("dropComment").unwrap();
    assert_eq!(reason.entity, "Comment");
    assert_eq!(reason.failure, failed("author = 'nobody'"));
    assert_eq!(t.get(two.key(), true).await.unwrap(), None);
    assert_eq!(t.get(k.key(), true).await.unwrap().unwrap().title, "Task 1");
    assert_eq!(t.get(c.key(), true).await.unwrap(), Some(c));
}

#[tokio::test]
async fn a_failed_condition_names_the_action_its_entity_and_item() {
    let t = TestTable::new().await;
    let taken = task("p1", 5);
    t.create(&taken).await.unwrap();
    let e = Transaction::new()
        .push("newTask", WriteAction::create(&task("p1", 4)))
        .push("takenTask", WriteAction::create(&taken))
        .push(
            "noProject",
            WriteAction::check(Project::key_of("p1"), Condition::item_absent::<Project>()),
        )
        .send(&t)
        .await
        .unwrap_err();
    match &e {
        TransactError::ConditionFailed { reasons } => {
            assert_eq!(reasons.len(), 1, "{reasons:?}");
            let CancelReason {
                action,
                entity,
                item,
                code,
                failure,
                ..
            } = &reasons[0];
            assert_eq!(*action, Some("takenTask"));
            assert_eq!(*entity, "Task");
            assert_eq!(item, "Task (PK=PROJECT#p1, SK=TASK#005)");
            assert_eq!(code, "ConditionalCheckFailed");
            assert_eq!(*failure, Some(WriteFailure::AlreadyExists));
        }
        other => panic!("expected ConditionFailed, got {other:?}"),
    }
    assert!(matches!(
        e.reason("takenTask").and_then(CancelReason::error),
        Some(WriteError::AlreadyExists { .. })
    ));
    assert_eq!(
        e.to_string(),
        "transaction cancelled: `takenTask` on Task (PK=PROJECT#p1, SK=TASK#005): already exists"
    );
    assert_eq!(t.get(Task::key_of("p1", 4), true).await.unwrap(), None);
}

#[tokio::test]
async fn each_failing_action_is_named_by_what_failed() {
    let t = TestTable::new().await;
    let (p, other) = (project("p1", "o"), project("p2", "o"));
    let (k, flagless) = (task("p1", 1), task("p1", 2));
    for done in [
        t.create(&p).await,
        t.create(&other).await,
        t.create(&k).await,
        t.create(&flagless).await,
    ] {
        done.unwrap();
    }
    // Four actions fail, each for its own reason; one holds. (One action per item: DynamoDB
    // refuses two on the same item.)
    let stale = k
        .unchecked_update()
        .set_title("x")
        .expect_version(7)
        .into_update();
    let within_budget = Condition::ge("budget", dec("2000")).named("budget >= {cost}");
    let e = Transaction::new()
        .push(
            "missingTask",
            WriteAction::check(Task::key_of("p1", 9), Condition::item_exists::<Task>()),
        )
        .push("staleTask", WriteAction::update(stale).unwrap())
        .push("spend", WriteAction::check(p.key(), within_budget))
        .push(
            "notArchived",
            WriteAction::check(other.key(), Condition::eq("archived", false)),
        )
        .push(
            "unflagged",
            WriteAction::check(flagless.key(), Condition::eq("flagged", true)),
        )
        .send(&t)
        .await
        .unwrap_err();
    let named: Vec<(Option<&str>, &str, Option<WriteFailure>)> = e
        .reasons()
        .iter()
        .map(|r| (r.action, r.entity, r.failure.clone()))
        .collect();
    assert_eq!(
        named,
        [
            (Some("missingTask"), "Task", Some(WriteFailure::NotFound)),
            (
                Some("staleTask"),
                "Task",
                Some(WriteFailure::VersionMismatch { expected: 7 })
            ),
            (Some("spend"), "Project", failed("budget >= {cost}")),
            (Some("unflagged"), "Task", failed("flagged = true")),
        ],
        "{e}"
    );
    assert!(!e.failed("notArchived"));
    assert!(matches!(
        e.reason("staleTask").and_then(CancelReason::error),
        Some(WriteError::VersionMismatch { expected: 7, .. })
    ));
}

#[tokio::test]
async fn unnamed_and_run_time_actions_still_name_their_failure() {
    let t = TestTable::new().await;
    let k = task("p1", 1);
    t.create(&k).await.unwrap();
    t.create(&task("p1", 2)).await.unwrap();
    let key = Task::key_of("p1", 2).into_item();
    let e = Transaction::new()
        .create(&k)
        .push(
            "rawCheck",
            WriteAction::Check(CheckItem::new(
                key,
                Condition::exists("notes").named("has notes"),
            )),
        )
        .send(&t)
        .await
        .unwrap_err();
    let reasons = e.reasons();
    assert_eq!(reasons.len(), 2, "{e}");
    assert_eq!(
        (reasons[0].action, reasons[0].entity),
        (None, "Task"),
        "a legacy action has no name but its entity"
    );
    assert_eq!(reasons[0].failure, Some(WriteFailure::AlreadyExists));
    assert_eq!(
        (reasons[1].action, reasons[1].entity),
        (Some("rawCheck"), ""),
        "an action on a run-time key has a name but no entity"
    );
    assert_eq!(reasons[1].failure, failed("has notes"));
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
        tx = tx.push("putTask", WriteAction::put(&task("p1", n)));
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
        .update(
            Task::unchecked_update_key("p1", 2)
                .set_team("web")
                .into_update(),
        )
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
