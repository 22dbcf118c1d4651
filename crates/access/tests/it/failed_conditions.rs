//! A failed condition on the embedded engine: it returns the item as it was when asked
//! (`ReturnValuesOnConditionCheckFailure: ALL_OLD`) for PutItem, UpdateItem, DeleteItem and each
//! action of a TransactWriteItems, and none when there was no item; the access layer names the
//! clause that failed from it, on the dynamic face (items and keys built at run time).

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::operation::delete_item::DeleteItemError;
use aws_sdk_dynamodb::operation::put_item::PutItemError;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{
    AttributeValue, ConditionCheck, ReturnValuesOnConditionCheckFailure as Old, TransactWriteItem,
};
use monotable_access::items::{Item, n, s};
use monotable_access::update::UpdateItem;
use monotable_access::{
    CheckItem, Condition, DeleteItem, PutSpec, Table, Transaction, WriteAction, WriteError,
    WriteFailure,
};

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");

async fn table() -> (monotable_connect::Dynamo, Table) {
    let model = monotable_model::parse(SHOP).expect("shop model parses");
    let dynamo = monotable_connect::memory().unwrap();
    monotable_access::table::ensure_table(dynamo.client(), &model)
        .await
        .unwrap();
    let table = Table::new(dynamo.client().clone(), model.table.name.clone());
    (dynamo, table)
}

fn key(id: &str) -> Item {
    Item::from([
        ("PK".to_string(), s(format!("PRODUCT#{id}"))),
        ("SK".to_string(), s("PRODUCT")),
    ])
}

fn product(id: &str, stock: i64) -> Item {
    let mut item = key(id);
    item.insert("stock".into(), n(stock));
    item.insert("published".into(), AttributeValue::Bool(true));
    item
}

const NEVER: &str = "attribute_not_exists(PK)";

#[tokio::test]
async fn the_engine_returns_the_old_item_when_asked_and_only_then() {
    let (_dynamo, t) = table().await;
    let client: &Client = t.client();
    let name = t.name();
    client
        .put_item()
        .table_name(name)
        .set_item(Some(product("1", 5)))
        .send()
        .await
        .unwrap();
    let put = |old: Option<Old>| {
        client
            .put_item()
            .table_name(name)
            .set_item(Some(product("1", 6)))
            .condition_expression(NEVER)
            .set_return_values_on_condition_check_failure(old)
            .send()
    };
    let item = |e: PutItemError| match e {
        PutItemError::ConditionalCheckFailedException(e) => e.item().cloned(),
        other => panic!("{other:?}"),
    };
    let asked = put(Some(Old::AllOld))
        .await
        .unwrap_err()
        .into_service_error();
    assert_eq!(item(asked), Some(product("1", 5)));
    let not_asked = put(None).await.unwrap_err().into_service_error();
    assert_eq!(item(not_asked), None);

    let update = client
        .update_item()
        .table_name(name)
        .set_key(Some(key("1")))
        .update_expression("SET stock = :z")
        .condition_expression("stock > :z")
        .expression_attribute_values(":z", n(10))
        .return_values_on_condition_check_failure(Old::AllOld)
        .send()
        .await
        .unwrap_err()
        .into_service_error();
    match update {
        UpdateItemError::ConditionalCheckFailedException(e) => {
            assert_eq!(e.item(), Some(&product("1", 5)))
        }
        other => panic!("{other:?}"),
    }
    // No item: nothing comes back.
    let delete = client
        .delete_item()
        .table_name(name)
        .set_key(Some(key("2")))
        .condition_expression("attribute_exists(PK)")
        .return_values_on_condition_check_failure(Old::AllOld)
        .send()
        .await
        .unwrap_err()
        .into_service_error();
    match delete {
        DeleteItemError::ConditionalCheckFailedException(e) => assert_eq!(e.item(), None),
        other => panic!("{other:?}"),
    }

    let check = |id: &str| {
        let check = ConditionCheck::builder()
            .table_name(name)
            .set_key(Some(key(id)))
            .condition_expression(NEVER)
            .return_values_on_condition_check_failure(Old::AllOld)
            .build()
            .unwrap();
        TransactWriteItem::builder().condition_check(check).build()
    };
    let cancelled = client
        .transact_write_items()
        .transact_items(check("2"))
        .transact_items(check("1"))
        .send()
        .await
        .unwrap_err()
        .into_service_error();
    match cancelled {
        TransactWriteItemsError::TransactionCanceledException(e) => {
            let reasons = e.cancellation_reasons();
            assert_eq!(reasons[0].code(), Some("None"));
            assert_eq!(reasons[1].code(), Some("ConditionalCheckFailed"));
            assert_eq!(reasons[1].item(), Some(&product("1", 5)));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn run_time_writes_name_the_clause_that_failed() {
    let (_dynamo, t) = table().await;
    PutSpec::item(product("1", 5), &["PK", "SK"])
        .send(&t)
        .await
        .unwrap();
    let in_stock = |quantity: i64| {
        Condition::exists("PK")
            .named("exists")
            .and(Condition::eq("published", true))
            .and(Condition::ge("stock", quantity).named("stock >= {quantity}"))
    };
    // UpdateItem: the item is there and published, the stock short.
    let e = UpdateItem::new(key("1"))
        .set("stock", n(0))
        .when(in_stock(9))
        .build()
        .send(&t)
        .await
        .unwrap_err();
    assert!(
        matches!(&e, WriteError::ConditionFailed { condition: Some(c), .. } if c == "stock >= {quantity}"),
        "{e:?}"
    );
    // DeleteItem of a missing item: the first clause, whose label says so.
    let e = DeleteItem::new(key("2"))
        .when(in_stock(1))
        .send(&t)
        .await
        .unwrap_err();
    assert!(
        matches!(&e, WriteError::ConditionFailed { condition: Some(c), .. } if c == "exists"),
        "{e:?}"
    );
    // PutItem: the second clause, by its text.
    let e = PutSpec::item(product("1", 1), &["PK", "SK"])
        .when(Condition::ge("stock", 1i64).and(Condition::eq("published", false)))
        .send(&t)
        .await
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the condition `published = false` on PK=PRODUCT#1, SK=PRODUCT did not hold"
    );
    // A transaction's action.
    let e = Transaction::new()
        .push(
            "reserve",
            WriteAction::Check(CheckItem::new(key("1"), in_stock(6))),
        )
        .send(&t)
        .await
        .unwrap_err();
    assert!(e.failed("reserve"), "{e}");
    assert_eq!(
        e.reason("reserve").and_then(|r| r.failure.clone()),
        Some(WriteFailure::ConditionFailed {
            condition: Some("stock >= {quantity}".into())
        })
    );
}
