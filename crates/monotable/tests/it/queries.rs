//! Queries: full pages and a cursor only when more follow, cursors bound to their listing,
//! page sizes checked, streams that yield everything, descending order, `between` on timestamp
//! parameters, and a collection pattern's header and children.

use crate::common;

use monotable::unchecked::UncheckedWrites;

use common::*;
use futures_util::StreamExt;
use monotable::{MAX_PAGE, QueryError};

async fn seed_tasks(t: &TestTable, project_id: &str, n: i64) -> Vec<Task> {
    let tasks: Vec<Task> = (1..=n).map(|i| task(project_id, i)).collect();
    t.batch_put(&tasks).await.unwrap();
    tasks
}

fn numbers(tasks: &[Task]) -> Vec<i64> {
    tasks.iter().map(|k| k.task_no).collect()
}

#[tokio::test]
async fn pages_are_full_and_a_cursor_means_more_follow() {
    let t = TestTable::new().await;
    seed_tasks(&t, "p1", 25).await;
    let listing = ListProjectTasks {
        project_id: "p1".into(),
    };
    let mut sizes = Vec::new();
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = listing
            .limit(10)
            .cursor(cursor.as_deref())
            .send(&t)
            .await
            .unwrap();
        sizes.push(page.items.len());
        seen.extend(numbers(&page.items));
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    assert_eq!(sizes, [10, 10, 5]);
    assert_eq!(
        seen,
        (1..=25).collect::<Vec<_>>(),
        "in key order, each once"
    );

    // Exactly two full pages: the second says nothing follows.
    let t = TestTable::new().await;
    seed_tasks(&t, "p1", 20).await;
    let first = listing.limit(10).send(&t).await.unwrap();
    assert_eq!(first.items.len(), 10);
    let second = listing
        .limit(10)
        .cursor(first.next_cursor.as_deref())
        .send(&t)
        .await
        .unwrap();
    assert_eq!(second.items.len(), 10);
    assert_eq!(second.next_cursor, None);

    // The pattern's own page size (limit = 25 in the model).
    let page = listing.send(&t).await.unwrap();
    assert_eq!((page.items.len(), page.next_cursor), (20, None));
}

#[tokio::test]
async fn a_cursor_is_refused_by_another_listing() {
    let t = TestTable::new().await;
    seed_tasks(&t, "p1", 5).await;
    seed_tasks(&t, "p2", 5).await;
    let p1 = ListProjectTasks {
        project_id: "p1".into(),
    };
    let cursor = p1.limit(2).send(&t).await.unwrap().next_cursor.unwrap();

    // The same pattern with other parameters.
    let p2 = ListProjectTasks {
        project_id: "p2".into(),
    };
    let e = p2
        .limit(2)
        .cursor(Some(&cursor))
        .send(&t)
        .await
        .unwrap_err();
    assert!(matches!(e, QueryError::Cursor), "{e:?}");

    // Another pattern over the same partition.
    let collection = GetProjectWithTasks {
        project_id: "p1".into(),
    };
    let e = collection
        .limit(2)
        .cursor(Some(&cursor))
        .send(&t)
        .await
        .unwrap_err();
    assert!(matches!(e, QueryError::Cursor), "{e:?}");

    // Another table handle with another secret, and a tampered cursor.
    let other = t.cursor_secret(b"another secret");
    let e = p1
        .limit(2)
        .cursor(Some(&cursor))
        .send(&other)
        .await
        .unwrap_err();
    assert!(matches!(e, QueryError::Cursor), "{e:?}");
    let mut forged = cursor.clone();
    forged.pop();
    let e = p1
        .limit(2)
        .cursor(Some(&forged))
        .send(&t)
        .await
        .unwrap_err();
    assert!(matches!(e, QueryError::Cursor), "{e:?}");

    // Its own listing takes it.
    let page = p1.limit(2).cursor(Some(&cursor)).send(&t).await.unwrap();
    assert_eq!(numbers(&page.items), [3, 4]);
}

#[tokio::test]
async fn page_sizes_outside_1_to_1000_are_refused() {
    let t = TestTable::new().await;
    let listing = ListProjectTasks {
        project_id: "p1".into(),
    };
    for bad in [0, MAX_PAGE + 1] {
        match listing.limit(bad).send(&t).await {
            Err(QueryError::Limit { got, max }) => assert_eq!((got, max), (bad, 1000)),
            other => panic!("limit {bad}: expected Limit, got {other:?}"),
        }
    }
    assert!(listing.limit(MAX_PAGE).send(&t).await.is_ok());
}

#[tokio::test]
async fn a_stream_yields_every_item() {
    let t = TestTable::new().await;
    seed_tasks(&t, "p1", 23).await;
    let listing = ListProjectTasks {
        project_id: "p1".into(),
    };
    let streamed: Vec<Task> = listing
        .limit(4)
        .stream(&t)
        .map(|r| r.unwrap())
        .collect()
        .await;
    assert_eq!(numbers(&streamed), (1..=23).collect::<Vec<_>>());
    let all = listing.limit(4).all(&t).await.unwrap();
    assert_eq!(all, streamed);
    // Nothing to stream.
    let none: Vec<_> = ListProjectTasks {
        project_id: "empty".into(),
    }
    .request()
    .stream(&t)
    .collect()
    .await;
    assert!(none.is_empty());
}

#[tokio::test]
async fn a_collection_pattern_returns_its_header_and_children() {
    let t = TestTable::new().await;
    let p = project("p1", "o");
    t.create(&p).await.unwrap();
    let tasks = seed_tasks(&t, "p1", 12).await;
    // Another project's items are not in it.
    t.create(&project("p2", "o")).await.unwrap();
    seed_tasks(&t, "p2", 2).await;

    let all = GetProjectWithTasks {
        project_id: "p1".into(),
    }
    .all(&t)
    .await
    .unwrap();
    assert_eq!(all.project, Some(p.clone()));
    assert_eq!(all.tasks, tasks);

    // Page by page, the rows come as an enum of the entities.
    let page = GetProjectWithTasks {
        project_id: "p1".into(),
    }
    .limit(5)
    .send(&t)
    .await
    .unwrap();
    assert_eq!(page.items.len(), 5);
    assert!(matches!(&page.items[0], GetProjectWithTasksRow::Project(x) if x == &p));
    assert!(matches!(&page.items[1], GetProjectWithTasksRow::Task(k) if k.task_no == 1));

    // A project without tasks, and no project at all.
    t.create(&project("p3", "o")).await.unwrap();
    let lone = GetProjectWithTasks {
        project_id: "p3".into(),
    }
    .all(&t)
    .await
    .unwrap();
    assert!(lone.project.is_some() && lone.tasks.is_empty());
    let none = GetProjectWithTasks {
        project_id: "p404".into(),
    }
    .all(&t)
    .await
    .unwrap();
    assert!(none.project.is_none() && none.tasks.is_empty());
}

#[tokio::test]
async fn descending_patterns_list_newest_first() {
    let t = TestTable::new().await;
    for n in 1..=5 {
        t.create(&comment("p1", 1, n)).await.unwrap();
    }
    t.create(&comment("p1", 2, 9)).await.unwrap();
    let page = ListTaskComments {
        project_id: "p1".into(),
        task_no: 1,
    }
    .limit(3)
    .send(&t)
    .await
    .unwrap();
    let ids: Vec<&str> = page.items.iter().map(|c| c.comment_id.as_str()).collect();
    assert_eq!(ids, ["c0005", "c0004", "c0003"]);
    assert!(page.next_cursor.is_some());

    // An owner's projects through the overloaded index, newest first.
    for (i, id) in ["a", "b", "c"].into_iter().enumerate() {
        let mut p = project(id, "owner-1");
        p.created_at = at(i as i64);
        t.create(&p).await.unwrap();
    }
    t.create(&task("a", 1)).await.unwrap();
    let listing = ListProjectsByOwner {
        owner_id: "owner-1".into(),
    };
    let ids = t
        .eventually(
            || async {
                listing
                    .all(&t)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|p| p.project_id)
                    .collect::<Vec<_>>()
            },
            |v| v.len() == 3,
        )
        .await;
    assert_eq!(ids, ["c", "b", "a"]);
}

#[tokio::test]
async fn between_takes_timestamp_parameters_inclusively() {
    let t = TestTable::new().await;
    for n in 1..=10 {
        let mut k = task("p1", n);
        k.flagged = n % 2 == 0;
        k.created_at = at(n * 10);
        t.create(&k).await.unwrap();
    }
    let range = |from: i64, to: i64| ListFlaggedTasks {
        project_id: "p1".into(),
        from: at(from),
        to: at(to),
    };
    // Flagged tasks 2, 4, .., 10 at minutes 20, 40, .., 100; newest first.
    let all = t
        .eventually(
            || async { range(0, 1000).all(&t).await.unwrap() },
            |v| v.len() == 5,
        )
        .await;
    assert_eq!(numbers(&all), [10, 8, 6, 4, 2]);
    // Both ends inclusive: an end at a task's exact millisecond takes it in, whatever follows
    // the time in its sort key.
    let inside = range(40, 80).all(&t).await.unwrap();
    assert_eq!(numbers(&inside), [8, 6, 4]);
    let none = range(41, 59).all(&t).await.unwrap();
    assert!(none.is_empty(), "{:?}", numbers(&none));
    // Pages of a descending range.
    let page = range(0, 1000).limit(2).send(&t).await.unwrap();
    assert_eq!(numbers(&page.items), [10, 8]);
    let next = range(0, 1000)
        .limit(2)
        .cursor(page.next_cursor.as_deref())
        .send(&t)
        .await
        .unwrap();
    assert_eq!(numbers(&next.items), [6, 4]);
    // Another range is another listing.
    let e = range(0, 999)
        .limit(2)
        .cursor(page.next_cursor.as_deref())
        .send(&t)
        .await
        .unwrap_err();
    assert!(matches!(e, QueryError::Cursor));
}

#[tokio::test]
async fn an_index_listing_pages_through_the_overloaded_index() {
    let t = TestTable::new().await;
    // Same assignee in two teams, and a project of an owner who shares the name.
    for n in 1..=7 {
        let mut k = task("p1", n);
        k.priority = (10 - n) as u8;
        t.create(&k).await.unwrap();
    }
    let mut other = task("p1", 8);
    other.team = "web".into();
    t.create(&other).await.unwrap();
    t.create(&project("p9", "ada")).await.unwrap();

    let listing = ListTasksByAssignee {
        team: "core".into(),
        assignee: "ada".into(),
    };
    let all = t
        .eventually(
            || async { listing.all(&t).await.unwrap() },
            |v| v.len() == 7,
        )
        .await;
    // Same due day: by priority (zero-padded), lowest first.
    assert_eq!(numbers(&all), [7, 6, 5, 4, 3, 2, 1]);
    let first = listing.limit(3).send(&t).await.unwrap();
    assert_eq!(numbers(&first.items), [7, 6, 5]);
    let second = listing
        .limit(3)
        .cursor(first.next_cursor.as_deref())
        .send(&t)
        .await
        .unwrap();
    assert_eq!(numbers(&second.items), [4, 3, 2]);
    let third = listing
        .limit(3)
        .cursor(second.next_cursor.as_deref())
        .send(&t)
        .await
        .unwrap();
    assert_eq!((numbers(&third.items), third.next_cursor), (vec![1], None));
}
