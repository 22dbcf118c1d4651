//! The calls: PutItem, GetItem, Query, DeleteItem and TransactWriteItems with
//! `ReturnConsumedCapacity: INDEXES`, each measured against `check::cost`'s prediction.

use aws_sdk_dynamodb::types::{AttributeValue, ConsumedCapacity};
use monotable_access::delete::DeleteItem;
use monotable_access::get::GetItem;
use monotable_access::items::Item;
use monotable_access::update::UpdateItem;
use monotable_access::{PutSpec, Transaction};
use monotable_check::cost::{
    self, IndexUnits, ReadConsistency, Units, actual_entry_bytes, item_size, read_units,
};
use monotable_model::{IndexKind, Model, Pattern};
use serde_json::Value;

use super::items::{engine_units, item_json, update_prediction, write_prediction};
use super::report::{Measured, units};
use super::{Ctx, MAX_PAGES, TARGETS_PER_ENTITY, TRANSACTION_ITEMS_PER_ENTITY, primary};
use crate::VerifyError;
use crate::generate::Sample;
use crate::keys::Values;
use crate::keys::{get_key, typed_keys};
use crate::oracle::{KeyLayout, KeyQuery};
use crate::params::{self, BEST};

impl Ctx<'_> {
    pub(super) async fn put(&mut self, sample: &Sample) -> Result<Measured, VerifyError> {
        let item = typed_keys(self.model, &sample.item);
        let json = item_json(&item);
        let (bytes, predicted) = write_prediction(self.model, &json, false);
        let capacity = PutSpec::item(item, &self.model.table_key_names())
            .measured(&self.table)
            .await
            .map_err(|e| VerifyError::Load {
                entity: sample.entity.clone(),
                message: e.to_string(),
            })?;
        let request = format!("PutItem {}", describe_primary(self.model, &json));
        self.stored.insert(primary(self.model, &json), json);
        Ok(Measured {
            request,
            items: 1,
            bytes,
            predicted,
            engine: measured(self.model, capacity.as_ref()),
        })
    }

    /// Up to two samples of each entity the pattern returns, preferring those in the index read.
    fn targets<'s>(&'s self, pattern: &Pattern, rng: &mut fastrand::Rng) -> Vec<&'s Sample> {
        let shape = KeyLayout::of(self.model, pattern);
        let mut entities: Vec<&str> = Vec::new();
        for r in &pattern.returns {
            if !entities.contains(&r.name.as_str()) {
                entities.push(&r.name);
            }
        }
        let mut out = Vec::new();
        for e in entities {
            let of: Vec<&Sample> = self.index.of_entity(e).collect();
            let inside: Vec<&Sample> = of.iter().copied().filter(|s| shape.contains(s)).collect();
            let mut pool = if inside.is_empty() { of } else { inside };
            for _ in 0..TARGETS_PER_ENTITY {
                if pool.is_empty() {
                    break;
                }
                out.push(pool.remove(rng.usize(0..pool.len())));
            }
        }
        out
    }

    pub(super) async fn gets(&self, pattern: &Pattern, rng: &mut fastrand::Rng) -> Vec<Measured> {
        let consistency = if pattern.consistent_read {
            ReadConsistency::Strong
        } else {
            ReadConsistency::Eventual
        };
        let mut out = Vec::new();
        for target in self.targets(pattern, rng) {
            let samples = &self.index;
            let eval = |values: &Values| -> Option<u8> {
                let key = get_key(pattern, values).ok()?;
                Some(match samples.get(&key) {
                    Some(s) if std::ptr::eq(s, target) => BEST,
                    Some(_) => 3,
                    None => 0,
                })
            };
            let values = params::choose(self.model, pattern, samples, Some(target), &eval);
            let Ok(key) = get_key(pattern, &values) else {
                continue;
            };
            let request = format!(
                "GetItem {}",
                key.iter()
                    .map(|(a, v)| format!("{a} = {v:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let key = key
                .into_iter()
                .map(|(a, v)| {
                    let typed = typed(self.model, &a, v);
                    (a, typed)
                })
                .collect();
            let sent = GetItem::new(key)
                .consistent(pattern.consistent_read)
                .measured(&self.table)
                .await;
            let (bytes, items, engine) = match sent {
                Ok((item, capacity)) => (
                    item.as_ref()
                        .map_or(0, |i| item_size(&item_json(i)).unwrap_or(0)),
                    usize::from(item.is_some()),
                    measured(self.model, capacity.as_ref()),
                ),
                Err(e) => (0, 0, Err(format!("GetItem failed: {e}"))),
            };
            out.push(Measured {
                request,
                items,
                bytes,
                predicted: units(read_units(bytes, consistency), Vec::new()),
                engine,
            });
        }
        out
    }

    pub(super) async fn queries(
        &self,
        pattern: &Pattern,
        rng: &mut fastrand::Rng,
    ) -> Vec<Measured> {
        let index = pattern.index_name();
        let global = index
            .and_then(|i| self.model.index(i))
            .is_some_and(|i| i.kind == IndexKind::Global);
        // A global index is eventually consistent; the store never asks it for more.
        let consistent = pattern.consistent_read && !global;
        let consistency = if consistent {
            ReadConsistency::Strong
        } else {
            ReadConsistency::Eventual
        };
        let shape = KeyLayout::of(self.model, pattern);
        let samples = &self.index;
        let mut out = Vec::new();
        for target in self.targets(pattern, rng) {
            let eval = |values: &Values| -> Option<u8> {
                let key = KeyQuery::render(pattern, &|n| values.get(n).cloned()).ok()?;
                if !key.is_valid(&shape) {
                    return None;
                }
                let found = samples.query(&shape, &key, pattern.descending);
                let hit = found.iter().any(|f| std::ptr::eq(*f, target));
                Some(u8::from(hit) * 4 + u8::from(!found.is_empty()) * 2 + 1)
            };
            let values = params::choose(self.model, pattern, samples, Some(target), &eval);
            let mut start: Option<Item> = None;
            for page in 0..MAX_PAGES {
                let sent = self.query(pattern, &values, consistent, start.take()).await;
                let (request, result) = sent;
                let request = format!("{request}, page {}", page + 1);
                let (items, next, capacity) = match result {
                    Ok(r) => r,
                    Err(e) => {
                        out.push(Measured {
                            request,
                            items: 0,
                            bytes: 0,
                            predicted: Units::default(),
                            engine: Err(e),
                        });
                        break;
                    }
                };
                let bytes: u64 = items
                    .iter()
                    .map(|i| {
                        let json = item_json(i);
                        let stored = self.stored.get(&primary(self.model, &json));
                        stored
                            .and_then(|s| actual_entry_bytes(self.model, index, s))
                            .or_else(|| item_size(&json))
                            .unwrap_or(0)
                    })
                    .sum();
                let rcu = read_units(bytes.min(cost::MAX_PAGE_BYTES), consistency);
                let predicted = match index {
                    Some(name) => units(
                        0.0,
                        vec![IndexUnits {
                            index: name.to_string(),
                            units: rcu,
                        }],
                    ),
                    None => units(rcu, Vec::new()),
                };
                out.push(Measured {
                    request,
                    items: items.len(),
                    bytes,
                    predicted,
                    engine: measured(self.model, capacity.as_ref()),
                });
                match next {
                    Some(k) => start = Some(k),
                    None => break,
                }
            }
        }
        out
    }

    /// One Query call of `pattern` (its own limit, the store's key condition) with
    /// `ReturnConsumedCapacity: INDEXES`: the request described, and the items, the next start
    /// key and the capacity.
    async fn query(
        &self,
        pattern: &Pattern,
        values: &Values,
        consistent: bool,
        start: Option<Item>,
    ) -> (String, QueryResult) {
        let lookup = |n: &str| values.get(n).cloned();
        let rendered = KeyQuery::render(pattern, &lookup).and_then(|key| {
            let request =
                monotable_access::pattern::query_request(self.model, &pattern.name, &lookup)
                    .map_err(|e| e.to_string())?;
            Ok((key, request))
        });
        let (key, request) = match rendered {
            Ok(k) => k,
            Err(e) => {
                return (
                    format!("Query {}", pattern.name),
                    Err(format!("cannot render the key condition: {e}")),
                );
            }
        };
        let mut described = format!(
            "Query {}: {}",
            pattern.index_name().unwrap_or("table"),
            key.describe()
        );
        if let Some(limit) = pattern.limit {
            described.push_str(&format!(", limit {limit}"));
        }
        // The store's one Query, as every pattern's is sent.
        let result = match request
            .consistent(consistent)
            .start(start)
            .measured(&self.table)
            .await
        {
            Ok(page) => Ok((page.items, page.last_evaluated_key, page.capacity)),
            Err(e) => Err(format!("Query failed: {e}")),
        };
        (described, result)
    }

    /// UpdateItem of up to two samples of each entity the pattern updates, changing what the
    /// pattern's `sets` declares (without `sets`, every attribute outside the primary key: what
    /// `check::cost` assumes of such an update) to another sample's values, index keys
    /// re-rendered; each put back after.
    pub(super) async fn updates(&self, pattern: &Pattern) -> Vec<Measured> {
        let mut out = Vec::new();
        for entity in unique(pattern.returns.iter().map(|r| r.name.as_str())) {
            let of: Vec<&Sample> = self.index.of_entity(entity).collect();
            for (i, sample) in of.iter().take(TARGETS_PER_ENTITY).enumerate() {
                let Some(donor) = of
                    .get((i + 1) % of.len())
                    .filter(|d| !std::ptr::eq(**d, *sample))
                else {
                    continue;
                };
                let Some(new) = self.changed(pattern, sample, donor) else {
                    continue;
                };
                let old = typed_keys(self.model, &sample.item);
                if let Some(m) = self.update(&old, &new).await {
                    out.push(m);
                }
            }
        }
        out
    }

    /// `sample` with the attributes `pattern` changes taken from `donor` and its keys rendered
    /// again from the result.
    fn changed(&self, pattern: &Pattern, sample: &Sample, donor: &Sample) -> Option<Item> {
        let entity = self.model.entity(&sample.entity)?;
        let mutable = cost::changed_attributes(entity, pattern);
        let mut values = sample.values.clone();
        for name in &mutable {
            match donor.values.get(*name) {
                Some(v) => values.insert((*name).to_string(), v.clone()),
                None => values.remove(*name),
            };
        }
        let lookup = |n: &str| values.get(n).cloned();
        let mut item = monotable_access::items::keys(self.model, &entity.name, &lookup).ok()?;
        for attribute in &entity.attributes {
            let from = if mutable.contains(&attribute.name.as_str()) {
                donor
            } else {
                sample
            };
            if let Some(v) = from.item.get(&attribute.name)
                && !item.contains_key(&attribute.name)
            {
                item.insert(attribute.name.clone(), v.clone());
            }
        }
        Some(typed_keys(self.model, &item))
    }

    /// One UpdateItem from `old` to `new` (SET what differs, REMOVE what is gone), measured, and
    /// `old` put back. `None` when nothing differs.
    async fn update(&self, old: &Item, new: &Item) -> Option<Measured> {
        let key = self.key_of(old);
        let mut update = UpdateItem::new(key.clone());
        let (mut sets, mut removes) = (0, 0);
        let mut names: Vec<&String> = old.keys().chain(new.keys()).collect();
        names.sort();
        names.dedup();
        for name in names.into_iter().filter(|n| !key.contains_key(*n)) {
            match new.get(name) {
                Some(v) if old.get(name) != Some(v) => {
                    update = update.set(name, v.clone());
                    sets += 1;
                }
                Some(_) => {}
                None => {
                    update = update.remove(name);
                    removes += 1;
                }
            }
        }
        if update.is_empty() {
            return None;
        }
        let (old_json, new_json) = (item_json(old), item_json(new));
        let (bytes, predicted) = update_prediction(self.model, &old_json, &new_json);
        let engine = match update.build().measured(&self.table).await {
            Ok(capacity) => measured(self.model, capacity.as_ref()),
            Err(e) => Err(format!("UpdateItem failed: {e}")),
        };
        let restored = self.restore(std::slice::from_ref(old)).await;
        Some(Measured {
            request: format!(
                "UpdateItem {} ({} attributes set, {} removed)",
                describe_primary(self.model, &old_json),
                sets,
                removes
            ),
            items: 1,
            bytes,
            predicted,
            engine: engine.and_then(|e| restored.map(|()| e)),
        })
    }

    /// DeleteItem of up to two samples of each entity the pattern deletes, each put back after.
    pub(super) async fn deletes(&self, pattern: &Pattern) -> Vec<Measured> {
        let mut out = Vec::new();
        for entity in unique(pattern.returns.iter().map(|r| r.name.as_str())) {
            let chosen: Vec<&Sample> = self
                .index
                .of_entity(entity)
                .take(TARGETS_PER_ENTITY)
                .collect();
            for sample in chosen {
                let item = typed_keys(self.model, &sample.item);
                let json = item_json(&item);
                let (bytes, predicted) = write_prediction(self.model, &json, false);
                let key = self.key_of(&item);
                let engine = match DeleteItem::new(key).measured(&self.table).await {
                    Ok(deleted) => measured(self.model, deleted.capacity.as_ref()),
                    Err(e) => Err(format!("DeleteItem failed: {e}")),
                };
                let restored = self.restore(&[item]).await;
                out.push(Measured {
                    request: format!("DeleteItem {}", describe_primary(self.model, &json)),
                    items: 1,
                    bytes,
                    predicted,
                    engine: engine.and_then(|e| restored.map(|()| e)),
                });
            }
        }
        out
    }

    /// One TransactWriteItems creating samples of each entity the pattern writes (at most its
    /// count, two per entity): each first deleted, so every Put creates its item.
    pub(super) async fn transaction(&self, pattern: &Pattern) -> Vec<Measured> {
        let mut items: Vec<Item> = Vec::new();
        for write in &pattern.writes {
            let n = write
                .count
                .unwrap_or(TRANSACTION_ITEMS_PER_ENTITY)
                .min(TRANSACTION_ITEMS_PER_ENTITY);
            let n = usize::try_from(n).unwrap_or(0);
            for sample in self.index.of_entity(&write.entity).take(n) {
                let item = typed_keys(self.model, &sample.item);
                let key = self.key_of(&item);
                if !items.iter().any(|i| self.key_of(i) == key) {
                    items.push(item);
                }
            }
        }
        if items.is_empty() {
            return Vec::new();
        }
        let mut predicted = Units::default();
        let mut bytes = 0;
        for item in &items {
            let (size, one) = write_prediction(self.model, &item_json(item), true);
            bytes += size;
            predicted.add_scaled(&one, 1.0);
        }
        let request = format!(
            "TransactWriteItems: Put of {} new items ({})",
            items.len(),
            unique(pattern.writes.iter().map(|w| w.entity.as_str())).join(", ")
        );
        let engine = self.transact(&items).await;
        let restored = self.restore(&items).await;
        vec![Measured {
            request,
            items: items.len(),
            bytes,
            predicted,
            engine: engine.and_then(|e| restored.map(|()| e)),
        }]
    }

    async fn transact(&self, items: &[Item]) -> Result<Units, String> {
        let key = self.model.table_key_names();
        let mut transaction = Transaction::new();
        for item in items {
            DeleteItem::new(self.key_of(item))
                .send(&self.plain)
                .await
                .map_err(|e| format!("DeleteItem before the transaction failed: {e}"))?;
            transaction = transaction.write(PutSpec::item(item.clone(), &key));
        }
        let consumed = transaction
            .measured(&self.table)
            .await
            .map_err(|e| format!("TransactWriteItems failed: {e}"))?;
        let mut total = Units::default();
        let mut found = false;
        for c in consumed.iter().filter(|c| {
            c.table_name()
                .is_none_or(|t| t == self.model.table.name.as_str())
        }) {
            found = true;
            total.add_scaled(&engine_units(self.model, c), 1.0);
        }
        if found {
            Ok(total)
        } else {
            Err("no ConsumedCapacity returned".to_string())
        }
    }

    /// Puts `items` back (overwrites are not measured).
    async fn restore(&self, items: &[Item]) -> Result<(), String> {
        let key = self.model.table_key_names();
        for item in items {
            PutSpec::item(item.clone(), &key)
                .send(&self.plain)
                .await
                .map_err(|e| format!("cannot put the item back: {e}"))?;
        }
        Ok(())
    }

    /// The primary key attributes of `item`.
    fn key_of(&self, item: &Item) -> Item {
        std::iter::once(&self.model.table.partition_key.name)
            .chain(self.model.table.sort_key.as_ref().map(|k| &k.name))
            .filter_map(|k| item.get(k).map(|v| (k.clone(), v.clone())))
            .collect()
    }
}

type QueryResult = Result<(Vec<Item>, Option<Item>, Option<ConsumedCapacity>), String>;

/// The engine's units in `capacity`, or why there are none.
fn measured(model: &Model, capacity: Option<&ConsumedCapacity>) -> Result<Units, String> {
    capacity
        .map(|c| engine_units(model, c))
        .ok_or_else(|| "no ConsumedCapacity returned".to_string())
}

fn unique<'a>(names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for n in names {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

fn describe_primary(model: &Model, item: &Value) -> String {
    let text = |name: &str| {
        item.get(name)
            .and_then(Value::as_object)
            .and_then(|o| o.values().next())
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .unwrap_or_default()
    };
    let mut out = format!(
        "{} = {:?}",
        model.table.partition_key.name,
        text(&model.table.partition_key.name)
    );
    if let Some(sk) = &model.table.sort_key {
        out.push_str(&format!(", {} = {:?}", sk.name, text(&sk.name)));
    }
    out
}

/// A rendered key value in its declared type, as every write stores it.
fn typed(model: &Model, attribute: &str, text: String) -> AttributeValue {
    monotable_access::items::key_value(model, attribute, text)
}
