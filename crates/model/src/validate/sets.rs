//! Validating what an `UpdateItem` declares it changes (`sets = [...]`): attributes of its one
//! returned entity, each once, none of them a primary-key input or a rendered key attribute.
//!
//! Which index keys such an update leaves stale is not decided here: that is `check`'s MT015.

use std::collections::BTreeSet;
use std::ops::Range;

use super::Validator;
use crate::error::IssueKind;
use crate::model::*;
use crate::raw::{self, Sp};
use crate::template::Segment;

/// What a key attribute of the table or an index is, for messages: `the table's partition key`,
/// `the sort key of index `GSI2``.
fn key_role(model: &Model, attribute: &str) -> Option<String> {
    if model.table.partition_key.name == attribute {
        return Some("the table's partition key".to_string());
    }
    if model
        .table
        .sort_key
        .as_ref()
        .is_some_and(|k| k.name == attribute)
    {
        return Some("the table's sort key".to_string());
    }
    model.indexes.iter().find_map(|i| {
        if i.partition_key == attribute {
            Some(format!("the partition key of index `{}`", i.name))
        } else if i.sort_key.as_deref() == Some(attribute) {
            Some(format!("the sort key of index `{}`", i.name))
        } else {
            None
        }
    })
}

/// Whether `field` is written as the attribute of the same name, unchanged (`status = "{status}"`):
/// setting the attribute is then setting the key, which is allowed for an index key.
fn is_identity(field: &KeyField) -> bool {
    matches!(
        field.template.segments(),
        [Segment::Var { name, pad: None }] if *name == field.attribute
    )
}

/// `a`, `b` and `c`, each in backticks.
fn listing(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

impl Validator {
    /// The validated `sets` of pattern `name`; `None` when it has none or it cannot be judged
    /// (an issue says why).
    pub(super) fn sets(&mut self, name: &str, p: &raw::RawPattern, model: &Model) -> Option<Sets> {
        let list = p.sets.as_ref()?;
        if !self.declares_an_update(name, p.operation.value, list) {
            return None;
        }
        let entity = self.updated_entity(name, p, &list.span, model)?;
        let mut seen = BTreeSet::new();
        let mut attributes = Vec::new();
        for a in &list.value {
            if !seen.insert(a.value.as_str()) {
                self.err_help(
                    IssueKind::Invalid,
                    format!("`{}` is listed twice in `sets` of `{name}`", a.value),
                    &a.span,
                    "list it once",
                );
            } else if self.settable(name, a, entity, model) {
                attributes.push(Named {
                    name: a.value.clone(),
                    span: a.span.clone(),
                });
            }
        }
        Some(Sets {
            attributes,
            span: list.span.clone(),
        })
    }

    /// Whether `list` is the non-empty `sets` of an UpdateItem; if not, says why.
    fn declares_an_update(
        &mut self,
        name: &str,
        op: Operation,
        list: &Sp<Vec<Sp<String>>>,
    ) -> bool {
        if op != Operation::UpdateItem {
            let help = match op {
                Operation::PutItem => "remove `sets`: a PutItem writes the whole item".to_string(),
                _ => format!("remove `sets`, or make `{name}` an UpdateItem"),
            };
            self.err_help(
                IssueKind::Invalid,
                format!("`sets` only applies to an UpdateItem, and `{name}` is a {op:?}"),
                &list.span,
                help,
            );
            return false;
        }
        if list.value.is_empty() {
            self.err_help(
                IssueKind::Invalid,
                format!("`sets = []` on `{name}` declares an update that changes nothing"),
                &list.span,
                "list the attributes the update changes, or remove `sets` to declare nothing",
            );
            return false;
        }
        true
    }

    /// The one entity an update with `sets` changes. An undeclared one is reported where it is
    /// named, so its attributes are not judged.
    fn updated_entity<'m>(
        &mut self,
        name: &str,
        p: &raw::RawPattern,
        span: &Range<usize>,
        model: &'m Model,
    ) -> Option<&'m EntityDecl> {
        match p.returns.as_slice() {
            [one] => model.entity(&one.value),
            others => {
                let count = match others.len() {
                    0 => "none".to_string(),
                    n => format!("{n} entities"),
                };
                self.err_help(
                    IssueKind::Invalid,
                    format!("`sets` names attributes of the one entity `{name}` updates, and it returns {count}"),
                    span,
                    "name the updated entity alone: `returns = [\"...\"]`",
                );
                None
            }
        }
    }

    /// Whether `a` is an attribute the update may change; if not, says why.
    fn settable(&mut self, name: &str, a: &Sp<String>, e: &EntityDecl, model: &Model) -> bool {
        let attr = a.value.as_str();
        if let Some(field) = e.key_field(attr).filter(|f| !is_identity(f)) {
            self.rendered_key(name, a, e, field, model);
            return false;
        }
        if e.attribute(attr).is_none() {
            self.not_an_attribute(name, a, e, model);
            return false;
        }
        if !e.primary_key_inputs().contains(&attr) {
            return true;
        }
        let keys = e.key(None).map(|k| {
            let mut text = format!("{} = \"{}\"", k.pk.attribute, k.pk.template);
            if let Some(sk) = &k.sk {
                text.push_str(&format!(", {} = \"{}\"", sk.attribute, sk.template));
            }
            text
        });
        self.err_help(
            IssueKind::Invalid,
            format!(
                "`{attr}` in `sets` of `{name}` is part of `{}`'s primary key ({}): an update cannot change the key of the item it addresses",
                e.name,
                keys.unwrap_or_default()
            ),
            &a.span,
            "remove it from `sets`; to move the item, delete it and put it at its new key in one TransactWrite",
        );
        false
    }

    /// `a` names a key attribute `e` renders from a template.
    fn rendered_key(
        &mut self,
        name: &str,
        a: &Sp<String>,
        e: &EntityDecl,
        f: &KeyField,
        model: &Model,
    ) {
        let role = key_role(model, &f.attribute).unwrap_or_else(|| "a key attribute".to_string());
        let table_key = e.key(None).is_some_and(|k| {
            k.pk.attribute == f.attribute
                || k.sk.as_ref().is_some_and(|s| s.attribute == f.attribute)
        });
        let (message, help) = if table_key {
            (
                format!("`{}` in `sets` of `{name}` is {role}: an update cannot change the key of the item it addresses", f.attribute),
                "remove it from `sets`; to move the item, delete it and put it at its new key in one TransactWrite".to_string(),
            )
        } else {
            let help = match f.inputs().as_slice() {
                [] => format!(
                    "remove it from `sets`: `{}` always writes `{}` as `{}`",
                    e.name, f.attribute, f.template
                ),
                inputs => format!(
                    "list the inputs of its template instead ({}): the update renders `{}` again from them",
                    listing(inputs),
                    f.attribute
                ),
            };
            (
                format!(
                    "`{}` in `sets` of `{name}` is {role}, which `{}` renders from `{}`: an update does not set it",
                    f.attribute, e.name, f.template
                ),
                help,
            )
        };
        self.err_help(IssueKind::Invalid, message, &a.span, help);
    }

    /// `a` is no attribute of `e`: a key attribute `e` does not write, or an unknown name.
    fn not_an_attribute(&mut self, name: &str, a: &Sp<String>, e: &EntityDecl, model: &Model) {
        let attr = a.value.as_str();
        match key_role(model, attr) {
            Some(role) => self.err_help(
                IssueKind::Invalid,
                format!("`{attr}` in `sets` of `{name}` is {role}, which `{}` does not write", e.name),
                &a.span,
                format!(
                    "an item is in an index through the templates under [entities.{}.keys]; remove `{attr}` from `sets`",
                    e.name
                ),
            ),
            None => self.err_help(
                IssueKind::UnknownReference,
                format!("`{attr}` in `sets` of `{name}` is not an attribute of `{}`", e.name),
                &a.span,
                format!(
                    "declare it under [entities.{}.attributes], or remove it from `sets`",
                    e.name
                ),
            ),
        }
    }
}
