//! Capacity emulation on the embedded engine: DynamoDB's throughput rules (per-partition
//! limits, provisioned capacity with burst, on-demand scaling, GSI back-pressure) applied to
//! every data-plane request, refusing what DynamoDB would refuse in DynamoDB's own words, and
//! counting what each table, index and partition key consumed. Off unless asked for
//! ([`crate::Engine::with_capacity`]); docs/capacity.md lists the rules and their sources.

mod batch;
mod bucket;
pub mod catalog;
mod clock;
mod keys;
pub mod metrics;
mod reads;
mod throttle;
mod transact;
mod writes;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use dynoxide::Database;

pub use bucket::Bucket;
pub use catalog::{Billing, TableInfo};
pub use clock::{Clock, SystemClock, VirtualClock};
pub use metrics::{KeyMetrics, MetricsSnapshot, Op, ResourceMetrics};
pub use throttle::{Limit, Throttle};

/// The variables that turn emulation on for every engine `connect` and `memory` open.
pub use crate::config::{CAPACITY_ENV, CAPACITY_SCALE_ENV};

use crate::answer::{Answer, Origin};
use metrics::ResourceMeter;

/// A partition key value's read limit, RCU/s (tables and GSIs, both billing modes).
pub const PARTITION_READ_UNITS: f64 = 3000.0;
/// A partition key value's write limit, WCU/s.
pub const PARTITION_WRITE_UNITS: f64 = 1000.0;
/// Unused provisioned capacity kept as burst, in seconds of the provisioned rate.
pub const BURST_SECONDS: f64 = 300.0;
/// A new on-demand table's warm read throughput, read request units/s.
pub const ON_DEMAND_WARM_READ: f64 = 12_000.0;
/// A new on-demand table's warm write throughput, write request units/s.
pub const ON_DEMAND_WARM_WRITE: f64 = 4_000.0;

/// How the emulator runs.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Every limit is divided by this, so a laptop can reach them (1.0: DynamoDB's own).
    pub scale: f64,
    /// Where time comes from.
    pub clock: Arc<dyn Clock>,
    /// How many partition keys each table and index reports as hottest.
    pub hot_keys: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            scale: 1.0,
            clock: Arc::new(SystemClock::new()),
            hot_keys: 10,
        }
    }
}

impl Settings {
    /// The settings [`CAPACITY_ENV`] and [`CAPACITY_SCALE_ENV`] ask for; `None` when emulation
    /// is not asked for. A test suite runs under DynamoDB's throughput rules with
    /// `MONOTABLE_CAPACITY=1 cargo test ...`, without a line of code changed.
    pub fn from_env() -> Option<Settings> {
        if !crate::config::capacity_asked() {
            return None;
        }
        let scale = match std::env::var(CAPACITY_SCALE_ENV) {
            Ok(text) => match text.trim().parse::<f64>() {
                Ok(scale) if scale > 0.0 && scale.is_finite() => scale,
                _ => {
                    tracing::warn!(value = %text, "{CAPACITY_SCALE_ENV} is not a number above 0; using 1");
                    1.0
                }
            },
            Err(_) => 1.0,
        };
        Some(Settings::default().scale(scale))
    }

    /// Divide every limit by `scale` (values below 1 raise them; non-positive ones are taken
    /// as 1).
    pub fn scale(mut self, scale: f64) -> Settings {
        self.scale = if scale > 0.0 && scale.is_finite() {
            scale
        } else {
            1.0
        };
        self
    }

    /// Read time from `clock`.
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Settings {
        self.clock = clock;
        self
    }
}

/// One request's claim on a table or index, and on one of its partitions when the key is
/// known.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Touch {
    pub index: Option<String>,
    pub key: Option<String>,
    pub op: Op,
}

/// The emulator. One per engine; every clone of that engine shares it.
pub struct Emulator {
    settings: Settings,
    catalog: catalog::Catalog,
    state: Mutex<State>,
    /// The key of [`Emulator::pseudonym`]: drawn at start, never shown. One SHA-256 block, the
    /// key size HMAC takes without a length check ([`KEY_BYTES`]).
    key_secret: [u8; KEY_BYTES],
}

impl std::fmt::Debug for Emulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Emulator")
            .field("settings", &self.settings)
            .field("catalog", &self.catalog)
            .field("state", &self.state)
            .field("key_secret", &"<hidden>")
            .finish()
    }
}

/// Everything the emulator keeps, by table name.
#[derive(Debug, Default)]
struct State {
    tables: HashMap<String, TableState>,
}

/// One table's buckets and counters.
#[derive(Debug, Default)]
struct TableState {
    /// When it was created or last changed, on the emulator's clock (a table the emulator
    /// never saw created counts from its start).
    created: Duration,
    /// The table (`index: None`) and each index that saw a request.
    slots: Vec<Slot>,
}

/// A table or index: its buckets (made on first use) and its counters.
#[derive(Debug)]
struct Slot {
    index: Option<String>,
    buckets: Option<ResourceBuckets>,
    meter: ResourceMeter,
}

impl State {
    /// The slot of `index` (`None`: the table) of table `table`, made if new. Looks up without
    /// allocating once both exist.
    fn slot(&mut self, table: &str, index: Option<&str>) -> (&mut Slot, Duration) {
        if !self.tables.contains_key(table) {
            self.tables.insert(table.to_string(), TableState::default());
        }
        let state = self.tables.get_mut(table).expect("just inserted");
        let at = match state.slots.iter().position(|s| s.index.as_deref() == index) {
            Some(at) => at,
            None => {
                state.slots.push(Slot {
                    index: index.map(str::to_string),
                    buckets: None,
                    meter: ResourceMeter::default(),
                });
                state.slots.len() - 1
            }
        };
        (&mut state.slots[at], state.created)
    }
}

/// The buckets of one table or index: its own throughput and each partition key's.
#[derive(Debug)]
struct ResourceBuckets {
    read: Bucket,
    write: Bucket,
    /// On-demand: units consumed per second, to find the previous peak.
    peaks: Option<Peaks>,
    partitions: HashMap<String, [Bucket; 2]>,
}

/// An on-demand resource's traffic: the current second's units and the highest second's.
#[derive(Debug, Default)]
struct Peaks {
    second: u64,
    units: [f64; 2],
    peak: [f64; 2],
}

/// The pseudonyms' key length: SHA-256's block, so the key needs no hashing or padding and HMAC
/// takes it as a fixed-size array, with no length to check at run time.
const KEY_BYTES: usize = 64;

/// Partition buckets kept before idle (full) ones are dropped.
const PRUNE_AT: usize = 100_000;

fn op_index(op: Op) -> usize {
    match op {
        Op::Read => 0,
        Op::Write => 1,
    }
}

impl Emulator {
    /// An emulator with `settings`.
    pub fn new(settings: Settings) -> Emulator {
        let mut key_secret = [0u8; KEY_BYTES];
        if getrandom::fill(&mut key_secret).is_err() {
            // No system randomness here: std's per-process hash keys are the next best secret.
            use std::hash::{BuildHasher, Hasher};
            for chunk in key_secret.chunks_mut(8) {
                let mut h = std::hash::RandomState::new().build_hasher();
                h.write_usize(chunk.as_ptr() as usize);
                chunk.copy_from_slice(&h.finish().to_le_bytes());
            }
        }
        Emulator {
            settings,
            catalog: catalog::Catalog::default(),
            state: Mutex::new(State::default()),
            key_secret,
        }
    }

    /// The pseudonym of partition key `key` of `table` (or of its `index`): 16 hex digits of
    /// HMAC-SHA-256 under a key drawn when the emulator starts. A scrape can follow a hot key
    /// from one sample to the next, but cannot learn or confirm its value (a guessed e-mail
    /// address, say) without that key, which never leaves the process.
    pub fn pseudonym(&self, table: &str, index: Option<&str>, key: &str) -> String {
        use hmac::{KeyInit, Mac};
        let mut mac = hmac::Hmac::<sha2::Sha256>::new(&self.key_secret.into());
        for part in [table, index.unwrap_or(""), key] {
            // Lengths first, so no two (table, index, key) triples share an input.
            mac.update(&u64::try_from(part.len()).unwrap_or(u64::MAX).to_be_bytes());
            mac.update(part.as_bytes());
        }
        mac.finalize().into_bytes()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// The settings it runs with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    fn now(&self) -> Duration {
        self.settings.clock.now()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Everything counted so far.
    pub fn snapshot(&self) -> MetricsSnapshot {
        let state = self.lock();
        let mut resources: Vec<ResourceMetrics> = state
            .tables
            .iter()
            .flat_map(|(table, t)| t.slots.iter().map(move |s| (table, s)))
            .map(|(table, slot)| {
                let pseudonym = |key: &str| self.pseudonym(table, slot.index.as_deref(), key);
                slot.meter.metrics(
                    table,
                    slot.index.as_deref(),
                    self.settings.hot_keys,
                    &pseudonym,
                )
            })
            .collect();
        resources.sort_by(|a, b| (&a.table, &a.index).cmp(&(&b.table, &b.index)));
        MetricsSnapshot {
            elapsed_seconds: self.now().as_secs_f64(),
            resources,
        }
    }

    /// Run `operation` under the throughput rules; `None` when it is not a data-plane request
    /// the emulator meters (the caller then runs it as usual).
    pub(crate) fn call(
        &self,
        db: &Database,
        origin: Origin,
        operation: &str,
        body: &[u8],
    ) -> Option<Answer> {
        match operation {
            "GetItem" => reads::get_item(self, db, body),
            "Query" => reads::query(self, db, body),
            "Scan" => reads::scan(self, db, body),
            "PutItem" => writes::put_item(self, db, body),
            "UpdateItem" => writes::update_item(self, db, body),
            "DeleteItem" => writes::delete_item(self, db, body),
            "BatchGetItem" => batch::batch_get_item(self, db, body),
            "BatchWriteItem" => batch::batch_write_item(self, db, body),
            "TransactGetItems" => transact::transact_get_items(self, db, body),
            "TransactWriteItems" => transact::transact_write_items(self, db, origin, body),
            _ => None,
        }
    }

    /// After the engine ran `operation`: a table created, changed or deleted is described
    /// again on its next use, and its buckets start afresh from now (its counters stay).
    pub(crate) fn after(&self, operation: &str, body: &[u8]) {
        if !matches!(operation, "CreateTable" | "UpdateTable" | "DeleteTable") {
            return;
        }
        self.catalog.forget();
        let name = serde_json::from_slice::<serde_json::Value>(body)
            .ok()
            .and_then(|b| b["TableName"].as_str().map(str::to_string));
        let now = self.now();
        let mut state = self.lock();
        if let Some(name) = name {
            let table = state.tables.entry(name).or_default();
            table.created = now;
            for slot in &mut table.slots {
                slot.buckets = None;
            }
        }
    }

    /// The table named `name`, as described by the engine.
    pub(crate) fn table(&self, db: &Database, name: &str) -> Option<Arc<TableInfo>> {
        self.catalog.get(db, name)
    }

    /// Whether every claim in `touches` on `table` may start now. The first refusal is
    /// counted and returned.
    pub(crate) fn admit(&self, table: &TableInfo, touches: &[Touch]) -> Result<(), Throttle> {
        let now = self.now();
        let mut state = self.lock();
        for touch in touches {
            if let Err(throttle) = self.check(&mut state, table, touch, now) {
                let (slot, _) = state.slot(&table.name, touch.index.as_deref());
                let meter = &mut slot.meter;
                meter.total.throttled(touch.op);
                if let Some(key) = &touch.key {
                    meter.key(key).throttled(touch.op);
                }
                return Err(throttle);
            }
        }
        Ok(())
    }

    fn check(
        &self,
        state: &mut State,
        table: &TableInfo,
        touch: &Touch,
        now: Duration,
    ) -> Result<(), Throttle> {
        let Some(resource) = table.resource(touch.index.as_deref()) else {
            return Ok(());
        };
        let (slot, created) = state.slot(&table.name, touch.index.as_deref());
        let buckets = slot
            .buckets
            .get_or_insert_with(|| self.fresh(&resource.billing, now, created));
        let refuse = |limit| Throttle {
            limit,
            op: touch.op,
            on_index: touch.index.is_some(),
            arn: resource.arn.clone(),
        };
        let own = match touch.op {
            Op::Read => &mut buckets.read,
            Op::Write => &mut buckets.write,
        };
        if !own.admits(now) {
            return Err(refuse(self.own_limit(
                &resource.billing,
                touch.op,
                own.rate(),
            )));
        }
        if let Some(key) = &touch.key {
            if !buckets.partitions.contains_key(key) {
                buckets
                    .partitions
                    .insert(key.clone(), self.fresh_partition(now));
            }
            let partition = buckets.partitions.get_mut(key).expect("just inserted");
            if !partition[op_index(touch.op)].admits(now) {
                return Err(refuse(Limit::KeyRange));
            }
        }
        Ok(())
    }

    /// Take `units` from the buckets of each of `touches` now, before the request runs, so
    /// the next claim in the same batch sees them spent; the final [`Emulator::charge`] is
    /// told they were held.
    pub(crate) fn hold(&self, table: &TableInfo, touches: &[Touch], units: f64) {
        let now = self.now();
        let mut state = self.lock();
        for touch in touches {
            let (slot, _) = state.slot(&table.name, touch.index.as_deref());
            let Some(buckets) = &mut slot.buckets else {
                continue;
            };
            let op = op_index(touch.op);
            let own = if op == 0 {
                &mut buckets.read
            } else {
                &mut buckets.write
            };
            own.spend(units, now);
            if let Some(key) = &touch.key
                && let Some(partition) = buckets.partitions.get_mut(key)
            {
                partition[op].spend(units, now);
            }
        }
    }

    /// Charge `units` for `touch` on `table`, of which `held` were taken when it was admitted
    /// ([`Emulator::hold`]), and count the request.
    pub(crate) fn charge(&self, table: &TableInfo, touch: &Touch, units: f64, held: f64) {
        let now = self.now();
        let mut state = self.lock();
        let (slot, created) = state.slot(&table.name, touch.index.as_deref());
        slot.meter.total.served(touch.op, units);
        if let Some(key) = &touch.key {
            slot.meter.key(key).served(touch.op, units);
        }
        let Some(resource) = table.resource(touch.index.as_deref()) else {
            return;
        };
        let buckets = slot
            .buckets
            .get_or_insert_with(|| self.fresh(&resource.billing, now, created));
        let op = op_index(touch.op);
        if let Some(peaks) = &mut buckets.peaks {
            let rate = peaks.record(op, units, now, self.warm(op));
            let rate = self.capped(&resource.billing, touch.op, rate);
            let own = if op == 0 {
                &mut buckets.read
            } else {
                &mut buckets.write
            };
            if rate > own.rate() {
                own.reshape(rate, rate, now);
            }
        }
        let own = if op == 0 {
            &mut buckets.read
        } else {
            &mut buckets.write
        };
        own.spend(units - held, now);
        if let Some(key) = &touch.key
            && let Some(partition) = buckets.partitions.get_mut(key)
        {
            partition[op].spend(units - held, now);
        }
        if buckets.partitions.len() > PRUNE_AT {
            buckets
                .partitions
                .retain(|_, [r, w]| !(r.is_full(now) && w.is_full(now)));
        }
    }

    /// The buckets of a table or index first used at `now`, created (or changed) at `created`.
    fn fresh(&self, billing: &Billing, now: Duration, created: Duration) -> ResourceBuckets {
        let scale = self.settings.scale;
        match billing {
            Billing::Provisioned { read, write } => {
                // Burst: up to 300 s of unused capacity, kept since the table was created
                // (which starts with one second's).
                let unused = now.saturating_sub(created).as_secs_f64() + 1.0;
                let bucket = |units: f64| {
                    let rate = units / scale;
                    Bucket::new(rate, rate * BURST_SECONDS, rate * unused, now)
                };
                ResourceBuckets {
                    read: bucket(*read),
                    write: bucket(*write),
                    peaks: None,
                    partitions: HashMap::new(),
                }
            }
            Billing::OnDemand { .. } => {
                let bucket = |op: Op| {
                    let rate = self.capped(billing, op, self.warm(op_index(op)));
                    Bucket::new(rate, rate, rate, now)
                };
                ResourceBuckets {
                    read: bucket(Op::Read),
                    write: bucket(Op::Write),
                    peaks: Some(Peaks::default()),
                    partitions: HashMap::new(),
                }
            }
        }
    }

    fn fresh_partition(&self, now: Duration) -> [Bucket; 2] {
        let scale = self.settings.scale;
        let bucket = |units: f64| {
            let rate = units / scale;
            Bucket::new(rate, rate, rate, now)
        };
        [bucket(PARTITION_READ_UNITS), bucket(PARTITION_WRITE_UNITS)]
    }

    /// An on-demand table's warm throughput, scaled.
    fn warm(&self, op: usize) -> f64 {
        let warm = if op == 0 {
            ON_DEMAND_WARM_READ
        } else {
            ON_DEMAND_WARM_WRITE
        };
        warm / self.settings.scale
    }

    /// `rate`, held to an on-demand resource's configured maximum.
    fn capped(&self, billing: &Billing, op: Op, rate: f64) -> f64 {
        match (billing, op) {
            (
                Billing::OnDemand {
                    max_read: Some(max),
                    ..
                },
                Op::Read,
            )
            | (
                Billing::OnDemand {
                    max_write: Some(max),
                    ..
                },
                Op::Write,
            ) => rate.min(max / self.settings.scale),
            _ => rate,
        }
    }

    /// The limit a table's or index's own bucket stands for.
    fn own_limit(&self, billing: &Billing, op: Op, rate: f64) -> Limit {
        match billing {
            Billing::Provisioned { .. } => Limit::Provisioned,
            Billing::OnDemand { .. } if self.capped(billing, op, f64::INFINITY) <= rate => {
                Limit::MaxOnDemand
            }
            Billing::OnDemand { .. } => Limit::KeyRange,
        }
    }
}

impl Peaks {
    /// Count `units` at `now`; the rate the resource accommodates from here: twice its
    /// previous peak second, and never below its warm throughput.
    fn record(&mut self, op: usize, units: f64, now: Duration, warm: f64) -> f64 {
        let second = now.as_secs();
        if second != self.second {
            for i in 0..2 {
                self.peak[i] = self.peak[i].max(self.units[i]);
                self.units[i] = 0.0;
            }
            self.second = second;
        }
        self.units[op] += units;
        warm.max(2.0 * self.peak[op])
    }
}

#[cfg(test)]
mod tests;
