//! What does not fit the model: stable `MA` codes (`monotable audit` reports them; the table
//! view shows an item's), and one [`Finding`] per item or table property that does not fit,
//! naming the item by its primary key and pointing into the model: the model's one
//! [`Diagnostic`] (message, span, label, notes, help) and where in the table it was found.

use std::fmt;
use std::ops::Range;

use monotable_model::diagnostic::{Coded, Diagnostic, Severity};

/// The kinds of drift `audit` reports, with their stable codes. `MA001`..`MA008` are about the
/// table's description, `MA010`..`MA021` about its items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Code {
    /// MA001: the table does not exist.
    TableMissing,
    /// MA002: the table's key schema or key attribute types differ from the model's.
    TableKeySchema,
    /// MA003: an index of the model is not on the table.
    IndexMissing,
    /// MA004: an index has another kind, key schema or key attribute types.
    IndexKeySchema,
    /// MA005: an index projects other attributes.
    IndexProjection,
    /// MA006: the table has an index the model does not declare.
    IndexUndeclared,
    /// MA007: time to live is off, on another attribute, or on when the model has none.
    TimeToLive,
    /// MA008: the billing mode differs.
    BillingMode,
    /// MA010: an item has no `entityType`.
    MissingEntityType,
    /// MA011: an item's `entityType` is no entity of the model.
    UnknownEntityType,
    /// MA012: the table key is not its templates' render from the item's attributes.
    PrimaryKeyMismatch,
    /// MA013: an index key differs from its template's render.
    StaleIndexKey,
    /// MA014: an index key the entity writes is missing.
    MissingIndexKey,
    /// MA015: an index key the entity does not write (or not while its condition is false).
    UnexpectedIndexKey,
    /// MA016: a required attribute is missing.
    MissingAttribute,
    /// MA017: an attribute has another DynamoDB type than its model type is written as.
    WrongType,
    /// MA018: a float where the model says integer or decimal.
    FloatValue,
    /// MA019: a value of the right type the model does not allow (enum, timestamp).
    InvalidValue,
    /// MA020: a value over a bound of the model (`max_length`, `max_items`, `cardinality`).
    OverBound,
    /// MA021: an item over DynamoDB's 400 KB.
    ItemTooLarge,
}

impl Code {
    /// Every code, in order.
    pub const ALL: [Code; 20] = [
        Code::TableMissing,
        Code::TableKeySchema,
        Code::IndexMissing,
        Code::IndexKeySchema,
        Code::IndexProjection,
        Code::IndexUndeclared,
        Code::TimeToLive,
        Code::BillingMode,
        Code::MissingEntityType,
        Code::UnknownEntityType,
        Code::PrimaryKeyMismatch,
        Code::StaleIndexKey,
        Code::MissingIndexKey,
        Code::UnexpectedIndexKey,
        Code::MissingAttribute,
        Code::WrongType,
        Code::FloatValue,
        Code::InvalidValue,
        Code::OverBound,
        Code::ItemTooLarge,
    ];

    /// Whether it is about an item's keys or entity type, what decides which collections and
    /// indexes the item lands in (MA010 to MA015).
    pub fn concerns_keys(self) -> bool {
        matches!(
            self,
            Code::MissingEntityType
                | Code::UnknownEntityType
                | Code::PrimaryKeyMismatch
                | Code::StaleIndexKey
                | Code::MissingIndexKey
                | Code::UnexpectedIndexKey
        )
    }

    /// The stable code, `MA001`.
    pub fn code(self) -> &'static str {
        self.info().0
    }

    /// A short kebab-case name.
    pub fn name(self) -> &'static str {
        self.info().1
    }

    /// One line on what it catches.
    pub fn summary(self) -> &'static str {
        self.info().2
    }

    /// How bad a finding of this code is: every finding is drift, warnings are the ones that
    /// cost rather than break (an undeclared index, another billing mode).
    pub fn severity(self) -> Severity {
        match self {
            Code::IndexUndeclared | Code::BillingMode => Severity::Warning,
            _ => Severity::Error,
        }
    }

    /// Looks a code up (`MA013`).
    pub fn from_code(code: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|c| c.code() == code)
    }

    fn info(self) -> (&'static str, &'static str, &'static str) {
        INFO[self as usize]
    }
}

/// Code, name and summary of each [`Code`], in declaration order.
const INFO: [(&str, &str, &str); 20] = [
    ("MA001", "table-missing", "the table does not exist"),
    (
        "MA002",
        "table-key-schema",
        "the table's key schema or key attribute types differ from the model's",
    ),
    ("MA003", "index-missing", "an index of the model is missing"),
    (
        "MA004",
        "index-key-schema",
        "an index has another kind, key schema or key attribute type",
    ),
    (
        "MA005",
        "index-projection",
        "an index projects other attributes than the model says",
    ),
    (
        "MA006",
        "index-undeclared",
        "the table has an index the model does not declare",
    ),
    (
        "MA007",
        "time-to-live",
        "time to live is off, on another attribute, or on without a model ttl_attribute",
    ),
    ("MA008", "billing-mode", "the billing mode differs"),
    (
        "MA010",
        "missing-entity-type",
        "an item has no entityType attribute",
    ),
    (
        "MA011",
        "unknown-entity-type",
        "an item's entityType is no entity of the model",
    ),
    (
        "MA012",
        "primary-key-mismatch",
        "the table key is not what the entity's templates render from the item",
    ),
    (
        "MA013",
        "stale-index-key",
        "an index key differs from what its template renders from the item",
    ),
    (
        "MA014",
        "missing-index-key",
        "an index key the entity writes is missing",
    ),
    (
        "MA015",
        "unexpected-index-key",
        "an index key the entity does not write, or not while its condition is false",
    ),
    (
        "MA016",
        "missing-attribute",
        "a required attribute is missing",
    ),
    (
        "MA017",
        "wrong-type",
        "an attribute is not of the DynamoDB type its model type is written as",
    ),
    (
        "MA018",
        "float-value",
        "a float where the model says integer or decimal",
    ),
    (
        "MA019",
        "invalid-value",
        "a value the model does not allow: an enum outside its values, a malformed timestamp",
    ),
    (
        "MA020",
        "over-bound",
        "a value over max_length, max_items or cardinality",
    ),
    (
        "MA021",
        "item-too-large",
        "an item over DynamoDB's 400 KB item size",
    ),
];

impl Coded for Code {
    fn code(&self) -> &'static str {
        self.info().0
    }
    fn name(&self) -> &'static str {
        self.info().1
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// An item's primary key as found on it: `(attribute, value)` for the table's partition and
/// sort key, `?` for one the item lacks.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct ItemKey(pub Vec<(String, String)>);

impl fmt::Display for ItemKey {
    /// `PK=ORDER#1 SK=ORDER`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, value)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{name}={value}")?;
        }
        Ok(())
    }
}

/// One thing that does not fit the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What kind.
    pub code: Code,
    /// What it says, at the code's severity: one line naming the item (entity and primary key)
    /// or the table, the span in the model of the template, attribute, index or table
    /// involved, its label, notes and help.
    pub diagnostic: Diagnostic,
    /// The item's primary key; `None` for the table's description.
    pub item: Option<ItemKey>,
    /// The item's entity, as its `entityType` says.
    pub entity: Option<String>,
    /// The attribute (or index) involved.
    pub attribute: Option<String>,
    /// What the table or item has.
    pub found: Option<String>,
    /// What the model says it should have.
    pub expected: Option<String>,
}

/// Builders that set a part of the finding's [`Diagnostic`], with the diagnostic's own.
macro_rules! diagnostic_builders {
    ($($(#[$doc:meta])* $name:ident($arg:ident: $ty:ty);)*) => {$(
        $(#[$doc])*
        pub fn $name(mut self, $arg: $ty) -> Self {
            self.diagnostic = self.diagnostic.$name($arg);
            self
        }
    )*};
}

impl Finding {
    /// A finding of `code` saying `message`, at the code's severity, on nothing in particular
    /// yet.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self {
            code,
            diagnostic: Diagnostic::new(code, code.severity(), message),
            item: None,
            entity: None,
            attribute: None,
            found: None,
            expected: None,
        }
    }

    diagnostic_builders! {
        /// Points at `span` in the model.
        span(span: Range<usize>);
        /// Sets the label under the span.
        label(label: impl Into<String>);
        /// Adds a note.
        note(note: impl Into<String>);
        /// Sets the help.
        help(help: impl Into<String>);
    }

    /// Names the attribute (or index) involved.
    pub fn attribute(mut self, attribute: impl Into<String>) -> Self {
        self.attribute = Some(attribute.into());
        self
    }

    /// What was found and what the model expects.
    pub fn found_expected(mut self, found: Option<String>, expected: Option<String>) -> Self {
        self.found = found;
        self.expected = expected;
        self
    }

    /// The order findings are listed in: code, then item, attribute and message.
    pub fn sort_key(&self) -> (Code, Option<&ItemKey>, Option<&str>, &str) {
        (
            self.code,
            self.item.as_ref(),
            self.attribute.as_deref(),
            &self.diagnostic.message,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_stable_and_round_trip() {
        let mut seen = std::collections::BTreeSet::new();
        for code in Code::ALL {
            assert!(code.code().starts_with("MA") && code.code().len() == 5);
            assert!(seen.insert(code.code()), "{code} twice");
            assert_eq!(Code::from_code(code.code()), Some(code));
            assert!(!code.name().is_empty() && !code.summary().is_empty());
        }
        let mut sorted = Code::ALL;
        sorted.sort();
        assert_eq!(sorted, Code::ALL, "declared in code order");
        assert_eq!(Code::from_code("MA999"), None);
        // The table of codes is in declaration order.
        assert_eq!(Code::TableMissing.code(), "MA001");
        assert_eq!(Code::BillingMode.code(), "MA008");
        assert_eq!(Code::MissingEntityType.code(), "MA010");
        assert_eq!(Code::StaleIndexKey.name(), "stale-index-key");
        assert_eq!(Code::ItemTooLarge.code(), "MA021");
    }

    #[test]
    fn item_keys_print_as_attribute_value_pairs() {
        let key = ItemKey(vec![
            ("PK".into(), "ORDER#1".into()),
            ("SK".into(), "ORDER".into()),
        ]);
        assert_eq!(key.to_string(), "PK=ORDER#1 SK=ORDER");
    }
}
