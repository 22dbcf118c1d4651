//! Parameter values for a pattern, taken from the samples: the key values of a target item, and
//! for range conditions the bounds that select it together with some, but not all, of its
//! neighbours.

use std::collections::BTreeSet;

use monotable_model::{
    Attribute, AttributeType, KeyClause, KeyTemplate, KeyTest, Model, Pattern, TimestampFormat,
};

use crate::generate::Sample;
use crate::sample_index::SampleIndex;
use crate::values;

use crate::keys::Values;

/// Most candidate values tried per variable.
const MAX_CANDIDATES: usize = 40;

fn push(out: &mut Vec<String>, seen: &mut BTreeSet<String>, value: String) {
    if !value.is_empty() && seen.insert(value.clone()) {
        out.push(value);
    }
}

fn unique_vars<'a>(templates: impl Iterator<Item = &'a KeyTemplate>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in templates {
        for v in t.variables() {
            if !out.iter().any(|o| o == v) {
                out.push(v.to_string());
            }
        }
    }
    out
}

/// Every key condition of the pattern in key-schema order (`pk`, then `sk`, for a pattern
/// assembled without [`Pattern::key`]).
pub(crate) fn conditions(pattern: &Pattern) -> Vec<&KeyClause> {
    if pattern.key.is_empty() {
        pattern.pk.iter().chain(pattern.sk.iter()).collect()
    } else {
        pattern.key.iter().collect()
    }
}

/// Variable values read back from a key the target writes: the whole key for an equality, the
/// shortest matching prefix for `begins_with` (range bounds: [`crate::bounds::aligned`]).
fn extracted(pattern: &Pattern, target: &Sample) -> Values {
    let mut out = Values::new();
    for cond in conditions(pattern) {
        let Some(key) = target.key(&cond.attribute) else {
            continue;
        };
        let found = match &cond.condition {
            KeyTest::Eq(t) => t.extract(key),
            KeyTest::BeginsWith(t) => key
                .char_indices()
                .map(|(i, c)| i + c.len_utf8())
                .find_map(|end| key.get(..end).and_then(|p| t.extract(p))),
            _ => None,
        };
        for (k, v) in found.unwrap_or_default() {
            out.entry(k).or_insert(v);
        }
    }
    out
}

/// Timestamps around the sample days: start, middle and last millisecond of each.
fn timestamp_candidates(format: TimestampFormat) -> Vec<String> {
    let mut out = Vec::new();
    for day in values::sample_days() {
        for time in [0, 43_200_000, 86_399_999] {
            out.push(values::format_instant(day * 86_400_000 + time, format).text);
        }
    }
    out
}

fn typed_candidates(attribute: &Attribute) -> Vec<String> {
    match attribute.ty {
        AttributeType::Timestamp => timestamp_candidates(attribute.timestamp_format()),
        AttributeType::Enum => attribute.values.clone(),
        AttributeType::Integer => values::integer_candidates(attribute, None)
            .into_iter()
            .map(|n| n.to_string())
            .collect(),
        AttributeType::Decimal => values::DECIMALS.iter().map(|s| s.to_string()).collect(),
        AttributeType::Number | AttributeType::Float => {
            values::FLOATS.iter().map(|s| s.to_string()).collect()
        }
        AttributeType::Boolean => vec!["true".to_string(), "false".to_string()],
        _ => vec![format!("{}-none", attribute.name)],
    }
}

/// Candidate values of `var`, best first: read back from the target's keys, the target's own
/// attribute, values of the same attribute (and type and format) in the samples, then values
/// typical of its type.
fn candidates(
    model: &Model,
    pattern: &Pattern,
    samples: &SampleIndex<'_>,
    target: Option<&Sample>,
    from_keys: &Values,
    var: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    if let Some(v) = from_keys.get(var) {
        push(&mut out, &mut seen, v.clone());
    }
    if let Some(v) = target.and_then(|t| t.values.get(var)) {
        push(&mut out, &mut seen, v.clone());
    }
    let attribute = pattern.variable(model, var);
    // An enum parameter takes only its type's values: a typed caller cannot pass another
    // entity's (`RETURNED` to a pattern over `Order`'s statuses).
    let allowed = |v: &String| {
        attribute
            .filter(|a| a.ty == AttributeType::Enum)
            .is_none_or(|a| a.values.contains(v))
    };
    // Only the first few of the sample values, in order, can be kept: take no more.
    let room = MAX_CANDIDATES;
    let mut same: BTreeSet<&str> = samples
        .values_of(var)
        .filter(|v| allowed(&(*v).to_string()))
        .take(room)
        .collect();
    if let Some(a) = attribute.filter(|a| a.ty == AttributeType::Timestamp) {
        // Any timestamp of the same format in the samples is a boundary worth trying.
        same.extend(samples.timestamps(a.timestamp_format()).take(room));
    }
    for v in same.into_iter().take(room) {
        push(&mut out, &mut seen, v.to_string());
    }
    if let Some(a) = attribute {
        for v in typed_candidates(a) {
            push(&mut out, &mut seen, v);
        }
    }
    push(&mut out, &mut seen, format!("{var}-none"));
    out.truncate(MAX_CANDIDATES);
    out
}

/// How well one assignment exercises the pattern (higher is better); `None` when the request
/// would be invalid (a template does not render, `BETWEEN` bounds are reversed).
pub type Score = u8;

/// The best score [`choose`]'s evaluator can give; the search stops there.
pub const BEST: Score = 7;

/// Chooses values for every variable of the pattern's key templates. Partition key variables
/// take the target's values; sort key variables are searched (up to two at a time) for the
/// assignment `eval` scores highest, first found winning ties.
pub fn choose(
    model: &Model,
    pattern: &Pattern,
    samples: &SampleIndex<'_>,
    target: Option<&Sample>,
    eval: &dyn Fn(&Values) -> Option<Score>,
) -> Values {
    let mut from_keys = target.map(|t| extracted(pattern, t)).unwrap_or_default();
    if let Some(t) = target {
        for (var, value) in crate::bounds::aligned(model, pattern, t) {
            from_keys.entry(var).or_insert(value);
        }
    }
    // The equalities (the partition, and leading sort attributes of a native key) take the
    // target's values; the last sort condition is searched.
    let sort_attribute = pattern.sk.as_ref().map(|k| k.attribute.as_str());
    let pk_vars = unique_vars(
        conditions(pattern)
            .into_iter()
            .filter(|k| Some(k.attribute.as_str()) != sort_attribute)
            .flat_map(|k| k.condition.templates().into_iter()),
    );
    let sk_vars: Vec<String> = unique_vars(
        pattern
            .sk
            .iter()
            .flat_map(|k| k.condition.templates().into_iter()),
    )
    .into_iter()
    .filter(|v| !pk_vars.contains(v))
    .collect();
    let cands = |var: &str| candidates(model, pattern, samples, target, &from_keys, var);
    let mut base = Values::new();
    for var in &pk_vars {
        if let Some(v) = cands(var).into_iter().next() {
            base.insert(var.clone(), v);
        }
    }
    let (search, fixed) = sk_vars.split_at(sk_vars.len().min(2));
    for var in fixed {
        if let Some(v) = cands(var).into_iter().next() {
            base.insert(var.clone(), v);
        }
    }
    let lists: Vec<(String, Vec<String>)> = search.iter().map(|v| (v.clone(), cands(v))).collect();
    let mut best: Option<(Score, Values)> = None;
    let mut first_rendered: Option<Values> = None;
    let mut consider = |values: Values| -> bool {
        match eval(&values) {
            Some(score) => {
                if best.as_ref().is_none_or(|(b, _)| score > *b) {
                    best = Some((score, values));
                }
                score >= BEST
            }
            None => {
                if first_rendered.is_none() {
                    first_rendered = Some(values);
                }
                false
            }
        }
    };
    match lists.as_slice() {
        [] => {
            consider(base.clone());
        }
        [(a, xs)] => {
            for x in xs {
                let mut v = base.clone();
                v.insert(a.clone(), x.clone());
                if consider(v) {
                    break;
                }
            }
        }
        [(a, xs), (b, ys), ..] => {
            'outer: for x in xs {
                for y in ys {
                    let mut v = base.clone();
                    v.insert(a.clone(), x.clone());
                    v.insert(b.clone(), y.clone());
                    if consider(v) {
                        break 'outer;
                    }
                }
            }
        }
    }
    best.map(|(_, v)| v).or(first_rendered).unwrap_or(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODEL: &str = r#"
[table]
name = "Orders"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[entities.Order]
attributes.customerId = { type = "string", required = true }
attributes.status = { type = "enum", values = ["OPEN", "DONE"], required = true }
attributes.orderId = { type = "string", required = true }
keys.PK = "CUSTOMER#{customerId}"
keys.SK = "{status}#{orderId}"

[patterns.open]
operation = "Query"
key = { PK = "CUSTOMER#{customerId}", SK = "begins_with({status}#)" }
returns = ["Order"]
"#;

    #[test]
    fn values_come_from_the_target_keys() {
        let model = monotable_model::parse(MODEL).unwrap();
        let pattern = model.pattern("open").unwrap();
        let target = Sample {
            entity: "Order".into(),
            values: Values::new(),
            keys: [("PK", "CUSTOMER#c1"), ("SK", "DONE#o9")]
                .into_iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            item: Default::default(),
        };
        let none = SampleIndex::new(&model, &[]);
        let got = choose(&model, pattern, &none, Some(&target), &|_| Some(1));
        assert_eq!(got.get("customerId").map(String::as_str), Some("c1"));
        assert_eq!(got.get("status").map(String::as_str), Some("DONE"));
    }
}
