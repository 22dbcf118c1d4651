//! `check` on generated models of growing size: parse, validate and every rule, timed.
//! Run: `cargo bench -p monotable-check --bench large_models` (results: docs/benchmarks.md).
//!
//! Each model is a realistic single-table design repeated: per aggregate, a root entity with a
//! unique name guarded by its own entity, bounded line items in the root's collection, events
//! in the collection and in a day-and-shard GSI, per-status counters, everything overloaded on
//! one GSI, seven access patterns (gets, bounded and paged queries, a date range, a
//! transaction) and traffic figures. `BENCH_ENTITIES=1000,10000` picks the sizes;
//! `BENCH_WRITE=DIR` also writes each model to `DIR/large-<entities>.toml`, for the CLI.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use monotable_check::check_source;

/// Entity types per aggregate.
const PER_AGGREGATE: usize = 5;
/// Timed runs per size; the median is reported.
const RUNS: usize = 3;

const HEAD: &str = r#"version = 1

[table]
name = "Large"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "SK", type = "S" }

[indexes.GSI1]
partition_key = { name = "GSI1PK", type = "S" }
sort_key = { name = "GSI1SK", type = "S" }

[traffic]
default_writes_per_second = 5
default_item_size_bytes = 800
"#;

/// The entities of aggregate `k`.
fn entities(out: &mut String, k: usize) {
    let _ = write!(
        out,
        r#"
[entities.Root{k}]
attributes.id = {{ type = "string", required = true }}
attributes.ownerId = {{ type = "string", required = true }}
attributes.name = {{ type = "string", required = true, max_length = 100 }}
attributes.status = {{ type = "enum", values = ["ACTIVE", "PAUSED", "ARCHIVED"], required = true }}
attributes.total = {{ type = "decimal", required = true }}
attributes.createdAt = {{ type = "timestamp", format = "rfc3339-utc-millis", required = true }}
keys.PK = "R{k}#{{id}}"
keys.SK = "R{k}"
keys.GSI1PK = "OWNER#{{ownerId}}"
keys.GSI1SK = "R{k}#{{createdAt}}#{{id}}"
unique = [{{ attributes = ["name"], guard = "Name{k}" }}]
relations = [{{ entity = "Line{k}", kind = "many", max = 50 }}]

[entities.Name{k}]
attributes.name = {{ type = "string", required = true, max_length = 100 }}
attributes.id = {{ type = "string", required = true }}
keys.PK = "N{k}#{{name}}"
keys.SK = "N{k}"

[entities.Line{k}]
attributes.id = {{ type = "string", required = true }}
attributes.lineNo = {{ type = "integer", required = true }}
attributes.quantity = {{ type = "integer", required = true }}
attributes.price = {{ type = "decimal", required = true }}
keys.PK = "R{k}#{{id}}"
keys.SK = "L{k}#{{lineNo:03}}"

[entities.Event{k}]
attributes.id = {{ type = "string", required = true }}
attributes.eventId = {{ type = "string", required = true }}
attributes.at = {{ type = "timestamp", format = "rfc3339-utc-millis", required = true }}
attributes.day = {{ type = "timestamp", format = "date", required = true }}
attributes.shard = {{ type = "integer", required = true, cardinality = 8 }}
attributes.payload = {{ type = "map", max_items = 20 }}
keys.PK = "R{k}#{{id}}"
keys.SK = "E{k}#{{at}}#{{eventId}}"
keys.GSI1PK = "E{k}DAY#{{day}}#{{shard}}"
keys.GSI1SK = "{{at}}#{{eventId}}"

[entities.Count{k}]
attributes.id = {{ type = "string", required = true }}
attributes.status = {{ type = "enum", values = ["ACTIVE", "PAUSED", "ARCHIVED"], required = true }}
attributes.count = {{ type = "integer", required = true }}
keys.PK = "R{k}#{{id}}"
keys.SK = "C{k}#{{status}}"
"#
    );
}

/// The access patterns of aggregate `k`.
fn patterns(out: &mut String, k: usize) {
    let _ = write!(
        out,
        r#"
[patterns.getRoot{k}]
operation = "GetItem"
key = {{ PK = "R{k}#{{id}}", SK = "R{k}" }}
returns = ["Root{k}"]

[patterns.rootWithLines{k}]
operation = "Query"
key = {{ PK = "R{k}#{{id}}", SK = "between(L{k}#, R{k})" }}
returns = ["Root{k}", "Line{k}"]

[patterns.eventsInRange{k}]
operation = "Query"
key = {{ PK = "R{k}#{{id}}", SK = "between(E{k}#{{from}}, E{k}#{{to}})" }}
params.from = {{ type = "timestamp", format = "rfc3339-utc-millis" }}
params.to = {{ type = "timestamp", format = "rfc3339-utc-millis" }}
returns = ["Event{k}"]
paginate = true
limit = 100

[patterns.eventsOfDay{k}]
operation = "Query"
index = "GSI1"
key = {{ GSI1PK = "E{k}DAY#{{day}}#{{shard}}" }}
returns = ["Event{k}"]
paginate = true

[patterns.counts{k}]
operation = "Query"
key = {{ PK = "R{k}#{{id}}", SK = "begins_with(C{k}#)" }}
returns = ["Count{k}"]

[patterns.rootsOfOwner{k}]
operation = "Query"
index = "GSI1"
key = {{ GSI1PK = "OWNER#{{ownerId}}", GSI1SK = "begins_with(R{k}#)" }}
returns = ["Root{k}"]
paginate = true

[patterns.create{k}]
operation = "TransactWrite"
writes = [{{ entity = "Root{k}" }}, {{ entity = "Name{k}" }}, {{ entity = "Line{k}", count = 50 }}]

[traffic.entities.Event{k}]
writes_per_second = 50
item_size_bytes = 600

[traffic.patterns.getRoot{k}]
reads_per_second = 100
"#
    );
}

/// A model with `entities` entity types (rounded up to whole aggregates).
fn model(entities_wanted: usize) -> String {
    let aggregates = entities_wanted.div_ceil(PER_AGGREGATE);
    let mut out = String::from(HEAD);
    for k in 0..aggregates {
        entities(&mut out, k);
        patterns(&mut out, k);
    }
    out
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn main() {
    let sizes: Vec<usize> = std::env::var("BENCH_ENTITIES")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![100, 1_000, 2_000, 5_000, 10_000]);
    println!("| entities | patterns | model | diagnostics | check, median of {RUNS} |");
    println!("|---:|---:|---:|---:|---:|");
    for size in sizes {
        let source = model(size);
        if let Ok(dir) = std::env::var("BENCH_WRITE") {
            let path = std::path::Path::new(&dir).join(format!("large-{size}.toml"));
            if let Err(e) = std::fs::write(&path, &source) {
                eprintln!("cannot write {}: {e}", path.display());
            }
        }
        let mut runs = Vec::new();
        let mut diagnostics = 0;
        for _ in 0..RUNS {
            let start = Instant::now();
            let report = check_source("large.toml", &source);
            runs.push(start.elapsed());
            diagnostics = report.diagnostics().len();
        }
        let aggregates = size.div_ceil(PER_AGGREGATE);
        let kb = source.len() / 1000;
        println!(
            "| {} | {} | {}.{} MB | {diagnostics} | {:.3} s |",
            aggregates * PER_AGGREGATE,
            aggregates * 7,
            kb / 1000,
            kb % 1000 / 100,
            median(runs).as_secs_f64()
        );
    }
}
