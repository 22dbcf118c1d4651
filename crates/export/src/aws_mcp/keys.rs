//! What both formats' patterns share: a template segment as text, the variables of a key
//! condition, and the write conditions monotable reads (`attribute_not_exists(PK)`).

use monotable_model::Segment;

use super::draft::Table;
use super::json::shown;

/// A segment as template text (`{{` for a literal brace).
pub(super) fn segment_text(s: &Segment) -> String {
    match s {
        Segment::Literal(t) => t.replace('{', "{{").replace('}', "}}"),
        Segment::Var { name, pad: None } => format!("{{{name}}}"),
        Segment::Var { name, pad: Some(w) } => format!("{{{name}:0{w}}}"),
    }
}

/// The `{name}` variables of a key condition, each once (`between({a}, {b})` holds two).
pub(super) fn variables(condition: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for rest in condition.split('{').skip(1) {
        let inner = rest.split('}').next().unwrap_or_default();
        let name = inner.split(':').next().unwrap_or_default();
        if !name.is_empty() && !out.iter().any(|o| o == name) {
            out.push(name.to_string());
        }
    }
    out
}

/// `attribute_not_exists(K)` / `attribute_exists(K)` on a key attribute `K` of the table: the
/// item is not / is there (`not_exists`, `exists`). Any other condition is `None`.
pub(super) fn write_condition(text: &str, table: &Table) -> Option<String> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let keys = std::iter::once(&table.pk).chain(&table.sk);
    for key in keys {
        if compact == format!("attribute_not_exists({})", key.name) {
            return Some("not_exists".to_string());
        }
        if compact == format!("attribute_exists({})", key.name) {
            return Some("exists".to_string());
        }
    }
    None
}

/// Why a condition [`write_condition`] does not map is listed.
pub(super) fn unmapped_condition(text: &str) -> String {
    format!(
        "condition `{}` is not mapped: monotable reads a key's attribute_exists / attribute_not_exists as `exists` / `not_exists`; write other conditions in its terms (docs/model.md)",
        shown(text)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aws_mcp::draft::KeyAttr;

    #[test]
    fn conditions_and_variables() {
        let table = Table {
            name: "T".into(),
            pk: KeyAttr {
                name: "PK".into(),
                ty: "S",
            },
            sk: Some(KeyAttr {
                name: "SK".into(),
                ty: "S",
            }),
            billing: None,
            ttl: None,
            stream: None,
        };
        assert_eq!(
            write_condition("attribute_not_exists(PK)", &table).as_deref(),
            Some("not_exists")
        );
        assert_eq!(
            write_condition("attribute_exists( SK )", &table).as_deref(),
            Some("exists")
        );
        assert_eq!(write_condition("attribute_exists(email)", &table), None);
        assert_eq!(variables("between(A#{a}, A#{b:04})"), ["a", "b"]);
        assert_eq!(variables("PROFILE"), Vec::<String>::new());
    }
}
