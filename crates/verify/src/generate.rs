//! Sample data from a model: a few items per collection over several partitions, typed values with
//! boundary cases, related entities sharing their parent's key values, keys rendered by the store.

use std::collections::{BTreeMap, BTreeSet};

use monotable_access::items::{self, Item};
use monotable_model::{Attribute, AttributeType, EntityDecl, Model, Segment};

use crate::report::Source;
use crate::values::{self, SampleValue};

mod fresh;

pub use fresh::{Fresh, identity_attributes};

/// Items generated for an entity without a partition of its own (its id is its partition key).
const ROOT_ITEMS: usize = 8;
/// Partitions generated for an entity that lives inside another's collection.
const PARTITIONS: usize = 3;

/// One generated item.
#[derive(Debug, Clone)]
pub struct Sample {
    /// Entity type.
    pub entity: String,
    /// Scalar attribute values as key templates see them (numbers as written, booleans as
    /// `true`/`false`); lists, maps and sets are left out.
    pub values: BTreeMap<String, String>,
    /// Key attributes the entity writes for this item (table and indexes), as rendered.
    pub keys: BTreeMap<String, String>,
    /// The item as loaded into the table (keys, attributes and `entityType`), or as read from it.
    pub item: Item,
}

impl Sample {
    /// The rendered value of key attribute `name`, if the item writes it.
    pub fn key(&self, name: &str) -> Option<&str> {
        self.keys.get(name).map(String::as_str)
    }
}

/// The generated data, or the items read from a table ([`Dataset::from_items`]).
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    /// Items, unique by primary key.
    pub samples: Vec<Sample>,
    /// Items that could not be generated, or were skipped when read, and why.
    pub warnings: Vec<String>,
    /// Where the items come from.
    pub source: Source,
}

impl Dataset {
    /// Number of samples of `entity`.
    pub fn count(&self, entity: &str) -> usize {
        self.samples.iter().filter(|s| s.entity == entity).count()
    }

    /// The number of samples of every entity that has some.
    pub fn counts(&self) -> BTreeMap<&str, usize> {
        let mut out = BTreeMap::new();
        for s in &self.samples {
            *out.entry(s.entity.as_str()).or_default() += 1;
        }
        out
    }
}

/// How an attribute is filled for one entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Identifies the item: fresh, unique values.
    Identity,
    /// The partition it shares with siblings: one value per partition.
    Partition,
    /// A boolean gating a sparse key.
    Condition,
    /// Used in a key template, or a required native key attribute: a few hot values so
    /// collections have several items.
    Key,
    /// An optional native key attribute: a hot value on most items, absent on the others, so
    /// the index holds some of the entity's items and not others.
    SparseKey,
    /// Anything else.
    Plain,
}

struct Plan<'m> {
    entity: &'m EntityDecl,
    roles: BTreeMap<String, Role>,
    partition: Vec<String>,
}

fn vars_of(entity: &EntityDecl, attribute: &str) -> Vec<String> {
    entity
        .key_field(attribute)
        .map(|k| k.template.variables().map(str::to_string).collect())
        .unwrap_or_default()
}

fn plan<'m>(model: &Model, entity: &'m EntityDecl) -> Plan<'m> {
    let pk_vars = vars_of(entity, &model.table.partition_key.name);
    let sk_vars: Vec<String> = model
        .table
        .sort_key
        .as_ref()
        .map(|k| vars_of(entity, &k.name))
        .unwrap_or_default()
        .into_iter()
        .filter(|v| !pk_vars.contains(v))
        .collect();
    let mut roles = BTreeMap::new();
    for key in &entity.keys {
        for var in key.template.variables() {
            roles.insert(var.to_string(), Role::Key);
        }
    }
    for name in native_key_attributes(model, entity) {
        let required = entity.attribute(name).is_some_and(|a| a.required);
        let role = if required { Role::Key } else { Role::SparseKey };
        roles.entry(name.to_string()).or_insert(role);
    }
    let partition: Vec<String> = if sk_vars.is_empty() {
        Vec::new()
    } else {
        pk_vars.clone()
    };
    for var in &partition {
        roles.insert(var.clone(), Role::Partition);
    }
    let identity = if sk_vars.is_empty() { pk_vars } else { sk_vars };
    for var in identity {
        roles.insert(var, Role::Identity);
    }
    for unique in &entity.unique {
        for a in &unique.attributes {
            if !partition.contains(a) {
                roles.insert(a.clone(), Role::Identity);
            }
        }
    }
    for key in &entity.keys {
        if let Some(c) = &key.condition {
            roles.insert(c.clone(), Role::Condition);
        }
    }
    let partition = partition
        .into_iter()
        .filter(|v| roles.get(v) == Some(&Role::Partition))
        .collect();
    Plan {
        entity,
        roles,
        partition,
    }
}

/// The key attributes of the native indexes `entity` can be in (it declares every one of them),
/// each once: ordinary attributes of its items, which the index reads as they are.
pub(crate) fn native_key_attributes<'m>(model: &'m Model, entity: &EntityDecl) -> Vec<&'m str> {
    let mut out: Vec<&str> = Vec::new();
    for index in model.indexes.iter().filter(|i| i.native_member(entity)) {
        for key in index.key_attributes() {
            if !out.contains(&key.name.as_str()) {
                out.push(&key.name);
            }
        }
    }
    out
}

/// Entities ordered so that one minting the ids another refers to (an `Order` minting `orderId`
/// for its `OrderItem`s) comes first: at each step the first entity (in model order) whose
/// every referred id is minted by an entity already placed, or by none; the first left when a
/// cycle leaves none. Each entity waits on a count of ids, so ordering is near-linear.
fn ordered<'m>(plans: Vec<Plan<'m>>) -> Vec<Plan<'m>> {
    let mints = |p: &Plan<'_>| -> Vec<String> {
        p.roles
            .iter()
            .filter(|(_, r)| **r == Role::Identity)
            .map(|(n, _)| n.clone())
            .collect()
    };
    let mut minters: BTreeMap<String, usize> = BTreeMap::new();
    for p in &plans {
        for n in mints(p) {
            *minters.entry(n).or_default() += 1;
        }
    }
    let mut waiting: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut need: Vec<usize> = vec![0; plans.len()];
    for (i, p) in plans.iter().enumerate() {
        for (name, role) in &p.roles {
            if *role != Role::Identity && minters.contains_key(name) {
                waiting.entry(name.as_str()).or_default().push(i);
                need[i] += 1;
            }
        }
    }
    let mut ready: BTreeSet<usize> = (0..plans.len()).filter(|&i| need[i] == 0).collect();
    let mut left: BTreeSet<usize> = (0..plans.len()).collect();
    let mut minted: BTreeSet<String> = BTreeSet::new();
    let mut order = Vec::with_capacity(plans.len());
    while let Some(&first) = left.first() {
        let at = ready.first().copied().unwrap_or(first);
        ready.remove(&at);
        left.remove(&at);
        order.push(at);
        for n in mints(&plans[at]) {
            if !minted.insert(n.clone()) {
                continue;
            }
            for &q in waiting.get(n.as_str()).into_iter().flatten() {
                need[q] -= 1;
                if need[q] == 0 && left.contains(&q) {
                    ready.insert(q);
                }
            }
        }
    }
    let mut slots: Vec<Option<Plan<'m>>> = plans.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

struct Generator<'m> {
    model: &'m Model,
    rng: fastrand::Rng,
    /// Identity values minted so far, by attribute name: what other entities refer to.
    minted: BTreeMap<String, Vec<SampleValue>>,
    /// A few shared values per attribute name for key attributes nobody mints.
    hot: BTreeMap<String, Vec<SampleValue>>,
    used: BTreeMap<(String, String), BTreeSet<String>>,
}

/// Generates sample data for every entity of `model`, reproducibly from `seed`.
pub fn generate(model: &Model, seed: u64) -> Dataset {
    generate_with_fresh(model, seed).0
}

/// [`generate`], and the generator that made the data, to make more items of the same kind
/// that collide with none of them (what the write checks write: [`Fresh::item`]).
pub fn generate_with_fresh(model: &Model, seed: u64) -> (Dataset, Fresh<'_>) {
    let mut g = Generator {
        model,
        rng: fastrand::Rng::with_seed(seed),
        minted: BTreeMap::new(),
        hot: BTreeMap::new(),
        used: BTreeMap::new(),
    };
    let plans = ordered(model.entities.iter().map(|e| plan(model, e)).collect());
    let mut data = Dataset::default();
    let mut primary: BTreeSet<(String, String)> = BTreeSet::new();
    for p in &plans {
        let mut partitions: Vec<BTreeMap<String, SampleValue>> = Vec::new();
        if p.partition.is_empty() {
            partitions.push(BTreeMap::new());
        } else {
            for i in 0..PARTITIONS {
                let mut tuple = BTreeMap::new();
                for var in &p.partition {
                    if let Some(attr) = p.entity.attribute(var) {
                        let v = g.partition_value(p.entity, attr, i);
                        tuple.insert(var.clone(), v);
                    }
                }
                partitions.push(tuple);
            }
        }
        for (i, tuple) in partitions.iter().enumerate() {
            let count = if p.partition.is_empty() {
                ROOT_ITEMS
            } else if i == 0 {
                3
            } else {
                g.rng.usize(1..=4)
            };
            for n in 0..count {
                g.item(p, tuple, n, &mut data, &mut primary);
            }
        }
    }
    (data, Fresh::new(g, primary))
}

impl Generator<'_> {
    fn pad(entity: &EntityDecl, name: &str) -> Option<usize> {
        entity
            .keys
            .iter()
            .flat_map(|k| k.template.segments())
            .filter_map(|s| match s {
                Segment::Var { name: n, pad } if n == name => *pad,
                _ => None,
            })
            .min()
    }

    /// The first whole number `attr` can hold that is not `used`: below its padding's width
    /// (`{lineNo:03}`: under 1000), its `cardinality` and a million.
    fn free_number(
        entity: &EntityDecl,
        attr: &Attribute,
        used: &BTreeSet<String>,
    ) -> Option<SampleValue> {
        let pad = Self::pad(entity, &attr.name)
            .and_then(|p| u32::try_from(p).ok())
            .and_then(|p| 10u64.checked_pow(p));
        let bound = [pad, attr.cardinality, Some(1_000_000)]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(1_000_000);
        (0..bound)
            .map(|x| SampleValue::n(x.to_string()))
            .find(|v| !used.contains(&v.text))
    }

    /// How many identity values were minted for attributes named as `attr`.
    fn minted_len(&self, attr: &Attribute) -> usize {
        self.minted.get(&attr.name).map_or(0, Vec::len)
    }

    /// The `i`-th (modulo their number) identity value minted for attributes named as `attr`,
    /// or the next one `attr` can hold (another entity's `status` may have other values); `None`
    /// when none near it can.
    fn minted_at(&self, attr: &Attribute, i: usize) -> Option<SampleValue> {
        use aws_sdk_dynamodb::types::AttributeValue as V;
        let fits = |v: &SampleValue| match attr.ty {
            AttributeType::Enum => attr.values.contains(&v.text),
            AttributeType::Boolean => matches!(v.av, V::Bool(_)),
            AttributeType::Integer
            | AttributeType::Decimal
            | AttributeType::Number
            | AttributeType::Float => matches!(v.av, V::N(_)),
            // Another entity's `day` may be written in another format.
            AttributeType::Timestamp => values::fits_format(&v.text, attr.timestamp_format()),
            _ => true,
        };
        let pool = self.minted.get(&attr.name)?;
        let len = pool.len();
        (0..len.min(16))
            .map(|d| &pool[(i + d) % len])
            .find(|v| fits(v))
            .cloned()
    }

    /// A partition value: the i-th of the minted pool (shuffled once), else a hot value.
    fn partition_value(&mut self, entity: &EntityDecl, attr: &Attribute, i: usize) -> SampleValue {
        let len = self.minted_len(attr);
        if len > 0 {
            let start = self.rng.usize(0..len);
            if let Some(v) = self.minted_at(attr, start + i * 2) {
                return v;
            }
        }
        let hot = self.hot_values(entity, attr);
        hot.get(i % hot.len().max(1))
            .cloned()
            .unwrap_or_else(|| SampleValue::s("x"))
    }

    fn hot_values(&mut self, entity: &EntityDecl, attr: &Attribute) -> Vec<SampleValue> {
        // Entities share hot values by attribute name (so their items meet in one partition),
        // but an enum only takes its own values: another entity's `status` may have others.
        let cache = match attr.ty {
            AttributeType::Enum => format!("{}|{}", attr.name, attr.values.join("|")),
            _ => attr.name.clone(),
        };
        if let Some(v) = self.hot.get(&cache) {
            return v.clone();
        }
        let pad = Self::pad(entity, &attr.name);
        let values: Vec<SampleValue> = match attr.ty {
            AttributeType::Enum if !attr.values.is_empty() => {
                attr.values.iter().take(3).map(SampleValue::s).collect()
            }
            AttributeType::Integer => values::integer_candidates(attr, pad)
                .into_iter()
                .take(3)
                .map(|n| SampleValue::n(n.to_string()))
                .collect(),
            AttributeType::Decimal => values::DECIMALS
                .iter()
                .take(3)
                .map(|d| SampleValue::n(*d))
                .collect(),
            AttributeType::Number | AttributeType::Float => values::FLOATS
                .iter()
                .take(3)
                .map(|f| SampleValue::n(*f))
                .collect(),
            AttributeType::Boolean => vec![SampleValue::b(true), SampleValue::b(false)],
            AttributeType::Timestamp => (0..3)
                .map(|_| {
                    let instant = values::sample_instant(&mut self.rng);
                    values::format_instant(instant, attr.timestamp_format())
                })
                .collect(),
            _ => (0..3)
                .map(|_| {
                    SampleValue::s(values::random_string(
                        &mut self.rng,
                        &attr.name,
                        attr.max_length,
                    ))
                })
                .collect(),
        };
        self.hot.insert(cache, values.clone());
        values
    }

    /// A value for a key attribute: mostly one of the two first hot (or minted) values, so
    /// collections hold several items; sometimes another.
    fn key_value(&mut self, entity: &EntityDecl, attr: &Attribute) -> SampleValue {
        let pick = |g: &mut Self, len: usize| {
            let hot = len.min(2);
            if g.rng.u8(0..4) == 0 {
                g.rng.usize(0..len)
            } else {
                g.rng.usize(0..hot)
            }
        };
        let len = self.minted_len(attr);
        if len > 0 {
            let i = pick(self, len);
            if let Some(v) = self.minted_at(attr, i) {
                return v;
            }
        }
        let pool = self.hot_values(entity, attr);
        if pool.is_empty() {
            return SampleValue::s("x");
        }
        let i = pick(self, pool.len());
        pool[i].clone()
    }

    fn typed(
        &mut self,
        entity: &EntityDecl,
        attr: &Attribute,
        instant: i64,
        n: usize,
    ) -> SampleValue {
        if self.model.table.ttl_attribute.as_deref() == Some(attr.name.as_str()) {
            // Far in the future, so the engine's TTL never removes a sample mid-run.
            return SampleValue::n((4_102_444_800u64 + n as u64).to_string());
        }
        match attr.ty {
            AttributeType::String => SampleValue::s(values::random_string(
                &mut self.rng,
                &attr.name,
                attr.max_length,
            )),
            AttributeType::Enum => match attr.values.len() {
                0 => SampleValue::s("x"),
                len => SampleValue::s(attr.values[self.rng.usize(0..len)].clone()),
            },
            AttributeType::Integer => {
                let c = values::integer_candidates(attr, Self::pad(entity, &attr.name));
                SampleValue::n(c[self.rng.usize(0..c.len())].to_string())
            }
            AttributeType::Decimal => {
                SampleValue::n(values::DECIMALS[self.rng.usize(0..values::DECIMALS.len())])
            }
            AttributeType::Number | AttributeType::Float => {
                SampleValue::n(values::FLOATS[self.rng.usize(0..values::FLOATS.len())])
            }
            AttributeType::Boolean => SampleValue::b(self.rng.bool()),
            AttributeType::Timestamp => values::format_instant(instant, attr.timestamp_format()),
            AttributeType::List | AttributeType::Map | AttributeType::Set => {
                values::collection(attr, &mut self.rng)
            }
        }
    }

    /// A key attribute's value: a timestamp of the item's instant, else a hot value.
    fn hot_or_typed(
        &mut self,
        entity: &EntityDecl,
        attr: &Attribute,
        instant: i64,
        n: usize,
    ) -> SampleValue {
        if attr.ty == AttributeType::Timestamp {
            self.typed(entity, attr, instant, n)
        } else {
            self.key_value(entity, attr)
        }
    }

    /// A fresh value of `attr`, unique among `entity`'s items.
    fn mint(
        &mut self,
        entity: &EntityDecl,
        attr: &Attribute,
        instant: i64,
        n: usize,
    ) -> SampleValue {
        let slot = (entity.name.clone(), attr.name.clone());
        let used = self.used.get(&slot).cloned().unwrap_or_default();
        let mut value = None;
        if attr.ty == AttributeType::Integer {
            let c = values::integer_candidates(attr, Self::pad(entity, &attr.name));
            let mut order = c.clone();
            self.rng.shuffle(&mut order);
            // Keep 9 and 10 together when both fit: the width boundary.
            order.sort_by_key(|x| !matches!(x, 9 | 10));
            value = order
                .into_iter()
                .map(|x| SampleValue::n(x.to_string()))
                .find(|v| !used.contains(&v.text));
            if value.is_none() {
                // Every candidate is taken (more items than the spread of widths).
                value = Self::free_number(entity, attr, &used);
            }
        }
        for attempt in 0..64 {
            if value.is_some() {
                break;
            }
            let candidate = if attr.ty == AttributeType::Timestamp {
                // Steps the format tells apart: a `date` identity needs another day.
                let format = attr.timestamp_format();
                let n = i64::try_from(n).unwrap_or(0);
                let at = match values::resolution_ms(format) {
                    1000 | 1 => instant + attempt * 1000 + n,
                    step => instant + (attempt + n) * step,
                };
                values::format_instant(at, format)
            } else {
                self.typed(entity, attr, instant, n)
            };
            if !used.contains(&candidate.text) {
                value = Some(candidate);
            }
        }
        let value = match value {
            Some(v) => v,
            // Every value of an enum or a boolean is taken: a valid one, whose item then
            // collides on its key and is dropped, rather than a value the type cannot hold.
            None if matches!(attr.ty, AttributeType::Enum | AttributeType::Boolean) => {
                self.typed(entity, attr, instant, n)
            }
            // A number stays a number: the first free whole number its bounds allow (it
            // renders under every numeric type and any padding), else a taken one.
            None if is_numeric(attr.ty) => Self::free_number(entity, attr, &used)
                .unwrap_or_else(|| self.typed(entity, attr, instant, n)),
            None => SampleValue::s(format!("{}{n}", attr.name)),
        };
        self.used
            .entry(slot)
            .or_default()
            .insert(value.text.clone());
        value
    }

    fn item(
        &mut self,
        p: &Plan<'_>,
        tuple: &BTreeMap<String, SampleValue>,
        n: usize,
        data: &mut Dataset,
        primary: &mut BTreeSet<(String, String)>,
    ) {
        let instant = values::sample_instant(&mut self.rng);
        let flip = self.rng.bool();
        let mut vals: BTreeMap<String, SampleValue> = BTreeMap::new();
        let mut minted_here: Vec<(String, SampleValue)> = Vec::new();
        for attr in &p.entity.attributes {
            let role = p.roles.get(&attr.name).copied().unwrap_or(Role::Plain);
            let value = match role {
                Role::Partition => tuple.get(&attr.name).cloned(),
                Role::Identity => {
                    let v = self.mint(p.entity, attr, instant, n);
                    minted_here.push((attr.name.clone(), v.clone()));
                    Some(v)
                }
                Role::Condition => match (n + usize::from(flip)) % 3 {
                    0 => Some(SampleValue::b(true)),
                    1 => Some(SampleValue::b(false)),
                    _ if attr.required => Some(SampleValue::b(n.is_multiple_of(2))),
                    _ => None,
                },
                Role::Key => Some(self.hot_or_typed(p.entity, attr, instant, n)),
                Role::SparseKey => ((n + usize::from(flip)) % 3 != 2)
                    .then(|| self.hot_or_typed(p.entity, attr, instant, n)),
                Role::Plain => {
                    if !attr.required && self.rng.u8(0..3) == 0 {
                        None
                    } else if let Some(v) = match self.minted_len(attr) {
                        0 => None,
                        len => {
                            let i = self.rng.usize(0..len);
                            self.minted_at(attr, i)
                        }
                    } {
                        Some(v)
                    } else {
                        Some(self.typed(p.entity, attr, instant, n))
                    }
                }
            };
            if let Some(v) = value {
                vals.insert(attr.name.clone(), v);
            }
        }
        let text = |name: &str| vals.get(name).map(|v| v.text.clone());
        let mut item = match items::keys(self.model, &p.entity.name, &text) {
            Ok(item) => item,
            Err(e) => {
                data.warnings
                    .push(format!("skipped a sample `{}`: {e}", p.entity.name));
                return;
            }
        };
        let mut keys: BTreeMap<String, String> = item
            .iter()
            .filter(|(k, _)| k.as_str() != items::ENTITY_TYPE)
            .filter_map(|(k, v)| monotable_access::value::key_text(v).map(|s| (k.clone(), s)))
            .collect();
        // Native key attributes are the item's own values, in their declared types.
        for name in native_key_attributes(self.model, p.entity) {
            if let Some(v) = vals.get(name) {
                keys.insert(name.to_string(), v.text.clone());
            }
        }
        let pk = keys
            .get(&self.model.table.partition_key.name)
            .cloned()
            .unwrap_or_default();
        let sk = self
            .model
            .table
            .sort_key
            .as_ref()
            .and_then(|k| keys.get(&k.name).cloned())
            .unwrap_or_default();
        if !primary.insert((pk, sk)) {
            return;
        }
        for (name, v) in &vals {
            if !item.contains_key(name) {
                item.insert(name.clone(), v.av.clone());
            }
        }
        for (name, v) in minted_here {
            self.minted.entry(name).or_default().push(v);
        }
        data.samples.push(Sample {
            entity: p.entity.name.clone(),
            values: vals
                .into_iter()
                .filter(|(_, v)| monotable_access::value::template_text(&v.av).is_some())
                .map(|(k, v)| (k, v.text))
                .collect(),
            keys,
            item,
        });
    }
}

/// Integer, decimal, number or float: stored as `N`.
fn is_numeric(ty: AttributeType) -> bool {
    matches!(
        ty,
        AttributeType::Integer
            | AttributeType::Decimal
            | AttributeType::Number
            | AttributeType::Float
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHOP: &str = include_str!("../../../examples/shop/shop.toml");

    #[test]
    fn shop_samples_share_parent_keys_and_cover_sparse_both_ways() {
        let model = monotable_model::parse(SHOP).unwrap();
        let data = generate(&model, 7);
        assert!(data.warnings.is_empty(), "{:?}", data.warnings);
        for entity in ["User", "Order", "OrderItem", "Product", "EmailGuard"] {
            assert!(data.count(entity) >= 2, "{entity}: {}", data.count(entity));
        }
        let order_ids: BTreeSet<&str> = data
            .samples
            .iter()
            .filter(|s| s.entity == "Order")
            .filter_map(|s| s.values.get("orderId").map(String::as_str))
            .collect();
        for item in data.samples.iter().filter(|s| s.entity == "OrderItem") {
            assert!(order_ids.contains(item.values["orderId"].as_str()));
        }
        let products: Vec<&Sample> = data
            .samples
            .iter()
            .filter(|s| s.entity == "Product")
            .collect();
        assert!(products.iter().any(|s| s.key("GSI2PK").is_some()));
        assert!(products.iter().any(|s| s.key("GSI2PK").is_none()));
    }

    #[test]
    fn a_date_identity_gets_one_day_per_item_and_never_leaks_into_another_format() {
        let model = monotable_model::parse(SHOP).unwrap();
        let data = generate(&model, 11);
        assert!(data.warnings.is_empty(), "{:?}", data.warnings);
        let days: Vec<&str> = data
            .samples
            .iter()
            .filter(|s| s.entity == "ProductDailySales" || s.entity == "OrderItem")
            .filter_map(|s| s.values.get("day").map(String::as_str))
            .collect();
        assert!(days.len() >= 4, "{days:?}");
        for day in days {
            assert!(
                values::fits_format(day, monotable_model::TimestampFormat::Date),
                "`day` {day:?} is no date"
            );
        }
    }

    #[test]
    fn same_seed_same_data() {
        let model = monotable_model::parse(SHOP).unwrap();
        let a = generate(&model, 42);
        let b = generate(&model, 42);
        let keys = |d: &Dataset| -> Vec<BTreeMap<String, String>> {
            d.samples.iter().map(|s| s.keys.clone()).collect()
        };
        assert_eq!(keys(&a), keys(&b));
    }
}
