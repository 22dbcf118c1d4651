//! Changes to the table itself and to its indexes, compared as the CreateTable definition each
//! model implies, and the model-only changes (patterns).

use monotable_model::definition::{SecondaryIndex, table_definition};
use monotable_model::{KeyAttribute, Model};

use super::Change;

fn key_text(key: Option<&KeyAttribute>) -> String {
    key.map_or_else(
        || "none".to_string(),
        |k| format!("{} ({:?})", k.name, k.ty),
    )
}

/// The table's key schema, name, billing mode and TTL.
pub(super) fn table_changes(old: &Model, new: &Model) -> Vec<Change> {
    let mut out = Vec::new();
    let (o, n) = (&old.table, &new.table);
    let keys = [
        (
            "partition key",
            Some(&o.partition_key),
            Some(&n.partition_key),
        ),
        ("sort key", o.sort_key.as_ref(), n.sort_key.as_ref()),
    ];
    for (what, from, to) in keys {
        let same = match (from, to) {
            (Some(a), Some(b)) => a.name == b.name && a.ty == b.ty,
            (None, None) => true,
            _ => false,
        };
        if !same {
            out.push(Change::Blocked {
                what: format!("the table's {what}: {} -> {}", key_text(from), key_text(to)),
                why: "DynamoDB cannot change a table's key schema or a key's type".to_string(),
                help: "create a new table from NEW (another table name) and copy the items into it, rewritten; then switch the app over".to_string(),
            });
        }
    }
    if o.name != n.name {
        out.push(Change::Blocked {
            what: format!("the table's name: {} -> {}", o.name, n.name),
            why: "DynamoDB cannot rename a table".to_string(),
            help: format!(
                "keep `name = \"{}\"`, or create `{}` from NEW and copy the items",
                o.name, n.name
            ),
        });
    }
    let (ob, nb) = (
        table_definition(old).billing.mode(),
        table_definition(new).billing.mode(),
    );
    if ob != nb {
        out.push(Change::Billing {
            from: ob.to_string(),
            to: nb.to_string(),
        });
    }
    if o.ttl_attribute != n.ttl_attribute {
        out.push(Change::Ttl {
            from: o.ttl_attribute.clone(),
            to: n.ttl_attribute.clone(),
        });
    }
    out
}

fn describe(index: &SecondaryIndex) -> String {
    let hash = index.key_schema.partition_keys.join(" + ");
    let range = index.key_schema.sort_keys.join(" + ");
    let projection = match index.projection.non_key_attributes() {
        Some(attributes) => format!("INCLUDE {}", attributes.join(", ")),
        None => index.projection.projection_type().to_string(),
    };
    if range.is_empty() {
        format!("key {hash}, projection {projection}")
    } else {
        format!("key {hash} / {range}, projection {projection}")
    }
}

/// The type each model gives a key attribute, when both declare it and they differ.
fn key_type_change(old: &Model, new: &Model, index: &SecondaryIndex) -> Option<String> {
    index.key_schema.elements().find_map(|(name, _)| {
        let (a, b) = (old.key_attribute_type(name)?, new.key_attribute_type(name)?);
        (a != b).then(|| format!("key attribute `{name}` changes type {a:?} -> {b:?}"))
    })
}

/// Global indexes created, deleted or recreated; local ones only at table creation.
pub(super) fn index_changes(old: &Model, new: &Model) -> Vec<Change> {
    let (o, n) = (table_definition(old), table_definition(new));
    let mut out = Vec::new();
    for index in &n.global_secondary_indexes {
        match o
            .global_secondary_indexes
            .iter()
            .find(|i| i.name == index.name)
        {
            None => out.push(Change::CreateIndex {
                index: index.name.clone(),
                native: new.index(&index.name).is_some_and(|i| i.native),
            }),
            Some(before) => {
                let what = if before.key_schema != index.key_schema
                    || before.projection != index.projection
                {
                    Some(format!("{} -> {}", describe(before), describe(index)))
                } else {
                    key_type_change(old, new, index)
                };
                if let Some(what) = what {
                    out.push(Change::RecreateIndex {
                        index: index.name.clone(),
                        what,
                    });
                }
            }
        }
    }
    for index in &o.global_secondary_indexes {
        if !n
            .global_secondary_indexes
            .iter()
            .any(|i| i.name == index.name)
        {
            out.push(Change::DeleteIndex {
                index: index.name.clone(),
            });
        }
    }
    let (ol, nl) = (&o.local_secondary_indexes, &n.local_secondary_indexes);
    let names: std::collections::BTreeSet<&str> =
        ol.iter().chain(nl).map(|i| i.name.as_str()).collect();
    for name in names {
        let (a, b) = (
            ol.iter().find(|i| i.name == name),
            nl.iter().find(|i| i.name == name),
        );
        if a != b {
            out.push(Change::Blocked {
                what: format!("local index `{name}` is added, removed or changed"),
                why: "a local secondary index exists only from the table's creation".to_string(),
                help: "make it a global index, or create a new table from NEW and copy the items"
                    .to_string(),
            });
        }
    }
    out
}

/// Patterns added, removed or changed: the model changes, the table does not.
pub(super) fn model_only(old: &Model, new: &Model) -> Vec<Change> {
    let mut out = Vec::new();
    for p in &new.patterns {
        match old.pattern(&p.name) {
            None => out.push(Change::ModelOnly {
                what: format!("new pattern `{}`", p.name),
            }),
            Some(before) if !same_pattern(before, p) => out.push(Change::ModelOnly {
                what: format!("pattern `{}` changed", p.name),
            }),
            Some(_) => {}
        }
    }
    for p in &old.patterns {
        if new.pattern(&p.name).is_none() {
            out.push(Change::ModelOnly {
                what: format!("pattern `{}` removed", p.name),
            });
        }
    }
    out
}

/// Two patterns are the same when they differ only in where they sit in the file.
fn same_pattern(a: &monotable_model::Pattern, b: &monotable_model::Pattern) -> bool {
    let strip = |p: &monotable_model::Pattern| {
        let text = format!("{p:?}");
        strip_spans(&text)
    };
    strip(a) == strip(b)
}

/// `{:?}` text with every `span: a..b` and `*_span: a..b` removed.
fn strip_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("span: ") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 6..];
        let end = after
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(after.len());
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}
