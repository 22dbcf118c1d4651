//! Access-pattern latency on the shop's model, through our SDK stack and as the same request made
//! directly on the engine, at several data sizes; and the sample loader's speed.
//!
//! Run: `cargo bench -p monotable-shop --bench patterns` (sizes: `BENCH_ORDERS=10000,1000000`,
//! the default). Results and the command go in docs/benchmarks.md.

use std::time::{Duration, Instant};

use monotable_access::pattern::{self, PageRequest};
use monotable_connect::Engine;
use monotable_connect::dispatch::{self, Origin};
use monotable_model::{Condition, Model, Operation};
use monotable_shop::Shop;
use monotable_shop::auth::Auth;
use monotable_shop::sample::{self, SampleConfig};
use serde_json::{Value, json};

const CALLS: usize = 2_000;
const WARMUP: usize = 200;
const PAGE: i32 = 20;

/// The request `store::pattern` sends for a pattern, as DynamoDB JSON for the engine.
fn direct_request(
    model: &Model,
    name: &str,
    values: &dyn Fn(&str) -> Option<String>,
) -> (Operation, Value) {
    let p = model.pattern(name).expect("pattern");
    let render = |c: &Condition| -> Vec<String> {
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
            Condition::Eq(_) => " AND #sk = :sk0",
            Condition::BeginsWith(_) => " AND begins_with(#sk, :sk0)",
            Condition::Between(..) => " AND #sk BETWEEN :sk0 AND :sk1",
            Condition::Lt(_) => " AND #sk < :sk0",
            Condition::Le(_) => " AND #sk <= :sk0",
            Condition::Gt(_) => " AND #sk > :sk0",
            Condition::Ge(_) => " AND #sk >= :sk0",
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

fn p50_mean(mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort();
    let mean = samples.iter().sum::<Duration>().as_secs_f64() / samples.len() as f64;
    (samples[samples.len() / 2].as_secs_f64() * 1e6, mean * 1e6)
}

type Values = Box<dyn Fn(&str) -> Option<String> + Sync>;

async fn run_size(orders: usize) -> Vec<(String, f64, f64, f64, usize)> {
    let engine = Engine::memory().expect("engine");
    let client = monotable_connect::inprocess::client(engine.clone());
    let model = monotable_shop::model().expect("model");
    monotable_access::table::ensure_table(&client, &model)
        .await
        .expect("table");
    let shop = Shop::new(client.clone(), model.clone(), Auth::hs256(vec![]), vec![]);
    let config = SampleConfig {
        users: (orders / 20).clamp(10, 50_000),
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

    // The floor for loading: the same items written by direct engine calls (BatchWriteItem
    // requests built from DynamoDB JSON), no SDK.
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
        let bodies: Vec<Vec<u8>> = requests
            .iter()
            .map(|r| serde_json::to_vec(r).expect("request"))
            .collect();
        let t = Instant::now();
        for body in &bodies {
            let answer = dispatch::run(
                &floor,
                Origin::Http,
                Some("DynamoDB_20120810.BatchWriteItem"),
                body,
            );
            assert_eq!(answer.status, 200);
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "direct engine BatchWriteItem of the same {} items: {secs:.1} s = {:.0} items/s\n",
            all.len(),
            all.len() as f64 / secs
        );
    }

    // Parameters that exist in the data.
    let one = |name: &str, vals: &[(&'static str, String)]| -> Values {
        let vals: Vec<(&'static str, String)> = vals.to_vec();
        let _ = name;
        Box::new(move |k: &str| vals.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()))
    };
    let user_orders = pattern::query(
        &client,
        &model,
        "listUserOrders",
        &|k| (k == "userId").then(|| "user-00007".to_string()),
        PageRequest::default(),
    )
    .await
    .expect("orders");
    let order_id =
        monotable_access::items::string(&user_orders.items[0], "orderId").expect("orderId");
    let product = pattern::query(
        &client,
        &model,
        "listProductsByCategory",
        &|k| (k == "category").then(|| "books".to_string()),
        PageRequest::default(),
    )
    .await
    .expect("products");
    let product_id =
        monotable_access::items::string(&product.items[0], "productId").expect("productId");
    let cases: Vec<(&str, Values)> = vec![
        (
            "getUser",
            one("getUser", &[("userId", "user-00007".into())]),
        ),
        (
            "getProduct",
            one("getProduct", &[("productId", product_id.clone())]),
        ),
        (
            "getOrderWithItems",
            one("getOrderWithItems", &[("orderId", order_id.clone())]),
        ),
        (
            "listUserOrders",
            one("listUserOrders", &[("userId", "user-00007".into())]),
        ),
        (
            "listOrdersByStatus",
            one("listOrdersByStatus", &[("status", "SHIPPED".into())]),
        ),
        (
            "listProductsByCategory",
            one("listProductsByCategory", &[("category", "books".into())]),
        ),
        (
            "listOrdersByDay",
            one(
                "listOrdersByDay",
                &[
                    ("day", "2026-11-15".into()),
                    ("shard", "3".into()),
                    ("from", "2026-11-15T00:00:00.000Z".into()),
                    ("to", "2026-11-15T23:59:59.999Z#~".into()),
                ],
            ),
        ),
    ];
    let mut rows = Vec::new();
    for (name, values) in &cases {
        let (op, request) = direct_request(&model, name, values.as_ref());
        let mut returned = 0;
        // Through our stack: store::pattern -> SDK -> in-process connector -> engine.
        let mut sdk = Vec::with_capacity(CALLS);
        for i in 0..WARMUP + CALLS {
            let t = Instant::now();
            let n = if op == Operation::GetItem {
                pattern::get(&client, &model, name, values.as_ref())
                    .await
                    .expect("get")
                    .map_or(0, |_| 1)
            } else {
                pattern::query(
                    &client,
                    &model,
                    name,
                    values.as_ref(),
                    PageRequest {
                        limit: Some(PAGE),
                        start: None,
                    },
                )
                .await
                .expect("query")
                .items
                .len()
            };
            if i >= WARMUP {
                sdk.push(t.elapsed());
            }
            returned = n;
        }
        // The same request sent straight to the engine as DynamoDB JSON (built before the
        // timer), through the dispatch `serve` uses: no SDK.
        let body = serde_json::to_vec(&request).expect("request");
        let target = if op == Operation::GetItem {
            "DynamoDB_20120810.GetItem"
        } else {
            "DynamoDB_20120810.Query"
        };
        let mut direct = Vec::with_capacity(CALLS);
        for i in 0..WARMUP + CALLS {
            let t = Instant::now();
            let answer = dispatch::run(&engine, Origin::Http, Some(target), &body);
            assert_eq!(answer.status, 200);
            std::hint::black_box(answer);
            if i >= WARMUP {
                direct.push(t.elapsed());
            }
        }
        let (sdk_p50, _) = p50_mean(sdk);
        let (direct_p50, _) = p50_mean(direct);
        rows.push((
            name.to_string(),
            sdk_p50,
            direct_p50,
            sdk_p50 / direct_p50,
            returned,
        ));
    }
    println!("| pattern | items | SDK stack p50 µs | direct engine p50 µs | ratio |");
    println!("|---|---:|---:|---:|---:|");
    for (name, sdk_p50, direct_p50, ratio, n) in &rows {
        println!("| {name} | {n} | {sdk_p50:.1} | {direct_p50:.1} | {ratio:.2}× |");
    }
    rows
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
        println!("\n### latency at {large} orders vs {small} orders (SDK stack p50)\n");
        println!("| pattern | {small} µs | {large} µs | ratio |");
        println!("|---|---:|---:|---:|");
        for (a, b) in base.iter().zip(big) {
            println!("| {} | {:.1} | {:.1} | {:.2}× |", a.0, a.1, b.1, b.1 / a.1);
        }
    }
}
