//! What stream consumers cost. A consumer handles records at the rate the traffic states for it
//! (`[traffic.consumers.NAME] records_per_second`), else at the rate its entities are written
//! ([`records`]: their stated writes/s, an upper bound, since its events and filter are not
//! modelled). Each read pattern it lists in `reads` runs at the rate its traffic states for it
//! (`reads_per_second`), else once per record ([`read_rate`]). An entity it writes that states
//! no writes/s of its own is written once per record, or at the stated rates of the consumer's
//! patterns that write it ([`entity_items`]). Its write patterns' rows are the entity writes
//! priced as them ([`write_rows`]), so the rows add up to the totals, and [`costs`] sums each
//! consumer. Lambda's reads of the stream are not billed.

use monotable_model::{Consumer, Model, Operation, Pattern};
use rust_decimal::Decimal;
use serde::Serialize;

use super::render::number;
use super::{EntityWrites, PatternCost, PriceTable, on_demand_month, optional_decimal_str, write};
use crate::num;

/// One pattern a consumer runs, at the rate the consumer runs it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConsumerPattern {
    /// Pattern name.
    pub pattern: String,
    /// `read` (listed in `reads`) or `write` (in `writes`).
    pub kind: String,
    /// Calls per second for this consumer; `None` when no figure prices it.
    pub calls_per_second: Option<f64>,
    /// Read units per second.
    pub rcu_per_second: Option<f64>,
    /// Write units per second.
    pub wcu_per_second: Option<f64>,
}

/// What one stream consumer costs: its reads and writes at the rate of its records.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConsumerCost {
    /// Consumer name.
    pub consumer: String,
    /// Records per second it handles: its stated `records_per_second`, else the stated writes/s
    /// of its entities; `None` when neither is stated.
    pub records_per_second: Option<f64>,
    /// Whether `records_per_second` is the sum of its entities' writes/s, an upper bound (the
    /// traffic states no `records_per_second` for it).
    pub records_upper_bound: bool,
    /// Its reads, then its writes, in the order the consumer lists them.
    pub patterns: Vec<ConsumerPattern>,
    /// Read units per second of its reads.
    pub rcu_per_second: f64,
    /// Write units per second of its writes.
    pub wcu_per_second: f64,
    /// Both on demand, sustained for a month; `None` when too large to price.
    #[serde(serialize_with = "optional_decimal_str")]
    pub on_demand_monthly: Option<Decimal>,
}

/// The `records_per_second` the traffic states for consumer `c`.
fn stated_rate(model: &Model, c: &Consumer) -> Option<f64> {
    model
        .traffic
        .consumers
        .get(&c.name)
        .and_then(|t| t.records_per_second)
}

/// Records/s consumer `c` handles, and whether the figure is stated: its `records_per_second`,
/// else the sum of its entities' writes/s, stated when every one is (else the traffic's default
/// stands in).
pub(crate) fn records(model: &Model, c: &Consumer) -> (f64, bool) {
    if let Some(rate) = stated_rate(model, c) {
        return (rate, true);
    }
    c.entities.iter().fold((0.0, true), |(sum, all), entity| {
        let (writes, stated) = model.traffic.writes_per_second(entity);
        (sum + writes, all && stated)
    })
}

/// Records/s consumer `c` handles, when the model has traffic and every figure is stated.
fn stated_records(model: &Model, c: &Consumer) -> Option<f64> {
    let (rate, stated) = records(model, c);
    (model.traffic.declared && stated).then_some(rate)
}

/// The `reads_per_second` the traffic states for consumer `c`'s read `pattern`.
fn stated_reads(model: &Model, c: &Consumer, pattern: &str) -> Option<f64> {
    model
        .traffic
        .consumers
        .get(&c.name)
        .and_then(|t| t.reads_per_second.get(pattern).copied())
}

/// Calls/s consumer `c` runs read `pattern`: its stated `reads_per_second`, else once per
/// record when its record rate is stated.
fn reads_of(model: &Model, c: &Consumer, pattern: &str) -> Option<f64> {
    stated_reads(model, c, pattern).or_else(|| stated_records(model, c))
}

/// Calls/s consumers run read pattern `pattern`: for each consumer that lists it in `reads`,
/// the rate its traffic states for it, else once per record when its record rate is stated;
/// `None` when there is none.
pub(crate) fn read_rate(model: &Model, pattern: &str) -> Option<f64> {
    model
        .consumers
        .iter()
        .filter(|c| c.reads.iter().any(|r| r == pattern))
        .filter_map(|c| reads_of(model, c, pattern))
        .reduce(|a, b| a + b)
}

/// How consumers' reads of `pattern` are counted, for a note: at the rates their traffic
/// states, once per record, or both.
pub(crate) fn read_basis(model: &Model, pattern: &str) -> &'static str {
    let (mut stated, mut per_record) = (false, false);
    for c in model
        .consumers
        .iter()
        .filter(|c| c.reads.iter().any(|r| r == pattern))
    {
        if stated_reads(model, c, pattern).is_some() {
            stated = true;
        } else {
            per_record = true;
        }
    }
    match (stated, per_record) {
        (true, false) => "at the rate their traffic states",
        (true, true) => "at the rate their traffic states, else once per record",
        _ => "once per record",
    }
}

/// The note on a consumer whose records are its entities' writes: an upper bound, and how to
/// state what it handles (`reads_per_second` only for the reads that state none).
pub(crate) fn bound_note(model: &Model, c: &Consumer) -> Option<String> {
    if stated_rate(model, c).is_some() || stated_records(model, c).is_none() {
        return None;
    }
    // The reads it lists that state no rate yet.
    let each: Vec<String> = c
        .reads
        .iter()
        .filter(|r| stated_reads(model, c, r).is_none())
        .map(|r| format!("{r} = N"))
        .collect();
    let reads = if each.is_empty() {
        String::new()
    } else {
        format!(" and `reads_per_second = {{ {} }}`", each.join(", "))
    };
    Some(format!(
        "consumer `{}`: its records/s are its entities' writes/s, an upper bound (its events and filter are not modelled); state what its handler gets under [traffic.consumers.{}] as `records_per_second`{reads}",
        c.name, c.name
    ))
}

/// Whether write pattern `p` writes an item of `entity` (itself, or an action of it).
fn writes_entity(model: &Model, p: &Pattern, entity: &str) -> bool {
    model
        .entity(entity)
        .is_some_and(|e| write::writes_item(model, p, e).is_some())
}

/// Whether `p` is a write pattern some consumer lists in `writes`.
pub(crate) fn runs_write(model: &Model, p: &Pattern) -> bool {
    p.is_write() && model.consumers.iter().any(|c| c.writes.contains(&p.name))
}

/// The items/s consumers write of `entity`, and whether every figure is stated: for each
/// consumer whose write patterns write it, the stated `writes_per_second` of those patterns,
/// plus one item per record it handles for those that state none. `None` when no consumer
/// writes it.
pub(crate) fn entity_items(model: &Model, entity: &str) -> Option<(f64, bool)> {
    let mut found: Option<(f64, bool)> = None;
    for c in &model.consumers {
        let mut writers = c
            .writes
            .iter()
            .filter_map(|n| model.pattern(n))
            .filter(|p| writes_entity(model, p, entity))
            .peekable();
        if writers.peek().is_none() {
            continue;
        }
        let (mut items, mut stated, mut per_record) = (0.0, true, false);
        for p in writers {
            match model
                .traffic
                .patterns
                .get(&p.name)
                .and_then(|t| t.writes_per_second)
            {
                Some(rate) => items += rate,
                None => per_record = true,
            }
        }
        if per_record {
            let (rate, known) = records(model, c);
            items += rate;
            stated &= known;
        }
        let (sum, all) = found.unwrap_or((0.0, true));
        found = Some((sum + items, all && stated));
    }
    found
}

/// Items of `entity` one call of `p` writes: an action's `count` (1 when unbounded: the most
/// calls), summed over its entries; 1 for a single-item write.
fn items_per_call(p: &Pattern, entity: &str) -> u64 {
    match p.operation {
        Operation::TransactWrite | Operation::BatchWrite => p
            .writes
            .iter()
            .filter(|w| w.entity == entity)
            .map(|w| w.count.unwrap_or(1))
            .fold(0, u64::saturating_add)
            .max(1),
        _ => 1,
    }
}

/// Fills the per-second figures of each consumer write pattern that states no rate of its
/// own: the entity writes priced as it (so its row and the totals agree), over the fewest calls
/// that write those items. A pattern none is priced as keeps `-`, with a note naming where its
/// items are priced.
pub(crate) fn write_rows(model: &Model, patterns: &mut [PatternCost], entities: &[EntityWrites]) {
    for row in patterns
        .iter_mut()
        .filter(|r| r.requests_per_second.is_none())
    {
        let Some(p) = model.pattern(&row.name).filter(|p| runs_write(model, p)) else {
            continue;
        };
        let priced: Vec<&EntityWrites> =
            entities.iter().filter(|w| w.costed_as == p.name).collect();
        let by = model
            .consumers
            .iter()
            .filter(|c| c.writes.contains(&p.name))
            .map(|c| format!("`{}`", c.name))
            .collect::<Vec<_>>()
            .join(", ");
        if priced.is_empty() {
            row.call
                .notes
                .extend(priced_elsewhere(model, p, entities, &by));
            continue;
        }
        let calls = priced
            .iter()
            .map(|w| w.writes_per_second / num::to_f64(items_per_call(p, &w.entity)))
            .fold(0.0, f64::max);
        let wcu: f64 = priced.iter().map(|w| w.per_second.total).sum();
        let items: Vec<String> = priced
            .iter()
            .map(|w| format!("`{}` {}/s", w.entity, number(w.writes_per_second)))
            .collect();
        row.call.notes.push(format!(
            "run by consumer {by}: per second, the items it writes at their entity rates ({}), {} WCU/s over at least {} calls/s",
            items.join(", "),
            number(wcu),
            number(calls)
        ));
        row.requests_per_second = Some(calls);
        row.rcu_per_second = Some(0.0);
        row.wcu_per_second = Some(wcu);
    }
}

/// The note on a consumer write pattern the entity writes price none of its items as: where
/// they are priced instead; `None` when nothing it writes is priced.
fn priced_elsewhere(
    model: &Model,
    p: &Pattern,
    entities: &[EntityWrites],
    by: &str,
) -> Option<String> {
    let elsewhere: Vec<String> = entities
        .iter()
        .filter(|w| writes_entity(model, p, &w.entity))
        .map(|w| format!("`{}` as `{}`", w.entity, w.costed_as))
        .collect();
    (!elsewhere.is_empty()).then(|| {
        format!(
            "run by consumer {by}: the items it writes are priced in the entity writes, {}",
            elsewhere.join(", ")
        )
    })
}

/// The note on a read pattern's row that consumers run it too: how often, and besides what.
pub(crate) fn read_note(model: &Model, p: &Pattern, stated: Option<f64>) -> Option<String> {
    let runs: Vec<String> = model
        .consumers
        .iter()
        .filter(|c| c.reads.contains(&p.name))
        .filter_map(|c| match stated_reads(model, c, &p.name) {
            Some(rate) => Some(format!(
                "`{}` at the {} reads/s its traffic states",
                c.name,
                number(rate)
            )),
            None => {
                let records = stated_records(model, c)?;
                Some(format!(
                    "`{}` once per record ({} records/s)",
                    c.name,
                    number(records)
                ))
            }
        })
        .collect();
    if runs.is_empty() {
        return None;
    }
    let besides = stated.map_or_else(String::new, |s| {
        format!(", besides the {} reads/s stated", number(s))
    });
    Some(format!(
        "run by consumer{} {}{besides}",
        if runs.len() > 1 { "s" } else { "" },
        runs.join(", ")
    ))
}

/// Each consumer's reads and writes, priced from the pattern rows: a read at its stated rate or
/// its records/s, a write as its row (shared by records/s when several consumers list it).
pub(crate) fn costs(model: &Model, rows: &[PatternCost], prices: &PriceTable) -> Vec<ConsumerCost> {
    let row = |name: &str| rows.iter().find(|r| r.name == name);
    model
        .consumers
        .iter()
        .map(|c| {
            let records = stated_records(model, c);
            let mut patterns = Vec::new();
            for r in c.reads.iter().filter_map(|n| row(n)) {
                let rate = reads_of(model, c, &r.name);
                patterns.push(ConsumerPattern {
                    pattern: r.name.clone(),
                    kind: "read".to_string(),
                    calls_per_second: rate.map(|n| n * num::to_f64(r.call.requests.max(1))),
                    rcu_per_second: rate.map(|n| n * r.call.rcu.total),
                    wcu_per_second: rate.map(|_| 0.0),
                });
            }
            for w in c.writes.iter().filter_map(|n| row(n)) {
                let share = write_share(model, c, &w.name);
                patterns.push(ConsumerPattern {
                    pattern: w.name.clone(),
                    kind: "write".to_string(),
                    calls_per_second: w.requests_per_second.map(|n| n * share),
                    rcu_per_second: w.rcu_per_second.map(|n| n * share),
                    wcu_per_second: w.wcu_per_second.map(|n| n * share),
                });
            }
            let rcu: f64 = patterns.iter().filter_map(|p| p.rcu_per_second).sum();
            let wcu: f64 = patterns.iter().filter_map(|p| p.wcu_per_second).sum();
            ConsumerCost {
                consumer: c.name.clone(),
                records_per_second: records,
                records_upper_bound: stated_rate(model, c).is_none(),
                patterns,
                rcu_per_second: rcu,
                wcu_per_second: wcu,
                on_demand_monthly: on_demand_month(rcu, wcu, prices),
            }
        })
        .collect()
}

/// The part of write pattern `pattern`'s row that consumer `c` runs: its share of the records
/// of every consumer that lists it (all of it when it alone does).
fn write_share(model: &Model, c: &Consumer, pattern: &str) -> f64 {
    let listing: Vec<&Consumer> = model
        .consumers
        .iter()
        .filter(|o| o.writes.iter().any(|w| w == pattern))
        .collect();
    let all: f64 = listing.iter().map(|o| records(model, o).0).sum();
    match listing.len() {
        0 | 1 => 1.0,
        n if all <= 0.0 => 1.0 / num::to_f64(num::count(n)),
        _ => records(model, c).0 / all,
    }
}
