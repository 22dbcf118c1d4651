//! The model's size limits: a model at each limit is taken, one past it is refused with one
//! issue naming the limit, placed at the first declaration past it.

use std::fmt::Write as _;

use monotable_model::limits::{
    MAX_ATTRIBUTES, MAX_ENTITIES, MAX_ENUM_VALUES, MAX_GLOBAL_INDEXES, MAX_LOCAL_INDEXES,
    MAX_PATTERNS, MAX_SOURCE_BYTES,
};
use monotable_model::{ModelIssue, parse};

const TABLE: &str = r#"[table]
name = "Things"
partition_key = { name = "PK" }
sort_key = { name = "SK" }
"#;

fn entities(n: usize) -> String {
    let mut out = String::new();
    for k in 0..n {
        let _ = write!(
            out,
            "\n[entities.E{k}]\nattributes.id = {{ type = \"string\", required = true }}\nkeys.PK = \"E{k}#{{id}}\"\nkeys.SK = \"E{k}\"\n"
        );
    }
    out
}

fn issues(source: &str) -> Vec<ModelIssue> {
    match parse(source) {
        Ok(_) => Vec::new(),
        Err(e) => e.issues,
    }
}

/// One issue whose message contains every needle, on a line containing `at` (or without a
/// place).
fn refused(source: &str, needles: &[&str], at: Option<&str>) {
    let got = issues(source);
    assert_eq!(got.len(), 1, "{got:?}");
    for needle in needles {
        assert!(got[0].message.contains(needle), "{needle:?} in {got:?}");
    }
    match (at, &got[0].span) {
        (Some(text), Some(span)) => {
            let start = source[..span.start].rfind('\n').map_or(0, |i| i + 1);
            let end = source[span.start..]
                .find('\n')
                .map_or(source.len(), |i| span.start + i);
            let line = &source[start..end];
            assert!(line.contains(text), "{text:?} on {line:?}");
        }
        (None, None) => {}
        (at, span) => panic!("expected a place {at:?}, got {span:?}"),
    }
}

#[test]
fn entities_at_the_limit_are_taken_and_one_more_is_refused() {
    let at_limit = format!("{TABLE}{}", entities(MAX_ENTITIES));
    assert!(issues(&at_limit).is_empty());
    let over = format!("{TABLE}{}", entities(MAX_ENTITIES + 1));
    refused(
        &over,
        &["20,001 entity types", "at most 20,000"],
        Some("[entities.E20000]"),
    );
}

#[test]
fn patterns_past_the_limit_are_refused() {
    let mut source = format!("{TABLE}{}", entities(1));
    for k in 0..=MAX_PATTERNS {
        let _ = write!(
            source,
            "\n[patterns.p{k}]\noperation = \"GetItem\"\nkey = {{ PK = \"E0#{{id}}\", SK = \"E0\" }}\nreturns = [\"E0\"]\n"
        );
    }
    refused(
        &source,
        &["50,001 access patterns", "at most 50,000"],
        Some("[patterns.p50000]"),
    );
}

#[test]
fn indexes_past_dynamodbs_limits_are_refused() {
    let index = |kind: &str, k: usize| {
        format!(
            "\n[indexes.{kind}{k}]\nkind = \"{}\"\npartition_key = {{ name = \"{}\" }}\nsort_key = {{ name = \"{kind}{k}SK\" }}\n",
            if kind == "GSI" { "global" } else { "local" },
            if kind == "GSI" {
                format!("{kind}{k}PK")
            } else {
                "PK".to_string()
            },
        )
    };
    let gsis: String = (0..=MAX_GLOBAL_INDEXES).map(|k| index("GSI", k)).collect();
    refused(
        &format!("{TABLE}{gsis}"),
        &["21 global secondary indexes", "at most 20"],
        Some("[indexes.GSI20]"),
    );
    let lsis: String = (0..=MAX_LOCAL_INDEXES).map(|k| index("LSI", k)).collect();
    refused(
        &format!("{TABLE}{lsis}"),
        &["6 local secondary indexes", "at most 5"],
        Some("[indexes.LSI5]"),
    );
    let gsis: String = (0..MAX_GLOBAL_INDEXES).map(|k| index("GSI", k)).collect();
    let lsis: String = (0..MAX_LOCAL_INDEXES).map(|k| index("LSI", k)).collect();
    let at_limit = issues(&format!("{TABLE}{gsis}{lsis}"));
    assert!(
        at_limit
            .iter()
            .all(|i| !i.message.contains("DynamoDB allows")),
        "{at_limit:?}"
    );
}

#[test]
fn attributes_and_enum_values_past_the_limit_are_refused() {
    let mut source = format!("{TABLE}\n[entities.Wide]\n");
    for k in 0..=MAX_ATTRIBUTES {
        let _ = writeln!(source, "attributes.a{k:04} = {{ type = \"string\" }}");
    }
    source.push_str("keys.PK = \"W#{a0000}\"\nkeys.SK = \"W\"\n");
    refused(
        &source,
        &["entity `Wide` declares 1,001 attributes", "at most 1,000"],
        Some("attributes.a1000"),
    );
    let values: Vec<String> = (0..=MAX_ENUM_VALUES).map(|k| format!("\"V{k}\"")).collect();
    let source = format!(
        "{TABLE}\n[entities.E]\nattributes.id = {{ type = \"string\", required = true }}\nattributes.kind = {{ type = \"enum\", values = [{}] }}\nkeys.PK = \"E#{{id}}\"\nkeys.SK = \"E\"\n",
        values.join(", ")
    );
    refused(
        &source,
        &[
            "enum `kind` of entity `E` has 1,001 values",
            "at most 1,000",
        ],
        Some("attributes.kind"),
    );
}

#[test]
fn a_source_past_the_limit_is_refused_before_it_is_parsed() {
    let mut source = format!("{TABLE}{}", entities(1));
    let pad = MAX_SOURCE_BYTES + 1 - source.len();
    source.push_str(&"#".repeat(pad));
    assert_eq!(source.len(), MAX_SOURCE_BYTES + 1);
    refused(&source, &["16,777,217 bytes", "16 MiB"], None);
    source.pop();
    assert!(issues(&source).is_empty());
}
