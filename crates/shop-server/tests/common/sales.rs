//! What the sales-stream suites share: products priced in cents, customers placing, paying and
//! cancelling orders through the REST API from several threads at once, the units and revenue
//! the orders themselves give per product and day (read back through the API), the
//! `productSales` aggregate (`GET /products/{productId}/sales`), and the consumer's counters on
//! `/metrics`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use monotable_test_support::http;
use serde_json::{Value, json};

/// Per product, per day: units and revenue in cents.
pub type Sums = BTreeMap<String, BTreeMap<String, (i64, i64)>>;

/// The prices of the products the customers buy: cents that do not add up to round sums.
pub const PRICES: [&str; 5] = ["19.99", "0.35", "3.07", "120.10", "7.49"];

/// The longest a suite waits for the consumer to catch up or fall behind.
pub const WAIT: Duration = Duration::from_secs(180);

/// `serve`'s shop API and an admin's token.
#[derive(Debug, Clone)]
pub struct Api {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// An admin's bearer token.
    pub admin: String,
}

impl Api {
    /// One request with `token`; the status and the JSON answer, `Err` when serve is gone.
    pub fn call(
        &self,
        method: &str,
        path: &str,
        token: &str,
        body: Option<&Value>,
    ) -> std::io::Result<(u16, Value)> {
        let auth = format!("Bearer {token}");
        let body = body.map(Value::to_string);
        http(
            &self.url,
            method,
            path,
            &[("Authorization", &auth)],
            body.as_deref(),
        )
    }

    /// A request that must answer `expected`.
    pub fn expect(&self, method: &str, path: &str, body: Option<&Value>, expected: u16) -> Value {
        let (status, answer) = self
            .call(method, path, &self.admin, body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        assert_eq!(status, expected, "{method} {path}: {answer}");
        answer
    }

    /// A published product at `price`, stock untracked; its id.
    pub fn product(&self, name: &str, price: &str) -> String {
        let body = json!({ "name": name, "category": "c", "price": price, "published": true });
        let p = self.expect("POST", "/products", Some(&body), 201);
        p["productId"].as_str().expect("an id").to_string()
    }

    /// The consumer's counters (`/metrics?format=json`).
    pub fn consumer_metrics(&self) -> Value {
        let m = self.expect("GET", "/metrics?format=json", None, 200);
        m["consumers"]["productSales"].clone()
    }
}

/// A small seeded generator (xorshift64*), so each client's choices are repeatable.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }

    /// An index in `0..len`.
    pub fn index(&mut self, len: usize) -> usize {
        usize::try_from(self.below(u64::try_from(len).unwrap())).unwrap()
    }
}

/// One customer: `user` with `token`.
pub struct Customer {
    pub user: String,
    pub token: String,
}

/// What a customer does at each step: place an order of 1 to 3 of `products` (1 to 5 units
/// each), or cancel one of its open orders (a quarter of the steps), or have the admin pay one
/// (an eighth). Runs `steps` steps, or until `stop` (`None`) or until serve is gone; panics on
/// an answer the shop should not give.
pub fn customer(
    api: &Api,
    who: &Customer,
    products: &[String],
    seed: u64,
    steps: Option<usize>,
    stop: &AtomicBool,
) {
    let mut rng = Rng::new(seed);
    let mut open: Vec<String> = Vec::new();
    let mut step = 0;
    while steps.is_none_or(|n| step < n) && !stop.load(Ordering::Relaxed) {
        step += 1;
        let roll = rng.below(8);
        let done = if roll < 2 && !open.is_empty() {
            let id = open.swap_remove(rng.index(open.len()));
            let body = json!({ "status": "CANCELLED" });
            api.call("PATCH", &format!("/orders/{id}"), &who.token, Some(&body))
        } else if roll == 2 && !open.is_empty() {
            let id = &open[rng.index(open.len())];
            let body = json!({ "status": "PAID" });
            let path = format!("/orders/{id}");
            match api.call("PATCH", &path, &api.admin, Some(&body)) {
                // Paid before: a second payment is an illegal transition.
                Ok((409, _)) => Ok((200, Value::Null)),
                other => other,
            }
        } else {
            place(api, who, products, &mut rng, &mut open)
        };
        match done {
            Ok((200 | 201, _)) => {}
            Ok((status, body)) => panic!("{} got {status}: {body}", who.user),
            Err(_) => return, // serve was killed or stopped
        }
    }
}

fn place(
    api: &Api,
    who: &Customer,
    products: &[String],
    rng: &mut Rng,
    open: &mut Vec<String>,
) -> std::io::Result<(u16, Value)> {
    let mut items = Vec::new();
    let mut chosen = products.to_vec();
    for _ in 0..=rng.below(3) {
        let p = chosen.swap_remove(rng.index(chosen.len()));
        items.push(json!({ "productId": p, "quantity": rng.below(5) + 1 }));
    }
    let body = json!({ "items": items });
    let answer = api.call(
        "POST",
        &format!("/users/{}/orders", who.user),
        &who.token,
        Some(&body),
    )?;
    if answer.0 == 201 {
        open.push(answer.1["orderId"].as_str().expect("an id").to_string());
    }
    Ok(answer)
}

/// `"12.34"` in cents; amounts carry two decimal places.
pub fn cents(amount: &Value) -> i64 {
    let text = amount
        .as_str()
        .unwrap_or_else(|| panic!("an amount: {amount}"));
    let (whole, fraction) = text.split_once('.').expect("two decimal places");
    assert_eq!(fraction.len(), 2, "{text}");
    let sign = if whole.starts_with('-') { -1 } else { 1 };
    whole.parse::<i64>().unwrap() * 100 + sign * fraction.parse::<i64>().unwrap()
}

/// Every order the shop holds, in every status (`GET /orders?status=`, page by page).
fn all_order_ids(api: &Api) -> Vec<String> {
    let mut ids = Vec::new();
    for status in ["PENDING", "PAID", "SHIPPED", "DELIVERED", "CANCELLED"] {
        let mut cursor = String::new();
        loop {
            let path = format!("/orders?status={status}&limit=100{cursor}");
            let page = api.expect("GET", &path, None, 200);
            for o in page["items"].as_array().expect("items") {
                ids.push(o["orderId"].as_str().expect("an id").to_string());
            }
            match page["nextCursor"].as_str() {
                Some(c) => cursor = format!("&cursor={c}"),
                None => break,
            }
        }
    }
    ids
}

/// The sums the orders themselves give: per product and UTC day of the order, the units and
/// revenue of the lines of orders not cancelled. Every day a product had a line on is there,
/// at zero when all its orders were cancelled (as the aggregate keeps it).
pub fn sums_from_orders(api: &Api) -> Sums {
    let mut sums = Sums::new();
    for id in all_order_ids(api) {
        let order = api.expect("GET", &format!("/orders/{id}"), None, 200);
        let day = order["createdAt"].as_str().expect("createdAt")[..10].to_string();
        let counts = order["status"] != "CANCELLED";
        for line in order["items"].as_array().expect("lines") {
            let product = line["productId"].as_str().expect("a product").to_string();
            let slot = sums
                .entry(product)
                .or_default()
                .entry(day.clone())
                .or_default();
            if counts {
                slot.0 += line["quantity"].as_i64().expect("a quantity");
                slot.1 += cents(&line["lineTotal"]);
            }
        }
    }
    sums
}

/// The aggregate of `product` over `from..=to`, per day; its totals checked against its days.
pub fn aggregate(api: &Api, product: &str, from: &str, to: &str) -> BTreeMap<String, (i64, i64)> {
    let path = format!("/products/{product}/sales?from={from}&to={to}");
    let report = api.expect("GET", &path, None, 200);
    let mut days = BTreeMap::new();
    for d in report["days"].as_array().expect("days") {
        let units = d["units"].as_i64().expect("units");
        days.insert(
            d["day"].as_str().expect("a day").to_string(),
            (units, cents(&d["revenue"])),
        );
    }
    let units: i64 = days.values().map(|d| d.0).sum();
    let revenue: i64 = days.values().map(|d| d.1).sum();
    assert_eq!(report["units"].as_i64(), Some(units), "{report}");
    assert_eq!(cents(&report["revenue"]), revenue, "{report}");
    days
}

/// Every product's aggregate equals the sums of the orders, day by day and cent for cent;
/// the number of products and days compared.
pub fn assert_aggregates_equal_orders(api: &Api) -> (usize, usize) {
    let sums = sums_from_orders(api);
    let days = sums
        .values()
        .flat_map(|d| d.keys())
        .collect::<std::collections::BTreeSet<_>>();
    let (Some(from), Some(to)) = (days.first(), days.last()) else {
        panic!("no orders to compare")
    };
    for (product, expected) in &sums {
        let got = aggregate(api, product, from, to);
        assert_eq!(
            &got, expected,
            "product {product}: the aggregate (left) against the orders"
        );
    }
    (sums.len(), days.len())
}

/// Place one order of a new product (nothing else buys it) and wait until the aggregate counts
/// it and no record read is left unhandled. Delivery is in order, so then every record written
/// before it was handled.
pub fn catch_up(api: &Api, who: &Customer) {
    let sentinel = api.product("sentinel", "1.01");
    let body = json!({ "items": [{ "productId": sentinel, "quantity": 1 }] });
    let path = format!("/users/{}/orders", who.user);
    let (status, order) = api
        .call("POST", &path, &who.token, Some(&body))
        .expect("serve answers");
    assert_eq!(status, 201, "{order}");
    let day = &order["createdAt"].as_str().expect("createdAt")[..10];
    let started = Instant::now();
    loop {
        let counted = aggregate(api, &sentinel, day, day).get(day).copied();
        let lag = api.consumer_metrics()["lag_records"].as_u64();
        if counted == Some((1, 101)) && lag == Some(0) {
            return;
        }
        assert!(
            counted.is_none_or(|c| c.0 <= 1),
            "the sentinel counted {counted:?}, placed once"
        );
        assert!(
            started.elapsed() < WAIT,
            "the consumer did not catch up within {WAIT:?}: {}",
            api.consumer_metrics()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Wait until the consumer is behind (records read and not handled yet); `false` if it never
/// was within [`WAIT`].
pub fn wait_behind(api: &Api) -> bool {
    let started = Instant::now();
    while started.elapsed() < WAIT {
        if api.consumer_metrics()["lag_records"].as_u64() > Some(0) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}
