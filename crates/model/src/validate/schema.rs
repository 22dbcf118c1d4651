//! Validating the table and its secondary indexes: names DynamoDB accepts, key attributes and
//! their types, projections, and what `sparse` names.

use std::ops::Range;

use super::Validator;
use crate::error::IssueKind;
use crate::model::*;
use crate::raw::{self, RawModel, RawSparse, Sp};

/// DynamoDB's bounds on table and index name lengths, in characters.
const NAME_LENGTH: std::ops::RangeInclusive<usize> = 3..=255;

/// Why DynamoDB would refuse `name` as a table or index name, if it would.
fn name_problem(name: &str) -> Option<String> {
    let length = name.chars().count();
    if !NAME_LENGTH.contains(&length) {
        return Some(format!(
            "it is {length} character{} long, and DynamoDB needs 3 to 255",
            if length == 1 { "" } else { "s" }
        ));
    }
    let bad: String = name
        .chars()
        .filter(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .take(3)
        .collect();
    (!bad.is_empty()).then(|| {
        format!("it contains {bad:?}, and DynamoDB allows only letters, digits, `_`, `-` and `.`")
    })
}

fn key_attribute(k: &Sp<raw::RawKeyAttribute>) -> KeyAttribute {
    KeyAttribute {
        name: k.value.name.value.clone(),
        ty: k.value.ty.as_ref().map_or(KeyAttributeType::S, |t| t.value),
    }
}

impl Validator {
    /// A table or index name DynamoDB would refuse is an error.
    fn check_name(&mut self, what: &str, name: &str, span: &Range<usize>) {
        if let Some(problem) = name_problem(name) {
            self.err_help(
                IssueKind::Invalid,
                format!("{what} name `{name}` is not one DynamoDB accepts: {problem}"),
                span,
                "name it with 3 to 255 of `A-Z a-z 0-9 _ - .`",
            );
        }
    }

    pub(super) fn table(&mut self, raw: &Sp<raw::RawTable>) -> Table {
        let t = &raw.value;
        self.check_name("table", &t.name.value, &t.name.span);
        Table {
            name: t.name.value.clone(),
            partition_key: key_attribute(&t.partition_key),
            sort_key: t.sort_key.as_ref().map(key_attribute),
            billing_mode: t
                .billing_mode
                .as_ref()
                .map_or(BillingMode::PayPerRequest, |b| b.value),
            ttl_attribute: t.ttl_attribute.as_ref().map(|a| a.value.clone()),
            span: raw.span.clone(),
        }
    }

    /// The index's partition key attribute; an empty name when a global index has none.
    fn index_partition_key(
        &mut self,
        name: &str,
        raw: &Sp<raw::RawIndex>,
        kind: IndexKind,
        table: &Table,
    ) -> String {
        match (&raw.value.partition_key, kind) {
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
        }
    }

    pub(super) fn index(&mut self, name: &str, raw: &Sp<raw::RawIndex>, table: &Table) -> Index {
        let i = &raw.value;
        self.check_name("index", name, &raw.span);
        let kind = i.kind.as_ref().map_or(IndexKind::Global, |k| k.value);
        let partition_key = self.index_partition_key(name, raw, kind, table);
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
        let partition_key_type = match &i.partition_key {
            Some(pk) => key_attribute(pk).ty,
            None => table.partition_key.ty,
        };
        let (sparse, sparse_entities) = match i.sparse.as_ref().map(|s| &s.value) {
            None | Some(RawSparse::Flag(false)) => (false, Vec::new()),
            Some(RawSparse::Flag(true)) => (true, Vec::new()),
            Some(RawSparse::Entities(list)) => (true, list.clone()),
        };
        Index {
            name: name.to_string(),
            kind,
            partition_key,
            partition_key_type,
            sort_key: i.sort_key.as_ref().map(|k| k.value.name.value.clone()),
            sort_key_type: i.sort_key.as_ref().map(|k| key_attribute(k).ty),
            projection,
            include: i.include.iter().map(|s| s.value.clone()).collect(),
            sparse,
            sparse_entities,
            span: raw.span.clone(),
        }
    }

    /// One attribute, one type: CreateTable defines each key attribute once.
    pub(super) fn key_types(&mut self, table: &Table, indexes: &[Index]) {
        let mut types: Vec<(&str, KeyAttributeType)> = std::iter::once(&table.partition_key)
            .chain(table.sort_key.as_ref())
            .map(|k| (k.name.as_str(), k.ty))
            .collect();
        for index in indexes {
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
    }

    /// Every entity a `sparse = [...]` list names exists and writes the index's partition key.
    pub(super) fn check_sparse_entities(&mut self, raw: &RawModel, model: &Model) {
        for (name, index) in &raw.indexes {
            let Some(Sp {
                value: RawSparse::Entities(list),
                span,
            }) = &index.value.sparse
            else {
                continue;
            };
            let Some(declared) = model.index(name) else {
                continue;
            };
            if list.is_empty() {
                self.err_help(
                    IssueKind::Invalid,
                    format!("`sparse` of index `{name}` lists no entity"),
                    span,
                    "name the entities that gate the index key, or write `sparse = true`",
                );
            }
            for entity in list {
                let problem = match model.entity(entity) {
                    None => "is not a declared entity",
                    Some(e) if e.key_field(&declared.partition_key).is_none() => {
                        "does not write the index's partition key"
                    }
                    Some(_) => continue,
                };
                self.err(
                    IssueKind::UnknownReference,
                    format!("`{entity}`, named sparse in index `{name}`, {problem}"),
                    span,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::name_problem;

    #[test]
    fn table_names_follow_dynamodb() {
        assert!(name_problem("Shop").is_none());
        assert!(name_problem("my-table.v2_x").is_none());
        assert!(name_problem(&"a".repeat(255)).is_none());
        assert!(name_problem("T").is_some_and(|p| p.contains("1 character long")));
        assert!(name_problem("ab").is_some());
        assert!(name_problem(&"a".repeat(256)).is_some());
        assert!(name_problem("my table").is_some_and(|p| p.contains("\" \"")));
        assert!(name_problem("tablé").is_some());
    }
}
