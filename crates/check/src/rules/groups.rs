//! Entities grouped by the keys they can share, for MT005: one group per set of entities linked
//! by possible collisions, found without comparing every pair. Entities whose keys have equal
//! shapes are one bucket and need no comparison among themselves; buckets are compared through
//! the prefix index, and a pair already in one group is never compared again. So 2,000 entities
//! on one key template cost one bucket, not two million comparisons.

use std::collections::{BTreeMap, HashMap};

use monotable_model::EntityDecl;

use super::lookup::{KeyShapes, PrefixIndex, Writers, sk_prefix};
use crate::shape::Shape;

/// Disjoint sets over `0..n`, with path halving.
pub(crate) struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    pub(crate) fn new(n: usize) -> Self {
        Self {
            parent: (0..n).collect(),
        }
    }

    pub(crate) fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    pub(crate) fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // The smaller root stays: groups keep the first member's number.
            let (keep, join) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent[join] = keep;
        }
    }
}

/// Entities whose keys have the same shapes, and the namespaces among them.
#[derive(Debug)]
pub(crate) struct Bucket {
    /// Indexes into [`Writers::shapes`], in model order.
    pub(crate) members: Vec<usize>,
    /// The one `key_namespace` every member shares, if they all share one.
    shared: Option<String>,
    /// Two members can collide: they do not all share one namespace.
    collides: bool,
}

/// The entities of `writers` bucketed by the shapes of their keys, in order of first member.
fn buckets(writers: &Writers<'_>, namespaces: bool) -> Vec<Bucket> {
    let mut by_shape: HashMap<(&Shape, Option<&Shape>), usize> = HashMap::new();
    let mut out: Vec<Bucket> = Vec::new();
    for (i, s) in writers.shapes.iter().enumerate() {
        let at = *by_shape.entry((&s.pk, s.sk.as_ref())).or_insert_with(|| {
            out.push(Bucket {
                members: Vec::new(),
                shared: None,
                collides: false,
            });
            out.len() - 1
        });
        let ns = namespace(s.entity, namespaces);
        let bucket = &mut out[at];
        if bucket.members.is_empty() {
            bucket.shared = ns.map(str::to_string);
        } else if ns.is_none() || bucket.shared.as_deref() != ns {
            bucket.shared = None;
            bucket.collides = true;
        }
        bucket.members.push(i);
    }
    out
}

fn namespace(e: &EntityDecl, namespaces: bool) -> Option<&str> {
    if namespaces {
        e.key_namespace.as_deref()
    } else {
        None
    }
}

/// Whether a member of `a` and a member of `b`, whose keys overlap, are apart by namespace
/// only: every member of both shares one namespace.
fn same_namespace(a: &Bucket, b: &Bucket) -> bool {
    a.shared.is_some() && a.shared == b.shared
}

/// Groups of entities that can be written with the same key, members in model order, groups in
/// order of their first member. With `namespaces`, two entities sharing a `key_namespace` are
/// not a collision.
pub(crate) fn collision_groups(writers: &Writers<'_>, namespaces: bool) -> Groups {
    let buckets = buckets(writers, namespaces);
    let reps: Vec<&KeyShapes<'_>> = buckets
        .iter()
        .map(|b| &writers.shapes[b.members[0]])
        .collect();
    let mut by_pk: BTreeMap<String, Vec<(String, usize)>> = BTreeMap::new();
    for (i, s) in reps.iter().enumerate() {
        let pk = s.keys.pk.template.literal_prefix().to_string();
        by_pk.entry(pk).or_default().push((sk_prefix(s.keys), i));
    }
    let index = PrefixIndex::new(
        by_pk
            .into_iter()
            .map(|(pk, members)| (pk, PrefixIndex::new(members))),
    );
    let mut sets = UnionFind::new(buckets.len());
    let mut linked: Vec<bool> = buckets.iter().map(|b| b.collides).collect();
    for (i, rep) in reps.iter().enumerate() {
        let sk = sk_prefix(rep.keys);
        let candidates = index
            .compatible(rep.keys.pk.template.literal_prefix())
            .flat_map(|inner| inner.compatible(&sk))
            .copied()
            .filter(|&j| j > i);
        for j in candidates {
            if sets.find(i) == sets.find(j) || same_namespace(&buckets[i], &buckets[j]) {
                continue;
            }
            if rep.overlaps(reps[j]) {
                sets.union(i, j);
                linked[i] = true;
                linked[j] = true;
            }
        }
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut group_of: HashMap<usize, usize> = HashMap::new();
    for (i, bucket) in buckets.iter().enumerate() {
        if !linked[i] {
            continue;
        }
        let root = sets.find(i);
        let at = *group_of.entry(root).or_insert_with(|| {
            groups.push(Group::default());
            groups.len() - 1
        });
        groups[at].members.extend(&bucket.members);
        groups[at].buckets.push(i);
    }
    for g in &mut groups {
        g.members.sort_unstable();
    }
    groups.sort_by_key(|g| g.members[0]);
    Groups { buckets, groups }
}

/// One group of entities that can share keys.
#[derive(Debug, Default)]
pub(crate) struct Group {
    /// Indexes into [`Writers::shapes`], in model order; at least two.
    pub(crate) members: Vec<usize>,
    /// Indexes into [`Groups::buckets`].
    pub(crate) buckets: Vec<usize>,
}

/// The buckets of one index (or the table) and the groups made of them.
#[derive(Debug)]
pub(crate) struct Groups {
    pub(crate) buckets: Vec<Bucket>,
    pub(crate) groups: Vec<Group>,
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{UnionFind, collision_groups};
    use crate::rules::lookup::Writers;

    #[test]
    fn union_find_joins_and_keeps_the_smallest_root() {
        let mut u = UnionFind::new(6);
        u.union(4, 2);
        u.union(2, 5);
        u.union(0, 1);
        assert_eq!(u.find(5), 2);
        assert_eq!(u.find(4), 2);
        assert_eq!(u.find(1), 0);
        assert_ne!(u.find(3), u.find(0));
        u.union(5, 1);
        assert_eq!(u.find(4), 0);
    }

    const PKS: [&str; 4] = ["A#{id}", "A#{n:03}", "{id}", "B#{id}"];
    const SKS: [&str; 7] = [
        "META", "{sk}", "X#{n:03}", "{kind}", "X#{sk}", "{flag}", "X#1",
    ];
    const NAMESPACES: [Option<&str>; 3] = [None, Some("a"), Some("b")];

    fn model(entities: &[(usize, usize, usize)]) -> monotable_model::Model {
        let mut source = String::from(
            "[table]\nname = \"Things\"\npartition_key = { name = \"PK\" }\nsort_key = { name = \"SK\" }\n",
        );
        for (k, &(pk, sk, ns)) in entities.iter().enumerate() {
            source.push_str(&format!(
                "\n[entities.E{k:02}]\nattributes.id = {{ type = \"string\", required = true }}\nattributes.sk = {{ type = \"string\", required = true }}\nattributes.n = {{ type = \"integer\", required = true }}\nattributes.kind = {{ type = \"enum\", values = [\"META\", \"X\"], required = true }}\nattributes.flag = {{ type = \"boolean\", required = true }}\nkeys.PK = \"{}\"\nkeys.SK = \"{}\"\n",
                PKS[pk], SKS[sk]
            ));
            if let Some(ns) = NAMESPACES[ns] {
                source.push_str(&format!("key_namespace = \"{ns}\"\n"));
            }
        }
        // A namespace named by one entity only is refused: name each by two more.
        for ns in ["a1", "a2", "b1", "b2"] {
            source.push_str(&format!(
                "\n[entities.Z{ns}]\nattributes.id = {{ type = \"string\", required = true }}\nkeys.PK = \"Z{ns}#{{id}}\"\nkeys.SK = \"Z\"\nkey_namespace = \"{}\"\n",
                &ns[..1]
            ));
        }
        monotable_model::parse(&source).expect("valid model")
    }

    proptest! {
        /// The groups are exactly the connected parts of the graph of every colliding pair,
        /// compared one pair at a time.
        #[test]
        fn groups_are_the_components_of_all_colliding_pairs(
            entities in prop::collection::vec((0..PKS.len(), 0..SKS.len(), 0..NAMESPACES.len()), 2..9)
        ) {
            let model = model(&entities);
            let writers = Writers::new(&model, None);
            let shapes = &writers.shapes;
            let mut sets = UnionFind::new(shapes.len());
            let mut linked = vec![false; shapes.len()];
            for i in 0..shapes.len() {
                for j in i + 1..shapes.len() {
                    let (a, b) = (shapes[i].entity, shapes[j].entity);
                    let same = a.key_namespace.is_some() && a.key_namespace == b.key_namespace;
                    if !same && shapes[i].overlaps(&shapes[j]) {
                        sets.union(i, j);
                        linked[i] = true;
                        linked[j] = true;
                    }
                }
            }
            let mut expected: Vec<Vec<usize>> = Vec::new();
            for i in (0..shapes.len()).filter(|&i| linked[i]) {
                let root = sets.find(i);
                match expected.iter_mut().find(|g| sets.find(g[0]) == root) {
                    Some(g) => g.push(i),
                    None => expected.push(vec![i]),
                }
            }
            let got: Vec<Vec<usize>> = collision_groups(&writers, true)
                .groups
                .into_iter()
                .map(|g| g.members)
                .collect();
            prop_assert_eq!(got, expected);
        }
    }
}
