//! What the item writes (PutItem, UpdateItem, DeleteItem, and the actions of a transaction)
//! share: the [`Condition`] a write carries, written as an expression in one place; the
//! [`WriteError`] each of them fails with; and what a failed condition means ([`Failure`]).

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::entity::{Entity, EntityError};
use crate::items::Item;
use crate::key::describe_key;
use crate::service::ServiceError;
use crate::value::Value;

/// One comparison in a condition.
#[derive(Debug, Clone, PartialEq)]
enum Clause {
    Compare(&'static str, String, AttributeValue),
    Exists(String),
    NotExists(String),
}

/// A condition a write (or a transaction's check) requires: clauses joined by AND.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Condition {
    clauses: Vec<Clause>,
}

/// A condition as DynamoDB takes it, placeholders numbered from a prefix.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rendered {
    /// The expression, `None` for no condition.
    pub text: Option<String>,
    /// Placeholder names.
    pub names: HashMap<String, String>,
    /// Placeholder values.
    pub values: HashMap<String, AttributeValue>,
}

impl Condition {
    /// No condition.
    pub fn none() -> Condition {
        Condition::default()
    }

    fn with(mut self, clause: Clause) -> Condition {
        self.clauses.push(clause);
        self
    }

    fn compare(op: &'static str, attribute: &str, value: impl Value) -> Condition {
        Condition::none().with(Clause::Compare(op, attribute.to_string(), value.to_value()))
    }

    /// `attribute = value`.
    pub fn eq(attribute: &str, value: impl Value) -> Condition {
        Self::compare("=", attribute, value)
    }

    /// `attribute = value`, the value as DynamoDB holds it.
    pub fn equals(attribute: &str, value: AttributeValue) -> Condition {
        Condition::none().with(Clause::Compare("=", attribute.to_string(), value))
    }

    /// `attribute <> value`.
    pub fn ne(attribute: &str, value: impl Value) -> Condition {
        Self::compare("<>", attribute, value)
    }

    /// `attribute >= value`.
    pub fn ge(attribute: &str, value: impl Value) -> Condition {
        Self::compare(">=", attribute, value)
    }

    /// `attribute <= value`.
    pub fn le(attribute: &str, value: impl Value) -> Condition {
        Self::compare("<=", attribute, value)
    }

    /// `attribute_exists(attribute)`.
    pub fn exists(attribute: &str) -> Condition {
        Condition::none().with(Clause::Exists(attribute.to_string()))
    }

    /// `attribute_not_exists(attribute)`.
    pub fn not_exists(attribute: &str) -> Condition {
        Condition::none().with(Clause::NotExists(attribute.to_string()))
    }

    /// The item exists (its partition key attribute is there).
    pub fn item_exists<E: Entity>() -> Condition {
        Condition::exists(partition_key_of::<E>())
    }

    /// The item does not exist yet.
    pub fn item_absent<E: Entity>() -> Condition {
        Condition::not_exists(partition_key_of::<E>())
    }

    /// Both conditions.
    pub fn and(mut self, other: Condition) -> Condition {
        self.clauses.extend(other.clauses);
        self
    }

    /// Whether there is no clause.
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    /// The expression, with placeholders `#{prefix}N` and `:{prefix}N`.
    pub fn render(&self, prefix: &str) -> Rendered {
        let mut out = Rendered::default();
        let mut parts = Vec::new();
        for (i, clause) in self.clauses.iter().enumerate() {
            let name = format!("#{prefix}{i}");
            let value = format!(":{prefix}{i}");
            let part = match clause {
                Clause::Compare(op, attribute, v) => {
                    out.names.insert(name.clone(), attribute.clone());
                    out.values.insert(value.clone(), v.clone());
                    format!("{name} {op} {value}")
                }
                Clause::Exists(attribute) => {
                    out.names.insert(name.clone(), attribute.clone());
                    format!("attribute_exists({name})")
                }
                Clause::NotExists(attribute) => {
                    out.names.insert(name.clone(), attribute.clone());
                    format!("attribute_not_exists({name})")
                }
            };
            parts.push(part);
        }
        if !parts.is_empty() {
            out.text = Some(parts.join(" AND "));
        }
        out
    }
}

/// The table's partition key attribute of `E`, from its compiled key specs.
pub fn partition_key_of<E: Entity>() -> &'static str {
    E::KEYS
        .iter()
        .find(|k| k.is_primary())
        .map(|k| k.attribute)
        .unwrap_or("PK")
}

/// `Order (PK=ORDER#1, SK=ORDER)`: an item in messages.
pub fn describe<E: Entity>(key: &Item) -> String {
    format!("{} ({})", E::NAME, describe_key(key))
}

/// A write (put, create, update, delete) failed. The three item writes share it: they fail in
/// the same ways (a condition, a version, a key an update cannot re-render, DynamoDB's answer),
/// and a transaction reports an invalid update with it.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The write's condition did not hold.
    #[error("the condition on {item} did not hold")]
    ConditionFailed {
        /// The item: entity and key.
        item: String,
    },
    /// `create` found the item already there.
    #[error("{item} already exists")]
    AlreadyExists {
        /// The item: entity and key.
        item: String,
    },
    /// The item's version is not the one the write expected (optimistic locking).
    #[error("{item} changed meanwhile (expected version {expected})")]
    VersionConflict {
        /// The item: entity and key.
        item: String,
        /// The version expected.
        expected: i64,
    },
    /// An update changes an input of an index key without the others, so the key cannot be
    /// re-rendered and would go stale.
    #[error(
        "updating `{changed}` of {entity} re-renders index key `{key}`, which also needs `{missing}`: set it too, or update from the whole entity"
    )]
    PartialKeyUpdate {
        /// The entity.
        entity: &'static str,
        /// The index key attribute.
        key: &'static str,
        /// An input the update changes.
        changed: &'static str,
        /// An input it neither changes nor knows.
        missing: &'static str,
    },
    /// An update adds to an attribute an index key reads: the new value, and so the key, is
    /// not known before the write.
    #[error(
        "adding to `{attribute}` of {entity} changes index key `{key}` to a value not known before the write: set `{attribute}` instead"
    )]
    KeyInputAdded {
        /// The entity.
        entity: &'static str,
        /// The index key attribute.
        key: &'static str,
        /// The attribute added to.
        attribute: &'static str,
    },
    /// A value of the write cannot be stored exactly (a time finer than its format, a string
    /// over its `max_length`, NaN, ...): nothing was sent.
    #[error("{item} was not written: {source}")]
    Invalid {
        /// The item: entity and key.
        item: String,
        /// The value, its attribute and what it can hold.
        source: EntityError,
    },
    /// DynamoDB refused or failed the call.
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl WriteError {
    /// The write's condition failed (including a version conflict or an existing item).
    pub fn is_condition_failed(&self) -> bool {
        matches!(
            self,
            WriteError::ConditionFailed { .. }
                | WriteError::AlreadyExists { .. }
                | WriteError::VersionConflict { .. }
        )
    }
}

/// What a failed condition means to the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// A plain condition.
    Condition,
    /// The item already exists.
    Exists,
    /// Its version is not the one expected.
    Version(i64),
}

impl Failure {
    /// The error for a failed condition on `item`.
    pub fn error(self, item: String) -> WriteError {
        match self {
            Failure::Condition => WriteError::ConditionFailed { item },
            Failure::Exists => WriteError::AlreadyExists { item },
            Failure::Version(expected) => WriteError::VersionConflict { item, expected },
        }
    }
}

/// A failed condition, told apart from any other service error.
pub(crate) fn condition_failed<E: aws_sdk_dynamodb::error::ProvideErrorMetadata>(e: &E) -> bool {
    e.code() == Some("ConditionalCheckFailedException")
}

/// A failed write call: its condition ([`Failure::error`] on `description`), or what DynamoDB
/// said.
pub(crate) fn write_failed<E>(
    e: &aws_sdk_dynamodb::error::SdkError<E, aws_sdk_dynamodb::config::http::HttpResponse>,
    on_failure: Failure,
    description: String,
) -> WriteError
where
    E: aws_sdk_dynamodb::error::ProvideErrorMetadata + std::error::Error + 'static,
{
    if e.as_service_error().is_some_and(condition_failed) {
        on_failure.error(description)
    } else {
        ServiceError::from_sdk(e).into()
    }
}

/// The expression, names and values of `rendered`, each `None` when empty (as the SDK takes
/// them).
pub(crate) type Placeholders = (
    Option<String>,
    Option<HashMap<String, String>>,
    Option<HashMap<String, AttributeValue>>,
);

impl Rendered {
    /// Its parts as the SDK's builders take them.
    pub(crate) fn into_parts(self) -> Placeholders {
        (
            self.text,
            (!self.names.is_empty()).then_some(self.names),
            (!self.values.is_empty()).then_some(self.values),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_render_with_numbered_placeholders() {
        let c = Condition::eq("published", true)
            .and(Condition::ge("stock", 3i64))
            .and(Condition::exists("PK"));
        let r = c.render("p1_");
        assert_eq!(
            r.text.as_deref(),
            Some("#p1_0 = :p1_0 AND #p1_1 >= :p1_1 AND attribute_exists(#p1_2)")
        );
        assert_eq!(r.names["#p1_1"], "stock");
        assert_eq!(r.values[":p1_1"], AttributeValue::N("3".into()));
        assert_eq!(Condition::none().render("x").text, None);
    }
}
