//! `schema.json`, the AWS server's code-generation input: the table, its global indexes and its
//! entities (fields, key templates, index mappings) into a draft; the access patterns are
//! [`super::schema_patterns`]'.

use serde_json::{Map, Value};

use super::draft::{Attribute, Draft, Entity, Index, KeyAttr, Table};
use super::json::{Names, Notes, Obj, child, item, shown};
use super::template::{Translated, lone_variable, translate};
use super::{schema_patterns, schema_transactions, table_path};

pub(super) const FORMAT: &str = "schema.json";

/// A key of an index: one attribute (keyed by a template) or a native list of attributes.
#[derive(Debug, Clone)]
pub(super) enum KeySpec {
    One(String),
    Many(Vec<String>),
}

impl KeySpec {
    pub fn names(&self) -> Vec<String> {
        match self {
            KeySpec::One(n) => vec![n.clone()],
            KeySpec::Many(ns) => ns.clone(),
        }
    }
}

/// A `gsi_list` entry.
#[derive(Debug, Clone)]
pub(super) struct Gsi {
    pub name: String,
    pub pk: KeySpec,
    pub sk: Option<KeySpec>,
    pub projection: &'static str,
    pub include: Vec<String>,
    pub origin: String,
    /// Keyed on the attributes themselves: listed so in the file, or every entity's templates
    /// are the key attributes alone (`{city}` for `city`).
    pub native: bool,
}

/// An entity field, typed for monotable.
#[derive(Debug, Clone)]
pub(super) struct Field {
    pub name: String,
    pub ty: &'static str,
    pub items: Option<&'static str>,
    pub required: bool,
    pub uuid: bool,
}

/// An entity's key on one index: a template, or (native) the attributes it holds.
#[derive(Debug, Clone)]
pub(super) enum EntityKey {
    Template(Translated),
    Native(Vec<String>),
}

/// An entity as read.
#[derive(Debug, Clone)]
pub(super) struct Ent<'a> {
    pub name: String,
    pub origin: String,
    pub entity_type: Option<String>,
    pub fields: Vec<Field>,
    pub pk: Translated,
    pub sk: Option<Translated>,
    /// Index name → its partition key and (optional) sort key for this entity.
    pub gsi: Vec<(String, EntityKey, Option<EntityKey>)>,
    pub patterns: &'a [Value],
}

impl Ent<'_> {
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// The table as read, with its indexes and entities.
pub(super) struct Read<'a> {
    pub table: Table,
    pub gsis: Vec<Gsi>,
    pub entities: Vec<Ent<'a>>,
}

/// The draft of the table at `tables[chosen]`, and whether it offered entities.
pub(super) fn read(
    top: &Map<String, Value>,
    chosen: usize,
    notes: &mut Notes,
) -> Option<(Draft, bool)> {
    let top_obj = Obj { map: top, path: "" };
    top_obj.unknown(&["tables", "cross_table_access_patterns"], FORMAT, notes);
    let path = table_path(chosen);
    let value = top.get("tables")?.as_array()?.get(chosen)?;
    let t = Obj::new(value, &path, notes)?;
    t.unknown(&["table_config", "entities", "gsi_list"], FORMAT, notes);
    let config_path = child(&path, "table_config");
    let config = Obj::new(t.get("table_config")?, &config_path, notes)?;
    let table = read_config(config, notes)?;
    let mut gsis = read_gsis(t, notes);
    let mut entities = read_entities(t, &table, &gsis, notes);
    super::schema_native::settle(&table, &mut gsis, &mut entities, notes);
    let offered = !entities.is_empty()
        || t.get("entities")
            .is_some_and(|e| e.as_object().is_some_and(|m| !m.is_empty()));
    let read = Read {
        table,
        gsis,
        entities,
    };
    let mut draft = build(&read, notes);
    let mut names = Names::default();
    draft.patterns = schema_patterns::patterns(&read, &mut names, notes);
    draft.patterns.extend(schema_transactions::cross_table(
        top, &read, &mut names, notes,
    ));
    Some((draft, offered))
}

fn read_config(config: Obj<'_, '_>, notes: &mut Notes) -> Option<Table> {
    config.unknown(&["table_name", "partition_key", "sort_key"], FORMAT, notes);
    let name = config.str("table_name", notes)?.to_string();
    let key = |field: &str, notes: &mut Notes| match config.get(field)? {
        Value::String(s) => Some(s.clone()),
        Value::Array(a) if a.len() == 1 => a[0].as_str().map(str::to_string),
        _ => {
            let reason = "a table's key is one attribute (multi-attribute keys are for global indexes); ignored";
            notes.push(&child(config.path, field), reason);
            None
        }
    };
    let pk = key("partition_key", notes)?;
    let sk = key("sort_key", notes);
    Some(Table {
        name,
        pk: KeyAttr { name: pk, ty: "S" },
        sk: sk.map(|name| KeyAttr { name, ty: "S" }),
        billing: None,
        ttl: None,
        stream: None,
    })
}

/// A `partition_key` / `sort_key` of a `gsi_list` entry.
fn key_spec(value: Option<&Value>, at: &str, notes: &mut Notes) -> Option<KeySpec> {
    match value? {
        Value::String(s) => Some(KeySpec::One(s.clone())),
        Value::Array(a) if (1..=4).contains(&a.len()) && a.iter().all(Value::is_string) => {
            Some(KeySpec::Many(
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect(),
            ))
        }
        _ => {
            notes.push(
                at,
                "is neither an attribute name nor a list of one to four; ignored",
            );
            None
        }
    }
}

fn read_gsis(t: Obj<'_, '_>, notes: &mut Notes) -> Vec<Gsi> {
    let list_path = child(t.path, "gsi_list");
    let mut out = Vec::new();
    for (i, value) in t.array("gsi_list", notes).iter().enumerate() {
        let at = item(&list_path, i);
        let Some(g) = Obj::new(value, &at, notes) else {
            continue;
        };
        g.unknown(
            &[
                "name",
                "partition_key",
                "sort_key",
                "projection",
                "included_attributes",
            ],
            FORMAT,
            notes,
        );
        let Some(name) = g.str("name", notes) else {
            notes.push(&at, "has no `name`; not imported");
            continue;
        };
        let Some(pk) = key_spec(g.get("partition_key"), &child(&at, "partition_key"), notes) else {
            notes.push(
                &at,
                format!(
                    "index `{}` has no usable partition key; not imported",
                    shown(name)
                ),
            );
            continue;
        };
        let sk = key_spec(g.get("sort_key"), &child(&at, "sort_key"), notes);
        let (projection, include) = projection(g, notes);
        let native = matches!(pk, KeySpec::Many(_)) || matches!(sk, Some(KeySpec::Many(_)));
        out.push(Gsi {
            name: name.to_string(),
            pk,
            sk,
            projection,
            include,
            origin: at,
            native,
        });
    }
    out
}

fn projection(g: Obj<'_, '_>, notes: &mut Notes) -> (&'static str, Vec<String>) {
    let projection = match g.str("projection", notes) {
        None | Some("ALL") => "ALL",
        Some("KEYS_ONLY") => "KEYS_ONLY",
        Some("INCLUDE") => "INCLUDE",
        Some(other) => {
            let reason = format!(
                "projection `{}` is not ALL, KEYS_ONLY or INCLUDE; imported as ALL",
                shown(other)
            );
            notes.push(&child(g.path, "projection"), reason);
            "ALL"
        }
    };
    let include: Vec<String> = g
        .array("included_attributes", notes)
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    if projection != "INCLUDE" && !include.is_empty() {
        let reason = format!(
            "only an INCLUDE projection lists attributes, and this one is {projection}; ignored"
        );
        notes.push(&child(g.path, "included_attributes"), reason);
        return (projection, Vec::new());
    }
    (projection, include)
}

/// A field's type in monotable's terms: (type, list element type, was a uuid).
pub(super) fn field_type(
    ty: &str,
    item_type: Option<&str>,
) -> Option<(&'static str, Option<&'static str>, bool)> {
    let scalar = |t: &str| match t {
        "string" | "uuid" => Some("string"),
        "integer" => Some("integer"),
        "decimal" => Some("decimal"),
        "boolean" => Some("boolean"),
        "object" => Some("map"),
        "array" => Some("list"),
        _ => None,
    };
    match ty {
        "array" => Some(("list", item_type.and_then(scalar), false)),
        "uuid" => Some(("string", None, true)),
        other => scalar(other).map(|t| (t, None, false)),
    }
}

fn read_fields(e: Obj<'_, '_>, notes: &mut Notes) -> Vec<Field> {
    let list_path = child(e.path, "fields");
    let mut out: Vec<Field> = Vec::new();
    for (i, value) in e.array("fields", notes).iter().enumerate() {
        let at = item(&list_path, i);
        let Some(f) = Obj::new(value, &at, notes) else {
            continue;
        };
        f.unknown(&["name", "type", "required", "item_type"], FORMAT, notes);
        let (Some(name), Some(ty)) = (f.str("name", notes), f.str("type", notes)) else {
            notes.push(&at, "has no `name` or `type`; not imported");
            continue;
        };
        let item_type = f.str("item_type", notes);
        let Some((mapped, items, uuid)) = field_type(ty, item_type) else {
            let reason = format!(
                "type `{}` is not one of string, integer, decimal, boolean, array, object, uuid; not imported",
                shown(ty)
            );
            notes.push(&child(&at, "type"), reason);
            continue;
        };
        if let (Some(t), None) = (item_type, items) {
            notes.push(
                &child(&at, "item_type"),
                format!(
                    "element type `{}` is unknown; the list's elements are untyped",
                    shown(t)
                ),
            );
        }
        if out.iter().any(|o| o.name == name) {
            notes.push(
                &at,
                format!(
                    "field `{}` is declared twice; the first is kept",
                    shown(name)
                ),
            );
            continue;
        }
        let required = f.bool("required", notes).unwrap_or(false);
        out.push(Field {
            name: name.to_string(),
            ty: mapped,
            items,
            required,
            uuid,
        });
    }
    out
}

/// A template field, translated; a problem noted.
fn template_at(value: Option<&Value>, at: &str, notes: &mut Notes) -> Option<Translated> {
    let text = value?;
    let Some(text) = text.as_str() else {
        notes.push(at, "is not a string template; ignored");
        return None;
    };
    match translate(text) {
        Ok(t) => {
            for note in &t.notes {
                notes.push(at, note.clone());
            }
            Some(t)
        }
        Err(problem) => {
            notes.push(at, format!("{problem}; not imported"));
            None
        }
    }
}

fn read_entities<'a>(
    t: Obj<'a, '_>,
    table: &Table,
    gsis: &[Gsi],
    notes: &mut Notes,
) -> Vec<Ent<'a>> {
    let entities_path = child(t.path, "entities");
    let Some(map) = t.get("entities").and_then(Value::as_object) else {
        if t.get("entities").is_some() {
            notes.push(&entities_path, "is not an object of entities; ignored");
        }
        return Vec::new();
    };
    let mut names: Vec<&String> = map.keys().collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let at = child(&entities_path, name);
        if let Some(e) = Obj::new(&map[name], &at, notes) {
            out.extend(read_entity(name, e, table, gsis, notes));
        }
    }
    out
}

fn read_entity<'a>(
    name: &str,
    e: Obj<'a, '_>,
    table: &Table,
    gsis: &[Gsi],
    notes: &mut Notes,
) -> Option<Ent<'a>> {
    let known = [
        "entity_type",
        "pk_template",
        "sk_template",
        "gsi_mappings",
        "fields",
        "access_patterns",
    ];
    e.unknown(&known, FORMAT, notes);
    let fields = read_fields(e, notes);
    let Some(pk) = template_at(e.get("pk_template"), &child(e.path, "pk_template"), notes) else {
        notes.push(
            e.path,
            format!(
                "entity `{}` has no usable `pk_template`; not imported",
                shown(name)
            ),
        );
        return None;
    };
    let sk = sort_template(name, e, table, notes)?;
    let gsi = read_mappings(e, gsis, notes);
    let patterns = match e.get("access_patterns") {
        Some(Value::Array(a)) => a.as_slice(),
        _ => &[],
    };
    let entity_type = e.str("entity_type", notes).map(str::to_string);
    Some(Ent {
        name: name.to_string(),
        origin: e.path.to_string(),
        entity_type,
        fields,
        pk,
        sk,
        gsi,
        patterns,
    })
}

/// The entity's sort key template: `Some(None)` for a table without a sort key (a template
/// given is listed), `None` (listed) for an entity without one in a table with one.
fn sort_template(
    name: &str,
    e: Obj<'_, '_>,
    table: &Table,
    notes: &mut Notes,
) -> Option<Option<Translated>> {
    let sk = template_at(e.get("sk_template"), &child(e.path, "sk_template"), notes);
    match (&table.sk, sk) {
        (Some(key), None) => {
            let reason = format!(
                "entity `{}` has no usable `sk_template`, and the table's sort key `{}` is written by every item; not imported",
                shown(name),
                shown(&key.name)
            );
            notes.push(e.path, reason);
            None
        }
        (None, Some(_)) => {
            let reason = "the table has no sort key; ignored";
            notes.push(&child(e.path, "sk_template"), reason);
            Some(None)
        }
        (_, sk) => Some(sk),
    }
}

/// One side of a `gsi_mappings` entry against the index's key.
fn mapping_side(
    spec: &KeySpec,
    native: bool,
    value: Option<&Value>,
    at: &str,
    notes: &mut Notes,
) -> Option<EntityKey> {
    if !native {
        return template_at(value, at, notes).map(EntityKey::Template);
    }
    let names = spec.names();
    let templates: Vec<&str> = match value? {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let plain = templates.len() == names.len()
        && templates
            .iter()
            .zip(&names)
            .all(|(t, n)| *t == format!("{{{n}}}"));
    if !plain {
        let wanted: Vec<String> = names.iter().map(|n| format!("{{{}}}", shown(n))).collect();
        let reason = format!(
            "a native multi-attribute key reads the attributes themselves: monotable maps only [{}]; not imported",
            wanted.join(", ")
        );
        notes.push(at, reason);
        return None;
    }
    Some(EntityKey::Native(names))
}

fn read_mappings(
    e: Obj<'_, '_>,
    gsis: &[Gsi],
    notes: &mut Notes,
) -> Vec<(String, EntityKey, Option<EntityKey>)> {
    let list_path = child(e.path, "gsi_mappings");
    let mut out = Vec::new();
    for (i, value) in e.array("gsi_mappings", notes).iter().enumerate() {
        let at = item(&list_path, i);
        let Some(m) = Obj::new(value, &at, notes) else {
            continue;
        };
        m.unknown(&["name", "pk_template", "sk_template"], FORMAT, notes);
        let Some(name) = m.str("name", notes) else {
            continue;
        };
        let Some(gsi) = gsis.iter().find(|g| g.name == name) else {
            notes.push(
                &at,
                format!("index `{}` is not in `gsi_list`; not imported", shown(name)),
            );
            continue;
        };
        let native = gsi.native;
        let Some(pk) = mapping_side(
            &gsi.pk,
            native,
            m.get("pk_template"),
            &child(&at, "pk_template"),
            notes,
        ) else {
            continue;
        };
        let sk = match &gsi.sk {
            None => None,
            Some(spec) => {
                let sk = mapping_side(
                    spec,
                    native,
                    m.get("sk_template"),
                    &child(&at, "sk_template"),
                    notes,
                );
                if sk.is_none() {
                    notes.push(&at, format!("the entity writes no sort key of index `{}`, so DynamoDB never puts it in the index; not imported", shown(name)));
                    continue;
                }
                sk
            }
        };
        out.push((name.to_string(), pk, sk));
    }
    out
}

/// The DynamoDB type of a key attribute written by templates: `N` when every entity writes one
/// numeric field alone (the generator writes the number itself), else `S`.
fn key_type(attribute: &str, read: &Read<'_>, notes: &mut Notes) -> &'static str {
    let mut numeric = Vec::new();
    let mut text = false;
    for e in &read.entities {
        for (written, template) in entity_keys(e, read) {
            if written != attribute {
                continue;
            }
            let lone = lone_variable(&template).and_then(|v| e.field(&v).map(|f| f.ty));
            match lone {
                Some("integer" | "decimal") => numeric.push(e),
                _ => text = true,
            }
        }
    }
    if !text && !numeric.is_empty() {
        return "N";
    }
    for e in numeric {
        let reason = format!(
            "writes a number alone into key `{}`, which other entities write as text; the key is typed S, so the number is written as text",
            shown(attribute)
        );
        notes.push(&e.origin, reason);
    }
    "S"
}

/// Key attribute → template text an entity writes (table and templated index keys).
pub(super) fn entity_keys(e: &Ent<'_>, read: &Read<'_>) -> Vec<(String, String)> {
    let mut keys = vec![(read.table.pk.name.clone(), e.pk.text.clone())];
    if let (Some(k), Some(t)) = (&read.table.sk, &e.sk) {
        keys.push((k.name.clone(), t.text.clone()));
    }
    for (index, pk, sk) in &e.gsi {
        let Some(g) = read.gsis.iter().find(|g| &g.name == index) else {
            continue;
        };
        let sides = [(Some(&g.pk), Some(pk)), (g.sk.as_ref(), sk.as_ref())];
        for (spec, key) in sides {
            if let (Some(KeySpec::One(attr)), Some(EntityKey::Template(t))) = (spec, key)
                && !keys.iter().any(|(a, _)| a == attr)
            {
                keys.push((attr.clone(), t.text.clone()));
            }
        }
    }
    keys
}

/// The native key attribute's type, from the fields of that name.
fn native_type(attribute: &str, read: &Read<'_>, at: &str, notes: &mut Notes) -> &'static str {
    let ty = read
        .entities
        .iter()
        .find_map(|e| e.field(attribute))
        .map(|f| f.ty);
    match ty {
        Some("string") => "S",
        Some("integer" | "decimal") => "N",
        Some(other) => {
            notes.push(
                at,
                format!(
                    "key attribute `{}` is a {other} field, which no DynamoDB key holds; typed S",
                    shown(attribute)
                ),
            );
            "S"
        }
        None => {
            notes.push(
                at,
                format!("no entity has a field `{}`; typed S", shown(attribute)),
            );
            "S"
        }
    }
}

fn build_index(g: &Gsi, read: &Read<'_>, notes: &mut Notes) -> Index {
    let native = g.native;
    let attrs = |spec: &KeySpec, notes: &mut Notes| -> Vec<KeyAttr> {
        spec.names()
            .into_iter()
            .map(|name| {
                let ty = if native {
                    native_type(&name, read, &g.origin, notes)
                } else {
                    key_type(&name, read, notes)
                };
                KeyAttr { name, ty }
            })
            .collect()
    };
    let pk = attrs(&g.pk, notes);
    let sk = g.sk.as_ref().map(|s| attrs(s, notes)).unwrap_or_default();
    Index {
        name: g.name.clone(),
        local: false,
        pk,
        sk,
        native,
        projection: g.projection,
        include: g.include.clone(),
        origin: g.origin.clone(),
    }
}

fn build_entity(e: &Ent<'_>, read: &Read<'_>) -> Entity {
    let attributes = e
        .fields
        .iter()
        .map(|f| Attribute {
            name: f.name.clone(),
            ty: f.ty,
            required: f.required,
            items: f.items,
            description: f.uuid.then(|| "a UUID".to_string()),
        })
        .collect();
    Entity {
        name: e.name.clone(),
        description: e.entity_type.as_ref().map(|t| format!("entity_type {t}")),
        attributes,
        keys: entity_keys(e, read),
        origin: e.origin.clone(),
    }
}

fn build(read: &Read<'_>, notes: &mut Notes) -> Draft {
    let mut table = read.table.clone();
    table.pk.ty = key_type(&table.pk.name, read, notes);
    if let Some(sk) = &mut table.sk {
        sk.ty = key_type(&sk.name, read, notes);
    }
    Draft {
        header: vec![
            format!(
                "Imported by monotable from the AWS DynamoDB MCP server's {FORMAT}, table `{}`.",
                shown(&table.name)
            ),
            "What it could not map was listed when it was imported (docs/export.md).".to_string(),
        ],
        indexes: read
            .gsis
            .iter()
            .map(|g| build_index(g, read, notes))
            .collect(),
        entities: read
            .entities
            .iter()
            .map(|e| build_entity(e, read))
            .collect(),
        patterns: Vec::new(),
        table,
    }
}
