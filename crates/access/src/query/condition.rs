//! A query's key condition, and the one place its expression is written: the partition key's
//! equality, a native key's further equalities, and the sort key's condition.

use std::borrow::Cow;
use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

/// A condition on the sort key.
#[derive(Debug, Clone, PartialEq)]
pub enum SortCondition {
    /// `=`.
    Eq(AttributeValue),
    /// `begins_with`.
    BeginsWith(AttributeValue),
    /// `BETWEEN a AND b` (both inclusive).
    Between(AttributeValue, AttributeValue),
    /// `<`.
    Lt(AttributeValue),
    /// `<=`.
    Le(AttributeValue),
    /// `>`.
    Gt(AttributeValue),
    /// `>=`.
    Ge(AttributeValue),
}

/// A query's key condition: the partition key's equality and an optional sort key condition,
/// and on a native multi-attribute index the further equalities DynamoDB needs (every other
/// partition attribute, then the sort attributes before the one the last condition is on).
/// Generated code names attributes with `Cow::Borrowed`; tools reading a model at run time own
/// them.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyCondition {
    /// The (first) partition key attribute and its value.
    pub partition: (Cow<'static, str>, AttributeValue),
    /// Further equalities of a native key, in key schema order; empty on a synthetic key.
    pub equalities: Vec<(Cow<'static, str>, AttributeValue)>,
    /// The sort key attribute and its condition (on a native key: the last sort attribute
    /// given).
    pub sort: Option<(Cow<'static, str>, SortCondition)>,
}

/// A key condition as DynamoDB takes it: the expression, its names and its values.
#[derive(Debug, Clone, PartialEq)]
pub struct Expression {
    /// `#pk = :pk AND begins_with(#sk, :sk0)`.
    pub text: String,
    /// `#pk` → attribute.
    pub names: HashMap<String, String>,
    /// `:pk` → value.
    pub values: HashMap<String, AttributeValue>,
}

impl KeyCondition {
    /// `listUserOrders|GSI1PK=USER#a|GSI1SK begins ORDER#`: what a cursor of `pattern` with this
    /// condition is bound to (a cursor from another pattern or other parameters is refused).
    pub fn scope(&self, pattern: &str) -> String {
        let text = |v: &AttributeValue| match v {
            AttributeValue::S(s) | AttributeValue::N(s) => s.clone(),
            AttributeValue::B(b) => format!("{:?}", b.as_ref()),
            other => format!("{other:?}"),
        };
        let (pk, value) = &self.partition;
        let mut out = format!("{pattern}|{pk}={}", text(value));
        for (attribute, value) in &self.equalities {
            out.push_str(&format!("|{attribute}={}", text(value)));
        }
        if let Some((sk, condition)) = &self.sort {
            let (op, values): (&str, Vec<&AttributeValue>) = match condition {
                SortCondition::Eq(v) => ("=", vec![v]),
                SortCondition::BeginsWith(v) => ("begins", vec![v]),
                SortCondition::Between(a, b) => ("between", vec![a, b]),
                SortCondition::Lt(v) => ("<", vec![v]),
                SortCondition::Le(v) => ("<=", vec![v]),
                SortCondition::Gt(v) => (">", vec![v]),
                SortCondition::Ge(v) => (">=", vec![v]),
            };
            out.push_str(&format!("|{sk} {op}"));
            for v in values {
                out.push(' ');
                out.push_str(&text(v));
            }
        }
        out
    }

    /// The expression: the one place a key condition is written.
    pub fn expression(&self) -> Expression {
        let (pk, pk_value) = &self.partition;
        let mut names = HashMap::from([("#pk".to_string(), pk.to_string())]);
        let mut values = HashMap::from([(":pk".to_string(), pk_value.clone())]);
        let mut text = String::from("#pk = :pk");
        for (i, (attribute, value)) in self.equalities.iter().enumerate() {
            names.insert(format!("#k{i}"), attribute.to_string());
            values.insert(format!(":k{i}"), value.clone());
            text.push_str(&format!(" AND #k{i} = :k{i}"));
        }
        if let Some((sk, condition)) = &self.sort {
            names.insert("#sk".into(), sk.to_string());
            let (clause, bound): (&str, Vec<&AttributeValue>) = match condition {
                SortCondition::Eq(v) => ("#sk = :sk0", vec![v]),
                SortCondition::BeginsWith(v) => ("begins_with(#sk, :sk0)", vec![v]),
                SortCondition::Between(a, b) => ("#sk BETWEEN :sk0 AND :sk1", vec![a, b]),
                SortCondition::Lt(v) => ("#sk < :sk0", vec![v]),
                SortCondition::Le(v) => ("#sk <= :sk0", vec![v]),
                SortCondition::Gt(v) => ("#sk > :sk0", vec![v]),
                SortCondition::Ge(v) => ("#sk >= :sk0", vec![v]),
            };
            for (i, v) in bound.into_iter().enumerate() {
                values.insert(format!(":sk{i}"), v.clone());
            }
            text.push_str(" AND ");
            text.push_str(clause);
        }
        Expression {
            text,
            names,
            values,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_conditions_are_written_in_one_shape() {
        let s = |v: &str| AttributeValue::S(v.into());
        let c = KeyCondition {
            partition: ("GSI1PK".into(), s("USER#a")),
            equalities: Vec::new(),
            sort: Some(("GSI1SK".into(), SortCondition::Between(s("a"), s("b")))),
        };
        let e = c.expression();
        assert_eq!(e.text, "#pk = :pk AND #sk BETWEEN :sk0 AND :sk1");
        assert_eq!(e.names["#sk"], "GSI1SK");
        assert_eq!(e.values[":sk1"], s("b"));
        let only_pk = KeyCondition {
            partition: ("PK".into(), s("ORDER#1")),
            equalities: Vec::new(),
            sort: None,
        };
        assert_eq!(only_pk.expression().text, "#pk = :pk");
        let native = KeyCondition {
            partition: ("status".into(), s("PAID")),
            equalities: vec![
                ("shard".into(), AttributeValue::N("3".into())),
                ("createdAt".into(), s("2026-12-01")),
            ],
            sort: Some(("orderId".into(), SortCondition::BeginsWith(s("01")))),
        };
        let e = native.expression();
        assert_eq!(
            e.text,
            "#pk = :pk AND #k0 = :k0 AND #k1 = :k1 AND begins_with(#sk, :sk0)"
        );
        assert_eq!(e.names["#k0"], "shard");
        assert_eq!(e.values[":k0"], AttributeValue::N("3".into()));
        assert_eq!(e.names["#k1"], "createdAt");
        assert_eq!(
            native.scope("byStatus"),
            "byStatus|status=PAID|shard=3|createdAt=2026-12-01|orderId begins 01"
        );
    }

    #[test]
    fn a_native_key_condition_is_one_expression_of_every_equality_and_the_sort_condition() {
        let s = |v: &str| AttributeValue::S(v.into());
        let c = KeyCondition {
            partition: ("status".into(), s("PAID")),
            equalities: vec![("shard".into(), AttributeValue::N("3".into()))],
            sort: Some(("createdAt".into(), SortCondition::Between(s("a"), s("b")))),
        };
        let e = c.expression();
        assert_eq!(
            e.text,
            "#pk = :pk AND #k0 = :k0 AND #sk BETWEEN :sk0 AND :sk1"
        );
        assert_eq!(e.names["#k0"], "shard");
        assert_eq!(e.values[":k0"], AttributeValue::N("3".into()));
        assert_eq!(c.scope("p"), "p|status=PAID|shard=3|createdAt between a b");
    }
}
