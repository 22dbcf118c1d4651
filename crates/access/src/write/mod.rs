//! What the item writes (PutItem, UpdateItem, DeleteItem, and the actions of a transaction)
//! share: the [`Condition`] a write carries, whose clauses each carry their meaning; the
//! [`WriteError`] each of them fails with; and the [`WriteFailure`] a failed condition is named
//! by, found by evaluating the clauses against the item as it was ([`eval`]).

pub mod compare;
pub mod eval;

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::entity::{Entity, EntityError};
use crate::items::Item;
use crate::key::describe_key;
use crate::service::ServiceError;
use crate::value::Value;
use compare::Op;

pub use eval::{FailedCondition, WriteFailure};

/// What one clause requires of the item, and so what its failure means.
#[derive(Debug, Clone, PartialEq)]
enum Test {
    /// The item exists (its partition key attribute is there): [`WriteFailure::NotFound`].
    ItemExists(String),
    /// The item does not exist: [`WriteFailure::AlreadyExists`].
    ItemAbsent(String),
    /// The integer attribute holds the version expected: [`WriteFailure::VersionMismatch`].
    Version(String, i64),
    /// `attribute op value`: [`WriteFailure::ConditionFailed`].
    Compare(Op, String, AttributeValue),
    /// The attribute is there: [`WriteFailure::ConditionFailed`].
    Exists(String),
    /// The attribute is not there: [`WriteFailure::ConditionFailed`].
    NotExists(String),
}

/// One clause: its test, and the label a failure names it by (its text when none was given).
#[derive(Debug, Clone, PartialEq)]
struct Clause {
    test: Test,
    label: Option<String>,
}

/// A condition a write (or a transaction's check) requires: clauses joined by AND, each with
/// its meaning, so that a failure is named without counting positions. `item_exists` fails as
/// [`WriteError::NotFound`], `item_absent` as [`WriteError::AlreadyExists`], `version` as
/// [`WriteError::VersionMismatch`], and the others as [`WriteError::ConditionFailed`] naming the
/// clause: by the label [`Condition::named`] gave it, or by its text (`stock >= 3`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Condition {
    clauses: Vec<Clause>,
    /// Where the clauses added last start: what [`Condition::named`] labels.
    last: usize,
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

    fn of(test: Test) -> Condition {
        Condition {
            clauses: vec![Clause { test, label: None }],
            last: 0,
        }
    }

    /// `attribute op value`, the value as DynamoDB holds it (what generated write patterns
    /// build from the model's comparisons).
    pub fn compare(op: Op, attribute: &str, value: AttributeValue) -> Condition {
        Condition::of(Test::Compare(op, attribute.to_string(), value))
    }

    /// `attribute = value`.
    pub fn eq(attribute: &str, value: impl Value) -> Condition {
        Self::compare(Op::Eq, attribute, value.to_value())
    }

    /// `attribute = value`, the value as DynamoDB holds it.
    pub fn equals(attribute: &str, value: AttributeValue) -> Condition {
        Self::compare(Op::Eq, attribute, value)
    }

    /// `attribute <> value` (true as well when the attribute is missing).
    pub fn ne(attribute: &str, value: impl Value) -> Condition {
        Self::compare(Op::Ne, attribute, value.to_value())
    }

    /// `attribute < value`.
    pub fn lt(attribute: &str, value: impl Value) -> Condition {
        Self::compare(Op::Lt, attribute, value.to_value())
    }

    /// `attribute <= value`.
    pub fn le(attribute: &str, value: impl Value) -> Condition {
        Self::compare(Op::Le, attribute, value.to_value())
    }

    /// `attribute > value`.
    pub fn gt(attribute: &str, value: impl Value) -> Condition {
        Self::compare(Op::Gt, attribute, value.to_value())
    }

    /// `attribute >= value`.
    pub fn ge(attribute: &str, value: impl Value) -> Condition {
        Self::compare(Op::Ge, attribute, value.to_value())
    }

    /// `attribute_exists(attribute)`.
    pub fn exists(attribute: &str) -> Condition {
        Condition::of(Test::Exists(attribute.to_string()))
    }

    /// `attribute_not_exists(attribute)`.
    pub fn not_exists(attribute: &str) -> Condition {
        Condition::of(Test::NotExists(attribute.to_string()))
    }

    /// The item of `E` exists (its partition key attribute is there); fails as
    /// [`WriteError::NotFound`].
    pub fn item_exists<E: Entity>() -> Condition {
        Condition::of(Test::ItemExists(partition_key_of::<E>().to_string()))
    }

    /// The item of `E` does not exist yet; fails as [`WriteError::AlreadyExists`].
    pub fn item_absent<E: Entity>() -> Condition {
        Condition::of(Test::ItemAbsent(partition_key_of::<E>().to_string()))
    }

    /// The item whose table partition key attribute is `partition_key` exists; fails as
    /// [`WriteError::NotFound`] (the dynamic twin of [`Condition::item_exists`], for an item of
    /// an entity known only at run time).
    pub fn item_exists_at(partition_key: &str) -> Condition {
        Condition::of(Test::ItemExists(partition_key.to_string()))
    }

    /// The item whose table partition key attribute is `partition_key` does not exist yet;
    /// fails as [`WriteError::AlreadyExists`] (the dynamic twin of [`Condition::item_absent`]).
    pub fn item_absent_at(partition_key: &str) -> Condition {
        Condition::of(Test::ItemAbsent(partition_key.to_string()))
    }

    /// The integer `attribute` holds `expected` (optimistic locking); fails as
    /// [`WriteError::VersionMismatch`].
    pub fn version(attribute: &str, expected: i64) -> Condition {
        Condition::of(Test::Version(attribute.to_string(), expected))
    }

    /// Label the clauses added last (by the constructor, or by the last [`Condition::and`]):
    /// a failure of one of them is [`WriteError::ConditionFailed`] with `label` as its
    /// `condition` (`"stock >= {quantity}"`, as the model writes it).
    pub fn named(mut self, label: impl Into<String>) -> Condition {
        let label = label.into();
        for clause in &mut self.clauses[self.last..] {
            clause.label = Some(label.clone());
        }
        self
    }

    /// Both conditions.
    pub fn and(mut self, other: Condition) -> Condition {
        self.last = self.clauses.len();
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
            let (attribute, part) = match &clause.test {
                Test::Compare(op, attribute, v) => {
                    out.values.insert(value.clone(), v.clone());
                    (attribute, format!("{name} {} {value}", op.as_str()))
                }
                Test::Version(attribute, expected) => {
                    out.values
                        .insert(value.clone(), AttributeValue::N(expected.to_string()));
                    (attribute, format!("{name} = {value}"))
                }
                Test::Exists(attribute) | Test::ItemExists(attribute) => {
                    (attribute, format!("attribute_exists({name})"))
                }
                Test::NotExists(attribute) | Test::ItemAbsent(attribute) => {
                    (attribute, format!("attribute_not_exists({name})"))
                }
            };
            out.names.insert(name, attribute.clone());
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
/// the same ways (a condition, named by its meaning; a key an update cannot re-render; a value
/// that cannot be stored; DynamoDB's answer), and a transaction reports an invalid action with
/// it.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The item is already there (a create, or a clause `item_absent`).
    #[error("{item} already exists")]
    AlreadyExists {
        /// The item: entity and key.
        item: String,
    },
    /// The item is not there (an update, or a clause `item_exists`).
    #[error("{item} does not exist")]
    NotFound {
        /// The item: entity and key.
        item: String,
    },
    /// The item's version is not the one the write expected (optimistic locking).
    #[error("{item} changed meanwhile (expected version {expected})")]
    VersionMismatch {
        /// The item: entity and key.
        item: String,
        /// The version expected.
        expected: i64,
    },
    /// A clause comparing an attribute, or requiring one to be there or not, did not hold.
    #[error("the condition{} on {item} did not hold", quoted(.condition))]
    ConditionFailed {
        /// The item: entity and key.
        item: String,
        /// The clause: its label ([`Condition::named`]) or its text; `None` when the endpoint
        /// did not say which clause failed.
        condition: Option<String>,
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
    /// A value cannot be stored exactly as given; nothing was sent.
    #[error("{item} was not written: {source}")]
    Invalid {
        /// The item: entity and key.
        item: String,
        /// The attribute and what it cannot hold.
        source: EntityError,
    },
    /// A value of the write's key cannot be rendered exactly (a time finer than its key's
    /// format): nothing was sent.
    #[error(transparent)]
    Parameter(#[from] crate::key::ParameterError),
    /// A write pattern's action was added more times than the model's `count` allows; nothing
    /// was sent.
    #[error(
        "action `{action}` runs at most {max} times in one `{pattern}` (its `count` in the model)"
    )]
    TooManyActions {
        /// The transaction or batch pattern.
        pattern: &'static str,
        /// The action: the write pattern it runs.
        action: &'static str,
        /// The model's `count`.
        max: usize,
    },
    /// DynamoDB refused or failed the call.
    #[error(transparent)]
    Service(#[from] ServiceError),
}

/// `` `label` `` with a leading space, or nothing.
fn quoted(condition: &Option<String>) -> String {
    condition
        .as_deref()
        .map(|c| format!(" `{c}`"))
        .unwrap_or_default()
}

impl WriteError {
    /// The write's condition failed: the item exists, is missing, is at another version, or a
    /// clause did not hold.
    pub fn is_condition_failed(&self) -> bool {
        matches!(
            self,
            WriteError::ConditionFailed { .. }
                | WriteError::AlreadyExists { .. }
                | WriteError::NotFound { .. }
                | WriteError::VersionMismatch { .. }
        )
    }
}

/// A failed write call: its condition, named by evaluating `condition` against the item as it
/// was (as `ReturnValuesOnConditionCheckFailure: ALL_OLD` returned it), or what DynamoDB said.
pub(crate) fn write_failed<E>(
    e: &aws_sdk_dynamodb::error::SdkError<E, aws_sdk_dynamodb::config::http::HttpResponse>,
    condition: &Condition,
    description: String,
) -> WriteError
where
    E: FailedCondition
        + aws_sdk_dynamodb::error::ProvideErrorMetadata
        + std::error::Error
        + 'static,
{
    match e
        .as_service_error()
        .and_then(FailedCondition::failed_condition)
    {
        Some(old) => condition.failure(old).error(description),
        None => ServiceError::from_sdk(e).into(),
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
            .and(Condition::exists("PK"))
            .and(Condition::version("v", 7))
            .and(Condition::lt("a", 1i64).and(Condition::gt("b", 2i64)));
        let r = c.render("p1_");
        assert_eq!(
            r.text.as_deref(),
            Some(
                "#p1_0 = :p1_0 AND #p1_1 >= :p1_1 AND attribute_exists(#p1_2) \
                 AND #p1_3 = :p1_3 AND #p1_4 < :p1_4 AND #p1_5 > :p1_5"
            )
        );
        assert_eq!(r.names["#p1_1"], "stock");
        assert_eq!(r.values[":p1_1"], AttributeValue::N("3".into()));
        assert_eq!(r.values[":p1_3"], AttributeValue::N("7".into()));
        assert!(!r.values.contains_key(":p1_2"));
        assert_eq!(Condition::none().render("x").text, None);
    }

    #[test]
    fn write_errors_say_which_clause() {
        let item = "Product (PK=PRODUCT#1, SK=PRODUCT)".to_string();
        let failed = |condition: Option<&str>| WriteError::ConditionFailed {
            item: item.clone(),
            condition: condition.map(str::to_string),
        };
        assert_eq!(
            failed(Some("stock >= {quantity}")).to_string(),
            "the condition `stock >= {quantity}` on Product (PK=PRODUCT#1, SK=PRODUCT) did not hold"
        );
        assert_eq!(
            failed(None).to_string(),
            "the condition on Product (PK=PRODUCT#1, SK=PRODUCT) did not hold"
        );
        let missing = WriteError::NotFound { item };
        assert_eq!(
            missing.to_string(),
            "Product (PK=PRODUCT#1, SK=PRODUCT) does not exist"
        );
        assert!(missing.is_condition_failed());
    }
}
