//! What the entity derive knows of a struct and its entity, shared by the code it generates: one
//! field and the attribute it stores, and the key attributes the entity writes (with the
//! attributes their templates read).

use monotable_model::{Attribute, EntityDecl, KeyField, Segment};
use proc_macro2::Span;
use syn::{Ident, Type};

/// One field and the attribute it stores.
pub struct Field<'a> {
    pub ident: Ident,
    pub ty: Type,
    pub inner: Type,
    pub optional: bool,
    pub attribute: Option<&'a Attribute>,
    pub name: String,
    pub skip: bool,
    /// Where `#[monotable(skip)]` is, for messages.
    pub skip_span: Option<Span>,
    /// Its type cannot hold its attribute (reported): a failed derive's stub types it as the
    /// model needs.
    pub broken: bool,
}

/// One key attribute the entity writes: the index it is on (`None` for the table), whether it
/// is part of the table's key, and its template.
#[derive(Clone, Copy)]
pub struct KeyUse<'a> {
    pub index: Option<&'a str>,
    pub primary: bool,
    pub field: &'a KeyField,
}

/// Every key attribute the entity writes: the table's key, then each index's, then any written
/// for no declared index (the model's check reports those; they are still kept in step).
pub fn key_fields(entity: &EntityDecl) -> Vec<KeyUse<'_>> {
    let mut out: Vec<KeyUse> = Vec::new();
    for t in &entity.index_keys {
        for field in std::iter::once(&t.pk).chain(t.sk.as_ref()) {
            if out.iter().any(|k| k.field.attribute == field.attribute) {
                continue;
            }
            out.push(KeyUse {
                index: t.index.as_deref(),
                primary: t.index.is_none(),
                field,
            });
        }
    }
    for field in &entity.keys {
        if !out.iter().any(|k| k.field.attribute == field.attribute) {
            out.push(KeyUse {
                index: None,
                primary: false,
                field,
            });
        }
    }
    out
}

/// The table's key attributes of the entity.
pub fn table_keys(entity: &EntityDecl) -> Vec<&KeyField> {
    key_fields(entity)
        .into_iter()
        .filter(|k| k.primary)
        .map(|k| k.field)
        .collect()
}

/// Every attribute a key template or a sparse condition reads.
pub fn key_inputs(entity: &EntityDecl) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for k in key_fields(entity).into_iter().map(|k| k.field) {
        for v in k
            .template
            .segments()
            .iter()
            .filter_map(|s| match s {
                Segment::Var { name, .. } => Some(name.as_str()),
                Segment::Literal(_) => None,
            })
            .chain(k.condition.as_deref())
        {
            if !out.iter().any(|o| o == v) {
                out.push(v.to_string());
            }
        }
    }
    out
}
