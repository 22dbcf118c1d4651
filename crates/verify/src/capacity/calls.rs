//! The calls: PutItem, GetItem, Query, DeleteItem and TransactWriteItems with
//! `ReturnConsumedCapacity: INDEXES`, each measured against `check::cost`'s prediction.

use aws_sdk_dynamodb::types::{
    AttributeValue, ConsumedCapacity, Put, ReturnConsumedCapacity, TransactWriteItem,
};
use monotable_access::items::Item;
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
use crate::oracle::{self, KeyQuery, Shape};
use crate::params::{self, BEST, Values};
use crate::run::get_key;
use crate::run::{message, typed_keys};

impl Ctx<'_> {
    pub(super) async fn put(&mut self, sample: &Sample) -> Result<Measured, VerifyError> {
        let item = typed_keys(self.model, &sample.item);
        let json = item_json(&item);
        let (bytes, predicted) = write_prediction(self.model, &json, false);
        let out = self
            .client
            .put_item()
            .table_name(&self.model.table.name)
            .set_item(Some(item))
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
            .send()
            .await
            .map_err(|e| VerifyError::Load {
                entity: sample.entity.clone(),
                message: e
                    .as_service_error()
                    .map_or_else(|| e.to_string(), |s| message(s)),
            })?;
        let request = format!("PutItem {}", describe_primary(self.model, &json));
        self.stored.insert(primary(self.model, &json), json);
        Ok(Measured {
            request,
            items: 1,
            bytes,
            predicted,
            engine: out
                .consumed_capacity()
                .map(|c| engine_units(self.model, c))
                .ok_or_else(|| "no ConsumedCapacity returned".to_string()),
        })
    }

    /// Up to two samples of each entity the pattern returns, preferring those in the index read.
    fn targets<'s>(&'s self, pattern: &Pattern, rng: &mut fastrand::Rng) -> Vec<&'s Sample> {
        let shape = Shape::of(self.model, pattern);
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
                Some(match oracle::get_in(samples, &key) {
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
            let sent = self
                .client
                .get_item()
                .table_name(&self.model.table.name)
                .set_key(Some(
                    key.into_iter()
                        .map(|(a, v)| {
                            let typed = typed(self.model, &a, v);
                            (a, typed)
                        })
                        .collect(),
                ))
                .consistent_read(pattern.consistent_read)
                .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
                .send()
                .await;
            let (bytes, items, engine) = match sent {
                Ok(out) => (
                    out.item()
                        .map_or(0, |i| item_size(&item_json(i)).unwrap_or(0)),
                    usize::from(out.item().is_some()),
                    out.consumed_capacity()
                        .map(|c| engine_units(self.model, c))
                        .ok_or_else(|| "no ConsumedCapacity returned".to_string()),
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
        let shape = Shape::of(self.model, pattern);
        let samples = &self.index;
        let mut out = Vec::new();
        for target in self.targets(pattern, rng) {
            let eval = |values: &Values| -> Option<u8> {
                let key = KeyQuery::render(pattern, &|n| values.get(n).cloned()).ok()?;
                if !key.is_valid(&shape) {
                    return None;
                }
                let found = oracle::query_in(samples, &shape, &key, pattern.descending);
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
                    engine: capacity
                        .map(|c| engine_units(self.model, &c))
                        .ok_or_else(|| "no ConsumedCapacity returned".to_string()),
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
            let condition = monotable_access::pattern::key_condition(self.model, pattern, &lookup)
                .map_err(|e| e.to_string())?;
            Ok((key, condition))
        });
        let (key, condition) = match rendered {
            Ok(k) => k,
            Err(e) => {
                return (
                    format!("Query {}", pattern.name),
                    Err(format!("cannot render the key condition: {e}")),
                );
            }
        };
        let mut request = format!(
            "Query {}: {}",
            pattern.index_name().unwrap_or("table"),
            key.describe()
        );
        // The store's one key condition expression, as every pattern's Query sends it.
        let expression = condition.expression();
        let call = self
            .client
            .query()
            .table_name(&self.model.table.name)
            .set_index_name(pattern.index_name().map(str::to_string))
            .set_expression_attribute_names(Some(expression.names))
            .set_expression_attribute_values(Some(expression.values))
            .scan_index_forward(!pattern.descending)
            .consistent_read(consistent)
            .set_limit(pattern.limit.and_then(|l| i32::try_from(l).ok()))
            .set_exclusive_start_key(start)
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes);
        let expression = expression.text;
        if let Some(limit) = pattern.limit {
            request.push_str(&format!(", limit {limit}"));
        }
        let result = match call.key_condition_expression(expression).send().await {
            Ok(out) => Ok((
                out.items.unwrap_or_default(),
                out.last_evaluated_key.filter(|k| !k.is_empty()),
                out.consumed_capacity,
            )),
            Err(e) => Err(format!(
                "Query failed: {}",
                e.as_service_error()
                    .map_or_else(|| e.to_string(), |s| message(s))
            )),
        };
        (request, result)
    }

    /// UpdateItem of up to two samples of each entity the pattern updates, changing every
    /// attribute outside the primary key (what `check::cost` assumes of an update) to another
    /// sample's values, index keys re-rendered; each put back after.
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
                let Some(new) = self.changed(sample, donor) else {
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

    /// `sample` with every attribute outside its primary key taken from `donor` and its keys
    /// rendered again from the result.
    fn changed(&self, sample: &Sample, donor: &Sample) -> Option<Item> {
        let entity = self.model.entity(&sample.entity)?;
        let mutable = cost::mutable_attributes(entity);
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
        let mut sets = Vec::new();
        let mut removes = Vec::new();
        let mut call = self
            .client
            .update_item()
            .table_name(&self.model.table.name)
            .set_key(Some(key.clone()))
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes);
        let mut names: Vec<&String> = old.keys().chain(new.keys()).collect();
        names.sort();
        names.dedup();
        for (i, name) in names
            .into_iter()
            .filter(|n| !key.contains_key(*n))
            .enumerate()
        {
            match new.get(name) {
                Some(v) if old.get(name) != Some(v) => {
                    sets.push(format!("#a{i} = :v{i}"));
                    call = call.expression_attribute_values(format!(":v{i}"), v.clone());
                }
                Some(_) => continue,
                None => removes.push(format!("#a{i}")),
            }
            call = call.expression_attribute_names(format!("#a{i}"), name);
        }
        if sets.is_empty() && removes.is_empty() {
            return None;
        }
        let mut expression = String::new();
        if !sets.is_empty() {
            expression.push_str(&format!("SET {}", sets.join(", ")));
        }
        if !removes.is_empty() {
            expression.push_str(&format!(" REMOVE {}", removes.join(", ")));
        }
        let (old_json, new_json) = (item_json(old), item_json(new));
        let (bytes, predicted) = update_prediction(self.model, &old_json, &new_json);
        let engine = match call.update_expression(expression.trim()).send().await {
            Ok(o) => o
                .consumed_capacity()
                .map(|c| engine_units(self.model, c))
                .ok_or_else(|| "no ConsumedCapacity returned".to_string()),
            Err(e) => Err(format!(
                "UpdateItem failed: {}",
                e.as_service_error()
                    .map_or_else(|| e.to_string(), |s| message(s))
            )),
        };
        let restored = self.restore(std::slice::from_ref(old)).await;
        Some(Measured {
            request: format!(
                "UpdateItem {} ({} attributes set, {} removed)",
                describe_primary(self.model, &old_json),
                sets.len(),
                removes.len()
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
                let sent = self
                    .client
                    .delete_item()
                    .table_name(&self.model.table.name)
                    .set_key(Some(key))
                    .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
                    .send()
                    .await;
                let engine = match sent {
                    Ok(o) => o
                        .consumed_capacity()
                        .map(|c| engine_units(self.model, c))
                        .ok_or_else(|| "no ConsumedCapacity returned".to_string()),
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
        let table = &self.model.table.name;
        for item in items {
            self.plain
                .delete_item()
                .table_name(table)
                .set_key(Some(self.key_of(item)))
                .send()
                .await
                .map_err(|e| format!("DeleteItem before the transaction failed: {e}"))?;
        }
        let mut actions = Vec::new();
        for item in items {
            let put = Put::builder()
                .table_name(table)
                .set_item(Some(item.clone()))
                .build()
                .map_err(|e| format!("cannot build the transaction: {e}"))?;
            actions.push(TransactWriteItem::builder().put(put).build());
        }
        let out = self
            .client
            .transact_write_items()
            .set_transact_items(Some(actions))
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
            .send()
            .await
            .map_err(|e| {
                format!(
                    "TransactWriteItems failed: {}",
                    e.as_service_error()
                        .map_or_else(|| e.to_string(), |s| message(s))
                )
            })?;
        let mut total = Units::default();
        let mut found = false;
        for c in out.consumed_capacity().iter().filter(|c| {
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
        for item in items {
            self.plain
                .put_item()
                .table_name(&self.model.table.name)
                .set_item(Some(item.clone()))
                .send()
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
