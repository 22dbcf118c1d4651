//! Access-pattern latency on the shop's model, through our SDK stack and as the same request made
//! directly on the engine, at several data sizes; and the sample loader's speed.
//!
//! Like with like: each call draws its parameters at random across the whole data set (users,
//! their orders, products, categories, statuses, days and shards), the same draws for both sides.
//! **Our stack** is `access::pattern` (key rendering, the SDK, the in-process connector, the
//! engine, the items back as SDK maps). **Direct** is the same request (key condition, index,
//! limit, consistency) decoded into the engine's typed request before the timer and run on the
//! engine: no JSON, no SDK. The two alternate in blocks so that noise falls on both alike.
//!
//! Run: `cargo bench -p monotable-shop --bench patterns` (sizes: `BENCH_ORDERS=10000,1000000`,
//! the default; `BENCH_CALLS` per pattern, default 2000). Results go in docs/benchmarks.md.

use std::time::{Duration, Instant};

use monotable_access::Table;
use monotable_access::pattern::{self, PageRequest};
use monotable_connect::Engine;
use monotable_connect::direct::Decoded;
use monotable_model::{KeyTest, Model, Operation};
use monotable_shop::Shop;
use monotable_shop::auth::Auth;
use monotable_shop::orders;
use monotable_shop::sample::{self, SampleConfig};
use serde_json::{Value, json};

const WARMUP: usize = 200;
const BLOCK: usize = 100;
const PAGE: i32 = 20;

fn calls() -> usize {
    std::env::var("BENCH_CALLS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(2_000)
}

/// The request `store::pattern` sends for a pattern, as DynamoDB JSON for the engine.
fn direct_request(
    model: &Model,
    name: &str,
    values: &dyn Fn(&str) -> Option<String>,
) -> (Operation, Value) {
    let p = model.pattern(name).expect("pattern");
    let render = |c: &KeyTest| -> Vec<String> {
        c.templates()
            .iter()
            .map(|t| t.render(values).expect("renders"))
            .collect()
    };
    let pk = p.pk.as_ref().expect("pk");
    if p.operation == Operation::GetItem {
        let mut key = serde_json::Map::new();
        for cond in std::iter::once(pk).chain(p.sk.as_ref()) {
            key.insert(
                cond.attribute.clone(),
                json!({"S": render(&cond.condition)[0]}),
            );
        }
        return (
            Operation::GetItem,
            json!({"TableName": model.table.name, "Key": key, "ConsistentRead": p.consistent_read}),
        );
    }
    let mut names = json!({"#pk": pk.attribute});
    let mut vals = json!({":pk": {"S": render(&pk.condition)[0]}});
    let mut expr = "#pk = :pk".to_string();
    if let Some(sk) = &p.sk {
        names["#sk"] = json!(sk.attribute);
        let rendered = render(&sk.condition);
        for (i, v) in rendered.iter().enumerate() {
            vals[format!(":sk{i}")] = json!({"S": v});
        }
        expr.push_str(match &sk.condition {
            KeyTest::Eq(_) => " AND #sk = :sk0",
            KeyTest::BeginsWith(_) => " AND begins_with(#sk, :sk0)",
            KeyTest::Between(..) => " AND #sk BETWEEN :sk0 AND :sk1",
            KeyTest::Lt(_) => " AND #sk < :sk0",
            KeyTest::Le(_) => " AND #sk <= :sk0",
            KeyTest::Gt(_) => " AND #sk > :sk0",
            KeyTest::Ge(_) => " AND #sk >= :sk0",
        });
    }
    let mut request = json!({
        "TableName": model.table.name,
        "KeyConditionExpression": expr,
        "ExpressionAttributeNames": names,
        "ExpressionAttributeValues": vals,
        "ScanIndexForward": !p.descending,
        "ConsistentRead": p.consistent_read && p.index.is_none(),
        "Limit": PAGE,
    });
    if let Some(index) = p.index_name() {
        request["IndexName"] = json!(index);
    }
    (Operation::Query, request)
}

async fn run_size(orders: usize) -> Vec<Row> {
    let engine = Engine::memory().expect("engine");
    let client = monotable_connect::inprocess::client(engine.clone());
    let model = monotable_shop::model().expect("model");
    monotable_access::table::ensure_table(&client, &model)
        .await
        .expect("table");
    let shop = Shop::new(client.clone(), model.clone(), Auth::hs256(vec![]), vec![]);
    let config = SampleConfig {
        users: config_users(orders),
        products: 500,
        orders,
        // 30 days: every size has 20+ orders in one day's shard, so each pattern returns the
        // same amount at every size (BENCH_DAYS overrides).
        days: std::env::var("BENCH_DAYS")
            .ok()
            .and_then(|d| d.parse().ok())
            .unwrap_or(30),
        end: time::macros::datetime!(2026-11-30 12:00 UTC),
        seed: 42,
    };
    let started = Instant::now();
    let loaded = sample::load(&shop, &config, &|_| {}).await.expect("load");
    let secs = started.elapsed().as_secs_f64();
    println!(
        "\n### {orders} orders: loaded {} items in {secs:.1} s = {:.0} items/s\n",
        loaded.items,
        loaded.items as f64 / secs
    );

    // The floor for loading: the same items written by direct engine calls (typed
    // BatchWriteItem requests decoded before the timer), no SDK.
    if orders <= 100_000 {
        let mut all = Vec::new();
        let mut start = None;
        loop {
            let page = client
                .scan()
                .table_name(&model.table.name)
                .set_exclusive_start_key(start)
                .send()
                .await
                .expect("scan");
            all.extend(page.items.unwrap_or_default());
            start = page.last_evaluated_key;
            if start.is_none() {
                break;
            }
        }
        let floor = Engine::memory().expect("engine");
        monotable_access::table::ensure_table(
            &monotable_connect::inprocess::client(floor.clone()),
            &model,
        )
        .await
        .expect("table");
        let requests: Vec<Value> = all
            .chunks(25)
            .map(|chunk| {
                let puts: Vec<Value> = chunk
                    .iter()
                    .map(|i| json!({"PutRequest": {"Item": monotable_access::items::to_json(i)}}))
                    .collect();
                json!({"RequestItems": {model.table.name.clone(): puts}})
            })
            .collect();
        let decoded: Vec<Decoded> = requests
            .iter()
            .map(|r| {
                let body = serde_json::to_vec(r).expect("request");
                Decoded::decode("BatchWriteItem", &body).expect("decodes")
            })
            .collect();
        let t = Instant::now();
        for request in decoded {
            request.run(&floor).expect("batch write");
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "direct engine BatchWriteItem of the same {} items: {secs:.1} s = {:.0} items/s\n",
            all.len(),
            all.len() as f64 / secs
        );
    }

    let pools = Pools::gather(&client, &model, config_users(orders)).await;
    let mut rows = Vec::new();
    for name in PATTERNS {
        rows.push(measure(&engine, &client, &model, name, &pools).await);
    }
    println!("| pattern | items (mean) | our stack p50 µs | direct engine p50 µs | ratio |");
    println!("|---|---:|---:|---:|---:|");
    for row in &rows {
        println!(
            "| {} | {:.1} | {:.1} | {:.1} | {:.2}× |",
            row.name,
            row.items,
            row.stack_p50,
            row.direct_p50,
            row.stack_p50 / row.direct_p50
        );
    }
    rows
}

const PATTERNS: [&str; 7] = [
    "getUser",
    "getProduct",
    "getOrderWithItems",
    "listUserOrders",
    "listOrdersByStatus",
    "listProductsByCategory",
    "listOrdersByDay",
];

fn config_users(orders: usize) -> usize {
    (orders / 20).clamp(10, 50_000)
}

/// What a call's parameters are drawn from: every user, every product, orders of users drawn
/// across all of them, every category, status, shard and day.
struct Pools {
    users: usize,
    products: Vec<String>,
    orders: Vec<String>,
}

const STATUSES: [&str; 5] = ["PENDING", "PAID", "SHIPPED", "DELIVERED", "CANCELLED"];

impl Pools {
    async fn gather(client: &aws_sdk_dynamodb::Client, model: &Model, users: usize) -> Pools {
        let table = Table::new(client.clone(), &model.table.name);
        let mut products = Vec::new();
        for category in sample::CATEGORIES {
            let mut start = None;
            loop {
                let values = |k: &str| (k == "category").then(|| category.to_string());
                let page = pattern::query(
                    &table,
                    model,
                    "listProductsByCategory",
                    &values,
                    PageRequest { limit: None, start },
                )
                .await
                .expect("products");
                for item in &page.items {
                    products.push(monotable_access::items::string(item, "productId").expect("id"));
                }
                start = page.last_evaluated_key;
                if start.is_none() {
                    break;
                }
            }
        }
        let mut orders = Vec::new();
        let mut rng = fastrand::Rng::with_seed(3);
        while orders.len() < 2_000 {
            let user = user_id(rng.usize(..users));
            let values = |k: &str| (k == "userId").then(|| user.clone());
            let page = pattern::query(
                &table,
                model,
                "listUserOrders",
                &values,
                PageRequest::default(),
            )
            .await
            .expect("orders");
            if let Some(item) = page.items.get(rng.usize(..page.items.len().max(1))) {
                orders.push(monotable_access::items::string(item, "orderId").expect("id"));
            }
        }
        Pools {
            users,
            products,
            orders,
        }
    }

    /// The parameters of one call of `pattern`.
    fn draw(&self, pattern: &str, rng: &mut fastrand::Rng) -> Vec<(&'static str, String)> {
        match pattern {
            "getUser" | "listUserOrders" => vec![("userId", user_id(rng.usize(..self.users)))],
            "getProduct" => vec![(
                "productId",
                self.products[rng.usize(..self.products.len())].clone(),
            )],
            "getOrderWithItems" => vec![(
                "orderId",
                self.orders[rng.usize(..self.orders.len())].clone(),
            )],
            "listOrdersByStatus" => vec![
                ("status", STATUSES[rng.usize(..STATUSES.len())].to_string()),
                ("shard", rng.u32(..orders::day_shards()).to_string()),
            ],
            "listProductsByCategory" => vec![(
                "category",
                sample::CATEGORIES[rng.usize(..sample::CATEGORIES.len())].to_string(),
            )],
            "listOrdersByDay" => {
                let day = format!("2026-11-{:02}", rng.u8(1..=29));
                vec![
                    ("from", format!("{day}T00:00:00.000Z")),
                    ("to", format!("{day}T23:59:59.999Z#~")),
                    ("day", day),
                    ("shard", rng.u32(..orders::day_shards()).to_string()),
                ]
            }
            other => panic!("no parameters for {other}"),
        }
    }
}

fn user_id(i: usize) -> String {
    format!("user-{i:05}")
}

struct Row {
    name: &'static str,
    items: f64,
    stack_p50: f64,
    direct_p50: f64,
}

/// One pattern, `calls()` times each way, in alternating blocks.
async fn measure(
    engine: &Engine,
    client: &aws_sdk_dynamodb::Client,
    model: &Model,
    name: &'static str,
    pools: &Pools,
) -> Row {
    let table = Table::new(client.clone(), &model.table.name);
    let mut rng = fastrand::Rng::with_seed(17);
    let draws: Vec<Vec<(&'static str, String)>> = (0..WARMUP + calls())
        .map(|_| pools.draw(name, &mut rng))
        .collect();
    let (mut stack, mut direct) = (Vec::new(), Vec::new());
    let (mut stack_items, mut direct_items) = (0usize, 0usize);
    for (b, block) in draws.chunks(BLOCK).enumerate() {
        let timed = b * BLOCK >= WARMUP;
        // The direct requests for this block, decoded before any timer.
        let requests: Vec<Decoded> = block
            .iter()
            .map(|vals| {
                let values = |k: &str| vals.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone());
                let (op, request) = direct_request(model, name, &values);
                let body = serde_json::to_vec(&request).expect("request");
                let target = if op == Operation::GetItem {
                    "GetItem"
                } else {
                    "Query"
                };
                Decoded::decode(target, &body).expect("decodes")
            })
            .collect();
        for vals in block {
            let values = |k: &str| vals.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone());
            let t = Instant::now();
            let n = stack_call(&table, model, name, &values).await;
            if timed {
                stack.push(t.elapsed());
                stack_items += n;
            }
        }
        for request in requests {
            let t = Instant::now();
            let n = request.run(engine).expect("direct");
            if timed {
                direct.push(t.elapsed());
                direct_items += n;
            }
        }
    }
    assert_eq!(
        stack_items, direct_items,
        "{name}: both sides return the same items"
    );
    Row {
        name,
        items: stack_items as f64 / stack.len() as f64,
        stack_p50: p50(stack),
        direct_p50: p50(direct),
    }
}

/// One call through our stack: the items it returned.
async fn stack_call(
    table: &Table,
    model: &Model,
    name: &str,
    values: &(dyn Fn(&str) -> Option<String> + Sync),
) -> usize {
    let p = model.pattern(name).expect("pattern");
    if p.operation == Operation::GetItem {
        return pattern::get(table, model, name, values)
            .await
            .expect("get")
            .map_or(0, |_| 1);
    }
    let page = PageRequest {
        limit: Some(PAGE),
        start: None,
    };
    pattern::query(table, model, name, values, page)
        .await
        .expect("query")
        .items
        .len()
}

fn p50(mut samples: Vec<Duration>) -> f64 {
    samples.sort();
    samples[samples.len() / 2].as_secs_f64() * 1e6
}

fn main() {
    let sizes: Vec<usize> = std::env::var("BENCH_ORDERS")
        .unwrap_or_else(|_| "10000,1000000".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut results = Vec::new();
    for &size in &sizes {
        results.push((size, runtime.block_on(run_size(size))));
    }
    if results.len() >= 2 {
        let (small, base) = &results[0];
        let (large, big) = &results[results.len() - 1];
        println!("\n### latency at {large} orders vs {small} orders (our stack p50)\n");
        println!("| pattern | {small} µs | {large} µs | ratio |");
        println!("|---|---:|---:|---:|");
        for (a, b) in base.iter().zip(big) {
            let ratio = b.stack_p50 / a.stack_p50;
            println!(
                "| {} | {:.1} | {:.1} | {ratio:.2}× |",
                a.name, a.stack_p50, b.stack_p50
            );
        }
    }
}
