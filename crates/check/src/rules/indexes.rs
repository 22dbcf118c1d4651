//! Index and query rules: MT007 scan or filter, MT008 unprojected attributes,
//! MT013 index usage, MT014 unpaginated unbounded queries.

use std::collections::BTreeSet;

use monotable_model::{
    Condition, IndexKind, Model, Operation, Pattern, ProjectionType, RelationKind,
};

use super::where_;
use crate::diagnostic::{Diagnostic, Rule};

pub(crate) fn check(model: &Model, out: &mut Vec<Diagnostic>) {
    for p in &model.patterns {
        scan_and_filter(model, p, out);
        projection(model, p, out);
        pagination(model, p, out);
    }
    usage(model, out);
}

fn scan_and_filter(model: &Model, p: &Pattern, out: &mut Vec<Diagnostic>) {
    if p.operation == Operation::Scan {
        out.push(
            Diagnostic::warning(
                Rule::ScanOrFilter,
                format!("access pattern `{}` scans {}", p.name, where_(p.index_name())),
                p.operation_span.clone(),
            )
            .note("a Scan reads (and bills) every item, and gets slower as the table grows")
            .help("give the entities a key that groups what this pattern needs and Query it; keep Scan for exports"),
        );
    }
    for f in &p.filter {
        for r in &p.returns {
            let Some(e) = model.entity(&r.name) else {
                continue;
            };
            let keyed = e.index_keys.iter().find(|k| {
                k.pk.template.variables().any(|v| v == f.name)
                    || k.sk
                        .as_ref()
                        .is_some_and(|s| s.template.variables().any(|v| v == f.name))
            });
            if let Some(k) = keyed {
                out.push(
                    Diagnostic::warning(
                        Rule::ScanOrFilter,
                        format!("filter on `{}` in `{}` does the work of a key condition", f.name, p.name),
                        f.span.clone(),
                    )
                    .note(format!(
                        "`{}` is part of `{}`'s key in {}; a filter still reads and bills every item it discards",
                        f.name, e.name, where_(k.index.as_deref())
                    ))
                    .help(format!("query {} with `{}` in the key condition instead", where_(k.index.as_deref()), f.name)),
                );
                break;
            }
        }
    }
}

fn projection(model: &Model, p: &Pattern, out: &mut Vec<Diagnostic>) {
    let Some(named) = &p.index else { return };
    let Some(index) = model.index(&named.name) else {
        return;
    };
    if index.projection == ProjectionType::All || !p.is_read() {
        return;
    }
    let mut projected: BTreeSet<&str> = model.key_attribute_names().into_iter().collect();
    if index.projection == ProjectionType::Include {
        projected.extend(index.include.iter().map(String::as_str));
    }
    let wanted: Vec<(&str, std::ops::Range<usize>)> = match &p.reads {
        Some(reads) => reads
            .iter()
            .map(|r| (r.name.as_str(), r.span.clone()))
            .collect(),
        None => p
            .returns
            .iter()
            .filter_map(|r| model.entity(&r.name))
            .flat_map(|e| {
                e.attributes
                    .iter()
                    .map(|a| (a.name.as_str(), named.span.clone()))
            })
            .collect(),
    };
    let mut missing: Vec<&str> = wanted
        .iter()
        .filter(|(a, _)| !projected.contains(a))
        .map(|(a, _)| *a)
        .collect();
    missing.sort_unstable();
    missing.dedup();
    if missing.is_empty() {
        return;
    }
    let span = match &p.reads {
        Some(_) => wanted
            .iter()
            .find(|(a, _)| missing.contains(a))
            .map_or(named.span.clone(), |(_, s)| s.clone()),
        None => named.span.clone(),
    };
    let list = missing.join("`, `");
    out.push(
        Diagnostic::error(
            Rule::Unprojected,
            format!("access pattern `{}` reads `{list}`, which index `{}` does not project", p.name, index.name),
            span,
        )
        .note(format!(
            "`{}` projects {}; reading other attributes costs a GetItem per result",
            index.name,
            match index.projection {
                ProjectionType::KeysOnly => "KEYS_ONLY (table and index keys)",
                ProjectionType::Include => "INCLUDE (keys plus its `include` list)",
                _ => "ALL",
            }
        ))
        .help(match &p.reads {
            Some(_) => format!("add `{list}` to `include` of [indexes.{}] (or project ALL)", index.name),
            None => format!("list what the pattern needs in `reads = [...]`, then project it with `include` on [indexes.{}]", index.name),
        }),
    );
}

/// Whether the pattern returns a bounded number of items without paging.
fn bounded(model: &Model, p: &Pattern) -> bool {
    if p.unique
        || p.limit.is_some()
        || matches!(p.sk.as_ref().map(|k| &k.condition), Some(Condition::Eq(_)))
    {
        return true;
    }
    let idx = p.index_name();
    p.returns.iter().all(|r| {
        let Some(e) = model.entity(&r.name) else {
            return true;
        };
        let Some(keys) = e.key(idx) else { return true };
        // One item per partition value: the sort key only uses partition-key variables.
        let pk_vars: BTreeSet<&str> = keys.pk.template.variables().collect();
        if keys
            .sk
            .as_ref()
            .is_none_or(|sk| sk.template.variables().all(|v| pk_vars.contains(v)))
        {
            return true;
        }
        // A bounded relation from an entity that owns this collection.
        model.entities.iter().any(|owner| {
            owner.relations.iter().any(|rel| {
                rel.entity == e.name
                    && rel.index.as_deref() == idx
                    && (rel.kind == RelationKind::One || rel.max.is_some())
                    && owner
                        .key(idx)
                        .is_some_and(|ok| ok.pk.template == keys.pk.template)
            })
        })
    })
}

fn pagination(model: &Model, p: &Pattern, out: &mut Vec<Diagnostic>) {
    if !matches!(p.operation, Operation::Query | Operation::Scan) || p.paginate || bounded(model, p)
    {
        return;
    }
    out.push(
        Diagnostic::warning(
            Rule::Unpaginated,
            format!("access pattern `{}` can return unbounded results but does not paginate", p.name),
            p.key_span(),
        )
        .note("a Query returns at most 1 MB per call; without following `LastEvaluatedKey` the rest is silently dropped")
        .help("set `paginate = true` (and a `limit`) and page with `ExclusiveStartKey`, or bound the collection with a relation `max`"),
    );
}

fn usage(model: &Model, out: &mut Vec<Diagnostic>) {
    for p in &model.patterns {
        if let Some(named) = &p.index
            && model.index(&named.name).is_none()
        {
            let writers: Vec<&str> = model
                .entities
                .iter()
                .filter(|e| {
                    e.keys
                        .iter()
                        .any(|k| k.attribute.starts_with(named.name.as_str()))
                })
                .map(|e| e.name.as_str())
                .collect();
            let mut d = Diagnostic::error(
                Rule::IndexUsage,
                format!(
                    "access pattern `{}` queries index `{}`, which the table does not declare",
                    p.name, named.name
                ),
                named.span.clone(),
            );
            if !writers.is_empty() {
                d = d.note(format!(
                    "`{}` {} `{}*` attributes, but without the index they are plain attributes",
                    writers.join("`, `"),
                    if writers.len() == 1 {
                        "writes"
                    } else {
                        "write"
                    },
                    named.name
                ));
            }
            out.push(d.help(format!(
                "declare [indexes.{}] with its key attributes (and create it on the table), or serve the pattern from an existing index",
                named.name
            )));
        }
    }
    for index in &model.indexes {
        let users: Vec<&Pattern> = model
            .patterns
            .iter()
            .filter(|p| p.index_name() == Some(index.name.as_str()))
            .collect();
        if users.is_empty() {
            out.push(
                Diagnostic::warning(
                    Rule::IndexUsage,
                    format!("index `{}` is used by no access pattern", index.name),
                    index.span.clone(),
                )
                .note("every index costs write capacity and storage for each item it holds")
                .help(format!(
                    "remove [indexes.{}], or add the access pattern that needs it",
                    index.name
                )),
            );
        }
        if index.sparse
            && !model.entities.is_empty()
            && model.entities.iter().all(|e| {
                e.key_field(&index.partition_key)
                    .is_some_and(|k| k.condition.is_none())
            })
        {
            out.push(
                Diagnostic::warning(
                    Rule::IndexUsage,
                    format!(
                        "sparse index `{}` is not sparse: every entity always writes `{}`",
                        index.name, index.partition_key
                    ),
                    index.span.clone(),
                )
                .help(format!(
                    "write `{}` only on the items the index is for (see `key_conditions`)",
                    index.partition_key
                )),
            );
        }
    }
    // Redundant GSIs: two GSIs whose patterns serve disjoint entities can be one overloaded GSI.
    let gsis: Vec<_> = model
        .indexes
        .iter()
        .filter(|i| i.kind == IndexKind::Global)
        .collect();
    let served = |name: &str| -> BTreeSet<&str> {
        model
            .patterns
            .iter()
            .filter(|p| p.index_name() == Some(name))
            .flat_map(|p| p.returns.iter().map(|r| r.name.as_str()))
            .collect()
    };
    for (i, a) in gsis.iter().enumerate() {
        for b in &gsis[i + 1..] {
            let (sa, sb) = (served(&a.name), served(&b.name));
            if sa.is_empty() || sb.is_empty() || !sa.is_disjoint(&sb) {
                continue;
            }
            if a.projection != b.projection || a.sort_key.is_some() != b.sort_key.is_some() {
                continue;
            }
            // Only mergeable when no entity writes both indexes' keys.
            let both = model
                .entities
                .iter()
                .any(|e| e.key(Some(&a.name)).is_some() && e.key(Some(&b.name)).is_some());
            if both {
                continue;
            }
            out.push(
                Diagnostic::warning(
                    Rule::IndexUsage,
                    format!("index `{}` could be folded into `{}`: their patterns serve different entities", b.name, a.name),
                    b.span.clone(),
                )
                .note(format!(
                    "`{}` serves `{}`; `{}` serves `{}`",
                    a.name,
                    sa.into_iter().collect::<Vec<_>>().join("`, `"),
                    b.name,
                    sb.into_iter().collect::<Vec<_>>().join("`, `")
                ))
                .help(format!("overload `{}`: write its key attributes with entity-specific prefixes and drop `{}`", a.name, b.name)),
            );
        }
    }
}
