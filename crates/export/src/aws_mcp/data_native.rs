//! `dynamodb_data_model.json`'s single-attribute global indexes that every entity keys with the
//! attribute itself (`customer_id` holding the customer's id) become native indexes, as
//! monotable's MT016 would advise, unless the attribute is the table's own key; and an index key
//! only some items of an entity write is listed, since monotable writes it on every item.

use super::draft::{Index, Table};
use super::infer::Inferred;
use super::json::{Notes, shown};

pub(super) fn settle(
    table: &Table,
    indexes: &mut [Index],
    found: &mut [Inferred],
    notes: &mut Notes,
) {
    let table_keys: Vec<&str> = std::iter::once(table.pk.name.as_str())
        .chain(table.sk.as_ref().map(|k| k.name.as_str()))
        .collect();
    for x in indexes.iter_mut().filter(|x| !x.native && !x.local) {
        let names: Vec<String> = x.pk.iter().chain(&x.sk).map(|k| k.name.clone()).collect();
        if names.iter().any(|n| table_keys.contains(&n.as_str())) || !self_keyed(&names, found) {
            continue;
        }
        x.native = true;
        for e in found.iter_mut() {
            e.entity.keys.retain(|(k, _)| !names.contains(k));
        }
    }
    for e in found.iter() {
        for (key, count) in &e.written {
            let indexed = indexes
                .iter()
                .any(|x| !x.native && x.pk.iter().chain(&x.sk).any(|k| &k.name == key));
            if indexed && !table_keys.contains(&key.as_str()) && *count < e.items {
                let reason = format!(
                    "{count} of the {} items of `{}` write `{}`: monotable writes an index key on every item of an entity unless `key_conditions` gates it on a boolean attribute; imported as written by every item",
                    e.items,
                    shown(&e.entity.name),
                    shown(key)
                );
                notes.push(&e.entity.origin, reason);
            }
        }
    }
}

/// Some entity writes the keys, and every one that does writes each as `{that attribute}`.
fn self_keyed(names: &[String], found: &[Inferred]) -> bool {
    let mut any = false;
    for e in found {
        for (key, template) in &e.entity.keys {
            if !names.contains(key) {
                continue;
            }
            any = true;
            let plain = *template == format!("{{{key}}}")
                && e.entity.attributes.iter().any(|a| &a.name == key);
            if !plain {
                return false;
            }
        }
    }
    any
}
