//! Load testing a design (`monotable load`): the model's `[traffic]` as streams of requests
//! ([`plan`]), verify's generated dataset loaded first ([`prepare`]), then every stream driven
//! at its rate, open loop, for a while ([`run`]); [`report`] judges and renders the result and
//! [`plot`] draws it. Nothing here knows which backend answers: the caller passes an SDK client,
//! and what the capacity emulator measured, as plain data.
//!
//! [`samples`] (verify's own loader) writes a dataset into a table.

pub mod plot;
pub mod report;
mod requests;
mod samples;
pub mod schedule;
pub mod stats;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use monotable_access::Table;
use monotable_model::{KeyTemplate, KeyTest, Model, Operation};
use tokio::time::Instant;

use crate::VerifyError;
use crate::generate::Dataset;
use crate::keys::Values;

pub use requests::{PAD_ATTRIBUTE, item_size};
pub(crate) use samples::load;

/// A load run could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The model states no traffic to drive.
    #[error("the model has no [traffic] section: nothing to drive (see docs/load.md)")]
    NoTraffic,
    /// Every stated rate is zero, or belongs to a pattern `load` does not run.
    #[error("the model's [traffic] leaves nothing to drive: {0}")]
    NothingToDrive(String),
    /// The table could not be created or loaded.
    #[error(transparent)]
    Verify(#[from] VerifyError),
}

/// Reads of a pattern, or writes of an entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A read pattern (GetItem or the first page of a Query).
    Read,
    /// PutItems of fresh items of an entity.
    Write,
}

/// A partition key a stream's requests touch: the table's (`index: None`) or an index's, and
/// the template its values follow.
#[derive(Debug, Clone)]
pub struct Partitions {
    /// The index; `None` for the table.
    pub index: Option<String>,
    /// The partition key's template.
    pub template: KeyTemplate,
}

/// One stream of requests: a pattern's reads or an entity's writes at a rate.
#[derive(Debug, Clone)]
pub struct Stream {
    /// The pattern or entity.
    pub name: String,
    /// Reads or writes.
    pub kind: Kind,
    /// The DynamoDB operation each request is.
    pub operation: &'static str,
    /// Requests per second: the model's rate times the scale.
    pub target: f64,
    /// The partitions it touches (a write: the table's and every index's the entity writes).
    pub partitions: Vec<Partitions>,
}

/// A rate in `[traffic]` that is not driven, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    /// The pattern or entity.
    pub name: String,
    /// Why.
    pub reason: String,
}

/// What a run drives.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The streams: read patterns in model order, then entity writes.
    pub streams: Vec<Stream>,
    /// Rates not driven.
    pub skipped: Vec<Skipped>,
}

/// The streams of `model`'s `[traffic]`, every rate multiplied by `scale`: each read pattern at
/// its `reads_per_second`, each entity with a stated `writes_per_second` written at it (a
/// PutItem of a new item). A write pattern with its own `writes_per_second` is skipped, said so:
/// the entity rates are the writes; so are Scan and BatchGet patterns.
pub fn plan(model: &Model, scale: f64) -> Result<Plan, LoadError> {
    let traffic = &model.traffic;
    if !traffic.declared {
        return Err(LoadError::NoTraffic);
    }
    let mut streams = Vec::new();
    let mut skipped = Vec::new();
    let mut skip = |name: &str, reason: String| {
        skipped.push(Skipped {
            name: name.to_string(),
            reason,
        })
    };
    for pattern in &model.patterns {
        let Some(rate) = traffic.patterns.get(&pattern.name).and_then(|t| {
            if pattern.is_read() {
                t.reads_per_second
            } else {
                t.writes_per_second
            }
        }) else {
            continue;
        };
        let operation = match pattern.operation {
            Operation::GetItem => "GetItem",
            Operation::Query => "Query",
            Operation::PutItem
            | Operation::UpdateItem
            | Operation::DeleteItem
            | Operation::TransactWrite
            | Operation::ConditionCheck
            | Operation::BatchWrite => {
                let op = format!("{:?}", pattern.operation);
                let article = if op.starts_with('U') { "an" } else { "a" };
                skip(
                    &pattern.name,
                    format!(
                        "{article} {op} pattern: not driven yet (its condition and actions are not sent); the entities' writes_per_second drive the writes"
                    ),
                );
                continue;
            }
            Operation::Scan | Operation::BatchGet => {
                skip(
                    &pattern.name,
                    format!("{:?} patterns are not driven", pattern.operation),
                );
                continue;
            }
        };
        let target = rate * scale;
        if target <= 0.0 {
            skip(&pattern.name, "a rate of 0".to_string());
            continue;
        }
        let partitions = pattern
            .pk
            .iter()
            .filter_map(|k| match &k.condition {
                KeyTest::Eq(t) => Some(Partitions {
                    index: pattern.index_name().map(str::to_string),
                    template: t.clone(),
                }),
                _ => None,
            })
            .collect();
        streams.push(Stream {
            name: pattern.name.clone(),
            kind: Kind::Read,
            operation,
            target,
            partitions,
        });
    }
    for entity in &model.entities {
        let (rate, stated) = traffic.writes_per_second(&entity.name);
        if !stated {
            continue;
        }
        let target = rate * scale;
        if target <= 0.0 {
            skip(&entity.name, "a rate of 0".to_string());
            continue;
        }
        streams.push(Stream {
            name: entity.name.clone(),
            kind: Kind::Write,
            operation: "PutItem",
            target,
            partitions: entity
                .index_keys
                .iter()
                .map(|k| Partitions {
                    index: k.index.clone(),
                    template: k.pk.template.clone(),
                })
                .collect(),
        });
    }
    if streams.is_empty() {
        let why = if skipped.is_empty() {
            "no pattern has reads_per_second and no entity writes_per_second".to_string()
        } else {
            skipped
                .iter()
                .map(|s| format!("{}: {}", s.name, s.reason))
                .collect::<Vec<_>>()
                .join("; ")
        };
        return Err(LoadError::NothingToDrive(why));
    }
    Ok(Plan { streams, skipped })
}

/// The dataset in the table and each read stream's parameter sets.
#[derive(Debug, Clone)]
pub struct Workload {
    /// The items loaded (padded to the model's item sizes).
    pub data: Dataset,
    /// Per stream of the plan: the parameter sets its requests draw from (empty for writes).
    parameters: Vec<Arc<Vec<Values>>>,
}

/// Generates verify's dataset from `seed`, pads each item to its entity's `item_size_bytes`,
/// creates the model's table when missing, loads the items through `client` and picks each read
/// pattern's parameters from the whole dataset.
pub async fn prepare(
    model: &Model,
    client: &Client,
    plan: &Plan,
    seed: u64,
) -> Result<Workload, LoadError> {
    let mut data = crate::generate::generate(model, seed);
    requests::pad_samples(model, &mut data.samples);
    monotable_access::table::ensure_table(client, model)
        .await
        .map_err(VerifyError::from)?;
    let table = Table::new(client.clone(), &model.table.name);
    load(&table, model, &data.samples).await?;
    let index = crate::sample_index::SampleIndex::new(model, &data.samples);
    let parameters = plan
        .streams
        .iter()
        .map(|s| {
            Arc::new(match (s.kind, model.pattern(&s.name)) {
                (Kind::Read, Some(p)) => requests::read_parameters(model, p, &index, seed),
                _ => Vec::new(),
            })
        })
        .collect();
    drop(index);
    Ok(Workload { data, parameters })
}

/// How a run goes.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// How long requests are issued.
    pub duration: Duration,
    /// Most requests in flight at once.
    pub concurrency: usize,
    /// Seeds the parameter draws and the fresh items.
    pub seed: u64,
    /// How long requests still in flight at the end are waited for.
    pub drain: Duration,
    /// How often progress is reported.
    pub tick: Duration,
}

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions {
            duration: Duration::from_secs(30),
            concurrency: 256,
            seed: crate::DEFAULT_SEED,
            drain: Duration::from_secs(10),
            tick: Duration::from_millis(250),
        }
    }
}

/// A count the backend keeps that the run samples each second: the capacity emulator's
/// throttled attempts so far, say.
pub type Probe = Arc<dyn Fn() -> u64 + Send + Sync>;

/// What a run calls with every stream's progress, every tick.
pub type OnProgress = Box<dyn Fn(&[LoadProgress]) + Send + Sync>;

/// One stream's progress during a run.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadProgress {
    /// The stream.
    pub name: String,
    /// Its target rate.
    pub target: f64,
    /// Successes so far.
    pub ok: u64,
    /// Throttled requests so far.
    pub throttled: u64,
    /// Successes per second so far.
    pub achieved: f64,
}

/// What a run measured.
#[derive(Debug, Clone)]
pub struct Measured {
    /// The window requests were issued in.
    pub duration: Duration,
    /// Per stream of the plan.
    pub streams: Vec<StreamMeasured>,
    /// Requests still in flight after the drain, not counted.
    pub abandoned: u64,
    /// The probe's increase in each second of the run (empty without a probe).
    pub probe_per_second: Vec<u64>,
}

/// What a run measured of one stream.
#[derive(Debug, Clone)]
pub struct StreamMeasured {
    /// Requests the schedule called for.
    pub planned: u64,
    /// Requests started.
    pub issued: u64,
    /// Requests not started: too many in flight.
    pub dropped: u64,
    /// How they ended.
    pub counts: stats::LoadCounts,
}

/// Drives every stream of `plan` at its target for `options.duration`, on the current tokio
/// runtime: read streams draw their parameters from `work`, write streams put fresh generated
/// items. `on_progress` is called every `options.tick` with each stream's progress; `probe`, if
/// any, is sampled every second.
pub async fn run(
    model: Arc<Model>,
    client: Client,
    plan: &Plan,
    work: &Workload,
    options: &LoadOptions,
    probe: Option<Probe>,
    on_progress: OnProgress,
) -> Measured {
    let recorders: Arc<Vec<stats::Recorder>> = Arc::new(
        plan.streams
            .iter()
            .map(|_| stats::Recorder::default())
            .collect(),
    );
    let rates: Vec<f64> = plan.streams.iter().map(|s| s.target).collect();
    let schedule = schedule::Schedule::new(&rates, options.duration);
    let planned: Vec<u64> = (0..rates.len()).map(|i| schedule.planned(i)).collect();
    let start = Instant::now();
    let done = Arc::new(AtomicBool::new(false));
    let ticker = tokio::spawn(ticker(
        plan.streams
            .iter()
            .map(|s| (s.name.clone(), s.target))
            .collect(),
        Arc::clone(&recorders),
        start,
        options.tick,
        probe,
        Arc::clone(&done),
        on_progress,
    ));
    let table = Table::new(client.clone(), model.table.name.clone());
    let mut rng = fastrand::Rng::with_seed(options.seed ^ 0x10ad_10ad);
    let mut fresh = requests::Fresh::new(&model, options.seed);
    let streams = plan.streams.clone();
    let parameters = work.parameters.clone();
    let issue = |i: usize, _n: u64| {
        let recorders = Arc::clone(&recorders);
        let stream = &streams[i];
        let model = Arc::clone(&model);
        let table = table.clone();
        let (values, item) = match stream.kind {
            Kind::Read => {
                let sets = &parameters[i];
                let values = (!sets.is_empty()).then(|| sets[rng.usize(0..sets.len())].clone());
                (values, None)
            }
            Kind::Write => (None, fresh.next(&model, &stream.name)),
        };
        let name = stream.name.clone();
        let kind = stream.kind;
        // Latency counts from the due time, so time spent waiting for a worker counts too.
        let began = Instant::now();
        async move {
            let outcome = match (kind, values, item) {
                (Kind::Read, Some(values), _) => {
                    requests::read(&table, &model, &name, &values).await
                }
                (Kind::Write, _, Some(item)) => {
                    requests::write(&table, item, format!("a fresh {name}")).await
                }
                _ => stats::LoadOutcome::Failed(format!("no request could be made for {name}")),
            };
            let now = Instant::now();
            recorders[i].record(outcome, now - began, now - start);
        }
    };
    let driven = schedule::drive(schedule, start, options.concurrency, options.drain, issue).await;
    done.store(true, Ordering::Relaxed);
    let probe_per_second = ticker.await.unwrap_or_default();
    Measured {
        duration: options.duration,
        streams: (0..plan.streams.len())
            .map(|i| StreamMeasured {
                planned: planned[i],
                issued: driven.issued[i],
                dropped: driven.dropped[i],
                counts: recorders[i].counts(),
            })
            .collect(),
        abandoned: driven.abandoned,
        probe_per_second,
    }
}

/// Reports progress every `tick` until `done`, and samples `probe` at each whole second; returns
/// the probe's increase per second.
async fn ticker(
    streams: Vec<(String, f64)>,
    recorders: Arc<Vec<stats::Recorder>>,
    start: Instant,
    tick: Duration,
    probe: Option<Probe>,
    done: Arc<AtomicBool>,
    on_progress: OnProgress,
) -> Vec<u64> {
    let tick = tick.max(Duration::from_millis(10));
    let mut per_second = Vec::new();
    let mut last = probe.as_ref().map_or(0, |p| p());
    let mut next_second = Duration::from_secs(1);
    let mut n: u32 = 0;
    loop {
        n += 1;
        tokio::time::sleep_until(start + tick * n).await;
        let elapsed = start.elapsed();
        let finished = done.load(Ordering::Relaxed);
        if let Some(p) = &probe
            && (elapsed >= next_second || finished)
        {
            let now = p();
            per_second.push(now.saturating_sub(last));
            last = now;
            next_second += Duration::from_secs(1);
        }
        let secs = elapsed.as_secs_f64().max(1e-3);
        let progress: Vec<LoadProgress> = streams
            .iter()
            .zip(recorders.iter())
            .map(|((name, target), r)| {
                let (ok, throttled) = r.progress();
                LoadProgress {
                    name: name.clone(),
                    target: *target,
                    ok,
                    throttled,
                    achieved: ok as f64 / secs,
                }
            })
            .collect();
        on_progress(&progress);
        if finished {
            return per_second;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");

    #[test]
    fn the_shop_plan_reads_its_patterns_and_writes_its_entities() {
        let model = monotable_model::parse(SHOP).unwrap();
        let plan = plan(&model, 2.0).unwrap();
        let get_user = plan.streams.iter().find(|s| s.name == "getUser").unwrap();
        assert_eq!((get_user.kind, get_user.target), (Kind::Read, 1000.0));
        let order = plan.streams.iter().find(|s| s.name == "Order").unwrap();
        assert_eq!((order.kind, order.target), (Kind::Write, 200.0));
        let indexes: Vec<Option<&str>> = order
            .partitions
            .iter()
            .map(|p| p.index.as_deref())
            .collect();
        assert_eq!(
            indexes,
            vec![None, Some("GSI1"), Some("GSI2"), Some("GSI3")]
        );
        assert_eq!(plan.streams.len(), 12 + 8);
        assert!(plan.skipped.is_empty(), "{:?}", plan.skipped);
    }

    #[test]
    fn write_patterns_are_skipped_and_no_traffic_is_an_error() {
        let source = SHOP.replace(
            "[traffic.patterns]",
            "[traffic.patterns]\nregisterUser = { writes_per_second = 5 }\ntakeStock = { writes_per_second = 50 }",
        );
        let model = monotable_model::parse(&source).unwrap();
        let plan = plan(&model, 1.0).unwrap();
        let skipped: Vec<(&str, &str)> = plan
            .skipped
            .iter()
            .map(|s| (s.name.as_str(), s.reason.as_str()))
            .collect();
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert!(
            skipped[0].0 == "registerUser"
                && skipped[0]
                    .1
                    .starts_with("a TransactWrite pattern: not driven yet")
        );
        assert!(skipped[1].0 == "takeStock" && skipped[1].1.starts_with("an UpdateItem pattern"));
        let bare = SHOP.split("[traffic]").next().unwrap();
        let model = monotable_model::parse(bare).unwrap();
        assert!(matches!(
            super::plan(&model, 1.0),
            Err(LoadError::NoTraffic)
        ));
    }
}
