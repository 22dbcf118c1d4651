//! MT016 native-key candidate (info): a synthetic key of a global index whose templates are
//! made only of the entity's own typed, required attributes could be a native multi-attribute
//! key. The item then stops storing the synthetic attributes (their names and values), and
//! nothing is backfilled: every item already holds the attributes the native key reads.
//!
//! Silent when the literals of the templates do work a native key cannot: another entity in
//! the index writes keys that the templates without their literals could equal (the prefix is
//! what keeps the two apart), another entity declares every attribute the native key would
//! read (it would join the index, with no prefix to tell them apart), or a pattern reads the
//! entity together with another from the index (a shared item collection) or at a key it is
//! not written under (the other rules report that first). Also silent for a key gated by
//! `key_conditions` (sparse by a boolean, which a native key cannot express), and for a
//! template over an optional attribute, a boolean, a list, or more attributes than DynamoDB
//! takes.

use std::collections::HashMap;

use monotable_model::{
    Attribute, AttributeType, EntityDecl, Index, IndexKind, KeyAttribute, KeyAttributeType,
    KeyTemplate, Model, ProjectionType, TimestampFormat,
};

use super::keys::key_match;
use super::lookup::{KeyShapes, Lookup, Writers};
use super::{entity_shape, listing};
use crate::cost::{self, PriceTable, Saving};
use crate::diagnostic::{Diagnostic, Rule};
use crate::shape::Shape;

/// DynamoDB's bound on the attributes of one native key, partition or sort.
const MAX_NATIVE_ATTRIBUTES: usize = 4;

/// One synthetic key that could be native, with the attributes the native key would read.
struct Candidate<'m, 'w> {
    index: &'m Index,
    shapes: &'w KeyShapes<'m>,
    partition: Vec<KeyAttribute>,
    sort: Vec<KeyAttribute>,
}

impl Candidate<'_, '_> {
    fn entity(&self) -> &EntityDecl {
        self.shapes.entity
    }

    fn attributes(&self) -> impl Iterator<Item = &KeyAttribute> {
        self.partition.iter().chain(&self.sort)
    }

    /// `` `keys.GSI3PK` and `keys.GSI3SK` ``.
    fn keys_written(&self) -> String {
        let keys = self.shapes.keys;
        let mut names = vec![format!("keys.{}", keys.pk.attribute)];
        names.extend(keys.sk.as_ref().map(|k| format!("keys.{}", k.attribute)));
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        listing(&names)
    }
}

pub(crate) fn check(model: &Model, lookup: &Lookup<'_>, out: &mut Vec<Diagnostic>) {
    let synthetic = model
        .indexes
        .iter()
        .filter(|i| i.kind == IndexKind::Global && !i.native);
    let mut declarers: Option<HashMap<&str, Vec<&EntityDecl>>> = None;
    for index in synthetic {
        let Some(writers) = lookup.writers(Some(&index.name)) else {
            continue;
        };
        for shapes in &writers.shapes {
            let Some(c) = candidate(model, index, shapes) else {
                continue;
            };
            let declarers = declarers.get_or_insert_with(|| by_attribute(model));
            if kept_apart(&c, writers)
                || joined_by_another(&c, declarers)
                || shared_or_disputed(model, lookup, &c)
            {
                continue;
            }
            out.push(report(model, lookup, &c, writers));
        }
    }
}

/// The key type an attribute fits as a native key attribute: `N` for numbers and epoch
/// timestamps, `S` for strings, enums and ISO 8601 timestamps; none for other types, or when
/// the table already keys on the name with another type.
fn key_type(model: &Model, a: &Attribute) -> Option<KeyAttributeType> {
    let epoch = matches!(
        a.format,
        Some(TimestampFormat::EpochSeconds | TimestampFormat::EpochMillis)
    );
    let ty = match a.ty {
        AttributeType::Integer
        | AttributeType::Decimal
        | AttributeType::Number
        | AttributeType::Float => KeyAttributeType::N,
        AttributeType::Timestamp if epoch => KeyAttributeType::N,
        AttributeType::String | AttributeType::Enum | AttributeType::Timestamp => {
            KeyAttributeType::S
        }
        _ => return None,
    };
    match model.key_attribute_type(&a.name) {
        Some(declared) if declared != ty => None,
        _ => Some(ty),
    }
}

/// The variables of `template` not already in `taken`, each a required attribute of `e` of a
/// key type, in order; `None` when one is not.
fn typed(
    model: &Model,
    e: &EntityDecl,
    template: &KeyTemplate,
    taken: &[KeyAttribute],
) -> Option<Vec<KeyAttribute>> {
    let mut out: Vec<KeyAttribute> = Vec::new();
    for var in template.variables() {
        if taken.iter().chain(&out).any(|k| k.name == var) {
            continue;
        }
        let a = e.attribute(var).filter(|a| a.required)?;
        out.push(KeyAttribute {
            name: var.to_string(),
            ty: key_type(model, a)?,
        });
    }
    Some(out)
}

fn candidate<'m, 'w>(
    model: &Model,
    index: &'m Index,
    shapes: &'w KeyShapes<'m>,
) -> Option<Candidate<'m, 'w>> {
    let (e, keys) = (shapes.entity, shapes.keys);
    if keys.is_conditional() {
        return None;
    }
    let partition = typed(model, e, &keys.pk.template, &[])?;
    let sort = match &keys.sk {
        Some(sk) => typed(model, e, &sk.template, &partition)?,
        None => Vec::new(),
    };
    let fits = (1..=MAX_NATIVE_ATTRIBUTES).contains(&partition.len())
        && sort.len() <= MAX_NATIVE_ATTRIBUTES;
    fits.then_some(Candidate {
        index,
        shapes,
        partition,
        sort,
    })
}

/// The shape of the attributes' values run together, as a template without its literals:
/// what the key could equal once its prefixes are gone.
fn bare(e: &EntityDecl, keys: &[KeyAttribute]) -> Option<Shape> {
    let text: String = keys.iter().map(|k| format!("{{{}}}", k.name)).collect();
    KeyTemplate::parse(&text).ok().map(|t| entity_shape(e, &t))
}

/// Whether the literals are what keeps another writer of the index apart from the entity: the
/// bare values could equal that writer's keys. Only writers whose partition key can start like
/// the bare one are compared.
fn kept_apart(c: &Candidate<'_, '_>, writers: &Writers<'_>) -> bool {
    let Some(pk) = bare(c.entity(), &c.partition) else {
        return true;
    };
    let sk = bare(c.entity(), &c.sort).filter(|_| !c.sort.is_empty());
    let probes: Vec<String> = pk.first_chars().map_or_else(
        || vec![String::new()],
        |chars| chars.iter().map(char::to_string).collect(),
    );
    probes
        .iter()
        .flat_map(|probe| writers.candidates(probe, ""))
        .filter(|b| !std::ptr::eq(b.entity, c.entity()))
        .any(|b| {
            pk.overlaps(&b.pk)
                && match (&sk, &b.sk) {
                    (Some(x), Some(y)) => x.overlaps(y),
                    _ => true,
                }
        })
}

/// The entities declaring each attribute name.
fn by_attribute(model: &Model) -> HashMap<&str, Vec<&EntityDecl>> {
    let mut out: HashMap<&str, Vec<&EntityDecl>> = HashMap::new();
    for e in &model.entities {
        for a in &e.attributes {
            out.entry(a.name.as_str()).or_default().push(e);
        }
    }
    out
}

/// Whether another entity declares every attribute the native key would read: it would be in
/// the native index too, with nothing to tell the two apart.
fn joined_by_another(c: &Candidate<'_, '_>, declarers: &HashMap<&str, Vec<&EntityDecl>>) -> bool {
    let fewest = c
        .attributes()
        .filter_map(|k| declarers.get(k.name.as_str()))
        .min_by_key(|list| list.len());
    fewest.into_iter().flatten().any(|other| {
        other.name != c.entity().name && c.attributes().all(|k| other.attribute(&k.name).is_some())
    })
}

/// Whether a pattern on the index reads the entity together with another entity (a shared
/// item collection), or reads it with a key it is not written under (MT002, MT003, MT004 say
/// which): the key does more, or other, work than the native one could.
fn shared_or_disputed(model: &Model, lookup: &Lookup<'_>, c: &Candidate<'_, '_>) -> bool {
    let e = c.entity();
    lookup.returning(&e.name).iter().any(|p| {
        p.index_name() == Some(c.index.name.as_str())
            && (p.returns.iter().any(|r| r.name != e.name)
                || key_match(model, p, e, c.shapes.keys) != (true, true))
    })
}

/// `[{ name = "day", type = "S" }, { name = "shard", type = "N" }]`.
fn toml_list(keys: &[KeyAttribute]) -> String {
    let items: Vec<String> = keys
        .iter()
        .map(|k| format!("{{ name = \"{}\", type = \"{:?}\" }}", k.name, k.ty))
        .collect();
    format!("[{}]", items.join(", "))
}

/// A name for a native index of the entity's own: `OrderByStatus`, made unique.
fn new_index_name(model: &Model, c: &Candidate<'_, '_>) -> String {
    let first = c.partition.first().map_or("", |k| k.name.as_str());
    let mut chars = first.chars();
    let capital: String = chars
        .next()
        .map(|f| f.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    let base = format!("{}By{capital}", c.entity().name);
    let mut name = base.clone();
    let mut n = 2;
    while model.index(&name).is_some() {
        name = format!("{base}{n}");
        n += 1;
    }
    name
}

/// The declaration that replaces the synthetic key, as TOML, with what it replaces: the index
/// itself when the entity is its only writer, else a native index of the entity's own.
fn declaration(model: &Model, c: &Candidate<'_, '_>, alone: bool) -> (String, String) {
    let fields = c.keys_written();
    let (name, intro) = if alone {
        (
            c.index.name.clone(),
            format!(
                "declare `{}` natively (DynamoDB creates it anew: an index's keys do not change in place) and drop {} from `{}`",
                c.index.name,
                fields,
                c.entity().name
            ),
        )
    } else {
        (
            new_index_name(model, c),
            format!(
                "give `{}` a native index of its own and drop {} from it; `{}` keeps its other entities",
                c.entity().name,
                fields,
                c.index.name
            ),
        )
    };
    let mut lines = vec![format!("[indexes.{name}]")];
    lines.push(format!("partition_key = {}", toml_list(&c.partition)));
    if !c.sort.is_empty() {
        lines.push(format!("sort_key = {}", toml_list(&c.sort)));
    }
    if !alone {
        lines.push(projection_line(c.index));
    }
    (format!("{intro}:"), lines.join("\n"))
}

/// `projection = "ALL"` (with the `include` list for INCLUDE), as the index declares it.
fn projection_line(index: &Index) -> String {
    match index.projection {
        ProjectionType::Include => {
            let include: Vec<String> = index.include.iter().map(|a| format!("\"{a}\"")).collect();
            format!(
                "projection = \"INCLUDE\"\ninclude = [{}]",
                include.join(", ")
            )
        }
        ProjectionType::KeysOnly => "projection = \"KEYS_ONLY\"".to_string(),
        _ => "projection = \"ALL\"".to_string(),
    }
}

/// The bytes each synthetic key attribute takes per item (name + value), by the cost model's
/// size rules.
fn key_bytes(model: &Model, c: &Candidate<'_, '_>) -> Vec<(String, u64)> {
    let keys = c.shapes.keys;
    std::iter::once(&keys.pk)
        .chain(keys.sk.as_ref())
        .map(|f| {
            let bytes = cost::key_field_bytes(model, c.entity(), &f.attribute);
            (f.attribute.clone(), bytes)
        })
        .collect()
}

/// What the smaller items save at the model's traffic, in words.
fn saving_note(model: &Model, entity: &str, saving: &Saving, currency: &str) -> String {
    let (before, after) = saving.write_units;
    let sizes = format!("{} B → {} B", saving.item_bytes, saving.smaller_bytes);
    let writes = if before == after {
        format!("each `{entity}` write stays {before} WCU ({sizes} in 1 KB units)")
    } else {
        format!("each `{entity}` write goes from {before} to {after} WCU ({sizes} in 1 KB units)")
    };
    match (saving.monthly, saving.monthly_saving()) {
        (Some((was, now)), Some(saved)) if saved > rust_decimal::Decimal::ZERO => {
            let reads = if before == after {
                ", so the saving is in reads, which add up item sizes before rounding to 4 KB units"
            } else {
                ""
            };
            format!(
                "at the model's traffic, saves {saved} {currency} a month on demand (the calls that read and write `{entity}`: {was} → {now} {currency}); {writes}{reads}"
            )
        }
        (Some(_), _) => format!(
            "at the model's traffic, on-demand capacity costs the same a month: {writes}, and reads stay in their 4 KB units; the saving is storage"
        ),
        (None, _) if !model.traffic.declared => {
            format!("the model states no [traffic], so no monthly figure: {writes}")
        }
        (None, _) => format!("the monthly figure is too large to price: {writes}"),
    }
}

fn report(
    model: &Model,
    lookup: &Lookup<'_>,
    c: &Candidate<'_, '_>,
    writers: &Writers<'_>,
) -> Diagnostic {
    let e = c.entity();
    let keys = c.shapes.keys;
    let sizes = key_bytes(model, c);
    let total: u64 = sizes.iter().map(|(_, b)| b).sum();
    let each: Vec<String> = sizes
        .iter()
        .map(|(name, bytes)| format!("`{name}` (~{bytes} B)"))
        .collect();
    let names: Vec<&str> = c.attributes().map(|k| k.name.as_str()).collect();
    let pk_names: Vec<&str> = c.partition.iter().map(|k| k.name.as_str()).collect();
    let prices = PriceTable::default();
    let saving = cost::shrink(model, &e.name, total, &lookup.involving(&e.name), &prices);
    let alone = writers.shapes.len() == 1;
    let (intro, toml) = declaration(model, c, alone);
    let conditions: Vec<String> = c
        .partition
        .iter()
        .map(|k| format!("{} = \"{{{}}}\"", k.name, k.name))
        .collect();
    Diagnostic::info(
        Rule::NativeKeyCandidate,
        format!(
            "the key of `{}` in index `{}` can be native: it is built only from `{}`'s own attributes",
            e.name, c.index.name, e.name
        ),
        keys.pk.span.clone(),
    )
    .label(format!("built from {}", listing(&pk_names)))
    .note(format!(
        "saves ~{total} B per `{}` item: {} are no longer stored, in the table or in any index copy; a native key reads the attributes themselves",
        e.name,
        each.join(" and ")
    ))
    .note(saving_note(model, &e.name, &saving, &prices.currency))
    .note(format!(
        "needs no backfill: every `{}` already holds {} (all required), so DynamoDB builds the native index from the items as they are, and no item has to be rewritten",
        e.name,
        listing(&names)
    ))
    .note(format!(
        "patterns on it then give each key attribute its own condition: `key = {{ {}, ... }}`",
        conditions.join(", ")
    ))
    .help(format!("{intro}\n{toml}"))
}
