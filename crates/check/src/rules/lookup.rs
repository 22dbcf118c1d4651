//! Lookups that keep the rules near-linear in the size of the model: entities by the literal
//! prefix of their keys, patterns by the entities they return, relations by the related entity,
//! and the shapes of every key an entity writes, built once.

use std::collections::{BTreeMap, HashMap, HashSet};

use monotable_model::{
    EntityDecl, Index, KeyTemplates, Model, Operation, Pattern, Relation, Write,
};

use super::entity_shape;
use crate::shape::Shape;

/// Values keyed by a string, found by every key compatible with a probe: keys that are a
/// prefix of it, and keys it is a prefix of. Two templates can only render the same key when
/// their literal prefixes are compatible.
#[derive(Debug)]
pub(crate) struct PrefixIndex<T> {
    /// Sorted by key, one entry per distinct key.
    entries: Vec<(String, Vec<T>)>,
    /// The distinct key lengths in bytes: the only prefixes of a probe worth looking up.
    lengths: Vec<usize>,
}

impl<T> PrefixIndex<T> {
    pub(crate) fn new(items: impl IntoIterator<Item = (String, T)>) -> Self {
        let mut grouped: BTreeMap<String, Vec<T>> = BTreeMap::new();
        for (key, value) in items {
            grouped.entry(key).or_default().push(value);
        }
        let mut lengths: Vec<usize> = grouped.keys().map(String::len).collect();
        lengths.sort_unstable();
        lengths.dedup();
        Self {
            entries: grouped.into_iter().collect(),
            lengths,
        }
    }

    fn exact(&self, key: &str) -> Option<&[T]> {
        self.entries
            .binary_search_by(|(k, _)| k.as_str().cmp(key))
            .ok()
            .map(|at| self.entries[at].1.as_slice())
    }

    /// Every value whose key is a prefix of `probe` or starts with it.
    pub(crate) fn compatible<'a>(&'a self, probe: &'a str) -> impl Iterator<Item = &'a T> + 'a {
        let shorter = self
            .lengths
            .iter()
            .take_while(move |&&l| l < probe.len())
            .filter_map(move |&l| probe.get(..l))
            .filter_map(|p| self.exact(p))
            .flatten();
        let start = self.entries.partition_point(|(k, _)| k.as_str() < probe);
        let longer = self.entries[start..]
            .iter()
            .take_while(move |(k, _)| k.starts_with(probe))
            .flat_map(|(_, v)| v);
        shorter.chain(longer)
    }
}

/// The shapes of one entity's keys on one index (or the table).
#[derive(Debug)]
pub(crate) struct KeyShapes<'m> {
    pub(crate) entity: &'m EntityDecl,
    pub(crate) keys: &'m KeyTemplates,
    pub(crate) pk: Shape,
    pub(crate) sk: Option<Shape>,
}

impl KeyShapes<'_> {
    /// Whether the two can be written with the same key.
    pub(crate) fn overlaps(&self, other: &KeyShapes<'_>) -> bool {
        self.pk.overlaps(&other.pk)
            && match (&self.sk, &other.sk) {
                (Some(a), Some(b)) => a.overlaps(b),
                _ => true,
            }
    }
}

/// The entities in one index (or the table), their key shapes, and a two-level prefix index:
/// by partition key prefix, then by sort key prefix.
pub(crate) struct Writers<'m> {
    pub(crate) shapes: Vec<KeyShapes<'m>>,
    by_prefix: PrefixIndex<PrefixIndex<usize>>,
}

pub(crate) fn sk_prefix(keys: &KeyTemplates) -> String {
    keys.sk
        .as_ref()
        .map_or(String::new(), |k| k.template.literal_prefix().to_string())
}

impl<'m> Writers<'m> {
    pub(crate) fn new(model: &'m Model, index: Option<&str>) -> Self {
        let shapes: Vec<KeyShapes<'m>> = model
            .entities
            .iter()
            .filter_map(|e| e.key(index).map(|k| (e, k)))
            .map(|(entity, keys)| KeyShapes {
                entity,
                keys,
                pk: entity_shape(entity, &keys.pk.template),
                sk: keys.sk.as_ref().map(|s| entity_shape(entity, &s.template)),
            })
            .collect();
        let mut groups: BTreeMap<String, Vec<(String, usize)>> = BTreeMap::new();
        for (i, s) in shapes.iter().enumerate() {
            let pk = s.keys.pk.template.literal_prefix().to_string();
            groups.entry(pk).or_default().push((sk_prefix(s.keys), i));
        }
        let by_prefix = PrefixIndex::new(
            groups
                .into_iter()
                .map(|(pk, members)| (pk, PrefixIndex::new(members))),
        );
        Self { shapes, by_prefix }
    }

    /// Entities whose key prefixes are compatible with these partition and sort key prefixes.
    pub(crate) fn candidates<'a>(
        &'a self,
        pk: &'a str,
        sk: &'a str,
    ) -> impl Iterator<Item = &'a KeyShapes<'m>> + 'a {
        self.by_prefix
            .compatible(pk)
            .flat_map(move |inner| inner.compatible(sk))
            .map(|&i| &self.shapes[i])
    }
}

/// Whether a transaction's entry writes its entity: a ConditionCheck action only reads it (an
/// entry of alternatives writes when one of them does; the older entity-only form writes).
fn writes(model: &Model, w: &Write) -> bool {
    w.patterns.is_empty()
        || w.patterns.iter().any(|n| {
            model
                .pattern(n)
                .is_some_and(|p| p.operation != Operation::ConditionCheck)
        })
}

/// Everything the rules look up repeatedly, built once per check.
pub(crate) struct Lookup<'m> {
    /// The patterns returning each entity, in model order.
    pub(crate) returning: HashMap<&'m str, Vec<&'m Pattern>>,
    /// The relations naming each related entity, with their owner.
    pub(crate) owners: HashMap<&'m str, Vec<(&'m EntityDecl, &'m Relation)>>,
    /// Each TransactWrite pattern (by name) with each entity it writes (a ConditionCheck action
    /// writes nothing): a transaction's writes are looked up, never paired.
    transaction_writes: HashSet<(&'m str, &'m str)>,
    /// The TransactWrite patterns writing (or checking) each entity, in model order.
    transacting: HashMap<&'m str, Vec<&'m Pattern>>,
    /// The entities in each native index (they declare every key attribute), by index name.
    members: HashMap<&'m str, Vec<&'m EntityDecl>>,
    /// Writers of the table.
    table: Writers<'m>,
    /// Writers of each declared index, by name.
    indexes: HashMap<&'m str, Writers<'m>>,
}

impl<'m> Lookup<'m> {
    pub(crate) fn new(model: &'m Model) -> Self {
        let mut returning: HashMap<&str, Vec<&Pattern>> = HashMap::new();
        let mut transaction_writes = HashSet::new();
        let mut transacting: HashMap<&str, Vec<&Pattern>> = HashMap::new();
        for p in &model.patterns {
            for r in &p.returns {
                let list = returning.entry(r.name.as_str()).or_default();
                if !list.last().is_some_and(|q| std::ptr::eq(*q, p)) {
                    list.push(p);
                }
            }
            if p.operation == Operation::TransactWrite {
                for a in &p.writes {
                    let list = transacting.entry(a.entity.as_str()).or_default();
                    if !list.last().is_some_and(|q| std::ptr::eq(*q, p)) {
                        list.push(p);
                    }
                    if writes(model, a) {
                        transaction_writes.insert((p.name.as_str(), a.entity.as_str()));
                    }
                }
            }
        }
        let mut owners: HashMap<&str, Vec<(&EntityDecl, &Relation)>> = HashMap::new();
        for e in &model.entities {
            for r in &e.relations {
                owners.entry(r.entity.as_str()).or_default().push((e, r));
            }
        }
        let indexes = model
            .indexes
            .iter()
            .map(|i| (i.name.as_str(), Writers::new(model, Some(&i.name))))
            .collect();
        Self {
            returning,
            owners,
            transaction_writes,
            transacting,
            members: native_members(model),
            table: Writers::new(model, None),
            indexes,
        }
    }

    /// Whether some TransactWrite writes both entities (an entity is written with itself by
    /// every TransactWrite writing it).
    pub(crate) fn written_together(&self, a: &str, b: &str) -> bool {
        let (of_a, of_b) = (self.transacting.get(a), self.transacting.get(b));
        let (Some(of_a), Some(of_b)) = (of_a, of_b) else {
            return false;
        };
        let fewer = if of_a.len() <= of_b.len() { of_a } else { of_b };
        fewer.iter().any(|p| {
            self.transaction_writes.contains(&(p.name.as_str(), a))
                && self.transaction_writes.contains(&(p.name.as_str(), b))
        })
    }

    /// The patterns that return or write `entity`: every call that reads or writes its items.
    pub(crate) fn involving(&self, entity: &str) -> Vec<&'m Pattern> {
        let mut out: Vec<&Pattern> = self.returning(entity).to_vec();
        out.extend(self.transacting.get(entity).into_iter().flatten().copied());
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out.dedup_by(|a, b| std::ptr::eq(*a, *b));
        out
    }

    /// The entities in native index `index`, in model order; none for a synthetic index.
    pub(crate) fn members(&self, index: &str) -> &[&'m EntityDecl] {
        self.members.get(index).map_or(&[], Vec::as_slice)
    }

    /// The patterns returning `entity`.
    pub(crate) fn returning(&self, entity: &str) -> &[&'m Pattern] {
        self.returning.get(entity).map_or(&[], Vec::as_slice)
    }

    /// The writers of the table (`None`) or a declared index.
    pub(crate) fn writers(&self, index: Option<&str>) -> Option<&Writers<'m>> {
        match index {
            None => Some(&self.table),
            Some(name) => self.indexes.get(name),
        }
    }
}

/// The entities each native index holds: those declaring every key attribute.
fn native_members(model: &Model) -> HashMap<&str, Vec<&EntityDecl>> {
    model
        .indexes
        .iter()
        .filter(|i| i.native)
        .map(|i: &Index| {
            let members = model.entities.iter().filter(|e| i.native_member(e));
            (i.name.as_str(), members.collect())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::PrefixIndex;

    #[test]
    fn compatible_keys_are_prefixes_either_way() {
        let index = PrefixIndex::new(
            ["", "USER#", "USER#a", "USERS", "ORDER#", "USER#"]
                .into_iter()
                .enumerate()
                .map(|(i, k)| (k.to_string(), i)),
        );
        let mut got: Vec<usize> = index.compatible("USER#").copied().collect();
        got.sort_unstable();
        assert_eq!(got, [0, 1, 2, 5]);
        let mut got: Vec<usize> = index.compatible("").copied().collect();
        got.sort_unstable();
        assert_eq!(got, [0, 1, 2, 3, 4, 5]);
        let mut got: Vec<usize> = index.compatible("ORDER#9").copied().collect();
        got.sort_unstable();
        assert_eq!(got, [0, 4]);
    }
}
