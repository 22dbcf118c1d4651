//! MT017 oversized shards: a sharded partition key whose declared traffic, with the stated
//! headroom, fits in fewer shards; the numbers both ways, and what the extra shards cost each
//! read of the key.

use monotable_model::limits::thousands;
use monotable_model::{Model, Operation, Pattern};
use rust_decimal::prelude::ToPrimitive;

use std::ops::Range;

use super::reads::{ReadPlace, Reader, readers};
use super::sizing::{Suggestion, shards_needed, suggest};
use super::summed::{Place, Writer, writers};
use super::{PARTITION_RCU, PARTITION_WCU, partition_names, partition_reads, wcu};
use crate::cost::{PriceTable, reads_per_month};
use crate::diagnostic::{Diagnostic, Rule};
use crate::num;
use crate::rules::{listing, where_};

/// MT017: every sharded key whose writers all state their rates, sharded wider than its
/// declared traffic with the headroom needs.
pub(super) fn oversized_shards(model: &Model, out: &mut Vec<Diagnostic>) {
    let writers = writers(model);
    let readers = readers(model);
    let mut seen: Vec<(Option<&str>, String, String)> = Vec::new();
    for w in &writers {
        let shards = w.spread.partitions;
        if w.spread.shards.is_empty() || shards <= 1 {
            continue;
        }
        let id = (w.index, w.key.clone(), w.written_as());
        if seen.contains(&id) {
            continue;
        }
        seen.push(id);
        let load = Load::at_writer(model, &writers, &readers, w);
        if !load.writers.iter().all(|o| o.stated) {
            // A default rate is a guess: no advice to shrink on a guess.
            continue;
        }
        let needed = load.needed(model.traffic.shard_headroom).unwrap_or(shards);
        if needed < shards {
            out.push(finding(model, w, &load, needed));
        }
    }
}

/// The shard count to suggest for the key the writer of `entity` at `span` writes (its
/// template's span, or a native index's): [`suggest`] for every writer sharing the key, every
/// move and every stated reader, with `extra_writes` WCU/s more and the model's
/// `shard_headroom`.
pub(in crate::rules) fn suggest_for_writer(
    model: &Model,
    entity: &str,
    span: &Range<usize>,
    extra_writes: f64,
) -> Option<Suggestion> {
    let writers = writers(model);
    let readers = readers(model);
    let headroom = model.traffic.shard_headroom;
    let Some(w) = writers
        .iter()
        .find(|w| w.entity.name == entity && w.span == *span)
    else {
        return suggest(extra_writes, &|_| 0.0, headroom);
    };
    let load = Load::at_writer(model, &writers, &readers, w);
    suggest(load.writes + extra_writes, &|k| load.reads(k), headroom)
}

/// The shard count to suggest for the key `pattern` reads: [`suggest`] for every writer of it
/// and every stated reader sharing it, with `extra_writes` WCU/s more (the writes a read
/// implies) and the model's `shard_headroom`.
pub(super) fn suggest_for_reader(
    model: &Model,
    pattern: &Pattern,
    extra_writes: f64,
) -> Option<Suggestion> {
    let writers = writers(model);
    let readers = readers(model);
    let headroom = model.traffic.shard_headroom;
    let Some(r) = readers.iter().find(|r| std::ptr::eq(r.pattern, pattern)) else {
        return suggest(extra_writes, &|_| 0.0, headroom);
    };
    let writing: Vec<&Writer<'_>> = writers.iter().filter(|w| reads_key(r, w)).collect();
    let reading: Vec<&Reader<'_>> = readers
        .iter()
        .filter(|o| std::ptr::eq(o.pattern, pattern) || r.shares(o))
        .collect();
    let load = Load::of(model, &writing, &reading);
    suggest(load.writes + extra_writes, &|k| load.reads(k), headroom)
}

/// Whether `r` reads the key `w` writes: the same key, with renders in common, or the same
/// native index.
fn reads_key(r: &Reader<'_>, w: &Writer<'_>) -> bool {
    if r.index != w.index || r.key != w.key {
        return false;
    }
    match (&r.place, &w.place) {
        (ReadPlace::Template(_, a), Place::Template(_, b)) => a.overlaps(b),
        (ReadPlace::Native(a, _), Place::Native(b, _)) => a.name == b.name,
        _ => false,
    }
}

/// The traffic into one value of a sharded key, as it would land unsharded.
struct Load<'a, 'm> {
    model: &'m Model,
    writers: Vec<&'a Writer<'m>>,
    /// Updates with a stated rate that move an item to another value of the key: the old
    /// value's index entry is deleted as the new one is written, WCU/s each.
    moves: Vec<(&'m Pattern, f64)>,
    readers: Vec<&'a Reader<'m>>,
    /// WCU/s into one value unsharded: every writer's writes and every move.
    writes: f64,
}

impl<'a, 'm> Load<'a, 'm> {
    fn of(model: &'m Model, writers: &[&'a Writer<'m>], readers: &[&'a Reader<'m>]) -> Self {
        let moves: Vec<(&Pattern, f64)> = writers.iter().flat_map(|w| moves(model, w)).collect();
        let writes = writers.iter().map(|w| w.all).sum::<f64>()
            + moves.iter().map(|(_, rate)| rate).sum::<f64>();
        Load {
            model,
            writers: writers.to_vec(),
            moves,
            readers: readers.to_vec(),
            writes,
        }
    }

    /// RCU/s one partition takes with the key over `shards`: every stated read queries every
    /// shard for its share of the items.
    fn reads(&self, shards: u64) -> f64 {
        self.readers
            .iter()
            .filter_map(|r| partition_reads(self.model, r.pattern, shards))
            .fold(0.0, |sum, l| sum + l.rate)
    }

    /// The load on the key `w` writes: every writer sharing it, every reader reading it.
    fn at_writer(
        model: &'m Model,
        writers: &'a [Writer<'m>],
        readers: &'a [Reader<'m>],
        w: &Writer<'m>,
    ) -> Self {
        let sharing: Vec<&Writer<'_>> = writers
            .iter()
            .filter(|o| (o.entity.name == w.entity.name && o.span == w.span) || w.shares(o))
            .collect();
        let reading: Vec<&Reader<'_>> = readers.iter().filter(|r| reads_key(r, w)).collect();
        Load::of(model, &sharing, &reading)
    }

    /// The fewest shards that carry the load with `headroom` ([`shards_needed`]).
    fn needed(&self, headroom: f64) -> Option<u64> {
        shards_needed(self.writes, &|k| self.reads(k), headroom)
    }
}

/// The updates of `w`'s entity with a stated rate that set an input of its key: each moves an
/// item from one value to another, a delete there and a write here.
fn moves<'m>(model: &'m Model, w: &Writer<'m>) -> Vec<(&'m Pattern, f64)> {
    let inputs: Vec<&str> = match &w.place {
        Place::Template(t, _) => t.variables().collect(),
        Place::Native(index, _) => index
            .partition_keys
            .iter()
            .map(|k| k.name.as_str())
            .collect(),
    };
    model
        .patterns
        .iter()
        .filter(|p| p.operation == Operation::UpdateItem)
        .filter(|p| p.returns.iter().any(|r| r.name == w.entity.name))
        .filter(|p| {
            p.sets
                .as_ref()
                .is_some_and(|s| inputs.iter().any(|v| s.contains(v)))
        })
        .filter_map(|p| {
            let rate = model.traffic.patterns.get(&p.name)?.writes_per_second?;
            Some((p, rate * wcu(model, &w.entity.name)))
        })
        .collect()
}

/// A rate rounded to a whole number, its thousands separated: `1,400`.
fn whole(x: f64) -> String {
    num::ceil_count(x.round()).map_or_else(|| format!("{x:.0}"), thousands)
}

/// `x` as a share of `limit`: `20%`, `2.5%`.
fn percent(x: f64, limit: f64) -> String {
    let p = x * 100.0 / limit;
    if p < 10.0 {
        format!("{p:.1}%")
    } else {
        format!("{p:.0}%")
    }
}

fn plural(n: u64, one: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {one}s")
    }
}

fn finding(model: &Model, w: &Writer<'_>, load: &Load<'_, '_>, needed: u64) -> Diagnostic {
    let now = w.spread.partitions;
    let shard_names: Vec<&str> = w.spread.shards.iter().map(String::as_str).collect();
    let key = match &w.place {
        Place::Template(t, _) => format!("`{t}`"),
        Place::Native(index, _) => partition_names(index),
    };
    let cardinalities: Vec<String> = shard_names
        .iter()
        .filter_map(|s| w.entity.attribute(s))
        .filter_map(|a| {
            a.cardinality
                .map(|c| format!("`{}` has `cardinality = {c}`", a.name))
        })
        .collect();
    let mut d = Diagnostic::warning(
        Rule::OversizedShards,
        format!(
            "{} spread{} {key} of {} over {now} shards; the declared traffic needs {needed}",
            listing(&shard_names),
            if shard_names.len() == 1 { "s" } else { "" },
            where_(w.index)
        ),
        w.span.clone(),
    )
    .label(format!(
        "{}: every read of this key is {now} Queries",
        cardinalities.join(", ")
    ))
    .note(writes_note(model, load))
    .note(reads_note(model, load))
    .note(sizing_note(model, load, now, needed));
    for r in &load.readers {
        d = d.note(cost_note(model, r, now, needed));
    }
    d.help(help(&shard_names, needed))
}

/// What one value takes of writes unsharded, and from whom.
fn writes_note(model: &Model, load: &Load<'_, '_>) -> String {
    let mut from: Vec<String> = load
        .writers
        .iter()
        .map(|w| {
            format!(
                "`{}` {} writes/s of ~{} B ({} WCU each)",
                w.entity.name,
                model.traffic.writes_per_second(&w.entity.name).0,
                model.traffic.item_size_bytes(&w.entity.name),
                wcu(model, &w.entity.name)
            )
        })
        .collect();
    from.extend(load.moves.iter().map(|(p, rate)| {
        format!(
            "`{}` moving items between values (~{rate:.0} WCU/s more)",
            p.name
        )
    }));
    format!(
        "unsharded, one value of the key would take ~{:.0} WCU/s of writes, {} of one partition's 1,000: {}",
        load.writes,
        percent(load.writes, PARTITION_WCU),
        from.join(", ")
    )
}

/// What one value takes of reads unsharded, and from which patterns.
fn reads_note(model: &Model, load: &Load<'_, '_>) -> String {
    if load.readers.is_empty() {
        return "no read pattern reads the key".to_string();
    }
    let from: Vec<String> = load
        .readers
        .iter()
        .map(|r| match partition_reads(model, r.pattern, 1) {
            Some(l) => format!(
                "`{}` {} reads/s of ~{} RCU",
                r.pattern.name, l.rps, l.per_query
            ),
            None => format!("`{}` (no `reads_per_second`: not counted)", r.pattern.name),
        })
        .collect();
    let reads = load.reads(1);
    format!(
        "unsharded, it would serve ~{reads:.0} RCU/s of reads, {} of one partition's 3,000: {}",
        percent(reads, PARTITION_RCU),
        from.join(", ")
    )
}

/// Each shard's load now, and at the needed count with the headroom.
fn sizing_note(model: &Model, load: &Load<'_, '_>, now: u64, needed: u64) -> String {
    let h = model.traffic.shard_headroom;
    let per = |k: u64| load.writes / num::to_f64(k);
    let (w_now, r_now) = (per(now), load.reads(now));
    let (w_need, r_need) = (per(needed) * h, load.reads(needed) * h);
    format!(
        "over {now} shards each partition takes ~{w_now:.1} WCU/s ({}) and ~{r_now:.1} RCU/s ({}); over {} with {h}× headroom (`shard_headroom`), ~{w_need:.0} WCU/s ({}) and ~{r_need:.0} RCU/s ({})",
        percent(w_now, PARTITION_WCU),
        percent(r_now, PARTITION_RCU),
        plural(needed, "shard"),
        percent(w_need, PARTITION_WCU),
        percent(r_need, PARTITION_RCU),
    )
}

/// What the extra shards cost one reading pattern: Queries per read, and at its stated rate,
/// Queries and read units per second and per month, priced on demand.
fn cost_note(model: &Model, r: &Reader<'_>, now: u64, needed: u64) -> String {
    let name = &r.pattern.name;
    let head = format!("`{name}` makes {now} Queries per read where {needed} would do");
    let (Some(at_now), Some(at_need)) = (
        partition_reads(model, r.pattern, now),
        partition_reads(model, r.pattern, needed),
    ) else {
        return format!("{head} (no `reads_per_second` stated to price them)");
    };
    let extra_queries = at_now.rps * num::to_f64(now.saturating_sub(needed));
    let extra_rcu = at_now.rps
        * (num::to_f64(now) * at_now.per_query - num::to_f64(needed) * at_need.per_query);
    let prices = PriceTable::default();
    let month = match reads_per_month(extra_rcu.max(0.0), &prices) {
        Some((units, price)) => format!(
            ", ~{} RCU a month, ~{} {} a month on demand",
            units
                .round()
                .to_u64()
                .map_or_else(|| units.round().to_string(), thousands),
            price,
            prices.currency
        ),
        None => String::new(),
    };
    format!(
        "{head}: ~{} more Queries/s at its {} reads/s, ~{extra_rcu:.1} more RCU/s{month} (each Query is charged at least one 4 KB read unit, half of one when eventually consistent)",
        whole(extra_queries),
        at_now.rps
    )
}

fn help(shards: &[&str], needed: u64) -> String {
    let fewer = match (shards, needed) {
        ([one], 1) => format!(
            "set `cardinality = 1` on `{one}` (or drop `{one}` from the key) and read one partition"
        ),
        ([one], n) => format!("set `cardinality = {n}` on `{one}`"),
        (_, n) => format!(
            "lower the `cardinality` of {} so that their product is {n}",
            listing(shards)
        ),
    };
    format!(
        "{fewer}; or, if the design is for a higher peak, state that peak in `[traffic]` (the writers' `writes_per_second`, the readers' `reads_per_second`) or a larger `shard_headroom`"
    )
}

#[cfg(test)]
mod tests {
    use super::{oversized_shards, percent, plural, whole};

    /// MT017's messages on orders by status sharded `shards` ways, with the traffic sections
    /// `writes` and `traffic`; `pay` moves an order from one status to another.
    fn messages(shards: u32, writes: &str, traffic: &str) -> Vec<String> {
        let text = format!(
            r#"
[table]
name = "Shards"
partition_key = {{ name = "PK", type = "S" }}
sort_key = {{ name = "SK", type = "S" }}

[indexes.GSI1]
partition_key = {{ name = "GSI1PK" }}
sort_key = {{ name = "GSI1SK" }}

[entities.Order]
attributes.orderId = {{ type = "string", required = true }}
attributes.status = {{ type = "enum", values = ["NEW", "PAID"], required = true }}
attributes.shard = {{ type = "integer", required = true, cardinality = {shards} }}
keys.PK = "ORDER#{{orderId}}"
keys.SK = "ORDER"
keys.GSI1PK = "STATUS#{{status}}#{{shard}}"
keys.GSI1SK = "{{orderId}}"

[patterns.pay]
operation = "UpdateItem"
key = {{ PK = "ORDER#{{orderId}}", SK = "ORDER" }}
returns = ["Order"]
sets = ["status"]

{writes}
{traffic}
"#
        );
        let model = monotable_model::parse(&text).expect("model");
        let mut out = Vec::new();
        oversized_shards(&model, &mut out);
        out.into_iter().map(|d| d.message).collect()
    }

    const ORDERS_400: &str =
        "[traffic.entities.Order]\nwrites_per_second = 400\nitem_size_bytes = 1000";

    #[test]
    fn shards_are_sized_to_the_stated_writes_with_the_headroom() {
        // 400 WCU/s, 800 with 2× headroom: one partition.
        assert_eq!(
            messages(4, ORDERS_400, ""),
            [
                "`shard` spreads `STATUS#{status}#{shard}` of index `GSI1` over 4 shards; the declared traffic needs 1"
            ]
        );
        // With 3× headroom, 1,200 WCU/s: two.
        let three = "[traffic]\nshard_headroom = 3\n";
        let msgs = messages(4, ORDERS_400, three);
        assert!(msgs[0].ends_with("needs 2"), "{msgs:?}");
        // Justified, or not sharded at all: silent.
        assert!(messages(2, ORDERS_400, three).is_empty());
        assert!(messages(1, ORDERS_400, "").is_empty());
    }

    #[test]
    fn a_move_between_values_writes_both() {
        // 200 updates/s move an order from `NEW` to `PAID`: 600 WCU/s, 1,200 with headroom.
        let moves = "[traffic.patterns.pay]\nwrites_per_second = 200";
        let msgs = messages(4, ORDERS_400, moves);
        assert!(msgs[0].ends_with("needs 2"), "{msgs:?}");
    }

    #[test]
    fn a_guessed_rate_gives_no_advice() {
        assert!(messages(8, "", "").is_empty());
        assert!(messages(8, "[traffic]\ndefault_item_size_bytes = 500", "").is_empty());
        // A stated default is stated.
        let stated = "[traffic]\ndefault_writes_per_second = 10";
        assert_eq!(messages(8, stated, "").len(), 1);
    }

    #[test]
    fn figures_read_well() {
        assert_eq!(percent(200.0, 1000.0), "20%");
        assert_eq!(percent(25.0, 1000.0), "2.5%");
        assert_eq!(plural(1, "shard"), "1 shard");
        assert_eq!(plural(8, "shard"), "8 shards");
        assert_eq!(whole(1400.0), "1,400");
        assert_eq!(whole(0.4), "0");
    }
}
