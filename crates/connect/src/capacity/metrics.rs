//! What the emulator counts: consumed capacity units, requests and throttles per table, per
//! index and per partition key, and the snapshot it reports them in (JSON, or Prometheus text
//! with the hottest keys as CloudWatch Contributor Insights lists them).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt::Write;

use serde::Serialize;

/// Reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// Read capacity.
    Read,
    /// Write capacity.
    Write,
}

impl Op {
    /// `"read"` or `"write"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Read => "read",
            Op::Write => "write",
        }
    }
}

/// Partition keys whose counters one table or index keeps (see [`ResourceMeter::key`]).
pub const MAX_KEYS: usize = 250_000;

/// Counters of one table, index or partition key.
#[derive(Debug, Clone, Default)]
pub struct Meter {
    read_units: f64,
    write_units: f64,
    read_requests: u64,
    write_requests: u64,
    throttled_reads: u64,
    throttled_writes: u64,
}

impl Meter {
    /// A request that consumed `units`.
    pub fn served(&mut self, op: Op, units: f64) {
        match op {
            Op::Read => {
                self.read_units += units;
                self.read_requests += 1;
            }
            Op::Write => {
                self.write_units += units;
                self.write_requests += 1;
            }
        }
    }

    /// A request refused for throughput.
    pub fn throttled(&mut self, op: Op) {
        match op {
            Op::Read => self.throttled_reads += 1,
            Op::Write => self.throttled_writes += 1,
        }
    }

    fn units(&self) -> f64 {
        self.read_units + self.write_units
    }

    fn throttles(&self) -> u64 {
        self.throttled_reads + self.throttled_writes
    }

    fn key_metrics(&self, key: &str, key_id: String) -> KeyMetrics {
        KeyMetrics {
            key: Some(key.to_string()),
            key_id,
            read_units: self.read_units,
            write_units: self.write_units,
            throttled_reads: self.throttled_reads,
            throttled_writes: self.throttled_writes,
        }
    }
}

/// The counters of one table or index and of its partition keys.
#[derive(Debug, Clone, Default)]
pub struct ResourceMeter {
    /// The whole table or index.
    pub total: Meter,
    /// Each partition key value seen.
    pub keys: HashMap<String, Meter>,
}

impl ResourceMeter {
    /// The counters of partition key `key`. At [`MAX_KEYS`] keys, every key used no more than
    /// the median key is dropped first (at least half of them): memory stays bounded, while the
    /// hottest keys and the totals stay exact.
    pub fn key(&mut self, key: &str) -> &mut Meter {
        if !self.keys.contains_key(key) {
            if self.keys.len() >= MAX_KEYS {
                self.drop_coldest_half();
            }
            self.keys.insert(key.to_string(), Meter::default());
        }
        self.keys.get_mut(key).expect("just inserted")
    }

    fn drop_coldest_half(&mut self) {
        let mut heat: Vec<(f64, u64)> = self
            .keys
            .values()
            .map(|m| (m.units(), m.throttles()))
            .collect();
        heat.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let (units, throttles) = heat[heat.len() / 2];
        self.keys
            .retain(|_, m| (m.units(), m.throttles()) > (units, throttles));
    }

    /// This resource's figures, with the `top` hottest keys, each named by its value and by
    /// `pseudonym(value)`.
    pub fn metrics(
        &self,
        table: &str,
        index: Option<&str>,
        top: usize,
        pseudonym: &dyn Fn(&str) -> String,
    ) -> ResourceMetrics {
        let total = &self.total;
        let ranked = |order: fn(&Meter, &Meter) -> Ordering, keep: fn(&Meter) -> bool| {
            let mut keys: Vec<(&String, &Meter)> =
                self.keys.iter().filter(|(_, m)| keep(m)).collect();
            keys.sort_by(|a, b| order(a.1, b.1).then_with(|| a.0.cmp(b.0)));
            keys.into_iter()
                .take(top)
                .map(|(k, m)| m.key_metrics(k, pseudonym(k)))
                .collect()
        };
        ResourceMetrics {
            table: table.to_string(),
            index: index.map(str::to_string),
            read_units: total.read_units,
            write_units: total.write_units,
            read_requests: total.read_requests,
            write_requests: total.write_requests,
            throttled_reads: total.throttled_reads,
            throttled_writes: total.throttled_writes,
            hot_keys: ranked(|a, b| b.units().total_cmp(&a.units()), |_| true),
            throttled_keys: ranked(
                |a, b| b.throttles().cmp(&a.throttles()),
                |m| m.throttles() > 0,
            ),
        }
    }
}

/// Everything counted since the emulator started.
#[derive(Debug, Clone, Serialize)]
pub struct Snapshot {
    /// Seconds on the emulator's clock since it started.
    pub elapsed_seconds: f64,
    /// Each table and index that saw a request, table first, by name.
    pub resources: Vec<ResourceMetrics>,
}

/// The figures of one table or index.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ResourceMetrics {
    /// The table.
    pub table: String,
    /// The index; `None` for the table itself.
    pub index: Option<String>,
    /// Read capacity units consumed.
    pub read_units: f64,
    /// Write capacity units consumed.
    pub write_units: f64,
    /// Reads served.
    pub read_requests: u64,
    /// Writes served.
    pub write_requests: u64,
    /// Reads refused for throughput.
    pub throttled_reads: u64,
    /// Writes refused for throughput.
    pub throttled_writes: u64,
    /// The most accessed partition keys, by units consumed.
    pub hot_keys: Vec<KeyMetrics>,
    /// The most throttled partition keys.
    pub throttled_keys: Vec<KeyMetrics>,
}

/// The figures of one partition key.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct KeyMetrics {
    /// The partition key value; `None` in a snapshot without key values
    /// ([`Snapshot::without_key_values`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// A pseudonym of the key: the same for the same key while the emulator lives, and telling
    /// nothing of the value to whoever lacks the emulator's secret (see
    /// [`super::Emulator::pseudonym`]).
    pub key_id: String,
    /// Read capacity units consumed.
    pub read_units: f64,
    /// Write capacity units consumed.
    pub write_units: f64,
    /// Reads refused for throughput.
    pub throttled_reads: u64,
    /// Writes refused for throughput.
    pub throttled_writes: u64,
}

impl Snapshot {
    /// The same figures with every partition key named by its pseudonym only: what may be shown
    /// to whoever may not read the table.
    pub fn without_key_values(mut self) -> Snapshot {
        for r in &mut self.resources {
            for k in r.hot_keys.iter_mut().chain(r.throttled_keys.iter_mut()) {
                k.key = None;
            }
        }
        self
    }

    /// The figures in Prometheus' text exposition format (version 0.0.4).
    pub fn prometheus(&self) -> String {
        let mut out = String::new();
        let families: [(&str, &str, Family); 3] = [
            (
                "monotable_consumed_capacity_units_total",
                "Capacity units consumed, as DynamoDB counts them.",
                |r| [("read", r.read_units), ("write", r.write_units)],
            ),
            ("monotable_requests_total", "Requests served.", |r| {
                [
                    ("read", count(r.read_requests)),
                    ("write", count(r.write_requests)),
                ]
            }),
            (
                "monotable_throttled_requests_total",
                "Requests refused for throughput.",
                |r| {
                    [
                        ("read", count(r.throttled_reads)),
                        ("write", count(r.throttled_writes)),
                    ]
                },
            ),
        ];
        for (name, help, values) in families {
            header(&mut out, name, help);
            for r in &self.resources {
                for (op, value) in values(r) {
                    let labels = labels(r, None, op);
                    let _ = writeln!(out, "{name}{{{labels}}} {value}");
                }
            }
        }
        self.key_families(&mut out);
        out
    }

    fn key_families(&self, out: &mut String) {
        let name = "monotable_partition_consumed_capacity_units_total";
        header(
            out,
            name,
            "Capacity units consumed by the hottest partition keys.",
        );
        for r in &self.resources {
            for k in &r.hot_keys {
                for (op, v) in [("read", k.read_units), ("write", k.write_units)] {
                    let _ = writeln!(out, "{name}{{{}}} {v}", labels(r, Some(k), op));
                }
            }
        }
        let name = "monotable_partition_throttled_requests_total";
        header(
            out,
            name,
            "Requests refused for throughput on the most throttled partition keys.",
        );
        for r in &self.resources {
            for k in &r.throttled_keys {
                for (op, v) in [("read", k.throttled_reads), ("write", k.throttled_writes)] {
                    let _ = writeln!(out, "{name}{{{}}} {v}", labels(r, Some(k), op));
                }
            }
        }
    }
}

/// A metric family's read and write samples of one resource.
type Family = fn(&ResourceMetrics) -> [(&'static str, f64); 2];

fn header(out: &mut String, name: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} counter");
}

/// A request count as a sample value (exact up to 2^53).
fn count(n: u64) -> f64 {
    // Counts stay far below 2^53; the conversion is exact there.
    #[allow(clippy::cast_precision_loss)]
    let value = n as f64;
    value
}

fn labels(r: &ResourceMetrics, key: Option<&KeyMetrics>, op: &str) -> String {
    let mut out = format!(
        r#"table="{}",index="{}",operation="{op}""#,
        escape(&r.table),
        escape(r.index.as_deref().unwrap_or(""))
    );
    if let Some(k) = key {
        let _ = write!(out, r#",key_id="{}""#, escape(&k.key_id));
        if let Some(value) = &k.key {
            let _ = write!(out, r#",key="{}""#, escape(value));
        }
    }
    out
}

/// A label value escaped as the exposition format requires.
fn escape(value: &str) -> String {
    value
        .replace('\\', r"\\")
        .replace('"', r#"\""#)
        .replace('\n', r"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(key: &str) -> String {
        format!("id-{key}")
    }

    #[test]
    fn hot_keys_rank_by_units_and_throttled_keys_by_throttles() {
        let mut meter = ResourceMeter::default();
        meter.key("cold").served(Op::Read, 1.0);
        meter.key("hot").served(Op::Write, 50.0);
        meter.key("hot").throttled(Op::Write);
        meter.key("warm").served(Op::Read, 5.0);
        let metrics = meter.metrics("T", None, 2, &id);
        let hot: Vec<&str> = metrics
            .hot_keys
            .iter()
            .map(|k| k.key.as_deref().unwrap())
            .collect();
        assert_eq!(hot, ["hot", "warm"]);
        let throttled: Vec<&str> = metrics
            .throttled_keys
            .iter()
            .map(|k| k.key.as_deref().unwrap())
            .collect();
        assert_eq!(throttled, ["hot"]);
    }

    #[test]
    fn past_the_key_limit_the_coldest_half_goes_and_the_hottest_stay() {
        let mut meter = ResourceMeter::default();
        for i in 0..MAX_KEYS {
            meter.key(&format!("k{i}")).served(Op::Read, 1.0);
        }
        meter.key("hot").served(Op::Write, 1000.0);
        meter.key("k7").served(Op::Write, 500.0);
        meter.key("new").served(Op::Read, 1.0);
        assert!(meter.keys.len() <= MAX_KEYS / 2 + 3, "{}", meter.keys.len());
        let top = meter.metrics("T", None, 2, &id);
        let hot: Vec<&str> = top
            .hot_keys
            .iter()
            .map(|k| k.key.as_deref().unwrap())
            .collect();
        assert_eq!(hot, ["hot", "k7"]);
    }

    #[test]
    fn prometheus_text_escapes_labels_and_types_every_family() {
        let mut meter = ResourceMeter::default();
        meter.total.served(Op::Write, 2.0);
        meter.key("a\"b").served(Op::Write, 2.0);
        let snapshot = Snapshot {
            elapsed_seconds: 1.0,
            resources: vec![meter.metrics("T", Some("GSI1"), 10, &id)],
        };
        let text = snapshot.prometheus();
        assert!(text.contains(
            r#"monotable_consumed_capacity_units_total{table="T",index="GSI1",operation="write"} 2"#
        ), "{text}");
        assert!(text.contains(r#"key_id="id-a\"b",key="a\"b""#), "{text}");
        assert_eq!(text.matches("# TYPE").count(), 5);
    }

    #[test]
    fn without_key_values_only_pseudonyms_remain() {
        let mut meter = ResourceMeter::default();
        meter.key("alice@example.com").served(Op::Write, 2.0);
        meter.key("alice@example.com").throttled(Op::Write);
        let snapshot = Snapshot {
            elapsed_seconds: 1.0,
            resources: vec![meter.metrics("T", None, 10, &id)],
        }
        .without_key_values();
        let text = snapshot.prometheus();
        let json = serde_json::to_string(&snapshot).unwrap();
        for shown in [&text, &json] {
            // `id` keeps the value inside its pseudonym, so only the pseudonym may hold it.
            assert_eq!(
                shown.matches("alice@example.com").count(),
                shown.matches("id-alice@example.com").count(),
                "{shown}"
            );
            assert!(shown.contains("id-alice@example.com"), "{shown}");
        }
        assert!(!text.contains(",key=\""), "{text}");
        assert!(!json.contains("\"key\":"), "{json}");
    }
}
