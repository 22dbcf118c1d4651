//! `monotable import --from nosql-workbench`: a NoSQL Workbench data model back to model TOML.
//!
//! Prefers the monotable source embedded by the export when the Workbench table, indexes and
//! facets still match it; otherwise rebuilds the table, global indexes and one entity per facet.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use monotable_model::{IndexKind, KeyTemplate, Model, ProjectionType};
use serde_json::Value;

use super::document::{Bounded, Document, TableDoc};
use super::{SOURCE_BEGIN, SOURCE_END};
use crate::toml_text::{bare, quoted};
use monotable_model::definition::{scalar_type, table_definition};

/// A NoSQL Workbench file could not be imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ImportError {
    /// Not JSON.
    #[error("not JSON: {message}")]
    Json {
        /// The parser's message.
        message: String,
    },
    /// JSON, but not a Workbench data model.
    #[error("not a NoSQL Workbench data model: {message}")]
    NotWorkbench {
        /// What is missing.
        message: String,
    },
    /// More than one table; a monotable model is one table.
    #[error("the data model has {} tables ({}); a monotable model is one table", names.len(), names.join(", "))]
    MultipleTables {
        /// Their names.
        names: Vec<String>,
    },
    /// An index keyed on several partition or sort attributes: a Workbench file cannot hold one,
    /// so a file that lists several (or embeds a model that declares one) is not a model monotable
    /// can round-trip through Workbench.
    #[error(
        "NoSQL Workbench cannot represent native multi-attribute keys: index `{index}` has several \
         partition or sort key attributes; keep that model in its TOML file"
    )]
    NativeKeys {
        /// The index.
        index: String,
    },
    /// The file could not be read to its end (past the caller's size limit, say).
    #[error("cannot read it: {message}")]
    Read {
        /// What went wrong.
        message: String,
    },
    /// A list longer than a model can hold.
    #[error(
        "it lists more than {} {what}, the most a monotable model can hold",
        monotable_model::limits::thousands(*limit)
    )]
    TooMany {
        /// What the list holds.
        what: String,
        /// The most entries taken.
        limit: usize,
    },
    /// A name in the file (table, index, attribute, facet, key alias) holds a control,
    /// bidirectional or invisible character, which a model refuses: nothing is imported.
    #[error("{message}; nothing imported")]
    HiddenCharacter {
        /// The model's message: which name, escaped, and which character.
        message: String,
    },
}

/// The result of an import.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Imported {
    /// Model TOML.
    pub source: String,
    /// The source is the embedded monotable model, unchanged.
    pub embedded: bool,
    /// What could not be carried over.
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    name: String,
    ty: String,
}

#[derive(Debug)]
struct Gsi {
    name: String,
    pk: Key,
    sk: Option<Key>,
    projection: String,
    include: Vec<String>,
}

#[derive(Debug)]
struct Facet {
    name: String,
    pk_alias: Option<String>,
    sk_alias: Option<String>,
    attributes: Vec<String>,
}

#[derive(Debug)]
struct Table {
    name: String,
    pk: Key,
    sk: Option<Key>,
    billing: String,
    non_key: BTreeMap<String, String>,
    facets: Vec<Facet>,
    gsis: Vec<Gsi>,
}

fn text(v: &Value, field: &str) -> Option<String> {
    v.get(field).and_then(Value::as_str).map(str::to_string)
}

fn not_workbench(message: &str) -> ImportError {
    ImportError::NotWorkbench {
        message: message.to_string(),
    }
}

fn key(v: Option<&Value>) -> Option<Key> {
    let v = v?;
    Some(Key {
        name: text(v, "AttributeName")?,
        ty: text(v, "AttributeType").unwrap_or_else(|| "S".to_string()),
    })
}

fn strings<const N: usize>(v: &Bounded<Value, N>) -> Vec<String> {
    v.iter()
        .filter_map(|x| {
            x.as_str()
                .map(str::to_string)
                .or_else(|| text(x, "AttributeName"))
        })
        .collect()
}

fn string(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_string)
}

/// A list cut at its limit is refused, naming what and the limit.
fn bounded<T, const N: usize>(list: &Bounded<T, N>, what: &str) -> Result<(), ImportError> {
    if list.overflow {
        return Err(ImportError::TooMany {
            what: what.to_string(),
            limit: N,
        });
    }
    Ok(())
}

fn read_table(v: &TableDoc) -> Result<Table, ImportError> {
    let name =
        string(v.name.as_ref()).ok_or_else(|| not_workbench("a table has no `TableName`"))?;
    bounded(
        &v.non_key,
        "attribute definitions (`NonKeyAttributes`) in the table",
    )?;
    bounded(&v.facets, "facets (`TableFacets`, one entity type each)")?;
    bounded(
        &v.gsis,
        "global secondary indexes (`GlobalSecondaryIndexes`)",
    )?;
    let keys = v.keys.as_ref();
    let pk = key(keys.and_then(|k| k.get("PartitionKey")))
        .ok_or_else(|| not_workbench("the table has no partition key"))?;
    let sk = key(keys.and_then(|k| k.get("SortKey")));
    let non_key = v
        .non_key
        .iter()
        .filter_map(|x| Some((text(x, "AttributeName")?, text(x, "AttributeType")?)))
        .collect();
    let mut facets = Vec::new();
    for f in v.facets.iter() {
        let Some(name) = string(f.name.as_ref()) else {
            continue;
        };
        bounded(&f.attributes, &format!("attributes of facet `{name}`"))?;
        let alias = f.alias.as_ref();
        facets.push(Facet {
            name,
            pk_alias: alias.and_then(|a| text(a, "PartitionKeyAlias")),
            sk_alias: alias.and_then(|a| text(a, "SortKeyAlias")),
            attributes: strings(&f.attributes),
        });
    }
    let mut gsis = Vec::new();
    for g in v.gsis.iter() {
        let Some(name) = string(g.name.as_ref()) else {
            continue;
        };
        let keys = g.keys.as_ref();
        let Some(pk) = key(keys.and_then(|k| k.get("PartitionKey"))) else {
            continue;
        };
        let projection = g.projection.as_ref();
        if let Some(p) = projection {
            bounded(
                &p.attributes,
                &format!("projected attributes of index `{name}`"),
            )?;
        }
        gsis.push(Gsi {
            name,
            pk,
            sk: key(keys.and_then(|k| k.get("SortKey"))),
            projection: projection
                .and_then(|p| string(p.kind.as_ref()))
                .unwrap_or_else(|| "ALL".to_string()),
            include: projection
                .map(|p| strings(&p.attributes))
                .unwrap_or_default(),
        });
    }
    Ok(Table {
        name,
        pk,
        sk,
        billing: string(v.billing.as_ref()).unwrap_or_else(|| "PAY_PER_REQUEST".to_string()),
        non_key,
        facets,
        gsis,
    })
}

/// A global index whose `KeyAttributes` list several partition or sort attributes (an array
/// where Workbench writes one object), refused.
fn refuse_listed_keys(table: &TableDoc) -> Result<(), ImportError> {
    for g in table.gsis.iter() {
        let keys = g.keys.as_ref();
        let listed = ["PartitionKey", "SortKey"].iter().any(|side| {
            keys.and_then(|k| k.get(side))
                .and_then(Value::as_array)
                .is_some_and(|a| a.len() > 1)
        });
        if listed {
            return Err(ImportError::NativeKeys {
                index: string(g.name.as_ref()).unwrap_or_default(),
            });
        }
    }
    Ok(())
}

/// The refusal naming the model's first index keyed on several attributes.
fn native(model: &Model) -> ImportError {
    let index = model
        .indexes
        .iter()
        .find(|i| i.partition_keys.len() > 1 || i.sort_keys.len() > 1)
        .map_or_else(String::new, |i| i.name.clone());
    ImportError::NativeKeys { index }
}

/// The monotable source between the markers of the description, if any.
fn embedded_source(description: &str) -> Option<String> {
    let start = description.find(SOURCE_BEGIN)? + SOURCE_BEGIN.len();
    let rest = description[start..]
        .strip_prefix('\n')
        .unwrap_or(&description[start..]);
    let end = rest.rfind(SOURCE_END)?;
    let source = &rest[..end];
    Some(source.strip_suffix('\n').unwrap_or(source).to_string())
}

fn projection_name(p: ProjectionType) -> &'static str {
    match p {
        ProjectionType::All => "ALL",
        ProjectionType::KeysOnly => "KEYS_ONLY",
        ProjectionType::Include => "INCLUDE",
    }
}

/// How the Workbench table differs from the model (empty = it matches).
fn differences(model: &Model, table: &Table) -> Vec<String> {
    let mut out = Vec::new();
    let definition = table_definition(model);
    if model.table.name != table.name {
        out.push(format!(
            "table `{}` is now `{}`",
            model.table.name, table.name
        ));
    }
    let model_pk = Key {
        name: model.table.partition_key.name.clone(),
        ty: scalar_type(model.table.partition_key.ty).to_string(),
    };
    let model_sk = model.table.sort_key.as_ref().map(|k| Key {
        name: k.name.clone(),
        ty: scalar_type(k.ty).to_string(),
    });
    if model_pk != table.pk || model_sk != table.sk {
        out.push("the table's key changed".to_string());
    }
    if definition.billing.mode() != table.billing {
        out.push(format!("billing mode is now {}", table.billing));
    }
    let globals: Vec<_> = model
        .indexes
        .iter()
        .filter(|i| i.kind == IndexKind::Global)
        .collect();
    for index in &globals {
        match table.gsis.iter().find(|g| g.name == index.name) {
            None => out.push(format!("index `{}` was removed", index.name)),
            Some(g) => {
                let mut include = g.include.clone();
                include.sort();
                let mut model_include = index.include.clone();
                model_include.sort();
                if g.pk.name != index.partition_key
                    || g.sk.as_ref().map(|k| k.name.as_str()) != index.sort_key.as_deref()
                    || g.projection != projection_name(index.projection)
                    || (index.projection == ProjectionType::Include && include != model_include)
                {
                    out.push(format!("index `{}` changed", index.name));
                }
            }
        }
    }
    for g in &table.gsis {
        if !globals.iter().any(|i| i.name == g.name) {
            out.push(format!("index `{}` was added", g.name));
        }
    }
    let mut facets: BTreeMap<&str, &Facet> = BTreeMap::new();
    for f in &table.facets {
        facets.entry(f.name.as_str()).or_insert(f);
    }
    for entity in &model.entities {
        let Some(facet) = facets.get(entity.name.as_str()) else {
            out.push(format!("facet `{}` was removed", entity.name));
            continue;
        };
        if let Some(keys) = entity.key(None)
            && (facet.pk_alias.as_deref() != Some(keys.pk.template.to_string().as_str())
                || facet.sk_alias != keys.sk.as_ref().map(|k| k.template.to_string()))
        {
            out.push(format!("facet `{}` has new key aliases", entity.name));
        }
    }
    for facet in &table.facets {
        if model.entity(&facet.name).is_none() {
            out.push(format!("facet `{}` was added", facet.name));
        }
    }
    out
}

/// A template variable name from free text.
fn identifier(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    out
}

/// A key template from a facet alias: a monotable template as is; a name with lower-case
/// letters (`orderId`, `Customer Id`) as a variable; anything else (`PROFILE`, `USER#`) as text.
fn alias_template(alias: Option<&str>, fallback: &str) -> KeyTemplate {
    let alias = alias.map(str::trim).filter(|a| !a.is_empty());
    let Some(alias) = alias else {
        return KeyTemplate::parse(&format!("{{{}}}", identifier(fallback)))
            .unwrap_or_else(|_| KeyTemplate::literal(fallback));
    };
    if let Ok(t) = KeyTemplate::parse(alias)
        && !t.is_constant()
    {
        return t;
    }
    if alias.chars().any(|c| c.is_ascii_lowercase())
        && !alias.contains('#')
        && let Ok(t) = KeyTemplate::parse(&format!("{{{}}}", identifier(alias)))
    {
        return t;
    }
    KeyTemplate::literal(alias)
}

/// Model attribute type for a Workbench attribute type.
fn model_type(ty: &str) -> &'static str {
    match ty {
        "N" => "number",
        "BOOL" => "boolean",
        "L" => "list",
        "M" => "map",
        "SS" | "NS" | "BS" => "set",
        _ => "string",
    }
}

fn key_type(ty: &str, warnings: &mut Vec<String>, name: &str) -> &'static str {
    match ty {
        "S" => "S",
        "N" => "N",
        "B" => "B",
        other => {
            warnings.push(format!("key `{name}` has type {other}; imported as S"));
            "S"
        }
    }
}

fn rebuild(table: &Table, warnings: &mut Vec<String>) -> String {
    let mut out = String::from(
        "# Imported from a NoSQL Workbench data model by monotable: the table, its global\n\
         # secondary indexes and one entity per facet. Access patterns, index key templates\n\
         # and traffic are not part of a Workbench model; add them (see docs/model.md).\nversion = 1\n\n[table]\n",
    );
    let _ = writeln!(out, "name = {}", quoted(&table.name));
    let _ = writeln!(
        out,
        "partition_key = {{ name = {}, type = {} }}",
        quoted(&table.pk.name),
        quoted(key_type(&table.pk.ty, warnings, &table.pk.name))
    );
    if let Some(sk) = &table.sk {
        let _ = writeln!(
            out,
            "sort_key = {{ name = {}, type = {} }}",
            quoted(&sk.name),
            quoted(key_type(&sk.ty, warnings, &sk.name))
        );
    }
    let billing = if table.billing == "PROVISIONED" {
        "PROVISIONED"
    } else {
        "PAY_PER_REQUEST"
    };
    let _ = writeln!(out, "billing_mode = {}", quoted(billing));

    let mut index_keys: Vec<&str> = Vec::new();
    for g in &table.gsis {
        let _ = write!(out, "\n[indexes.{}]\nkind = \"global\"\n", bare(&g.name));
        let _ = writeln!(
            out,
            "partition_key = {{ name = {}, type = {} }}",
            quoted(&g.pk.name),
            quoted(key_type(&g.pk.ty, warnings, &g.pk.name))
        );
        index_keys.push(&g.pk.name);
        if let Some(sk) = &g.sk {
            let _ = writeln!(
                out,
                "sort_key = {{ name = {}, type = {} }}",
                quoted(&sk.name),
                quoted(key_type(&sk.ty, warnings, &sk.name))
            );
            index_keys.push(&sk.name);
        }
        let projection = match g.projection.as_str() {
            "KEYS_ONLY" => "KEYS_ONLY",
            "INCLUDE" => "INCLUDE",
            _ => "ALL",
        };
        let _ = writeln!(out, "projection = {}", quoted(projection));
        if projection == "INCLUDE" {
            let list: Vec<String> = g.include.iter().map(|s| quoted(s)).collect();
            let _ = writeln!(out, "include = [{}]", list.join(", "));
        }
    }

    let default_facet = [Facet {
        name: "Item".to_string(),
        pk_alias: None,
        sk_alias: None,
        attributes: table.non_key.keys().cloned().collect(),
    }];
    let facets: &[Facet] = if table.facets.is_empty() {
        warnings.push("the table has no facets; imported as one entity `Item`".to_string());
        &default_facet
    } else {
        &table.facets
    };
    for facet in facets {
        let pk = alias_template(
            facet.pk_alias.as_deref(),
            &table.pk.name.to_ascii_lowercase(),
        );
        let sk = table
            .sk
            .as_ref()
            .map(|k| alias_template(facet.sk_alias.as_deref(), &k.name.to_ascii_lowercase()));
        let mut attributes: BTreeMap<String, (&str, bool)> = BTreeMap::new();
        for (template, key) in
            std::iter::once((&pk, &table.pk)).chain(sk.iter().zip(table.sk.iter()))
        {
            for segment in template.segments() {
                let monotable_model::Segment::Var { name, pad } = segment else {
                    continue;
                };
                let ty = match (pad, table.non_key.get(name)) {
                    (Some(_), _) => "integer",
                    (None, Some(t)) => model_type(t),
                    (None, None) if key.ty == "N" => "number",
                    (None, None) => "string",
                };
                attributes.insert(name.clone(), (ty, true));
            }
        }
        let mut unknown_keys = Vec::new();
        for name in &facet.attributes {
            if name == &table.pk.name || table.sk.as_ref().is_some_and(|k| &k.name == name) {
                continue;
            }
            if index_keys.contains(&name.as_str()) {
                unknown_keys.push(name.as_str());
                continue;
            }
            let ty = table.non_key.get(name).map_or("string", |t| model_type(t));
            attributes.entry(name.clone()).or_insert((ty, false));
        }
        let _ = write!(out, "\n[entities.{}]\n", bare(&facet.name));
        for (name, (ty, required)) in &attributes {
            let required = if *required { ", required = true" } else { "" };
            let _ = writeln!(
                out,
                "attributes.{} = {{ type = {}{required} }}",
                bare(name),
                quoted(ty)
            );
        }
        let _ = writeln!(
            out,
            "keys.{} = {}",
            bare(&table.pk.name),
            quoted(&pk.to_string())
        );
        if let (Some(k), Some(t)) = (&table.sk, &sk) {
            let _ = writeln!(out, "keys.{} = {}", bare(&k.name), quoted(&t.to_string()));
        }
        if !unknown_keys.is_empty() {
            let _ = writeln!(
                out,
                "# In Workbench this facet also has {}: add their key templates (keys.<name> = \"...\").",
                unknown_keys.join(", ")
            );
            warnings.push(format!(
                "facet `{}` has index keys {} without templates; not imported",
                facet.name,
                unknown_keys.join(", ")
            ));
        }
    }
    out
}

/// Imports a NoSQL Workbench data model, with how it was done.
pub fn import_nosql_workbench_detailed(json: &str) -> Result<Imported, ImportError> {
    import_nosql_workbench_from_reader(json.as_bytes())
}

/// Imports a NoSQL Workbench data model read from `reader` as a stream: its sample items are
/// skipped as they are read, so memory does not grow with them. A read error (a file past the
/// caller's size limit, say) is [`ImportError::Read`].
pub fn import_nosql_workbench_from_reader(
    reader: impl std::io::Read,
) -> Result<Imported, ImportError> {
    let document: Document =
        serde_json::from_reader(std::io::BufReader::new(reader)).map_err(|e| {
            match e.classify() {
                serde_json::error::Category::Io => ImportError::Read {
                    message: e.to_string(),
                },
                serde_json::error::Category::Data => ImportError::NotWorkbench {
                    message: e.to_string(),
                },
                _ => ImportError::Json {
                    message: e.to_string(),
                },
            }
        })?;
    if !document.data_model.list {
        return Err(not_workbench("no `DataModel` array"));
    }
    let tables = &document.data_model.items;
    let table = match tables.as_slice() {
        [] => return Err(not_workbench("`DataModel` has no table")),
        [table] => {
            refuse_listed_keys(table)?;
            read_table(table)?
        }
        many => {
            let mut names: Vec<String> = many
                .iter()
                .map(|t| string(t.name.as_ref()).unwrap_or_default())
                .collect();
            if document.data_model.overflow {
                names.push("…".to_string());
            }
            return Err(ImportError::MultipleTables { names });
        }
    };
    let mut warnings = Vec::new();
    let description = document
        .metadata
        .as_ref()
        .and_then(|m| text(m, "Description"))
        .unwrap_or_default();
    let embedded = embedded_source(&description).filter(|source| {
        // Written out as it is, a hidden character would reach the terminal or the file raw.
        let hidden = source
            .chars()
            .find(|c| monotable_model::text::is_hidden(*c) && !matches!(c, '\n' | '\t' | '\r'));
        if let Some(c) = hidden {
            warnings.push(format!(
                "the embedded monotable model holds {} ({}); rebuilt from Workbench, so access patterns, index key templates and traffic are not imported",
                monotable_model::text::code_point(c),
                monotable_model::text::hidden_kind(c)
            ));
        }
        hidden.is_none()
    });
    if let Some(source) = embedded {
        match monotable_model::parse(&source) {
            Ok(model) => {
                super::check_representable(&model).map_err(|_| native(&model))?;
                let diffs = differences(&model, &table);
                if diffs.is_empty() {
                    return Ok(Imported {
                        source,
                        embedded: true,
                        warnings,
                    });
                }
                warnings.push(format!(
                    "the embedded monotable model no longer matches the Workbench table ({}); rebuilt from Workbench, so access patterns, index key templates and traffic are not imported",
                    diffs.join("; ")
                ));
            }
            Err(e) => warnings.push(format!(
                "the embedded monotable model does not parse ({e}); rebuilt from Workbench"
            )),
        }
    }
    let source = rebuild(&table, &mut warnings);
    if let Err(e) = monotable_model::parse(&source) {
        // A model that holds a name a terminal would not show as written is refused, not written.
        if let Some(hidden) = e
            .issues
            .iter()
            .find(|i| i.kind == monotable_model::IssueKind::HiddenCharacter)
        {
            return Err(ImportError::HiddenCharacter {
                message: hidden.message.clone(),
            });
        }
        warnings.push(format!("the rebuilt model does not validate: {e}"));
    }
    Ok(Imported {
        source,
        embedded: false,
        warnings,
    })
}

/// Imports a NoSQL Workbench data model as model TOML (see [`import_nosql_workbench_detailed`]).
pub fn import_nosql_workbench(json: &str) -> Result<String, ImportError> {
    import_nosql_workbench_detailed(json).map(|i| i.source)
}
