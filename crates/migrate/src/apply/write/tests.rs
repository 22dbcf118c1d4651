//! Settling items whose read is stale: another writer changed or deleted them between the scan
//! and the write. Deterministic: the "other writer" acts between the read and the settle.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::items::{self, Item};
use monotable_model::Model;

use super::*;
use crate::diff::{Diff, diff};

const SHOP: &str = include_str!("../../../../../examples/shop/shop.toml");
const NEW: &str = include_str!("../../../../../examples/shop/changes/orders-by-product.toml");

struct Fixture {
    client: Client,
    table: monotable_access::Table,
    old: Model,
    new: Model,
    diff: Diff,
    lines: Vec<Item>,
}

async fn fixture() -> Fixture {
    let dynamo = monotable_connect::memory().expect("engine");
    let client = dynamo.client().clone();
    std::mem::forget(dynamo);
    let (old, new) = (
        monotable_model::parse(SHOP).expect("old"),
        monotable_model::parse(NEW).expect("new"),
    );
    monotable_access::table::ensure_table(&client, &new)
        .await
        .expect("table");
    let lines: Vec<Item> = monotable_verify::generate(&old, 5)
        .samples
        .into_iter()
        .filter(|s| s.entity == "OrderItem")
        .take(3)
        .map(|s| s.item)
        .collect();
    for line in &lines {
        client
            .put_item()
            .table_name("Shop")
            .set_item(Some(line.clone()))
            .send()
            .await
            .expect("put");
    }
    let diff = diff(&old, &new);
    Fixture {
        table: monotable_access::Table::new(client.clone(), "Shop"),
        client,
        old,
        new,
        diff,
        lines,
    }
}

fn key(item: &Item) -> Item {
    Rewriter::primary_key(&monotable_model::parse(SHOP).expect("model"), item)
}

async fn touch(client: &Client, item: &Item, quantity: u32) {
    client
        .update_item()
        .table_name("Shop")
        .set_key(Some(key(item)))
        .update_expression("SET quantity = :q, productId = :p")
        .expression_attribute_values(":q", AttributeValue::N(quantity.to_string()))
        .expression_attribute_values(":p", items::s("moved-product"))
        .send()
        .await
        .expect("the app's update");
}

async fn current(client: &Client, item: &Item) -> Option<Item> {
    let out = client
        .get_item()
        .table_name("Shop")
        .set_key(Some(key(item)))
        .consistent_read(true)
        .send()
        .await
        .expect("get");
    out.item
}

fn writer<'a>(
    f: &'a Fixture,
    rewriter: &'a Rewriter<'a>,
    progress: &'a ApplyProgress,
    batch: usize,
) -> Writer<'a> {
    Writer {
        table: &f.table,
        old: &f.old,
        rewriter,
        pace: None,
        progress,
        dry_run: false,
        batch,
    }
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

#[test]
fn a_stale_read_is_read_again_and_the_other_writers_change_kept() {
    rt().block_on(async {
        let f = fixture().await;
        let rewriter = Rewriter::new(&f.old, &f.new, &f.diff, false);
        let progress = ApplyProgress::default();
        let stale = f.lines[0].clone();
        touch(&f.client, &stale, 42).await;
        let mut counts = ApplyCounts::default();
        writer(&f, &rewriter, &progress, 1)
            .settle(stale.clone(), &mut counts)
            .await
            .expect("settle");
        assert_eq!((counts.retried, counts.rewritten), (1, 1));
        let now = current(&f.client, &stale).await.expect("still there");
        assert_eq!(now.get("quantity"), Some(&AttributeValue::N("42".into())));
        assert_eq!(
            now.get("GSI4PK"),
            Some(&items::s("PRODUCT#moved-product")),
            "keyed from the new value"
        );
    });
}

#[test]
fn a_batch_with_a_stale_item_falls_back_to_one_by_one() {
    rt().block_on(async {
        let f = fixture().await;
        let rewriter = Rewriter::new(&f.old, &f.new, &f.diff, false);
        let progress = ApplyProgress::default();
        touch(&f.client, &f.lines[1], 7).await;
        let mut counts = ApplyCounts::default();
        writer(&f, &rewriter, &progress, 25)
            .settle_page(f.lines.clone(), &mut counts)
            .await
            .expect("settle");
        assert_eq!(counts.rewritten, 3);
        assert_eq!(counts.retried, 1);
        for line in &f.lines {
            let now = current(&f.client, line).await.expect("there");
            assert!(now.contains_key("GSI4PK"));
        }
        let touched = current(&f.client, &f.lines[1]).await.expect("there");
        assert_eq!(
            touched.get("quantity"),
            Some(&AttributeValue::N("7".into()))
        );
    });
}

#[test]
fn an_item_deleted_meanwhile_is_counted_not_written_back() {
    rt().block_on(async {
        let f = fixture().await;
        let rewriter = Rewriter::new(&f.old, &f.new, &f.diff, false);
        let progress = ApplyProgress::default();
        let gone = f.lines[2].clone();
        f.client
            .delete_item()
            .table_name("Shop")
            .set_key(Some(key(&gone)))
            .send()
            .await
            .expect("delete");
        let mut counts = ApplyCounts::default();
        writer(&f, &rewriter, &progress, 1)
            .settle(gone.clone(), &mut counts)
            .await
            .expect("settle");
        assert_eq!((counts.vanished, counts.rewritten), (1, 0));
        assert!(current(&f.client, &gone).await.is_none(), "not resurrected");
    });
}
