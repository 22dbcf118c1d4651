//! Changes to entities: renames (stated or inferred), removals, table and index key templates,
//! and required attributes existing items may lack.

use std::collections::BTreeSet;

use monotable_model::{EntityDecl, KeyField, Model};

use super::Change;

/// OLD name to NEW name for every entity NEW keeps, and each entity change.
pub(super) fn entity_changes(old: &Model, new: &Model) -> (Vec<(String, String)>, Vec<Change>) {
    let mut changes = Vec::new();
    let mut pairs: Vec<(&EntityDecl, &EntityDecl)> = Vec::new();
    let mut renames = Vec::new();
    for e in &new.entities {
        let stated = e.renamed_from.as_ref().and_then(|r| old.entity(&r.name));
        if let Some(o) = stated.or_else(|| old.entity(&e.name)) {
            if o.name != e.name {
                changes.push(Change::Rename {
                    from: o.name.clone(),
                    to: e.name.clone(),
                    inferred: false,
                });
            }
            pairs.push((o, e));
        }
    }
    let kept: BTreeSet<&str> = pairs.iter().map(|(o, _)| o.name.as_str()).collect();
    let paired: BTreeSet<&str> = pairs.iter().map(|(_, n)| n.name.as_str()).collect();
    let removed: Vec<&EntityDecl> = old
        .entities
        .iter()
        .filter(|o| !kept.contains(o.name.as_str()))
        .collect();
    let added: Vec<&EntityDecl> = new
        .entities
        .iter()
        .filter(|n| !paired.contains(n.name.as_str()))
        .collect();
    if let ([o], [n]) = (removed.as_slice(), added.as_slice())
        && same_attributes(o, n)
    {
        changes.push(Change::Rename {
            from: o.name.clone(),
            to: n.name.clone(),
            inferred: true,
        });
        pairs.push((o, n));
    } else {
        for o in &removed {
            changes.push(Change::RemoveEntity {
                entity: o.name.clone(),
            });
        }
        for n in &added {
            changes.push(Change::AddEntity {
                entity: n.name.clone(),
            });
        }
    }
    for (o, n) in pairs {
        renames.push((o.name.clone(), n.name.clone()));
        changes.extend(key_changes(old, new, o, n));
        changes.extend(attribute_changes(o, n));
    }
    (renames, changes)
}

/// The same attribute names and types.
fn same_attributes(a: &EntityDecl, b: &EntityDecl) -> bool {
    let shape = |e: &EntityDecl| -> BTreeSet<(String, String)> {
        e.attributes
            .iter()
            .map(|a| (a.name.clone(), format!("{:?}", a.ty)))
            .collect()
    };
    shape(a) == shape(b)
}

fn field_text(field: Option<&KeyField>) -> Option<String> {
    field.map(|f| match &f.condition {
        Some(c) => format!("{} = \"{}\" when {c}", f.attribute, f.template),
        None => format!("{} = \"{}\"", f.attribute, f.template),
    })
}

fn key_text(fields: &[Option<&KeyField>]) -> String {
    let parts: Vec<String> = fields.iter().filter_map(|f| field_text(*f)).collect();
    parts.join(", ")
}

/// The entity's table key and every index key it writes.
fn key_changes(old: &Model, new: &Model, o: &EntityDecl, n: &EntityDecl) -> Vec<Change> {
    let mut out = Vec::new();
    let table_keys = |m: &Model, e: &EntityDecl| -> Vec<Option<String>> {
        std::iter::once(&m.table.partition_key.name)
            .chain(m.table.sort_key.as_ref().map(|k| &k.name))
            .map(|a| field_text(e.key_field(a)))
            .collect()
    };
    if table_keys(old, o) != table_keys(new, n) {
        let fields = |m: &Model, e: &EntityDecl| {
            let a = e.key_field(&m.table.partition_key.name);
            let b = m.table.sort_key.as_ref().and_then(|k| e.key_field(&k.name));
            key_text(&[a, b])
        };
        out.push(Change::Move {
            entity: n.name.clone(),
            from: fields(old, o),
            to: fields(new, n),
        });
    }
    let indexes: BTreeSet<&str> = old
        .indexes
        .iter()
        .chain(&new.indexes)
        .filter(|i| !i.native)
        .map(|i| i.name.as_str())
        .collect();
    for index in indexes {
        let keys = |e: &EntityDecl| {
            e.key(Some(index))
                .map(|k| key_text(&[Some(&k.pk), k.sk.as_ref()]))
        };
        let (before, after) = (keys(o), keys(n));
        let what = match (&before, &after) {
            (None, Some(a)) => format!("starts writing {a}"),
            (Some(b), None) => format!("stops writing {b}"),
            (Some(b), Some(a)) if a != b => format!("writes {a} (was {b})"),
            _ => continue,
        };
        let what = if new.index(index).is_none() {
            format!("{what} (its index is removed)")
        } else {
            what
        };
        out.push(Change::Backfill {
            entity: n.name.clone(),
            index: index.to_string(),
            what,
        });
    }
    out
}

/// Required attributes NEW adds or makes required: written with their default, or blocked.
fn attribute_changes(o: &EntityDecl, n: &EntityDecl) -> Vec<Change> {
    let mut out = Vec::new();
    for a in &n.attributes {
        let before = o.attribute(&a.name);
        if let Some(b) = before
            && format!("{:?}", b.ty) != format!("{:?}", a.ty)
        {
            out.push(Change::Blocked {
                what: format!(
                    "`{}.{}` changes type {:?} -> {:?}",
                    n.name, a.name, b.ty, a.ty
                ),
                why: "migrate does not convert values: existing items keep the old type"
                    .to_string(),
                help: "add a new attribute with the new type (and a default), and stop using the old one".to_string(),
            });
            continue;
        }
        if !a.required || before.is_some_and(|b| b.required) {
            continue;
        }
        match &a.default {
            Some(value) => out.push(Change::Default {
                entity: n.name.clone(),
                attribute: a.name.clone(),
                value: value.clone(),
            }),
            None => out.push(Change::Blocked {
                what: format!("`{}.{}` is required and existing items lack it", n.name, a.name),
                why: "an item written under OLD has no value for it".to_string(),
                help: format!(
                    "give it a default (`attributes.{} = {{ ..., default = ... }}`), or make it optional",
                    a.name
                ),
            }),
        }
    }
    out
}
