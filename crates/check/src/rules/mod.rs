//! The lint rules, grouped by topic, and the helpers they share.

mod advice;
mod capacity;
mod indexes;
mod keys;
mod lookup;
mod native;
mod types;
mod updates;

use monotable_model::{Attribute, EntityDecl, Model, Pattern};

use crate::diagnostic::Diagnostic;
use crate::shape::Shape;

/// Runs every rule over a validated model.
pub fn run_all(model: &Model) -> Vec<Diagnostic> {
    let lookup = lookup::Lookup::new(model);
    let mut out = Vec::new();
    keys::check(model, &lookup, &mut out);
    capacity::check(model, &lookup, &mut out);
    indexes::check(model, &lookup, &mut out);
    types::check(model, &lookup, &mut out);
    updates::check(model, &mut out);
    advice::check(model, &lookup, &mut out);
    out
}

/// Looks a variable up among an entity's attributes.
pub(crate) fn entity_attr<'m>(entity: &'m EntityDecl, name: &str) -> Option<&'m Attribute> {
    entity.attribute(name)
}

/// Looks a pattern variable up: params first, then the returned and written entities' attributes.
pub(crate) fn pattern_attr<'m>(
    model: &'m Model,
    pattern: &'m Pattern,
    name: &str,
) -> Option<&'m Attribute> {
    pattern.param(name).or_else(|| {
        pattern
            .returns
            .iter()
            .map(|r| r.name.as_str())
            .chain(pattern.writes.iter().map(|w| w.entity.as_str()))
            .filter_map(|e| model.entity(e))
            .find_map(|e| e.attribute(name))
    })
}

/// The shape of an entity-side template.
pub(crate) fn entity_shape(entity: &EntityDecl, template: &monotable_model::KeyTemplate) -> Shape {
    Shape::of(template, &|n| entity_attr(entity, n))
}

/// The shape of a pattern-side template.
pub(crate) fn pattern_shape(
    model: &Model,
    pattern: &Pattern,
    template: &monotable_model::KeyTemplate,
) -> Shape {
    Shape::of(template, &|n| pattern_attr(model, pattern, n))
}

/// `a`, `b` and `c`, each in backticks.
pub(crate) fn listing(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `index `GSI1`` or `the table`.
pub(crate) fn where_(index: Option<&str>) -> String {
    match index {
        Some(i) => format!("index `{i}`"),
        None => "the table".to_string(),
    }
}
