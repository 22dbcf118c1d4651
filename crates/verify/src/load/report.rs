//! The load report: per pattern and per entity write the target and achieved rates, latency
//! percentiles, throttles (after the SDK's retries, and the emulator's throttled attempts on
//! the partitions the stream touches) and its hottest partitions; judged against a margin and
//! rendered as a table or JSON.

use std::fmt::Write as _;

use monotable_connect::capacity::ResourceMetrics;
use serde::Serialize;

use crate::load::{Kind, Measured, Plan, Skipped, Stream, stats};

/// Hottest partitions shown per stream.
const HOT_PER_STREAM: usize = 3;

/// What the run was, for the report's header.
#[derive(Debug, Clone, Serialize)]
pub struct Meta {
    /// The model file.
    pub model: String,
    /// The table.
    pub table: String,
    /// The backend (`embedded (in memory)`, an endpoint, `AWS`).
    pub backend: String,
    /// The emulator's `--capacity-scale` when capacity was emulated; `None` otherwise.
    pub capacity_scale: Option<f64>,
    /// The factor every rate was multiplied by.
    pub scale: f64,
    /// The shortfall (a fraction of the target) a stream may have and still pass.
    pub margin: f64,
    /// Most requests in flight.
    pub concurrency: usize,
    /// The seed of the dataset, the parameters and the fresh items.
    pub seed: u64,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct LoadReport {
    /// What was run.
    #[serde(flatten)]
    pub meta: Meta,
    /// The window requests were issued in, seconds.
    pub duration_seconds: f64,
    /// Whether every stream reached its target within the margin.
    pub passed: bool,
    /// Each pattern's reads and each entity's writes.
    pub streams: Vec<StreamReport>,
    /// Rates in `[traffic]` not driven, and why.
    pub skipped: Vec<Skipped>,
    /// Each table and index as the emulator counted it (empty without the emulator).
    pub resources: Vec<ResourceMetrics>,
    /// The emulator's throttled attempts in each second (empty without the emulator).
    pub emulator_throttled_per_second: Vec<u64>,
    /// Requests still in flight after the drain, not counted anywhere.
    pub abandoned: u64,
}

/// Latency percentiles, milliseconds; `None` when nothing completed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Latency {
    /// Median.
    pub p50: Option<f64>,
    /// 99th percentile.
    pub p99: Option<f64>,
}

/// A partition a stream touched, from the emulator's hottest keys.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HotPartition {
    /// The index; `None` for the table.
    pub index: Option<String>,
    /// The partition key value.
    pub key: String,
    /// Units of the stream's kind (read or write) consumed there, per second of the run.
    pub units_per_second: f64,
    /// Attempts of the stream's kind throttled there.
    pub throttled: u64,
}

/// Per-second series.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Series {
    /// Successes completed in each second.
    pub ok: Vec<u64>,
    /// Requests throttled (after retries) in each second.
    pub throttled: Vec<u64>,
}

/// One stream's result.
#[derive(Debug, Clone, Serialize)]
pub struct StreamReport {
    /// The pattern or entity.
    pub name: String,
    /// `read` or `write`.
    pub kind: Kind,
    /// The DynamoDB operation of each request.
    pub operation: String,
    /// Requests per second asked for.
    pub target_per_second: f64,
    /// Successful requests per second of the window.
    pub achieved_per_second: f64,
    /// Requests the schedule called for.
    pub planned: u64,
    /// Requests started.
    pub issued: u64,
    /// Requests that succeeded.
    pub ok: u64,
    /// Requests that failed with throttling after the SDK's retries.
    pub throttled: u64,
    /// Requests that failed otherwise.
    pub failed: u64,
    /// Requests not started because the concurrency bound was reached.
    pub dropped: u64,
    /// Latency of completed requests.
    pub latency_ms: Latency,
    /// The emulator's throttled attempts (of the stream's kind) on the partitions the stream's
    /// key templates match; patterns that read the same partitions share them. `None` without
    /// the emulator.
    pub emulator_throttled_attempts: Option<u64>,
    /// The hottest of those partitions.
    pub hot_partitions: Vec<HotPartition>,
    /// The first failure that was not throttling.
    pub first_error: Option<String>,
    /// How far short of the target it fell, as a fraction (0 when it reached it).
    pub shortfall: f64,
    /// Whether the shortfall is within the margin.
    pub passed: bool,
    /// Per-second successes and throttles.
    pub per_second: Series,
}

impl LoadReport {
    /// Judges `measured` against `plan`'s targets, attributing the emulator's hot keys
    /// (`resources`, empty without it) to the streams whose partition templates they match.
    pub fn build(
        meta: Meta,
        plan: &Plan,
        measured: &Measured,
        resources: Vec<ResourceMetrics>,
        emulator_throttled_per_second: Vec<u64>,
    ) -> LoadReport {
        let secs = measured.duration.as_secs_f64().max(1e-9);
        let streams: Vec<StreamReport> = plan
            .streams
            .iter()
            .zip(&measured.streams)
            .map(|(stream, m)| {
                let c = &m.counts;
                let achieved = c.ok as f64 / secs;
                let shortfall = if stream.target > 0.0 {
                    (1.0 - achieved / stream.target).max(0.0)
                } else {
                    0.0
                };
                let (throttled_attempts, hot) = attribute(stream, &resources, secs);
                StreamReport {
                    name: stream.name.clone(),
                    kind: stream.kind,
                    operation: stream.operation.to_string(),
                    target_per_second: stream.target,
                    achieved_per_second: achieved,
                    planned: m.planned,
                    issued: m.issued,
                    ok: c.ok,
                    throttled: c.throttled,
                    failed: c.failed,
                    dropped: m.dropped,
                    latency_ms: latency(&c.latencies_us),
                    emulator_throttled_attempts: (!resources.is_empty())
                        .then_some(throttled_attempts),
                    hot_partitions: hot,
                    first_error: c.first_error.clone(),
                    shortfall,
                    passed: shortfall <= meta.margin + 1e-9,
                    per_second: Series {
                        ok: c.ok_per_second.clone(),
                        throttled: c.throttled_per_second.clone(),
                    },
                }
            })
            .collect();
        LoadReport {
            duration_seconds: secs,
            passed: streams.iter().all(|s| s.passed),
            meta,
            streams,
            skipped: plan.skipped.clone(),
            resources,
            emulator_throttled_per_second,
            abandoned: measured.abandoned,
        }
    }

    /// The streams that fell short by more than the margin.
    pub fn short(&self) -> Vec<&StreamReport> {
        self.streams.iter().filter(|s| !s.passed).collect()
    }

    /// Pretty JSON, ending with a newline.
    pub fn render_json(&self) -> String {
        let mut out = serde_json::to_string_pretty(self).unwrap_or_default();
        out.push('\n');
        out
    }

    /// A table for people: a header, one line per stream, the skipped rates, the tables and
    /// indexes as the emulator counted them, and the verdict.
    pub fn render_human(&self) -> String {
        let m = &self.meta;
        let mut out = String::new();
        let emulated = match m.capacity_scale {
            Some(s) if s != 1.0 => format!(", capacity emulated with limits divided by {s}"),
            Some(_) => ", capacity emulated".to_string(),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "monotable load: {} (table {}) on {}{emulated}: {} s at {}x the model's traffic\n",
            m.model,
            m.table,
            m.backend,
            trim(self.duration_seconds),
            trim(m.scale)
        );
        let width = self
            .streams
            .iter()
            .map(|s| s.name.len())
            .max()
            .unwrap_or(4)
            .max(4);
        let _ = writeln!(
            out,
            "       {:<width$}  {:>9}  {:>10}  {:>7}  {:>7}  {:>9}  {:>9}  hottest partition",
            "name", "target/s", "achieved/s", "p50 ms", "p99 ms", "throttled", "emulator"
        );
        for s in &self.streams {
            let kind = match s.kind {
                Kind::Read => "read ",
                Kind::Write => "write",
            };
            let emu = s
                .emulator_throttled_attempts
                .map_or_else(|| "-".to_string(), |n| n.to_string());
            let hot = s.hot_partitions.first().map_or_else(String::new, |h| {
                format!(
                    "{}{} ({:.1} {}/s{})",
                    h.index
                        .as_deref()
                        .map_or(String::new(), |i| format!("{i}: ")),
                    h.key,
                    h.units_per_second,
                    if s.kind == Kind::Read { "RCU" } else { "WCU" },
                    if h.throttled > 0 {
                        format!(", {} throttled", h.throttled)
                    } else {
                        String::new()
                    }
                )
            });
            let _ = writeln!(
                out,
                "{} {kind} {:<width$}  {:>9.1}  {:>10.1}  {:>7}  {:>7}  {:>9}  {:>9}  {hot}",
                if s.passed { " " } else { "!" },
                s.name,
                s.target_per_second,
                s.achieved_per_second,
                ms(s.latency_ms.p50),
                ms(s.latency_ms.p99),
                s.throttled,
                emu,
            );
            if let Some(e) = &s.first_error {
                let _ = writeln!(out, "        {} failed, first: {e}", s.failed);
            }
            if s.dropped > 0 {
                let _ = writeln!(
                    out,
                    "        {} not sent: {} requests were already in flight",
                    s.dropped, m.concurrency
                );
            }
        }
        for s in &self.skipped {
            let _ = writeln!(out, "  skipped {}: {}", s.name, s.reason);
        }
        if !self.resources.is_empty() {
            let _ = writeln!(out, "\nas the capacity emulator counted it:");
            for r in &self.resources {
                let name = match &r.index {
                    Some(i) => format!("{} index {i}", r.table),
                    None => format!("{} table", r.table),
                };
                let _ = writeln!(
                    out,
                    "  {name}: {:.1} RCU/s, {:.1} WCU/s, {} reads and {} writes throttled",
                    r.read_units / self.duration_seconds,
                    r.write_units / self.duration_seconds,
                    r.throttled_reads,
                    r.throttled_writes
                );
            }
        }
        let short = self.short();
        let margin = trim(m.margin * 100.0);
        let dropped: u64 = self.streams.iter().map(|s| s.dropped).sum();
        if dropped > 0 {
            let _ = writeln!(
                out,
                "\nnote: {dropped} requests were not sent because {} were already in flight: the \
                 backend answered too slowly, or this machine could not keep up (a release \
                 build, a larger --concurrency or a smaller --scale tell which)",
                m.concurrency
            );
        }
        if short.is_empty() {
            let _ = writeln!(
                out,
                "\nok: every pattern and entity reached its target (within {margin} %)"
            );
        } else {
            let names: Vec<String> = short
                .iter()
                .map(|s| format!("{} ({:.0} % short)", s.name, s.shortfall * 100.0))
                .collect();
            let _ = writeln!(
                out,
                "\nFAILED: {} of {} fell short of the target by more than {margin} %: {}",
                short.len(),
                self.streams.len(),
                names.join(", ")
            );
        }
        out
    }
}

fn ms(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.2}"))
}

/// A number without a trailing `.0`.
fn trim(value: f64) -> String {
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn latency(latencies_us: &[u64]) -> Latency {
    if latencies_us.is_empty() {
        return Latency::default();
    }
    let mut sorted = latencies_us.to_vec();
    sorted.sort_unstable();
    let at = |p: f64| Some(stats::nearest_rank(&sorted, p) as f64 / 1000.0);
    Latency {
        p50: at(50.0),
        p99: at(99.0),
    }
}

/// The emulator's throttled attempts on the partitions `stream` touches, and the hottest of
/// them: every hot key of a table or index the stream reads (or writes) whose value its
/// partition key template matches.
fn attribute(
    stream: &Stream,
    resources: &[ResourceMetrics],
    secs: f64,
) -> (u64, Vec<HotPartition>) {
    let mut total = 0;
    let mut hot: Vec<HotPartition> = Vec::new();
    for p in &stream.partitions {
        for r in resources.iter().filter(|r| r.index == p.index) {
            for k in &r.hot_keys {
                // `load` reads its own emulator's snapshot, which names every key.
                let Some(key) = k.key.as_deref() else {
                    continue;
                };
                if p.template.extract(key).is_none() {
                    continue;
                }
                let (units, throttled) = match stream.kind {
                    Kind::Read => (k.read_units, k.throttled_reads),
                    Kind::Write => (k.write_units, k.throttled_writes),
                };
                if units <= 0.0 && throttled == 0 {
                    continue;
                }
                total += throttled;
                hot.push(HotPartition {
                    index: p.index.clone(),
                    key: key.to_string(),
                    units_per_second: units / secs,
                    throttled,
                });
            }
        }
    }
    hot.sort_by(|a, b| {
        b.throttled
            .cmp(&a.throttled)
            .then(b.units_per_second.total_cmp(&a.units_per_second))
            .then(a.key.cmp(&b.key))
    });
    hot.truncate(HOT_PER_STREAM);
    (total, hot)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::load::{Partitions, StreamMeasured};
    use monotable_connect::capacity::KeyMetrics;
    use std::time::Duration;

    fn template(text: &str) -> monotable_model::KeyTemplate {
        monotable_model::KeyTemplate::parse(text).unwrap()
    }

    pub(crate) fn sample() -> (Plan, Measured, Vec<ResourceMetrics>) {
        let plan = Plan {
            streams: vec![
                Stream {
                    name: "getUser".into(),
                    kind: Kind::Read,
                    operation: "GetItem",
                    target: 100.0,
                    partitions: vec![Partitions {
                        index: None,
                        template: template("USER#{userId}"),
                    }],
                },
                Stream {
                    name: "Order".into(),
                    kind: Kind::Write,
                    operation: "PutItem",
                    target: 50.0,
                    partitions: vec![Partitions {
                        index: Some("GSI1".into()),
                        template: template("DAY#{day}"),
                    }],
                },
            ],
            skipped: vec![Skipped {
                name: "registerUser".into(),
                reason: "a TransactWrite pattern".into(),
            }],
        };
        let counts = |ok: u64, throttled: u64, lat: &[u64]| stats::LoadCounts {
            ok,
            throttled,
            latencies_us: lat.to_vec(),
            ok_per_second: vec![ok / 2, ok - ok / 2],
            throttled_per_second: vec![0, throttled],
            ..Default::default()
        };
        let measured = Measured {
            duration: Duration::from_secs(2),
            streams: vec![
                StreamMeasured {
                    planned: 200,
                    issued: 200,
                    dropped: 0,
                    counts: counts(196, 4, &[100, 200, 300, 400]),
                },
                StreamMeasured {
                    planned: 100,
                    issued: 100,
                    dropped: 0,
                    counts: counts(60, 40, &[1000, 5000]),
                },
            ],
            abandoned: 0,
            probe_per_second: vec![3, 90],
        };
        let resources = vec![
            ResourceMetrics {
                table: "Shop".into(),
                index: None,
                read_units: 98.0,
                read_requests: 196,
                throttled_reads: 2,
                hot_keys: vec![KeyMetrics {
                    key: Some("USER#u1".into()),
                    read_units: 60.0,
                    throttled_reads: 2,
                    ..Default::default()
                }],
                ..Default::default()
            },
            ResourceMetrics {
                table: "Shop".into(),
                index: Some("GSI1".into()),
                write_units: 60.0,
                write_requests: 60,
                throttled_writes: 91,
                hot_keys: vec![
                    KeyMetrics {
                        key: Some("DAY#2026-01-01".into()),
                        write_units: 60.0,
                        throttled_writes: 91,
                        ..Default::default()
                    },
                    KeyMetrics {
                        key: Some("USER#u1".into()),
                        write_units: 7.0,
                        ..Default::default()
                    },
                ],
                ..Default::default()
            },
        ];
        (plan, measured, resources)
    }

    pub(crate) fn meta() -> Meta {
        Meta {
            model: "shop.toml".into(),
            table: "Shop".into(),
            backend: "embedded (in memory)".into(),
            capacity_scale: Some(100.0),
            scale: 1.0,
            margin: 0.1,
            concurrency: 256,
            seed: 1,
        }
    }

    #[test]
    fn streams_are_judged_against_the_margin_and_given_their_partitions() {
        let (plan, measured, resources) = sample();
        let report = LoadReport::build(meta(), &plan, &measured, resources, vec![3, 90]);
        let get = &report.streams[0];
        assert_eq!(get.achieved_per_second, 98.0);
        assert!(get.passed);
        assert_eq!(get.latency_ms.p50, Some(0.2));
        assert_eq!(get.latency_ms.p99, Some(0.4));
        assert_eq!(get.emulator_throttled_attempts, Some(2));
        assert_eq!(get.hot_partitions[0].key, "USER#u1");
        let order = &report.streams[1];
        assert_eq!(order.achieved_per_second, 30.0);
        assert!(!order.passed);
        assert!((order.shortfall - 0.4).abs() < 1e-9);
        // USER#u1 on GSI1 does not follow DAY#{day}: not the Order stream's.
        assert_eq!(order.hot_partitions.len(), 1);
        assert_eq!(order.emulator_throttled_attempts, Some(91));
        assert!(!report.passed);
        let human = report.render_human();
        assert!(human.contains("FAILED: 1 of 2 fell short"), "{human}");
        assert!(human.contains("Order (40 % short)"), "{human}");
        let json: serde_json::Value = serde_json::from_str(&report.render_json()).unwrap();
        assert_eq!(json["streams"][1]["kind"], "write");
        assert_eq!(json["capacity_scale"], 100.0);
    }

    #[test]
    fn without_the_emulator_there_is_no_attribution() {
        let (plan, measured, _) = sample();
        let mut meta = meta();
        meta.capacity_scale = None;
        meta.margin = 0.5;
        let report = LoadReport::build(meta, &plan, &measured, Vec::new(), Vec::new());
        assert!(report.passed);
        assert_eq!(report.streams[0].emulator_throttled_attempts, None);
        assert!(report.streams[0].hot_partitions.is_empty());
        assert!(
            report
                .render_human()
                .contains("ok: every pattern and entity")
        );
    }
}
