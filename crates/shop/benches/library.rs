//! The typed library against the same request built by hand on the SDK, and against the same
//! request sent straight to the engine: each of the shop's read patterns, keys drawn across the
//! whole sample data set, the three variants interleaved in blocks so that machine noise falls on
//! all of them alike.
//!
//! - direct: the engine's typed call, the request decoded before the timer (no JSON, no SDK);
//! - hand: the SDK request written by hand (key and expression text, attribute names), its items
//!   mapped into the shop's structs by hand-written code;
//! - library: the `patterns!` request (`GetUser { user_id }.send(&table)`).
//!
//! Then the write patterns, library against hand (`library/writes.rs`).
//!
//! Run: `cargo bench -p monotable-shop --bench library` (`BENCH_ORDERS`, default 20000;
//! `BENCH_CALLS`, default 3000 per variant). Results and the command go in docs/benchmarks.md.

mod common;
#[path = "library/writes.rs"]
mod writes;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use monotable_connect::direct::Decoded;
use monotable_shop::orders::{Order, OrderLine, Status};
use monotable_shop::patterns::{GetOrderWithItems, GetProduct, GetUser, ListUserOrders};
use monotable_shop::products::Product;
use monotable_shop::users::User;
use rust_decimal::Decimal;
use serde_json::json;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

type Item = HashMap<String, AttributeValue>;

const BLOCK: usize = 100;
const PAGE: usize = 20;

// ---- The hand-written baseline: what an app without the library writes. ----

fn s(item: &Item, name: &str) -> String {
    item[name].as_s().expect("S").clone()
}
fn int(item: &Item, name: &str) -> i64 {
    item[name].as_n().expect("N").parse().expect("integer")
}
fn dec(item: &Item, name: &str) -> Decimal {
    item[name].as_n().expect("N").parse().expect("decimal")
}
fn ts(item: &Item, name: &str) -> OffsetDateTime {
    OffsetDateTime::parse(item[name].as_s().expect("S"), &Rfc3339).expect("timestamp")
}

fn hand_user(item: &Item) -> User {
    User {
        user_id: s(item, "userId"),
        name: s(item, "name"),
        email: s(item, "email"),
        email_lower: s(item, "emailLower"),
        created_at: ts(item, "createdAt"),
        updated_at: ts(item, "updatedAt"),
        version: int(item, "version"),
    }
}

fn hand_product(item: &Item) -> Product {
    Product {
        product_id: s(item, "productId"),
        name: s(item, "name"),
        category: s(item, "category"),
        price: dec(item, "price"),
        published: *item["published"].as_bool().expect("BOOL"),
        stock: item
            .get("stock")
            .map(|v| v.as_n().expect("N").parse().expect("stock")),
        published_at: item.get("publishedAt").map(|_| ts(item, "publishedAt")),
        created_at: ts(item, "createdAt"),
        updated_at: ts(item, "updatedAt"),
        version: int(item, "version"),
    }
}

fn hand_order(item: &Item) -> Order {
    let day = s(item, "day");
    Order {
        order_id: s(item, "orderId"),
        user_id: s(item, "userId"),
        status: Status::parse(&s(item, "status")).expect("status"),
        total: dec(item, "total"),
        currency: s(item, "currency"),
        item_count: int(item, "itemCount"),
        created_at: ts(item, "createdAt"),
        day: time::Date::parse(
            &day,
            time::macros::format_description!("[year]-[month]-[day]"),
        )
        .expect("day"),
        shard: u32::try_from(int(item, "shard")).expect("shard"),
        updated_at: ts(item, "updatedAt"),
        version: int(item, "version"),
        items: None,
    }
}

fn hand_line(item: &Item) -> OrderLine {
    OrderLine {
        order_id: s(item, "orderId"),
        line_no: int(item, "lineNo"),
        product_id: s(item, "productId"),
        product_name: s(item, "productName"),
        quantity: int(item, "quantity"),
        unit_price: dec(item, "unitPrice"),
        line_total: dec(item, "lineTotal"),
        stock_tracked: *item["stockTracked"].as_bool().expect("BOOL"),
        day: time::Date::parse(
            &s(item, "day"),
            time::macros::format_description!("[year]-[month]-[day]"),
        )
        .expect("day"),
    }
}

async fn hand_get(client: &Client, table: &str, pk: String, sk: &str) -> Option<Item> {
    client
        .get_item()
        .table_name(table)
        .key("PK", AttributeValue::S(pk))
        .key("SK", AttributeValue::S(sk.to_string()))
        .send()
        .await
        .expect("get")
        .item
}

async fn hand_user_orders(client: &Client, table: &str, user_id: &str) -> Vec<Order> {
    let out = client
        .query()
        .table_name(table)
        .index_name("GSI1")
        .key_condition_expression("#pk = :pk AND begins_with(#sk, :sk)")
        .expression_attribute_names("#pk", "GSI1PK")
        .expression_attribute_names("#sk", "GSI1SK")
        .expression_attribute_values(":pk", AttributeValue::S(format!("USER#{user_id}")))
        .expression_attribute_values(":sk", AttributeValue::S("ORDER#".into()))
        .scan_index_forward(false)
        .limit(PAGE as i32)
        .send()
        .await
        .expect("query");
    out.items().iter().map(hand_order).collect()
}

async fn hand_order_with_items(
    client: &Client,
    table: &str,
    order_id: &str,
) -> (Option<Order>, Vec<OrderLine>) {
    let out = client
        .query()
        .table_name(table)
        .key_condition_expression("#pk = :pk")
        .expression_attribute_names("#pk", "PK")
        .expression_attribute_values(":pk", AttributeValue::S(format!("ORDER#{order_id}")))
        .consistent_read(true)
        .send()
        .await
        .expect("query");
    let mut order = None;
    let mut lines = Vec::new();
    for item in out.items() {
        match item
            .get("entityType")
            .and_then(|v| v.as_s().ok())
            .map(String::as_str)
        {
            Some("Order") => order = Some(hand_order(item)),
            Some("OrderItem") => lines.push(hand_line(item)),
            _ => {}
        }
    }
    (order, lines)
}

// ---- The three variants of each pattern. ----

/// One pattern's call for key number `i` of its pool, in each variant.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Pattern {
    GetUser,
    GetProduct,
    GetOrderWithItems,
    ListUserOrders,
}

struct Pools {
    users: Vec<String>,
    products: Vec<String>,
    orders: Vec<String>,
}

impl Pattern {
    fn name(self) -> &'static str {
        match self {
            Pattern::GetUser => "getUser",
            Pattern::GetProduct => "getProduct",
            Pattern::GetOrderWithItems => "getOrderWithItems",
            Pattern::ListUserOrders => "listUserOrders",
        }
    }

    fn pool(self, p: &Pools) -> &[String] {
        match self {
            Pattern::GetUser | Pattern::ListUserOrders => &p.users,
            Pattern::GetProduct => &p.products,
            Pattern::GetOrderWithItems => &p.orders,
        }
    }

    /// The DynamoDB JSON request for `key`, and its X-Amz-Target.
    fn direct(self, table: &str, key: &str) -> (&'static str, Vec<u8>) {
        let get = |pk: String, sk: &str| json!({"TableName": table, "Key": {"PK": {"S": pk}, "SK": {"S": sk}}});
        let (target, body) = match self {
            Pattern::GetUser => ("GetItem", get(format!("USER#{key}"), "PROFILE")),
            Pattern::GetProduct => ("GetItem", get(format!("PRODUCT#{key}"), "PRODUCT")),
            Pattern::GetOrderWithItems => (
                "Query",
                json!({"TableName": table, "KeyConditionExpression": "#pk = :pk",
                    "ExpressionAttributeNames": {"#pk": "PK"},
                    "ExpressionAttributeValues": {":pk": {"S": format!("ORDER#{key}")}},
                    "ConsistentRead": true}),
            ),
            Pattern::ListUserOrders => (
                "Query",
                json!({"TableName": table, "IndexName": "GSI1",
                    "KeyConditionExpression": "#pk = :pk AND begins_with(#sk, :sk)",
                    "ExpressionAttributeNames": {"#pk": "GSI1PK", "#sk": "GSI1SK"},
                    "ExpressionAttributeValues": {":pk": {"S": format!("USER#{key}")}, ":sk": {"S": "ORDER#"}},
                    "ScanIndexForward": false, "Limit": PAGE}),
            ),
        };
        let target = match target {
            "GetItem" => "DynamoDB_20120810.GetItem",
            _ => "DynamoDB_20120810.Query",
        };
        (target, serde_json::to_vec(&body).expect("json"))
    }

    async fn hand(self, client: &Client, table: &str, key: &str) -> usize {
        match self {
            Pattern::GetUser => hand_get(client, table, format!("USER#{key}"), "PROFILE")
                .await
                .map(|i| hand_user(&i))
                .map_or(0, |u| std::hint::black_box(u).version as usize),
            Pattern::GetProduct => hand_get(client, table, format!("PRODUCT#{key}"), "PRODUCT")
                .await
                .map(|i| hand_product(&i))
                .map_or(0, |p| std::hint::black_box(p).version as usize),
            Pattern::GetOrderWithItems => {
                let (order, lines) = hand_order_with_items(client, table, key).await;
                usize::from(order.is_some()) + std::hint::black_box(lines).len()
            }
            Pattern::ListUserOrders => {
                std::hint::black_box(hand_user_orders(client, table, key).await).len()
            }
        }
    }

    async fn library(self, table: &monotable::Table, key: &str) -> usize {
        let key = key.to_string();
        match self {
            Pattern::GetUser => GetUser { user_id: key }
                .send(table)
                .await
                .expect("get")
                .map_or(0, |u| std::hint::black_box(u).version as usize),
            Pattern::GetProduct => GetProduct { product_id: key }
                .send(table)
                .await
                .expect("get")
                .map_or(0, |p| std::hint::black_box(p).version as usize),
            Pattern::GetOrderWithItems => {
                let all = GetOrderWithItems { order_id: key }
                    .all(table)
                    .await
                    .expect("query");
                usize::from(all.order.is_some()) + std::hint::black_box(all.order_items).len()
            }
            Pattern::ListUserOrders => {
                let page = ListUserOrders { user_id: key }
                    .limit(PAGE)
                    .send(table)
                    .await
                    .expect("query");
                std::hint::black_box(page).items.len()
            }
        }
    }
}

fn summary(mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort();
    let mean = samples.iter().sum::<Duration>().as_secs_f64() / samples.len() as f64;
    (samples[samples.len() / 2].as_secs_f64() * 1e6, mean * 1e6)
}

/// Keys for `calls` calls drawn across the pool (a fixed seed: every variant gets the same).
fn draws(pool: &[String], calls: usize, seed: u64) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..calls)
        .map(|_| pool[rng.usize(..pool.len())].clone())
        .collect()
}

async fn pools(client: &Client, table: &str) -> Pools {
    let mut pools = Pools {
        users: Vec::new(),
        products: Vec::new(),
        orders: Vec::new(),
    };
    let mut start = None;
    loop {
        let page = client
            .scan()
            .table_name(table)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("scan");
        for item in page.items() {
            match item
                .get("entityType")
                .and_then(|v| v.as_s().ok())
                .map(String::as_str)
            {
                Some("User") => pools.users.push(s(item, "userId")),
                Some("Product") => pools.products.push(s(item, "productId")),
                Some("Order") => pools.orders.push(s(item, "orderId")),
                _ => {}
            }
        }
        start = page.last_evaluated_key;
        if start.is_none() {
            return pools;
        }
    }
}

async fn run(orders: usize, calls: usize) {
    let (engine, client, shop) = common::loaded_shop(orders).await;
    let model = shop.model().clone();
    let table_name = model.table.name.clone();
    let pools = pools(&client, &table_name).await;
    println!(
        "\n### {orders} orders ({} users, {} products), {calls} calls per variant\n",
        pools.users.len(),
        pools.products.len()
    );
    println!(
        "| pattern | items | direct p50 µs | hand SDK p50 µs | library p50 µs | library / hand (p50) | library / hand (mean) | library / direct (p50) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let patterns = [
        Pattern::GetUser,
        Pattern::GetProduct,
        Pattern::GetOrderWithItems,
        Pattern::ListUserOrders,
    ];
    for (n, pattern) in patterns.into_iter().enumerate() {
        let keys = draws(pattern.pool(&pools), calls, 7 + n as u64);
        let mut direct: Vec<Option<Decoded>> = keys
            .iter()
            .map(|k| {
                let (target, body) = pattern.direct(&table_name, k);
                Some(Decoded::decode(target, &body).expect("decodes"))
            })
            .collect();
        let (mut d, mut h, mut l) = (Vec::new(), Vec::new(), Vec::new());
        let (mut hand_total, mut library_total) = (0, 0);
        // Warm up each variant, then interleave blocks: direct, hand, library, ...
        for k in keys.iter().take(BLOCK) {
            pattern.hand(&client, &table_name, k).await;
            pattern.library(shop.db(), k).await;
        }
        for block in 0..calls.div_ceil(BLOCK) {
            let range = block * BLOCK..((block + 1) * BLOCK).min(calls);
            for i in range.clone() {
                let request = direct[i].take().expect("each request runs once");
                let t = Instant::now();
                let returned = request.run(&engine).expect("direct");
                d.push(t.elapsed());
                assert!(returned > 0, "the direct call found its items");
            }
            for i in range.clone() {
                let t = Instant::now();
                let got = pattern.hand(&client, &table_name, &keys[i]).await;
                h.push(t.elapsed());
                hand_total += got;
            }
            for i in range {
                let t = Instant::now();
                let got = pattern.library(shop.db(), &keys[i]).await;
                l.push(t.elapsed());
                library_total += got;
            }
        }
        let ((dp, _), (hp, hm), (lp, lm)) = (summary(d), summary(h), summary(l));
        let per_call = pattern.library(shop.db(), &keys[0]).await;
        println!(
            "| {} | {per_call} | {dp:.1} | {hp:.1} | {lp:.1} | {:.3}× | {:.3}× | {:.2}× |",
            pattern.name(),
            lp / hp,
            lm / hm,
            lp / dp
        );
        assert_eq!(
            hand_total,
            library_total,
            "{}: the variants read different items",
            pattern.name()
        );
    }
    writes::run(&client, &shop, &pools.products, calls).await;
}

fn main() {
    let orders = std::env::var("BENCH_ORDERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let calls = std::env::var("BENCH_CALLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(run(orders, calls));
}
