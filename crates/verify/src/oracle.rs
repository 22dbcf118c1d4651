//! The expected result of a read pattern, computed from the samples in memory, independently of
//! DynamoDB: partition key equality, the sort key condition compared as the key's type orders
//! (`S` and `B` by bytes, `N` by value), index order.

use std::cmp::Ordering;
use std::fmt;

use monotable_model::{Condition, KeyAttributeType, Model, Pattern, RenderError};

use crate::generate::Sample;
use crate::order::compare;

/// A sort key condition with its templates rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bound {
    /// `= v`.
    Eq(String),
    /// `begins_with(v)`.
    BeginsWith(String),
    /// `BETWEEN a AND b`, inclusive.
    Between(String, String),
    /// `< v`.
    Lt(String),
    /// `<= v`.
    Le(String),
    /// `> v`.
    Gt(String),
    /// `>= v`.
    Ge(String),
}

impl Bound {
    /// Renders a model condition from parameter values.
    pub fn render(
        condition: &Condition,
        values: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Bound, RenderError> {
        Ok(match condition {
            Condition::Eq(t) => Bound::Eq(t.render(values)?),
            Condition::BeginsWith(t) => Bound::BeginsWith(t.render(values)?),
            Condition::Between(a, b) => Bound::Between(a.render(values)?, b.render(values)?),
            Condition::Lt(t) => Bound::Lt(t.render(values)?),
            Condition::Le(t) => Bound::Le(t.render(values)?),
            Condition::Gt(t) => Bound::Gt(t.render(values)?),
            Condition::Ge(t) => Bound::Ge(t.render(values)?),
        })
    }

    /// Whether a sort key value of type `ty` satisfies the condition: `S` and `B` compared
    /// byte-wise, `N` by value. `begins_with` applies to text and bytes only.
    pub fn matches(&self, value: &str, ty: KeyAttributeType) -> bool {
        let cmp = |bound: &str| compare(value, bound, ty);
        match self {
            Bound::Eq(v) => cmp(v) == Ordering::Equal,
            Bound::BeginsWith(v) => ty != KeyAttributeType::N && value.starts_with(v.as_str()),
            Bound::Between(a, b) => cmp(a) != Ordering::Less && cmp(b) != Ordering::Greater,
            Bound::Lt(v) => cmp(v) == Ordering::Less,
            Bound::Le(v) => cmp(v) != Ordering::Greater,
            Bound::Gt(v) => cmp(v) == Ordering::Greater,
            Bound::Ge(v) => cmp(v) != Ordering::Less,
        }
    }

    /// True for conditions that select a range rather than one value or prefix.
    pub fn is_range(&self) -> bool {
        matches!(
            self,
            Bound::Between(..) | Bound::Lt(_) | Bound::Le(_) | Bound::Gt(_) | Bound::Ge(_)
        )
    }

    /// DynamoDB rejects `BETWEEN a AND b` with `a > b` in the key's order.
    pub fn is_valid(&self, ty: KeyAttributeType) -> bool {
        match self {
            Bound::Between(a, b) => compare(a, b, ty) != Ordering::Greater,
            _ => true,
        }
    }

    /// The condition on `attribute` as a key condition expression with values inlined.
    pub fn describe(&self, attribute: &str) -> String {
        match self {
            Bound::Eq(v) => format!("{attribute} = {v:?}"),
            Bound::BeginsWith(v) => format!("begins_with({attribute}, {v:?})"),
            Bound::Between(a, b) => format!("{attribute} BETWEEN {a:?} AND {b:?}"),
            Bound::Lt(v) => format!("{attribute} < {v:?}"),
            Bound::Le(v) => format!("{attribute} <= {v:?}"),
            Bound::Gt(v) => format!("{attribute} > {v:?}"),
            Bound::Ge(v) => format!("{attribute} >= {v:?}"),
        }
    }
}

/// The key schema a pattern reads: the table's or an index's (the pattern's own key attributes
/// when the index is not declared).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// Index name; `None` for the table.
    pub index: Option<String>,
    /// Partition key attribute.
    pub pk: String,
    /// Sort key attribute, if the table or index has one.
    pub sk: Option<String>,
    /// The sort key's declared type (`S` when undeclared), which orders it.
    pub sk_type: KeyAttributeType,
}

impl Shape {
    /// The shape `pattern` reads.
    pub fn of(model: &Model, pattern: &Pattern) -> Shape {
        let index = pattern.index_name().map(str::to_string);
        let (pk, sk) = match model.key_schema(index.as_deref()) {
            Some((pk, sk)) => (pk.to_string(), sk.map(str::to_string)),
            None => (
                pattern
                    .pk
                    .as_ref()
                    .map_or_else(String::new, |k| k.attribute.clone()),
                pattern.sk.as_ref().map(|k| k.attribute.clone()),
            ),
        };
        let sk_type = sk
            .as_deref()
            .and_then(|a| model.key_attribute_type(a))
            .unwrap_or(KeyAttributeType::S);
        Shape {
            index,
            pk,
            sk,
            sk_type,
        }
    }

    /// Whether the sample is in the table or index: it writes every key attribute of it.
    pub fn contains(&self, sample: &Sample) -> bool {
        sample.key(&self.pk).is_some() && self.sk.as_ref().is_none_or(|sk| sample.key(sk).is_some())
    }
}

/// A sample's primary key and entity, which is how results are compared.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ident {
    /// Table partition key value.
    pub pk: String,
    /// Table sort key value (empty without one).
    pub sk: String,
    /// Entity type (`?` when unknown).
    pub entity: String,
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.sk.is_empty() {
            write!(f, "{} {}", self.entity, self.pk)
        } else {
            write!(f, "{} {} | {}", self.entity, self.pk, self.sk)
        }
    }
}

/// The identity of a sample.
pub fn ident(model: &Model, sample: &Sample) -> Ident {
    Ident {
        pk: sample
            .key(&model.table.partition_key.name)
            .unwrap_or_default()
            .to_string(),
        sk: model
            .table
            .sort_key
            .as_ref()
            .and_then(|k| sample.key(&k.name))
            .unwrap_or_default()
            .to_string(),
        entity: sample.entity.clone(),
    }
}

/// The samples a Query returns: in `shape`, partition key equal to `pk`, sort key (attribute
/// `sk_attribute`) satisfying `sk`; ordered by the index's sort key, reversed when `descending`.
pub fn query<'a>(
    samples: &'a [Sample],
    shape: &Shape,
    pk: &str,
    sk: Option<(&str, &Bound)>,
    descending: bool,
) -> Vec<&'a Sample> {
    let mut out: Vec<&Sample> = samples
        .iter()
        .filter(|s| shape.contains(s) && s.key(&shape.pk) == Some(pk))
        .filter(|s| match sk {
            None => true,
            Some((attribute, bound)) => s
                .key(attribute)
                .is_some_and(|v| bound.matches(v, shape.sk_type)),
        })
        .collect();
    out.sort_by(|a, b| compare(sort_key(shape, a), sort_key(shape, b), shape.sk_type));
    if descending {
        out.reverse();
    }
    out
}

/// The sample's sort key in `shape` (empty without one).
fn sort_key<'s>(shape: &Shape, sample: &'s Sample) -> &'s str {
    shape
        .sk
        .as_ref()
        .and_then(|a| sample.key(a))
        .unwrap_or_default()
}

/// The number of samples in the partition `pk` of `shape` (with no sort key condition).
pub fn partition_size(samples: &[Sample], shape: &Shape, pk: &str) -> usize {
    samples
        .iter()
        .filter(|s| shape.contains(s) && s.key(&shape.pk) == Some(pk))
        .count()
}

/// The sample a GetItem returns: the one whose table key attributes equal `key`.
pub fn get<'a>(samples: &'a [Sample], key: &[(String, String)]) -> Option<&'a Sample> {
    samples
        .iter()
        .find(|s| key.iter().all(|(a, v)| s.key(a) == Some(v.as_str())))
}

/// The samples a Scan returns: everything in `shape` (order unspecified).
pub fn scan<'a>(samples: &'a [Sample], shape: &Shape) -> Vec<&'a Sample> {
    samples.iter().filter(|s| shape.contains(s)).collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn b(s: &str) -> String {
        s.to_string()
    }

    #[test]
    fn numeric_keys_compare_as_numbers() {
        let n = KeyAttributeType::N;
        assert!(Bound::Lt(b("10")).matches("9", n));
        assert!(!Bound::Lt(b("9")).matches("10", n));
        assert!(Bound::Between(b("9"), b("100")).matches("55", n));
        assert!(!Bound::Between(b("9"), b("100")).matches("1000", n));
        assert!(Bound::Eq(b("12.50")).matches("12.5", n));
        assert!(Bound::Ge(b("-1")).matches("0", n));
        assert!(!Bound::BeginsWith(b("1")).matches("10", n));
        assert!(Bound::Between(b("9"), b("10")).is_valid(n));
        assert!(!Bound::Between(b("9"), b("10")).is_valid(KeyAttributeType::S));
        assert!(Bound::Lt(b("b")).matches("a", KeyAttributeType::B));
    }

    #[test]
    fn conditions_compare_bytes() {
        let matches = |bound: Bound, value: &str| bound.matches(value, KeyAttributeType::S);
        assert!(matches(Bound::Eq(b("A")), "A"));
        assert!(!matches(Bound::Eq(b("A")), "AB"));
        assert!(matches(Bound::BeginsWith(b("ORDER#")), "ORDER#1"));
        assert!(matches(Bound::BeginsWith(b("ORDER#")), "ORDER#"));
        assert!(!matches(Bound::BeginsWith(b("ORDER#")), "ORDER"));
        let between = Bound::Between(b("2024-05-01"), b("2024-05-02"));
        assert!(matches(between.clone(), "2024-05-01"));
        assert!(matches(between.clone(), "2024-05-01T23:59:59.999Z#x"));
        assert!(matches(between.clone(), "2024-05-02"));
        assert!(!matches(between, "2024-05-02T00:00:00.000Z"));
        // Numbers as strings: "9" sorts after "10".
        assert!(matches(Bound::Gt(b("10")), "9"));
        assert!(matches(Bound::Lt(b("9")), "10"));
        assert!(matches(Bound::Le(b("a")), "a"));
        assert!(!matches(Bound::Lt(b("a")), "a"));
        assert!(matches(Bound::Ge(b("a")), "a"));
        assert!(!matches(Bound::Gt(b("a")), "a"));
        // Byte order, not locale: uppercase before lowercase.
        assert!(matches(Bound::Lt(b("a")), "Z"));
        assert!(!Bound::Between(b("b"), b("a")).is_valid(KeyAttributeType::S));
        assert!(Bound::Between(b("a"), b("a")).is_valid(KeyAttributeType::S));
        assert!(Bound::Between(b("a"), b("b")).is_range());
        assert!(!Bound::BeginsWith(b("a")).is_range());
    }

    #[test]
    fn renders_from_values() {
        let cond = monotable_model::parse_condition("between(DATE#{from}, DATE#{to})").unwrap();
        let values = |n: &str| match n {
            "from" => Some(b("2024-05-01")),
            "to" => Some(b("2024-05-02")),
            _ => None,
        };
        let bound = Bound::render(&cond, &values).unwrap();
        assert_eq!(
            bound,
            Bound::Between(b("DATE#2024-05-01"), b("DATE#2024-05-02"))
        );
        assert_eq!(
            bound.describe("SK"),
            r#"SK BETWEEN "DATE#2024-05-01" AND "DATE#2024-05-02""#
        );
        assert!(Bound::render(&cond, &|_| None).is_err());
    }

    fn sample(entity: &str, keys: &[(&str, &str)]) -> Sample {
        Sample {
            entity: entity.to_string(),
            values: BTreeMap::new(),
            keys: keys.iter().map(|(a, v)| (b(a), b(v))).collect(),
            item: Default::default(),
        }
    }

    #[test]
    fn query_filters_and_orders() {
        let samples = vec![
            sample("A", &[("PK", "P"), ("SK", "b"), ("G", "X"), ("GS", "2")]),
            sample("A", &[("PK", "P"), ("SK", "a"), ("G", "X"), ("GS", "10")]),
            sample("B", &[("PK", "Q"), ("SK", "a"), ("G", "X")]),
            sample("A", &[("PK", "P"), ("SK", "c")]),
        ];
        let table = Shape {
            index: None,
            pk: b("PK"),
            sk: Some(b("SK")),
            sk_type: KeyAttributeType::S,
        };
        let got = query(&samples, &table, "P", None, false);
        let sks: Vec<&str> = got.iter().filter_map(|s| s.key("SK")).collect();
        assert_eq!(sks, ["a", "b", "c"]);
        let gt = Bound::Gt(b("a"));
        let got = query(&samples, &table, "P", Some(("SK", &gt)), true);
        let sks: Vec<&str> = got.iter().filter_map(|s| s.key("SK")).collect();
        assert_eq!(sks, ["c", "b"]);
        let gsi = Shape {
            index: Some(b("GSI")),
            pk: b("G"),
            sk: Some(b("GS")),
            sk_type: KeyAttributeType::S,
        };
        // B has no GS: not in the index. "10" < "2" byte-wise.
        let got = query(&samples, &gsi, "X", None, false);
        let gs: Vec<&str> = got.iter().filter_map(|s| s.key("GS")).collect();
        assert_eq!(gs, ["10", "2"]);
        // The same index with a numeric sort key: 2 before 10.
        let numeric = Shape {
            sk_type: KeyAttributeType::N,
            ..gsi.clone()
        };
        let got = query(&samples, &numeric, "X", None, false);
        let gs: Vec<&str> = got.iter().filter_map(|s| s.key("GS")).collect();
        assert_eq!(gs, ["2", "10"]);
        assert_eq!(partition_size(&samples, &gsi, "X"), 2);
        assert_eq!(scan(&samples, &gsi).len(), 2);
        let key = [(b("PK"), b("Q")), (b("SK"), b("a"))];
        assert_eq!(get(&samples, &key).map(|s| s.entity.as_str()), Some("B"));
        assert!(get(&samples, &[(b("PK"), b("Q")), (b("SK"), b("b"))]).is_none());
    }
}
