//! The expected result of a read pattern, computed from the samples in memory, independently of
//! DynamoDB: partition key equality, the sort key condition compared as the key's type orders
//! (`S` and `B` by bytes, `N` by value), index order.
//!
//! A native multi-attribute key follows the same rules attribute by attribute: an item is in the
//! index only while it holds every key attribute (sparse by absence), every partition attribute
//! and every leading sort attribute given must be equal (by value for `N`), the condition applies
//! to the last sort attribute given, and items are ordered by the sort attributes left to right,
//! each as its type orders.

use std::cmp::Ordering;
use std::fmt;

use monotable_model::{KeyAttributeType, KeyTest, Model, Pattern, RenderError};

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
        condition: &KeyTest,
        values: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Bound, RenderError> {
        Ok(match condition {
            KeyTest::Eq(t) => Bound::Eq(t.render(values)?),
            KeyTest::BeginsWith(t) => Bound::BeginsWith(t.render(values)?),
            KeyTest::Between(a, b) => Bound::Between(a.render(values)?, b.render(values)?),
            KeyTest::Lt(t) => Bound::Lt(t.render(values)?),
            KeyTest::Le(t) => Bound::Le(t.render(values)?),
            KeyTest::Gt(t) => Bound::Gt(t.render(values)?),
            KeyTest::Ge(t) => Bound::Ge(t.render(values)?),
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
pub struct KeyLayout {
    /// Index name; `None` for the table.
    pub index: Option<String>,
    /// Partition key attribute (of a native key: the first).
    pub pk: String,
    /// Sort key attribute, if the table or index has one (of a native key: the first).
    pub sk: Option<String>,
    /// The sort key's declared type (`S` when undeclared), which orders it.
    pub sk_type: KeyAttributeType,
    /// Every partition key attribute with its type: one, or up to four for a native key.
    pub partition: Vec<(String, KeyAttributeType)>,
    /// Every sort key attribute with its type, in order: none, one, or up to four.
    pub sort: Vec<(String, KeyAttributeType)>,
}

impl KeyLayout {
    /// The shape `pattern` reads.
    pub fn of(model: &Model, pattern: &Pattern) -> KeyLayout {
        let index = pattern.index_name().map(str::to_string);
        let typed = |name: &str| {
            let ty = model
                .key_attribute_type(name)
                .unwrap_or(KeyAttributeType::S);
            (name.to_string(), ty)
        };
        let (partition, sort): (Vec<_>, Vec<_>) = match index.as_deref() {
            None => (
                vec![typed(&model.table.partition_key.name)],
                model
                    .table
                    .sort_key
                    .iter()
                    .map(|k| typed(&k.name))
                    .collect(),
            ),
            Some(name) => match model.index(name) {
                Some(i) => (
                    i.partition_keys.iter().map(|k| typed(&k.name)).collect(),
                    i.sort_keys.iter().map(|k| typed(&k.name)).collect(),
                ),
                None => (
                    pattern.pk.iter().map(|k| typed(&k.attribute)).collect(),
                    pattern.sk.iter().map(|k| typed(&k.attribute)).collect(),
                ),
            },
        };
        let pk = partition
            .first()
            .map_or_else(String::new, |(n, _)| n.clone());
        let (sk, sk_type) = match sort.first() {
            Some((n, ty)) => (Some(n.clone()), *ty),
            None => (None, KeyAttributeType::S),
        };
        KeyLayout {
            index,
            pk,
            sk,
            sk_type,
            partition,
            sort,
        }
    }

    /// Whether the sample is in the table or index: it holds every key attribute of it.
    pub fn contains(&self, sample: &Sample) -> bool {
        self.partition
            .iter()
            .chain(&self.sort)
            .all(|(name, _)| sample.key(name).is_some())
    }

    /// The declared type of key attribute `name` of this shape (`S` when it is none of them).
    pub fn type_of(&self, name: &str) -> KeyAttributeType {
        self.partition
            .iter()
            .chain(&self.sort)
            .find(|(n, _)| n == name)
            .map_or(KeyAttributeType::S, |(_, ty)| *ty)
    }

    /// Orders two samples as the index does: by each sort attribute in turn, each as its type
    /// orders.
    pub fn order(&self, a: &Sample, b: &Sample) -> Ordering {
        self.sort
            .iter()
            .map(|(name, ty)| {
                let value = |s: &Sample| s.key(name).unwrap_or_default().to_string();
                compare(&value(a), &value(b), *ty)
            })
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    }
}

/// A Query's key condition with its values rendered: an equality on every partition attribute
/// and on each sort attribute before the last one given (in key-schema order), and the
/// condition on that last sort attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyQuery {
    /// `(attribute, value)` equalities: the partition, and the leading sort attributes.
    pub equalities: Vec<(String, String)>,
    /// The condition on the last sort attribute given.
    pub sort: Option<(String, Bound)>,
}

impl KeyQuery {
    /// The key condition of Query pattern `pattern` rendered from `values`: every condition in
    /// key-schema order, the last one on a sort attribute being the sort condition.
    pub fn render(
        pattern: &Pattern,
        values: &dyn Fn(&str) -> Option<String>,
    ) -> Result<KeyQuery, String> {
        let Some(KeyTest::Eq(_)) = pattern.pk.as_ref().map(|k| &k.condition) else {
            return Err("the pattern has no partition key equality".to_string());
        };
        let sort_attribute = pattern.sk.as_ref().map(|k| k.attribute.as_str());
        let all: Vec<&monotable_model::KeyClause> = if pattern.key.is_empty() {
            pattern.pk.iter().chain(pattern.sk.iter()).collect()
        } else {
            pattern.key.iter().collect()
        };
        let mut equalities = Vec::new();
        for k in all
            .into_iter()
            .filter(|k| Some(k.attribute.as_str()) != sort_attribute)
        {
            let KeyTest::Eq(t) = &k.condition else {
                return Err(format!(
                    "the condition on `{}` is not an equality",
                    k.attribute
                ));
            };
            equalities.push((
                k.attribute.clone(),
                t.render(values).map_err(|e| e.to_string())?,
            ));
        }
        let sort = match &pattern.sk {
            Some(k) => Some((
                k.attribute.clone(),
                Bound::render(&k.condition, values).map_err(|e| e.to_string())?,
            )),
            None => None,
        };
        Ok(KeyQuery { equalities, sort })
    }

    /// Whether DynamoDB takes the sort condition (`BETWEEN` bounds in order).
    pub fn is_valid(&self, shape: &KeyLayout) -> bool {
        self.sort
            .as_ref()
            .is_none_or(|(a, b)| b.is_valid(shape.type_of(a)))
    }

    /// The partition key value (of a native key: the first partition attribute's).
    pub fn partition_value(&self) -> &str {
        self.equalities.first().map_or("", |(_, v)| v.as_str())
    }

    /// The condition as a key condition expression with values inlined.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .equalities
            .iter()
            .map(|(a, v)| format!("{a} = {v:?}"))
            .collect();
        parts.extend(self.sort.iter().map(|(a, b)| b.describe(a)));
        parts.join(" AND ")
    }

    /// Whether every equality holds of the sample, each compared as its attribute's type.
    pub(crate) fn equal(&self, shape: &KeyLayout, sample: &Sample) -> bool {
        self.equalities.iter().all(|(name, want)| {
            sample
                .key(name)
                .is_some_and(|v| compare(v, want, shape.type_of(name)) == Ordering::Equal)
        })
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

/// The samples a Query returns: in `shape`, every equality of `key` holding, the last sort
/// attribute given satisfying its condition; in index order, reversed when `descending`.
pub fn query<'a>(
    samples: &'a [Sample],
    shape: &KeyLayout,
    key: &KeyQuery,
    descending: bool,
) -> Vec<&'a Sample> {
    select(samples.iter(), shape, key, descending)
}

/// The samples of `samples` a Query of `key` in `shape` returns, in order.
pub(crate) fn select<'a>(
    samples: impl Iterator<Item = &'a Sample>,
    shape: &KeyLayout,
    key: &KeyQuery,
    descending: bool,
) -> Vec<&'a Sample> {
    let mut out: Vec<&Sample> = samples
        .filter(|s| shape.contains(s) && key.equal(shape, s))
        .filter(|s| match &key.sort {
            None => true,
            Some((attribute, bound)) => s
                .key(attribute)
                .is_some_and(|v| bound.matches(v, shape.type_of(attribute))),
        })
        .collect();
    out.sort_by(|a, b| shape.order(a, b));
    if descending {
        out.reverse();
    }
    out
}

/// The number of samples in `shape` that every equality of `key` selects (the sort condition
/// left out): what a range narrows.
pub fn partition_size(samples: &[Sample], shape: &KeyLayout, key: &KeyQuery) -> usize {
    samples
        .iter()
        .filter(|s| shape.contains(s) && key.equal(shape, s))
        .count()
}

/// The sample a GetItem returns: the one whose table key attributes equal `key`.
pub fn get<'a>(samples: &'a [Sample], key: &[(String, String)]) -> Option<&'a Sample> {
    samples
        .iter()
        .find(|s| key.iter().all(|(a, v)| s.key(a) == Some(v.as_str())))
}

/// The samples a Scan returns: everything in `shape` (order unspecified).
pub fn scan<'a>(samples: &'a [Sample], shape: &KeyLayout) -> Vec<&'a Sample> {
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

    fn shape(
        index: Option<&str>,
        partition: &[(&str, KeyAttributeType)],
        sort: &[(&str, KeyAttributeType)],
    ) -> KeyLayout {
        let own = |keys: &[(&str, KeyAttributeType)]| -> Vec<(String, KeyAttributeType)> {
            keys.iter().map(|(n, t)| (b(n), *t)).collect()
        };
        KeyLayout {
            index: index.map(b),
            pk: b(partition[0].0),
            sk: sort.first().map(|(n, _)| b(n)),
            sk_type: sort.first().map_or(KeyAttributeType::S, |(_, t)| *t),
            partition: own(partition),
            sort: own(sort),
        }
    }

    fn eq(pairs: &[(&str, &str)], sort: Option<(&str, Bound)>) -> KeyQuery {
        KeyQuery {
            equalities: pairs.iter().map(|(a, v)| (b(a), b(v))).collect(),
            sort: sort.map(|(a, bound)| (b(a), bound)),
        }
    }

    const S: KeyAttributeType = KeyAttributeType::S;
    const N: KeyAttributeType = KeyAttributeType::N;

    #[test]
    fn query_filters_and_orders() {
        let samples = vec![
            sample("A", &[("PK", "P"), ("SK", "b"), ("G", "X"), ("GS", "2")]),
            sample("A", &[("PK", "P"), ("SK", "a"), ("G", "X"), ("GS", "10")]),
            sample("B", &[("PK", "Q"), ("SK", "a"), ("G", "X")]),
            sample("A", &[("PK", "P"), ("SK", "c")]),
        ];
        let table = shape(None, &[("PK", S)], &[("SK", S)]);
        let got = query(&samples, &table, &eq(&[("PK", "P")], None), false);
        let sks: Vec<&str> = got.iter().filter_map(|s| s.key("SK")).collect();
        assert_eq!(sks, ["a", "b", "c"]);
        let gt = eq(&[("PK", "P")], Some(("SK", Bound::Gt(b("a")))));
        let got = query(&samples, &table, &gt, true);
        let sks: Vec<&str> = got.iter().filter_map(|s| s.key("SK")).collect();
        assert_eq!(sks, ["c", "b"]);
        let gsi = shape(Some("GSI"), &[("G", S)], &[("GS", S)]);
        // B has no GS: not in the index. "10" < "2" byte-wise.
        let x = eq(&[("G", "X")], None);
        let got = query(&samples, &gsi, &x, false);
        let gs: Vec<&str> = got.iter().filter_map(|s| s.key("GS")).collect();
        assert_eq!(gs, ["10", "2"]);
        // The same index with a numeric sort key: 2 before 10.
        let numeric = shape(Some("GSI"), &[("G", S)], &[("GS", N)]);
        let got = query(&samples, &numeric, &x, false);
        let gs: Vec<&str> = got.iter().filter_map(|s| s.key("GS")).collect();
        assert_eq!(gs, ["2", "10"]);
        assert_eq!(partition_size(&samples, &gsi, &x), 2);
        assert_eq!(scan(&samples, &gsi).len(), 2);
        let key = [(b("PK"), b("Q")), (b("SK"), b("a"))];
        assert_eq!(get(&samples, &key).map(|s| s.entity.as_str()), Some("B"));
        assert!(get(&samples, &[(b("PK"), b("Q")), (b("SK"), b("b"))]).is_none());
    }

    /// `ByStatus` on (status, shard N) HASH and (createdAt, orderId) RANGE.
    fn orders() -> Vec<Sample> {
        let order = |id: &str, status: &str, shard: &str, created: Option<&str>| {
            let mut keys = vec![
                ("PK", id),
                ("status", status),
                ("shard", shard),
                ("orderId", id),
            ];
            keys.extend(created.map(|c| ("createdAt", c)));
            sample("Order", &keys)
        };
        vec![
            order("o1", "PAID", "2", Some("2024-01-02")),
            order("o2", "PAID", "2.0", Some("2024-01-01")),
            order("o3", "PAID", "10", Some("2024-01-01")),
            order("o4", "PAID", "2", Some("2024-01-01")),
            order("o5", "PAID", "2", None),
            order("o6", "SHIPPED", "2", Some("2024-01-01")),
        ]
    }

    fn ids(found: &[&Sample]) -> Vec<String> {
        found.iter().filter_map(|s| s.key("PK")).map(b).collect()
    }

    #[test]
    fn native_keys_are_sparse_numeric_and_ordered_attribute_by_attribute() {
        let samples = orders();
        let by_status = shape(
            Some("ByStatus"),
            &[("status", S), ("shard", N)],
            &[("createdAt", S), ("orderId", S)],
        );
        // o5 lacks createdAt: not in the index. shard 2.0 is shard 2; 10 is another partition.
        // Ordered by createdAt, then orderId.
        let paid_2 = eq(&[("status", "PAID"), ("shard", "2")], None);
        assert_eq!(
            ids(&query(&samples, &by_status, &paid_2, false)),
            ["o2", "o4", "o1"]
        );
        assert_eq!(
            ids(&query(&samples, &by_status, &paid_2, true)),
            ["o1", "o4", "o2"]
        );
        assert_eq!(partition_size(&samples, &by_status, &paid_2), 3);
        // The condition applies to the last sort attribute given.
        let day = eq(
            &[("status", "PAID"), ("shard", "2")],
            Some((
                "createdAt",
                Bound::Between(b("2024-01-01"), b("2024-01-01")),
            )),
        );
        assert_eq!(ids(&query(&samples, &by_status, &day, false)), ["o2", "o4"]);
        let after = eq(
            &[
                ("status", "PAID"),
                ("shard", "2"),
                ("createdAt", "2024-01-01"),
            ],
            Some(("orderId", Bound::Gt(b("o2")))),
        );
        assert_eq!(ids(&query(&samples, &by_status, &after, false)), ["o4"]);
        assert_eq!(scan(&samples, &by_status).len(), 5);
    }
}
