//! Cold start and warm calls of the shop's binary in Lambda mode, against the seed's Python
//! handler (boto3, examples/seed-boto3/seed_lambda.py, run by scripts/lambda_bootstrap.py), both
//! under the same mock Runtime API and over the same `monotable-shop serve` DynamoDB endpoint.
//!
//! Per run: init (exec to the first `invocation/next`), the first call (event queued to response
//! posted), then warm calls of the same request, and the resident memory after them. The
//! request is AP1, a user by id: one GetItem on each side.
//!
//! `cargo bench -p monotable-shop-server --bench lambda_cold_start` (`BENCH_RUNS`, default 10;
//! `BENCH_WARM`, default 300).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use monotable_test_support::runtime_api::{Posted, RuntimeApi, http_event};

const SECRET: &str = "cold-start-bench-secret-0123456789";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `monotable-shop serve --in-memory`; the child and its DynamoDB and shop URLs.
fn serve() -> (Child, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_monotable-shop"))
        .args([
            "serve",
            "--in-memory",
            "--dynamodb-port",
            "0",
            "--api-port",
            "0",
        ])
        .env("MONOTABLE_JWT_SECRET", SECRET)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve");
    let (mut dynamodb, mut api) = (String::new(), String::new());
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let line = line.expect("banner");
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("dynamodb") {
            dynamodb = rest.trim().to_string();
        }
        if let Some(rest) = t.strip_prefix("shop") {
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
    (child, dynamodb, api)
}

/// A user `alice` through the shop's API, and the seed's table with its user `u1`.
fn seed(dynamodb: &str, api: &str) {
    let token = Command::new(env!("CARGO_BIN_EXE_monotable-shop"))
        .args(["token", "--user", "alice"])
        .env("MONOTABLE_JWT_SECRET", SECRET)
        .output()
        .expect("token");
    let token = String::from_utf8(token.stdout).expect("utf-8");
    let body = r#"{"name":"Alice","email":"alice@example.com"}"#;
    let host = api.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(host).expect("shop");
    write!(
        s,
        "PUT /users/alice HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        token.trim(),
        body.len()
    )
    .expect("write");
    let mut answer = String::new();
    s.read_to_string(&mut answer).expect("read");
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    let status = Command::new("python3")
        .arg("-c")
        .arg("import runpy; runpy.run_path('seed_table.py'); import seed_app; seed_app.put_user('u1', 'Una', 'una@example.com')")
        .current_dir(root().join("examples/seed-boto3"))
        .envs(aws_env(dynamodb))
        .stdout(Stdio::null())
        .status()
        .expect("python3");
    assert!(status.success());
}

fn aws_env(dynamodb: &str) -> Vec<(&'static str, String)> {
    vec![
        ("AWS_ENDPOINT_URL_DYNAMODB", dynamodb.to_string()),
        ("AWS_REGION", "us-east-1".into()),
        ("AWS_DEFAULT_REGION", "us-east-1".into()),
        ("AWS_ACCESS_KEY_ID", "bench".into()),
        ("AWS_SECRET_ACCESS_KEY", "bench-secret".into()),
        ("AWS_LAMBDA_FUNCTION_NAME", "bench".into()),
        ("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST".into()),
        ("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256".into()),
        ("AWS_LAMBDA_LOG_LEVEL", "warn".into()),
    ]
}

/// The two functions under test.
#[derive(Clone, Copy)]
enum Function {
    Shop,
    Seed,
}

impl Function {
    fn spawn(self, runtime: &RuntimeApi, dynamodb: &str) -> Child {
        let mut cmd = match self {
            Function::Shop => {
                let mut c = Command::new(env!("CARGO_BIN_EXE_monotable-shop"));
                c.env("TABLE_NAME", "Shop")
                    .env("MONOTABLE_CURSOR_SECRET", SECRET);
                c
            }
            Function::Seed => {
                let mut c = Command::new("python3");
                c.arg(root().join("scripts/lambda_bootstrap.py"))
                    .env("_HANDLER", "seed_lambda.handler")
                    .env("LAMBDA_TASK_ROOT", root().join("examples/seed-boto3"));
                c
            }
        };
        cmd.envs(aws_env(dynamodb))
            .env("AWS_LAMBDA_RUNTIME_API", &runtime.address)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("function")
    }

    fn event(self) -> serde_json::Value {
        match self {
            Function::Shop => http_event(
                "GET",
                "/users/alice",
                None,
                Some(serde_json::json!({"sub": "alice"})),
            ),
            Function::Seed => http_event("GET", "/users/u1", None, None),
        }
    }
}

fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1024.0
}

fn answered(posted: &Posted) {
    match posted {
        Posted::Response { body, .. } if body["statusCode"] == 200 => {}
        other => panic!("not a 200: {other:?}"),
    }
}

/// One cold start: (init, first call, warm p50, warm p99, RSS MiB).
fn run(
    function: Function,
    dynamodb: &str,
    warm: usize,
) -> (Duration, Duration, Duration, Duration, f64) {
    let runtime = RuntimeApi::start();
    let started = Instant::now();
    let mut child = function.spawn(&runtime, dynamodb);
    let polled = runtime
        .next_poll(Duration::from_secs(30))
        .expect("init finished");
    let init = polled - started;
    let sent = Instant::now();
    answered(&runtime.call(&function.event()));
    let first = sent.elapsed();
    let mut calls: Vec<Duration> = (0..warm)
        .map(|_| {
            let event = function.event();
            let sent = Instant::now();
            answered(&runtime.call(&event));
            sent.elapsed()
        })
        .collect();
    calls.sort();
    let rss = rss_mib(child.id());
    let _ = child.kill();
    let _ = child.wait();
    let pick = |q: usize| {
        calls
            .get(calls.len() * q / 100)
            .copied()
            .unwrap_or_default()
    };
    (init, first, pick(50), pick(99), rss)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let runs = env_count("BENCH_RUNS", 10);
    let warm = env_count("BENCH_WARM", 300);
    let (mut serve, dynamodb, api) = serve();
    seed(&dynamodb, &api);
    println!("{runs} cold starts each, {warm} warm calls per start; medians over the starts");
    println!("| function | init ms | first call ms | warm p50 ms | warm p99 ms | RSS MiB |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, function) in [
        ("shop (Rust binary)", Function::Shop),
        ("seed (Python, boto3)", Function::Seed),
    ] {
        let results: Vec<_> = (0..runs).map(|_| run(function, &dynamodb, warm)).collect();
        let ms = |f: fn(&(Duration, Duration, Duration, Duration, f64)) -> Duration| {
            median(results.iter().map(|r| f(r).as_secs_f64() * 1e3).collect())
        };
        println!(
            "| {name} | {:.1} | {:.2} | {:.2} | {:.2} | {:.1} |",
            ms(|r| r.0),
            ms(|r| r.1),
            ms(|r| r.2),
            ms(|r| r.3),
            median(results.iter().map(|r| r.4).collect())
        );
    }
    let _ = serve.kill();
    let _ = serve.wait();
}
