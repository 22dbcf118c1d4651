//! A Lambda function binary's size and init time under the mock Lambda Runtime API: the figures
//! docs/benchmarks.md gives for the Lambda build of a project `monotable new` writes.
//!
//! Init is exec to the function's first `invocation/next` (what Lambda reports as Init
//! Duration, less its own sandbox start); resident memory is read at that moment. The function
//! runs as `src/main.rs` of a new project expects on Lambda (`TABLE_NAME`,
//! `MONOTABLE_CURSOR_SECRET`, credentials and a region in the environment); its init reaches no
//! DynamoDB, so none is needed.
//!
//! `cargo run -p monotable-cli --example lambda_init -- BINARY` (`BENCH_RUNS`, default 20).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use monotable_test_support::runtime_api::RuntimeApi;

fn main() {
    let Some(binary) = std::env::args_os().nth(1) else {
        eprintln!("usage: lambda_init BINARY");
        std::process::exit(2);
    };
    let runs = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(20);
    let size = std::fs::metadata(&binary).expect("the binary").len();
    let mut inits = Vec::with_capacity(runs);
    let mut rss = Vec::with_capacity(runs);
    for _ in 0..runs {
        let (init, mib) = cold_start(&binary);
        inits.push(init);
        rss.push(mib);
    }
    inits.sort();
    rss.sort_by(f64::total_cmp);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "size {size} bytes ({:.1} MiB); init over {runs} runs: median {:.2} ms, min {:.2} ms, max {:.2} ms; RSS at init median {:.1} MiB",
        mib(size),
        ms(inits[runs / 2]),
        ms(inits[0]),
        ms(inits[runs - 1]),
        rss[runs / 2],
    );
}

/// One cold start: exec to the first `invocation/next`, and the RSS then.
fn cold_start(binary: &std::ffi::OsStr) -> (Duration, f64) {
    let runtime = RuntimeApi::start();
    let started = Instant::now();
    let mut child = Command::new(binary)
        .env_clear()
        .env("AWS_LAMBDA_RUNTIME_API", &runtime.address)
        .env("AWS_LAMBDA_FUNCTION_NAME", "init-bench")
        .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
        .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
        .env("AWS_LAMBDA_LOG_LEVEL", "warn")
        .env("AWS_REGION", "us-east-1")
        .env("AWS_ACCESS_KEY_ID", "init-bench")
        .env("AWS_SECRET_ACCESS_KEY", "init-bench-secret")
        .env("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:9")
        .env("TABLE_NAME", "init-bench")
        .env("MONOTABLE_CURSOR_SECRET", "init-bench-secret-0123456789")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the function starts");
    let polled = runtime
        .next_poll(Duration::from_secs(30))
        .expect("the function asked for an event within 30 s");
    let rss = rss_mib(child.id());
    let _ = child.kill();
    let _ = child.wait();
    (polled - started, rss)
}

fn mib(bytes: u64) -> f64 {
    // Whole KiB, which fit a u32 for any binary below 4 TiB.
    f64::from(u32::try_from(bytes / 1024).unwrap_or(u32::MAX)) / 1024.0
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
