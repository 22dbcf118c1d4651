//! Fault injection on the in-process connector, for tests only (cargo feature `faults`): the
//! failures real DynamoDB produces and no local engine does — transaction conflicts, throttling,
//! internal errors, unprocessed batch items, added latency — chosen per operation and rate with
//! a fixed seed, so a test that meets them is repeatable.

use std::sync::Mutex;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::dispatch::{self, Answer, Origin, TARGET_PREFIX};
use crate::engine::Engine;

/// One kind of failure.
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// `TransactWriteItems` cancelled with `TransactionConflict` on its first action.
    TransactionConflict,
    /// `ProvisionedThroughputExceededException` (the SDK retries it).
    Throttle,
    /// `InternalServerError` (the SDK retries it).
    InternalError,
    /// `BatchWriteItem` writes the first half of its items and returns the rest unprocessed.
    UnprocessedItems,
    /// The request runs after this delay.
    Latency(Duration),
}

/// When a fault strikes.
#[derive(Debug, Clone)]
pub struct FaultRule {
    /// The operation (`"TransactWriteItems"`), or every operation when `None`.
    pub operation: Option<String>,
    /// What happens.
    pub fault: Fault,
    /// Chance per matching request, 0.0 to 1.0.
    pub rate: f64,
    /// Strike at most this many times (`None`: no limit).
    pub limit: Option<u32>,
}

impl FaultRule {
    /// `fault` on every `operation` request.
    pub fn always(operation: &str, fault: Fault) -> FaultRule {
        FaultRule {
            operation: Some(operation.to_string()),
            fault,
            rate: 1.0,
            limit: None,
        }
    }

    /// `fault` on the first `times` `operation` requests, then never.
    pub fn times(operation: &str, fault: Fault, times: u32) -> FaultRule {
        FaultRule {
            limit: Some(times),
            ..FaultRule::always(operation, fault)
        }
    }
}

/// A set of rules and the seeded generator that decides each request.
#[derive(Debug)]
pub struct Faults {
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    rules: Vec<(FaultRule, u32)>,
    rng: fastrand::Rng,
    injected: u64,
}

impl Faults {
    /// `rules`, decided by a generator seeded with `seed`.
    pub fn new(seed: u64, rules: Vec<FaultRule>) -> Faults {
        Faults {
            state: Mutex::new(State {
                rules: rules.into_iter().map(|r| (r, 0)).collect(),
                rng: fastrand::Rng::with_seed(seed),
                injected: 0,
            }),
        }
    }

    /// Replace the rules (a test sets its data up first, then arms the faults).
    pub fn set(&self, rules: Vec<FaultRule>) {
        self.lock().rules = rules.into_iter().map(|r| (r, 0)).collect();
    }

    /// How many faults have struck so far.
    pub fn injected(&self) -> u64 {
        self.lock().injected
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The faults that strike this request, in rule order.
    fn draw(&self, operation: &str) -> Vec<Fault> {
        let mut state = self.lock();
        let State {
            rules,
            rng,
            injected,
        } = &mut *state;
        let mut out = Vec::new();
        for (rule, count) in rules.iter_mut() {
            let matches = rule.operation.as_deref().is_none_or(|o| o == operation);
            let spent = rule.limit.is_some_and(|l| *count >= l);
            if matches && !spent && rng.f64() < rule.rate {
                *count += 1;
                *injected += 1;
                out.push(rule.fault.clone());
            }
        }
        out
    }

    /// Run one request through the rules, then (unless a fault answered it) the engine.
    pub(crate) async fn run(&self, engine: &Engine, target: Option<&str>, body: &[u8]) -> Answer {
        let operation = target
            .and_then(|t| t.strip_prefix(TARGET_PREFIX))
            .unwrap_or_default()
            .to_string();
        let mut split = false;
        for fault in self.draw(&operation) {
            match fault {
                Fault::Latency(d) => tokio::time::sleep(d).await,
                Fault::UnprocessedItems if operation == "BatchWriteItem" => split = true,
                Fault::UnprocessedItems => {}
                other => {
                    if let Some(answer) = refusal(&other, &operation, body) {
                        return answer;
                    }
                }
            }
        }
        if split {
            return half_batch(engine, target, body);
        }
        dispatch::run(engine, Origin::InProcess, target, body)
    }
}

/// The error answer of a refusing fault; `None` when it does not apply to the operation.
fn refusal(fault: &Fault, operation: &str, body: &[u8]) -> Option<Answer> {
    const DYNAMO: &str = "com.amazonaws.dynamodb.v20120810#";
    match fault {
        Fault::TransactionConflict if operation == "TransactWriteItems" => {
            let count = serde_json::from_slice::<Value>(body)
                .ok()
                .and_then(|v| v["TransactItems"].as_array().map(Vec::len))
                .unwrap_or(1);
            let reasons: Vec<Value> = (0..count)
                .map(|i| match i {
                    0 => json!({"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"}),
                    _ => json!({"Code": "None"}),
                })
                .collect();
            let body = json!({
                "__type": format!("{DYNAMO}TransactionCanceledException"),
                "message": "Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]",
                "CancellationReasons": reasons,
            });
            Some(Answer::error_json(400, body))
        }
        Fault::TransactionConflict => None,
        Fault::Throttle => Some(Answer::error(
            400,
            &format!("{DYNAMO}ProvisionedThroughputExceededException"),
            "The level of configured provisioned throughput for the table was exceeded (injected)",
        )),
        Fault::InternalError => Some(Answer::error(
            500,
            &format!("{DYNAMO}InternalServerError"),
            "Internal server error (injected)",
        )),
        Fault::UnprocessedItems | Fault::Latency(_) => None,
    }
}

/// Run the first half of each table's requests; answer the rest as `UnprocessedItems`.
fn half_batch(engine: &Engine, target: Option<&str>, body: &[u8]) -> Answer {
    let Ok(mut request) = serde_json::from_slice::<Value>(body) else {
        return dispatch::run(engine, Origin::InProcess, target, body);
    };
    let Some(tables) = request["RequestItems"].as_object_mut() else {
        return dispatch::run(engine, Origin::InProcess, target, body);
    };
    let mut unprocessed = Map::new();
    for (table, writes) in tables.iter_mut() {
        if let Some(list) = writes.as_array_mut() {
            let rest = list.split_off(list.len().div_ceil(2));
            if !rest.is_empty() {
                unprocessed.insert(table.clone(), Value::Array(rest));
            }
        }
    }
    tables.retain(|_, w| w.as_array().is_some_and(|l| !l.is_empty()));
    let mut answer = if tables.is_empty() {
        Answer::ok_json(json!({ "UnprocessedItems": {} }))
    } else {
        dispatch::run(
            engine,
            Origin::InProcess,
            target,
            request.to_string().as_bytes(),
        )
    };
    if answer.status == 200
        && let Ok(mut response) = serde_json::from_slice::<Value>(&answer.body)
    {
        response["UnprocessedItems"] = Value::Object(unprocessed);
        answer.body = response.to_string().into_bytes();
    }
    answer
}
