//! Orders per second on the file-backed engine, through `monotable-shop serve`'s REST API as a client
//! sees it, from 1, 4 and 16 concurrent clients (each its own kept-alive connection). Every
//! order is one TransactWriteItems that must be on disk before its 201.
//!
//! `cargo bench -p monotable-shop-server --bench order_writes`; `MONOTABLE_BIN=path` measures another
//! build of the binary (the same flags), `BENCH_SECONDS` sets each level's length (default 5),
//! `BENCH_IN_MEMORY=1` runs the same load on the in-memory engine (the ceiling without a disk),
//! `BENCH_CLIENTS=16` (comma-separated) picks the levels.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const PRODUCTS: usize = 100;

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

    /// Send one request; the status and body.
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
            .unwrap_or(0);
        let mut length = 0;
        loop {
            let mut line = String::new();
            self.stream.read_line(&mut line).expect("header");
            if line == "\r\n" {
                break;
            }
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        self.stream.read_exact(&mut body).expect("body");
        (status, String::from_utf8_lossy(&body).into_owned())
    }
}

fn binary() -> String {
    std::env::var("MONOTABLE_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_monotable-shop").to_string())
}

const SECRET: &str = "order-writes-bench-secret";

fn in_memory() -> bool {
    std::env::var("BENCH_IN_MEMORY").is_ok_and(|v| v == "1")
}

fn token(dir: &std::path::Path, user: &str, admin: bool) -> String {
    let mut cmd = Command::new(binary());
    cmd.args(["token", "--data-dir", "data", "--user", user])
        .env("MONOTABLE_JWT_SECRET", SECRET)
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

/// Start serve on a fresh data directory; the child and the shop's URL.
fn serve(dir: &std::path::Path) -> (std::process::Child, String) {
    let data: &[&str] = if in_memory() {
        &["--in-memory"]
    } else {
        &["--data-dir", "data"]
    };
    let mut child = Command::new(binary())
        .arg("serve")
        .args(data)
        .args(["--dynamodb-port", "0", "--api-port", "0"])
        .env("MONOTABLE_JWT_SECRET", SECRET)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve");
    let mut api = String::new();
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let line = line.expect("banner");
        if let Some(rest) = line.trim().strip_prefix("shop") {
            api = rest
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string();
        }
        if line.starts_with("ready in") {
            break;
        }
    }
    (child, api)
}

/// Orders placed by `clients` threads in `seconds`, and their p50 and p99 latency.
fn level(
    api: &str,
    products: &[String],
    tokens: &[(String, String)],
    seconds: u64,
) -> (usize, Duration, Duration) {
    let stop = Arc::new(AtomicBool::new(false));
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let threads: Vec<_> = tokens
        .iter()
        .enumerate()
        .map(|(i, (user, token))| {
            let (api, user, token) = (api.to_string(), user.clone(), token.clone());
            let products = products.to_vec();
            let (stop, latencies) = (stop.clone(), latencies.clone());
            std::thread::spawn(move || {
                let mut conn = Conn::open(&api);
                let mut mine = Vec::new();
                let mut n = i * 1000;
                while !stop.load(Ordering::Relaxed) {
                    // One to three lines over distinct products, spread over the catalogue.
                    let lines: Vec<String> = (0..1 + n % 3)
                        .map(|k| {
                            format!(
                                r#"{{"productId":"{}","quantity":1}}"#,
                                products[(n * 7 + k * 31) % products.len()]
                            )
                        })
                        .collect();
                    let body = format!(r#"{{"items":[{}]}}"#, lines.join(","));
                    let path = format!("/users/{user}/orders");
                    let started = Instant::now();
                    let (status, answer) = conn.send("POST", &path, &token, &body);
                    assert_eq!(status, 201, "{answer}");
                    mine.push(started.elapsed());
                    n += 1;
                }
                latencies.lock().expect("lock").extend(mine);
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(seconds));
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join().expect("client");
    }
    let mut all = latencies.lock().expect("lock").clone();
    all.sort();
    let pick = |q: usize| all.get(all.len() * q / 100).copied().unwrap_or_default();
    (all.len(), pick(50), pick(99))
}

fn main() {
    let seconds = std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    println!(
        "binary: {}; engine: {}",
        binary(),
        if in_memory() { "in memory" } else { "file" }
    );
    println!("| clients | orders | orders/s | p50 ms | p99 ms |");
    println!("|---:|---:|---:|---:|---:|");
    let levels: Vec<usize> = std::env::var("BENCH_CLIENTS")
        .unwrap_or_else(|_| "1,4,16".into())
        .split(',')
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    for clients in levels {
        // A fresh data directory per level, so each starts from the same database size.
        let dir = tempfile::tempdir().expect("tempdir");
        let (mut child, api) = serve(dir.path());
        let admin = token(dir.path(), "root", true);
        let mut conn = Conn::open(&api);
        let products: Vec<String> = (0..PRODUCTS)
            .map(|i| {
                let body = format!(r#"{{"name":"P{i}","category":"c{}","price":"1.50","published":true,"stock":100000000}}"#, i % 5);
                let (status, answer) = conn.send("POST", "/products", &admin, &body);
                assert_eq!(status, 201, "{answer}");
                let v: serde_json::Value = serde_json::from_str(&answer).expect("json");
                v["productId"].as_str().expect("id").to_string()
            })
            .collect();
        let tokens: Vec<(String, String)> = (0..clients)
            .map(|i| (format!("u{i}"), token(dir.path(), &format!("u{i}"), false)))
            .collect();
        let (orders, p50, p99) = level(&api, &products, &tokens, seconds);
        let rate = orders as f64 / seconds as f64;
        println!(
            "| {clients} | {orders} | {rate:.0} | {:.2} | {:.2} |",
            p50.as_secs_f64() * 1e3,
            p99.as_secs_f64() * 1e3
        );
        let _ = child.kill();
        let _ = child.wait();
    }
}
