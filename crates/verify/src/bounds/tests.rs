//! Bounds lined up with the target's key, stepped past it where the key goes on.

use std::collections::BTreeMap;

use super::aligned;
use crate::generate::Sample;

const MODEL: &str = r#"
[table]
name = "Events"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[entities.Event]
attributes.deviceId = { type = "string", required = true }
attributes.kind = { type = "enum", values = ["click", "view"], required = true }
attributes.ts = { type = "timestamp", format = "rfc3339-utc-millis", required = true }
attributes.day = { type = "timestamp", format = "date", required = true }
attributes.eventId = { type = "string", required = true }
attributes.n = { type = "integer", required = true }
keys.PK = "DEVICE#{deviceId}"
keys.SK = "TYPE#{kind}#{ts}#{eventId}"

[patterns.range]
operation = "Query"
key = { PK = "DEVICE#{deviceId}", SK = "between(TYPE#{kind}#{from}, TYPE#{kind}#{to})" }
params.from = { type = "timestamp", format = "rfc3339-utc-millis" }
params.to = { type = "timestamp", format = "rfc3339-utc-millis" }
returns = ["Event"]

[patterns.before]
operation = "Query"
key = { PK = "DEVICE#{deviceId}", SK = "< TYPE#{kind}#{to}" }
params.to = { type = "timestamp", format = "rfc3339-utc-millis" }
returns = ["Event"]

[patterns.after]
operation = "Query"
key = { PK = "DEVICE#{deviceId}", SK = "> TYPE#{kind}#{from}" }
params.from = { type = "timestamp", format = "rfc3339-utc-millis" }
returns = ["Event"]

[patterns.otherFormat]
operation = "Query"
key = { PK = "DEVICE#{deviceId}", SK = "between(TYPE#{kind}#{from}, TYPE#{kind}#{to})" }
params.from = { type = "timestamp", format = "date" }
params.to = { type = "timestamp", format = "date" }
returns = ["Event"]
"#;

fn target() -> Sample {
    let values: BTreeMap<String, String> = [
        ("deviceId", "d1"),
        ("kind", "view"),
        ("ts", "2024-05-01T23:59:59.999Z"),
        ("eventId", "e9"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    Sample {
        entity: "Event".to_string(),
        values,
        keys: BTreeMap::new(),
        item: Default::default(),
    }
}

fn bounds(pattern: &str) -> Vec<(String, String)> {
    let model = monotable_model::parse(MODEL).expect("valid");
    let p = model.pattern(pattern).expect("pattern");
    aligned(&model, p, &target()).into_iter().collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn the_upper_bound_steps_past_a_key_that_goes_on() {
    assert_eq!(
        bounds("range"),
        pairs(&[
            ("from", "2024-05-01T23:59:59.999Z"),
            ("kind", "view"),
            ("to", "2024-05-02T00:00:00.000Z"),
        ])
    );
}

#[test]
fn strict_bounds_step_away_from_the_value() {
    assert_eq!(
        bounds("before"),
        pairs(&[("kind", "view"), ("to", "2024-05-02T00:00:00.000Z")])
    );
    // `> TYPE#view#<ts>` already holds `TYPE#view#<ts>#e9`: the key goes on.
    assert_eq!(
        bounds("after"),
        pairs(&[("from", "2024-05-01T23:59:59.999Z"), ("kind", "view")])
    );
}

#[test]
fn a_bound_of_another_format_is_not_lined_up() {
    assert_eq!(bounds("otherFormat"), pairs(&[("kind", "view")]));
}
