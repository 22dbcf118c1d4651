//! A shop for tests: the Router over a fresh table (in-memory engine, or the endpoint in
//! `MONOTABLE_TEST_ENDPOINT` with a table name of its own, deleted when the test ends), tokens,
//! a JSON client, and listings read until an index has caught up (real DynamoDB updates
//! global secondary indexes after the write is acknowledged).

#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::BodyExt;
use monotable_shop::{Shop, auth::Auth};
use serde_json::{Value, json};
use time::OffsetDateTime;
use tower::ServiceExt;

pub struct TestShop {
    pub shop: Shop,
    pub router: axum::Router,
    pub clock: Arc<Mutex<Option<OffsetDateTime>>>,
    /// On an external endpoint: the table to delete when the test ends.
    external: Option<String>,
}

/// How long a listing may take to show a write on an external endpoint.
const INDEX_LAG_DEADLINE: std::time::Duration = std::time::Duration::from_secs(15);

impl Drop for TestShop {
    fn drop(&mut self) {
        let Some(table) = self.external.take() else {
            return;
        };
        let client = self.shop.client().clone();
        // Drop may run inside the test's runtime: delete from a thread with its own.
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async {
                if let Err(e) = client.delete_table().table_name(&table).send().await {
                    eprintln!("could not delete test table {table}: {e:?}");
                }
            });
        })
        .join();
    }
}

pub struct Reply {
    pub status: StatusCode,
    pub body: Value,
    pub headers: HeaderMap,
}

impl Reply {
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }
}

impl TestShop {
    /// A shop over the in-memory engine whose requests first meet `faults`.
    pub async fn with_faults(faults: Arc<monotable_connect::faults::Faults>) -> TestShop {
        let model = monotable_shop::model().expect("shop model");
        let engine = monotable_connect::Engine::memory().expect("engine");
        monotable_access::table::ensure_table(
            &monotable_connect::inprocess::client(engine.clone()),
            &model,
        )
        .await
        .expect("table");
        let client = monotable_connect::inprocess::client_with_faults(engine, faults);
        TestShop::over(client, model, None)
    }

    /// A shop over the in-memory engine with capacity emulation on (`settings`), retrying
    /// throttled calls as the SDK does but with millisecond backoff; and the emulating engine.
    pub async fn with_capacity(
        settings: monotable_connect::capacity::Settings,
    ) -> (TestShop, monotable_connect::Engine) {
        let model = monotable_shop::model().expect("shop model");
        let engine = monotable_connect::Engine::memory().expect("engine");
        monotable_access::table::ensure_table(
            &monotable_connect::inprocess::client(engine.clone()),
            &model,
        )
        .await
        .expect("table");
        let engine = engine.with_capacity(settings);
        let client = monotable_connect::inprocess::client(engine.clone());
        let retries = aws_sdk_dynamodb::config::retry::RetryConfig::standard()
            .with_initial_backoff(std::time::Duration::from_millis(2))
            .with_max_backoff(std::time::Duration::from_millis(20));
        let config = client.config().to_builder().retry_config(retries).build();
        let client = aws_sdk_dynamodb::Client::from_conf(config);
        (TestShop::over(client, model, None), engine)
    }

    pub async fn new() -> TestShop {
        let mut model = monotable_shop::model().expect("shop model");
        let mut external = None;
        let dynamo = match std::env::var("MONOTABLE_TEST_ENDPOINT") {
            Ok(url) if !url.trim().is_empty() => {
                let nanos = OffsetDateTime::now_utc().unix_timestamp_nanos();
                model.table.name = format!("ShopTest-{}-{nanos}", std::process::id());
                external = Some(model.table.name.clone());
                monotable_connect::connect(&monotable_connect::Backend::Endpoint(url))
                    .await
                    .expect("endpoint")
            }
            _ => monotable_connect::memory().expect("engine"),
        };
        monotable_access::table::ensure_table(dynamo.client(), &model)
            .await
            .expect("table");
        TestShop::over(dynamo.client().clone(), model, external)
    }

    fn over(
        client: aws_sdk_dynamodb::Client,
        model: monotable_model::Model,
        external: Option<String>,
    ) -> TestShop {
        let auth = Auth::hs256(b"test-secret".to_vec());
        let clock: Arc<Mutex<Option<OffsetDateTime>>> = Arc::new(Mutex::new(None));
        let c = clock.clone();
        let shop = Shop::new(client, model, auth, b"cursor-key".to_vec()).with_clock(Arc::new(
            move || {
                c.lock()
                    .unwrap()
                    .unwrap_or_else(monotable_shop::time_util::now)
            },
        ));
        TestShop {
            router: monotable_shop::api::router(shop.clone()),
            shop,
            clock,
            external,
        }
    }

    /// Whether the table is on an external endpoint (whose indexes lag writes).
    pub fn is_external(&self) -> bool {
        self.external.is_some()
    }

    /// Fix the clock (orders created now get this time).
    pub fn set_time(&self, rfc3339: &str) {
        let t =
            OffsetDateTime::parse(rfc3339, &time::format_description::well_known::Rfc3339).unwrap();
        *self.clock.lock().unwrap() = Some(t);
    }

    pub fn token(&self, user: &str) -> String {
        self.shop.auth().issue(user, false, 600).unwrap()
    }

    pub fn admin(&self) -> String {
        self.shop.auth().issue("admin-1", true, 600).unwrap()
    }

    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        self.call_with(method, path, token, body, &[]).await
    }

    pub async fn call_with(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> Reply {
        let mut req = Request::builder()
            .method(Method::from_bytes(method.as_bytes()).unwrap())
            .uri(path);
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let req = match body {
            Some(b) => req
                .header("content-type", "application/json")
                .body(Body::from(b.to_string()))
                .unwrap(),
            None => req.body(Body::empty()).unwrap(),
        };
        let response = self.router.clone().oneshot(req).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| json!({"raw": String::from_utf8_lossy(&bytes)}))
        };
        Reply {
            status,
            body,
            headers,
        }
    }

    /// Create a product as admin; returns its id.
    pub async fn product(
        &self,
        name: &str,
        category: &str,
        price: &str,
        published: bool,
        stock: Option<i64>,
    ) -> String {
        let mut body =
            json!({"name": name, "category": category, "price": price, "published": published});
        if let Some(s) = stock {
            body["stock"] = json!(s);
        }
        let r = self
            .call("POST", "/products", Some(&self.admin()), Some(body))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        r.body["productId"].as_str().unwrap().to_string()
    }

    /// Register a user; returns a token for them.
    pub async fn user(&self, id: &str, email: &str) -> String {
        let token = self.token(id);
        let r = self
            .call(
                "PUT",
                &format!("/users/{id}"),
                Some(&token),
                Some(json!({"name": id, "email": email})),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        token
    }

    /// Place an order; returns the reply.
    pub async fn order(&self, user: &str, token: &str, lines: &[(&str, i64)]) -> Reply {
        let items: Vec<Value> = lines
            .iter()
            .map(|(p, q)| json!({"productId": p, "quantity": q}))
            .collect();
        self.call(
            "POST",
            &format!("/users/{user}/orders"),
            Some(token),
            Some(json!({"items": items})),
        )
        .await
    }

    /// Every page of a listing once it holds `expected` items: read again until it does (an
    /// index on real DynamoDB catches up after the write), up to a deadline. The caller's
    /// assertions then judge what it holds.
    pub async fn all_pages_expecting(
        &self,
        path: &str,
        token: Option<&str>,
        limit: usize,
        expected: usize,
    ) -> (Vec<Value>, usize) {
        let deadline = std::time::Instant::now() + INDEX_LAG_DEADLINE;
        loop {
            let (items, pages) = self.all_pages(path, token, limit).await;
            if items.len() == expected
                || !self.is_external()
                || std::time::Instant::now() > deadline
            {
                return (items, pages);
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    }

    /// Every page of a listing.
    pub async fn all_pages(
        &self,
        path: &str,
        token: Option<&str>,
        limit: usize,
    ) -> (Vec<Value>, usize) {
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            let sep = if path.contains('?') { '&' } else { '?' };
            let mut url = format!("{path}{sep}limit={limit}");
            if let Some(c) = &cursor {
                url.push_str(&format!("&cursor={c}"));
            }
            let r = self.call("GET", &url, token, None).await;
            assert_eq!(r.status, StatusCode::OK, "{url}: {}", r.body);
            pages += 1;
            items.extend(r.body["items"].as_array().unwrap().iter().cloned());
            match r.body["nextCursor"].as_str() {
                Some(c) => cursor = Some(c.to_string()),
                None => break,
            }
            assert!(pages < 1000, "pagination does not end");
        }
        (items, pages)
    }
}
