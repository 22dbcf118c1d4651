//! `dynamodb_data_model.json`, the AWS server's validation input: the table in CreateTable form,
//! its sample `items` (read into entities, [`super::infer`]) and its `access_patterns`, AWS CLI
//! commands (read into patterns, [`super::data_patterns`]).

use serde_json::{Map, Value};

use super::draft::{Draft, Index, KeyAttr, Table};
use super::infer::{self, TemplatedKey};
use super::json::{Notes, Obj, child, item, kind, shown};
use super::{data_patterns, table_path};

pub(super) const FORMAT: &str = "dynamodb_data_model.json";

/// CreateTable fields that have no place in a model, and why.
const NOT_MODELLED: &[(&str, &str)] = &[
    (
        "ProvisionedThroughput",
        "capacity figures are not part of a model: `monotable cost` prices a model's [traffic]",
    ),
    (
        "OnDemandThroughput",
        "capacity limits are not part of a model",
    ),
    ("WarmThroughput", "capacity figures are not part of a model"),
    (
        "SSESpecification",
        "encryption settings are not part of a model",
    ),
    ("Tags", "tags are not part of a model"),
    ("TableClass", "the table class is not part of a model"),
    (
        "DeletionProtectionEnabled",
        "deletion protection is not part of a model",
    ),
    (
        "ResourcePolicy",
        "resource policies are not part of a model",
    ),
];

/// The draft of `tables[chosen]`, and whether the file offered items or patterns.
pub(super) fn read(
    top: &Map<String, Value>,
    chosen: usize,
    notes: &mut Notes,
) -> Option<(Draft, bool)> {
    Obj { map: top, path: "" }.unknown(&["tables", "items", "access_patterns"], FORMAT, notes);
    let path = table_path(chosen);
    let t = Obj::new(top.get("tables")?.as_array()?.get(chosen)?, &path, notes)?;
    table_fields(t, notes);
    let types = attribute_types(t, notes);
    let (pk, sk) = key_schema(
        t.get("KeySchema"),
        &child(&path, "KeySchema"),
        &types,
        notes,
    );
    let pk = pk.into_iter().next()?;
    let table = Table {
        name: t.str("TableName", notes)?.to_string(),
        pk,
        sk: sk.into_iter().next(),
        billing: billing(t, notes),
        ttl: ttl(t, notes),
        stream: stream(t, notes),
    };
    let mut indexes = indexes(t, "GlobalSecondaryIndexes", &types, notes);
    indexes.extend(indexes_local(t, &table, &types, notes));
    let entities = entities(top, &table, &mut indexes, notes);
    let offered = !entities.is_empty()
        || top
            .get("access_patterns")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty());
    let mut draft = Draft {
        header: vec![
            format!("Imported by monotable from the AWS DynamoDB MCP server's {FORMAT}, table `{}`.", shown(&table.name)),
            "Entities and key templates are read off its sample items, patterns off its AWS CLI commands;".to_string(),
            "what it could not map was listed when it was imported (docs/export.md).".to_string(),
        ],
        table,
        indexes,
        entities: entities.into_iter().map(|e| e.entity).collect(),
        patterns: Vec::new(),
    };
    draft.patterns = data_patterns::patterns(top, &draft, notes);
    Some((draft, offered))
}

/// The table's fields: those of no CreateTable input listed as such, those with no place in a
/// model listed with why.
fn table_fields(t: Obj<'_, '_>, notes: &mut Notes) {
    let known = [
        "TableName",
        "AttributeDefinitions",
        "KeySchema",
        "GlobalSecondaryIndexes",
        "LocalSecondaryIndexes",
        "BillingMode",
        "StreamSpecification",
        "TimeToLiveSpecification",
    ];
    let mut all: Vec<&str> = known.to_vec();
    all.extend(NOT_MODELLED.iter().map(|(f, _)| *f));
    t.unknown(&all, FORMAT, notes);
    for (field, why) in NOT_MODELLED {
        if t.get(field).is_some() {
            notes.push(&child(t.path, field), format!("{why}; not imported"));
        }
    }
}

/// `AttributeDefinitions`: attribute name → `S`, `N` or `B`.
fn attribute_types(t: Obj<'_, '_>, notes: &mut Notes) -> Vec<(String, &'static str)> {
    let list = child(t.path, "AttributeDefinitions");
    let mut out = Vec::new();
    for (i, d) in t.array("AttributeDefinitions", notes).iter().enumerate() {
        let at = item(&list, i);
        let Some(d) = Obj::new(d, &at, notes) else {
            continue;
        };
        d.unknown(&["AttributeName", "AttributeType"], FORMAT, notes);
        let (Some(name), Some(ty)) = (d.str("AttributeName", notes), d.str("AttributeType", notes))
        else {
            continue;
        };
        let ty = match ty {
            "S" => "S",
            "N" => "N",
            "B" => "B",
            other => {
                notes.push(
                    &child(&at, "AttributeType"),
                    format!("`{}` is not S, N or B; typed S", shown(other)),
                );
                "S"
            }
        };
        out.push((name.to_string(), ty));
    }
    out
}

/// A `KeySchema`'s HASH and RANGE attributes, in order.
fn key_schema(
    value: Option<&Value>,
    at: &str,
    types: &[(String, &'static str)],
    notes: &mut Notes,
) -> (Vec<KeyAttr>, Vec<KeyAttr>) {
    let mut hash = Vec::new();
    let mut range = Vec::new();
    let Some(list) = value.and_then(Value::as_array) else {
        notes.push(at, "is missing or not a list");
        return (hash, range);
    };
    for (i, k) in list.iter().enumerate() {
        let (Some(name), Some(key_type)) = (
            k.get("AttributeName").and_then(Value::as_str),
            k.get("KeyType").and_then(Value::as_str),
        ) else {
            notes.push(
                &item(at, i),
                "has no `AttributeName` and `KeyType`; ignored",
            );
            continue;
        };
        let ty = types
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| *t)
            .unwrap_or_else(|| {
                notes.push(
                    &item(at, i),
                    format!("`{}` is not in AttributeDefinitions; typed S", shown(name)),
                );
                "S"
            });
        let attr = KeyAttr {
            name: name.to_string(),
            ty,
        };
        match key_type {
            "HASH" => hash.push(attr),
            "RANGE" => range.push(attr),
            other => notes.push(
                &item(at, i),
                format!("key type `{}` is not HASH or RANGE; ignored", shown(other)),
            ),
        }
    }
    (hash, range)
}

fn billing(t: Obj<'_, '_>, notes: &mut Notes) -> Option<&'static str> {
    match t.str("BillingMode", notes)? {
        "PAY_PER_REQUEST" => Some("PAY_PER_REQUEST"),
        "PROVISIONED" => Some("PROVISIONED"),
        other => {
            notes.push(
                &child(t.path, "BillingMode"),
                format!(
                    "`{}` is not PAY_PER_REQUEST or PROVISIONED; ignored",
                    shown(other)
                ),
            );
            None
        }
    }
}

fn ttl(t: Obj<'_, '_>, notes: &mut Notes) -> Option<String> {
    let at = child(t.path, "TimeToLiveSpecification");
    let spec = Obj::new(t.get("TimeToLiveSpecification")?, &at, notes)?;
    spec.unknown(&["AttributeName", "Enabled"], FORMAT, notes);
    if spec.bool("Enabled", notes) == Some(false) {
        notes.push(spec.path, "TTL is not enabled; not imported");
        return None;
    }
    spec.str("AttributeName", notes).map(str::to_string)
}

fn stream(t: Obj<'_, '_>, notes: &mut Notes) -> Option<&'static str> {
    let at = child(t.path, "StreamSpecification");
    let spec = Obj::new(t.get("StreamSpecification")?, &at, notes)?;
    spec.unknown(&["StreamEnabled", "StreamViewType"], FORMAT, notes);
    if spec.bool("StreamEnabled", notes) != Some(true) {
        return None;
    }
    match spec.str("StreamViewType", notes) {
        Some("KEYS_ONLY") => Some("KEYS_ONLY"),
        Some("NEW_IMAGE") => Some("NEW_IMAGE"),
        Some("OLD_IMAGE") => Some("OLD_IMAGE"),
        Some("NEW_AND_OLD_IMAGES") => Some("NEW_AND_OLD_IMAGES"),
        _ => {
            notes.push(
                spec.path,
                "has no known `StreamViewType`; no stream imported",
            );
            None
        }
    }
}

/// `Projection`: its type and `NonKeyAttributes`.
fn projection(x: Obj<'_, '_>, notes: &mut Notes) -> (&'static str, Vec<String>) {
    let at = child(x.path, "Projection");
    let Some(p) = x.get("Projection").and_then(|p| Obj::new(p, &at, notes)) else {
        return ("ALL", Vec::new());
    };
    p.unknown(&["ProjectionType", "NonKeyAttributes"], FORMAT, notes);
    let ty = match p.str("ProjectionType", notes) {
        None | Some("ALL") => "ALL",
        Some("KEYS_ONLY") => "KEYS_ONLY",
        Some("INCLUDE") => "INCLUDE",
        Some(other) => {
            notes.push(
                &child(&at, "ProjectionType"),
                format!(
                    "`{}` is not ALL, KEYS_ONLY or INCLUDE; imported as ALL",
                    shown(other)
                ),
            );
            "ALL"
        }
    };
    let include = p
        .array("NonKeyAttributes", notes)
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    (ty, include)
}

/// An index's fields of no CreateTable input, and its capacity figures, listed.
fn index_fields(x: Obj<'_, '_>, notes: &mut Notes) {
    let capacity = [
        "ProvisionedThroughput",
        "OnDemandThroughput",
        "WarmThroughput",
    ];
    let mut known = vec!["IndexName", "KeySchema", "Projection"];
    known.extend(capacity);
    x.unknown(&known, FORMAT, notes);
    for f in capacity {
        if x.get(f).is_some() {
            let reason = "capacity figures are not part of a model; not imported";
            notes.push(&child(x.path, f), reason);
        }
    }
}

fn indexes(
    t: Obj<'_, '_>,
    field: &str,
    types: &[(String, &'static str)],
    notes: &mut Notes,
) -> Vec<Index> {
    let list = child(t.path, field);
    let mut out = Vec::new();
    for (i, v) in t.array(field, notes).iter().enumerate() {
        let at = item(&list, i);
        let Some(x) = Obj::new(v, &at, notes) else {
            continue;
        };
        index_fields(x, notes);
        let Some(name) = x.str("IndexName", notes) else {
            continue;
        };
        let (pk, sk) = key_schema(x.get("KeySchema"), &child(&at, "KeySchema"), types, notes);
        if pk.is_empty() {
            notes.push(
                &at,
                format!("index `{}` has no HASH key; not imported", shown(name)),
            );
            continue;
        }
        let native = pk.len() > 1 || sk.len() > 1;
        let (projection, include) = projection(x, notes);
        out.push(Index {
            name: name.to_string(),
            local: false,
            pk,
            sk,
            native,
            projection,
            include,
            origin: at,
        });
    }
    out
}

fn indexes_local(
    t: Obj<'_, '_>,
    table: &Table,
    types: &[(String, &'static str)],
    notes: &mut Notes,
) -> Vec<Index> {
    let mut out = indexes(t, "LocalSecondaryIndexes", types, notes);
    out.retain_mut(|x| {
        x.local = true;
        let ok = x.pk.len() == 1 && x.pk[0].name == table.pk.name && x.sk.len() == 1;
        if !ok {
            notes.push(&x.origin, format!("local index `{}` is not keyed on the table's partition key and one sort key; not imported", shown(&x.name)));
        }
        ok
    });
    out
}

/// The table's items into entities; an index every entity keys with its attributes alone
/// becomes native, as in schema.json.
fn entities(
    top: &Map<String, Value>,
    table: &Table,
    indexes: &mut [Index],
    notes: &mut Notes,
) -> Vec<infer::Inferred> {
    let path = child("items", &table.name);
    let list = match top.get("items").and_then(|i| i.get(&table.name)) {
        None => return Vec::new(),
        Some(Value::Array(list)) => list,
        Some(other) => {
            notes.push(
                &path,
                format!("is {}, not a list of items; not read", kind(other)),
            );
            return Vec::new();
        }
    };
    let items = infer::items(list, &path, notes);
    let mut keys: Vec<TemplatedKey> = std::iter::once(&table.pk)
        .chain(&table.sk)
        .map(|k| TemplatedKey {
            name: k.name.clone(),
            ty: k.ty,
        })
        .collect();
    for x in indexes.iter().filter(|x| !x.native) {
        for k in x.pk.iter().chain(&x.sk) {
            if !keys.iter().any(|t| t.name == k.name) {
                keys.push(TemplatedKey {
                    name: k.name.clone(),
                    ty: k.ty,
                });
            }
        }
    }
    let primary = 1 + usize::from(table.sk.is_some());
    let mut found = infer::entities(&items, &keys, primary, &table.name, notes);
    super::data_native::settle(table, indexes, &mut found, notes);
    found
}
