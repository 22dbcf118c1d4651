//! Delivery lag and throughput of the `productSales` consumer under `monotable-shop serve` on
//! the file-backed engine, at the shop's declared order rate (`[traffic]`: 100 orders/s of 5
//! lines, 500 OrderItem writes/s) and above it. Each level places orders through the REST API
//! at a fixed pace (open loop, 8 kept-alive connections) for `BENCH_SECONDS`, while a sampler
//! reads the consumer's `delivered` counter on `/metrics` every 50 ms; then waits until every
//! line of the level was delivered.
//!
//! Each new line is one stream record the consumer takes (a new order's own record is left out
//! by the `status = CANCELLED` filter). The lag of a sample is how long ago the oldest line not
//! yet delivered was acknowledged to its client (the stream is in commit order, and so is the
//! counter), 0 when none is waiting; it includes the consumer's poll of an idle stream (250 ms).
//!
//! `cargo bench -p monotable-shop-server --bench sales_stream`; `BENCH_RATES` (orders/s,
//! comma-separated, default `100,200,400`), `BENCH_SECONDS` (default 10).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

const LINES: usize = 5;
const CLIENTS: usize = 8;
const PRODUCTS: usize = 50;
const SAMPLE: Duration = Duration::from_millis(50);

/// A kept-alive HTTP/1.1 connection.
struct Conn {
    stream: BufReader<TcpStream>,
    host: String,
}

impl Conn {
    fn open(base: &str) -> Conn {
        let host = base.trim_start_matches("http://").to_string();
        let stream = TcpStream::connect(&host).expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        Conn {
            stream: BufReader::new(stream),
            host,
        }
    }

    /// One request; the status and body.
    fn send(&mut self, method: &str, path: &str, token: &str, body: &str) -> (u16, String) {
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.host,
            body.len()
        );
        self.stream
            .get_mut()
            .write_all(request.as_bytes())
            .expect("write");
        let mut status_line = String::new();
        self.stream.read_line(&mut status_line).expect("status");
        let status = status_line
            .get(9..12)
            .and_then(|s| s.parse().ok())
            .expect("a status");
        let mut length = 0;
        loop {
            let mut line = String::new();
            self.stream.read_line(&mut line).expect("header");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse().expect("a length");
            }
        }
        let mut body = vec![0; length];
        self.stream.read_exact(&mut body).expect("body");
        (status, String::from_utf8(body).expect("utf-8"))
    }
}

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

/// `monotable-shop serve --data-dir DIR/data`; the child and the shop's URL.
fn serve(dir: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_monotable-shop"))
        .args(["serve", "--data-dir", "data", "--dynamodb-port", "0"])
        .args(["--api-port", "0"])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve");
    let mut api = String::new();
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let line = line.expect("banner");
        if let Some(rest) = line.trim().strip_prefix("shop") {
            api = rest.split_whitespace().next().unwrap_or_default().into();
        }
        if line.starts_with("ready in") {
            break;
        }
    }
    (child, api)
}

fn token(dir: &std::path::Path, user: &str, admin: bool) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_monotable-shop"));
    cmd.args(["token", "--data-dir", "data", "--user", user])
        .current_dir(dir);
    if admin {
        cmd.arg("--admin");
    }
    let out = cmd.output().expect("token");
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .trim()
        .to_string()
}

/// The consumer's `delivered` counter.
fn delivered(api: &str) -> u64 {
    let (status, body) = Conn::open(api).send("GET", "/metrics?format=json", "", "");
    assert_eq!(status, 200, "{body}");
    let json: serde_json::Value = serde_json::from_str(&body).expect("json");
    json["consumers"]["productSales"]["delivered"]
        .as_u64()
        .expect("the consumer's counters")
}

/// The products' ids.
fn products(api: &str, admin: &str) -> Vec<String> {
    let mut conn = Conn::open(api);
    (0..PRODUCTS)
        .map(|i| {
            let body = format!(
                r#"{{"name":"P{i}","category":"c","price":"{}.{:02}","published":true}}"#,
                1 + i % 40,
                (i * 37) % 100
            );
            let (status, answer) = conn.send("POST", "/products", admin, &body);
            assert_eq!(status, 201, "{answer}");
            let json: serde_json::Value = serde_json::from_str(&answer).expect("json");
            json["productId"].as_str().expect("id").to_string()
        })
        .collect()
}

/// What one level measured.
struct Level {
    asked: u64,
    placed: f64,
    offered_rate: f64,
    during: f64,
    lags: Vec<Duration>,
    backlog: u64,
    drain: Duration,
}

/// Place `rate` orders/s for `seconds` from [`CLIENTS`] connections; the acknowledgement time
/// of each order, in order.
fn load(
    api: &str,
    tokens: &[(String, String)],
    products: &[String],
    rate: u64,
    seconds: u64,
) -> Vec<Instant> {
    let total = rate * seconds;
    let next = AtomicU64::new(0);
    let acked = Mutex::new(Vec::new());
    let start = Instant::now();
    std::thread::scope(|s| {
        for (c, (user, token)) in tokens.iter().enumerate() {
            let (next, acked) = (&next, &acked);
            s.spawn(move || {
                let mut conn = Conn::open(api);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total {
                        return;
                    }
                    let due = start + Duration::from_nanos(i * 1_000_000_000 / rate);
                    std::thread::sleep(due.saturating_duration_since(Instant::now()));
                    let items: Vec<String> = (0..LINES)
                        .map(|l| {
                            let i = usize::try_from(i).expect("fits");
                            let p = &products[(i * LINES + l + c) % products.len()];
                            format!(r#"{{"productId":"{p}","quantity":{}}}"#, 1 + l)
                        })
                        .collect();
                    let body = format!(r#"{{"items":[{}]}}"#, items.join(","));
                    let (status, answer) =
                        conn.send("POST", &format!("/users/{user}/orders"), token, &body);
                    assert_eq!(status, 201, "{answer}");
                    acked.lock().expect("lock").push(Instant::now());
                }
            });
        }
    });
    let mut acked = acked.into_inner().expect("lock");
    acked.sort();
    acked
}

/// Run one level: the load, a sampler beside it, then the wait for the rest to be delivered.
fn level(
    api: &str,
    tokens: &[(String, String)],
    products: &[String],
    rate: u64,
    seconds: u64,
) -> Level {
    let base = delivered(api);
    let done = AtomicBool::new(false);
    let samples = Mutex::new(Vec::new());
    let start = Instant::now();
    let acked = std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                let at = Instant::now();
                samples
                    .lock()
                    .expect("lock")
                    .push((at, delivered(api) - base));
                std::thread::sleep(SAMPLE);
            }
        });
        let acked = load(api, tokens, products, rate, seconds);
        done.store(true, Ordering::Relaxed);
        acked
    });
    let load_end = Instant::now();
    let offered = u64::try_from(acked.len() * LINES).expect("fits");
    let at_end = delivered(api) - base;
    while delivered(api) - base < offered {
        assert!(
            load_end.elapsed() < Duration::from_secs(600),
            "not delivered in 10 min"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let drain = load_end.elapsed();
    let samples = samples.into_inner().expect("lock");
    let lags = samples
        .iter()
        .map(|(at, got)| lag(&acked, *at, *got))
        .collect();
    let took = load_end - start;
    Level {
        asked: rate,
        placed: per_second(acked.len(), took),
        offered_rate: per_second(acked.len() * LINES, took),
        during: per_second(usize::try_from(at_end).expect("fits"), took),
        lags,
        backlog: offered - at_end,
        drain,
    }
}

/// At `at`, with `delivered` lines handled: how long ago the first line not handled yet was
/// acknowledged (0 when every line acknowledged by then was handled).
fn lag(acked: &[Instant], at: Instant, delivered: u64) -> Duration {
    let order = usize::try_from(delivered).expect("fits") / LINES;
    match acked.get(order) {
        Some(&t) if t <= at => at - t,
        _ => Duration::ZERO,
    }
}

/// `n` per second over `d`.
fn per_second(n: usize, d: Duration) -> f64 {
    f64::from(u32::try_from(n).unwrap_or(u32::MAX)) / d.as_secs_f64()
}

/// The `pct`th percentile of `sorted`.
fn percentile(sorted: &[Duration], pct: usize) -> Duration {
    let i = sorted.len().saturating_sub(1) * pct / 100;
    sorted.get(i).copied().unwrap_or_default()
}

fn main() {
    let rates: Vec<u64> = env_or("BENCH_RATES", "100,200,400")
        .split(',')
        .map(|r| r.trim().parse().expect("a rate"))
        .collect();
    let seconds: u64 = env_or("BENCH_SECONDS", "10").parse().expect("seconds");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (mut child, api) = serve(dir.path());
    let admin = token(dir.path(), "root", true);
    let tokens: Vec<(String, String)> = (0..CLIENTS)
        .map(|i| (format!("u{i}"), token(dir.path(), &format!("u{i}"), false)))
        .collect();
    let products = products(&api, &admin);
    println!(
        "sales_stream: {seconds} s per level, {LINES} lines per order, {CLIENTS} connections, file-backed engine"
    );
    println!(
        "| orders/s asked | orders/s placed | lines/s offered | delivered/s during load | lag p50 | lag p99 | lag max | backlog at load end | all delivered after load end | delivered/s after load end |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for rate in rates {
        let l = level(&api, &tokens, &products, rate, seconds);
        let mut lags = l.lags.clone();
        lags.sort();
        let ms = |d: Duration| format!("{} ms", d.as_millis());
        let after = per_second(usize::try_from(l.backlog).expect("fits"), l.drain);
        println!(
            "| {} | {:.0} | {:.0} | {:.0} | {} | {} | {} | {} | {} | {after:.0} |",
            l.asked,
            l.placed,
            l.offered_rate,
            l.during,
            ms(percentile(&lags, 50)),
            ms(percentile(&lags, 99)),
            ms(lags.last().copied().unwrap_or_default()),
            l.backlog,
            ms(l.drain),
        );
    }
    let _ = child.kill();
    let _ = child.wait();
}
