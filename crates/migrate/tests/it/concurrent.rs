//! The live app writes while the migration runs: every one of its writes is kept. The app
//! updates order lines (a modelled attribute and one outside the model), deletes some and
//! creates new ones in NEW's shape; afterwards each line holds the app's last write, and every
//! line the app did not delete carries NEW's index key.

use crate::common;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use common::*;
use monotable_access::items::{self, Item};
use monotable_migrate::apply::{self, ApplyOptions, ApplyProgress};
use monotable_migrate::diff;

fn key(item: &Item) -> Item {
    ["PK", "SK"]
        .iter()
        .filter_map(|k| item.get(*k).map(|v| (k.to_string(), v.clone())))
        .collect()
}

fn text(item: &Item, name: &str) -> String {
    item.get(name)
        .and_then(monotable_access::value::template_text)
        .unwrap_or_default()
}

/// What the app wrote last to each line: `Some(n)` its quantity, `None` deleted.
type Written = BTreeMap<(String, String), Option<u64>>;

async fn app(client: Client, table: String, lines: Vec<Item>, stop: Arc<AtomicBool>) -> Written {
    let mut written = Written::new();
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        for line in &lines {
            n += 1;
            let id = (text(line, "PK"), text(line, "SK"));
            if written.get(&id) == Some(&None) {
                continue;
            }
            if n.is_multiple_of(97) {
                client
                    .delete_item()
                    .table_name(&table)
                    .set_key(Some(key(line)))
                    .send()
                    .await
                    .expect("delete");
                written.insert(id, None);
                continue;
            }
            client
                .update_item()
                .table_name(&table)
                .set_key(Some(key(line)))
                .update_expression("SET quantity = :q, appNote = :q")
                .expression_attribute_values(":q", AttributeValue::N(n.to_string()))
                .send()
                .await
                .expect("update");
            written.insert(id, Some(n));
        }
        tokio::task::yield_now().await;
    }
    written
}

#[test]
fn the_apps_writes_during_a_migration_are_all_kept() {
    kept("MigrateConcurrent", 1);
}

#[test]
fn the_apps_writes_during_a_batched_migration_are_all_kept() {
    kept("MigrateConcurrentBatched", 25);
}

fn kept(table: &str, batch: usize) {
    runtime().block_on(async {
        let client = client().await;
        let old = named(SHOP, table);
        let new = named(ORDERS_BY_PRODUCT, table);
        let before = loaded(&client, &old, 21).await;
        let lines: Vec<Item> = before
            .iter()
            .filter(|i| items::entity_type(i) == Some("OrderItem"))
            .cloned()
            .collect();
        let stop = Arc::new(AtomicBool::new(false));
        let writer = tokio::spawn(app(
            client.clone(),
            old.table.name.clone(),
            lines,
            stop.clone(),
        ));
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;

        let d = diff::diff(&old, &new);
        let options = ApplyOptions {
            apply: true,
            segments: 4,
            batch,
            ..ApplyOptions::default()
        };
        let progress = ApplyProgress::default();
        let summary = apply::run(&client, &old, &new, &d, &options, &progress)
            .await
            .expect("migration runs");
        stop.store(true, Ordering::Relaxed);
        let written = writer.await.expect("app");
        assert!(summary.complete(), "{}", apply::render_human(&summary));

        let after: BTreeMap<(String, String), Item> = scan(&client, &new)
            .await
            .into_iter()
            .map(|i| ((text(&i, "PK"), text(&i, "SK")), i))
            .collect();
        for (id, last) in &written {
            match (last, after.get(id)) {
                (None, None) => {}
                (Some(q), Some(item)) => {
                    assert_eq!(
                        text(item, "quantity"),
                        q.to_string(),
                        "{id:?}: the app's last write kept"
                    );
                    assert_eq!(
                        text(item, "appNote"),
                        q.to_string(),
                        "{id:?}: an attribute outside the model kept"
                    );
                    assert!(item.contains_key("GSI4PK"), "{id:?}: backfilled");
                }
                (last, found) => panic!("{id:?}: the app wrote {last:?}, the table has {found:?}"),
            }
        }
        let deleted = written.values().filter(|w| w.is_none()).count();
        assert_eq!(
            after.len(),
            before.len() - deleted,
            "nothing lost, nothing duplicated"
        );
        println!(
            "batch {batch}: {} retries, {} vanished while migrating",
            summary.counts.retried, summary.counts.vanished
        );
        let _ = client
            .delete_table()
            .table_name(&new.table.name)
            .send()
            .await;
    });
}
