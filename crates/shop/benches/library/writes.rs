//! The shop's write patterns through the typed library against the same request written by hand
//! on the SDK: an UpdateItem (`updateProduct`: price and time set, version checked and bumped), a
//! PutItem (`placeOrder`: a new order, its three index keys rendered, only if absent) and a
//! TransactWrite (`registerUser`: a user and its email guard, both only if absent). Each variant
//! gets its own inputs, built before the timer; the conversion to items is inside it for both,
//! since the hand variant's app would write that code. Products are drawn across the whole set.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeValue, Put, ReturnValuesOnConditionCheckFailure, TransactWriteItem,
};
use monotable_shop::orders::{self, Order, Status};
use monotable_shop::patterns::{ClaimEmail, CreateUser, PlaceOrder, RegisterUser, UpdateProduct};
use monotable_shop::time_util::{format_day, format_ts};
use monotable_shop::users::User;
use rust_decimal::Decimal;

type Item = HashMap<String, AttributeValue>;

fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}
fn n(v: impl ToString) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

/// What the hand-written app writes for an order: its attributes, its keys, its type.
fn hand_order_item(o: &Order) -> Item {
    let created = format_ts(o.created_at);
    let day = format_day(o.day);
    HashMap::from([
        ("PK".into(), s(format!("ORDER#{}", o.order_id))),
        ("SK".into(), s("ORDER")),
        ("GSI1PK".into(), s(format!("USER#{}", o.user_id))),
        ("GSI1SK".into(), s(format!("ORDER#{}", o.order_id))),
        (
            "GSI2PK".into(),
            s(format!("STATUS#{}#{}", o.status.as_str(), o.shard)),
        ),
        ("GSI2SK".into(), s(format!("{created}#{}", o.order_id))),
        ("GSI3PK".into(), s(format!("ORDERDAY#{day}#{}", o.shard))),
        ("GSI3SK".into(), s(format!("{created}#{}", o.order_id))),
        ("entityType".into(), s("Order")),
        ("orderId".into(), s(o.order_id.clone())),
        ("userId".into(), s(o.user_id.clone())),
        ("status".into(), s(o.status.as_str())),
        ("total".into(), n(o.total.normalize())),
        ("currency".into(), s(o.currency.clone())),
        ("itemCount".into(), n(o.item_count)),
        ("createdAt".into(), s(created)),
        ("day".into(), s(day)),
        ("shard".into(), n(o.shard)),
        ("updatedAt".into(), s(format_ts(o.updated_at))),
        ("version".into(), n(o.version)),
    ])
}

fn hand_user_items(u: &User) -> (Item, Item) {
    let user = HashMap::from([
        ("PK".into(), s(format!("USER#{}", u.user_id))),
        ("SK".into(), s("PROFILE")),
        ("entityType".into(), s("User")),
        ("userId".into(), s(u.user_id.clone())),
        ("email".into(), s(u.email.clone())),
        ("emailLower".into(), s(u.email_lower.clone())),
        ("name".into(), s(u.name.clone())),
        ("createdAt".into(), s(format_ts(u.created_at))),
        ("updatedAt".into(), s(format_ts(u.updated_at))),
        ("version".into(), n(u.version)),
    ]);
    let guard = HashMap::from([
        ("PK".into(), s(format!("EMAIL#{}", u.email_lower))),
        ("SK".into(), s("EMAIL")),
        ("entityType".into(), s("EmailGuard")),
        ("emailLower".into(), s(u.email_lower.clone())),
        ("userId".into(), s(u.user_id.clone())),
    ]);
    (user, guard)
}

async fn hand_update_product(client: &Client, table: &str, id: &str, price: Decimal, v: i64) {
    let now = format_ts(monotable_shop::time_util::now());
    client
        .update_item()
        .table_name(table)
        .key("PK", s(format!("PRODUCT#{id}")))
        .key("SK", s("PRODUCT"))
        .update_expression("SET #price = :price, #updatedAt = :updatedAt, #version = :version")
        .condition_expression("attribute_exists(#pk) AND #version = :expected")
        .expression_attribute_names("#pk", "PK")
        .expression_attribute_names("#price", "price")
        .expression_attribute_names("#updatedAt", "updatedAt")
        .expression_attribute_names("#version", "version")
        .expression_attribute_values(":price", n(price.normalize()))
        .expression_attribute_values(":updatedAt", s(now))
        .expression_attribute_values(":version", n(v + 1))
        .expression_attribute_values(":expected", n(v))
        .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
        .send()
        .await
        .expect("hand update");
}

async fn hand_place_order(client: &Client, table: &str, o: &Order) {
    client
        .put_item()
        .table_name(table)
        .set_item(Some(hand_order_item(o)))
        .condition_expression("attribute_not_exists(#pk)")
        .expression_attribute_names("#pk", "PK")
        .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
        .send()
        .await
        .expect("hand put");
}

fn absent_put(table: &str, item: Item) -> TransactWriteItem {
    let put = Put::builder()
        .table_name(table)
        .set_item(Some(item))
        .condition_expression("attribute_not_exists(#pk)")
        .expression_attribute_names("#pk", "PK")
        .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
        .build()
        .expect("put");
    TransactWriteItem::builder().put(put).build()
}

async fn hand_register(client: &Client, table: &str, u: &User) {
    let (user, guard) = hand_user_items(u);
    client
        .transact_write_items()
        .transact_items(absent_put(table, user))
        .transact_items(absent_put(table, guard))
        .send()
        .await
        .expect("hand transaction");
}

fn order(i: usize, variant: &str) -> Order {
    let now = time::macros::datetime!(2026-11-30 12:00 UTC);
    let order_id = format!("01BENCH{variant}{i:019}");
    Order {
        shard: orders::day_shard(&order_id),
        order_id,
        user_id: format!("user-{:05}", i % 50),
        status: Status::Pending,
        total: Decimal::new(1999, 2),
        currency: orders::CURRENCY.to_string(),
        item_count: 1,
        created_at: now,
        day: now.date(),
        updated_at: now,
        version: 1,
        items: None,
    }
}

fn user(i: usize, variant: &str) -> User {
    let now = time::macros::datetime!(2026-11-30 12:00 UTC);
    let email = format!("bench-{variant}-{i}@example.com");
    User {
        user_id: format!("bench-{variant}-{i}"),
        name: format!("Bench {i}"),
        email_lower: email.clone(),
        email,
        created_at: now,
        updated_at: now,
        version: 1,
    }
}

fn p50(mut samples: Vec<Duration>) -> f64 {
    samples.sort();
    samples[samples.len() / 2].as_secs_f64() * 1e6
}

/// The three write cases, `calls` of each per variant, interleaved in blocks of 100.
pub async fn run(client: &Client, shop: &monotable_shop::Shop, products: &[String], calls: usize) {
    let table = shop.db().name().to_string();
    let db = shop.db();
    println!("\n#### writes, {calls} calls per variant\n");
    println!("| pattern | hand SDK p50 µs | library p50 µs | library / hand (p50) |");
    println!("|---|---:|---:|---:|");
    let mut rng = fastrand::Rng::with_seed(11);
    let draws: Vec<&String> = (0..calls)
        .map(|_| &products[rng.usize(..products.len())])
        .collect();
    let mut versions: HashMap<&String, i64> = HashMap::new();
    for id in products {
        let found = monotable_shop::patterns::GetProduct {
            product_id: id.clone(),
        }
        .send(db)
        .await
        .expect("get")
        .expect("product");
        versions.insert(id, found.version);
    }
    let (mut h, mut l) = (Vec::new(), Vec::new());
    for block in draws.chunks(super::BLOCK) {
        for id in block {
            let v = versions[id];
            let t = Instant::now();
            hand_update_product(client, &table, id, Decimal::new(1234, 2), v).await;
            h.push(t.elapsed());
            versions.insert(id, v + 1);
        }
        for id in block {
            let v = versions[id];
            let t = Instant::now();
            UpdateProduct {
                product_id: (*id).clone(),
                expected_version: v,
            }
            .set_price(Decimal::new(1234, 2))
            .set_updated_at(monotable_shop::time_util::now())
            .send(db)
            .await
            .expect("library update");
            l.push(t.elapsed());
            versions.insert(id, v + 1);
        }
    }
    report("updateProduct", h, l);

    let hand: Vec<Order> = (0..calls).map(|i| order(i, "H")).collect();
    let lib: Vec<Order> = (0..calls).map(|i| order(i, "L")).collect();
    let (mut h, mut l) = (Vec::new(), Vec::new());
    for (hb, lb) in hand.chunks(super::BLOCK).zip(lib.chunks(super::BLOCK)) {
        for o in hb {
            let t = Instant::now();
            hand_place_order(client, &table, o).await;
            h.push(t.elapsed());
        }
        for o in lb {
            let t = Instant::now();
            PlaceOrder { order: o }.send(db).await.expect("library put");
            l.push(t.elapsed());
        }
    }
    report("placeOrder", h, l);

    let hand: Vec<User> = (0..calls).map(|i| user(i, "h")).collect();
    let lib: Vec<User> = (0..calls).map(|i| user(i, "l")).collect();
    let (mut h, mut l) = (Vec::new(), Vec::new());
    for (hb, lb) in hand.chunks(super::BLOCK).zip(lib.chunks(super::BLOCK)) {
        for u in hb {
            let t = Instant::now();
            hand_register(client, &table, u).await;
            h.push(t.elapsed());
        }
        for u in lb {
            let t = Instant::now();
            let guard = u.guard();
            RegisterUser::new()
                .create_user(CreateUser { user: u })
                .claim_email(ClaimEmail {
                    email_guard: &guard,
                })
                .send(db)
                .await
                .expect("library transaction");
            l.push(t.elapsed());
        }
    }
    report("registerUser", h, l);
}

fn report(name: &str, hand: Vec<Duration>, library: Vec<Duration>) {
    let (hp, lp) = (p50(hand), p50(library));
    println!("| {name} | {hp:.1} | {lp:.1} | {:.3}× |", lp / hp);
}
