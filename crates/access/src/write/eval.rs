//! A failed condition, named: each clause evaluated against the item as it was when the write
//! failed (what `ReturnValuesOnConditionCheckFailure: ALL_OLD` returns; no item when there was
//! none), the first that does not hold giving the [`WriteFailure`]. An endpoint that returns no
//! old item although one exists leaves every clause holding against "no item": the failure is
//! then the only clause's meaning, or a [`WriteFailure::ConditionFailed`] that names no clause.

use std::fmt;

use aws_sdk_dynamodb::operation::delete_item::DeleteItemError;
use aws_sdk_dynamodb::operation::put_item::PutItemError;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::AttributeValue;

use super::compare::{self, Op};
use super::{Clause, Condition, Test, WriteError};
use crate::items::Item;

/// Which requirement of a write's condition failed: the same meanings as [`WriteError`]'s, for
/// a write or one action of a transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteFailure {
    /// The item is already there.
    AlreadyExists,
    /// The item is not there.
    NotFound,
    /// The item is at another version than `expected`.
    VersionMismatch {
        /// The version expected.
        expected: i64,
    },
    /// A clause did not hold: its label or text, `None` when no clause could be named.
    ConditionFailed {
        /// The clause.
        condition: Option<String>,
    },
}

impl WriteFailure {
    /// The error for this failure of the write to `item`.
    pub fn error(self, item: String) -> WriteError {
        match self {
            WriteFailure::AlreadyExists => WriteError::AlreadyExists { item },
            WriteFailure::NotFound => WriteError::NotFound { item },
            WriteFailure::VersionMismatch { expected } => {
                WriteError::VersionMismatch { item, expected }
            }
            WriteFailure::ConditionFailed { condition } => {
                WriteError::ConditionFailed { item, condition }
            }
        }
    }
}

impl fmt::Display for WriteFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteFailure::AlreadyExists => f.write_str("already exists"),
            WriteFailure::NotFound => f.write_str("does not exist"),
            WriteFailure::VersionMismatch { expected } => {
                write!(f, "changed meanwhile (expected version {expected})")
            }
            WriteFailure::ConditionFailed { condition: Some(c) } => {
                write!(f, "the condition `{c}` did not hold")
            }
            WriteFailure::ConditionFailed { condition: None } => {
                f.write_str("the condition did not hold")
            }
        }
    }
}

impl Condition {
    /// Why this condition failed, `old` the item as it was (`None`: there was none): the first
    /// clause that does not hold of it; when every clause holds (the endpoint returned no item
    /// although there was one), the only clause, or a failure naming none.
    pub fn failure(&self, old: Option<&Item>) -> WriteFailure {
        if let Some(failed) = self.clauses.iter().find(|c| !c.test.holds(old)) {
            return failed.failure();
        }
        match self.clauses.as_slice() {
            [only] => only.failure(),
            _ => WriteFailure::ConditionFailed { condition: None },
        }
    }
}

impl Clause {
    /// What this clause failing means.
    fn failure(&self) -> WriteFailure {
        match &self.test {
            Test::ItemExists(_) => WriteFailure::NotFound,
            Test::ItemAbsent(_) => WriteFailure::AlreadyExists,
            Test::Version(_, expected) => WriteFailure::VersionMismatch {
                expected: *expected,
            },
            test => WriteFailure::ConditionFailed {
                condition: Some(self.label.clone().unwrap_or_else(|| test.text())),
            },
        }
    }
}

impl Test {
    /// Whether it holds of `item` (`None`: there is no item).
    fn holds(&self, item: Option<&Item>) -> bool {
        let value = |attribute: &str| item.and_then(|i| i.get(attribute));
        match self {
            Test::ItemExists(pk) | Test::Exists(pk) => value(pk).is_some(),
            Test::ItemAbsent(pk) | Test::NotExists(pk) => value(pk).is_none(),
            Test::Version(attribute, expected) => compare::holds(
                value(attribute),
                Op::Eq,
                &AttributeValue::N(expected.to_string()),
            ),
            Test::Compare(op, attribute, v) => compare::holds(value(attribute), *op, v),
        }
    }

    /// The clause as the model writes it: `stock >= 3`, `status = 'paid'`, `exists(email)`.
    fn text(&self) -> String {
        match self {
            Test::ItemExists(_) => "exists".to_string(),
            Test::ItemAbsent(_) => "not_exists".to_string(),
            Test::Version(attribute, _) => format!("version({attribute})"),
            Test::Exists(attribute) => format!("exists({attribute})"),
            Test::NotExists(attribute) => format!("not_exists({attribute})"),
            Test::Compare(op, attribute, value) => {
                format!("{attribute} {} {}", op.as_str(), literal(value))
            }
        }
    }
}

/// A value as a condition's literal: `'text'`, `12.5`, `true`; other types as DynamoDB's JSON.
fn literal(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) => format!("'{s}'"),
        AttributeValue::N(n) => n.clone(),
        AttributeValue::Bool(b) => b.to_string(),
        other => {
            let item = Item::from([(String::new(), other.clone())]);
            crate::items::to_json(&item)[""].to_string()
        }
    }
}

/// An operation's error that may be a failed condition, with the item as it was.
pub trait FailedCondition {
    /// `Some` when the condition failed: the item returned with the failure (`None` inside
    /// when none came back).
    fn failed_condition(&self) -> Option<Option<&Item>>;
}

/// [`FailedCondition`] for an operation error with a `ConditionalCheckFailedException`.
macro_rules! failed_condition {
    ($($error:ident),*) => {$(
        impl FailedCondition for $error {
            fn failed_condition(&self) -> Option<Option<&Item>> {
                use aws_sdk_dynamodb::error::ProvideErrorMetadata;
                match self {
                    $error::ConditionalCheckFailedException(e) => Some(e.item()),
                    other if other.code() == Some("ConditionalCheckFailedException") => Some(None),
                    _ => None,
                }
            }
        }
    )*};
}

failed_condition!(PutItemError, UpdateItemError, DeleteItemError);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::{Entity, EntityError, KeySpec};
    use crate::key::{Key, KeyArg, KeyKind};
    use std::collections::HashMap;

    struct Thing;

    impl Entity for Thing {
        const NAME: &'static str = "Thing";
        const KEYS: &'static [KeySpec] = &[KeySpec {
            attribute: "PK",
            index: None,
            primary: true,
            template: &[],
            kind: KeyKind::S,
            condition: None,
        }];
        fn to_item(&self) -> Item {
            Item::new()
        }
        fn from_item(_: &Item) -> Result<Self, EntityError> {
            Ok(Thing)
        }
        fn key(&self) -> Key<Self> {
            Key::from_item(Item::new())
        }
        fn key_args(&self) -> HashMap<&'static str, KeyArg> {
            HashMap::new()
        }
    }

    fn item(attributes: &[(&str, AttributeValue)]) -> Item {
        attributes
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(text.to_string())
    }

    fn failed(condition: &str) -> WriteFailure {
        WriteFailure::ConditionFailed {
            condition: Some(condition.to_string()),
        }
    }

    #[test]
    fn the_first_clause_that_fails_names_the_failure() {
        let update = Condition::item_exists::<Thing>()
            .and(Condition::version("version", 3))
            .and(Condition::ge("stock", 2i64).named("stock >= {quantity}"))
            .and(Condition::eq("published", true));
        let at = |version: &str, stock: &str, published: bool| {
            item(&[
                ("PK", AttributeValue::S("T#1".into())),
                ("version", n(version)),
                ("stock", n(stock)),
                ("published", AttributeValue::Bool(published)),
            ])
        };
        assert_eq!(update.failure(None), WriteFailure::NotFound);
        assert_eq!(
            update.failure(Some(&at("4", "9", true))),
            WriteFailure::VersionMismatch { expected: 3 }
        );
        assert_eq!(
            update.failure(Some(&at("3.0", "1.5", true))),
            failed("stock >= {quantity}")
        );
        assert_eq!(
            update.failure(Some(&at("3", "2e0", false))),
            failed("published = true"),
            "an unlabelled clause is named by its text"
        );
        let create = Condition::item_absent::<Thing>();
        assert_eq!(
            create.failure(Some(&at("1", "1", true))),
            WriteFailure::AlreadyExists
        );
    }

    #[test]
    fn each_clause_has_its_text() {
        let c = Condition::exists("a")
            .and(Condition::not_exists("b"))
            .and(Condition::eq("s", "it's".to_string()))
            .and(Condition::ne("n", 10i64))
            .and(Condition::lt("n", 10i64))
            .and(Condition::le("n", 10i64))
            .and(Condition::gt("n", 10i64))
            .and(Condition::equals(
                "ss",
                AttributeValue::Ss(vec!["x".to_string()]),
            ));
        let texts: Vec<String> = c.clauses.iter().map(|c| c.test.text()).collect();
        assert_eq!(
            texts,
            [
                "exists(a)",
                "not_exists(b)",
                "s = 'it's'",
                "n <> 10",
                "n < 10",
                "n <= 10",
                "n > 10",
                r#"ss = {"SS":["x"]}"#
            ]
        );
        assert_eq!(
            Condition::item_exists::<Thing>()
                .and(Condition::version("v", 1))
                .and(Condition::item_absent::<Thing>())
                .clauses
                .iter()
                .map(|c| c.test.text())
                .collect::<Vec<_>>(),
            ["exists", "version(v)", "not_exists"]
        );
    }

    #[test]
    fn named_labels_the_clauses_added_last() {
        let c = Condition::ge("stock", 1i64)
            .named("in stock")
            .and(Condition::exists("a").and(Condition::exists("b")))
            .named("both")
            .and(Condition::exists("c"));
        let all = [
            ("stock", n("1")),
            ("a", n("1")),
            ("b", n("1")),
            ("c", n("1")),
        ];
        let without = |gone: &str, stock: &str| {
            let mut old = item(&all);
            old.remove(gone);
            old.insert("stock".into(), n(stock));
            c.failure(Some(&old))
        };
        assert_eq!(without("", "0"), failed("in stock"));
        // Both clauses of the last `and` carry the label; a clause added after keeps its text.
        assert_eq!(without("a", "1"), failed("both"));
        assert_eq!(without("b", "1"), failed("both"));
        assert_eq!(without("c", "1"), failed("exists(c)"));
    }

    #[test]
    fn attribute_presence_and_missing_attributes() {
        let c = Condition::not_exists("deletedAt").and(Condition::exists("stock"));
        assert_eq!(
            c.failure(Some(&item(&[("deletedAt", n("1")), ("stock", n("1"))]))),
            failed("not_exists(deletedAt)")
        );
        assert_eq!(c.failure(Some(&item(&[]))), failed("exists(stock)"));
        // A missing attribute satisfies `<>` only.
        let ne = Condition::ne("status", "paid".to_string()).and(Condition::lt("stock", 5i64));
        assert_eq!(ne.failure(Some(&item(&[]))), failed("stock < 5"));
    }

    #[test]
    fn without_an_old_item_the_only_clause_or_none_is_named() {
        // Every clause holds of "no item": the endpoint returned none although the item exists.
        let create = Condition::item_absent::<Thing>();
        assert_eq!(create.failure(None), WriteFailure::AlreadyExists);
        let label = Condition::not_exists("email").named("email free");
        assert_eq!(label.failure(None), failed("email free"));
        let two = Condition::item_absent::<Thing>().and(Condition::ne("s", "x".to_string()));
        assert_eq!(
            two.failure(None),
            WriteFailure::ConditionFailed { condition: None }
        );
        assert_eq!(
            Condition::none().failure(None),
            WriteFailure::ConditionFailed { condition: None }
        );
        // A clause that fails of "no item" is named even then.
        let update = Condition::item_exists::<Thing>().and(Condition::version("v", 2));
        assert_eq!(update.failure(None), WriteFailure::NotFound);
    }

    #[test]
    fn failures_become_write_errors_of_the_same_meaning() {
        let item = || "Thing (PK=T#1)".to_string();
        assert!(matches!(
            WriteFailure::NotFound.error(item()),
            WriteError::NotFound { .. }
        ));
        assert!(matches!(
            WriteFailure::AlreadyExists.error(item()),
            WriteError::AlreadyExists { .. }
        ));
        assert!(matches!(
            WriteFailure::VersionMismatch { expected: 4 }.error(item()),
            WriteError::VersionMismatch { expected: 4, .. }
        ));
        assert_eq!(
            failed("x > 1").error(item()).to_string(),
            "the condition `x > 1` on Thing (PK=T#1) did not hold"
        );
        assert_eq!(
            failed("x > 1").to_string(),
            "the condition `x > 1` did not hold"
        );
    }
}
