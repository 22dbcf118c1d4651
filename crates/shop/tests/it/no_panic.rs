//! Every route, fed generated parameters and bodies (valid, mangled and random) by every kind of
//! caller: no panic and no 5xx ever, and a 4xx never writes anything.

use crate::common;

use std::sync::OnceLock;

use common::TestShop;
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use proptest::prelude::*;
use serde_json::{Value, json};

/// One runtime and one seeded shop for every case.
struct World {
    runtime: tokio::runtime::Runtime,
    shop: TestShop,
    user: String,
    product: String,
    order: String,
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let (shop, user, product, order) = runtime.block_on(async {
            let t = TestShop::new().await;
            let alice = t.user("alice", "alice@example.com").await;
            let p = t.product("P", "books", "3.50", true, Some(1000)).await;
            t.product("Draft", "books", "1", false, None).await;
            let o = t.order("alice", &alice, &[(&p, 1)]).await;
            let o = o.body["orderId"].as_str().unwrap().to_string();
            (t, alice, p, o)
        });
        World {
            runtime,
            shop,
            user,
            product,
            order,
        }
    })
}

/// The routes, with `{u}`, `{p}` and `{o}` standing for a path parameter.
const ROUTES: &[(&str, &str)] = &[
    ("GET", "/users"),
    ("GET", "/users/{u}"),
    ("PUT", "/users/{u}"),
    ("GET", "/users/{u}/orders"),
    ("POST", "/users/{u}/orders"),
    ("GET", "/products"),
    ("POST", "/products"),
    ("GET", "/products/{p}"),
    ("PATCH", "/products/{p}"),
    ("GET", "/products/{p}/sales"),
    ("GET", "/orders"),
    ("GET", "/orders/{o}"),
    ("PATCH", "/orders/{o}"),
    ("GET", "/openapi.json"),
    ("DELETE", "/orders/{o}"),
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-zA-Z0-9._:@-]{1,30}",
        ".{0,40}",
        "[0-9]{1,25}",
        Just("9999-12-31T23:00:00-02:00".to_string()),
        Just("0000-01-01T00:00:00+14:00".to_string()),
        Just("2026-02-30".to_string()),
        Just("-1".to_string()),
        Just("x".repeat(3000)),
        Just("PENDING".to_string()),
        Just("true".to_string()),
        Just("01J00000000000000000000000".to_string()),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("name".to_string()),
                    Just("email".to_string()),
                    Just("items".to_string()),
                    Just("productId".to_string()),
                    Just("quantity".to_string()),
                    Just("status".to_string()),
                    Just("price".to_string()),
                    Just("category".to_string()),
                    Just("published".to_string()),
                    Just("stock".to_string()),
                    Just("expectedVersion".to_string()),
                    "[a-z]{1,8}",
                ],
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A value from `valid` most of the time, anything some of the time.
fn plausible(valid: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![3 => prop::sample::select(valid).prop_map(str::to_string), 1 => text()]
}

/// A body shaped like what `route` takes, with generated values: these reach the domain code.
fn shaped_body(route: usize) -> BoxedStrategy<Value> {
    let status = prop_oneof![
        Just("PENDING"),
        Just("PAID"),
        Just("SHIPPED"),
        Just("DELIVERED"),
        Just("CANCELLED"),
        Just("LOST")
    ];
    let quantity = prop_oneof![3 => 1i64..5, 1 => any::<i64>()];
    match (ROUTES[route].0, ROUTES[route].1) {
        ("PUT", "/users/{u}") => (plausible(&["Bob", " Ann ", "Zoë"]), plausible(&["bob@example.com", "ANN@example.com", "x@y.z"]))
            .prop_map(|(n, e)| json!({"name": n, "email": e}))
            .boxed(),
        ("POST", "/users/{u}/orders") => (quantity, 0usize..3)
            .prop_map(|(q, n)| json!({"items": vec![json!({"productId": "{p}", "quantity": q}); n]}))
            .boxed(),
        ("POST", "/products") | ("PATCH", "/products/{p}") => (
            plausible(&["Lamp", "Cable"]),
            plausible(&["books", "home"]),
            plausible(&["9.99", "1", "0.5"]),
            any::<bool>(),
            quantity,
        )
            .prop_map(|(n, c, p, b, s)| json!({"name": n, "category": c, "price": p, "published": b, "stock": s}))
            .boxed(),
        ("PATCH", "/orders/{o}") => (status, prop::option::of(0i64..5))
            .prop_map(|(s, v)| json!({"status": s, "expectedVersion": v}))
            .boxed(),
        _ => json_value().boxed(),
    }
}

#[derive(Debug, Clone)]
enum Param {
    Real,
    Other(String),
}

#[derive(Debug, Clone)]
struct Case {
    route: usize,
    method: Option<String>,
    params: [Param; 3],
    query: Vec<(String, String)>,
    body: Option<Value>,
    caller: u8,
}

fn param() -> impl Strategy<Value = Param> {
    prop_oneof![3 => Just(Param::Real), 1 => text().prop_map(Param::Other)]
}

fn case() -> impl Strategy<Value = Case> {
    let key = prop_oneof![
        Just("limit"),
        Just("cursor"),
        Just("category"),
        Just("published"),
        Just("status"),
        Just("from"),
        Just("to"),
        Just("email"),
        Just("frob"),
    ]
    .prop_map(str::to_string);
    (0..ROUTES.len())
        .prop_flat_map(move |route| {
            (
                Just(route),
                prop::option::weighted(
                    0.1,
                    prop_oneof![Just("PUT"), Just("POST"), Just("PATCH"), Just("GET")]
                        .prop_map(str::to_string),
                ),
                (param(), param(), param()),
                prop::collection::vec((key.clone(), text()), 0..4),
                prop::option::weighted(
                    0.8,
                    prop_oneof![1 => json_value(), 2 => shaped_body(route)],
                ),
                0u8..6,
            )
        })
        .prop_map(|(route, method, (a, b, c), query, body, caller)| Case {
            route,
            method,
            params: [a, b, c],
            query,
            body,
            caller,
        })
}

fn encode(s: &str) -> String {
    utf8_percent_encode(s, NON_ALPHANUMERIC).to_string()
}

impl Case {
    fn path(&self, w: &World) -> String {
        let real = [
            ("alice", "{u}"),
            (w.product.as_str(), "{p}"),
            (w.order.as_str(), "{o}"),
        ];
        let mut path = ROUTES[self.route].1.to_string();
        for ((value, slot), param) in real.iter().zip(&self.params) {
            let text = match param {
                Param::Real => value.to_string(),
                Param::Other(s) => encode(s),
            };
            path = path.replace(slot, &text);
        }
        if !self.query.is_empty() {
            let q: Vec<String> = self
                .query
                .iter()
                .map(|(k, v)| format!("{k}={}", encode(v)))
                .collect();
            path = format!("{path}?{}", q.join("&"));
        }
        path
    }
}

async fn snapshot(t: &TestShop) -> Vec<String> {
    let out = t
        .shop
        .client()
        .scan()
        .table_name(t.shop.table())
        .send()
        .await
        .unwrap();
    let mut items: Vec<String> = out
        .items()
        .iter()
        .map(|i| monotable_access::items::to_json(i).to_string())
        .collect();
    items.sort();
    items
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn no_route_panics_fails_or_writes_on_a_client_error(case in case()) {
        let w = world();
        let t = &w.shop;
        let (status, body, changed) = w.runtime.block_on(async {
            let before = snapshot(t).await;
            let token = match case.caller {
                0 => None,
                1 | 2 => Some(w.user.clone()),
                3 | 4 => Some(t.admin()),
                _ => Some("not.a.token".to_string()),
            };
            let method = case.method.clone().unwrap_or_else(|| ROUTES[case.route].0.to_string());
            let body = case.body.as_ref().map(|b| {
                serde_json::from_str(&b.to_string().replace("{p}", &w.product)).unwrap_or(Value::Null)
            });
            let reply = t.call(&method, &case.path(w), token.as_deref(), body).await;
            let after = snapshot(t).await;
            (reply.status, reply.body, before != after)
        });
        prop_assert!(status.as_u16() < 500, "{} {case:?}: {body}", status);
        if status.is_client_error() {
            prop_assert!(!changed, "a {} wrote: {case:?}: {body}", status);
            prop_assert!(body["error"]["code"].is_string(), "error shape: {body}");
        }
    }
}
