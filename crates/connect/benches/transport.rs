//! Round-trip cost of one GetItem and one PutItem on the embedded engine, by transport, comparing
//! like with like. Run: `cargo bench -p monotable-connect --bench transport` (results:
//! docs/benchmarks.md).
//!
//! Every variant reads and writes the same engine, keys drawn at random across the whole data set
//! (the same sequence for each variant), in interleaved blocks so that machine noise falls on all
//! of them alike:
//!
//! - **direct**: the engine's typed call, the request decoded before the timer: no JSON, no SDK.
//! - **in-process** / **loopback**, each **unsigned** and **signed**: the SDK client the app ships
//!   with (`inprocess::client`'s settings), differing only in the last hop: the in-process
//!   connector, or HTTP/1.1 to `serve`'s endpoint on 127.0.0.1. Unsigned loopback requests carry
//!   a fixed, well-formed `Authorization` header (the endpoint checks that one is present, not the
//!   signature), so neither unsigned side computes a signature; signed sides both run SigV4.
//! - **in-process, SDK defaults**: the in-process client before issue 12 trimmed its per-call
//!   work (`inprocess::sdk_default_client`).

#[path = "common/data.rs"]
mod data;

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::endpoint::{self, Endpoint, EndpointFuture, ResolveEndpoint};
use aws_sdk_dynamodb::config::{
    ConfigBag, Credentials, IdentityCache, Intercept, RuntimeComponents,
};
use aws_sdk_dynamodb::types::AttributeValue;
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::auth::AuthSchemeId;
use aws_smithy_runtime_api::client::interceptors::context::BeforeTransmitInterceptorContextMut;
use monotable_connect::direct::Decoded;
use monotable_connect::{Engine, serve};

const BLOCK: usize = 200;

fn rounds() -> usize {
    std::env::var("BENCH_CALLS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(10_000)
}

/// The endpoint of `serve` on loopback, resolved once (as the in-process client resolves its own).
#[derive(Debug)]
struct Loopback(Endpoint);

impl ResolveEndpoint for Loopback {
    fn resolve_endpoint<'a>(&'a self, _: &'a endpoint::Params) -> EndpointFuture<'a> {
        EndpointFuture::ready(Ok(self.0.clone()))
    }
}

/// A fixed, well-formed SigV4 `Authorization` header: what an unsigned client must send `serve`.
#[derive(Debug)]
struct PlaceholderAuth;

impl Intercept for PlaceholderAuth {
    fn name(&self) -> &'static str {
        "PlaceholderAuth"
    }

    fn modify_before_transmit(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let headers = context.request_mut().headers_mut();
        headers.insert(
            "authorization",
            "AWS4-HMAC-SHA256 Credential=bench/20261203/us-east-1/dynamodb/aws4_request, \
             SignedHeaders=host;x-amz-date, Signature=0000000000000000000000000000000000000000000000000000000000000000",
        );
        headers.insert("x-amz-date", "20261203T120000Z");
        Ok(())
    }
}

/// The variants, each an SDK client (the direct call has none).
fn clients(engine: &Engine, url: &str) -> Vec<(&'static str, Option<Client>)> {
    let shipped = monotable_connect::inprocess::client(engine.clone());
    let over_loopback = |signed: bool| {
        let mut config = shipped.config().to_builder();
        config.set_http_client(None);
        let config =
            config.endpoint_resolver(Loopback(Endpoint::builder().url(url.to_string()).build()));
        let config = if signed {
            signing(config)
        } else {
            config.interceptor(PlaceholderAuth)
        };
        Client::from_conf(config.build())
    };
    let signed_in_process = Client::from_conf(signing(shipped.config().to_builder()).build());
    vec![
        ("direct engine call (typed request)", None),
        ("SDK in-process, unsigned", Some(shipped.clone())),
        ("SDK loopback HTTP, unsigned", Some(over_loopback(false))),
        ("SDK in-process, SigV4-signed", Some(signed_in_process)),
        ("SDK loopback HTTP, SigV4-signed", Some(over_loopback(true))),
        (
            "SDK in-process, SDK defaults",
            Some(monotable_connect::inprocess::sdk_default_client(
                engine.clone(),
            )),
        ),
    ]
}

/// Credentials, a cached identity and SigV4 preferred: what a signing client does per call.
fn signing(config: aws_sdk_dynamodb::config::Builder) -> aws_sdk_dynamodb::config::Builder {
    config
        .credentials_provider(Credentials::for_tests())
        .identity_cache(IdentityCache::lazy().build())
        .auth_scheme_preference([AuthSchemeId::new("sigv4")])
}

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Get,
    Put,
}

type Item = std::collections::HashMap<String, AttributeValue>;

/// One SDK call; a put's item is built by the caller, before its timer.
async fn sdk_call(client: &Client, op: Op, key: usize, item: Option<Item>) {
    match op {
        Op::Get => data::get_user(client, key).await,
        Op::Put => {
            client
                .put_item()
                .table_name(data::TABLE)
                .set_item(item)
                .send()
                .await
                .expect("put");
        }
    }
}

/// The direct call's request for `key`, decoded (before any timer starts).
fn decoded(op: Op, key: usize) -> Decoded {
    let (target, request) = match op {
        Op::Get => (
            "GetItem",
            serde_json::json!({"TableName": data::TABLE,
                "Key": {"PK": {"S": data::user_pk(key)}, "SK": {"S": "PROFILE"}}}),
        ),
        Op::Put => (
            "PutItem",
            serde_json::json!({"TableName": data::TABLE, "Item": data::user(key)}),
        ),
    };
    Decoded::decode(target, &serde_json::to_vec(&request).expect("json")).expect("decodes")
}

async fn measure(
    engine: &Engine,
    variants: &[(&str, Option<Client>)],
    op: Op,
) -> Vec<Vec<Duration>> {
    let (users, _) = data::sizes();
    let mut rng = fastrand::Rng::with_seed(11);
    let keys: Vec<usize> = (0..rounds()).map(|_| rng.usize(0..users)).collect();
    let mut samples = vec![Vec::with_capacity(keys.len()); variants.len()];
    for block in keys.chunks(BLOCK) {
        for (v, (_, client)) in variants.iter().enumerate() {
            match client {
                Some(client) => {
                    let items: Vec<Option<Item>> = block
                        .iter()
                        .map(|&k| (op == Op::Put).then(|| data::user_item(k)))
                        .collect();
                    for (&key, item) in block.iter().zip(items) {
                        let t = Instant::now();
                        sdk_call(client, op, key, item).await;
                        samples[v].push(t.elapsed());
                    }
                }
                None => {
                    let requests: Vec<Decoded> = block.iter().map(|&k| decoded(op, k)).collect();
                    for request in requests {
                        let t = Instant::now();
                        let returned = request.run(engine).expect("direct");
                        samples[v].push(t.elapsed());
                        assert!(op == Op::Put || returned == 1);
                    }
                }
            }
        }
    }
    samples
}

fn report(name: &str, op: &str, mut samples: Vec<Duration>, floor: f64) -> f64 {
    samples.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let mean = us(samples.iter().sum::<Duration>()) / samples.len() as f64;
    let p50 = us(samples[samples.len() / 2]);
    let p99 = us(samples[samples.len() * 99 / 100]);
    let ratio = if floor > 0.0 { p50 / floor } else { 1.0 };
    println!("| {name} | {op} | {mean:.1} | {p50:.1} | {p99:.1} | {ratio:.2}× |");
    p50
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let engine = Engine::memory().expect("engine");
        data::load(&engine);
        let listener = serve::bind("127.0.0.1:0".parse().expect("addr"))
            .await
            .expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = engine.clone();
        let server = tokio::spawn(async move {
            serve::serve_dynamodb_defaults(listener, &served, async {
                let _ = stopped.await;
            })
            .await
            .expect("serve");
        });
        let variants = clients(&engine, &url);
        println!(
            "{} calls per variant and operation, {} users, keys at random, blocks of {BLOCK} \
             interleaved; in-memory engine; µs per call\n",
            rounds(),
            data::sizes().0
        );
        println!("| path | op | mean | p50 | p99 | p50 / direct |");
        println!("|---|---|---:|---:|---:|---:|");
        for (op, name) in [(Op::Get, "GetItem"), (Op::Put, "PutItem")] {
            let samples = measure(&engine, &variants, op).await;
            let mut floor = 0.0;
            for ((variant, _), s) in variants.iter().zip(samples) {
                let p50 = report(variant, name, s, floor);
                if floor == 0.0 {
                    floor = p50;
                }
            }
        }
        let _ = stop.send(());
        server.await.expect("server");
    });
}
