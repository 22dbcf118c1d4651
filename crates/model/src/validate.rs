//! Turning the raw TOML types into a validated [`Model`], collecting every issue with its span.

use std::collections::BTreeSet;
use std::ops::Range;

use crate::error::{IssueKind, ModelError, ModelIssue};
use crate::model::*;
use crate::raw::{self, RawAttribute, RawCount, RawModel, Sp};
use crate::template::KeyTemplate;

/// Parses and validates a model from TOML source. Never panics.
pub fn parse(source: &str) -> Result<Model, ModelError> {
    let raw: RawModel = toml::from_str(source).map_err(|e| ModelError {
        issues: vec![ModelIssue {
            kind: IssueKind::Syntax,
            message: e.message().trim().to_string(),
            span: e.span(),
            help: None,
        }],
    })?;
    validate(raw)
}

/// Validates an already deserialized model.
pub fn validate(raw: RawModel) -> Result<Model, ModelError> {
    let mut v = Validator { issues: Vec::new() };
    let model = v.model(raw);
    if v.issues.is_empty() {
        Ok(model)
    } else {
        let mut issues = v.issues;
        issues.sort_by_key(|i| i.span.as_ref().map_or(0, |s| s.start));
        Err(ModelError { issues })
    }
}

/// Parses a key condition: `T`, `begins_with(T)`, `between(A, B)`, `< T`, `<= T`, `> T`, `>= T`.
pub fn parse_condition(text: &str) -> Result<Condition, String> {
    let t = text.trim();
    let tpl = |s: &str| KeyTemplate::parse(s.trim()).map_err(|e| e.to_string());
    if let Some(inner) = t
        .strip_prefix("begins_with(")
        .and_then(|r| r.strip_suffix(')'))
    {
        return Ok(Condition::BeginsWith(tpl(inner)?));
    }
    if let Some(inner) = t.strip_prefix("between(").and_then(|r| r.strip_suffix(')')) {
        let (a, b) = split_top_level_comma(inner)
            .ok_or_else(|| "`between` needs two templates: `between(A, B)`".to_string())?;
        return Ok(Condition::Between(tpl(a)?, tpl(b)?));
    }
    for (op, make) in [
        ("<=", Condition::Le as fn(KeyTemplate) -> Condition),
        (">=", Condition::Ge),
        ("<", Condition::Lt),
        (">", Condition::Gt),
        ("=", Condition::Eq),
    ] {
        if let Some(rest) = t.strip_prefix(op) {
            return Ok(make(tpl(rest)?));
        }
    }
    if t.starts_with("begins_with") || t.starts_with("between") {
        return Err(format!("malformed condition `{t}`"));
    }
    Ok(Condition::Eq(tpl(t)?))
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
        // One attribute, one type: CreateTable defines each key attribute once.
        let mut types: Vec<(&str, KeyAttributeType)> = std::iter::once(&table.partition_key)
            .chain(table.sort_key.as_ref())
            .map(|k| (k.name.as_str(), k.ty))
            .collect();
        for index in &indexes {
            let keys = std::iter::once((index.partition_key.as_str(), index.partition_key_type))
                .chain(index.sort_key.as_deref().zip(index.sort_key_type));
            for (name, ty) in keys {
                match types.iter().find(|(n, _)| *n == name) {
                    Some((_, first)) if *first != ty => self.err_help(
                        IssueKind::Invalid,
                        format!(
                            "key attribute `{name}` of index `{}` is typed {ty:?} here and {first:?} elsewhere",
                            index.name
                        ),
                        &index.span,
                        "a key attribute has one type across the table and all its indexes",
                    ),
                    Some(_) => {}
                    None => types.push((name, ty)),
                }
            }
        }
        let mut model = Model {
            table,
            indexes,
            entities: Vec::new(),
            patterns: Vec::new(),
            traffic: Traffic::default(),
        };
        model.entities = raw
            .entities
            .iter()
            .map(|(name, e)| self.entity(name, e, &model))
            .collect();
        let names: BTreeSet<&str> = raw.entities.keys().map(String::as_str).collect();
        self.check_entity_refs(&raw, &names, &model);
        model.patterns = raw
            .patterns
            .iter()
            .map(|(name, p)| self.pattern(name, p, &model))
            .collect();
        model.traffic = self.traffic(raw.traffic.as_ref(), &model);
        model
    }

    fn table(&mut self, raw: &Sp<raw::RawTable>) -> Table {
        let t = &raw.value;
        let key = |k: &Sp<raw::RawKeyAttribute>| KeyAttribute {
            name: k.value.name.value.clone(),
            ty: k.value.ty.as_ref().map_or(KeyAttributeType::S, |t| t.value),
        };
        Table {
            name: t.name.value.clone(),
            partition_key: key(&t.partition_key),
            sort_key: t.sort_key.as_ref().map(key),
            billing_mode: t
                .billing_mode
                .as_ref()
                .map_or(BillingMode::PayPerRequest, |b| b.value),
            ttl_attribute: t.ttl_attribute.as_ref().map(|a| a.value.clone()),
            span: raw.span.clone(),
        }
    }

    fn index(&mut self, name: &str, raw: &Sp<raw::RawIndex>, table: &Table) -> Index {
        let i = &raw.value;
        let kind = i.kind.as_ref().map_or(IndexKind::Global, |k| k.value);
        let partition_key = match (&i.partition_key, kind) {
            (Some(pk), IndexKind::Local) if pk.value.name.value != table.partition_key.name => {
                self.err_help(
                    IssueKind::Invalid,
                    format!("local index `{name}` must use the table's partition key"),
                    &pk.span,
                    format!(
                        "use `{}` or make the index global",
                        table.partition_key.name
                    ),
                );
                pk.value.name.value.clone()
            }
            (Some(pk), _) => pk.value.name.value.clone(),
            (None, IndexKind::Local) => table.partition_key.name.clone(),
            (None, IndexKind::Global) => {
                self.err(
                    IssueKind::Invalid,
                    format!("global index `{name}` needs a `partition_key`"),
                    &raw.span,
                );
                String::new()
            }
        };
        if kind == IndexKind::Local && i.sort_key.is_none() {
            self.err(
                IssueKind::Invalid,
                format!("local index `{name}` needs a `sort_key`"),
                &raw.span,
            );
        }
        let projection = i
            .projection
            .as_ref()
            .map_or(ProjectionType::All, |p| p.value);
        if projection != ProjectionType::Include
            && let Some(first) = i.include.first()
        {
            self.err(
                IssueKind::Invalid,
                "`include` is only allowed with `projection = \"INCLUDE\"`",
                &first.span,
            );
        }
        let declared = |k: &Sp<raw::RawKeyAttribute>| {
            k.value.ty.as_ref().map_or(KeyAttributeType::S, |t| t.value)
        };
        let partition_key_type = match &i.partition_key {
            Some(pk) => declared(pk),
            None => table.partition_key.ty,
        };
        Index {
            name: name.to_string(),
            kind,
            partition_key,
            partition_key_type,
            sort_key: i.sort_key.as_ref().map(|k| k.value.name.value.clone()),
            sort_key_type: i.sort_key.as_ref().map(declared),
            projection,
            include: i.include.iter().map(|s| s.value.clone()).collect(),
            sparse: i.sparse.as_ref().is_some_and(|s| s.value),
            span: raw.span.clone(),
        }
    }

    fn attribute(&mut self, name: &str, raw: &Sp<RawAttribute>) -> Attribute {
        let a = &raw.value;
        if a.ty.value == AttributeType::Enum && a.values.is_empty() {
            self.err(
                IssueKind::Invalid,
                format!("enum attribute `{name}` needs `values`"),
                &raw.span,
            );
        }
        if a.format.is_some() && a.ty.value != AttributeType::Timestamp {
            self.err(
                IssueKind::Invalid,
                format!("`format` only applies to timestamps, `{name}` is not one"),
                &raw.span,
            );
        }
        Attribute {
            name: name.to_string(),
            ty: a.ty.value,
            required: a.required.unwrap_or(false),
            values: a.values.clone(),
            format: a.format.as_ref().map(|f| f.value),
            items: a.items,
            max_items: a.max_items,
            max_length: a.max_length,
            cardinality: a.cardinality,
            money: a.money.unwrap_or(false),
            span: raw.span.clone(),
            type_span: a.ty.span.clone(),
        }
    }

    fn template(&mut self, text: &Sp<String>, what: &str) -> Option<KeyTemplate> {
        match KeyTemplate::parse(&text.value) {
            Ok(t) => Some(t),
            Err(e) => {
                self.err(
                    IssueKind::InvalidTemplate,
                    format!("{what}: {e}"),
                    &text.span,
                );
                None
            }
        }
    }

    fn entity(&mut self, name: &str, raw: &Sp<raw::RawEntity>, model: &Model) -> Entity {
        let e = &raw.value;
        let attributes: Vec<Attribute> = e
            .attributes
            .iter()
            .map(|(n, a)| self.attribute(n, a))
            .collect();
        let mut keys = Vec::new();
        for (attr, text) in &e.keys {
            let Some(template) = self.template(text, &format!("key `{attr}` of `{name}`")) else {
                continue;
            };
            for var in template.variables() {
                if !attributes.iter().any(|a| a.name == var) {
                    self.err_help(
                        IssueKind::UnknownReference,
                        format!("key `{attr}` of entity `{name}` uses `{{{var}}}`, which is not an attribute of `{name}`"),
                        &text.span,
                        format!("declare it under [entities.{name}.attributes]"),
                    );
                }
            }
            let condition = e.key_conditions.get(attr).map(|c| c.value.clone());
            keys.push(KeyField {
                attribute: attr.clone(),
                template,
                condition,
                span: text.span.clone(),
            });
        }
        for (attr, cond) in &e.key_conditions {
            if !e.keys.contains_key(attr) {
                self.err(
                    IssueKind::UnknownReference,
                    format!("key condition for `{attr}`, which `{name}` does not write"),
                    &cond.span,
                );
            }
            match attributes.iter().find(|a| a.name == cond.value) {
                Some(a) if a.ty == AttributeType::Boolean => {}
                _ => self.err(
                    IssueKind::UnknownReference,
                    format!(
                        "key condition `{}` must name a boolean attribute of `{name}`",
                        cond.value
                    ),
                    &cond.span,
                ),
            }
        }
        let table_pk = model.table.partition_key.name.as_str();
        if !keys.iter().any(|k| k.attribute == table_pk) {
            self.err_help(
                IssueKind::Invalid,
                format!("entity `{name}` does not write the table's partition key `{table_pk}`"),
                &raw.span,
                format!("add `{table_pk} = \"...\"` under [entities.{name}.keys]"),
            );
        }
        if let Some(sk) = &model.table.sort_key
            && !keys.iter().any(|k| k.attribute == sk.name)
        {
            self.err_help(
                IssueKind::Invalid,
                format!(
                    "entity `{name}` does not write the table's sort key `{}`",
                    sk.name
                ),
                &raw.span,
                format!("add `{} = \"...\"` under [entities.{name}.keys]", sk.name),
            );
        }
        let mut index_keys = Vec::new();
        let mut schemas = vec![(None, model.key_schema(None))];
        schemas.extend(
            model
                .indexes
                .iter()
                .map(|i| (Some(i.name.clone()), model.key_schema(Some(&i.name)))),
        );
        for (index, schema) in schemas {
            let Some((pk, sk)) = schema else { continue };
            let Some(pk) = keys.iter().find(|k| k.attribute == pk) else {
                continue;
            };
            let sk = match sk {
                Some(sk) => match keys.iter().find(|k| k.attribute == sk) {
                    Some(k) => Some(k.clone()),
                    None => continue,
                },
                None => None,
            };
            index_keys.push(KeyTemplates {
                index,
                pk: pk.clone(),
                sk,
            });
        }
        let unique = e
            .unique
            .iter()
            .map(|u| {
                for a in &u.value.attributes {
                    if !attributes.iter().any(|x| &x.name == a) {
                        self.err(
                            IssueKind::UnknownReference,
                            format!("unique attribute `{a}` is not an attribute of `{name}`"),
                            &u.span,
                        );
                    }
                }
                Unique {
                    attributes: u.value.attributes.clone(),
                    guard: u.value.guard.as_ref().map(|g| g.value.clone()),
                    span: u.span.clone(),
                }
            })
            .collect();
        let relations = e
            .relations
            .iter()
            .map(|r| Relation {
                entity: r.value.entity.value.clone(),
                kind: r.value.kind,
                max: r.value.max,
                index: r.value.index.as_ref().map(|i| i.value.clone()),
                span: r.span.clone(),
            })
            .collect();
        Entity {
            name: name.to_string(),
            attributes,
            keys,
            index_keys,
            unique,
            relations,
            span: raw.span.clone(),
        }
    }

    fn check_entity_refs(&mut self, raw: &RawModel, names: &BTreeSet<&str>, model: &Model) {
        for (name, e) in &raw.entities {
            for u in &e.value.unique {
                if let Some(g) = &u.value.guard
                    && !names.contains(g.value.as_str())
                {
                    self.err(
                        IssueKind::UnknownReference,
                        format!("guard entity `{}` of `{name}` is not declared", g.value),
                        &g.span,
                    );
                }
            }
            for r in &e.value.relations {
                if !names.contains(r.value.entity.value.as_str()) {
                    self.err(
                        IssueKind::UnknownReference,
                        format!(
                            "related entity `{}` of `{name}` is not declared",
                            r.value.entity.value
                        ),
                        &r.value.entity.span,
                    );
                }
                if let Some(i) = &r.value.index
                    && model.index(&i.value).is_none()
                {
                    self.err(
                        IssueKind::UnknownReference,
                        format!("relation index `{}` is not declared", i.value),
                        &i.span,
                    );
                }
            }
        }
    }

    fn named_entity(&mut self, n: &Sp<String>, model: &Model, what: &str) -> Named {
        if model.entity(&n.value).is_none() {
            self.err_help(
                IssueKind::UnknownReference,
                format!("{what} `{}` is not a declared entity", n.value),
                &n.span,
                "declare it under [entities]",
            );
        }
        Named {
            name: n.value.clone(),
            span: n.span.clone(),
        }
    }

    fn pattern(&mut self, name: &str, raw: &Sp<raw::RawPattern>, model: &Model) -> Pattern {
        let p = &raw.value;
        let returns: Vec<Named> = p
            .returns
            .iter()
            .map(|r| self.named_entity(r, model, "returned entity"))
            .collect();
        let writes = p
            .writes
            .iter()
            .map(|w| {
                let n = self.named_entity(&w.value.entity, model, "written entity");
                Write {
                    entity: n.name,
                    count: match w.value.count {
                        None => Some(1),
                        Some(RawCount::Fixed(n)) => Some(n),
                        Some(RawCount::Many(_)) => None,
                    },
                    span: w.span.clone(),
                }
            })
            .collect();
        let params: Vec<Attribute> = p.params.iter().map(|(n, a)| self.attribute(n, a)).collect();
        let index = p.index.as_ref().map(|i| Named {
            name: i.value.clone(),
            span: i.span.clone(),
        });
        let op = p.operation.value;
        let schema = model.key_schema(index.as_ref().map(|i| i.name.as_str()));
        let mut pk = None;
        let mut sk = None;
        for (attr, text) in &p.key {
            let condition = match parse_condition(&text.value) {
                Ok(c) => c,
                Err(e) => {
                    self.err(
                        IssueKind::InvalidTemplate,
                        format!("key condition on `{attr}` of `{name}`: {e}"),
                        &text.span,
                    );
                    continue;
                }
            };
            for t in condition.templates() {
                for var in t.variables() {
                    let known = params.iter().any(|a| a.name == var)
                        || returns
                            .iter()
                            .map(|r| r.name.as_str())
                            .chain(p.writes.iter().map(|w| w.value.entity.value.as_str()))
                            .any(|r| model.entity(r).is_some_and(|e| e.attribute(var).is_some()));
                    if !known {
                        self.err_help(
                            IssueKind::UnknownReference,
                            format!("`{{{var}}}` in pattern `{name}` is neither a param nor an attribute of a returned entity"),
                            &text.span,
                            format!("declare it under [patterns.{name}.params]"),
                        );
                    }
                }
            }
            let kc = KeyCondition {
                attribute: attr.clone(),
                condition,
                span: text.span.clone(),
            };
            let is_pk = match schema {
                Some((pk_name, _)) => attr == pk_name,
                None => attr.ends_with("PK") || attr.ends_with("pk"),
            };
            let is_sk = match schema {
                Some((_, sk_name)) => Some(attr.as_str()) == sk_name,
                None => !is_pk,
            };
            if is_pk {
                if !matches!(kc.condition, Condition::Eq(_)) {
                    self.err(
                        IssueKind::Invalid,
                        format!("the partition key condition of `{name}` must be an equality"),
                        &text.span,
                    );
                }
                pk = Some(kc);
            } else if is_sk {
                sk = Some(kc);
            } else {
                let on = index
                    .as_ref()
                    .map_or("the table".to_string(), |i| format!("index `{}`", i.name));
                self.err_help(
                    IssueKind::UnknownReference,
                    format!("`{attr}` is not a key attribute of {on}"),
                    &text.span,
                    match schema {
                        Some((a, Some(b))) => format!("use `{a}` and `{b}`"),
                        Some((a, None)) => format!("use `{a}`"),
                        None => String::new(),
                    },
                );
            }
        }
        let needs_key = matches!(
            op,
            Operation::GetItem
                | Operation::Query
                | Operation::BatchGet
                | Operation::UpdateItem
                | Operation::DeleteItem
        );
        if needs_key && pk.is_none() && schema.is_some() {
            self.err(
                IssueKind::Invalid,
                format!("pattern `{name}` ({op:?}) needs a partition key condition in `key`"),
                &raw.span,
            );
        }
        if matches!(
            op,
            Operation::GetItem
                | Operation::UpdateItem
                | Operation::DeleteItem
                | Operation::BatchGet
        ) {
            if index.is_some() {
                self.err_help(
                    IssueKind::Invalid,
                    format!("{op:?} cannot use an index"),
                    &p.operation.span,
                    "use a Query on the index, or address the table",
                );
            }
            if let (Some((_, Some(_))), Some(k)) = (schema, &sk)
                && !matches!(k.condition, Condition::Eq(_))
            {
                self.err(
                    IssueKind::Invalid,
                    format!("{op:?} needs the full key: the sort key must be an equality"),
                    &k.span,
                );
            }
        }
        if op == Operation::TransactWrite && p.writes.is_empty() {
            self.err(
                IssueKind::Invalid,
                format!("TransactWrite pattern `{name}` lists no `writes`"),
                &raw.span,
            );
        }
        let named = |v: &Sp<String>| Named {
            name: v.value.clone(),
            span: v.span.clone(),
        };
        Pattern {
            name: name.to_string(),
            description: p.description.clone(),
            operation: op,
            operation_span: p.operation.span.clone(),
            index,
            pk,
            sk,
            returns,
            params,
            filter: p.filter.iter().map(named).collect(),
            reads: p.reads.as_ref().map(|r| r.iter().map(named).collect()),
            paginate: p.paginate.unwrap_or(false),
            limit: p.limit,
            unique: p.unique.unwrap_or(false),
            consistent_read: p.consistent_read.unwrap_or(false),
            descending: p.descending.unwrap_or(false),
            writes,
            span: raw.span.clone(),
        }
    }

    fn traffic(&mut self, raw: Option<&Sp<raw::RawTraffic>>, model: &Model) -> Traffic {
        let Some(raw) = raw else {
            return Traffic {
                declared: false,
                default_writes_per_second: DEFAULT_WRITES_PER_SECOND,
                default_item_size_bytes: DEFAULT_ITEM_SIZE_BYTES,
                ..Traffic::default()
            };
        };
        let t = &raw.value;
        let mut out = Traffic {
            declared: true,
            default_writes_per_second: t
                .default_writes_per_second
                .unwrap_or(DEFAULT_WRITES_PER_SECOND),
            default_writes_stated: t.default_writes_per_second.is_some(),
            default_item_size_bytes: t.default_item_size_bytes.unwrap_or(DEFAULT_ITEM_SIZE_BYTES),
            ..Traffic::default()
        };
        for (name, e) in &t.entities {
            if model.entity(name).is_none() {
                self.err(
                    IssueKind::UnknownReference,
                    format!("traffic for unknown entity `{name}`"),
                    &e.span,
                );
            }
            out.entities.insert(
                name.clone(),
                EntityTraffic {
                    writes_per_second: e.value.writes_per_second,
                    item_size_bytes: e.value.item_size_bytes,
                    span: e.span.clone(),
                },
            );
        }
        for (name, p) in &t.patterns {
            if model.pattern(name).is_none() {
                self.err(
                    IssueKind::UnknownReference,
                    format!("traffic for unknown pattern `{name}`"),
                    &p.span,
                );
            }
            out.patterns.insert(
                name.clone(),
                PatternTraffic {
                    reads_per_second: p.value.reads_per_second,
                    items_per_read: p.value.items_per_read,
                    span: p.span.clone(),
                },
            );
        }
        out
    }
}
