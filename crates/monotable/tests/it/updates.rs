//! Updates keep the design true: index keys whose inputs change are rendered again (read back
//! through the index's pattern), a sparse index entry comes and goes with its flag, a partial
//! change of a key's inputs or an increment of one is refused before anything is sent, an update
//! never creates an item, and a versioned entity is updated under optimistic locking.

use crate::common;

use monotable::unchecked::UncheckedWrites;

use common::*;
use monotable::sdk::types::AttributeValue;
use monotable::unchecked::{Condition, WriteAction};
use monotable::{Entity, WriteError};

async fn assigned(t: &TestTable, team: &str, assignee: &str) -> Vec<i64> {
    ListTasksByAssignee {
        team: team.into(),
        assignee: assignee.into(),
    }
    .all(t)
    .await
    .unwrap()
    .into_iter()
    .map(|k| k.task_no)
    .collect()
}

async fn flagged(t: &TestTable, project: &str) -> Vec<i64> {
    ListFlaggedTasks {
        project_id: project.into(),
        from: at(-10_000),
        to: at(10_000),
    }
    .all(t)
    .await
    .unwrap()
    .into_iter()
    .map(|k| k.task_no)
    .collect()
}

#[tokio::test]
async fn an_update_renders_the_index_keys_it_changes() {
    let t = TestTable::new().await;
    let k = task("p1", 1);
    t.create(&k).await.unwrap();
    let seen = t
        .eventually(|| assigned(&t, "core", "ada"), |v| v == &[1])
        .await;
    assert_eq!(seen, [1]);

    k.unchecked_update()
        .set_assignee("grace")
        .set_priority(9u8)
        .send(&t)
        .await
        .unwrap();

    let now = t
        .eventually(|| assigned(&t, "core", "grace"), |v| v == &[1])
        .await;
    assert_eq!(now, [1], "found under the new assignee");
    let before = t
        .eventually(|| assigned(&t, "core", "ada"), |v| v.is_empty())
        .await;
    assert!(before.is_empty(), "gone from the old assignee: {before:?}");

    let stored = t.get(k.key(), true).await.unwrap().unwrap();
    assert_eq!(stored.assignee, "grace");
    assert_eq!(stored.priority, 9);
    assert_eq!(stored.version, 2, "the update bumps the version");
    let item = t.raw(k.key()).await.unwrap();
    assert_eq!(
        item["GSI1SK"],
        AttributeValue::S("DUE#2024-06-01#009#p1#001".into()),
        "the sort key follows priority too"
    );
    assert_eq!(item, stored.to_item(), "every key equals a fresh render");
}

#[tokio::test]
async fn the_sparse_index_entry_follows_its_flag() {
    let t = TestTable::new().await;
    let mut k = task("p1", 1);
    k.flagged = true;
    t.create(&k).await.unwrap();
    t.create(&task("p1", 2)).await.unwrap();
    let seen = t.eventually(|| flagged(&t, "p1"), |v| v == &[1]).await;
    assert_eq!(seen, [1]);

    // Unflag: both keys of the sparse index are removed.
    k.unchecked_update()
        .set_flagged(false)
        .send(&t)
        .await
        .unwrap();
    let item = t.raw(k.key()).await.unwrap();
    assert!(!item.contains_key("GSI2PK") && !item.contains_key("GSI2SK"));
    let seen = t.eventually(|| flagged(&t, "p1"), |v| v.is_empty()).await;
    assert!(seen.is_empty(), "{seen:?}");

    // Flag task 2 from its key alone: entering the index needs every input of its keys.
    let e = Task::unchecked_update_key("p1", 2)
        .set_flagged(true)
        .send(&t)
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            WriteError::PartialKeyUpdate {
                missing: "createdAt",
                changed: "flagged",
                ..
            }
        ),
        "{e:?}"
    );
    // With them, it enters.
    let two = t.get(Task::key_of("p1", 2), true).await.unwrap().unwrap();
    two.unchecked_update()
        .set_flagged(true)
        .send(&t)
        .await
        .unwrap();
    let item = t.raw(two.key()).await.unwrap();
    assert_eq!(item["GSI2PK"], AttributeValue::S("FLAGGED#p1".into()));
    assert_eq!(
        item["GSI2SK"],
        AttributeValue::S("2024-05-01T12:02:00.000Z#002".into())
    );
    let seen = t.eventually(|| flagged(&t, "p1"), |v| v == &[2]).await;
    assert_eq!(seen, [2]);

    // Leaving the index needs nothing else: from the key alone.
    Task::unchecked_update_key("p1", 2)
        .set_flagged(false)
        .send(&t)
        .await
        .unwrap();
    let item = t.raw(two.key()).await.unwrap();
    assert!(!item.contains_key("GSI2PK") && !item.contains_key("GSI2SK"));
}

#[tokio::test]
async fn a_partial_change_of_a_key_is_refused_before_sending() {
    let t = TestTable::new().await;
    let k = task("p1", 1);
    t.create(&k).await.unwrap();

    // GSI1PK = "ASSIGNEE#{team}#{assignee}": the assignee alone cannot render it.
    let e = Task::unchecked_update_key("p1", 1)
        .set_assignee("grace")
        .send(&t)
        .await
        .unwrap_err();
    match &e {
        WriteError::PartialKeyUpdate {
            entity,
            key,
            changed,
            missing,
        } => {
            assert_eq!(
                (*entity, *key, *changed, *missing),
                ("Task", "GSI1PK", "assignee", "team")
            );
        }
        other => panic!("expected PartialKeyUpdate, got {other:?}"),
    }
    assert_eq!(
        e.to_string(),
        "updating `assignee` of Task re-renders index key `GSI1PK`, which also needs `team`: set it too, or update from the whole entity"
    );
    // Both inputs: the key can be rendered again.
    Task::unchecked_update_key("p1", 1)
        .set_team("web")
        .set_assignee("grace")
        .expect_version(1)
        .send(&t)
        .await
        .unwrap();
    let stored = t.get(k.key(), true).await.unwrap().unwrap();
    assert_eq!(
        (stored.team.as_str(), stored.assignee.as_str()),
        ("web", "grace")
    );
    assert_eq!(t.raw(k.key()).await.unwrap(), stored.to_item());

    // An attribute no key reads needs nothing else.
    Task::unchecked_update_key("p1", 1)
        .set_title("renamed")
        .send(&t)
        .await
        .unwrap();
    assert_eq!(
        t.get(k.key(), true).await.unwrap().unwrap().title,
        "renamed"
    );
}

#[tokio::test]
async fn an_increment_of_a_key_input_is_refused() {
    let t = TestTable::new().await;
    let k = task("p1", 1);
    t.create(&k).await.unwrap();
    // `priority` is read by GSI1SK: its value after `+ 1` is unknown before the write, so the
    // key could not be rendered. The typed builder has no `add_priority`; the untyped one
    // refuses.
    let e = Task::unchecked_update_key("p1", 1)
        .into_update()
        .add("priority", AttributeValue::N("1".into()))
        .send(&t)
        .await
        .unwrap_err();
    match &e {
        WriteError::KeyInputAdded {
            entity,
            key,
            attribute,
        } => assert_eq!((*entity, *key, *attribute), ("Task", "GSI1SK", "priority")),
        other => panic!("expected KeyInputAdded, got {other:?}"),
    }
    assert_eq!(t.get(k.key(), true).await.unwrap(), Some(k), "nothing sent");
}

#[tokio::test]
async fn an_update_never_creates_an_item() {
    let t = TestTable::new().await;
    let e = Task::unchecked_update_key("p1", 99)
        .set_title("ghost")
        .send(&t)
        .await
        .unwrap_err();
    match &e {
        WriteError::NotFound { item } => {
            assert_eq!(item, "Task (PK=PROJECT#p1, SK=TASK#099)")
        }
        other => panic!("expected NotFound, got {other:?}"),
    }
    assert_eq!(
        e.to_string(),
        "Task (PK=PROJECT#p1, SK=TASK#099) does not exist"
    );
    assert_eq!(t.raw(Task::key_of("p1", 99)).await, None);
    // From a whole entity (versioned), the same: not found (before any version or clause of
    // its own), and nothing written.
    let ghost = task("p1", 98);
    let e = ghost
        .unchecked_update()
        .set_title("x")
        .when(Condition::eq("flagged", true))
        .send(&t)
        .await
        .unwrap_err();
    assert!(matches!(e, WriteError::NotFound { .. }), "{e:?}");
    assert_eq!(t.raw(ghost.key()).await, None);
}

#[tokio::test]
async fn a_stale_entity_loses_to_a_newer_version() {
    let t = TestTable::new().await;
    let k = task("p1", 1);
    t.create(&k).await.unwrap();
    k.unchecked_update()
        .set_title("first")
        .send(&t)
        .await
        .unwrap();
    let e = k
        .unchecked_update()
        .set_title("second")
        .send(&t)
        .await
        .unwrap_err();
    match &e {
        WriteError::VersionMismatch { item, expected } => {
            assert_eq!(item, "Task (PK=PROJECT#p1, SK=TASK#001)");
            assert_eq!(*expected, 1);
        }
        other => panic!("expected VersionMismatch, got {other:?}"),
    }
    let stored = t.get(k.key(), true).await.unwrap().unwrap();
    assert_eq!((stored.title.as_str(), stored.version), ("first", 2));
    // By key, with the version given: the same, and a failing clause of its own is not what
    // is reported while the version is stale.
    let e = Task::unchecked_update_key("p1", 1)
        .set_title("third")
        .expect_version(1)
        .when(Condition::eq("flagged", true))
        .send(&t)
        .await
        .unwrap_err();
    assert!(
        matches!(e, WriteError::VersionMismatch { expected: 1, .. }),
        "{e:?}"
    );
    Task::unchecked_update_key("p1", 1)
        .set_title("third")
        .expect_version(2)
        .send(&t)
        .await
        .unwrap();
    assert_eq!(t.get(k.key(), true).await.unwrap().unwrap().version, 3);
}

#[tokio::test]
async fn a_failed_compare_is_named_by_its_label_or_its_text() {
    let t = TestTable::new().await;
    let p = project("p1", "o");
    t.create(&p).await.unwrap();
    // budget 1234.50: exact decimals, `>=` of 1234.5 holds, of 1234.51 does not.
    let spend = |cost: &str| {
        Project::unchecked_update_key("p1")
            .add_budget(-dec(cost))
            .when(Condition::ge("budget", dec(cost)).named("budget >= {cost}"))
    };
    spend("1234.5").send(&t).await.unwrap();
    let e = spend("0.01").send(&t).await.unwrap_err();
    match &e {
        WriteError::ConditionFailed { item, condition } => {
            assert_eq!(item, "Project (PK=PROJECT#p1, SK=PROJECT)");
            assert_eq!(condition.as_deref(), Some("budget >= {cost}"));
        }
        other => panic!("expected ConditionFailed, got {other:?}"),
    }
    assert_eq!(
        e.to_string(),
        "the condition `budget >= {cost}` on Project (PK=PROJECT#p1, SK=PROJECT) did not hold"
    );
    // Unlabelled: the clause's text; the first failing clause, whichever follows.
    let e = Project::unchecked_update_key("p1")
        .set_name("x")
        .when(Condition::exists("tags"))
        .when(Condition::lt("budget", 0i64))
        .when(Condition::eq("archived", true))
        .send(&t)
        .await
        .unwrap_err();
    assert!(
        matches!(&e, WriteError::ConditionFailed { condition: Some(c), .. } if c == "budget < 0"),
        "{e:?}"
    );
    // Attribute presence, on a delete.
    let e = t
        .delete(p.key(), Condition::not_exists("tags").named("untagged"))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, WriteError::ConditionFailed { condition: Some(c), .. } if c == "untagged"),
        "{e:?}"
    );
    assert!(t.get(p.key(), true).await.unwrap().is_some());
}

#[tokio::test]
async fn optional_attributes_are_set_and_removed() {
    let t = TestTable::new().await;
    let k = task("p1", 1);
    t.create(&k).await.unwrap();
    k.unchecked_update()
        .set_notes(Some("remember".into()))
        .set_remind_at(Some(at(60)))
        .set_estimate(None)
        .send(&t)
        .await
        .unwrap();
    let stored = t.get(k.key(), true).await.unwrap().unwrap();
    assert_eq!(stored.notes.as_deref(), Some("remember"));
    assert_eq!(stored.remind_at, Some(at(60)));
    assert_eq!(stored.estimate, None);
    let item = t.raw(k.key()).await.unwrap();
    assert_eq!(
        item["remindAt"],
        AttributeValue::N(at(60).unix_timestamp().to_string())
    );
    assert!(!item.contains_key("estimate"));
}

#[tokio::test]
async fn bump_version_and_conditions_apply_without_a_version_read() {
    let t = TestTable::new().await;
    let p = project("p1", "o");
    t.create(&p).await.unwrap();
    Project::unchecked_update_key("p1")
        .add_budget(dec("-234.50"))
        .bump_version()
        .when(Condition::eq("archived", false))
        .send(&t)
        .await
        .unwrap();
    let stored = t.get(p.key(), true).await.unwrap().unwrap();
    assert_eq!(stored.budget, dec("1000"));
    assert_eq!(stored.version, 2);
    let e = Project::unchecked_update_key("p1")
        .set_name("x")
        .when(Condition::eq("archived", true))
        .send(&t)
        .await
        .unwrap_err();
    assert!(matches!(e, WriteError::ConditionFailed { .. }), "{e:?}");
}

#[tokio::test]
async fn setting_an_attribute_twice_keeps_the_last_value() {
    // Both changes went into one expression, which DynamoDB refuses ("two document paths
    // overlap").
    let t = TestTable::new().await;
    let k = task("p1", 1);
    t.create(&k).await.unwrap();
    k.unchecked_update()
        .set_title("first")
        .set_notes(Some("kept?".into()))
        .set_title("second")
        .set_notes(None)
        .set_assignee("grace")
        .set_assignee("hopper")
        .send(&t)
        .await
        .unwrap();
    let stored = t.get(k.key(), true).await.unwrap().unwrap();
    assert_eq!(stored.title, "second");
    assert_eq!(stored.notes, None);
    assert_eq!(stored.assignee, "hopper");
    assert_eq!(
        t.raw(k.key()).await.unwrap(),
        stored.to_item(),
        "GSI1PK too"
    );
}

#[tokio::test]
async fn an_update_that_changes_nothing_checks_its_condition() {
    // It was sent with an empty update expression, which DynamoDB refuses.
    let t = TestTable::new().await;
    let c = comment("p1", 1, 1);
    t.create(&c).await.unwrap();
    let key = || Comment::unchecked_update_key("p1", 1, at(1), "c0001");
    key().send(&t).await.unwrap();
    key()
        .when(Condition::eq("author", "ada".to_string()))
        .send(&t)
        .await
        .unwrap();
    let e = key()
        .when(Condition::eq("author", "bob".to_string()))
        .send(&t)
        .await
        .unwrap_err();
    assert!(
        matches!(&e, WriteError::ConditionFailed { condition: Some(c), .. } if c == "author = 'bob'"),
        "{e:?}"
    );
    let e = Comment::unchecked_update_key("p1", 1, at(1), "ghost")
        .send(&t)
        .await
        .unwrap_err();
    assert!(
        matches!(e, WriteError::NotFound { .. }),
        "never creates: {e:?}"
    );
    assert_eq!(t.get(c.key(), true).await.unwrap(), Some(c.clone()));

    // In a transaction it is a condition check.
    let by_bob = key()
        .when(Condition::eq("author", "bob".to_string()))
        .into_update();
    let e = monotable::unchecked::Transaction::new()
        .create(&task("p1", 1))
        .push("byBob", WriteAction::update(by_bob).unwrap())
        .send(&t)
        .await
        .unwrap_err();
    assert!(e.failed("byBob"), "{e}");
    monotable::unchecked::Transaction::new()
        .create(&task("p1", 1))
        .update(key().into_update())
        .send(&t)
        .await
        .unwrap();
}

async fn pinned(t: &TestTable) -> Vec<(String, String)> {
    ListPinnedComments {
        project_id: "p1".into(),
        task_no: 1,
    }
    .all(t)
    .await
    .unwrap()
    .into_iter()
    .map(|c| (c.author, c.comment_id))
    .collect()
}

#[tokio::test]
async fn an_update_from_a_stale_entity_without_a_version_leaves_no_stale_key() {
    // Comments have no version attribute. An update from a comment read before another writer
    // changed it rendered its index keys from the old values of the inputs it did not set: it
    // took a pinned comment out of the pinned index, or put it there under its old author.
    let t = TestTable::new().await;
    let c = comment("p1", 1, 1);
    t.create(&c).await.unwrap();

    // Another writer pins it; ours still holds it unpinned, and changes the author.
    c.unchecked_update()
        .set_pinned(true)
        .send(&t)
        .await
        .unwrap();
    let e = c
        .unchecked_update()
        .set_author("bob")
        .send(&t)
        .await
        .unwrap_err();
    assert!(matches!(e, WriteError::ConditionFailed { .. }), "{e:?}");
    let stored = t.get(c.key(), true).await.unwrap().unwrap();
    assert_eq!((stored.author.as_str(), stored.pinned), ("ada", true));
    assert_eq!(t.raw(c.key()).await.unwrap(), stored.to_item());
    let seen = t.eventually(|| pinned(&t), |v| v.len() == 1).await;
    assert_eq!(seen, [("ada".to_string(), "c0001".to_string())]);

    // Another writer changes the author; ours, from the comment it read, unpins and pins it.
    stored
        .unchecked_update()
        .set_author("carol")
        .send(&t)
        .await
        .unwrap();
    let e = stored
        .unchecked_update()
        .set_pinned(true)
        .send(&t)
        .await
        .unwrap_err();
    assert!(matches!(e, WriteError::ConditionFailed { .. }), "{e:?}");
    let fresh = t.get(c.key(), true).await.unwrap().unwrap();
    assert_eq!(fresh.author, "carol");
    assert_eq!(t.raw(c.key()).await.unwrap(), fresh.to_item());

    // From what the item holds now, it goes through; an update that renders no key needs
    // nothing more.
    fresh
        .unchecked_update()
        .set_pinned(false)
        .send(&t)
        .await
        .unwrap();
    stored
        .unchecked_update()
        .set_body("edited")
        .send(&t)
        .await
        .unwrap();
    let last = t.get(c.key(), true).await.unwrap().unwrap();
    assert_eq!((last.body.as_str(), last.pinned), ("edited", false));
    assert_eq!(t.raw(c.key()).await.unwrap(), last.to_item());
    let seen = t.eventually(|| pinned(&t), |v| v.is_empty()).await;
    assert!(seen.is_empty(), "{seen:?}");
}
