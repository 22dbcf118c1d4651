//! The dynamic, model-driven face of the write patterns: a model's PutItem, UpdateItem,
//! DeleteItem and ConditionCheck patterns (read from the model file at run time) as the same
//! [`PutSpec`], [`UpdateParts`], [`DeleteItem`] and [`CheckItem`] the generated code builds. The
//! condition is the model's clauses in the one [`Condition`] type, each comparison and attribute
//! test labelled by its text as the generated code labels it, so a failure is named the same way
//! (`AlreadyExists`, `NotFound`, `VersionMismatch`, `ConditionFailed { condition: "stock >=
//! {quantity}" }`). An update changes only what the pattern's `sets` lists and renders again,
//! from the model's templates, every index key the changed attributes feed (or removes a sparse
//! key whose condition turns false), refusing as [`WriteError::PartialKeyUpdate`] a key it cannot
//! render, as the typed update does. No expression is written here: the operations' own modules
//! write them.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, OnceLock, PoisonError};

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::{ConditionClause, EntityDecl, Model, Operand, Pattern};

use super::PatternError;
use crate::delete::DeleteItem;
use crate::items::{self, Item, ItemError, key_value};
use crate::key::describe_key;
use crate::put::PutSpec;
use crate::transact::CheckItem;
use crate::update::{UpdateItem, UpdateParts};
use crate::value::text::{template_text, typed};
use crate::write::{Condition, WriteError};

/// What a write pattern's request takes besides its item: the values of its key's variables and
/// of its condition's `{param}`s, as text (as key templates see them: numbers as written,
/// booleans `true`/`false`), and the version a `version(attr)` clause expects. The generated
/// request's fields, by name.
#[derive(Clone, Copy)]
pub struct WriteInput<'a> {
    /// A key variable's or a `{param}`'s value, by name.
    pub values: &'a (dyn Fn(&str) -> Option<String> + Sync),
    /// `expected_<attr>` of a `version(attr)` clause.
    pub expected_version: Option<i64>,
}

/// `name` as a `&'static str`, each distinct name allocated once for the life of the process: a
/// transaction names its actions and entities with such strings ([`crate::Transaction::push`]),
/// and a model read at run time has only owned ones. What is kept is bounded by the names of the
/// models a process runs.
pub fn static_name(name: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<BTreeSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = names.get(name) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(leaked);
    leaked
}

/// The one entity write pattern `pattern` writes or checks (its `returns`).
pub fn entity_of<'m>(model: &'m Model, pattern: &Pattern) -> Result<&'m EntityDecl, PatternError> {
    match pattern.returns.as_slice() {
        [one] => model
            .entity(&one.name)
            .ok_or_else(|| PatternError::NoEntity(pattern.name.clone())),
        _ => Err(PatternError::NoEntity(pattern.name.clone())),
    }
}

/// The condition of write pattern `pattern` for `input`: its clauses in order, `exists` and
/// `not_exists` on the table's partition key, `version(attr)` at `input.expected_version`,
/// comparisons with their `{param}`s typed as the pattern's `params` declare them or as the
/// attribute compared.
pub fn condition(
    model: &Model,
    pattern: &Pattern,
    input: &WriteInput<'_>,
) -> Result<Condition, PatternError> {
    condition_of(model, pattern, input, true)
}

fn condition_of(
    model: &Model,
    pattern: &Pattern,
    input: &WriteInput<'_>,
    with_version: bool,
) -> Result<Condition, PatternError> {
    let mut out = Condition::none();
    let Some(written) = &pattern.condition else {
        return Ok(out);
    };
    let entity = entity_of(model, pattern)?;
    let pk = model.table.partition_key.name.as_str();
    for clause in &written.clauses {
        let text = clause.text();
        let next = match clause {
            ConditionClause::ItemExists => Condition::item_exists_at(pk),
            ConditionClause::ItemAbsent => Condition::item_absent_at(pk),
            ConditionClause::Version(attribute) if with_version => {
                Condition::version(attribute, expected(pattern, input, attribute)?)
            }
            ConditionClause::Version(_) => continue,
            ConditionClause::AttributeExists(a) => Condition::exists(a).named(text),
            ConditionClause::AttributeAbsent(a) => Condition::not_exists(a).named(text),
            ConditionClause::Compare {
                attribute,
                op,
                operand,
            } => {
                let value = operand_value(pattern, entity, input, attribute, operand)?;
                Condition::compare(*op, attribute, value).named(text)
            }
        };
        out = out.and(next);
    }
    Ok(out)
}

fn expected(
    pattern: &Pattern,
    input: &WriteInput<'_>,
    attribute: &str,
) -> Result<i64, PatternError> {
    input
        .expected_version
        .ok_or_else(|| PatternError::MissingValue {
            pattern: pattern.name.clone(),
            name: format!("expected_{attribute}"),
        })
}

/// What a comparison's operand stands for, as DynamoDB holds it.
fn operand_value(
    pattern: &Pattern,
    entity: &EntityDecl,
    input: &WriteInput<'_>,
    attribute: &str,
    operand: &Operand,
) -> Result<AttributeValue, PatternError> {
    Ok(match operand {
        Operand::Bool(b) => AttributeValue::Bool(*b),
        Operand::Integer(i) => AttributeValue::N(i.to_string()),
        Operand::Text(t) => AttributeValue::S(t.clone()),
        Operand::Param(p) => {
            let text = (input.values)(p).ok_or_else(|| PatternError::MissingValue {
                pattern: pattern.name.clone(),
                name: p.clone(),
            })?;
            match pattern.param(p).or_else(|| entity.attribute(attribute)) {
                Some(declared) => typed(declared, &text),
                None => AttributeValue::S(text),
            }
        }
    })
}

/// `Order (PK=ORDER#1, SK=ORDER)`, as the typed face describes an item.
fn described(entity: &EntityDecl, key: &Item) -> String {
    format!("{} ({})", entity.name, describe_key(key))
}

fn item_error(pattern: &Pattern, e: ItemError) -> PatternError {
    match e {
        ItemError::Render { source, .. } => PatternError::Render {
            pattern: pattern.name.clone(),
            source,
        },
        _ => PatternError::NoEntity(pattern.name.clone()),
    }
}

/// PutItem pattern `pattern` writing `item` (an item of its entity, keys and `entityType`
/// included) under the pattern's condition.
pub fn put(
    model: &Model,
    pattern: &Pattern,
    item: Item,
    input: &WriteInput<'_>,
) -> Result<PutSpec, PatternError> {
    let entity = entity_of(model, pattern)?;
    let condition = condition(model, pattern, input)?;
    let key_names = model.table_key_names();
    let key: Item = item
        .iter()
        .filter(|(name, _)| key_names.contains(&name.as_str()))
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    let mut spec = PutSpec::item(item, &key_names).when(condition);
    spec.entity = static_name(&entity.name);
    spec.description = described(entity, &key);
    Ok(spec)
}

/// DeleteItem pattern `pattern` of the item at its key, rendered from `input`.
pub fn delete(
    model: &Model,
    pattern: &Pattern,
    input: &WriteInput<'_>,
) -> Result<DeleteItem, PatternError> {
    let entity = entity_of(model, pattern)?;
    let key = super::key(model, pattern, input.values)?;
    let mut delete = DeleteItem::new(key.clone())
        .when(condition(model, pattern, input)?)
        .described(described(entity, &key));
    delete.entity = static_name(&entity.name);
    Ok(delete)
}

/// ConditionCheck pattern `pattern` of the item at its key, rendered from `input`.
pub fn check(
    model: &Model,
    pattern: &Pattern,
    input: &WriteInput<'_>,
) -> Result<CheckItem, PatternError> {
    let entity = entity_of(model, pattern)?;
    let key = super::key(model, pattern, input.values)?;
    let mut check = CheckItem::new(key.clone(), condition(model, pattern, input)?)
        .described(described(entity, &key));
    check.entity = static_name(&entity.name);
    Ok(check)
}

/// The new value of each attribute an update changes: `None` removes it.
pub type Changes = [(String, Option<AttributeValue>)];

/// UpdateItem pattern `pattern` making `changes`, each an attribute its `sets` lists, to the
/// item of its entity at the table key rendered from `input` (the key's variables name the
/// inputs of the entity's table key, as the generated request's fields do). The update requires
/// the item to exist, then its version when the condition has `version(attr)` (and sets it to the
/// expected one plus one), then the pattern's other clauses; a version attribute `sets` lists
/// without such a clause is bumped by one. Every index key whose template reads a changed
/// attribute is rendered again from the new values and the table key's inputs (removed when its
/// sparse condition turns false); one that needs another input is refused as
/// [`WriteError::PartialKeyUpdate`], one reading a bumped version as
/// [`WriteError::KeyInputAdded`].
pub fn update(
    model: &Model,
    pattern: &Pattern,
    input: &WriteInput<'_>,
    changes: &Changes,
) -> Result<UpdateParts, PatternError> {
    let entity = entity_of(model, pattern)?;
    let primary = entity.primary_key_inputs();
    for name in &primary {
        if (input.values)(name).is_none() {
            return Err(PatternError::MissingValue {
                pattern: pattern.name.clone(),
                name: (*name).to_string(),
            });
        }
    }
    let key = items::primary_key(model, &entity.name, &|n| (input.values)(n))
        .map_err(|e| item_error(pattern, e))?;
    let versions = model.version_attributes(&entity.name);
    let listed = |a: &str| pattern.sets.as_ref().is_some_and(|s| s.contains(a));
    let mut update = UpdateItem::new(key.clone());
    // The new text of each changed attribute, as key templates read it (`None`: removed).
    let mut texts: BTreeMap<&str, Option<String>> = BTreeMap::new();
    for (attribute, value) in changes {
        if !listed(attribute)
            || versions.contains(attribute)
            || primary.contains(&attribute.as_str())
        {
            return Err(PatternError::NotInSets {
                pattern: pattern.name.clone(),
                attribute: attribute.clone(),
            });
        }
        texts.insert(attribute, value.as_ref().and_then(template_text));
        update = match value {
            Some(v) => update.set(attribute.clone(), v.clone()),
            None => update.remove(attribute.clone()),
        };
    }
    let pk = model.table.partition_key.name.as_str();
    let mut condition = Condition::item_exists_at(pk);
    let mut bumped: Vec<&str> = Vec::new();
    match pattern.condition.as_ref().and_then(|c| c.version()) {
        Some(version) => {
            let expected = expected(pattern, input, version)?;
            condition = condition.and(Condition::version(version, expected));
            let next = expected.saturating_add(1).to_string();
            update = update.set(version, AttributeValue::N(next.clone()));
            texts.insert(version, Some(next));
        }
        None => {
            for version in versions.iter().filter(|v| listed(v)) {
                update = update.add(version.clone(), AttributeValue::N("1".to_string()));
                bumped.push(version);
            }
        }
    }
    condition = condition.and(condition_of(model, pattern, input, false)?);
    let known = |name: &str| -> Option<Option<String>> {
        match texts.get(name) {
            Some(text) => Some(text.clone()),
            None if primary.contains(&name) => Some((input.values)(name)),
            None => None,
        }
    };
    for field in index_key_fields(model, entity) {
        let inputs = field.inputs();
        let Some(changed) = inputs.iter().copied().find(|i| texts.contains_key(i)) else {
            if let Some(added) = inputs.iter().find(|i| bumped.contains(i)) {
                return Err(write_error(
                    pattern,
                    WriteError::KeyInputAdded {
                        entity: static_name(&entity.name),
                        key: static_name(&field.attribute),
                        attribute: static_name(added),
                    },
                ));
            }
            continue;
        };
        let partial = |missing: &str| {
            write_error(
                pattern,
                WriteError::PartialKeyUpdate {
                    entity: static_name(&entity.name),
                    key: static_name(&field.attribute),
                    changed: static_name(changed),
                    missing: static_name(missing),
                },
            )
        };
        if let Some(flag) = &field.condition {
            let holds = known(flag).ok_or_else(|| partial(flag))?;
            if holds.as_deref() != Some("true") {
                update = update.remove(field.attribute.clone());
                continue;
            }
        }
        let mut values: BTreeMap<String, String> = BTreeMap::new();
        for name in field.template.variables() {
            match known(name).flatten() {
                Some(text) => values.insert(name.to_string(), text),
                None => return Err(partial(name)),
            };
        }
        let rendered = field
            .template
            .render(&|n| values.get(n).cloned())
            .map_err(|source| PatternError::Render {
                pattern: pattern.name.clone(),
                source,
            })?;
        update = update.set(
            field.attribute.clone(),
            key_value(model, &field.attribute, rendered),
        );
    }
    let mut parts = update.when(condition).build();
    parts.entity = static_name(&entity.name);
    parts.description = described(entity, &key);
    Ok(parts)
}

/// The key fields of `entity` that are index keys rendered from templates: not the table's key,
/// and not an attribute of the entity written as itself (a native index's key).
fn index_key_fields<'m>(
    model: &Model,
    entity: &'m EntityDecl,
) -> impl Iterator<Item = &'m monotable_model::KeyField> {
    let table: Vec<String> = model
        .table_key_names()
        .into_iter()
        .map(str::to_string)
        .collect();
    entity
        .keys
        .iter()
        .filter(move |k| !table.contains(&k.attribute) && entity.attribute(&k.attribute).is_none())
}

fn write_error(pattern: &Pattern, source: WriteError) -> PatternError {
    PatternError::Write {
        pattern: pattern.name.clone(),
        source: Box::new(source),
    }
}

#[cfg(test)]
mod tests;
