//! Capacity units of one call of an access pattern, and of one item write, per table and index.

use monotable_model::{EntityDecl, IndexKind, Model, Operation, Pattern, ProjectionType};
use serde::Serialize;

use super::estimate::entry_bytes;
use super::shards::{read_shards, shard_queries};
use super::size::{MAX_PAGE_BYTES, ReadConsistency, read_units, write_units};
use crate::num;

/// Most actions a `TransactWriteItems` call may hold; bounds a `count = "many"` write.
pub use monotable_model::MAX_TRANSACTION_ACTIONS;

/// Capacity units split the way `ReturnConsumedCapacity: INDEXES` reports them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Units {
    /// Table and indexes together (`CapacityUnits`).
    pub total: f64,
    /// The base table (`Table.CapacityUnits`).
    pub table: f64,
    /// Each index touched (`GlobalSecondaryIndexes` / `LocalSecondaryIndexes`), by name.
    pub indexes: Vec<IndexUnits>,
}

/// Units charged to one index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexUnits {
    /// Index name.
    pub index: String,
    /// Units.
    pub units: f64,
}

impl Units {
    fn add_table(&mut self, units: f64) {
        self.table += units;
        self.total += units;
    }

    fn add_index(&mut self, index: &str, units: f64) {
        if units == 0.0 {
            return;
        }
        self.total += units;
        match self.indexes.iter_mut().find(|i| i.index == index) {
            Some(i) => i.units += units,
            None => self.indexes.push(IndexUnits {
                index: index.to_string(),
                units,
            }),
        }
    }

    /// Adds `other` `times` times.
    pub fn add_scaled(&mut self, other: &Units, times: f64) {
        self.add_table(other.table * times);
        for i in &other.indexes {
            self.add_index(&i.index, i.units * times);
        }
    }

    /// Units charged to `index` (0 when untouched).
    pub fn index(&self, index: &str) -> f64 {
        self.indexes
            .iter()
            .find(|i| i.index == index)
            .map_or(0.0, |i| i.units)
    }
}

/// Indexes (not the table) the entity's items can be in, in model order: those it writes keys
/// for, and the native ones whose every key attribute it declares (its own attributes, no copy).
pub(crate) fn entity_indexes<'m>(
    model: &'m Model,
    entity: &EntityDecl,
) -> Vec<&'m monotable_model::Index> {
    model
        .indexes
        .iter()
        .filter(|i| entity.key(Some(&i.name)).is_some() || i.native_member(entity))
        .collect()
}

/// Write units of putting a new item (or deleting one): the item on the table, doubled when
/// transactional, plus one write of the projected entry in every index the item is in. A sparse
/// (conditional) index key counts as written: an upper bound.
pub fn put_units(model: &Model, entity: &EntityDecl, transactional: bool) -> Units {
    let mut units = Units::default();
    units.add_table(write_units(entry_bytes(model, entity, None), transactional));
    for index in entity_indexes(model, entity) {
        units.add_index(
            &index.name,
            write_units(entry_bytes(model, entity, Some(&index.name)), false),
        );
    }
    units
}

/// Write units of updating an item whose attributes `changed` change value: the item on the
/// table (doubled when transactional); in each index, two writes (delete + put) when a changed
/// attribute is in the index key (or gates it), one write when only projected attributes change,
/// none otherwise.
pub fn update_units(
    model: &Model,
    entity: &EntityDecl,
    changed: &[&str],
    transactional: bool,
) -> Units {
    let mut units = Units::default();
    units.add_table(write_units(entry_bytes(model, entity, None), transactional));
    for index in entity_indexes(model, entity) {
        let mut key_vars: Vec<&str> = Vec::new();
        if index.native {
            // The key is the item's own attributes: changing one moves the entry.
            key_vars.extend(index.key_attributes().map(|k| k.name.as_str()));
        } else if let Some(keys) = entity.key(Some(&index.name)) {
            key_vars.extend(keys.pk.template.variables());
            key_vars.extend(keys.pk.condition.as_deref());
            if let Some(sk) = &keys.sk {
                key_vars.extend(sk.template.variables());
                key_vars.extend(sk.condition.as_deref());
            }
        }
        let moves = changed.iter().any(|c| key_vars.contains(c));
        let projected = match index.projection {
            ProjectionType::All => !changed.is_empty(),
            ProjectionType::KeysOnly => false,
            ProjectionType::Include => changed.iter().any(|c| index.include.iter().any(|i| i == c)),
        };
        let writes = if moves {
            2.0
        } else if projected {
            1.0
        } else {
            0.0
        };
        let entry = entry_bytes(model, entity, Some(&index.name));
        units.add_index(&index.name, writes * write_units(entry, false));
    }
    units
}

/// Attributes an `UpdateItem` may change when the model does not say: every attribute not in
/// the table's primary key templates (those cannot change).
pub fn mutable_attributes(entity: &EntityDecl) -> Vec<&str> {
    let mut fixed: Vec<&str> = Vec::new();
    if let Some(keys) = entity.key(None) {
        fixed.extend(keys.pk.template.variables());
        if let Some(sk) = &keys.sk {
            fixed.extend(sk.template.variables());
        }
    }
    entity
        .attributes
        .iter()
        .map(|a| a.name.as_str())
        .filter(|a| !fixed.contains(a))
        .collect()
}

/// Units of one entity's share of a call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntityUnits {
    /// Entity name.
    pub entity: String,
    /// Units.
    pub units: f64,
}

/// The cost of one call of a pattern.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CallCost {
    /// Read consistency of a read (`None` for writes).
    pub consistency: Option<ReadConsistency>,
    /// Items read or written per call.
    pub items: u64,
    /// Requests one call makes: a read of a key sharded N ways is N Queries (or GetItems), one
    /// per shard, each for its share of the items ([`super::shard_queries`]); 1 otherwise.
    pub requests: u64,
    /// Bytes read per call (before any filter; capped at one 1 MB page).
    pub bytes: u64,
    /// Read units.
    pub rcu: Units,
    /// Write units.
    pub wcu: Units,
    /// Write units still charged when the condition fails (no index is written).
    pub wcu_if_condition_fails: f64,
    /// Read units of the same call with one table per entity (one request per entity type).
    pub rcu_table_per_entity: f64,
    /// Those read units by entity.
    pub rcu_by_entity: Vec<EntityUnits>,
    /// Requests of the same call with one table per entity.
    pub requests_table_per_entity: u64,
    /// Assumptions made for this pattern.
    pub notes: Vec<String>,
}

/// Items per call: the traffic figure, else `limit`, else one per returned entity.
fn items_per_call(model: &Model, pattern: &Pattern, notes: &mut Vec<String>) -> u64 {
    if pattern.operation == Operation::GetItem {
        return 1;
    }
    if let Some(n) = model
        .traffic
        .patterns
        .get(&pattern.name)
        .and_then(|t| t.items_per_read)
    {
        return n;
    }
    let n = if pattern.unique {
        1
    } else {
        pattern
            .limit
            .unwrap_or(num::count(pattern.returns.len().max(1)))
    };
    notes.push(format!("items per call not stated; assumed {n}"));
    n
}

/// Splits `n` items over the returned entities: an entity related to another returned one (the
/// collection's owner, e.g. an order with its items) counts once, the rest share the remainder.
fn allocate<'m>(model: &'m Model, pattern: &Pattern, n: u64) -> Vec<(&'m EntityDecl, u64)> {
    let entities: Vec<&EntityDecl> = pattern
        .returns
        .iter()
        .filter_map(|r| model.entity(&r.name))
        .collect();
    if entities.is_empty() {
        return Vec::new();
    }
    let names: Vec<&str> = entities.iter().map(|e| e.name.as_str()).collect();
    let is_owner = |e: &EntityDecl| {
        e.relations
            .iter()
            .any(|r| names.contains(&r.entity.as_str()))
    };
    let owners = num::count(entities.iter().filter(|e| is_owner(e)).count());
    let others = num::count(entities.len()).saturating_sub(owners);
    let (owner_share, rest) = if owners == 0 || others == 0 || n <= owners {
        (None, num::count(entities.len()))
    } else {
        (Some(1), others)
    };
    let pool = n - owner_share.map_or(0, |_| owners);
    let mut assigned = 0;
    entities
        .into_iter()
        .map(|e| match owner_share {
            Some(one) if is_owner(e) => (e, one),
            _ => {
                let share = (pool / rest) + u64::from(assigned < pool % rest);
                assigned += 1;
                (e, share)
            }
        })
        .collect()
}

/// What several requests of a read are called: `Queries`, `GetItems`.
fn request_name(operation: Operation) -> &'static str {
    match operation {
        Operation::Query => "Queries",
        Operation::Scan => "Scans",
        _ => "GetItems",
    }
}

/// The cost of one call of `pattern` from the model's size estimates.
pub fn call_cost(model: &Model, pattern: &Pattern) -> CallCost {
    let mut cost = CallCost::default();
    let index = pattern.index_name();
    if pattern.is_read() {
        let consistency = if pattern.consistent_read {
            ReadConsistency::Strong
        } else {
            ReadConsistency::Eventual
        };
        cost.consistency = Some(consistency);
        let items = items_per_call(model, pattern, &mut cost.notes);
        cost.items = items;
        let (requests, each) = shard_queries(items, read_shards(model, pattern));
        cost.requests = requests;
        if requests > 1 {
            cost.notes.push(format!(
                "its key is sharded {requests} ways: each read is {requests} {}, one per shard, of ~{each} items each, each charged on its own (at least one read unit, half of one when eventually consistent)",
                request_name(pattern.operation)
            ));
        }
        let shares = allocate(model, pattern, each);
        let entry = |e: &EntityDecl| entry_bytes(model, e, index);
        let units = match pattern.operation {
            Operation::GetItem | Operation::BatchGet => {
                // Each item is rounded up on its own.
                cost.bytes = shares.iter().fold(0u64, |sum, (e, k)| {
                    sum.saturating_add(k.saturating_mul(entry(e)))
                });
                cost.rcu_by_entity = shares
                    .iter()
                    .map(|(e, k)| EntityUnits {
                        entity: e.name.clone(),
                        units: num::to_f64(*k) * read_units(entry(e), consistency),
                    })
                    .collect();
                cost.requests_table_per_entity = 1;
                cost.rcu_table_per_entity = cost.rcu_by_entity.iter().map(|u| u.units).sum();
                cost.rcu_table_per_entity
            }
            _ => {
                // Query / Scan: the sum of every item read, rounded up once per call.
                let total: u64 = shares.iter().fold(0u64, |sum, (e, k)| {
                    sum.saturating_add(k.saturating_mul(entry(e)))
                });
                if total > MAX_PAGE_BYTES {
                    cost.notes.push(format!(
                        "{total} bytes per call exceed one 1 MB page; charged for one page"
                    ));
                }
                cost.bytes = total.min(MAX_PAGE_BYTES);
                cost.rcu_by_entity = shares
                    .iter()
                    .map(|(e, k)| EntityUnits {
                        entity: e.name.clone(),
                        units: read_units(
                            k.saturating_mul(entry(e)).min(MAX_PAGE_BYTES),
                            consistency,
                        ),
                    })
                    .collect();
                cost.rcu_table_per_entity = cost.rcu_by_entity.iter().map(|u| u.units).sum();
                cost.requests_table_per_entity = num::count(shares.len().max(1));
                read_units(cost.bytes, consistency)
            }
        };
        // Every shard's request is charged the same: one call is `requests` of them.
        let times = num::to_f64(requests);
        cost.bytes = cost.bytes.saturating_mul(requests);
        for u in &mut cost.rcu_by_entity {
            u.units *= times;
        }
        cost.rcu_table_per_entity *= times;
        cost.requests_table_per_entity = cost.requests_table_per_entity.saturating_mul(requests);
        match index {
            Some(name) => cost.rcu.add_index(name, units * times),
            None => cost.rcu.add_table(units * times),
        }
        if let Some(i) = index.and_then(|n| model.index(n))
            && i.kind == IndexKind::Local
            && i.projection != ProjectionType::All
        {
            cost.notes.push(
                "attributes outside the local index projection are fetched from the table at extra cost (not counted)"
                    .to_string(),
            );
        }
        return cost;
    }
    cost.requests = 1;
    cost.requests_table_per_entity = 1;
    match pattern.operation {
        Operation::TransactWrite | Operation::BatchWrite => {
            let shares = super::write::multi_write(model, pattern);
            for (_, units) in &shares.shares {
                cost.wcu.add_scaled(units, 1.0);
            }
            cost.items = shares.items;
            cost.wcu_if_condition_fails = shares.if_condition_fails;
            cost.notes.extend(shares.notes);
        }
        _ => {
            cost.items = 1;
            if let Some((entity, units)) = super::write::single_write(model, pattern) {
                let units = if pattern.operation == Operation::ConditionCheck {
                    cost.notes.push("a ConditionCheck runs inside a TransactWrite: charged as there, the item it reads in 1 KB write units, doubled, no index".to_string());
                    super::write::transactional(&units)
                } else {
                    units
                };
                if pattern.operation == Operation::UpdateItem && pattern.sets.is_none() {
                    cost.notes.push(format!(
                        "update states no `sets`: assumed to change every attribute of `{}` outside the primary key (upper bound)",
                        entity.name
                    ));
                }
                if pattern.operation == Operation::PutItem
                    && units.total > put_units(model, entity, false).total
                {
                    cost.notes.push("a replace (its condition needs the item): index keys assumed to move (upper bound)".to_string());
                }
                cost.wcu_if_condition_fails = units.table;
                cost.wcu = units;
            }
        }
    }
    cost
}
