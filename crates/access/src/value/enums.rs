//! A Rust enum as a model `enum` attribute, and the const fns the `Entity` derive asserts at
//! compile time that an enum's variants are the model's values with.

/// A Rust enum as a model `enum` attribute: `#[derive(monotable::Enum)]` implements it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold a model `enum` attribute",
    label = "derive it: #[derive(monotable::Enum)]",
    note = "an enum attribute is a Rust enum of unit variants whose texts are the model's values"
)]
pub trait EnumValue: Sized + 'static {
    /// The variants' texts, in declaration order.
    const VALUES: &'static [&'static str];
    /// This variant's text.
    fn as_str(&self) -> &'static str;
    /// The variant whose text is `text`.
    fn from_text(text: &str) -> Option<Self>;
    /// Whether its derive failed (and reported why): the entities holding it then do not
    /// assert its texts, so that one mistake is one error. Derived code only.
    #[doc(hidden)]
    const INVALID: bool = false;
}

/// Whether `a` and `b` hold the same texts, in any order (a const fn, so the `Entity` derive can
/// assert at compile time that an enum's variants are the model's values).
pub const fn same_values(a: &[&str], b: &[&str]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !contains(b, a[i]) || !contains(a, b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `list` holds `text` (a const fn, for the `Entity` derive's enum assertions).
pub const fn has_value(list: &[&str], text: &str) -> bool {
    contains(list, text)
}

/// Whether `list` holds every text of `of`.
pub const fn has_all(list: &[&str], of: &[&str]) -> bool {
    let mut i = 0;
    while i < of.len() {
        if !contains(list, of[i]) {
            return false;
        }
        i += 1;
    }
    true
}

const fn contains(list: &[&str], text: &str) -> bool {
    let mut i = 0;
    while i < list.len() {
        if str_eq(list[i], text) {
            return true;
        }
        i += 1;
    }
    false
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_values_compare_as_sets() {
        assert!(same_values(&["A", "B"], &["B", "A"]));
        assert!(!same_values(&["A", "B"], &["A", "C"]));
        assert!(!same_values(&["A"], &["A", "A"]));
        assert!(!same_values(&["A", "A"], &["A", "B"]));
    }
}
