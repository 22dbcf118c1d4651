//! The lint rules, grouped by topic, and the helpers they share.

mod advice;
mod capacity;
mod collisions;
mod groups;
mod indexes;
mod keys;
mod lookup;
mod money;
mod native;
mod streams;
mod types;
mod updates;

use monotable_model::{Attribute, EntityDecl, Model, Pattern};

use crate::diagnostic::{Diagnostic, Rule};
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
    streams::check(model, &mut out);
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
    pattern.variable(model, name)
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

/// Names listed in a finding about a group: at most this many, then how many more.
pub(crate) const LISTED: usize = 10;

/// `a`, `b` and `c`, each in backticks, at most [`LISTED`] of them: `` `a`, `b`, … `j` and
/// 1,990 more ``.
pub(crate) fn capped_listing(names: &[&str]) -> String {
    if names.len() <= LISTED {
        return listing(names);
    }
    let shown: Vec<String> = names[..LISTED].iter().map(|n| format!("`{n}`")).collect();
    format!(
        "{} and {} more",
        shown.join(", "),
        monotable_model::limits::thousands(names.len() - LISTED)
    )
}

/// `` `a`, `b`, `c` ``: names in backticks separated by commas, at most [`LISTED`], then how
/// many more.
pub(crate) fn comma_listing(names: &[&str]) -> String {
    let shown = &names[..names.len().min(LISTED)];
    let text = format!("`{}`", shown.join("`, `"));
    match names.len() - shown.len() {
        0 => text,
        more => format!(
            "{text} and {} more",
            monotable_model::limits::thousands(more)
        ),
    }
}

/// `index `GSI1`` or `the table`.
pub(crate) fn where_(index: Option<&str>) -> String {
    match index {
        Some(i) => format!("index `{i}`"),
        None => "the table".to_string(),
    }
}

/// MT002's head: pattern `p` can never return entity `e`, pointing at `span`.
pub(crate) fn never_returns(
    p: &Pattern,
    e: &EntityDecl,
    span: std::ops::Range<usize>,
) -> Diagnostic {
    Diagnostic::error(
        Rule::UnreachableEntity,
        format!("access pattern `{}` can never return `{}`", p.name, e.name),
        span,
    )
}

/// MT001's head: pattern `p` reads a key no entity writes.
pub(crate) fn reads_unwritten(p: &Pattern) -> Diagnostic {
    Diagnostic::error(
        Rule::UnwrittenKey,
        format!("access pattern `{}` reads a key no entity writes", p.name),
        p.key_span(),
    )
}

#[cfg(test)]
mod tests {
    use super::{LISTED, capped_listing, comma_listing};

    #[test]
    fn listings_name_at_most_ten_then_count_the_rest() {
        assert_eq!(capped_listing(&["a", "b", "c"]), "`a`, `b` and `c`");
        let names: Vec<String> = (0..2_000).map(|i| format!("E{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let text = capped_listing(&names);
        assert!(text.starts_with("`E0`, `E1`, "), "{text}");
        assert!(text.ends_with("`E9` and 1,990 more"), "{text}");
        assert_eq!(text.matches('`').count(), 2 * LISTED);
        assert_eq!(
            capped_listing(&names[..LISTED]).matches('`').count(),
            2 * LISTED
        );
        assert_eq!(comma_listing(&["a", "b"]), "`a`, `b`");
        assert!(comma_listing(&names).ends_with("`E9` and 1,990 more"));
    }
}
