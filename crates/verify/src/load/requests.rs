//! What each request of a load run is: read patterns with parameters taken from the whole
//! dataset (as `verify` picks them, for every sample rather than two), writes of fresh generated
//! items of an entity, padded to the model's item size, and how each one ended.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::items::Item;
use monotable_access::pattern::{self as store_pattern, PageRequest, PatternError};
use monotable_access::write::Condition;
use monotable_access::{PutSpec, ServiceError, Table, WriteError};
use monotable_model::{Model, Operation, Pattern};

use crate::generate::Sample;
use crate::keys::Values;
use crate::load::stats::LoadOutcome;
use crate::oracle::{KeyLayout, KeyQuery};
use crate::params::{self, BEST, Score};
use crate::sample_index::SampleIndex;

/// Most distinct parameter sets kept per read pattern.
const MAX_PARAMETER_SETS: usize = 256;
/// Fresh items kept ready per entity; generating more of one entity tops the others up too.
const MAX_READY: usize = 4096;
/// Generations tried before deciding an entity yields no items.
const MAX_REFILLS: usize = 8;
/// The attribute that pads an item to the model's item size.
pub const PAD_ATTRIBUTE: &str = "loadPadding";

/// Parameter sets for read pattern `pattern`: for each sample of the entities it returns (up to
/// [`MAX_PARAMETER_SETS`], picked by `seed`), the values [`params::choose`] takes from it, those
/// that find the sample scoring best. Distinct, in a stable order.
pub(crate) fn read_parameters(
    model: &Model,
    pattern: &Pattern,
    index: &SampleIndex<'_>,
    seed: u64,
) -> Vec<Values> {
    let samples = index.samples;
    let shape = KeyLayout::of(model, pattern);
    let returns: BTreeSet<&str> = pattern.returns.iter().map(|r| r.name.as_str()).collect();
    let mut targets: Vec<&Sample> = samples
        .iter()
        .filter(|s| returns.is_empty() || returns.contains(s.entity.as_str()))
        .filter(|s| pattern.operation != Operation::Query || shape.contains(s))
        .collect();
    let mut rng = fastrand::Rng::with_seed(seed);
    rng.shuffle(&mut targets);
    targets.truncate(MAX_PARAMETER_SETS);
    let mut out: Vec<Values> = Vec::new();
    let mut seen: BTreeSet<Values> = BTreeSet::new();
    let chosen: Vec<Option<&Sample>> = if targets.is_empty() {
        vec![None]
    } else {
        targets.into_iter().map(Some).collect()
    };
    for target in chosen {
        let values = match pattern.operation {
            Operation::GetItem => {
                let eval = |values: &Values| -> Option<Score> {
                    let key = crate::keys::get_key(pattern, values).ok()?;
                    Some(match index.get(&key) {
                        Some(s) if target.is_some_and(|t| std::ptr::eq(s, t)) => BEST,
                        Some(_) => 3,
                        None => 0,
                    })
                };
                params::choose(model, pattern, index, target, &eval)
            }
            _ => {
                let eval = |values: &Values| -> Option<Score> {
                    let key = KeyQuery::render(pattern, &|n| values.get(n).cloned()).ok()?;
                    if !key.is_valid(&shape) {
                        return None;
                    }
                    let found = index.query(&shape, &key, pattern.descending);
                    let hit = target.is_some_and(|t| found.iter().any(|f| std::ptr::eq(*f, t)));
                    Some(u8::from(hit) * 4 + u8::from(!found.is_empty()) * 2 + 1)
                };
                params::choose(model, pattern, index, target, &eval)
            }
        };
        if seen.insert(values.clone()) {
            out.push(values);
        }
    }
    out
}

/// Runs read pattern `pattern` once with `values`: a GetItem, or the first page of a Query (the
/// pattern's own limit), as an app's request would.
pub(crate) async fn read(
    table: &Table,
    model: &Model,
    pattern: &str,
    values: &Values,
) -> LoadOutcome {
    let lookup = |n: &str| values.get(n).cloned();
    let operation = model.pattern(pattern).map(|p| p.operation);
    let result = match operation {
        Some(Operation::GetItem) => store_pattern::get(table, model, pattern, &lookup)
            .await
            .map(|_| ()),
        _ => store_pattern::query(table, model, pattern, &lookup, PageRequest::default())
            .await
            .map(|_| ()),
    };
    match result {
        Ok(()) => LoadOutcome::Ok,
        Err(PatternError::Call { error, .. }) => match error {
            ServiceError::Throttled { .. } => LoadOutcome::Throttled,
            other => LoadOutcome::Failed(other.to_string()),
        },
        Err(e) => LoadOutcome::Failed(e.to_string()),
    }
}

/// Writes `item` (every key the model gives its entity already rendered) with a PutItem through
/// the access layer.
pub(crate) async fn write(table: &Table, item: Item, description: String) -> LoadOutcome {
    let spec = PutSpec {
        item,
        condition: Condition::none(),
        entity: "",
        description,
        invalid: None,
    };
    match spec.send(table).await {
        Ok(()) => LoadOutcome::Ok,
        Err(WriteError::Service(ServiceError::Throttled { .. })) => LoadOutcome::Throttled,
        Err(e) => LoadOutcome::Failed(e.to_string()),
    }
}

/// Fresh items of every entity, from datasets generated with seeds nobody else uses, each
/// padded to its entity's item size; keys typed as the model declares them.
#[derive(Debug)]
pub(crate) struct Fresh {
    seed: u64,
    generated: u64,
    ready: BTreeMap<String, VecDeque<Item>>,
    sizes: BTreeMap<String, u64>,
}

impl Fresh {
    pub(crate) fn new(model: &Model, seed: u64) -> Fresh {
        Fresh {
            seed,
            generated: 0,
            ready: BTreeMap::new(),
            sizes: item_sizes(model),
        }
    }

    /// The next fresh item of `entity`; `None` when generating yields none.
    pub(crate) fn next(&mut self, model: &Model, entity: &str) -> Option<Item> {
        for _ in 0..MAX_REFILLS {
            if let Some(item) = self.ready.get_mut(entity).and_then(VecDeque::pop_front) {
                return Some(item);
            }
            self.refill(model);
        }
        None
    }

    fn refill(&mut self, model: &Model) {
        self.generated += 1;
        // Far from the loaded dataset's seed, so ids do not repeat.
        let seed = self
            .seed
            .wrapping_add(0x10ad_0000_0000)
            .wrapping_add(self.generated);
        for sample in crate::generate::generate(model, seed).samples {
            let queue = self.ready.entry(sample.entity.clone()).or_default();
            if queue.len() < MAX_READY {
                let mut item = crate::keys::typed_keys(model, &as_created(model, &sample));
                if let Some(size) = self.sizes.get(&sample.entity) {
                    pad(&mut item, *size);
                }
                queue.push_back(item);
            }
        }
    }
}

/// A fresh item as the app creates it: every enum attribute at its first declared value (an
/// order starts `PENDING`), the keys rendered again from that. This is the write traffic
/// MT006 warns about: new items that all take one value of an enum share one partition. When
/// the keys cannot be rendered again the sample stays as generated.
pub(crate) fn as_created(model: &Model, sample: &Sample) -> Item {
    let Some(entity) = model.entity(&sample.entity) else {
        return sample.item.clone();
    };
    let mut values = sample.values.clone();
    let mut item = sample.item.clone();
    let mut changed = false;
    for attribute in &entity.attributes {
        let first = attribute.values.first();
        if attribute.ty == monotable_model::AttributeType::Enum
            && let Some(first) = first
            && item.contains_key(&attribute.name)
        {
            values.insert(attribute.name.clone(), first.clone());
            item.insert(attribute.name.clone(), AttributeValue::S(first.clone()));
            changed = true;
        }
    }
    if !changed {
        return item;
    }
    let Ok(keys) = entity.render_keys(&|name: &str| values.get(name).cloned()) else {
        return sample.item.clone();
    };
    for field in &entity.keys {
        item.remove(&field.attribute);
    }
    for (attribute, value) in keys {
        item.insert(attribute, AttributeValue::S(value));
    }
    item
}

/// The item size the model's traffic gives each entity (its own, else the default).
pub(crate) fn item_sizes(model: &Model) -> BTreeMap<String, u64> {
    let traffic = &model.traffic;
    model
        .entities
        .iter()
        .map(|e| {
            let size = traffic
                .entities
                .get(&e.name)
                .and_then(|t| t.item_size_bytes)
                .unwrap_or(traffic.default_item_size_bytes);
            (e.name.clone(), size)
        })
        .collect()
}

/// Pads `samples` to their entities' item sizes (the dataset loaded before a run).
pub(crate) fn pad_samples(model: &Model, samples: &mut [Sample]) {
    let sizes = item_sizes(model);
    for s in samples {
        if let Some(size) = sizes.get(&s.entity) {
            pad(&mut s.item, *size);
        }
    }
}

/// Adds [`PAD_ATTRIBUTE`] so the item's size reaches `size` bytes; never shrinks it.
pub(crate) fn pad(item: &mut Item, size: u64) {
    let have = item_size(item);
    let overhead = PAD_ATTRIBUTE.len() as u64;
    if have + overhead < size {
        let fill = usize::try_from(size - have - overhead).unwrap_or(0);
        item.insert(
            PAD_ATTRIBUTE.to_string(),
            AttributeValue::S("x".repeat(fill)),
        );
    }
}

/// An item's size as DynamoDB counts it, closely enough: attribute names, string and binary
/// lengths, numbers at about one byte per two digits, a few bytes per list or map.
pub fn item_size(item: &Item) -> u64 {
    item.iter()
        .map(|(name, value)| name.len() as u64 + value_size(value))
        .sum()
}

fn value_size(value: &AttributeValue) -> u64 {
    match value {
        AttributeValue::S(s) => s.len() as u64,
        AttributeValue::N(n) => (n.len() as u64).div_ceil(2) + 1,
        AttributeValue::B(b) => b.as_ref().len() as u64,
        AttributeValue::Ss(v) => v.iter().map(|s| s.len() as u64).sum(),
        AttributeValue::Ns(v) => v.iter().map(|n| (n.len() as u64).div_ceil(2) + 1).sum(),
        AttributeValue::Bs(v) => v.iter().map(|b| b.as_ref().len() as u64).sum(),
        AttributeValue::L(v) => 3 + v.iter().map(|x| 1 + value_size(x)).sum::<u64>(),
        AttributeValue::M(m) => 3 + item_size(m) + m.len() as u64,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");

    #[test]
    fn items_are_padded_to_their_size_and_never_shrunk() {
        let mut item = Item::new();
        item.insert("PK".into(), AttributeValue::S("USER#1".into()));
        assert_eq!(item_size(&item), 8);
        pad(&mut item, 600);
        assert_eq!(item_size(&item), 600);
        let mut big = Item::new();
        big.insert("a".into(), AttributeValue::S("y".repeat(900)));
        pad(&mut big, 600);
        assert!(!big.contains_key(PAD_ATTRIBUTE));
    }

    #[test]
    fn fresh_orders_are_created_pending_and_keyed_so() {
        let model = monotable_model::parse(SHOP).unwrap();
        let mut fresh = Fresh::new(&model, 3);
        for _ in 0..20 {
            let order = fresh.next(&model, "Order").unwrap();
            assert_eq!(order["status"], AttributeValue::S("PENDING".into()));
            let gsi2 = order["GSI2PK"].as_s().unwrap();
            assert!(gsi2.starts_with("STATUS#PENDING#"), "{gsi2}");
        }
    }

    #[test]
    fn fresh_items_keep_coming_with_every_key_and_new_ids() {
        let model = monotable_model::parse(SHOP).unwrap();
        let mut fresh = Fresh::new(&model, 1);
        let mut ids = BTreeSet::new();
        for _ in 0..40 {
            let order = fresh.next(&model, "Order").unwrap();
            for key in ["PK", "SK", "GSI1PK", "GSI2PK", "GSI3PK"] {
                assert!(order.contains_key(key), "{key} missing: {order:?}");
            }
            assert_eq!(item_size(&order), 1500);
            ids.insert(format!("{:?}", order["PK"]));
        }
        assert!(ids.len() >= 35, "{} distinct of 40", ids.len());
        assert!(fresh.next(&model, "NoSuchEntity").is_none());
    }

    #[test]
    fn every_shop_read_gets_parameters_from_many_samples() {
        let model = monotable_model::parse(SHOP).unwrap();
        let data = crate::generate::generate(&model, 1);
        for name in ["getUser", "getProduct", "listUserOrders", "listOrdersByDay"] {
            let pattern = model.pattern(name).unwrap();
            let index = SampleIndex::new(&model, &data.samples);
            let sets = read_parameters(&model, pattern, &index, 5);
            assert!(sets.len() >= 2, "{name}: {sets:?}");
        }
    }
}
