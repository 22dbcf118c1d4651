//! Capacity rules: MT006 hot partitions, MT011 transaction, item and item-collection size limits.

use monotable_model::{
    Attribute, AttributeType, Condition, IndexKind, KeyTemplate, Model, Operation, RelationKind,
    TimestampFormat,
};

use super::{entity_attr, keys::key_match, pattern_attr, where_};
use crate::diagnostic::{Diagnostic, Rule};

/// Per-partition write limit (WCU/s).
pub const PARTITION_WCU: f64 = 1000.0;
/// Per-partition read limit (RCU/s).
pub const PARTITION_RCU: f64 = 3000.0;
const MAX_TRANSACT_ACTIONS: u64 = 100;
const MAX_TRANSACT_BYTES: u64 = 4 * 1024 * 1024;
const MAX_ITEM_BYTES: u64 = 400 * 1024;
const MAX_COLLECTION_BYTES: u64 = 10 * 1024 * 1024 * 1024;

pub(crate) fn check(model: &Model, out: &mut Vec<Diagnostic>) {
    hot_writes(model, out);
    hot_patterns(model, out);
    transactions(model, out);
    item_sizes(model, out);
    collections(model, out);
}

/// How many partitions a burst of writes to this template spreads over, when that is
/// small: `None` means high cardinality (ids). Enums, booleans and day buckets count
/// as 1: every new item can land on the same value (all new orders are `PENDING`).
fn spread<'a>(
    t: &'a KeyTemplate,
    attr: &dyn Fn(&str) -> Option<&'a Attribute>,
) -> Option<(u64, String)> {
    let mut total: u64 = 1;
    let mut why = Vec::new();
    for var in t.variables() {
        let a = attr(var)?;
        let n = match (a.cardinality, a.ty) {
            (Some(c), _) => c.max(1),
            (None, AttributeType::Enum) => {
                why.push(format!(
                    "`{var}` is an enum: new items can all take one value, and a terminal value's partition only grows"
                ));
                1
            }
            (None, AttributeType::Boolean) => 1,
            (None, AttributeType::Timestamp) if a.format == Some(TimestampFormat::Date) => {
                why.push(format!("`{var}` is a day: all of today's writes share it"));
                1
            }
            _ => return None,
        };
        total = total.saturating_mul(n);
    }
    if t.is_constant() {
        why.push("the key is a constant".to_string());
    }
    Some((total, why.join("; ")))
}

fn wcu(model: &Model, entity: &str) -> f64 {
    (model.traffic.item_size_bytes(entity).div_ceil(1024)).max(1) as f64
}

fn shard_help(t: &KeyTemplate, needed: f64) -> String {
    let n = ((needed * 2.0).ceil() as u64)
        .max(4)
        .checked_next_power_of_two()
        .unwrap_or(u64::MAX);
    format!(
        "write-shard the key: `{t}#{{shard}}` with `shard` = hash(id) % {n} (declare `shard` with `cardinality = {n}`), and query the {n} shards in parallel; for time ranges, bucket by day as well (`...#{{day}}#{{shard}}`)"
    )
}

fn hot_writes(model: &Model, out: &mut Vec<Diagnostic>) {
    for e in &model.entities {
        let (writes, stated) = model.traffic.writes_per_second(&e.name);
        for keys in &e.index_keys {
            let Some((n, why)) = spread(&keys.pk.template, &|v| entity_attr(e, v)) else {
                continue;
            };
            let rate = writes * wcu(model, &e.name) / n as f64;
            if rate <= PARTITION_WCU {
                continue;
            }
            let msg = format!(
                "hot partition: `{}` writes ~{rate:.0} WCU/s into one `{}` partition of {}",
                e.name,
                keys.pk.attribute,
                where_(keys.index.as_deref())
            );
            let d = if stated {
                Diagnostic::error(Rule::HotPartition, msg, keys.pk.span.clone())
            } else {
                Diagnostic::warning(Rule::HotPartition, msg, keys.pk.span.clone())
            };
            out.push(
                d.label(format!(
                    "`{}` has at most {n} live value(s)",
                    keys.pk.template
                ))
                .note(format!("{why}; one partition takes at most 1,000 WCU/s"))
                .note(rate_source(model, &e.name, writes, stated))
                .help(shard_help(&keys.pk.template, rate / PARTITION_WCU)),
            );
        }
    }
}

fn rate_source(model: &Model, entity: &str, writes: f64, stated: bool) -> String {
    let size = model.traffic.item_size_bytes(entity);
    if stated {
        format!("from the traffic section: {writes} writes/s of ~{size} B items")
    } else {
        format!(
            "no traffic figure for `{entity}`: assuming the default of {writes} writes/s of ~{size} B items (state real figures under [traffic.entities.{entity}])"
        )
    }
}

fn hot_patterns(model: &Model, out: &mut Vec<Diagnostic>) {
    for p in &model.patterns {
        if !p.is_read() {
            continue;
        }
        let idx = p.index_name();
        if model.key_schema(idx).is_none() {
            continue;
        }
        let Some(pk) = &p.pk else { continue };
        let Condition::Eq(t) = &pk.condition else {
            continue;
        };
        let Some((n, why)) = spread(t, &|v| pattern_attr(model, p, v)) else {
            continue;
        };
        // Reads: every request goes to one partition.
        if let Some(traffic) = model.traffic.patterns.get(&p.name)
            && let Some(rps) = traffic.reads_per_second
        {
            let size: u64 = p
                .returns
                .iter()
                .map(|r| model.traffic.item_size_bytes(&r.name))
                .max()
                .unwrap_or(model.traffic.default_item_size_bytes);
            let items = traffic.items_per_read.or(p.limit).unwrap_or(1).max(1);
            let bytes = (items.saturating_mul(size)).min(1024 * 1024);
            let per =
                bytes.div_ceil(4096).max(1) as f64 * if p.consistent_read { 1.0 } else { 0.5 };
            let rate = rps * per;
            if rate > PARTITION_RCU {
                out.push(
                    Diagnostic::error(
                        Rule::HotPartition,
                        format!(
                            "hot partition: `{}` reads ~{rate:.0} RCU/s from one `{}` partition",
                            p.name, pk.attribute
                        ),
                        pk.span.clone(),
                    )
                    .note(format!("{why}; one partition serves at most 3,000 RCU/s"))
                    .help("cache the result, or shard the key and spread reads over the shards"),
                );
            }
        }
        // Writes the pattern implies: returned entities that do not yet write this key.
        for r in &p.returns {
            let Some(e) = model.entity(&r.name) else {
                continue;
            };
            if let Some(k) = e.key(idx)
                && key_match(model, p, e, k).0
            {
                continue; // checked on the entity's own key
            }
            let (writes, stated) = model.traffic.writes_per_second(&e.name);
            let rate = writes * wcu(model, &e.name) / n as f64;
            if rate > PARTITION_WCU {
                let msg = format!(
                    "hot partition: every `{}` would be written to the one `{}` partition `{t}` ({rate:.0} WCU/s)",
                    e.name, pk.attribute
                );
                let d = if stated {
                    Diagnostic::error(Rule::HotPartition, msg, pk.span.clone())
                } else {
                    Diagnostic::warning(Rule::HotPartition, msg, pk.span.clone())
                };
                out.push(
                    d.note(format!("{why}; one partition takes at most 1,000 WCU/s"))
                        .note(rate_source(model, &e.name, writes, stated))
                        .help(shard_help(t, rate / PARTITION_WCU)),
                );
            }
        }
    }
}

fn transactions(model: &Model, out: &mut Vec<Diagnostic>) {
    for p in model
        .patterns
        .iter()
        .filter(|p| p.operation == Operation::TransactWrite)
    {
        let unbounded: Vec<&str> = p
            .writes
            .iter()
            .filter(|w| w.count.is_none())
            .map(|w| w.entity.as_str())
            .collect();
        if !unbounded.is_empty() {
            out.push(
                Diagnostic::error(
                    Rule::SizeLimit,
                    format!("transaction `{}` can exceed 100 actions: it writes one `{}` per input with no upper bound", p.name, unbounded.join("`, `")),
                    p.operation_span.clone(),
                )
                .note("TransactWriteItems takes at most 100 actions and 4 MB; larger inputs fail as a whole")
                .help(format!(
                    "bound the input (e.g. `count = 50` with a matching `max` on the relation) and reject larger requests, or write the `{}` items outside the transaction after a guarded header write",
                    unbounded.join("`, `")
                )),
            );
            continue;
        }
        let actions: u64 = p
            .writes
            .iter()
            .filter_map(|w| w.count)
            .fold(0u64, u64::saturating_add);
        let bytes: u64 = p
            .writes
            .iter()
            .map(|w| {
                w.count
                    .unwrap_or(0)
                    .saturating_mul(model.traffic.item_size_bytes(&w.entity))
            })
            .fold(0u64, u64::saturating_add);
        if actions > MAX_TRANSACT_ACTIONS || bytes > MAX_TRANSACT_BYTES {
            out.push(
                Diagnostic::error(
                    Rule::SizeLimit,
                    format!(
                        "transaction `{}` can exceed DynamoDB's limits: {actions} actions, ~{} KB",
                        p.name,
                        bytes / 1024
                    ),
                    p.operation_span.clone(),
                )
                .note("TransactWriteItems takes at most 100 actions and 4 MB")
                .help("lower the per-entity `count`s, or split the write"),
            );
        }
    }
}

fn item_sizes(model: &Model, out: &mut Vec<Diagnostic>) {
    for e in &model.entities {
        let size = model.traffic.item_size_bytes(&e.name);
        if size > MAX_ITEM_BYTES {
            let span = model
                .traffic
                .entities
                .get(&e.name)
                .map_or(e.span.clone(), |t| t.span.clone());
            out.push(
                Diagnostic::error(
                    Rule::SizeLimit,
                    format!(
                        "`{}` items can exceed 400 KB (~{} KB estimated)",
                        e.name,
                        size / 1024
                    ),
                    span,
                )
                .help("move large parts to their own items or to S3 with a pointer"),
            );
        }
        for a in &e.attributes {
            let unbounded = matches!(
                a.ty,
                AttributeType::List | AttributeType::Map | AttributeType::Set
            ) && a.max_items.is_none();
            if unbounded {
                out.push(
                    Diagnostic::warning(
                        Rule::SizeLimit,
                        format!("`{}.{}` has no `max_items`, so a `{}` item can grow past 400 KB", e.name, a.name, e.name),
                        a.span.clone(),
                    )
                    .help("bound it with `max_items`, or store the elements as their own items in the collection"),
                );
            }
        }
    }
}

fn collections(model: &Model, out: &mut Vec<Diagnostic>) {
    if !model.indexes.iter().any(|i| i.kind == IndexKind::Local) {
        return;
    }
    for e in &model.entities {
        for r in e
            .relations
            .iter()
            .filter(|r| r.kind == RelationKind::Many && r.index.is_none())
        {
            let size = model.traffic.item_size_bytes(&r.entity);
            let too_big = match r.max {
                None => true,
                Some(max) => max.saturating_mul(size) > MAX_COLLECTION_BYTES,
            };
            if too_big {
                out.push(
                    Diagnostic::error(
                        Rule::SizeLimit,
                        format!("the item collection of `{}` can exceed 10 GB on a table with a local secondary index", e.name),
                        r.span.clone(),
                    )
                    .note(format!("`{}` holds {} `{}` items; with an LSI, one partition key value is capped at 10 GB", e.name, r.max.map_or("unbounded".to_string(), |m| m.to_string()), r.entity))
                    .help("bound the relation with `max`, replace the LSI with a GSI, or split the collection by time bucket"),
                );
            }
        }
    }
}
