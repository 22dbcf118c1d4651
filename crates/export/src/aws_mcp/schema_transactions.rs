//! `schema.json`'s `cross_table_access_patterns`: a TransactWrite whose actions all act on the
//! imported table becomes a TransactWrite with one write pattern per action (`register_user_put_user`);
//! a TransactGet, or a transaction touching another table, is listed.

use serde_json::{Map, Value};

use super::draft::Pattern;
use super::json::{Names, Notes, Obj, child, identifier, item, kind, shown};
use super::keys;
use super::schema::{FORMAT, Read};
use super::schema_patterns::pattern_name;

/// `cross_table_access_patterns`: a TransactWrite within the imported table becomes one, with a
/// write pattern per action; anything else is listed.
pub(super) fn cross_table(
    top: &Map<String, Value>,
    read: &Read<'_>,
    names: &mut Names,
    notes: &mut Notes,
) -> Vec<Pattern> {
    let Some(list) = top.get("cross_table_access_patterns") else {
        return Vec::new();
    };
    let Some(list) = list.as_array() else {
        notes.push(
            "cross_table_access_patterns",
            format!("is {}, not a list; ignored", kind(list)),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, value) in list.iter().enumerate() {
        let at = item("cross_table_access_patterns", i);
        out.extend(transaction(value, &at, read, names, notes));
    }
    out
}

fn transaction(
    value: &Value,
    at: &str,
    read: &Read<'_>,
    names: &mut Names,
    notes: &mut Notes,
) -> Vec<Pattern> {
    let Some(o) = Obj::new(value, at, notes) else {
        return Vec::new();
    };
    o.unknown(
        &[
            "pattern_id",
            "name",
            "description",
            "operation",
            "entities_involved",
            "parameters",
            "return_type",
        ],
        FORMAT,
        notes,
    );
    let operation = o.str("operation", notes).unwrap_or_default();
    if operation != "TransactWrite" {
        notes.push(at, format!("operation `{}` is not imported: monotable models TransactWrite, and reads each item of a TransactGet with its own GetItem", shown(operation)));
        return Vec::new();
    }
    let name = pattern_name(
        o.str("name", notes).unwrap_or("transaction"),
        names,
        at,
        notes,
    );
    let Some(actions) = actions(o, read, &name, names, notes) else {
        return Vec::new();
    };
    let description = o
        .str("description", notes)
        .map(|d| format!("AWS cross-table pattern: {d}"));
    let mut tx = Pattern {
        name,
        description,
        operation: "TransactWrite",
        origin: at.to_string(),
        ..Pattern::default()
    };
    tx.writes = actions.iter().map(|a| (a.name.clone(), Some(1))).collect();
    std::iter::once(tx).chain(actions).collect()
}

/// One write pattern per action, or `None` (the first action that cannot be, listed).
fn actions(
    o: Obj<'_, '_>,
    read: &Read<'_>,
    tx: &str,
    names: &mut Names,
    notes: &mut Notes,
) -> Option<Vec<Pattern>> {
    let mut actions: Vec<Pattern> = Vec::new();
    for (i, v) in o.array("entities_involved", notes).iter().enumerate() {
        let at = item(&child(o.path, "entities_involved"), i);
        match action(v, &at, read, tx, names, notes) {
            Ok(p) => actions.push(p),
            Err(reason) => {
                let reason = format!("not imported, and so neither is the transaction: {reason}");
                notes.push(&at, reason);
                return None;
            }
        }
    }
    Some(actions)
}

fn action(
    value: &Value,
    at: &str,
    read: &Read<'_>,
    tx: &str,
    names: &mut Names,
    notes: &mut Notes,
) -> Result<Pattern, String> {
    let o = Obj::new(value, at, notes).ok_or("it is not an object")?;
    o.unknown(&["table", "entity", "action", "condition"], FORMAT, notes);
    let table = o.str("table", notes).unwrap_or_default();
    if table != read.table.name {
        return Err(format!(
            "it acts on table `{}`, not the one imported",
            shown(table)
        ));
    }
    let entity = o.str("entity", notes).unwrap_or_default();
    let Some(e) = read.entities.iter().find(|e| e.name == entity) else {
        return Err(format!("entity `{}` is not imported", shown(entity)));
    };
    let (op, verb) = match o.str("action", notes).unwrap_or_default() {
        "Put" => ("PutItem", "put"),
        "Delete" => ("DeleteItem", "delete"),
        "Update" => ("UpdateItem", "update"),
        "ConditionCheck" => ("ConditionCheck", "check"),
        other => {
            return Err(format!(
                "action `{}` is not Put, Delete, Update or ConditionCheck",
                shown(other)
            ));
        }
    };
    let mut key = vec![(read.table.pk.name.clone(), e.pk.text.clone())];
    if let (Some(k), Some(t)) = (&read.table.sk, &e.sk) {
        key.push((k.name.clone(), t.text.clone()));
    }
    let condition = o
        .str("condition", notes)
        .and_then(|c| write_condition(c, read, &child(at, "condition"), notes));
    Ok(Pattern {
        name: names.claim(format!(
            "{tx}_{verb}_{}",
            identifier("", entity).to_lowercase()
        )),
        description: Some(format!("The {verb} of `{}` in `{tx}`", shown(entity))),
        operation: op,
        key,
        returns: vec![e.name.clone()],
        condition,
        origin: at.to_string(),
        ..Pattern::default()
    })
}

/// A condition `keys::write_condition` maps, or a note saying it is not mapped.
fn write_condition(text: &str, read: &Read<'_>, at: &str, notes: &mut Notes) -> Option<String> {
    let mapped = keys::write_condition(text, &read.table);
    if mapped.is_none() {
        notes.push(at, keys::unmapped_condition(text));
    }
    mapped
}
