//! The figures a model states, at their extremes, through every command that computes with them
//! (check's capacity rules, cost, verify's generator, export's capacity cells): beyond a limit
//! each command refuses the model naming the limit, at the limit each one answers, and none
//! panics or prints an absurd figure.

use crate::common;

use std::path::Path;
use std::process::Output;

use common::run;

/// A model whose figures are `figures` (`cardinality`, `max_length`, ... by placeholder).
fn model(figure: &str, value: &str) -> String {
    let source = r#"[table]
name = "Things"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[indexes.GSI1]
partition_key = { name = "GSI1PK" }
sort_key = { name = "GSI1SK" }

[entities.Thing]
attributes.id = { type = "string", required = true, max_length = MAX_LENGTH }
attributes.tags = { type = "list", items = "string", max_items = MAX_ITEMS }
attributes.shard = { type = "integer", required = true, cardinality = CARDINALITY }
keys.PK = "THING#{id}"
keys.SK = "THING"
keys.GSI1PK = "SHARD#{shard}"
keys.GSI1SK = "{id}"
relations = [{ entity = "Part", kind = "many", max = RELATION_MAX }]

[entities.Part]
attributes.id = { type = "string", required = true }
attributes.n = { type = "integer", required = true }
keys.PK = "THING#{id}"
keys.SK = "PART#{n:06}"

[patterns.parts]
operation = "Query"
key = { PK = "THING#{id}" }
returns = ["Thing", "Part"]
paginate = true
limit = LIMIT

[patterns.byShard]
operation = "Query"
index = "GSI1"
key = { GSI1PK = "SHARD#{shard}" }
returns = ["Thing"]
paginate = true

[patterns.put]
operation = "TransactWrite"
writes = [{ entity = "Thing" }, { entity = "Part", count = COUNT }]

[traffic]
default_item_size_bytes = 1024

[traffic.entities.Thing]
writes_per_second = WRITES
item_size_bytes = ITEM_SIZE
items = ITEMS

[traffic.patterns.parts]
reads_per_second = READS
items_per_read = ITEMS_PER_READ
"#;
    let largest = [
        ("MAX_LENGTH", "409600"),
        ("MAX_ITEMS", "409600"),
        ("CARDINALITY", "1000000000"),
        ("RELATION_MAX", "1000000000"),
        ("LIMIT", "2147483647"),
        ("COUNT", "99"),
        ("WRITES", "1e9"),
        ("ITEM_SIZE", "409600"),
        ("ITEMS_PER_READ", "1048576"),
        ("ITEMS", "1000000000000000"),
        ("READS", "1e9"),
    ];
    let mut text = source.to_string();
    for (place, max) in largest {
        text = text.replace(place, if place == figure { value } else { max });
    }
    text
}

const COMMANDS: [&[&str]; 6] = [
    &["check", "m.toml"],
    &["cost", "m.toml"],
    &["cost", "m.toml", "--format", "json"],
    &["verify", "m.toml"],
    &["export", "m.toml", "--format", "markdown"],
    &["export", "m.toml", "--format", "sam"],
];

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn each(dir: &Path, source: &str) -> Vec<(String, Output)> {
    std::fs::write(dir.join("m.toml"), source).unwrap();
    COMMANDS
        .iter()
        .map(|args| (args.join(" "), run(args, dir)))
        .collect()
}

#[test]
fn the_largest_figures_a_model_accepts_are_computed_with() {
    let dir = tempfile::tempdir().unwrap();
    for (what, out) in each(dir.path(), &model("", "")) {
        let all = text(&out);
        assert!(!all.contains("panicked"), "{what}: {all}");
        // `check` finds the design's problems (a hot index, a transaction over 4 MB): its
        // findings, not a failure to compute.
        if what != "check m.toml" {
            assert!(out.status.success(), "{what}: {all}");
        }
        assert!(
            !all.contains("NaN") && !all.contains("inf "),
            "{what}: {all}"
        );
    }
}

#[test]
fn a_figure_beyond_its_limit_is_refused_by_every_command_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    for (figure, value, limit) in [
        ("ITEM_SIZE", "9223372036854775807", "409600"),
        ("ITEM_SIZE", "18446744073709551615", "409600"),
        ("MAX_LENGTH", "409601", "409600"),
        ("CARDINALITY", "9223372036854775807", "1000000000"),
        ("COUNT", "101", "100 actions"),
        ("LIMIT", "2147483648", "2147483647"),
        ("ITEMS_PER_READ", "1048577", "1048576"),
        ("WRITES", "1e308", "1,000,000,000 per second"),
        ("READS", "nan", "is not a rate"),
        ("ITEM_SIZE", "-1", "expected a whole number, 0 or more"),
        (
            "ITEM_SIZE",
            "0",
            "an item holds at least its key attributes",
        ),
    ] {
        for (what, out) in each(dir.path(), &model(figure, value)) {
            let all = text(&out);
            assert!(
                !out.status.success(),
                "{what} with {figure} = {value}: {all}"
            );
            assert!(!all.contains("panicked"), "{what}: {all}");
            assert!(
                all.contains(limit),
                "{what} with {figure} = {value} does not name {limit}: {all}"
            );
        }
    }
}
