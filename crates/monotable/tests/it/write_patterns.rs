//! Write patterns as `patterns!` generates them from the model: each PutItem, UpdateItem,
//! DeleteItem, ConditionCheck, TransactWrite and BatchWrite pattern of `tests/model/app.toml` is
//! a type whose condition is the model's, whose failures are named by the clause or action that
//! failed, and whose update offers the setters of its `sets` only.

use crate::common;

use common::*;
use monotable::unchecked::UncheckedWrites;
use monotable::{Entity, TransactError, WriteError, WriteFailure};

fn condition(text: &str) -> Option<WriteFailure> {
    Some(WriteFailure::ConditionFailed {
        condition: Some(text.to_string()),
    })
}

#[tokio::test]
async fn a_put_pattern_applies_its_condition_and_names_its_failure() {
    let t = TestTable::new().await;
    let mut k = task("p1", 1);
    CreateTask { task: &k }.send(&t).await.unwrap();
    let again = CreateTask { task: &k }.send(&t).await.unwrap_err();
    assert!(matches!(again, WriteError::AlreadyExists { .. }), "{again}");

    k.title = "renamed".to_string();
    k.version = 2;
    let stale = PutTask {
        task: &k,
        expected_version: 7,
    }
    .send(&t)
    .await
    .unwrap_err();
    assert!(
        matches!(stale, WriteError::VersionMismatch { expected: 7, .. }),
        "{stale}"
    );
    PutTask {
        task: &k,
        expected_version: 1,
    }
    .send(&t)
    .await
    .unwrap();
    assert_eq!(t.get(k.key(), true).await.unwrap(), Some(k.clone()));
}

#[tokio::test]
async fn an_update_pattern_moves_its_index_key_and_names_each_failure() {
    let t = TestTable::new().await;
    let k = task("p1", 1);
    CreateTask { task: &k }.send(&t).await.unwrap();
    let reassign = |version: i64, from: &str| ReassignTask {
        project_id: "p1".to_string(),
        task_no: 1,
        expected_version: version,
        from_team: from.to_string(),
    };

    let wrong_team = reassign(1, "ops")
        .set_team("web")
        .set_assignee("bob")
        .send(&t)
        .await
        .unwrap_err();
    match &wrong_team {
        WriteError::ConditionFailed { condition: c, .. } => {
            assert_eq!(c.as_deref(), Some("team = {fromTeam}"), "{wrong_team}");
        }
        other => panic!("{other}"),
    }
    let stale = reassign(5, "core")
        .set_team("web")
        .set_assignee("bob")
        .send(&t)
        .await
        .unwrap_err();
    assert!(
        matches!(stale, WriteError::VersionMismatch { .. }),
        "{stale}"
    );

    reassign(1, "core")
        .set_team("web")
        .set_assignee("bob")
        .send(&t)
        .await
        .unwrap();
    let stored = t.get(k.key(), true).await.unwrap().unwrap();
    assert_eq!((stored.team.as_str(), stored.version), ("web", 2));
    let moved = t
        .eventually(
            || async {
                ListTasksByAssignee {
                    team: "web".to_string(),
                    assignee: "bob".to_string(),
                }
                .all(&t)
                .await
                .unwrap()
            },
            |found| found.len() == 1,
        )
        .await;
    assert_eq!(moved[0].task_no, 1);

    let missing = ReassignTask {
        project_id: "p1".to_string(),
        task_no: 99,
        expected_version: 1,
        from_team: "core".to_string(),
    }
    .set_team("web")
    .set_assignee("bob")
    .send(&t)
    .await
    .unwrap_err();
    assert!(matches!(missing, WriteError::NotFound { .. }), "{missing}");
}

#[tokio::test]
async fn a_delete_pattern_names_a_missing_item_and_a_failed_comparison() {
    let t = TestTable::new().await;
    let c = comment("p1", 1, 1);
    AddComment { comment: &c }.send(&t).await.unwrap();
    let delete = |by: &str, n: i64| DeleteComment {
        project_id: "p1".to_string(),
        task_no: 1,
        posted_at: at(n),
        comment_id: format!("c{n:04}"),
        by: by.to_string(),
    };
    let other = delete("bob", 1).send(&t).await.unwrap_err();
    match &other {
        WriteError::ConditionFailed { condition: c, .. } => {
            assert_eq!(c.as_deref(), Some("author = {by}"));
        }
        e => panic!("{e}"),
    }
    let missing = delete("ada", 2).send(&t).await.unwrap_err();
    assert!(matches!(missing, WriteError::NotFound { .. }), "{missing}");

    // A key time finer than its format would address another item: refused, nothing deleted.
    let mut finer = delete("ada", 1);
    finer.posted_at += time::Duration::microseconds(500);
    let refused = finer.send(&t).await.unwrap_err();
    match &refused {
        WriteError::Parameter(p) => {
            assert_eq!(
                (p.pattern, p.parameter),
                ("deleteComment", "postedAt"),
                "{refused}"
            );
        }
        other => panic!("{other}"),
    }
    assert!(t.get(c.key(), true).await.unwrap().is_some());
    assert!(
        finer.action().is_err(),
        "refused as a transaction action too"
    );
    delete("ada", 1).send(&t).await.unwrap();
    assert_eq!(t.get(c.key(), true).await.unwrap(), None);
}

#[tokio::test]
async fn a_transaction_pattern_names_the_action_that_failed_and_enforces_its_counts() {
    let t = TestTable::new().await;
    let mut p = project("p1", "o");
    p.archived = true;
    t.put(&p).await.unwrap();
    let k = task("p1", 1);
    let c = comment("p1", 1, 1);
    let open = || ProjectIsOpen {
        project_id: "p1".to_string(),
    };
    let e = CreateTaskWithComment::new()
        .project_is_open(open())
        .create_task(CreateTask { task: &k })
        .add_comment(AddComment { comment: &c })
        .send(&t)
        .await
        .unwrap_err();
    assert!(e.failed(CreateTaskWithComment::PROJECT_IS_OPEN), "{e}");
    let reason = e.reason(CreateTaskWithComment::PROJECT_IS_OPEN).unwrap();
    assert_eq!(reason.entity, "Project");
    assert_eq!(reason.failure, condition("archived = false"));
    assert_eq!(t.get(k.key(), true).await.unwrap(), None, "nothing written");

    let comments: Vec<_> = (1..=4).map(|n| comment("p1", 1, n)).collect();
    let mut tx = CreateTaskWithComment::new().create_task(CreateTask { task: &k });
    for c in &comments {
        tx = tx.add_comment(AddComment { comment: c });
    }
    let too_many = tx.send(&t).await.unwrap_err();
    match &too_many {
        TransactError::Invalid(WriteError::TooManyActions { action, max, .. }) => {
            assert_eq!((*action, *max), ("addComment", 3));
        }
        other => panic!("{other}"),
    }

    p.archived = false;
    t.put(&p).await.unwrap();
    CreateTaskWithComment::new()
        .project_is_open(open())
        .create_task(CreateTask { task: &k })
        .add_comment(AddComment { comment: &c })
        .send(&t)
        .await
        .unwrap();
    assert_eq!(t.get(c.key(), true).await.unwrap(), Some(c));
}

#[tokio::test]
async fn a_batch_pattern_writes_every_item_in_chunks() {
    let t = TestTable::new().await;
    let comments: Vec<_> = (1..=60).map(|n| comment("p1", 1, n)).collect();
    let mut batch = ImportComments::new();
    for c in &comments {
        batch = batch.import_comment(ImportComment { comment: c });
    }
    batch.send(&t).await.unwrap();
    for c in &comments {
        assert_eq!(t.get(c.key(), true).await.unwrap().as_ref(), Some(c));
    }
}
