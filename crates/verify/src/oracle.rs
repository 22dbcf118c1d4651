//! The expected result of a read pattern, computed from the samples in memory, independently of
//! DynamoDB: partition key equality, the sort key condition by byte-wise comparison, index order.

use std::fmt;

use monotable_model::{Condition, Model, Pattern, RenderError};

use crate::generate::Sample;

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

    /// Whether a string sort key value satisfies the condition (DynamoDB compares `S` keys
    /// byte-wise, as Rust's `str` ordering does).
    pub fn matches(&self, value: &str) -> bool {
        match self {
            Bound::Eq(v) => value == v,
            Bound::BeginsWith(v) => value.starts_with(v.as_str()),
            Bound::Between(a, b) => a.as_str() <= value && value <= b.as_str(),
            Bound::Lt(v) => value < v.as_str(),
            Bound::Le(v) => value <= v.as_str(),
            Bound::Gt(v) => value > v.as_str(),
            Bound::Ge(v) => value >= v.as_str(),
        }
    }

    /// True for conditions that select a range rather than one value or prefix.
    pub fn is_range(&self) -> bool {
        matches!(
            self,
            Bound::Between(..) | Bound::Lt(_) | Bound::Le(_) | Bound::Gt(_) | Bound::Ge(_)
        )
    }

    /// DynamoDB rejects `BETWEEN a AND b` with `a > b`.
    pub fn is_valid(&self) -> bool {
        match self {
            Bound::Between(a, b) => a <= b,
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
}

impl Shape {
    /// The shape `pattern` reads.
    pub fn of(model: &Model, pattern: &Pattern) -> Shape {
        let index = pattern.index_name().map(str::to_string);
        match model.key_schema(index.as_deref()) {
            Some((pk, sk)) => Shape {
                index,
                pk: pk.to_string(),
                sk: sk.map(str::to_string),
            },
            None => Shape {
                index,
                pk: pattern
                    .pk
                    .as_ref()
                    .map_or_else(String::new, |k| k.attribute.clone()),
                sk: pattern.sk.as_ref().map(|k| k.attribute.clone()),
            },
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
            Some((attribute, bound)) => s.key(attribute).is_some_and(|v| bound.matches(v)),
        })
        .collect();
    let order = |s: &Sample| {
        shape
            .sk
            .as_ref()
            .and_then(|a| s.key(a))
            .unwrap_or_default()
            .to_string()
    };
    out.sort_by_key(|s| order(s));
    if descending {
        out.reverse();
    }
    out
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
    fn conditions_compare_bytes() {
        assert!(Bound::Eq(b("A")).matches("A"));
        assert!(!Bound::Eq(b("A")).matches("AB"));
        assert!(Bound::BeginsWith(b("ORDER#")).matches("ORDER#1"));
        assert!(Bound::BeginsWith(b("ORDER#")).matches("ORDER#"));
        assert!(!Bound::BeginsWith(b("ORDER#")).matches("ORDER"));
        let between = Bound::Between(b("2024-05-01"), b("2024-05-02"));
        assert!(between.matches("2024-05-01"));
        assert!(between.matches("2024-05-01T23:59:59.999Z#x"));
        assert!(between.matches("2024-05-02"));
        assert!(!between.matches("2024-05-02T00:00:00.000Z"));
        // Numbers as strings: "9" sorts after "10".
        assert!(Bound::Gt(b("10")).matches("9"));
        assert!(Bound::Lt(b("9")).matches("10"));
        assert!(Bound::Le(b("a")).matches("a"));
        assert!(!Bound::Lt(b("a")).matches("a"));
        assert!(Bound::Ge(b("a")).matches("a"));
        assert!(!Bound::Gt(b("a")).matches("a"));
        // Byte order, not locale: uppercase before lowercase.
        assert!(Bound::Lt(b("a")).matches("Z"));
        assert!(!Bound::Between(b("b"), b("a")).is_valid());
        assert!(Bound::Between(b("a"), b("a")).is_valid());
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
        };
        // B has no GS: not in the index. "10" < "2" byte-wise.
        let got = query(&samples, &gsi, "X", None, false);
        let gs: Vec<&str> = got.iter().filter_map(|s| s.key("GS")).collect();
        assert_eq!(gs, ["10", "2"]);
        assert_eq!(partition_size(&samples, &gsi, "X"), 2);
        assert_eq!(scan(&samples, &gsi).len(), 2);
        let key = [(b("PK"), b("Q")), (b("SK"), b("a"))];
        assert_eq!(get(&samples, &key).map(|s| s.entity.as_str()), Some("B"));
        assert!(get(&samples, &[(b("PK"), b("Q")), (b("SK"), b("b"))]).is_none());
    }
}
