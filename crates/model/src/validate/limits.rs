//! The model's size limits (`crate::limits`), checked before anything else: a model past one is
//! refused with the limit named, and nothing more is built of it.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::error::{IssueKind, ModelIssue};
use crate::limits::*;
use crate::model::IndexKind;
use crate::raw::{RawAttribute, RawModel, Sp};

/// The source is over [`MAX_SOURCE_BYTES`].
pub(super) fn source(source: &str) -> Option<ModelIssue> {
    (source.len() > MAX_SOURCE_BYTES).then(|| ModelIssue {
        kind: IssueKind::Invalid,
        message: format!(
            "the model is {} bytes; a model may hold at most {} bytes (16 MiB)",
            thousands(source.len()),
            thousands(MAX_SOURCE_BYTES)
        ),
        span: None,
        help: Some("split the design into models of one table each, or generate less".into()),
    })
}

/// Every count over its limit, each reported once at the first declaration past it (in file
/// order).
pub(super) fn counts(raw: &RawModel) -> Vec<ModelIssue> {
    let mut out = Vec::new();
    let spans = |it: &mut dyn Iterator<Item = Range<usize>>| {
        let mut v: Vec<Range<usize>> = it.collect();
        v.sort_by_key(|s| s.start);
        v
    };
    let entities = spans(&mut raw.entities.values().map(|e| e.span.clone()));
    over(
        &mut out,
        &entities,
        MAX_ENTITIES,
        "entities",
        "entity types",
    );
    let patterns = spans(&mut raw.patterns.values().map(|p| p.span.clone()));
    over(
        &mut out,
        &patterns,
        MAX_PATTERNS,
        "patterns",
        "access patterns",
    );
    for kind in [IndexKind::Global, IndexKind::Local] {
        let of_kind = spans(
            &mut raw
                .indexes
                .values()
                .filter(|i| i.value.kind.as_ref().map_or(IndexKind::Global, |k| k.value) == kind)
                .map(|i| i.span.clone()),
        );
        let (limit, what) = match kind {
            IndexKind::Global => (MAX_GLOBAL_INDEXES, "global secondary indexes"),
            IndexKind::Local => (MAX_LOCAL_INDEXES, "local secondary indexes"),
        };
        if let Some(span) = of_kind.get(limit) {
            out.push(
                ModelIssue::new(
                    IssueKind::Invalid,
                    format!(
                        "the table declares {} {what}; DynamoDB allows at most {limit} on a table",
                        thousands(of_kind.len())
                    ),
                    span.clone(),
                )
                .help("overload an index with entity-specific key prefixes instead of one index per access pattern"),
            );
        }
    }
    for (name, e) in &raw.entities {
        attributes(
            &mut out,
            &format!("entity `{name}`"),
            &e.value.attributes,
            "attributes",
        );
    }
    for (name, p) in &raw.patterns {
        attributes(
            &mut out,
            &format!("pattern `{name}`"),
            &p.value.params,
            "parameters",
        );
    }
    out
}

fn over(out: &mut Vec<ModelIssue>, spans: &[Range<usize>], limit: usize, key: &str, what: &str) {
    if let Some(span) = spans.get(limit) {
        out.push(
            ModelIssue::new(
                IssueKind::Invalid,
                format!(
                    "the model declares {} {what}; a model may declare at most {}",
                    thousands(spans.len()),
                    thousands(limit)
                ),
                span.clone(),
            )
            .help(format!(
                "split the design, or generate fewer [{key}.*]; this is the first past the limit"
            )),
        );
    }
}

/// Attributes (or parameters) over [`MAX_ATTRIBUTES`], and enum values over
/// [`MAX_ENUM_VALUES`].
fn attributes(
    out: &mut Vec<ModelIssue>,
    owner: &str,
    attributes: &BTreeMap<String, Sp<RawAttribute>>,
    what: &str,
) {
    if attributes.len() > MAX_ATTRIBUTES {
        let mut starts: Vec<Range<usize>> = attributes.values().map(|a| a.span.clone()).collect();
        starts.sort_by_key(|s| s.start);
        out.push(
            ModelIssue::new(
                IssueKind::Invalid,
                format!(
                    "{owner} declares {} {what}; at most {} are allowed",
                    thousands(attributes.len()),
                    thousands(MAX_ATTRIBUTES)
                ),
                starts[MAX_ATTRIBUTES].clone(),
            )
            .help("keep what no key, condition or rule reads in a `map` attribute"),
        );
    }
    for (name, a) in attributes {
        if a.value.values.len() > MAX_ENUM_VALUES {
            out.push(
                ModelIssue::new(
                    IssueKind::Invalid,
                    format!(
                        "enum `{name}` of {owner} has {} values; at most {} are allowed",
                        thousands(a.value.values.len()),
                        thousands(MAX_ENUM_VALUES)
                    ),
                    a.span.clone(),
                )
                .help("type it `string`: a set this large is data, not a fixed list"),
            );
        }
    }
}
