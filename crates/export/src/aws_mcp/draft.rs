//! The model an import builds before it is written: table, indexes, entities and patterns, each
//! remembering the JSON path it came from, and its TOML text with where each section lies.

use std::fmt::Write as _;
use std::ops::Range;

use crate::toml_text::{bare, quoted};

/// A key attribute: its name and DynamoDB type (`S`, `N` or `B`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeyAttr {
    pub name: String,
    pub ty: &'static str,
}

#[derive(Debug, Clone)]
pub(crate) struct Table {
    pub name: String,
    pub pk: KeyAttr,
    pub sk: Option<KeyAttr>,
    pub billing: Option<&'static str>,
    pub ttl: Option<String>,
    pub stream: Option<&'static str>,
}

#[derive(Debug, Clone)]
pub(crate) struct Index {
    pub name: String,
    pub local: bool,
    /// One attribute each unless `native`; a native key lists one to four.
    pub pk: Vec<KeyAttr>,
    pub sk: Vec<KeyAttr>,
    pub native: bool,
    pub projection: &'static str,
    pub include: Vec<String>,
    pub origin: String,
}

#[derive(Debug, Clone)]
pub(crate) struct Attribute {
    pub name: String,
    pub ty: &'static str,
    pub required: bool,
    pub items: Option<&'static str>,
    pub description: Option<String>,
}

#[derive(Debug, Clone)]
pub(crate) struct Entity {
    pub name: String,
    pub description: Option<String>,
    pub attributes: Vec<Attribute>,
    /// Key attribute to template text, in the order written.
    pub keys: Vec<(String, String)>,
    pub origin: String,
}

#[derive(Debug, Clone)]
pub(crate) struct Param {
    pub name: String,
    pub ty: &'static str,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Pattern {
    pub name: String,
    pub description: Option<String>,
    pub operation: &'static str,
    pub index: Option<String>,
    pub key: Vec<(String, String)>,
    pub returns: Vec<String>,
    pub params: Vec<Param>,
    pub filter: Vec<String>,
    pub reads: Vec<String>,
    pub sets: Vec<String>,
    pub condition: Option<String>,
    pub consistent_read: bool,
    pub descending: bool,
    pub paginate: bool,
    pub limit: Option<u32>,
    pub unique: bool,
    /// A transaction's or batch's actions: pattern name and `count` (`None`: `"many"`).
    pub writes: Vec<(String, Option<u32>)>,
    pub origin: String,
}

/// The whole model to write.
#[derive(Debug, Clone)]
pub(crate) struct Draft {
    /// Comment lines at the top (without `# `).
    pub header: Vec<String>,
    pub table: Table,
    pub indexes: Vec<Index>,
    pub entities: Vec<Entity>,
    pub patterns: Vec<Pattern>,
}

/// A part of the written text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Section {
    Table,
    Index(usize),
    Entity(usize),
    Pattern(usize),
}

/// A draft as TOML text, with the byte range of each section.
#[derive(Debug)]
pub(crate) struct Written {
    pub text: String,
    pub sections: Vec<(Section, Range<usize>)>,
}

impl Written {
    /// The section the byte `at` lies in (the header and `version` count as the table's).
    pub fn section_at(&self, at: usize) -> Section {
        self.sections
            .iter()
            .find(|(_, r)| r.contains(&at))
            .map_or(Section::Table, |(s, _)| *s)
    }
}

fn key_attr(k: &KeyAttr) -> String {
    format!("{{ name = {}, type = {} }}", quoted(&k.name), quoted(k.ty))
}

fn key_list(keys: &[KeyAttr]) -> String {
    let items: Vec<String> = keys.iter().map(key_attr).collect();
    format!("[{}]", items.join(", "))
}

fn string_list(items: &[String]) -> String {
    let items: Vec<String> = items.iter().map(|s| quoted(s)).collect();
    format!("[{}]", items.join(", "))
}

fn inline_map(pairs: &[(String, String)]) -> String {
    let items: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{} = {}", bare(k), quoted(v)))
        .collect();
    format!("{{ {} }}", items.join(", "))
}

impl Draft {
    /// The model's TOML text.
    pub fn write(&self) -> Written {
        let mut out = String::new();
        for line in &self.header {
            let _ = writeln!(out, "# {line}");
        }
        out.push_str("version = 1\n");
        let mut sections = Vec::new();
        let start = out.len();
        self.write_table(&mut out);
        sections.push((Section::Table, start..out.len()));
        for (i, index) in self.indexes.iter().enumerate() {
            let start = out.len();
            write_index(&mut out, index);
            sections.push((Section::Index(i), start..out.len()));
        }
        for (i, entity) in self.entities.iter().enumerate() {
            let start = out.len();
            write_entity(&mut out, entity);
            sections.push((Section::Entity(i), start..out.len()));
        }
        for (i, pattern) in self.patterns.iter().enumerate() {
            let start = out.len();
            write_pattern(&mut out, pattern);
            sections.push((Section::Pattern(i), start..out.len()));
        }
        Written {
            text: out,
            sections,
        }
    }

    fn write_table(&self, out: &mut String) {
        let t = &self.table;
        let _ = writeln!(out, "\n[table]\nname = {}", quoted(&t.name));
        let _ = writeln!(out, "partition_key = {}", key_attr(&t.pk));
        if let Some(sk) = &t.sk {
            let _ = writeln!(out, "sort_key = {}", key_attr(sk));
        }
        if let Some(billing) = t.billing {
            let _ = writeln!(out, "billing_mode = {}", quoted(billing));
        }
        if let Some(ttl) = &t.ttl {
            let _ = writeln!(out, "ttl_attribute = {}", quoted(ttl));
        }
        if let Some(stream) = t.stream {
            let _ = writeln!(out, "stream = {}", quoted(stream));
        }
    }
}

fn write_index(out: &mut String, index: &Index) {
    let _ = writeln!(out, "\n[indexes.{}]", bare(&index.name));
    let kind = if index.local { "local" } else { "global" };
    let _ = writeln!(out, "kind = {}", quoted(kind));
    let side = |keys: &[KeyAttr]| match keys {
        [one] if !index.native => key_attr(one),
        many => key_list(many),
    };
    if !index.local {
        let _ = writeln!(out, "partition_key = {}", side(&index.pk));
    }
    if !index.sk.is_empty() {
        let _ = writeln!(out, "sort_key = {}", side(&index.sk));
    }
    let _ = writeln!(out, "projection = {}", quoted(index.projection));
    if index.projection == "INCLUDE" {
        let _ = writeln!(out, "include = {}", string_list(&index.include));
    }
}

fn write_entity(out: &mut String, entity: &Entity) {
    let _ = writeln!(out, "\n[entities.{}]", bare(&entity.name));
    if let Some(d) = &entity.description {
        let _ = writeln!(out, "description = {}", quoted(d));
    }
    for a in &entity.attributes {
        let mut fields = vec![format!("type = {}", quoted(a.ty))];
        if let Some(items) = a.items {
            fields.push(format!("items = {}", quoted(items)));
        }
        if a.required {
            fields.push("required = true".to_string());
        }
        if let Some(d) = &a.description {
            fields.push(format!("description = {}", quoted(d)));
        }
        let _ = writeln!(
            out,
            "attributes.{} = {{ {} }}",
            bare(&a.name),
            fields.join(", ")
        );
    }
    for (attribute, template) in &entity.keys {
        let _ = writeln!(out, "keys.{} = {}", bare(attribute), quoted(template));
    }
}

fn write_pattern(out: &mut String, p: &Pattern) {
    let _ = writeln!(out, "\n[patterns.{}]", bare(&p.name));
    if let Some(d) = &p.description {
        let _ = writeln!(out, "description = {}", quoted(d));
    }
    let _ = writeln!(out, "operation = {}", quoted(p.operation));
    if let Some(index) = &p.index {
        let _ = writeln!(out, "index = {}", quoted(index));
    }
    if !p.key.is_empty() {
        let _ = writeln!(out, "key = {}", inline_map(&p.key));
    }
    if !p.returns.is_empty() {
        let _ = writeln!(out, "returns = {}", string_list(&p.returns));
    }
    for param in &p.params {
        let _ = writeln!(
            out,
            "params.{} = {{ type = {} }}",
            bare(&param.name),
            quoted(param.ty)
        );
    }
    write_pattern_options(out, p);
}

fn write_pattern_options(out: &mut String, p: &Pattern) {
    let lists = [
        ("filter", &p.filter),
        ("reads", &p.reads),
        ("sets", &p.sets),
    ];
    for (field, list) in lists {
        if !list.is_empty() {
            let _ = writeln!(out, "{field} = {}", string_list(list));
        }
    }
    if let Some(c) = &p.condition {
        let _ = writeln!(out, "condition = {}", quoted(c));
    }
    let flags = [
        ("consistent_read", p.consistent_read),
        ("descending", p.descending),
        ("paginate", p.paginate),
        ("unique", p.unique),
    ];
    for (field, set) in flags {
        if set {
            let _ = writeln!(out, "{field} = true");
        }
    }
    if let Some(limit) = p.limit {
        let _ = writeln!(out, "limit = {limit}");
    }
    if !p.writes.is_empty() {
        let entries: Vec<String> = p
            .writes
            .iter()
            .map(|(name, count)| match count {
                Some(n) => format!("{{ pattern = {}, count = {n} }}", quoted(name)),
                None => format!("{{ pattern = {}, count = \"many\" }}", quoted(name)),
            })
            .collect();
        let _ = writeln!(out, "writes = [{}]", entries.join(", "));
    }
}
