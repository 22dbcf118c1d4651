//! Capacity rules: MT006 hot partitions (writers summed in `summed.rs`, readers in `reads.rs`),
//! MT017 shards sized to the traffic (`shards.rs`), MT011 transaction, item and item-collection size limits.

use monotable_model::{
    Attribute, AttributeType, EntityDecl, Index, IndexKind, KeyClause, KeyTemplate, KeyTest,
    MAX_TRANSACTION_ACTIONS, Model, Operation, Pattern, PatternTraffic, Relation, RelationKind,
    Write,
};

use monotable_model::limits::thousands;

use super::lookup::Lookup;
use super::{entity_attr, keys::key_match, listing, native::native_index, pattern_attr, where_};
use crate::cost::{self, ReadConsistency};
use crate::diagnostic::{Diagnostic, Rule};
use crate::num;

mod reads;
mod shards;
mod sizing;
mod summed;

pub(super) use shards::suggest_for_writer;
pub(super) use sizing::Suggestion;

/// Per-partition write limit (WCU/s).
pub const PARTITION_WCU: f64 = 1000.0;
/// Per-partition read limit (RCU/s).
pub const PARTITION_RCU: f64 = 3000.0;
const MAX_TRANSACT_BYTES: u64 = 4 * 1024 * 1024;
const MAX_COLLECTION_BYTES: u64 = 10 * 1024 * 1024 * 1024;

pub(crate) fn check(model: &Model, _lookup: &Lookup<'_>, out: &mut Vec<Diagnostic>) {
    hot_writes(model, out);
    summed::summed_writes(model, out);
    reads::summed_reads(model, out);
    shards::oversized_shards(model, out);
    hot_patterns(model, out);
    transactions(model, out);
    unbounded_collections(model, out);
    collections(model, out);
}

/// How a key template spreads a burst of traffic: over how many partitions, why that few, and
/// the variables already declared as shards (`cardinality`).
pub(super) struct Spread {
    pub(super) partitions: u64,
    why: Vec<String>,
    shards: Vec<String>,
}

/// The partition key a rule speaks of: a template, or a native index's partition attributes.
#[derive(Clone, Copy)]
pub(super) enum KeyForm<'a> {
    Template(&'a KeyTemplate),
    Native(&'a Index),
}

/// How many partitions a burst of traffic to this template spreads over, when that is small:
/// `None` means high cardinality (ids).
pub(super) fn spread<'a>(
    t: &'a KeyTemplate,
    attr: &dyn Fn(&str) -> Option<&'a Attribute>,
) -> Option<Spread> {
    spread_of(t.variables(), t.is_constant(), attr)
}

/// How many partitions a burst of traffic to a key made of `vars` spreads over. Enums,
/// booleans and day buckets count as 1: every new item can land on the same value (all new
/// orders are `PENDING`); an attribute with `cardinality = N` counts N; several multiply.
fn spread_of<'a>(
    vars: impl Iterator<Item = &'a str>,
    constant: bool,
    attr: &dyn Fn(&str) -> Option<&'a Attribute>,
) -> Option<Spread> {
    let vars: Vec<&str> = vars.collect();
    let mut s = Spread {
        partitions: cost::key_shards(vars.iter().copied(), attr)?,
        why: Vec::new(),
        shards: Vec::new(),
    };
    for var in vars {
        let a = attr(var)?;
        match (a.cardinality, a.ty) {
            (Some(c), _) => {
                if !s.shards.iter().any(|x| x == var) {
                    s.shards.push(var.to_string());
                    s.why.push(format!("`{var}` has `cardinality = {c}`"));
                }
            }
            (None, AttributeType::Enum) => s.why.push(format!(
                "`{var}` is an enum: new items can all take one value, and a terminal value's partition only grows"
            )),
            (None, AttributeType::Boolean) => s.why.push(format!(
                "`{var}` is a boolean: new items can all take one value"
            )),
            _ => s
                .why
                .push(format!("`{var}` is a day: all of today's writes share it")),
        }
    }
    if constant {
        s.why.push("the key is a constant".to_string());
    }
    Some(s)
}

/// How many values a native partition key takes, all told (`status` with 5 values × `shard`
/// with `cardinality = 8`: 40), when every attribute says: its `cardinality`, an enum's values,
/// a boolean's two.
fn native_values<'a>(index: &Index, attr: &dyn Fn(&str) -> Option<&'a Attribute>) -> Option<u64> {
    index.partition_keys.iter().try_fold(1u64, |n, k| {
        let a = attr(&k.name)?;
        let values = match a.ty {
            _ if a.cardinality.is_some() => a.cardinality,
            AttributeType::Enum => Some(num::count(a.values.len())),
            AttributeType::Boolean => Some(2),
            _ => None,
        };
        Some(n.saturating_mul(values?.max(1)))
    })
}

/// `` (`status`, `shard`) ``, or `` `status` `` alone, for messages.
fn partition_names(index: &Index) -> String {
    let names: Vec<&str> = index
        .partition_keys
        .iter()
        .map(|k| k.name.as_str())
        .collect();
    match names.as_slice() {
        [one] => format!("`{one}`"),
        _ => format!("({})", listing(&names).replace(" and ", ", ")),
    }
}

impl Spread {
    /// `why` as one clause, what one partition then takes, and `limit`.
    pub(super) fn note(&self, rate: f64, unit: &str, limit: &str) -> String {
        let mut note = self.why.join("; ");
        if self.partitions > 1 {
            note.push_str(&format!(
                ": the traffic spreads over {} partitions, ~{rate:.0} {unit} each",
                self.partitions
            ));
        }
        format!("{note}; {limit}")
    }

    /// `why` as one clause and what one partition takes of reads: every read queries every
    /// shard.
    fn read_note(&self, rate: f64) -> String {
        let mut note = self.why.join("; ");
        if self.partitions > 1 {
            note.push_str(&format!(
                ": each read queries all {} partitions, ~{rate:.0} RCU/s each",
                self.partitions
            ));
        }
        format!("{note}; one partition serves at most 3,000 RCU/s")
    }

    /// The fix: shard the key, or, when it is sharded already, shard it wider, over `n`
    /// partitions ([`sizing::shards_needed`]: the fewest that carry the key's traffic with
    /// `headroom`); `None` when no count does.
    pub(super) fn help(&self, form: KeyForm<'_>, n: Option<Suggestion>) -> String {
        let Some(sized) = n else {
            return format!(
                "no shard count up to {} carries it: split the traffic over keys of their own",
                thousands(sizing::MAX_SHARDS)
            );
        };
        let n = sized.shards;
        let mut how = sized.how();
        if sized.without_headroom {
            how.push_str(" (the key's reads allow no more: every read queries every shard, and each Query is charged at least one read unit)");
        }
        match (self.shards.as_slice(), form) {
            ([], KeyForm::Template(t)) => format!(
                "write-shard the key: `{t}#{{shard}}` with `shard` = hash(id) % {n} (declare `shard` with `cardinality = {n}`: the fewest shards that carry the declared traffic {how}), and query the {n} shards in parallel; for time ranges, bucket by day as well (`...#{{day}}#{{shard}}`)"
            ),
            ([], KeyForm::Native(index)) => {
                let mut keys: Vec<String> = index
                    .partition_keys
                    .iter()
                    .map(|k| format!("{{ name = \"{}\", type = \"{:?}\" }}", k.name, k.ty))
                    .collect();
                keys.push("{ name = \"shard\", type = \"N\" }".to_string());
                format!(
                    "write-shard the key: add a `shard` attribute, hash(id) % {n} (declare it as an integer with `cardinality = {n}`: the fewest shards that carry the declared traffic {how}), and query the {n} shards in parallel:\n[indexes.{}]\npartition_key = [{}]",
                    index.name,
                    keys.join(", ")
                )
            }
            (shards, _) => self.wider(shards, n, &how),
        }
    }

    /// `shard it wider`: over `n` partitions, taking the traffic `how`.
    fn wider(&self, shards: &[String], n: u64, how: &str) -> String {
        let set = match shards {
            [one] => format!("set `cardinality = {n}` on `{one}`"),
            _ => format!(
                "set the `cardinality` of `{}` so that their product is {n}",
                shards.join("`, `")
            ),
        };
        format!(
            "shard it wider: spread it over {n} partitions instead of {} ({set}), which carries the declared traffic {how}",
            self.partitions
        )
    }
}

pub(super) fn wcu(model: &Model, entity: &str) -> f64 {
    num::to_f64(model.traffic.item_size_bytes(entity).div_ceil(1024).max(1))
}

fn hot_writes(model: &Model, out: &mut Vec<Diagnostic>) {
    for e in &model.entities {
        native_writes(model, e, out);
        let (writes, stated) = model.traffic.writes_per_second(&e.name);
        for keys in &e.index_keys {
            let Some(spread) = spread(&keys.pk.template, &|v| entity_attr(e, v)) else {
                continue;
            };
            let rate = writes * wcu(model, &e.name) / num::to_f64(spread.partitions);
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
                    "`{}` has at most {} live value(s)",
                    keys.pk.template, spread.partitions
                ))
                .note(spread.note(rate, "WCU/s", "one partition takes at most 1,000 WCU/s"))
                .note(rate_source(model, &e.name, writes, stated))
                .help(spread.help(
                    KeyForm::Template(&keys.pk.template),
                    shards::suggest_for_writer(model, &e.name, &keys.pk.span, 0.0),
                )),
            );
        }
    }
}

/// Writes of `e` into each native index it is in, spread over the partition attributes.
fn native_writes<'m>(model: &'m Model, e: &'m EntityDecl, out: &mut Vec<Diagnostic>) {
    let (writes, stated) = model.traffic.writes_per_second(&e.name);
    for index in model.indexes.iter().filter(|i| i.native_member(e)) {
        let attr = |v: &str| -> Option<&'m Attribute> { entity_attr(e, v) };
        let names = index.partition_keys.iter().map(|k| k.name.as_str());
        let Some(spread) = spread_of(names, false, &attr) else {
            continue;
        };
        let rate = writes * wcu(model, &e.name) / num::to_f64(spread.partitions);
        if rate <= PARTITION_WCU {
            continue;
        }
        let keys = partition_names(index);
        let msg = format!(
            "hot partition: `{}` writes ~{rate:.0} WCU/s into one {keys} partition of index `{}`",
            e.name, index.name
        );
        let d = if stated {
            Diagnostic::error(Rule::HotPartition, msg, index.span.clone())
        } else {
            Diagnostic::warning(Rule::HotPartition, msg, index.span.clone())
        };
        let label = match native_values(index, &attr) {
            Some(all) if all != spread.partitions => format!(
                "{keys} takes {all} values, but new items can all share {} of them",
                spread.partitions
            ),
            _ => format!("{keys} has at most {} live value(s)", spread.partitions),
        };
        out.push(
            d.label(label)
                .note(spread.note(rate, "WCU/s", "one partition takes at most 1,000 WCU/s"))
                .note(rate_source(model, &e.name, writes, stated))
                .help(spread.help(
                    KeyForm::Native(index),
                    shards::suggest_for_writer(model, &e.name, &index.span, 0.0),
                )),
        );
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

/// Read units of one Query of `p` returning `items` items of the largest returned item size
/// ([`cost::query_units`]: at most one 1 MB page, at least one 4 KB unit, halved when
/// eventually consistent).
fn query_units(model: &Model, p: &Pattern, items: u64) -> f64 {
    let size: u64 = p
        .returns
        .iter()
        .map(|r| model.traffic.item_size_bytes(&r.name))
        .max()
        .unwrap_or(model.traffic.default_item_size_bytes);
    let consistency = if p.consistent_read {
        ReadConsistency::Strong
    } else {
        ReadConsistency::Eventual
    };
    cost::query_units(items.max(1).saturating_mul(size), consistency)
}

/// The items one read of `p` returns: `items_per_read`, or its `limit`, or 1.
fn items_per_read(p: &Pattern, traffic: &PatternTraffic) -> u64 {
    traffic.items_per_read.or(p.limit).unwrap_or(1).max(1)
}

/// A pattern's stated reads as one partition of its key takes them.
#[derive(Clone, Copy)]
struct ReadLoad {
    /// Reads per second (`reads_per_second`, and the consumers' reads).
    rps: f64,
    /// Of them, the reads stream consumers run: at the rate their traffic states, else once
    /// per record.
    consumers: f64,
    /// How the consumers' reads are counted, for the note.
    basis: &'static str,
    /// Queries per read: one per partition the key is sharded over.
    queries: u64,
    /// Read units of each of those Queries.
    per_query: f64,
    /// RCU/s one partition takes: `rps × per_query`.
    rate: f64,
}

/// The reads one partition of `p`'s key takes when the key spreads over `partitions`: a read
/// of a sharded key queries every shard, each Query with its share of the items, so each
/// shard's partition takes the whole read rate. The rate is the stated `reads_per_second` plus,
/// for each stream consumer that lists `p` in its `reads`, the rate its traffic states for the
/// read (`[traffic.consumers.NAME] reads_per_second`), else once per record; `None` without
/// either.
fn partition_reads(model: &Model, p: &Pattern, partitions: u64) -> Option<ReadLoad> {
    let traffic = model.traffic.patterns.get(&p.name);
    let stated = traffic.and_then(|t| t.reads_per_second);
    let consumers = cost::consumer_read_rate(model, &p.name);
    let rps = match (stated, consumers) {
        (Some(a), Some(b)) => a + b,
        (a, b) => a.or(b)?,
    };
    let items = traffic.map_or_else(
        || items_per_read(p, &PatternTraffic::default()),
        |t| items_per_read(p, t),
    );
    let (queries, each) = cost::shard_queries(items, partitions);
    let per_query = query_units(model, p, each);
    Some(ReadLoad {
        rps,
        consumers: consumers.unwrap_or(0.0),
        basis: cost::consumer_read_basis(model, &p.name),
        queries,
        per_query,
        rate: rps * per_query,
    })
}

impl ReadLoad {
    /// Where the figure comes from, for a note.
    fn source(&self) -> String {
        let of_which = if self.consumers > 0.0 {
            format!(
                " ({} of them by stream consumers, {})",
                self.consumers, self.basis
            )
        } else {
            String::new()
        };
        if self.queries > 1 {
            format!(
                "from the traffic section: {} reads/s{of_which}, each {} Queries (one per shard) of ~{} RCU",
                self.rps, self.queries, self.per_query
            )
        } else {
            format!(
                "from the traffic section: {} requests/s{of_which} of ~{} RCU each",
                self.rps, self.per_query
            )
        }
    }
}

/// The partition a read pattern reads: what to call it, where, and its key.
struct ReadKey {
    name: String,
    span: std::ops::Range<usize>,
}

/// Reads: each request reads one partition of each shard; `reads_per_second` is taken by
/// every partition the key spreads over, each with its share of the items.
fn hot_reads(model: &Model, p: &Pattern, key: &ReadKey, spread: &Spread) -> Option<Diagnostic> {
    let load = partition_reads(model, p, spread.partitions)?;
    let rate = load.rate;
    (rate > PARTITION_RCU).then(|| {
        Diagnostic::error(
            Rule::HotPartition,
            format!(
                "hot partition: `{}` reads ~{rate:.0} RCU/s from one {} partition",
                p.name, key.name
            ),
            key.span.clone(),
        )
        .note(spread.read_note(rate))
        .note(load.source())
        .help(reads::read_help(model, &[p], spread, "cache the result"))
    })
}

/// A read pattern over a native index: its partition is every partition attribute's equality.
fn native_reads(model: &Model, p: &Pattern, index: &Index, out: &mut Vec<Diagnostic>) {
    let templates: Vec<&KeyTemplate> = p
        .key
        .iter()
        .filter(|k| !index.is_sort_attribute(&k.attribute))
        .filter_map(|k| match &k.condition {
            KeyTest::Eq(t) => Some(t),
            _ => None,
        })
        .collect();
    let vars = templates.iter().flat_map(|t| t.variables());
    let constant = templates.iter().all(|t| t.is_constant());
    let Some(spread) = spread_of(vars, constant, &|v| pattern_attr(model, p, v)) else {
        return;
    };
    let key = ReadKey {
        name: partition_names(index),
        span: p.key_span(),
    };
    out.extend(hot_reads(model, p, &key, &spread));
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
        if let Some(index) = native_index(model, idx) {
            // Its members' writes are judged on their own attributes; a non-member is MT002.
            native_reads(model, p, index, out);
            continue;
        }
        let Some(pk) = &p.pk else { continue };
        let KeyTest::Eq(t) = &pk.condition else {
            continue;
        };
        let Some(spread) = spread(t, &|v| pattern_attr(model, p, v)) else {
            continue;
        };
        let key = ReadKey {
            name: format!("`{}`", pk.attribute),
            span: pk.span.clone(),
        };
        out.extend(hot_reads(model, p, &key, &spread));
        implied_writes(model, p, pk, t, &spread, out);
    }
}

/// Writes the pattern implies: returned entities that do not yet write this key would have to.
fn implied_writes(
    model: &Model,
    p: &Pattern,
    pk: &KeyClause,
    t: &KeyTemplate,
    spread: &Spread,
    out: &mut Vec<Diagnostic>,
) {
    for r in &p.returns {
        let Some(e) = model.entity(&r.name) else {
            continue;
        };
        if let Some(k) = e.key(p.index_name())
            && key_match(model, p, e, k).0
        {
            continue; // checked on the entity's own key
        }
        let (writes, stated) = model.traffic.writes_per_second(&e.name);
        let rate = writes * wcu(model, &e.name) / num::to_f64(spread.partitions);
        if rate <= PARTITION_WCU {
            continue;
        }
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
            d.note(spread.note(rate, "WCU/s", "one partition takes at most 1,000 WCU/s"))
                .note(rate_source(model, &e.name, writes, stated))
                .help(spread.help(
                    KeyForm::Template(t),
                    shards::suggest_for_reader(model, p, writes * wcu(model, &e.name)),
                )),
        );
    }
}

/// One entry of a transaction's `writes` as a message names it: its action (`addOrderLine`),
/// its alternatives (`takeStock` | `checkProduct`), or in the older form its entity.
fn action_name(w: &Write) -> String {
    match w.patterns.as_slice() {
        [] => format!("`{}`", w.entity),
        names => {
            let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            names.join(" | ")
        }
    }
}

/// MT011: the actions a transaction declares, each entry's `count` (a `one_of` group counted
/// once, whichever alternative runs), at most 100 and 4 MB.
fn transactions(model: &Model, out: &mut Vec<Diagnostic>) {
    for p in model
        .patterns
        .iter()
        .filter(|p| p.operation == Operation::TransactWrite)
    {
        let unbounded: Vec<&Write> = p.writes.iter().filter(|w| w.count.is_none()).collect();
        if let Some(first) = unbounded.first() {
            out.push(unbounded_transaction(p, first, &unbounded));
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
        if actions > MAX_TRANSACTION_ACTIONS || bytes > MAX_TRANSACT_BYTES {
            let counted: Vec<String> = p
                .writes
                .iter()
                .map(|w| format!("{} {}", action_name(w), w.count.unwrap_or(0)))
                .collect();
            let mut d = Diagnostic::error(
                Rule::SizeLimit,
                format!(
                    "transaction `{}` can exceed DynamoDB's limits: {actions} actions, ~{} KB",
                    p.name,
                    bytes / 1024
                ),
                p.operation_span.clone(),
            )
            .note("TransactWriteItems takes at most 100 actions and 4 MB");
            if p.writes.iter().any(|w| !w.patterns.is_empty()) {
                d = d.note(format!(
                    "actions as the model declares them: {} (a `one_of` group is one action per `count`, whichever alternative runs)",
                    counted.join(", ")
                ));
            }
            out.push(d.help(if p.writes.iter().all(|w| w.patterns.is_empty()) {
                "lower the per-entity `count`s, or split the write"
            } else {
                "lower the actions' `count`s, or split the write"
            }));
        }
    }
}

/// MT011 for a transaction with an action of no upper bound (`count = "many"`).
fn unbounded_transaction(p: &Pattern, first: &Write, unbounded: &[&Write]) -> Diagnostic {
    if first.patterns.is_empty() {
        let names: Vec<&str> = unbounded.iter().map(|w| w.entity.as_str()).collect();
        return Diagnostic::error(
            Rule::SizeLimit,
            format!("transaction `{}` can exceed 100 actions: it writes one `{}` per input with no upper bound", p.name, names.join("`, `")),
            p.operation_span.clone(),
        )
        .note("TransactWriteItems takes at most 100 actions and 4 MB; larger inputs fail as a whole")
        .help(format!(
            "bound the input (e.g. `count = 50` with a matching `max` on the relation) and reject larger requests, or write the `{}` items outside the transaction after a guarded header write",
            names.join("`, `")
        ));
    }
    let names: Vec<String> = unbounded.iter().map(|w| action_name(w)).collect();
    let (runs, it) = match names.len() {
        1 => ("runs", "it"),
        _ => ("run", "each"),
    };
    Diagnostic::error(
        Rule::SizeLimit,
        format!(
            "transaction `{}` can exceed 100 actions: {} {runs} once per input with no upper bound",
            p.name,
            names.join(", ")
        ),
        first.span.clone(),
    )
    .label("`count = \"many\"`: no upper bound")
    .note("TransactWriteItems takes at most 100 actions and 4 MB; larger inputs fail as a whole")
    .help(format!(
        "state the most times {it} runs (e.g. `count = 49` with a matching `max` on the relation) and reject larger requests, or run {} outside the transaction after a guarded header write",
        names.join(", ")
    ))
}

/// Collections without `max_items`. (A stated item size over 400 KB is refused when the model
/// is read, MT000.)
fn unbounded_collections(model: &Model, out: &mut Vec<Diagnostic>) {
    for e in &model.entities {
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

/// `bytes` in the largest unit that keeps it at least 1, e.g. `19.1 GB`.
fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut value = num::to_f64(bytes);
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 || value >= 100.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
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
            out.extend(collection_size(model, e, r));
        }
    }
}

/// An item collection that can outgrow 10 GB: unbounded, or bounded too high for its items.
fn collection_size(model: &Model, owner: &EntityDecl, r: &Relation) -> Option<Diagnostic> {
    let size = model.traffic.item_size_bytes(&r.entity);
    let d = |note: String, help: String| {
        Diagnostic::error(
            Rule::SizeLimit,
            format!("the item collection of `{}` can exceed 10 GB on a table with a local secondary index", owner.name),
            r.span.clone(),
        )
        .note(note)
        .help(help)
    };
    match r.max {
        None => Some(d(
            format!("`{}` holds an unbounded number of `{}` items; with an LSI, one partition key value is capped at 10 GB", owner.name, r.entity),
            "bound the relation with `max`, replace the LSI with a GSI, or split the collection by time bucket".to_string(),
        )),
        Some(max) => {
            let total = max.saturating_mul(size);
            (total > MAX_COLLECTION_BYTES).then(|| d(
                format!("`{}` holds up to {max} `{}` items of ~{} each: ~{}, over the 10 GB one partition key value may hold with an LSI", owner.name, r.entity, human_bytes(size), human_bytes(total)),
                format!("lower `max` to at most {} (10 GB / ~{} per item), replace the LSI with a GSI, or split the collection by time bucket", MAX_COLLECTION_BYTES / size.max(1), human_bytes(size)),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use monotable_model::{Attribute, AttributeType, KeyTemplate};

    use super::{human_bytes, spread};

    fn attr(ty: AttributeType, cardinality: Option<u64>) -> Attribute {
        Attribute {
            name: "v".to_string(),
            ty,
            required: true,
            values: vec!["A".to_string()],
            format: None,
            items: None,
            max_items: None,
            max_length: None,
            cardinality,
            money: false,
            description: None,
            default: None,
            span: 0..0,
            type_span: 0..0,
        }
    }

    #[test]
    fn every_spread_says_why() {
        for (a, partitions) in [
            (attr(AttributeType::Boolean, None), 1),
            (attr(AttributeType::Enum, None), 1),
            (attr(AttributeType::Integer, Some(16)), 16),
        ] {
            let t = KeyTemplate::parse("{v}").unwrap();
            let s = spread(&t, &|_| Some(&a)).expect("few values");
            assert_eq!(s.partitions, partitions);
            let note = s.note(100.0, "WCU/s", "one partition takes at most 1,000 WCU/s");
            assert!(note.starts_with("`v` "), "{note}");
        }
        let id = attr(AttributeType::String, None);
        let t = KeyTemplate::parse("USER#{v}").unwrap();
        assert!(spread(&t, &|_| Some(&id)).is_none());
    }

    #[test]
    fn byte_figures_read_well() {
        assert_eq!(human_bytes(0), "0 B");
        assert_eq!(human_bytes(1000), "1000 B");
        assert_eq!(human_bytes(1536), "1.5 KB");
        assert_eq!(human_bytes(20 * 1024 * 1024 * 1024), "20.0 GB");
        assert_eq!(human_bytes(u64::MAX), "16777216 TB");
    }
}
