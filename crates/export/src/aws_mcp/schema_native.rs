//! Which of `schema.json`'s global indexes are native (keyed on the attributes themselves) in
//! monotable: those it lists as such, and those every entity keys with the attribute alone
//! (`"pk_template": "{city}"` for the key `city`), as monotable's MT016 would advise. A native
//! key attribute is a plain attribute, so an index whose key attribute some template writes (the
//! table's sort key, say) is not imported.

use super::draft::Table;
use super::json::{Notes, shown};
use super::schema::{Ent, EntityKey, Gsi, KeySpec};

/// Marks self-keyed indexes native (their entities' keys with them), then takes out native
/// indexes keyed on an attribute a template writes.
pub(super) fn settle(
    table: &Table,
    gsis: &mut Vec<Gsi>,
    entities: &mut [Ent<'_>],
    notes: &mut Notes,
) {
    let table_keys: Vec<&str> = std::iter::once(table.pk.name.as_str())
        .chain(table.sk.as_ref().map(|k| k.name.as_str()))
        .collect();
    for g in gsis.iter_mut() {
        let on_table_key = key_names(g)
            .iter()
            .any(|n| table_keys.contains(&n.as_str()));
        if !g.native && !on_table_key && self_keyed(g, entities) {
            g.native = true;
            for e in entities.iter_mut() {
                for (name, pk, sk) in &mut e.gsi {
                    if *name == g.name {
                        *pk = plain(pk);
                        *sk = sk.as_ref().map(plain);
                    }
                }
            }
        }
    }
    let templated = templated_attributes(table, gsis, entities);
    gsis.retain(|g| {
        let clash = g.native.then(|| key_names(g).into_iter().find(|n| templated.contains(n))).flatten();
        let Some(attribute) = clash else { return true };
        let reason = format!(
            "not imported: it is keyed natively on `{}`, which a key template writes; a native key attribute is a plain attribute (docs/model.md)",
            shown(&attribute)
        );
        notes.push(&g.origin, reason);
        for e in entities.iter_mut() {
            e.gsi.retain(|(n, _, _)| *n != g.name);
        }
        false
    });
}

fn key_names(g: &Gsi) -> Vec<String> {
    let mut names = g.pk.names();
    names.extend(g.sk.iter().flat_map(KeySpec::names));
    names
}

/// `{attr}` → the native key `attr`.
fn plain(key: &EntityKey) -> EntityKey {
    match key {
        EntityKey::Template(t) => EntityKey::Native(t.vars.clone()),
        native => native.clone(),
    }
}

/// Some entity maps `g`, and each writes every key attribute of it as `{that attribute}`.
fn self_keyed(g: &Gsi, entities: &[Ent<'_>]) -> bool {
    let mut mapped = false;
    for e in entities {
        for (name, pk, sk) in &e.gsi {
            if *name != g.name {
                continue;
            }
            mapped = true;
            let sides = [(Some(&g.pk), Some(pk)), (g.sk.as_ref(), sk.as_ref())];
            for (spec, key) in sides {
                let ok = match (spec, key) {
                    (None, None) => true,
                    (Some(KeySpec::One(attr)), Some(EntityKey::Template(t))) => {
                        t.text == format!("{{{attr}}}") && e.field(attr).is_some()
                    }
                    _ => false,
                };
                if !ok {
                    return false;
                }
            }
        }
    }
    mapped
}

/// Attributes some key template writes: the table's keys and templated index keys.
fn templated_attributes(table: &Table, gsis: &[Gsi], entities: &[Ent<'_>]) -> Vec<String> {
    let mut out = vec![table.pk.name.clone()];
    out.extend(table.sk.iter().map(|k| k.name.clone()));
    for g in gsis.iter().filter(|g| !g.native) {
        let used = entities
            .iter()
            .any(|e| e.gsi.iter().any(|(n, _, _)| *n == g.name));
        if used {
            out.extend(key_names(g));
        }
    }
    out
}
