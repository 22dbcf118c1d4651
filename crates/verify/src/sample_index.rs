//! The samples indexed once per run: by entity, by each key attribute's value, and the values
//! each attribute takes. Every pattern's oracle, parameter search and targets then read the
//! samples they can concern (a partition, an entity's items) instead of all of them, so a run
//! takes time near-linear in the samples rather than patterns × samples × candidate values.

use std::collections::{BTreeSet, HashMap};

use monotable_model::{AttributeType, KeyAttributeType, Model, TimestampFormat};

use crate::generate::Sample;
use crate::oracle::{self, Bound, KeyLayout, KeyQuery};
use crate::order::canonical_number;

/// One key schema's partitions, each in sort key order.
#[derive(Debug)]
struct Sorted<'a> {
    /// The sort key attribute.
    sk: &'a str,
    partitions: HashMap<&'a str, Vec<usize>>,
}

/// The samples of a run, indexed.
#[derive(Debug)]
pub struct SampleIndex<'a> {
    /// Every sample, in the dataset's order (indexes below point into it).
    pub samples: &'a [Sample],
    by_entity: HashMap<&'a str, Vec<usize>>,
    /// Key attribute, then value as rendered, to the samples holding it.
    exact: HashMap<&'a str, HashMap<&'a str, Vec<usize>>>,
    /// Key attribute typed `N`, then canonical number, to the samples holding it: `3.0` is `3`.
    numbers: HashMap<&'a str, HashMap<String, Vec<usize>>>,
    /// For the table and each declared index keyed on one partition and one text sort
    /// attribute: partition value to the samples in it, in sort key order. A Query's sort
    /// condition then selects a range by binary search instead of reading the partition.
    sorted: HashMap<Option<&'a str>, Sorted<'a>>,
    /// The distinct values each attribute takes in the samples, sorted.
    values: HashMap<&'a str, BTreeSet<&'a str>>,
    /// The distinct values of the timestamp attributes of each format (a handful), sorted.
    timestamps: Vec<(TimestampFormat, BTreeSet<&'a str>)>,
}

impl<'a> SampleIndex<'a> {
    /// Indexes `samples` of `model`.
    pub fn new(model: &'a Model, samples: &'a [Sample]) -> Self {
        let mut index = SampleIndex {
            samples,
            by_entity: HashMap::new(),
            exact: HashMap::new(),
            numbers: HashMap::new(),
            values: HashMap::new(),
            timestamps: Vec::new(),
            sorted: HashMap::new(),
        };
        index.sort_partitions(model);
        for (i, s) in samples.iter().enumerate() {
            index.by_entity.entry(&s.entity).or_default().push(i);
            for (name, value) in &s.keys {
                let by_value = index.exact.entry(name).or_default();
                by_value.entry(value).or_default().push(i);
                if model.key_attribute_type(name) == Some(KeyAttributeType::N)
                    && let Some(n) = canonical_number(value)
                {
                    let by_value = index.numbers.entry(name).or_default();
                    by_value.entry(n).or_default().push(i);
                }
            }
            for (name, value) in &s.values {
                index.values.entry(name).or_default().insert(value);
            }
            let Some(entity) = model.entity(&s.entity) else {
                continue;
            };
            for a in entity
                .attributes
                .iter()
                .filter(|a| a.ty == AttributeType::Timestamp)
            {
                if let Some(v) = s.values.get(&a.name) {
                    let format = a.timestamp_format();
                    match index.timestamps.iter_mut().find(|(f, _)| *f == format) {
                        Some((_, set)) => {
                            set.insert(v);
                        }
                        None => index
                            .timestamps
                            .push((format, BTreeSet::from([v.as_str()]))),
                    }
                }
            }
        }
        index
    }

    fn sort_partitions(&mut self, model: &'a Model) {
        let text = |name: &str| {
            model
                .key_attribute_type(name)
                .is_none_or(|t| t != KeyAttributeType::N)
        };
        let mut schemas: Vec<(Option<&'a str>, &'a str, &'a str)> = Vec::new();
        if let Some(sk) = &model.table.sort_key {
            schemas.push((None, &model.table.partition_key.name, &sk.name));
        }
        for i in &model.indexes {
            if let ([pk], [sk]) = (i.partition_keys.as_slice(), i.sort_keys.as_slice()) {
                schemas.push((Some(&i.name), &pk.name, &sk.name));
            }
        }
        for (name, pk, sk) in schemas {
            if !text(pk) || !text(sk) {
                continue;
            }
            let mut partitions: HashMap<&'a str, Vec<usize>> = HashMap::new();
            for (i, s) in self.samples.iter().enumerate() {
                if let (Some(p), Some(_)) = (s.key(pk), s.key(sk)) {
                    partitions.entry(p).or_default().push(i);
                }
            }
            let samples = self.samples;
            for list in partitions.values_mut() {
                list.sort_by(|&a, &b| samples[a].key(sk).cmp(&samples[b].key(sk)));
            }
            self.sorted.insert(name, Sorted { sk, partitions });
        }
    }

    /// The samples of the partition `key` reads in sort key order, narrowed to the range its
    /// sort condition selects; `None` when the shape is not one sorted here.
    fn sorted_range(&self, shape: &KeyLayout, key: &KeyQuery) -> Option<Vec<&'a Sample>> {
        let [(attribute, value)] = key.equalities.as_slice() else {
            return None;
        };
        let sorted = self.sorted.get(&shape.index.as_deref())?;
        if *attribute != shape.pk || shape.sort.len() != 1 || shape.sk.as_deref() != Some(sorted.sk)
        {
            return None;
        }
        let list = sorted
            .partitions
            .get(value.as_str())
            .map_or(&[][..], Vec::as_slice);
        let at = |i: usize| self.samples[list[i]].key(sorted.sk).unwrap_or_default();
        // The first place whose sort key is not below `v` (`inclusive`) or not above it.
        let bound = |v: &str, past: bool| {
            let (mut lo, mut hi) = (0, list.len());
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                let k = at(mid).as_bytes();
                if k < v.as_bytes() || (past && k == v.as_bytes()) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        let (from, to) = match &key.sort {
            None => (0, list.len()),
            Some((a, _)) if a != sorted.sk => return None,
            Some((_, b)) => match b {
                Bound::Eq(v) => (bound(v, false), bound(v, true)),
                Bound::BeginsWith(v) => {
                    let from = bound(v, false);
                    let len = list[from..]
                        .iter()
                        .take_while(|&&i| {
                            self.samples[i]
                                .key(sorted.sk)
                                .is_some_and(|k| k.starts_with(v.as_str()))
                        })
                        .count();
                    (from, from + len)
                }
                Bound::Between(a, b) => (bound(a, false), bound(b, true)),
                Bound::Lt(v) => (0, bound(v, false)),
                Bound::Le(v) => (0, bound(v, true)),
                Bound::Gt(v) => (bound(v, true), list.len()),
                Bound::Ge(v) => (bound(v, false), list.len()),
            },
        };
        let to = to.max(from);
        Some(list[from..to].iter().map(|&i| &self.samples[i]).collect())
    }

    /// The samples a Query of `key` can return, in sort key order when the shape is sorted
    /// here: a range of the partition, or the partition.
    pub fn candidates(&self, shape: &KeyLayout, key: &KeyQuery) -> Vec<&'a Sample> {
        self.sorted_range(shape, key)
            .unwrap_or_else(|| self.partition(shape, key))
    }

    /// The number of samples in the partition `key` names, when the shape is sorted here.
    pub fn partition_len(&self, shape: &KeyLayout, key: &KeyQuery) -> Option<usize> {
        let unsorted = KeyQuery {
            equalities: key.equalities.clone(),
            sort: None,
        };
        self.sorted_range(shape, &unsorted).map(|v| v.len())
    }

    /// [`oracle::query`] over the indexed samples: only the partition the first equality names
    /// is read.
    pub fn query(&self, shape: &KeyLayout, key: &KeyQuery, descending: bool) -> Vec<&'a Sample> {
        oracle::select(
            self.candidates(shape, key).into_iter(),
            shape,
            key,
            descending,
        )
    }

    /// [`oracle::partition_size`] over the indexed samples.
    pub fn partition_size(&self, shape: &KeyLayout, key: &KeyQuery) -> usize {
        if let Some(n) = self.partition_len(shape, key) {
            return n;
        }
        self.partition(shape, key)
            .into_iter()
            .filter(|s| shape.contains(s) && key.equal(shape, s))
            .count()
    }

    /// [`oracle::get`] over the indexed samples.
    pub fn get(&self, key: &[(String, String)]) -> Option<&'a Sample> {
        let (first, value) = key.first()?;
        self.with_key(first, value)
            .find(|s| key.iter().all(|(a, v)| s.key(a) == Some(v.as_str())))
    }

    /// The samples of `entity`, in the dataset's order.
    pub fn of_entity(&self, entity: &str) -> impl Iterator<Item = &'a Sample> + '_ {
        let samples = self.samples;
        self.by_entity
            .get(entity)
            .into_iter()
            .flatten()
            .map(move |&i| &samples[i])
    }

    /// The samples whose key attribute `name` is exactly `value`, in the dataset's order.
    pub fn with_key(&self, name: &str, value: &str) -> impl Iterator<Item = &'a Sample> + '_ {
        let samples = self.samples;
        let found = self
            .exact
            .get(name)
            .and_then(|m| m.get(value))
            .map_or(&[][..], Vec::as_slice);
        found.iter().map(move |&i| &samples[i])
    }

    /// The samples that can satisfy the first equality of `key` (compared as its attribute's
    /// type), in the dataset's order; every sample when the key has no equality.
    pub fn partition(&self, shape: &KeyLayout, key: &KeyQuery) -> Vec<&'a Sample> {
        let Some((name, value)) = key.equalities.first() else {
            return self.samples.iter().collect();
        };
        let number = match shape.type_of(name) {
            KeyAttributeType::N => canonical_number(value),
            _ => None,
        };
        let found = match number {
            Some(n) => self.numbers.get(name.as_str()).and_then(|m| m.get(&n)),
            // Text, or a number key holding text, which compares as text.
            None => self
                .exact
                .get(name.as_str())
                .and_then(|m| m.get(value.as_str())),
        };
        found
            .into_iter()
            .flatten()
            .map(|&i| &self.samples[i])
            .collect()
    }

    /// The distinct values attribute `name` takes in the samples, sorted.
    pub fn values_of(&self, name: &str) -> impl Iterator<Item = &'a str> + '_ {
        self.values.get(name).into_iter().flatten().copied()
    }

    /// The distinct values of every timestamp attribute of `format` in the samples, sorted.
    pub fn timestamps(&self, format: TimestampFormat) -> impl Iterator<Item = &'a str> + '_ {
        self.timestamps
            .iter()
            .filter(move |(f, _)| *f == format)
            .flat_map(|(_, set)| set.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use monotable_model::KeyAttributeType;

    use super::SampleIndex;
    use crate::generate::Sample;
    use crate::oracle::{self, Bound, KeyLayout, KeyQuery};

    const MODEL: &str = r#"
[table]
name = "Things"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[indexes.GSI1]
partition_key = { name = "GSI1PK" }
sort_key = { name = "GSI1SK", type = "N" }

[entities.Thing]
attributes.id = { type = "string", required = true }
attributes.n = { type = "integer", required = true }
keys.PK = "P#{id}"
keys.SK = "S#{id}"
keys.GSI1PK = "G#{id}"
keys.GSI1SK = "{n}"
"#;

    fn sample(keys: Vec<(&str, String)>) -> Sample {
        Sample {
            entity: "Thing".into(),
            values: Default::default(),
            keys: keys.into_iter().map(|(a, v)| (a.to_string(), v)).collect(),
            item: Default::default(),
        }
    }

    /// Text of up to three of `a`, `b`.
    fn text(rng: &mut fastrand::Rng) -> String {
        (0..rng.usize(0..4))
            .map(|_| if rng.bool() { 'a' } else { 'b' })
            .collect()
    }

    /// A number as DynamoDB may render it: `-3`, `7.0`, `12`.
    fn number(rng: &mut fastrand::Rng) -> String {
        let n = rng.i32(-12..13);
        if rng.bool() {
            format!("{n}.0")
        } else {
            n.to_string()
        }
    }

    fn bound(rng: &mut fastrand::Rng, value: fn(&mut fastrand::Rng) -> String) -> Bound {
        match rng.usize(0..7) {
            0 => Bound::Eq(value(rng)),
            1 => Bound::BeginsWith(value(rng)),
            2 => Bound::Between(value(rng), value(rng)),
            3 => Bound::Lt(value(rng)),
            4 => Bound::Le(value(rng)),
            5 => Bound::Gt(value(rng)),
            _ => Bound::Ge(value(rng)),
        }
    }

    fn shape(index: Option<&str>, pk: &str, sk: &str, ty: KeyAttributeType) -> KeyLayout {
        KeyLayout {
            index: index.map(str::to_string),
            pk: pk.to_string(),
            sk: Some(sk.to_string()),
            sk_type: ty,
            partition: vec![(pk.to_string(), KeyAttributeType::S)],
            sort: vec![(sk.to_string(), ty)],
        }
    }

    /// The indexed oracle (a binary-searched range of a sorted partition, or the partition found
    /// by its value) returns exactly what reading every sample returns, in the same order, over
    /// many random datasets and conditions, text and number sort keys.
    #[test]
    fn the_indexed_oracle_answers_as_the_full_scan() {
        let model = monotable_model::parse(MODEL).expect("model");
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..2_000 {
            let samples: Vec<Sample> = (0..rng.usize(0..30))
                .map(|_| {
                    let mut keys = vec![("PK", if rng.bool() { "P" } else { "Q" }.to_string())];
                    if rng.usize(0..5) > 0 {
                        keys.push(("SK", text(&mut rng)));
                    }
                    if rng.bool() {
                        keys.push(("GSI1PK", if rng.bool() { "G" } else { "H" }.to_string()));
                        keys.push(("GSI1SK", number(&mut rng)));
                    }
                    sample(keys)
                })
                .collect();
            let index = SampleIndex::new(&model, &samples);
            let descending = rng.bool();
            let cases = [
                (
                    shape(None, "PK", "SK", KeyAttributeType::S),
                    if rng.bool() { "P" } else { "Q" },
                    rng.bool()
                        .then(|| ("SK".to_string(), bound(&mut rng, text))),
                ),
                (
                    shape(Some("GSI1"), "GSI1PK", "GSI1SK", KeyAttributeType::N),
                    if rng.bool() { "G" } else { "H" },
                    rng.bool()
                        .then(|| ("GSI1SK".to_string(), bound(&mut rng, number))),
                ),
            ];
            for (shape, partition, sort) in cases {
                let key = KeyQuery {
                    equalities: vec![(shape.pk.clone(), partition.to_string())],
                    sort,
                };
                let at = |found: &[&Sample]| -> Vec<usize> {
                    found
                        .iter()
                        .filter_map(|f| samples.iter().position(|s| std::ptr::eq(s, *f)))
                        .collect()
                };
                let scanned = oracle::query(&samples, &shape, &key, descending);
                let indexed = index.query(&shape, &key, descending);
                assert_eq!(at(&scanned), at(&indexed), "{key:?} over {samples:?}");
                assert_eq!(
                    oracle::partition_size(&samples, &shape, &key),
                    index.partition_size(&shape, &key)
                );
            }
        }
    }
}
