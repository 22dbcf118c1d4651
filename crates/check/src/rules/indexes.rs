//! Index and query rules: MT007 scan or filter, MT008 unprojected attributes,
//! MT013 index usage, MT014 unpaginated unbounded queries.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;

use monotable_model::{
    AttributeType, EntityDecl, Index, IndexKind, KeyTest, Model, Operation, Pattern,
    ProjectionType, RelationKind, Segment,
};

use super::lookup::Lookup;
use super::native::{key_listing, native_index};
use super::{comma_listing, listing, where_};
use crate::diagnostic::{Diagnostic, Rule};
use crate::num;

pub(crate) fn check(model: &Model, lookup: &Lookup<'_>, out: &mut Vec<Diagnostic>) {
    for p in &model.patterns {
        scan_and_filter(model, p, out);
        projection(model, p, out);
        pagination(model, lookup, p, out);
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
            let keyed_in = keyed.map(|k| k.index.clone()).or_else(|| {
                model
                    .indexes
                    .iter()
                    .find(|i| i.native_member(e) && i.key_attributes().any(|k| k.name == f.name))
                    .map(|i| Some(i.name.clone()))
            });
            if let Some(index) = keyed_in {
                let index = index.as_deref();
                out.push(
                    Diagnostic::warning(
                        Rule::ScanOrFilter,
                        format!("filter on `{}` in `{}` does the work of a key condition", f.name, p.name),
                        f.span.clone(),
                    )
                    .note(format!(
                        "`{}` is part of `{}`'s key in {}; a filter still reads and bills every item it discards",
                        f.name, e.name, where_(index)
                    ))
                    .help(format!("query {} with `{}` in the key condition instead", where_(index), f.name)),
                );
                break;
            }
        }
    }
}

/// The attributes of `e` an index entry gives back without a GetItem: the key attributes it
/// projects, and the variables of the templates the entity writes to them (read back from the
/// key, as `KeyTemplate::extract` does).
fn recoverable<'m>(model: &'m Model, index: &Index, e: &'m EntityDecl) -> BTreeSet<&'m str> {
    let mut keys: Vec<&str> = vec![model.table.partition_key.name.as_str()];
    keys.extend(model.table.sort_key.as_ref().map(|k| k.name.as_str()));
    keys.push(index.partition_key.as_str());
    keys.extend(index.sort_key.as_deref());
    keys.iter()
        .filter_map(|k| e.key_field(k))
        .flat_map(|f| f.template.recoverable_variables())
        .collect()
}

/// The key attributes an entry of `index` holds: the table's, the index's own (every attribute of
/// a native key, which are the item's own values), and the synthetic key attributes of every
/// index (never data a pattern reads). The native key attributes of *other* indexes are data:
/// only projected when this index's projection says so.
fn projected_keys<'m>(model: &'m Model, index: &'m Index) -> BTreeSet<&'m str> {
    let mut keys: BTreeSet<&str> = std::iter::once(&model.table.partition_key)
        .chain(model.table.sort_key.as_ref())
        .chain(index.key_attributes())
        .map(|k| k.name.as_str())
        .collect();
    for other in model.indexes.iter().filter(|i| !i.native) {
        keys.extend(other.key_attributes().map(|k| k.name.as_str()));
    }
    keys
}

/// The attributes `p` reads that its index neither projects nor carries in a projected key.
fn unprojected<'m>(
    model: &'m Model,
    p: &'m Pattern,
    index: &'m Index,
    default_span: &Range<usize>,
) -> Vec<(&'m str, Range<usize>)> {
    let mut projected = projected_keys(model, index);
    if index.projection == ProjectionType::Include {
        projected.extend(index.include.iter().map(String::as_str));
    }
    let returned: Vec<(&EntityDecl, BTreeSet<&str>)> = p
        .returns
        .iter()
        .filter_map(|r| model.entity(&r.name))
        .map(|e| (e, recoverable(model, index, e)))
        .collect();
    // Missing when some returned entity that has it cannot give it back, or none has it.
    let missing = |name: &str| {
        !projected.contains(name) && {
            let holders: Vec<_> = returned
                .iter()
                .filter(|(e, _)| e.attribute(name).is_some())
                .collect();
            holders.is_empty()
                || holders
                    .iter()
                    .any(|(_, from_keys)| !from_keys.contains(name))
        }
    };
    let wanted: Vec<(&str, Range<usize>)> = match &p.reads {
        Some(reads) => reads
            .iter()
            .map(|r| (r.name.as_str(), r.span.clone()))
            .collect(),
        None => returned
            .iter()
            .flat_map(|(e, _)| {
                e.attributes
                    .iter()
                    .map(|a| (a.name.as_str(), default_span.clone()))
            })
            .collect(),
    };
    let mut out: Vec<(&str, Range<usize>)> =
        wanted.into_iter().filter(|(a, _)| missing(a)).collect();
    out.sort_by(|a, b| a.0.cmp(b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// What an index entry holds, for MT008's note.
fn projection_note(index: &Index) -> String {
    let what = match index.projection {
        ProjectionType::KeysOnly => "KEYS_ONLY (table and index keys)",
        ProjectionType::Include => "INCLUDE (keys plus its `include` list)",
        _ => "ALL",
    };
    if index.native {
        format!(
            "`{}` projects {what}; its key attributes, {}, are the items' own values, always projected; reading anything else costs a GetItem per result",
            index.name,
            key_listing(index)
        )
    } else {
        format!(
            "`{}` projects {what} and what the templates of those keys carry (`REPO#{{owner}}` gives `owner`); reading anything else costs a GetItem per result",
            index.name
        )
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
    let missing = unprojected(model, p, index, &named.span);
    let Some(first) = missing.iter().min_by_key(|(_, span)| span.start) else {
        return;
    };
    let span = match &p.reads {
        Some(_) => first.1.clone(),
        None => named.span.clone(),
    };
    let list = missing
        .iter()
        .map(|(a, _)| *a)
        .collect::<Vec<_>>()
        .join("`, `");
    out.push(
        Diagnostic::error(
            Rule::Unprojected,
            format!("access pattern `{}` reads `{list}`, which index `{}` does not project", p.name, index.name),
            span,
        )
        .note(projection_note(index))
        .help(match &p.reads {
            Some(_) => format!("add `{list}` to `include` of [indexes.{}] (or project ALL)", index.name),
            None => format!("list what the pattern needs in `reads = [...]`, then project it with `include` on [indexes.{}]", index.name),
        }),
    );
}

/// What one Query page holds.
const PAGE_BYTES: u64 = 1024 * 1024;

/// How many values a sort-key variable can take, when the design bounds it: an enum's values,
/// a boolean's two, a `cardinality`, the numbers a padding width holds.
fn var_bound(e: &EntityDecl, name: &str, pad: Option<usize>) -> Option<u64> {
    let a = e.attribute(name)?;
    let from_pad = pad
        .and_then(|w| u32::try_from(w).ok())
        .and_then(|w| 10u64.checked_pow(w));
    let from_type = match a.ty {
        AttributeType::Enum => Some(num::count(a.values.len())),
        AttributeType::Boolean => Some(2),
        _ => None,
    };
    [a.cardinality, from_type, from_pad]
        .into_iter()
        .flatten()
        .min()
}

/// At most how many `e` items one partition of `idx` holds, when the design says: one (its
/// sort key only repeats partition-key variables), a relation `max`, or the product of the
/// bounds of its other sort-key variables.
fn partition_bound(lookup: &Lookup<'_>, e: &EntityDecl, idx: Option<&str>) -> Option<u64> {
    let keys = e.key(idx)?;
    let pk_vars: BTreeSet<&str> = keys.pk.template.variables().collect();
    let Some(sk) = &keys.sk else { return Some(1) };
    let design = sk
        .template
        .segments()
        .iter()
        .try_fold(1u64, |n, s| match s {
            Segment::Var { name, .. } if pk_vars.contains(name.as_str()) => Some(n),
            Segment::Var { name, pad } => n.checked_mul(var_bound(e, name, *pad)?),
            Segment::Literal(_) => Some(n),
        });
    let related = lookup
        .owners
        .get(e.name.as_str())
        .into_iter()
        .flatten()
        .filter_map(|(owner, rel)| {
            let shares = rel.index.as_deref() == idx
                && owner
                    .key(idx)
                    .is_some_and(|ok| ok.pk.template == keys.pk.template);
            match rel.kind {
                _ if !shares => None,
                RelationKind::One => Some(1),
                RelationKind::Many => rel.max,
            }
        });
    design.into_iter().chain(related).min()
}

/// At most how many `e` items one partition of native `index` holds that `p` reads: the
/// product of the bounds of the sort attributes `p` does not fix by an equality (an enum's
/// values, a boolean's two, a `cardinality`), or a relation `max` on the index. A native index
/// without sort attributes bounds nothing: any number of items can share its partition.
fn native_bound(lookup: &Lookup<'_>, p: &Pattern, e: &EntityDecl, index: &Index) -> Option<u64> {
    let fixed = |name: &str| {
        p.key
            .iter()
            .any(|k| k.attribute == name && matches!(k.condition, KeyTest::Eq(_)))
    };
    let design = (!index.sort_keys.is_empty())
        .then(|| {
            index
                .sort_keys
                .iter()
                .filter(|k| !fixed(&k.name))
                .try_fold(1u64, |n, k| n.checked_mul(var_bound(e, &k.name, None)?))
        })
        .flatten();
    let related = lookup
        .owners
        .get(e.name.as_str())
        .into_iter()
        .flatten()
        .filter(|(owner, rel)| {
            rel.index.as_deref() == Some(index.name.as_str()) && index.native_member(owner)
        })
        .filter_map(|(_, rel)| match rel.kind {
            RelationKind::One => Some(1),
            RelationKind::Many => rel.max,
        });
    design.into_iter().chain(related).min()
}

/// Whether the pattern needs no paging: it reads at most one item, or partitions the design
/// bounds to what one 1 MB page holds. `Err` holds, for a bound too large for a page, what
/// the bound is (`at most 10000 `OrderItem` items of ~1024 B: ~10000 KB`). On a native index
/// an equality on the last sort attribute given still leaves the attributes after it free.
fn bounded(model: &Model, lookup: &Lookup<'_>, p: &Pattern) -> Result<(), Option<String>> {
    let native = native_index(model, p.index_name());
    if p.unique
        || p.limit.is_some()
        || native.is_none() && matches!(p.sk.as_ref().map(|k| &k.condition), Some(KeyTest::Eq(_)))
    {
        return Ok(());
    }
    if p.operation == Operation::Scan {
        return Err(None);
    }
    let idx = p.index_name();
    let mut bytes: u64 = 0;
    let mut parts = Vec::new();
    for e in p.returns.iter().filter_map(|r| model.entity(&r.name)) {
        let items = match native {
            Some(index) if index.native_member(e) => native_bound(lookup, p, e, index),
            None if e.key(idx).is_some() => partition_bound(lookup, e, idx),
            _ => continue,
        };
        let items = items.ok_or(None)?;
        let size = model.traffic.item_size_bytes(&e.name);
        bytes = bytes.saturating_add(items.saturating_mul(size));
        parts.push(format!(
            "{items} `{}` item{} of ~{size} B",
            e.name,
            if items == 1 { "" } else { "s" }
        ));
    }
    if bytes <= PAGE_BYTES {
        Ok(())
    } else {
        Err(Some(format!(
            "at most {}: ~{} KB",
            parts.join(" and "),
            bytes.div_ceil(1024)
        )))
    }
}

fn pagination(model: &Model, lookup: &Lookup<'_>, p: &Pattern, out: &mut Vec<Diagnostic>) {
    if !matches!(p.operation, Operation::Query | Operation::Scan) || p.paginate {
        return;
    }
    let Err(over) = bounded(model, lookup, p) else {
        return;
    };
    let what = if over.is_some() {
        "more than one page"
    } else {
        "unbounded results"
    };
    let mut d = Diagnostic::warning(
        Rule::Unpaginated,
        format!("access pattern `{}` can return {what} but does not paginate", p.name),
        p.key_span(),
    )
    .note("a Query returns at most 1 MB per call; without following `LastEvaluatedKey` the rest is silently dropped");
    if let Some(bound) = over {
        d = d.note(format!(
            "the design bounds one partition to {bound}, more than one 1 MB page"
        ));
    }
    if let Some(note) = native_index(model, p.index_name()).and_then(|i| free_note(model, p, i)) {
        d = d.note(note);
    }
    out.push(d.help("set `paginate = true` (and a `limit`) and page with `ExclusiveStartKey`, or bound the collection with a relation `max`"));
}

/// On a native index: the sort attributes `p` leaves free (no equality) that nothing bounds
/// for some returned entity, or the lack of sort attributes.
fn free_note(model: &Model, p: &Pattern, index: &Index) -> Option<String> {
    if index.sort_keys.is_empty() {
        return Some(format!(
            "native index `{}` has no sort attributes: any number of items share a partition",
            index.name
        ));
    }
    let returned: Vec<&EntityDecl> = p
        .returns
        .iter()
        .filter_map(|r| model.entity(&r.name))
        .filter(|e| index.native_member(e))
        .collect();
    let free: Vec<&str> = index
        .sort_keys
        .iter()
        .map(|k| k.name.as_str())
        .filter(|name| {
            !p.key
                .iter()
                .any(|k| k.attribute == *name && matches!(k.condition, KeyTest::Eq(_)))
        })
        .filter(|name| returned.iter().any(|e| var_bound(e, name, None).is_none()))
        .collect();
    (!free.is_empty()).then(|| {
        format!(
            "on native index `{}` the pattern leaves {} free (no equality), and no enum, boolean or `cardinality` bounds {}: any number of items can share the rest of the key",
            index.name,
            listing(&free),
            if free.len() == 1 { "it" } else { "them" }
        )
    })
}

/// On a sparse native index, every entity meant to be sparse in it that declares every key
/// attribute `required`: all its items are in the index.
fn not_sparse_native<'m>(
    model: &'m Model,
    index: &'m Index,
) -> impl Iterator<Item = Diagnostic> + 'm {
    model
        .entities
        .iter()
        .filter(move |e| index.sparse_for(&e.name) && index.native_always(e))
        .map(move |e| {
            Diagnostic::warning(
                Rule::IndexUsage,
                format!(
                    "sparse index `{}` is not sparse for `{}`: every `{}` holds its key attributes",
                    index.name, e.name, e.name
                ),
                e.span.clone(),
            )
            .note(format!(
                "an item is in native index `{}` when it holds every key attribute ({}); `{}` declares them all `required`, so all of them are in it",
                index.name,
                key_listing(index),
                e.name
            ))
            .help(format!(
                "make the key attribute that says when an item belongs optional (no `required`, written only then, as the shop's `publishedAt`), or, if every `{}` belongs in `{}`, name only the entities that are sparse in it: `sparse = [\"...\"]`",
                e.name, index.name
            ))
        })
}

/// On a sparse index, every entity meant to be sparse in it that writes its key unconditionally.
fn not_sparse<'m>(model: &'m Model, index: &'m Index) -> impl Iterator<Item = Diagnostic> + 'm {
    let idx = Some(index.name.as_str());
    model
        .entities
        .iter()
        .filter(move |e| index.sparse_for(&e.name))
        .filter_map(move |e| e.key(idx).filter(|k| !k.is_conditional()).map(|k| (e, k)))
        .map(move |(e, k)| {
            Diagnostic::warning(
                Rule::IndexUsage,
                format!(
                    "sparse index `{}` is not sparse for `{}`: every `{}` writes `{}`",
                    index.name, e.name, e.name, index.partition_key
                ),
                k.pk.span.clone(),
            )
            .note(format!(
                "an item is in an index when it has the index's key attributes; `{}` writes them unconditionally, so all of them are in `{}`",
                e.name, index.name
            ))
            .help(format!(
                "gate `{}` with `key_conditions` (a boolean that says when the item belongs), or, if every `{}` belongs in `{}`, name only the entities that are sparse in it: `sparse = [\"...\"]`",
                index.partition_key, e.name, index.name
            ))
        })
}

fn usage(model: &Model, out: &mut Vec<Diagnostic>) {
    // The entities writing each key attribute, so that those writing `NAME*` attributes are a
    // range of it, found once per undeclared index name.
    let mut by_attribute: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, e) in model.entities.iter().enumerate() {
        for k in &e.keys {
            by_attribute
                .entry(k.attribute.as_str())
                .or_default()
                .push(i);
        }
    }
    let mut writers_of: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for p in &model.patterns {
        if let Some(named) = &p.index
            && model.index(&named.name).is_none()
        {
            let name = named.name.as_str();
            let writers = writers_of.entry(name).or_insert_with(|| {
                let mut found: Vec<usize> = by_attribute
                    .range(name..)
                    .take_while(|(a, _)| a.starts_with(name))
                    .flat_map(|(_, es)| es.iter().copied())
                    .collect();
                found.sort_unstable();
                found.dedup();
                found
                    .into_iter()
                    .map(|i| model.entities[i].name.as_str())
                    .collect()
            });
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
                    "{} {} `{}*` attributes, but without the index they are plain attributes",
                    comma_listing(writers),
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
        if index.native {
            out.extend(not_sparse_native(model, index));
        } else {
            out.extend(not_sparse(model, index));
        }
    }
    out.extend(foldable(model));
}

/// Redundant GSIs: GSIs whose patterns serve disjoint entities can be one overloaded GSI. One
/// finding per group: each GSI joins the first earlier one it can be folded into together with
/// every GSI already folded there (their patterns serve different entities pairwise, and no
/// entity writes two of them). Not a native one: its keys are the items' own values, with no
/// prefix to overload by.
fn foldable(model: &Model) -> Vec<Diagnostic> {
    let gsis: Vec<&Index> = model
        .indexes
        .iter()
        .filter(|i| i.kind == IndexKind::Global && !i.native)
        .collect();
    let mut served: HashMap<&str, BTreeSet<&str>> = HashMap::new();
    for p in &model.patterns {
        if let Some(name) = p.index_name() {
            served
                .entry(name)
                .or_default()
                .extend(p.returns.iter().map(|r| r.name.as_str()));
        }
    }
    let empty = BTreeSet::new();
    let serves = |i: &Index| served.get(i.name.as_str()).unwrap_or(&empty);
    let mergeable = |a: &Index, b: &Index| {
        let (sa, sb) = (serves(a), serves(b));
        !sa.is_empty()
            && !sb.is_empty()
            && sa.is_disjoint(sb)
            && a.projection == b.projection
            && a.sort_key.is_some() == b.sort_key.is_some()
            // Only mergeable when no entity writes both indexes' keys.
            && !model
                .entities
                .iter()
                .any(|e| e.key(Some(&a.name)).is_some() && e.key(Some(&b.name)).is_some())
    };
    let mut folded = vec![false; gsis.len()];
    let mut out = Vec::new();
    for (i, a) in gsis.iter().enumerate() {
        if folded[i] {
            continue;
        }
        let mut group: Vec<&Index> = Vec::new();
        for (j, b) in gsis.iter().enumerate().skip(i + 1) {
            if !folded[j] && mergeable(a, b) && group.iter().all(|g| mergeable(g, b)) {
                folded[j] = true;
                group.push(b);
            }
        }
        if let Some(first) = group.first() {
            let names: Vec<&str> = group.iter().map(|g| g.name.as_str()).collect();
            let served_note: Vec<String> = std::iter::once(*a)
                .chain(group.iter().copied())
                .map(|g| {
                    let list: Vec<&str> = serves(g).iter().copied().collect();
                    format!("`{}` serves {}", g.name, comma_listing(&list))
                })
                .collect();
            let (what, verb) = if names.len() == 1 {
                ("index", "could be")
            } else {
                ("indexes", "could all be")
            };
            out.push(
                Diagnostic::warning(
                    Rule::IndexUsage,
                    format!(
                        "{what} {} {verb} folded into `{}`: their patterns serve different entities",
                        listing(&names),
                        a.name
                    ),
                    first.span.clone(),
                )
                .note(served_note.join("; "))
                .help(format!(
                    "overload `{}`: write its key attributes with entity-specific prefixes and drop {}",
                    a.name,
                    listing(&names)
                )),
            );
        }
    }
    out
}
