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

fn key_attribute(k: &raw::RawKeyAttribute) -> KeyAttribute {
    KeyAttribute {
        name: k.name.value.clone(),
        ty: k.ty.as_ref().map_or(KeyAttributeType::S, |t| t.value),
    }
}

/// DynamoDB's bounds on the attributes of one native key: one to four partition attributes,
/// up to four sort attributes.
const MAX_NATIVE_KEY_ATTRIBUTES: usize = 4;

impl Validator {
    /// One key attribute where DynamoDB allows only one (the table's keys, a local index): a
    /// list of one is taken as that attribute, a longer list is an error.
    fn single_key(&mut self, what: &str, key: &Sp<raw::RawIndexKey>) -> KeyAttribute {
        match &key.value {
            raw::RawIndexKey::One(k) => key_attribute(k),
            raw::RawIndexKey::Many(list) => {
                if list.len() != 1 {
                    self.single_key_list(what, list, &key.span);
                }
                list.first().map_or(
                    KeyAttribute {
                        name: String::new(),
                        ty: KeyAttributeType::S,
                    },
                    |k| key_attribute(&k.value),
                )
            }
        }
    }

    /// A list where DynamoDB takes one attribute: named, with the one-attribute form.
    fn single_key_list(
        &mut self,
        what: &str,
        list: &[Sp<raw::RawKeyAttribute>],
        span: &Range<usize>,
    ) {
        let names: Vec<String> = list
            .iter()
            .map(|k| format!("`{}`", k.value.name.value))
            .collect();
        let first = list.first().map_or_else(
            || "{ name = \"PK\", type = \"S\" }".to_string(),
            |k| {
                let k = key_attribute(&k.value);
                format!("{{ name = \"{}\", type = \"{:?}\" }}", k.name, k.ty)
            },
        );
        self.err_help(
            IssueKind::Invalid,
            format!(
                "{what} lists {} attributes ({}), but takes exactly one: DynamoDB allows multi-attribute keys only on global secondary indexes",
                list.len(),
                names.join(", ")
            ),
            span,
            format!("write one attribute, `{first}`, and serve what needs several from a global index"),
        );
    }

    /// The attributes of one key of a global index, and whether it was written as a list.
    fn key_list(
        &mut self,
        what: &str,
        key: &Sp<raw::RawIndexKey>,
        at_least: usize,
    ) -> (Vec<KeyAttribute>, bool) {
        let list = match &key.value {
            raw::RawIndexKey::One(k) => return (vec![key_attribute(k)], false),
            raw::RawIndexKey::Many(list) => list,
        };
        if !(at_least..=MAX_NATIVE_KEY_ATTRIBUTES).contains(&list.len()) {
            self.err_help(
                IssueKind::Invalid,
                format!(
                    "{what} lists {} attributes, and DynamoDB takes {at_least} to {MAX_NATIVE_KEY_ATTRIBUTES}",
                    list.len()
                ),
                &key.span,
                "list one to four typed attributes, in the order the key compares them",
            );
        }
        let mut out: Vec<KeyAttribute> = Vec::new();
        for k in list {
            let attribute = key_attribute(&k.value);
            if out.iter().any(|o| o.name == attribute.name) {
                self.err(
                    IssueKind::Invalid,
                    format!("{what} lists `{}` twice", attribute.name),
                    &k.span,
                );
                continue;
            }
            out.push(attribute);
        }
        (out, true)
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

    pub(super) fn table(&mut self, raw: &Sp<raw::RawTable>) -> TableDecl {
        let t = &raw.value;
        self.check_name("table", &t.name.value, &t.name.span);
        TableDecl {
            name: t.name.value.clone(),
            partition_key: self.single_key("the table's partition key", &t.partition_key),
            sort_key: t
                .sort_key
                .as_ref()
                .map(|k| self.single_key("the table's sort key", k)),
            billing_mode: t
                .billing_mode
                .as_ref()
                .map_or(BillingMode::PayPerRequest, |b| b.value),
            ttl_attribute: t.ttl_attribute.as_ref().map(|a| a.value.clone()),
            stream: t.stream.as_ref().map(|s| s.value),
            span: raw.span.clone(),
        }
    }

    /// The index's partition key attributes (one unless native), and whether they were listed;
    /// an empty name when a global index has none.
    fn index_partition_key(
        &mut self,
        name: &str,
        raw: &Sp<raw::RawIndex>,
        kind: IndexKind,
        table: &TableDecl,
    ) -> (Vec<KeyAttribute>, bool) {
        match (&raw.value.partition_key, kind) {
            (Some(pk), IndexKind::Local) => {
                let key = self.single_key(&format!("local index `{name}`'s partition key"), pk);
                if key.name != table.partition_key.name {
                    self.err_help(
                        IssueKind::Invalid,
                        format!("local index `{name}` must use the table's partition key"),
                        &pk.span,
                        format!(
                            "use `{}` or make the index global",
                            table.partition_key.name
                        ),
                    );
                }
                (vec![key], false)
            }
            (Some(pk), IndexKind::Global) => {
                self.key_list(&format!("the partition key of index `{name}`"), pk, 1)
            }
            (None, IndexKind::Local) => (vec![table.partition_key.clone()], false),
            (None, IndexKind::Global) => {
                self.err(
                    IssueKind::Invalid,
                    format!("global index `{name}` needs a `partition_key`"),
                    &raw.span,
                );
                (
                    vec![KeyAttribute {
                        name: String::new(),
                        ty: KeyAttributeType::S,
                    }],
                    false,
                )
            }
        }
    }

    /// The index's sort key attributes (none or one unless native), and whether they were
    /// listed.
    fn index_sort_key(
        &mut self,
        name: &str,
        raw: &Sp<raw::RawIndex>,
        kind: IndexKind,
    ) -> (Vec<KeyAttribute>, bool) {
        match (&raw.value.sort_key, kind) {
            (None, _) => (Vec::new(), false),
            (Some(sk), IndexKind::Local) => (
                vec![self.single_key(&format!("local index `{name}`'s sort key"), sk)],
                false,
            ),
            (Some(sk), IndexKind::Global) => {
                self.key_list(&format!("the sort key of index `{name}`"), sk, 0)
            }
        }
    }

    pub(super) fn index(
        &mut self,
        name: &str,
        raw: &Sp<raw::RawIndex>,
        table: &TableDecl,
    ) -> Index {
        let i = &raw.value;
        self.check_name("index", name, &raw.span);
        let kind = i.kind.as_ref().map_or(IndexKind::Global, |k| k.value);
        let (partition_keys, pk_listed) = self.index_partition_key(name, raw, kind, table);
        let (sort_keys, sk_listed) = self.index_sort_key(name, raw, kind);
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
        let (sparse, sparse_entities) = match i.sparse.as_ref().map(|s| &s.value) {
            None | Some(RawSparse::Flag(false)) => (false, Vec::new()),
            Some(RawSparse::Flag(true)) => (true, Vec::new()),
            Some(RawSparse::Entities(list)) => (true, list.clone()),
        };
        Index {
            name: name.to_string(),
            kind,
            partition_key: partition_keys
                .first()
                .map_or_else(String::new, |k| k.name.clone()),
            partition_key_type: partition_keys.first().map_or(KeyAttributeType::S, |k| k.ty),
            sort_key: sort_keys.first().map(|k| k.name.clone()),
            sort_key_type: sort_keys.first().map(|k| k.ty),
            native: pk_listed || sk_listed,
            partition_keys,
            sort_keys,
            projection,
            include: i.include.iter().map(|s| s.value.clone()).collect(),
            sparse,
            sparse_entities,
            span: raw.span.clone(),
        }
    }

    /// One attribute, one type: CreateTable defines each key attribute once.
    pub(super) fn key_types(&mut self, table: &TableDecl, indexes: &[Index]) {
        let mut types: Vec<(&str, KeyAttributeType, String)> =
            std::iter::once(&table.partition_key)
                .chain(table.sort_key.as_ref())
                .map(|k| (k.name.as_str(), k.ty, "the table".to_string()))
                .collect();
        for index in indexes {
            for key in index.key_attributes() {
                let (name, ty) = (key.name.as_str(), key.ty);
                match types.iter().find(|(n, _, _)| *n == name) {
                    Some((_, first, at)) if *first != ty => self.err_help(
                        IssueKind::Invalid,
                        format!(
                            "key attribute `{name}` of index `{}` is typed {ty:?} here and {first:?} in {at}",
                            index.name
                        ),
                        &index.span,
                        format!("a key attribute has one type across the table and all its indexes: write `{{ name = \"{name}\", type = \"{first:?}\" }}`"),
                    ),
                    Some(_) => {}
                    None => types.push((name, ty, format!("index `{}`", index.name))),
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
                    Some(e) if declared.native && !declared.native_member(e) => {
                        "does not declare every key attribute of the index"
                    }
                    Some(e)
                        if !declared.native && e.key_field(&declared.partition_key).is_none() =>
                    {
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
