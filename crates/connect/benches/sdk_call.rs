//! One SDK call through the in-process connector, in a loop, for profiling: GetItem of one user or
//! a Query of a 20-item page, keys drawn at random across the whole data set.
//!
//! `scripts/profile-sdk.sh` runs it under `perf` and draws the flame graphs in docs/img/. Alone:
//!
//! ```sh
//! SDK_CALL_OP=get SDK_CALL_SECONDS=5 cargo bench -p monotable-connect --bench sdk_call
//! SDK_CALL_OP=query SDK_CALL_CLIENT=default cargo bench -p monotable-connect --bench sdk_call
//! ```
//!
//! `SDK_CALL_CALLS=N` makes exactly N calls instead (for `valgrind --tool=callgrind`, with
//! `SDK_CALL_USERS` to shrink the data set). `SDK_CALL_CLIENT=default` builds the client with the SDK's default per-call components
//! (`inprocess::sdk_default_client`, the in-process client before issue 12); `tuned` (the
//! default) is `inprocess::client`.

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use monotable_connect::Engine;

#[path = "common/data.rs"]
mod data;

fn main() {
    let op = std::env::var("SDK_CALL_OP").unwrap_or_else(|_| "get".into());
    let seconds: u64 = std::env::var("SDK_CALL_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let tuned = std::env::var("SDK_CALL_CLIENT").map_or(true, |c| c != "default");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let engine = Engine::memory().expect("engine");
        data::load(&engine);
        let client = if tuned {
            monotable_connect::inprocess::client(engine)
        } else {
            monotable_connect::inprocess::sdk_default_client(engine)
        };
        let (calls, elapsed) = run(&client, &op, Duration::from_secs(seconds)).await;
        println!(
            "{op} ({} client): {calls} calls in {:.1} s, {:.1} µs per call",
            if tuned { "tuned" } else { "default" },
            elapsed.as_secs_f64(),
            elapsed.as_secs_f64() * 1e6 / calls as f64
        );
    });
}

/// Calls `op` until `duration` has passed; returns the calls made and the time they took.
async fn run(client: &Client, op: &str, duration: Duration) -> (u64, Duration) {
    let mut rng = fastrand::Rng::with_seed(7);
    let sizes = data::sizes();
    let started = Instant::now();
    let mut calls = 0;
    let rounds = std::env::var("SDK_CALL_CALLS")
        .ok()
        .and_then(|c| c.parse::<u64>().ok());
    while rounds.map_or(started.elapsed() < duration, |r| calls < r) {
        for _ in 0..rounds.map_or(100, |r| r.min(100)) {
            match op {
                "get" => {
                    data::get_user(client, rng.usize(0..sizes.0)).await;
                }
                "query" => {
                    let owner = rng.usize(0..sizes.1);
                    let page = client
                        .query()
                        .table_name(data::TABLE)
                        .key_condition_expression("PK = :pk AND begins_with(SK, :sk)")
                        .expression_attribute_values(
                            ":pk",
                            AttributeValue::S(data::owner_pk(owner)),
                        )
                        .expression_attribute_values(":sk", AttributeValue::S("ORDER#".into()))
                        .limit(20)
                        .send()
                        .await
                        .expect("query");
                    assert_eq!(page.count, 20);
                }
                other => panic!("SDK_CALL_OP={other}: get or query"),
            }
            calls += 1;
        }
    }
    (calls, started.elapsed())
}
