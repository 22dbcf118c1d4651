//! Entities through the table: the item each writes, reads back equal, `create` that refuses a
//! taken key, `replace` under optimistic locking, `put` and `delete`.

use crate::common;

use monotable::unchecked::UncheckedWrites;

use common::*;
use monotable::sdk::types::AttributeValue;
use monotable::unchecked::Condition;
use monotable::{Entity, EntityError, GetError, ValueError, WriteError};

#[tokio::test]
async fn every_attribute_type_round_trips_through_the_table() {
    let t = TestTable::new().await;
    let p = project("p1", "owner-1");
    let mut k = task("p1", 7);
    k.remind_at = Some(at(90));
    k.notes = Some("naïve # notes — ünïcödé".to_string());
    k.flagged = true;
    let mut c = comment("p1", 7, 1);
    c.edited_at = Some(at(2));
    c.client_time = Some(
        time::OffsetDateTime::parse(
            "2024-05-01T14:03:04.123456789+02:00",
            &time::format_description::well_known::Rfc3339,
        )
        .unwrap(),
    );
    c.imported_at = Some(at(3) + time::Duration::microseconds(123_456));
    c.read_at_ms = Some(at(4) + time::Duration::milliseconds(789));
    c.score = Some(-0.125);
    c.reactions = Some([("👍".to_string(), 3), ("#".to_string(), -1)].into());
    c.mentions = Some(vec!["bob".to_string(), "".to_string()]);
    c.liked_by = ["bob".to_string(), "#".to_string()].into();
    c.votes = Some([-1, 1, 7].into());

    t.create(&p).await.unwrap();
    t.create(&k).await.unwrap();
    t.create(&c).await.unwrap();

    assert_eq!(t.get(p.key(), true).await.unwrap(), Some(p.clone()));
    assert_eq!(t.get(k.key(), true).await.unwrap(), Some(k.clone()));
    assert_eq!(t.get(c.key(), true).await.unwrap(), Some(c.clone()));
    // The typed GetItem patterns read the same items.
    let got = GetTask {
        project_id: "p1".into(),
        task_no: 7,
    }
    .send(&t)
    .await
    .unwrap();
    assert_eq!(got, Some(k.clone()));
    assert_eq!(
        GetProject {
            project_id: "nope".into()
        }
        .send(&t)
        .await
        .unwrap(),
        None
    );
}

#[tokio::test]
async fn the_item_holds_the_keys_the_model_renders() {
    let t = TestTable::new().await;
    let mut k = task("p#1", 7);
    k.flagged = true;
    t.create(&k).await.unwrap();
    let item = t.raw(k.key()).await.expect("stored");
    let s = |name: &str| item[name].as_s().unwrap().clone();
    assert_eq!(s("PK"), "PROJECT#p#1");
    assert_eq!(s("SK"), "TASK#007");
    assert_eq!(s("GSI1PK"), "ASSIGNEE#core#ada");
    assert_eq!(s("GSI1SK"), "DUE#2024-06-01#003#p#1#007");
    assert_eq!(s("GSI2PK"), "FLAGGED#p#1");
    assert_eq!(s("GSI2SK"), "2024-05-01T12:07:00.000Z#007");
    assert_eq!(s("entityType"), "Task");
    assert_eq!(s("status"), "TODO");
    assert_eq!(s("dueOn"), "2024-06-01");
    assert_eq!(item["estimate"], AttributeValue::N("2.5".into()));
    assert_eq!(item["priority"], AttributeValue::N("3".into()));
    assert!(
        !item.contains_key("notes"),
        "an absent optional is not written"
    );
    assert!(!item.contains_key("remindAt"));

    // The model crate renders the same keys from the same attributes.
    let model = monotable::model::parse(MODEL).unwrap();
    let values = |name: &str| match item.get(name)? {
        AttributeValue::S(s) | AttributeValue::N(s) => Some(s.clone()),
        AttributeValue::Bool(b) => Some(b.to_string()),
        _ => None,
    };
    let rendered = model.entity("Task").unwrap().render_keys(&values).unwrap();
    for (attribute, value) in rendered {
        assert_eq!(s(&attribute), value, "{attribute}");
    }

    // Unflagged: no sparse keys at all.
    let plain = task("p#1", 8);
    let item = plain.to_item();
    assert!(!item.contains_key("GSI2PK") && !item.contains_key("GSI2SK"));
}

#[tokio::test]
async fn create_refuses_a_taken_key() {
    let t = TestTable::new().await;
    let k = task("p1", 1);
    t.create(&k).await.unwrap();
    let mut other = k.clone();
    other.title = "another".into();
    let e = t.create(&other).await.unwrap_err();
    match &e {
        WriteError::AlreadyExists { item } => {
            assert_eq!(item, "Task (PK=PROJECT#p1, SK=TASK#001)")
        }
        other => panic!("expected AlreadyExists, got {other:?}"),
    }
    assert!(e.is_condition_failed());
    assert_eq!(t.get(k.key(), true).await.unwrap(), Some(k), "unchanged");
}

#[tokio::test]
async fn replace_checks_the_version() {
    let t = TestTable::new().await;
    let k = task("p1", 1);
    t.create(&k).await.unwrap();

    let mut next = k.clone();
    next.title = "renamed".into();
    next.version = 2;
    t.replace(&next, 1).await.unwrap();
    assert_eq!(t.get(k.key(), true).await.unwrap(), Some(next.clone()));

    // A writer still holding version 1 loses.
    let mut stale = k.clone();
    stale.title = "stale".into();
    stale.version = 2;
    match t.replace(&stale, 1).await.unwrap_err() {
        WriteError::VersionMismatch { item, expected } => {
            assert_eq!(item, "Task (PK=PROJECT#p1, SK=TASK#001)");
            assert_eq!(expected, 1);
        }
        other => panic!("expected VersionMismatch, got {other:?}"),
    }
    assert_eq!(t.get(k.key(), true).await.unwrap(), Some(next));

    // Replacing an item that is not there: it is not found.
    let ghost = task("p1", 2);
    assert!(matches!(
        t.replace(&ghost, 1).await,
        Err(WriteError::NotFound { .. })
    ));
    assert_eq!(t.get(ghost.key(), true).await.unwrap(), None);
}

#[tokio::test]
async fn put_overwrites_and_delete_honours_its_condition() {
    let t = TestTable::new().await;
    let c = comment("p1", 1, 1);
    t.put(&c).await.unwrap();
    let mut edited = c.clone();
    edited.body = "edited".into();
    t.put(&edited).await.unwrap();
    assert_eq!(t.get(c.key(), true).await.unwrap(), Some(edited));

    let e = t
        .delete(c.key(), Condition::eq("author", "someone else".to_string()))
        .await
        .unwrap_err();
    assert!(matches!(e, WriteError::ConditionFailed { .. }), "{e:?}");
    t.delete(c.key(), Condition::eq("author", "ada".to_string()))
        .await
        .unwrap();
    assert_eq!(t.get(c.key(), true).await.unwrap(), None);
}

#[tokio::test]
async fn an_item_of_another_entity_is_refused_by_name() {
    let t = TestTable::new().await;
    let p = project("p1", "o");
    t.create(&p).await.unwrap();
    // Read the project's key as if it were a task's.
    let key = monotable::Key::<Task>::from_item(p.key().into_item());
    match t.get(key, true).await {
        Err(GetError::Entity(monotable::EntityError::OtherEntity { entity, found })) => {
            assert_eq!((entity, found.as_str()), ("Task", "Project"));
        }
        other => panic!("expected OtherEntity, got {other:?}"),
    }
}

#[test]
fn key_of_renders_the_table_key_from_its_inputs() {
    let key = Task::key_of("p1", 42);
    assert_eq!(format!("{key:?}"), "PK=PROJECT#p1, SK=TASK#042");
    assert_eq!(format!("{:?}", task("p1", 42).key()), format!("{key:?}"));
    assert_eq!(
        format!("{:?}", Project::key_of("p1")),
        "PK=PROJECT#p1, SK=PROJECT"
    );
    assert_eq!(Task::VERSION, Some("version"));
    assert_eq!(Comment::VERSION, None);
    assert_eq!(task("p", 1).version(), Some(1));
}

#[tokio::test]
async fn an_empty_set_is_stored_as_no_attribute_or_refused() {
    // DynamoDB holds no empty set: a required one is stored as no attribute and reads back
    // empty; an optional one given empty would read back as `None`, so it is refused, as a
    // write that cannot round-trip, before anything is sent.
    let t = TestTable::new().await;
    let mut p = project("p1", "o");
    p.tags = Some(Default::default());
    let refused = |e: WriteError| match e {
        WriteError::Invalid {
            source:
                EntityError::Unstorable {
                    attribute,
                    source: ValueError::EmptySet,
                    ..
                },
            ..
        } => attribute,
        other => panic!("not refused as an empty set: {other:?}"),
    };
    assert_eq!(refused(t.create(&p).await.unwrap_err()), "tags");
    assert_eq!(t.raw(p.key()).await, None, "nothing was written");
    p.tags = None;
    t.create(&p).await.unwrap();

    let c = comment("p1", 1, 1);
    assert!(c.liked_by.is_empty());
    t.create(&c).await.unwrap();
    assert!(!t.raw(c.key()).await.unwrap().contains_key("likedBy"));
    assert_eq!(
        t.get(c.key(), true).await.unwrap(),
        Some(c.clone()),
        "a required empty set reads back empty"
    );

    // Updates: an empty required set removes the attribute; `None` removes an optional one;
    // an optional one given empty is refused.
    let key = || Comment::unchecked_update_key("p1", 1, at(1), "c0001");
    key()
        .set_liked_by(["ada".to_string()])
        .set_votes(Some([1].into()))
        .send(&t)
        .await
        .unwrap();
    let item = t.raw(c.key()).await.unwrap();
    assert_eq!(item["likedBy"], AttributeValue::Ss(vec!["ada".into()]));
    assert_eq!(item["votes"], AttributeValue::Ns(vec!["1".into()]));
    let e = key()
        .set_votes(Some(Default::default()))
        .send(&t)
        .await
        .unwrap_err();
    assert_eq!(refused(e), "votes");
    key()
        .set_liked_by(std::collections::BTreeSet::new())
        .set_votes(None)
        .send(&t)
        .await
        .unwrap();
    let item = t.raw(c.key()).await.unwrap();
    assert!(!item.contains_key("likedBy") && !item.contains_key("votes"));
    assert_eq!(t.get(c.key(), true).await.unwrap(), Some(c));
    let e = p
        .unchecked_update()
        .set_tags(Some(Default::default()))
        .send(&t)
        .await
        .unwrap_err();
    assert_eq!(refused(e), "tags");
}
