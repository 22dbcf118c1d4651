//! Typed writes: create (the condition built from the model's key names), put, replace under
//! optimistic locking, delete; and the conditions they carry, written as expressions in one place.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::entity::Entity;
use crate::error::{ServiceError, WriteError};
use crate::handle::Table;
use crate::items::Item;
use crate::key::{Key, describe_key};
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

/// What an item write needs besides the item: its condition and how a failed one is reported.
#[derive(Debug, Clone)]
pub struct PutSpec {
    /// The item.
    pub item: Item,
    /// The condition.
    pub condition: Condition,
    /// What a failed condition means.
    pub on_failure: Failure,
    /// The item, for messages.
    pub description: String,
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

impl PutSpec {
    /// Create `entity`: fails with [`WriteError::AlreadyExists`] when an item has its key.
    pub fn create<E: Entity>(entity: &E) -> PutSpec {
        Self::new(entity, Condition::item_absent::<E>(), Failure::Exists)
    }

    /// Write `entity` whatever is there.
    pub fn put<E: Entity>(entity: &E) -> PutSpec {
        Self::new(entity, Condition::none(), Failure::Condition)
    }

    /// Replace `entity`'s item when it is at `expected` version (the entity's version
    /// attribute), or at least exists when the entity has none.
    pub fn replace<E: Entity>(entity: &E, expected: i64) -> PutSpec {
        match E::VERSION {
            Some(version) => Self::new(
                entity,
                Condition::eq(version, expected),
                Failure::Version(expected),
            ),
            None => Self::new(entity, Condition::item_exists::<E>(), Failure::Condition),
        }
    }

    /// Write `entity` when `condition` holds.
    pub fn put_if<E: Entity>(entity: &E, condition: Condition) -> PutSpec {
        Self::new(entity, condition, Failure::Condition)
    }

    fn new<E: Entity>(entity: &E, condition: Condition, on_failure: Failure) -> PutSpec {
        let key = entity.key();
        PutSpec {
            item: entity.to_item(),
            condition,
            on_failure,
            description: describe::<E>(key.item()),
        }
    }
}

/// A failed condition, told apart from any other service error.
fn condition_failed<E: aws_sdk_dynamodb::error::ProvideErrorMetadata>(e: &E) -> bool {
    e.code() == Some("ConditionalCheckFailedException")
}

impl Table {
    /// Write one item as `spec` says.
    pub async fn write(&self, spec: PutSpec) -> Result<(), WriteError> {
        let rendered = spec.condition.render("c");
        let result = self
            .client()
            .put_item()
            .table_name(self.name())
            .set_item(Some(spec.item))
            .set_condition_expression(rendered.text)
            .set_expression_attribute_names((!rendered.names.is_empty()).then_some(rendered.names))
            .set_expression_attribute_values(
                (!rendered.values.is_empty()).then_some(rendered.values),
            )
            .send()
            .await;
        match result {
            Ok(_) => Ok(()),
            Err(e) if e.as_service_error().is_some_and(condition_failed) => {
                Err(spec.on_failure.error(spec.description))
            }
            Err(e) => Err(ServiceError::from_sdk(&e).into()),
        }
    }

    /// Create `entity`; [`WriteError::AlreadyExists`] when its key is taken.
    pub async fn create<E: Entity>(&self, entity: &E) -> Result<(), WriteError> {
        self.write(PutSpec::create(entity)).await
    }

    /// Write `entity` whatever is there.
    pub async fn put<E: Entity>(&self, entity: &E) -> Result<(), WriteError> {
        self.write(PutSpec::put(entity)).await
    }

    /// Replace `entity`'s item if it is still at version `expected`.
    pub async fn replace<E: Entity>(&self, entity: &E, expected: i64) -> Result<(), WriteError> {
        self.write(PutSpec::replace(entity, expected)).await
    }

    /// Read `key`'s entity (eventually consistent unless `consistent`).
    pub async fn get<E: Entity>(
        &self,
        key: Key<E>,
        consistent: bool,
    ) -> Result<Option<E>, crate::error::GetError> {
        crate::request::GetRequest::new(key, consistent)
            .send(self)
            .await
    }

    /// Delete `key`'s item if `condition` holds (none: whatever is there).
    pub async fn delete<E: Entity>(
        &self,
        key: Key<E>,
        condition: Condition,
    ) -> Result<(), WriteError> {
        let description = describe::<E>(key.item());
        let rendered = condition.render("c");
        let result = self
            .client()
            .delete_item()
            .table_name(self.name())
            .set_key(Some(key.into_item()))
            .set_condition_expression(rendered.text)
            .set_expression_attribute_names((!rendered.names.is_empty()).then_some(rendered.names))
            .set_expression_attribute_values(
                (!rendered.values.is_empty()).then_some(rendered.values),
            )
            .send()
            .await;
        match result {
            Ok(_) => Ok(()),
            Err(e) if e.as_service_error().is_some_and(condition_failed) => {
                Err(WriteError::ConditionFailed { item: description })
            }
            Err(e) => Err(ServiceError::from_sdk(&e).into()),
        }
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
