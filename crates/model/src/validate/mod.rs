//! Turning the raw TOML types into a validated [`Model`], collecting every issue with its span.
//!
//! The table and indexes are in `schema`, entities in `entity`, access patterns in `pattern`,
//! what an update declares it changes in `sets`, traffic figures and numeric bounds in
//! `traffic`, stream consumers in `consumers`; names and key text holding hidden characters are refused first, in `hidden`.

mod actions;
mod consumers;
mod entity;
mod hidden;
mod limits;
mod native;
mod pattern;
mod schema;
mod sets;
mod traffic;

use std::collections::BTreeSet;
use std::ops::Range;

use crate::error::{IssueKind, ModelError, ModelIssue};
use crate::model::*;
use crate::raw::RawModel;
use crate::template::{KeyTemplate, Segment};

/// Parses and validates a model from TOML source. Never panics.
pub fn parse(source: &str) -> Result<Model, ModelError> {
    if let Some(issue) = limits::source(source) {
        return Err(ModelError {
            issues: vec![issue],
        });
    }
    let raw: RawModel = toml::from_str(source).map_err(|e| ModelError {
        issues: vec![ModelIssue {
            kind: IssueKind::Syntax,
            message: plain_types(e.message().trim()),
            span: e.span(),
            help: None,
        }],
    })?;
    validate(raw)
}

/// A reader's message with Rust's type names said in words: `expected u64` is `expected a
/// whole number, 0 or more`.
fn plain_types(message: &str) -> String {
    message
        .replace("expected u64", "expected a whole number, 0 or more")
        .replace("expected i64", "expected a whole number")
        .replace("expected f64", "expected a number")
}

/// Validates an already deserialized model.
pub fn validate(raw: RawModel) -> Result<Model, ModelError> {
    // Past a size limit nothing more is built: the rest would take time the limit bounds.
    let issues = limits::counts(&raw);
    if !issues.is_empty() {
        return Err(ModelError { issues });
    }
    let mut v = Validator { issues: Vec::new() };
    v.hidden_characters(&raw);
    if v.issues.is_empty() {
        let model = v.model(raw);
        if v.issues.is_empty() {
            return Ok(model);
        }
    }
    let mut issues = v.issues;
    issues.sort_by_key(|i| i.span.as_ref().map_or(0, |s| s.start));
    Err(ModelError { issues })
}

/// Parses a key condition: `T`, `begins_with(T)`, `between(A, B)`, `< T`, `<= T`, `> T`, `>= T`.
pub fn parse_condition(text: &str) -> Result<KeyTest, String> {
    let t = text.trim();
    let tpl = |s: &str| KeyTemplate::parse(s.trim()).map_err(|e| e.to_string());
    if let Some(inner) = t
        .strip_prefix("begins_with(")
        .and_then(|r| r.strip_suffix(')'))
    {
        return Ok(KeyTest::BeginsWith(tpl(inner)?));
    }
    if let Some(inner) = t.strip_prefix("between(").and_then(|r| r.strip_suffix(')')) {
        let (a, b) = split_top_level_comma(inner)
            .ok_or_else(|| "`between` needs two templates: `between(A, B)`".to_string())?;
        return Ok(KeyTest::Between(tpl(a)?, tpl(b)?));
    }
    for (op, make) in [
        ("<=", KeyTest::Le as fn(KeyTemplate) -> KeyTest),
        (">=", KeyTest::Ge),
        ("<", KeyTest::Lt),
        (">", KeyTest::Gt),
        ("=", KeyTest::Eq),
    ] {
        if let Some(rest) = t.strip_prefix(op) {
            return Ok(make(tpl(rest)?));
        }
    }
    if t.starts_with("begins_with") || t.starts_with("between") {
        return Err(format!("malformed condition `{t}`"));
    }
    Ok(KeyTest::Eq(tpl(t)?))
}

fn split_top_level_comma(s: &str) -> Option<(&str, &str)> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => return Some((&s[..i], &s[i + 1..])),
            _ => {}
        }
    }
    None
}

/// Whether values of `a` render as numbers: integers, decimals, floats, epoch timestamps.
fn renders_number(a: &Attribute) -> bool {
    match a.ty {
        AttributeType::Integer
        | AttributeType::Decimal
        | AttributeType::Number
        | AttributeType::Float => true,
        AttributeType::Timestamp => a.timestamp_format().is_number(),
        _ => false,
    }
}

/// The most bytes DynamoDB takes in a partition key value.
const MAX_PARTITION_KEY_BYTES: usize = 2048;
/// The most bytes DynamoDB takes in a sort key value.
const MAX_SORT_KEY_BYTES: usize = 1024;

/// Collects the issues of one model while building it.
struct Validator {
    issues: Vec<ModelIssue>,
}

impl Validator {
    fn err(&mut self, kind: IssueKind, message: impl Into<String>, span: &Range<usize>) {
        self.issues
            .push(ModelIssue::new(kind, message, span.clone()));
    }

    fn err_help(
        &mut self,
        kind: IssueKind,
        message: impl Into<String>,
        span: &Range<usize>,
        help: impl Into<String>,
    ) {
        self.issues
            .push(ModelIssue::new(kind, message, span.clone()).help(help));
    }

    /// A template whose fixed text alone is longer than DynamoDB lets `attribute` be (2,048
    /// bytes for a partition key, 1,024 for a sort key) is an error.
    fn key_length(
        &mut self,
        what: &str,
        attribute: &str,
        template: &KeyTemplate,
        span: &Range<usize>,
        model: &Model,
    ) {
        let is_sort = model
            .table
            .sort_key
            .as_ref()
            .is_some_and(|k| k.name == attribute)
            || model.indexes.iter().any(|i| i.is_sort_attribute(attribute));
        let (limit, role) = if is_sort {
            (MAX_SORT_KEY_BYTES, "sort")
        } else {
            (MAX_PARTITION_KEY_BYTES, "partition")
        };
        let fixed = template.literal_len();
        if fixed > limit {
            self.err_help(
                IssueKind::InvalidTemplate,
                format!("{what} is at least {fixed} bytes long, and DynamoDB takes at most {limit} in a {role} key"),
                span,
                "keep keys to short prefixes and ids; store long text as an ordinary attribute",
            );
        }
    }

    /// A key attribute typed `N` holds a number: its template is one numeric variable (an
    /// integer, decimal, number or epoch timestamp) or a literal number, never text.
    fn numeric_key(
        &mut self,
        what: &str,
        attribute: &str,
        template: &KeyTemplate,
        span: &Range<usize>,
        model: &Model,
        numeric: &dyn Fn(&str) -> Option<bool>,
    ) {
        if model.key_attribute_type(attribute) != Some(KeyAttributeType::N) {
            return;
        }
        let number = match template.segments() {
            // An unknown variable is reported on its own.
            [Segment::Var { name, .. }] => numeric(name).unwrap_or(true),
            [Segment::Literal(text)] => {
                text.bytes()
                    .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
                    && text.parse::<f64>().is_ok_and(f64::is_finite)
            }
            _ => false,
        };
        if !number {
            self.err_help(
                IssueKind::InvalidTemplate,
                format!("{what} is typed N, but `{template}` renders text, not a number"),
                span,
                "write only the number (one integer, decimal or epoch timestamp variable), or type the key attribute S",
            );
        }
    }

    fn model(&mut self, raw: RawModel) -> Model {
        if let Some(v) = &raw.version
            && v.value != 1
        {
            self.err(
                IssueKind::Invalid,
                format!("unsupported model version {}", v.value),
                &v.span,
            );
        }
        let table = self.table(&raw.table);
        let indexes: Vec<Index> = raw
            .indexes
            .iter()
            .map(|(name, idx)| self.index(name, idx, &table))
            .collect();
        self.key_types(&table, &indexes);
        let mut model = Model {
            table,
            indexes,
            entities: Vec::new(),
            patterns: Vec::new(),
            traffic: Traffic::default(),
            consumers: Vec::new(),
        };
        model.entities = raw
            .entities
            .iter()
            .map(|(name, e)| self.entity(name, e, &model))
            .collect();
        let names: BTreeSet<&str> = raw.entities.keys().map(String::as_str).collect();
        self.check_entity_refs(&raw, &names, &model);
        self.check_sparse_entities(&raw, &model);
        self.check_native_entities(&model);
        self.check_namespaces(&raw);
        model.patterns = raw
            .patterns
            .iter()
            .map(|(name, p)| self.pattern(name, p, &model, &raw.patterns))
            .collect();
        model.traffic = self.traffic(raw.traffic.as_ref(), &model);
        model.consumers = self.consumers(&raw.consumers, &model);
        model.traffic.consumers = self.consumers_traffic(raw.traffic.as_ref(), &model);
        model
    }
}
