//! Update rules: MT015 stale index keys, an UpdateItem whose `sets` changes some inputs of an
//! index key template without the others, so the key cannot be rendered again.

use monotable_model::{EntityDecl, KeyField, Model, Operation, Pattern, Sets};

use super::listing;
use crate::diagnostic::{Diagnostic, Rule};

pub(crate) fn check(model: &Model, out: &mut Vec<Diagnostic>) {
    for p in &model.patterns {
        // Only an UpdateItem has `sets` (the model refuses it elsewhere); without it the
        // pattern declares nothing to check.
        let Some(sets) = &p.sets else { continue };
        if p.operation != Operation::UpdateItem {
            continue;
        }
        let Some(e) = p.returns.first().and_then(|r| model.entity(&r.name)) else {
            continue;
        };
        for (field, indexes) in index_key_fields(model, e) {
            if let Some(d) = stale_key(p, sets, e, field, &indexes) {
                out.push(d);
            }
        }
    }
}

/// Every secondary-index key attribute `e` writes, once, with the indexes it is a key of. The
/// table's own key attributes are left out (an LSI's partition key is the table's): an update
/// cannot change them, and the model refuses `sets` that would.
fn index_key_fields<'m>(model: &Model, e: &'m EntityDecl) -> Vec<(&'m KeyField, Vec<&'m str>)> {
    let table_keys = model.key_schema(None);
    let is_table_key = |attribute: &str| {
        table_keys.is_some_and(|(pk, sk)| pk == attribute || sk == Some(attribute))
    };
    e.keys
        .iter()
        .filter(|f| !is_table_key(&f.attribute))
        .filter_map(|f| {
            let indexes: Vec<&str> = e
                .index_keys
                .iter()
                .filter(|k| {
                    k.pk.attribute == f.attribute
                        || k.sk.as_ref().is_some_and(|s| s.attribute == f.attribute)
                })
                .filter_map(|k| k.index.as_deref())
                .collect();
            (!indexes.is_empty()).then_some((f, indexes))
        })
        .collect()
}

/// `index `GSI2`` or `indexes `GSI2` and `GSI3``.
fn indexes_text(indexes: &[&str]) -> String {
    match indexes {
        [one] => format!("index `{one}`"),
        more => format!("indexes {}", listing(more)),
    }
}

/// The inputs of `field` the update sets, and those it neither sets nor knows from the
/// primary key it addresses.
fn split_inputs<'m>(
    sets: &Sets,
    e: &'m EntityDecl,
    field: &'m KeyField,
) -> (Vec<&'m str>, Vec<&'m str>) {
    let known = e.primary_key_inputs();
    let inputs = field.inputs();
    let set = inputs
        .iter()
        .copied()
        .filter(|i| sets.contains(i))
        .collect();
    let missing = inputs
        .iter()
        .copied()
        .filter(|i| !sets.contains(i) && !known.contains(i))
        .collect();
    (set, missing)
}

/// MT015 for one index key attribute of `e`: reported when the update sets some of its inputs
/// and lacks others.
fn stale_key(
    p: &Pattern,
    sets: &Sets,
    e: &EntityDecl,
    field: &KeyField,
    indexes: &[&str],
) -> Option<Diagnostic> {
    let (set, missing) = split_inputs(sets, e, field);
    if set.is_empty() || missing.is_empty() {
        return None;
    }
    let key = &field.attribute;
    let mut d = Diagnostic::error(
        Rule::StaleIndexKey,
        format!(
            "update `{}` sets {} but not {}: index key `{key}` goes stale",
            p.name,
            listing(&set),
            listing(&missing)
        ),
        sets.span.clone(),
    )
    .label(format!("`{key}` also needs {}", listing(&missing)))
    .note(what_it_needs(e, field, indexes, &set));
    if let Some(condition) = &field.condition {
        d = d.note(condition_note(field, condition, indexes, &set));
    } else {
        d = d.note(format!(
            "left as it is, `{key}` keeps the item under its old {} in {}: queries for the new value miss it",
            listing(&set),
            indexes_text(indexes)
        ));
    }
    Some(d.help(format!(
        "add {} to `sets`: the update then renders `{key}` again from its inputs and writes it with them",
        listing(&missing)
    )))
}

/// `Order` writes `GSI2SK = "{status}#{createdAt}"` for index `GSI2`: ...
fn what_it_needs(e: &EntityDecl, field: &KeyField, indexes: &[&str], set: &[&str]) -> String {
    let known: Vec<&str> = e
        .primary_key_inputs()
        .into_iter()
        .filter(|k| field.inputs().contains(k))
        .collect();
    let mut text = format!(
        "`{}` writes `{} = \"{}\"` for {}; rendering it again needs {}; the update sets {}",
        e.name,
        field.attribute,
        field.template,
        indexes_text(indexes),
        listing(&field.inputs()),
        listing(set)
    );
    if !known.is_empty() {
        text.push_str(&format!(
            " and knows {} from the key it addresses",
            listing(&known)
        ));
    }
    text
}

/// Why a conditional (sparse) key needs every input when one of them changes.
fn condition_note(field: &KeyField, condition: &str, indexes: &[&str], set: &[&str]) -> String {
    let key = &field.attribute;
    let on = indexes_text(indexes);
    if set.contains(&condition) {
        format!(
            "`{key}` is written only while `{condition}` is true: setting it to true puts the item in {on} and must render `{key}`, setting it to false removes the key; `check` cannot tell which the update does"
        )
    } else {
        format!(
            "`{key}` is written only while `{condition}` is true: without `{condition}` the update cannot tell whether to write the new key or keep the item out of {on}"
        )
    }
}
