//! More items after the samples: the generator that made them goes on making items of any
//! entity, with fresh identities (unique among every item it made, their primary keys colliding
//! with none of the samples) and the samples' shared values (an `OrderItem` lands in an existing
//! order's partition). What the write checks write and then remove, never a sample.

use std::collections::{BTreeMap, BTreeSet};

use monotable_model::{EntityDecl, Model};

use super::{Dataset, Generator, PARTITIONS, Role, Sample, plan};
use crate::values::SampleValue;

/// Attempts at an item whose primary key is not taken yet.
const ATTEMPTS: usize = 16;

/// The generator after the samples, making more items.
pub struct Fresh<'m> {
    g: Generator<'m>,
    /// Primary keys taken: the samples', and every item made since.
    primary: BTreeSet<(String, String)>,
    /// Items made so far: the `n` of the next one.
    made: usize,
}

impl<'m> Fresh<'m> {
    pub(super) fn new(g: Generator<'m>, primary: BTreeSet<(String, String)>) -> Self {
        Fresh {
            g,
            primary,
            made: 0,
        }
    }

    /// A generator of items none of `data` collides with: not on a primary key, not on an
    /// identity or unique value of the same entity.
    pub fn for_table(model: &'m Model, seed: u64, data: &Dataset) -> Self {
        let (_, mut fresh) = super::generate_with_fresh(model, seed ^ 0x0f7e_5ba7_c4e5_0001);
        for s in &data.samples {
            let key =
                |name: Option<&String>| name.and_then(|n| s.key(n)).unwrap_or_default().to_string();
            let pk = key(Some(&model.table.partition_key.name));
            let sk = key(model.table.sort_key.as_ref().map(|k| &k.name));
            fresh.primary.insert((pk, sk));
            // Its values are taken too: a fresh identity or unique value is none of them.
            for (name, value) in &s.values {
                let slot = (s.entity.clone(), name.clone());
                fresh.g.used.entry(slot).or_default().insert(value.clone());
            }
        }
        fresh
    }

    /// The model it generates for.
    pub fn model(&self) -> &'m Model {
        self.g.model
    }

    /// A new item of `entity`: fresh identity values, a primary key no other item has; in a
    /// partition of the samples when the entity lives in one. `None` when the entity's keys
    /// cannot be rendered or no free key was found.
    pub fn item(&mut self, entity: &str) -> Option<Sample> {
        let decl = self.g.model.entity(entity)?;
        let p = plan(self.g.model, decl);
        for _ in 0..ATTEMPTS {
            let i = self.g.rng.usize(0..PARTITIONS);
            let mut tuple = BTreeMap::new();
            for var in &p.partition {
                if let Some(attr) = decl.attribute(var) {
                    tuple.insert(var.clone(), self.g.partition_value(decl, attr, i));
                }
            }
            // Far from the samples' `n`, which shapes boolean flags and TTLs alike.
            let n = 1000 + self.made;
            self.made += 1;
            let mut out = Dataset::default();
            self.g.item(&p, &tuple, n, &mut out, &mut self.primary);
            if let Some(sample) = out.samples.pop() {
                return Some(sample);
            }
        }
        None
    }

    /// A value of `attribute` of `entity` none of `avoid` is (its text), in the attribute's
    /// type and bounds: another enum value, another number, another instant in its format.
    pub fn value(&mut self, entity: &str, attribute: &str, avoid: &[&str]) -> Option<SampleValue> {
        let decl = self.g.model.entity(entity)?;
        let attr = decl.attribute(attribute)?;
        let instant = crate::values::sample_instant(&mut self.g.rng);
        for k in 0..ATTEMPTS {
            let v = self.g.typed(
                decl,
                attr,
                instant + i64::try_from(k).unwrap_or(0) * 86_400_000,
                k,
            );
            if !avoid.contains(&v.text.as_str()) {
                return Some(v);
            }
        }
        // The type holds few values (a boolean, a short enum): any other one.
        match attr.ty {
            monotable_model::AttributeType::Boolean => {
                let flip = avoid.first().is_some_and(|a| *a == "true");
                Some(SampleValue::b(!flip))
            }
            monotable_model::AttributeType::Enum => attr
                .values
                .iter()
                .find(|v| !avoid.contains(&v.as_str()))
                .map(SampleValue::s),
            _ => None,
        }
    }
}

/// The attributes that identify an item of `entity`: the variables of its sort key template
/// (of its partition key when the sort key has none), and those of its `unique` constraints.
/// Every other key input may be shared with related items (an order line's `orderId`).
pub fn identity_attributes(model: &Model, entity: &EntityDecl) -> Vec<String> {
    plan(model, entity)
        .roles
        .into_iter()
        .filter(|(_, role)| *role == Role::Identity)
        .map(|(name, _)| name)
        .collect()
}
