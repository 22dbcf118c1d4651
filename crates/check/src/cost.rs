//! `monotable cost`: capacity units per access pattern from DynamoDB's sizing rules, and with
//! the traffic section, capacity per second and per month priced on-demand and provisioned, write
//! amplification per index, what each stream consumer runs (`consumers.rs`), and the same
//! workload as one table per entity.
//!
//! Pure arithmetic on the model's size estimates; see `docs/cost.md` for the rules, their AWS
//! sources and every approximation. [`estimate`] builds a [`CostReport`]; [`capacity_for`] gives
//! the per-call cells of the Markdown export.

mod call;
mod compare;
mod consumers;
mod estimate;
mod price;
mod render;
mod saving;
mod shards;
mod size;
mod write;

use std::collections::BTreeMap;

use monotable_model::{IndexKind, Model, Pattern};

use crate::num;
use rust_decimal::Decimal;
use serde::{Serialize, Serializer};

pub use call::{
    CallCost, EntityUnits, IndexUnits, MAX_TRANSACTION_ACTIONS, Units, call_cost,
    mutable_attributes, put_units, update_units,
};
pub use compare::{Comparison, EntityComparison, EntityFigures, compare};
pub use consumers::{ConsumerCost, ConsumerPattern};
pub(crate) use consumers::{
    entity_items as consumer_items, read_basis as consumer_read_basis,
    read_rate as consumer_read_rate,
};
pub use estimate::{
    DEFAULT_COLLECTION_ITEMS, DEFAULT_STRING_BYTES, actual_entry_bytes, entry_bytes,
    index_entry_bytes, key_field_bytes, rendered_bytes, value_bytes,
};
pub use price::{DEFAULT_PRICES, PriceError, PriceTable};
pub(crate) use saving::{Saving, shrink};
pub use shards::{key_shards, query_units, read_shards, shard_queries};
pub use size::{
    COLLECTION_OVERHEAD_BYTES, MAX_PAGE_BYTES, READ_UNIT_BYTES, ReadConsistency, WRITE_UNIT_BYTES,
    blocks, item_size, number_size, read_units, value_size, write_units,
};
pub use write::{MAX_BATCH_WRITE_ITEMS, changed_attributes};

/// Seconds in an hour.
const SECONDS_PER_HOUR: i64 = 3600;

fn decimal_str<S: Serializer>(value: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&value.normalize().to_string())
}

/// A decimal string, or `null` for a figure too large to price.
fn optional_decimal_str<S: Serializer>(
    value: &Option<Decimal>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => decimal_str(v, serializer),
        None => serializer.serialize_none(),
    }
}

/// The cost of one access pattern.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PatternCost {
    /// Pattern name.
    pub name: String,
    /// DynamoDB operation (`GetItem`, `Query`, ...).
    pub operation: String,
    /// Index queried (`None` = the table).
    pub index: Option<String>,
    /// Per call, split by table and index: the figures to compare with
    /// `ReturnConsumedCapacity: INDEXES`.
    #[serde(flatten)]
    pub call: CallCost,
    /// Requests per second (`traffic.patterns.<name>.reads_per_second` of a read pattern
    /// times its requests per read, one per shard; `writes_per_second` of a write pattern),
    /// when stated.
    pub requests_per_second: Option<f64>,
    /// Read units per second, when the rate is stated.
    pub rcu_per_second: Option<f64>,
    /// Write units per second, when the rate is stated.
    pub wcu_per_second: Option<f64>,
}

impl PatternCost {
    /// Read units per call.
    pub fn rcu_per_call(&self) -> f64 {
        self.call.rcu.total
    }

    /// Write units per call.
    pub fn wcu_per_call(&self) -> f64 {
        self.call.wcu.total
    }
}

/// The writes of one entity at its stated rate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntityWrites {
    /// Entity name.
    pub entity: String,
    /// Items written per second.
    pub writes_per_second: f64,
    /// The write it is costed as: the most expensive pattern writing it, or `PutItem`.
    pub costed_as: String,
    /// Units of one item write, by table and index.
    pub per_write: Units,
    /// Units per second (`writes_per_second × per_write`).
    pub per_second: Units,
}

/// Capacity of the table or one index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexCost {
    /// Index name.
    pub index: String,
    /// `global` or `local`.
    pub kind: String,
    /// Read units per second of the patterns querying it.
    pub rcu_per_second: f64,
    /// Write units per second propagated to it.
    pub wcu_per_second: f64,
    /// Its writes per base-table write unit.
    pub write_amplification: f64,
}

/// A design's whole workload priced.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DesignCost {
    /// `single-table` or `table-per-entity`.
    pub design: String,
    /// Tables.
    pub tables: usize,
    /// Secondary indexes over all tables.
    pub indexes: usize,
    /// Read requests per second.
    pub read_requests_per_second: f64,
    /// Read units per second.
    pub rcu_per_second: f64,
    /// Write units per second.
    pub wcu_per_second: f64,
    /// On-demand, the peak rate sustained for a month; `None` when too large to price.
    #[serde(serialize_with = "optional_decimal_str")]
    pub on_demand_monthly: Option<Decimal>,
    /// Provisioned read units, summed over tables and global indexes (each rounded up, at least
    /// 1); `None` when too large to count.
    pub provisioned_rcu: Option<u64>,
    /// Provisioned write units, likewise.
    pub provisioned_wcu: Option<u64>,
    /// Provisioned for the peak, for a month; `None` when too large to price.
    #[serde(serialize_with = "optional_decimal_str")]
    pub provisioned_monthly: Option<Decimal>,
}

/// Everything `monotable cost` reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostReport {
    /// Table name.
    pub table: String,
    /// The model has a `[traffic]` section: the per-second and monthly figures are filled.
    pub traffic: bool,
    /// Prices used.
    pub prices: PriceTable,
    /// Per pattern, in model order.
    pub patterns: Vec<PatternCost>,
    /// Per entity with a stated write rate.
    pub entity_writes: Vec<EntityWrites>,
    /// The table (first, named after it) and each index.
    pub indexes: Vec<IndexCost>,
    /// Each stream consumer's reads and writes at the rate of its records; empty without
    /// traffic.
    pub consumers: Vec<ConsumerCost>,
    /// Single table, then one table per entity; empty without traffic.
    pub designs: Vec<DesignCost>,
    /// Model-wide assumptions.
    pub notes: Vec<String>,
}

/// Patterns that write `entity`, with the per-item units of that write (a transaction's table
/// part doubled; a ConditionCheck writes nothing).
fn writers(model: &Model, entity: &monotable_model::EntityDecl) -> Vec<(String, Units)> {
    model
        .patterns
        .iter()
        .filter_map(|p| write::writes_item(model, p, entity).map(|u| (p.name.clone(), u)))
        .collect()
}

/// `units_per_second × price / scale`; `None` on overflow or for a rate that is no number.
fn money(units_per_second: f64, price: Decimal, scale: Decimal) -> Option<Decimal> {
    if !units_per_second.is_finite() || units_per_second < 0.0 {
        return None;
    }
    let rate = Decimal::from_f64_retain(units_per_second)?.round_dp(6);
    rate.checked_mul(price)?.checked_div(scale)
}

/// Rounded to cents, half away from zero.
fn cents(amount: Decimal) -> Decimal {
    amount.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
}

/// Capacity pools (tables and global indexes) with their read and write units per second.
type Pools = BTreeMap<String, (f64, f64)>;

/// Provisioned units of one pool: its rate rounded up, at least 1; `None` beyond counting.
fn provisioned_units(per_second: f64) -> Option<u64> {
    num::ceil_count(per_second).map(|u| u.max(1))
}

/// The on-demand month: `rcu` and `wcu` request units per second for the whole month.
fn on_demand_month(rcu: f64, wcu: f64, prices: &PriceTable) -> Option<Decimal> {
    let seconds = prices
        .hours_per_month
        .checked_mul(Decimal::from(SECONDS_PER_HOUR))?;
    let million = Decimal::from(1_000_000);
    let reads = money(rcu, prices.on_demand_read_per_million, million)?;
    let writes = money(wcu, prices.on_demand_write_per_million, million)?;
    reads.checked_add(writes)?.checked_mul(seconds).map(cents)
}

/// On demand, `rcu_per_second` read units sustained for a month: the units and their price
/// (rounded to cents); `None` for a rate that is no number or too large to price.
pub(crate) fn reads_per_month(
    rcu_per_second: f64,
    prices: &PriceTable,
) -> Option<(Decimal, Decimal)> {
    let seconds = prices
        .hours_per_month
        .checked_mul(Decimal::from(SECONDS_PER_HOUR))?;
    let rate = Decimal::from_f64_retain(rcu_per_second)?.round_dp(6);
    let units = rate.checked_mul(seconds)?;
    Some((units, on_demand_month(rcu_per_second, 0.0, prices)?))
}

/// The provisioned month for `rcu` and `wcu` provisioned units.
fn provisioned_month(rcu: u64, wcu: u64, prices: &PriceTable) -> Option<Decimal> {
    let reads = Decimal::from(rcu).checked_mul(prices.provisioned_rcu_per_hour)?;
    let writes = Decimal::from(wcu).checked_mul(prices.provisioned_wcu_per_hour)?;
    reads
        .checked_add(writes)?
        .checked_mul(prices.hours_per_month)
        .map(cents)
}

fn price_design(
    design: &str,
    tables: usize,
    indexes: usize,
    requests: f64,
    pools: &Pools,
    prices: &PriceTable,
) -> DesignCost {
    let rcu: f64 = pools.values().map(|p| p.0).sum();
    let wcu: f64 = pools.values().map(|p| p.1).sum();
    let sum = |units: &dyn Fn(&(f64, f64)) -> f64| {
        pools.values().try_fold(0u64, |total, pool| {
            total.checked_add(provisioned_units(units(pool))?)
        })
    };
    let provisioned_rcu = sum(&|p| p.0);
    let provisioned_wcu = sum(&|p| p.1);
    DesignCost {
        design: design.to_string(),
        tables,
        indexes,
        read_requests_per_second: requests,
        rcu_per_second: rcu,
        wcu_per_second: wcu,
        on_demand_monthly: on_demand_month(rcu, wcu, prices),
        provisioned_rcu,
        provisioned_wcu,
        provisioned_monthly: provisioned_rcu
            .zip(provisioned_wcu)
            .and_then(|(r, w)| provisioned_month(r, w, prices)),
    }
}

/// Pool of the table or of a global index; local indexes share the table's capacity.
fn pool_name(model: &Model, table: &str, index: &str) -> String {
    match model.index(index) {
        Some(i) if i.kind == IndexKind::Global => format!("{table}.{index}"),
        _ => table.to_string(),
    }
}

/// What the rows add up to: units per capacity pool and read requests, for both designs.
struct Totals {
    single: Pools,
    per_entity: Pools,
    requests: f64,
    requests_per_entity: f64,
}

impl Totals {
    /// Every pool at zero: the table and its global indexes, each entity's table and copies.
    fn new(model: &Model, table: &str) -> Totals {
        let mut single: Pools = BTreeMap::new();
        let mut per_entity: Pools = BTreeMap::new();
        single.insert(table.to_string(), (0.0, 0.0));
        for index in model.indexes.iter().filter(|i| i.kind == IndexKind::Global) {
            single.insert(pool_name(model, table, &index.name), (0.0, 0.0));
        }
        for entity in &model.entities {
            per_entity.insert(entity.name.clone(), (0.0, 0.0));
            for index in call::entity_indexes(model, entity) {
                per_entity.insert(pool_name(model, &entity.name, &index.name), (0.0, 0.0));
            }
        }
        Totals {
            single,
            per_entity,
            requests: 0.0,
            requests_per_entity: 0.0,
        }
    }

    /// `entity`'s write units per second, on the table and each index it writes, in both
    /// designs.
    fn add_writes(&mut self, model: &Model, table: &str, entity: &str, per_second: &Units) {
        self.single.entry(table.to_string()).or_default().1 += per_second.table;
        self.per_entity.entry(entity.to_string()).or_default().1 += per_second.table;
        for i in &per_second.indexes {
            let pool = pool_name(model, table, &i.index);
            self.single.entry(pool).or_default().1 += i.units;
            let pool = pool_name(model, entity, &i.index);
            self.per_entity.entry(pool).or_default().1 += i.units;
        }
    }
}

/// The calls/s of `p`: a read pattern's stated `reads_per_second` plus the consumers that read
/// it once per record, a write pattern's stated `writes_per_second`.
fn pattern_rate(model: &Model, p: &Pattern) -> Option<f64> {
    let stated = model.traffic.patterns.get(&p.name).and_then(|t| {
        if p.is_read() {
            t.reads_per_second
        } else {
            t.writes_per_second
        }
    });
    if !p.is_read() {
        return stated;
    }
    match (stated, consumers::read_rate(model, &p.name)) {
        (Some(a), Some(b)) => Some(a + b),
        (a, b) => a.or(b),
    }
}

/// One pattern's row; a read's units per second are added to `totals`.
fn pattern_row(model: &Model, p: &Pattern, table: &str, totals: &mut Totals) -> PatternCost {
    let mut call = call_cost(model, p);
    let rate = pattern_rate(model, p);
    if let Some(rate) = rate.filter(|_| p.is_read()) {
        let stated = model
            .traffic
            .patterns
            .get(&p.name)
            .and_then(|t| t.reads_per_second);
        call.notes.extend(consumers::read_note(model, p, stated));
        totals.requests += rate * num::to_f64(call.requests);
        totals.requests_per_entity += rate * num::to_f64(call.requests_table_per_entity);
        let pool = p
            .index_name()
            .map_or(table.to_string(), |i| pool_name(model, table, i));
        totals.single.entry(pool).or_default().0 += rate * call.rcu.total;
        // One table per entity: each returned entity's share on its own table or index copy.
        for share in &call.rcu_by_entity {
            let pool = p
                .index_name()
                .map_or(share.entity.clone(), |i| pool_name(model, &share.entity, i));
            totals.per_entity.entry(pool).or_default().0 += rate * share.units;
        }
    }
    PatternCost {
        name: p.name.clone(),
        operation: format!("{:?}", p.operation),
        index: p.index_name().map(str::to_string),
        requests_per_second: rate.map(|r| r * num::to_f64(call.requests.max(1))),
        rcu_per_second: rate.map(|r| r * call.rcu.total),
        wcu_per_second: rate.map(|r| r * call.wcu.total),
        call,
    }
}

/// The items/s of `entity` the totals take and whether to price them: its stated (or default)
/// `writes_per_second`, else what consumers write of it; and whether they come from consumers.
fn entity_rate(model: &Model, entity: &str) -> Option<(f64, bool)> {
    if !model.traffic.declared {
        return None;
    }
    match model.traffic.writes_per_second(entity) {
        (rate, true) => Some((rate, false)),
        _ => match consumers::entity_items(model, entity) {
            Some((rate, true)) => Some((rate, true)),
            _ => None,
        },
    }
}

/// One entity's writes at its rate, costed as the dearest pattern writing it (of the
/// consumers' patterns when its rate is theirs), added to `totals`.
fn entity_row(
    model: &Model,
    entity: &monotable_model::EntityDecl,
    table: &str,
    totals: &mut Totals,
) -> Option<EntityWrites> {
    let (rate, by_consumers) = entity_rate(model, &entity.name)?;
    let all = writers(model, entity);
    let theirs: Vec<(String, Units)> = all
        .iter()
        .filter(|(name, _)| {
            model
                .pattern(name)
                .is_some_and(|p| consumers::runs_write(model, p))
        })
        .cloned()
        .collect();
    let candidates = if by_consumers && !theirs.is_empty() {
        theirs
    } else {
        all
    };
    let (costed_as, per_write) = candidates
        .into_iter()
        .fold(None::<(String, Units)>, |best, (name, units)| match best {
            Some(b) if b.1.total >= units.total => Some(b),
            _ => Some((name, units)),
        })
        .unwrap_or_else(|| ("PutItem".to_string(), put_units(model, entity, false)));
    let mut per_second = Units::default();
    per_second.add_scaled(&per_write, rate);
    totals.add_writes(model, table, &entity.name, &per_second);
    Some(EntityWrites {
        entity: entity.name.clone(),
        writes_per_second: rate,
        costed_as,
        per_write,
        per_second,
    })
}

/// The table's and each index's units per second, from the rows.
fn index_rows(
    model: &Model,
    table: &str,
    patterns: &[PatternCost],
    entity_writes: &[EntityWrites],
) -> Vec<IndexCost> {
    let table_wcu: f64 = entity_writes.iter().map(|w| w.per_second.table).sum();
    let amplification = |wcu: f64| {
        if table_wcu > 0.0 {
            wcu / table_wcu
        } else {
            0.0
        }
    };
    let reads = |index: Option<&str>| -> f64 {
        patterns
            .iter()
            .filter(|p| p.index.as_deref() == index)
            .filter_map(|p| p.rcu_per_second)
            .sum()
    };
    let mut indexes = vec![IndexCost {
        index: table.to_string(),
        kind: "table".to_string(),
        rcu_per_second: reads(None),
        wcu_per_second: table_wcu,
        write_amplification: amplification(table_wcu),
    }];
    for index in &model.indexes {
        let wcu: f64 = entity_writes
            .iter()
            .map(|w| w.per_second.index(&index.name))
            .sum();
        indexes.push(IndexCost {
            index: index.name.clone(),
            kind: match index.kind {
                IndexKind::Global => "global",
                IndexKind::Local => "local",
            }
            .to_string(),
            rcu_per_second: reads(Some(&index.name)),
            wcu_per_second: wcu,
            write_amplification: amplification(wcu),
        });
    }
    indexes
}

/// The single table, then one table per entity, priced from `totals`.
fn price_designs(model: &Model, totals: &Totals, prices: &PriceTable) -> Vec<DesignCost> {
    let copies = model
        .entities
        .iter()
        .map(|e| call::entity_indexes(model, e).len())
        .sum();
    vec![
        price_design(
            "single-table",
            1,
            model.indexes.len(),
            totals.requests,
            &totals.single,
            prices,
        ),
        price_design(
            "table-per-entity",
            model.entities.len(),
            copies,
            totals.requests_per_entity,
            &totals.per_entity,
            prices,
        ),
    ]
}

/// Costs every pattern of `model` and, when it has traffic, the whole workload.
pub fn estimate(model: &Model, prices: &PriceTable) -> CostReport {
    let table = model.table.name.clone();
    let mut notes = vec![
        "sizes come from traffic.entities.*.item_size_bytes (or the default); KEYS_ONLY/INCLUDE entries are estimated from attribute types".to_string(),
        "index writes are not doubled by transactions; a sparse index key counts as written".to_string(),
    ];
    let mut totals = Totals::new(model, &table);
    let mut patterns: Vec<PatternCost> = model
        .patterns
        .iter()
        .map(|p| pattern_row(model, p, &table, &mut totals))
        .collect();
    let entity_writes: Vec<EntityWrites> = model
        .entities
        .iter()
        .filter_map(|e| entity_row(model, e, &table, &mut totals))
        .collect();
    consumers::write_rows(model, &mut patterns, &entity_writes);
    let indexes = index_rows(model, &table, &patterns, &entity_writes);

    let (mut designs, mut consumer_costs) = (Vec::new(), Vec::new());
    if model.traffic.declared {
        notes.push("monthly figures sustain the stated peak rates for the whole month; writes are costed from entity write rates as the most expensive pattern writing each entity".to_string());
        if !model.consumers.is_empty() {
            notes.push("a stream consumer handles the records/s its traffic states (`[traffic.consumers.NAME] records_per_second`), else its entities' stated writes/s; each of its `reads` runs at the rate its traffic states, else once per record, and an entity it writes that states no writes/s is written once per record".to_string());
            notes.extend(
                model
                    .consumers
                    .iter()
                    .filter_map(|c| consumers::bound_note(model, c)),
            );
            consumer_costs = consumers::costs(model, &patterns, prices);
        }
        designs = price_designs(model, &totals, prices);
    } else {
        notes.push("no [traffic] section: per-call figures only".to_string());
    }

    CostReport {
        table,
        traffic: model.traffic.declared,
        prices: prices.clone(),
        patterns,
        entity_writes,
        indexes,
        consumers: consumer_costs,
        designs,
        notes,
    }
}

/// Units as a table cell: `0.5`, `2`, `12.25`.
pub fn format_units(units: f64) -> String {
    render::number(units)
}

/// Read and write units of one call of `pattern` as `(read, write)` cells for the Markdown
/// export's capacity hook (`0.5`, `0`); `None` if the pattern is not in the model.
pub fn capacity_for(model: &Model, pattern: &Pattern) -> Option<(String, String)> {
    let pattern = model.pattern(&pattern.name)?;
    let call = call_cost(model, pattern);
    Some((format_units(call.rcu.total), format_units(call.wcu.total)))
}
