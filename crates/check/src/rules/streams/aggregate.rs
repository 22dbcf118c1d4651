//! MT021 hot aggregate: an item a consumer's writes keep (a per-day or per-status total) whose
//! partition key has few live values takes every record the consumer handles: past one
//! partition's 1,000 WCU/s it throttles, and the stream backs up. The fix is a sharded counter.

use monotable_model::{Consumer, Model, Operation, Pattern};

use super::super::capacity::{PARTITION_WCU, Suggestion, spread, suggest_for_writer, wcu};
use super::pattern_events;
use crate::diagnostic::{Diagnostic, Rule};
use crate::num;

/// The rate the consumer runs `p` at, calls/s, and whether the figures were stated: the
/// pattern's own `writes_per_second`, else once per record the consumer handles (its stated
/// `records_per_second`, else every write of the consumed entities).
fn input_rate(model: &Model, c: &Consumer, p: &Pattern) -> (f64, bool, String) {
    if let Some(rate) = model
        .traffic
        .patterns
        .get(&p.name)
        .and_then(|t| t.writes_per_second)
    {
        return (
            rate,
            true,
            format!("from the traffic section: `{}` runs {rate} times/s", p.name),
        );
    }
    if let Some(rate) = model
        .traffic
        .consumers
        .get(&c.name)
        .and_then(|t| t.records_per_second)
    {
        return (
            rate,
            true,
            format!(
                "from the traffic section: `{}` handles {rate} records/s and runs `{}` once per record",
                c.name, p.name
            ),
        );
    }
    let mut total = 0.0;
    let mut stated = true;
    let mut parts = Vec::new();
    for entity in &c.entities {
        let (rate, known) = model.traffic.writes_per_second(entity);
        total += rate;
        stated &= known;
        parts.push(format!(
            "`{entity}` {rate} writes/s{}",
            if known {
                ""
            } else {
                " (the default: no figure stated)"
            }
        ));
    }
    let source = format!(
        "`{}` runs `{}` once per record it handles, at most as often as its entities are written: {}",
        c.name,
        p.name,
        parts.join(" + ")
    );
    (total, stated, source)
}

pub(super) fn hot(model: &Model, c: &Consumer, out: &mut Vec<Diagnostic>) {
    for name in &c.writes {
        let Some(p) = model.pattern(name) else {
            continue;
        };
        let (calls, stated, source) = input_rate(model, c, p);
        for (entity, _) in pattern_events(model, p) {
            let Some(e) = model.entity(&entity) else {
                continue;
            };
            let Some(keys) = e.key(None) else {
                continue;
            };
            let Some(spread) = spread(&keys.pk.template, &|v| e.attribute(v)) else {
                continue;
            };
            let units = calls * wcu(model, &entity);
            let rate = units / num::to_f64(spread.partitions);
            if rate <= PARTITION_WCU {
                continue;
            }
            out.push(
                finding(c, p, &entity, &keys.pk.template.to_string(), rate, stated)
                    .note(spread.note(rate, "WCU/s", "one partition takes at most 1,000 WCU/s"))
                    .note(source.clone())
                    .help(shards(
                        &keys.pk.template.to_string(),
                        suggest_for_writer(model, &entity, &keys.pk.span, 0.0),
                    )),
            );
        }
    }
}

fn finding(
    c: &Consumer,
    p: &Pattern,
    entity: &str,
    key: &str,
    rate: f64,
    stated: bool,
) -> Diagnostic {
    let message = format!(
        "consumer `{}` writes ~{rate:.0} WCU/s into one partition of `{entity}` with `{}`: a hot aggregate",
        c.name, p.name
    );
    let span = c.write_span(&p.name);
    let d = if stated {
        Diagnostic::error(Rule::HotAggregate, message, span)
    } else {
        Diagnostic::warning(Rule::HotAggregate, message, span)
    };
    let what = if p.operation == Operation::UpdateItem {
        "every record updates the same item"
    } else {
        "every record writes to the same partition"
    };
    d.label(format!("`{key}`: {what}"))
}

/// The sharded counter the traffic needs: [`suggest_for_writer`]'s count, the fewest that
/// carry the key's writes and reads with the model's `shard_headroom`.
fn shards(key: &str, n: Option<Suggestion>) -> String {
    let Some(sized) = n else {
        return "no shard count carries it: split the aggregate over keys of their own".to_string();
    };
    let (n, how) = (sized.shards, sized.how());
    format!(
        "shard the counter: write `{key}#{{shard}}` with `shard` = hash(the record's key) % {n} (declare it with `cardinality = {n}`: the fewest shards that carry the traffic {how}), so a redelivered record lands on the same item, and sum the {n} items when reading"
    )
}
