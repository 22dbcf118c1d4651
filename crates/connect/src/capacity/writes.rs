//! PutItem, UpdateItem and DeleteItem under the throughput rules, and the index bookkeeping
//! every write shares: which index partitions the item leaves and enters, and where each
//! index's write units land.

use std::collections::HashMap;

use dynoxide::Database;
use dynoxide::actions::delete_item::DeleteItemRequest;
use dynoxide::actions::get_item::GetItemRequest;
use dynoxide::actions::put_item::PutItemRequest;
use dynoxide::actions::update_item::UpdateItemRequest;
use dynoxide::types::ConsumedCapacity;

use super::catalog::TableInfo;
use super::keys::{self, Item};
use super::reads::{INDEXES, index_units, respond, restore, table_units};
use super::{Emulator, Op, Touch};
use crate::answer::Answer;

/// The index partitions an item image sits in: (index, partition key value).
pub(super) type IndexKeys = Vec<(String, String)>;

/// One write's place in the table: its partition and the index partitions before and after.
#[derive(Debug, Clone, Default)]
pub(super) struct Placement {
    pub key: Option<String>,
    pub before: IndexKeys,
    pub after: IndexKeys,
}

impl Placement {
    /// The claims the write makes: the table partition, then each index partition it leaves
    /// or enters.
    pub fn touches(&self) -> Vec<Touch> {
        let mut out = vec![Touch {
            index: None,
            key: self.key.clone(),
            op: Op::Write,
        }];
        for (index, key) in self.before.iter().chain(&self.after) {
            let touch = Touch {
                index: Some(index.clone()),
                key: Some(key.clone()),
                op: Op::Write,
            };
            if !out.contains(&touch) {
                out.push(touch);
            }
        }
        out
    }

    /// Charge `share` of what the engine says the write consumed: the table's units to its
    /// partition, each index's to the index partitions it left and entered (half each when
    /// it moved between two). `held` units were already taken from each claim's buckets when
    /// it was admitted ([`Emulator::hold`]).
    pub fn charge(
        &self,
        emu: &Emulator,
        table: &TableInfo,
        consumed: Option<&ConsumedCapacity>,
        share: f64,
        held: f64,
    ) {
        let touch = |index: Option<&str>, key: Option<&String>| Touch {
            index: index.map(str::to_string),
            key: key.cloned(),
            op: Op::Write,
        };
        emu.charge(
            table,
            &touch(None, self.key.as_ref()),
            table_units(consumed) * share,
            held,
        );
        for (index, units) in index_units(consumed) {
            let units = units * share;
            match (find(&self.before, &index), find(&self.after, &index)) {
                (Some(a), Some(b)) if a != b => {
                    emu.charge(table, &touch(Some(&index), Some(a)), units / 2.0, held);
                    emu.charge(table, &touch(Some(&index), Some(b)), units / 2.0, held);
                }
                (Some(k), _) | (None, Some(k)) => {
                    emu.charge(table, &touch(Some(&index), Some(k)), units, held);
                }
                (None, None) => emu.charge(table, &touch(Some(&index), None), units, held),
            }
        }
    }
}

/// The partition of `index` in `keys`.
fn find<'a>(keys: &'a IndexKeys, index: &str) -> Option<&'a String> {
    keys.iter().find(|(i, _)| i == index).map(|(_, k)| k)
}

/// The index partitions `item` sits in: every global secondary index whose key attributes it
/// has.
pub(super) fn index_keys(table: &TableInfo, item: &Item) -> IndexKeys {
    table
        .indexes
        .iter()
        .filter(|r| r.sort_keys.iter().all(|s| item.contains_key(s)))
        .filter_map(|r| {
            let key = keys::partition_of(item, &r.partition_keys)?;
            Some((r.index.clone()?, key))
        })
        .collect()
}

/// The table's key attributes of `item`.
pub(super) fn key_of(table: &TableInfo, item: &Item) -> Item {
    let names = table
        .table
        .partition_keys
        .iter()
        .chain(&table.table.sort_keys);
    names
        .filter_map(|n| item.get(n).map(|v| (n.clone(), v.clone())))
        .collect()
}

/// The index partitions the item at `key` sits in now (a consistent read of its key
/// attributes); empty when the table has no global secondary index or the item is absent.
pub(super) fn current(db: &Database, table: &TableInfo, key: &Item) -> IndexKeys {
    if table.indexes.is_empty() {
        return Vec::new();
    }
    let attributes = table.key_attributes();
    let names: HashMap<String, String> = attributes
        .iter()
        .enumerate()
        .map(|(i, a)| (format!("#k{i}"), (*a).to_string()))
        .collect();
    let projection = (0..attributes.len())
        .map(|i| format!("#k{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let request = GetItemRequest {
        table_name: table.name.clone(),
        key: key.clone(),
        consistent_read: Some(true),
        projection_expression: Some(projection),
        expression_attribute_names: Some(names),
        ..GetItemRequest::default()
    };
    match db.get_item(request) {
        Ok(response) => response
            .item
            .map(|item| index_keys(table, &item))
            .unwrap_or_default(),
        Err(_) => Vec::new(),
    }
}

/// Whether an update may move the item between index partitions: its expression (or legacy
/// `AttributeUpdates`) names an index key attribute.
pub(super) fn moves_index_keys(
    table: &TableInfo,
    expression: Option<&str>,
    names: Option<&HashMap<String, String>>,
    legacy: Option<Vec<&String>>,
) -> bool {
    let attributes: Vec<&str> = table
        .indexes
        .iter()
        .flat_map(|r| {
            r.partition_keys
                .iter()
                .chain(&r.sort_keys)
                .map(String::as_str)
        })
        .collect();
    if attributes.is_empty() {
        return false;
    }
    expression.is_some_and(|e| keys::names_any(e, names, &attributes))
        || legacy.is_some_and(|l| l.iter().any(|n| attributes.contains(&n.as_str())))
}

/// A write whose condition failed still consumes write capacity on DynamoDB: the size of the
/// item it found (at least one unit). The engine reports nothing for it, so it is charged here.
fn refused_condition(
    emu: &Emulator,
    db: &Database,
    table: &TableInfo,
    placement: &Placement,
    key: &Item,
    error: Option<&dynoxide::DynoxideError>,
) {
    if !matches!(
        error,
        Some(dynoxide::DynoxideError::ConditionalCheckFailedException(..))
    ) {
        return;
    }
    let request = GetItemRequest {
        table_name: table.name.clone(),
        key: key.clone(),
        consistent_read: Some(true),
        ..GetItemRequest::default()
    };
    let bytes = db
        .get_item(request)
        .ok()
        .and_then(|r| r.item)
        .map_or(0, |item| dynoxide::types::item_size(&item));
    let units = dynoxide::types::write_capacity_units(bytes).max(1.0);
    let touch = Touch {
        index: None,
        key: placement.key.clone(),
        op: Op::Write,
    };
    emu.charge(table, &touch, units, 0.0);
}

/// Whether the caller asked for no `ReturnValues` (so the emulator may ask for an image itself
/// and drop it from the answer).
fn asks_nothing(return_values: Option<&str>) -> bool {
    matches!(return_values, None | Some("NONE"))
}

/// A put's or delete's old image: whether the answer returns it, and whether the emulator
/// asked for it (`ALL_OLD` when the caller asked for nothing) and must drop it again.
#[derive(Debug, Clone, Copy)]
struct OldImage {
    injected: bool,
    returned: bool,
}

impl OldImage {
    /// Ask for the old image unless the caller asked for something of its own.
    fn ask(return_values: &mut Option<String>) -> OldImage {
        let injected = asks_nothing(return_values.as_deref());
        if injected {
            *return_values = Some("ALL_OLD".into());
        }
        let returned = return_values.as_deref() == Some("ALL_OLD");
        OldImage { injected, returned }
    }

    /// The index partitions the old image sat in (else `before`, read earlier), leaving the
    /// answer's attributes as the caller asked for them.
    fn take(
        self,
        table: &TableInfo,
        attributes: &mut Option<Item>,
        before: IndexKeys,
    ) -> IndexKeys {
        let keys = if self.returned {
            image_keys(table, attributes.as_ref())
        } else {
            before
        };
        if self.injected {
            *attributes = None;
        }
        keys
    }
}

/// The index partitions of a returned image.
fn image_keys(table: &TableInfo, image: Option<&Item>) -> IndexKeys {
    image
        .map(|item| index_keys(table, item))
        .unwrap_or_default()
}

/// The rest of a PutItem or DeleteItem once where it writes is known: admitted on its
/// partition or throttled, the old image asked for (or the item's index keys read first), the
/// call run and a refused condition charged, then what it consumed charged and restored to
/// what the caller asked for. A macro, as the two calls' requests and answers are distinct
/// types with the same fields.
macro_rules! write_one {
    ($emu:ident, $db:ident, $table:ident, $placement:ident, $key:ident, $request:ident, $call:ident) => {{
        let (mut placement, mut request) = ($placement, $request);
        if let Err(throttle) = $emu.admit(&$table, &placement.touches()) {
            return Some(throttle.answer());
        }
        let old = OldImage::ask(&mut request.return_values);
        if !old.returned {
            placement.before = current($db, &$table, &$key);
        }
        let wanted = request.return_consumed_capacity.replace(INDEXES.into());
        let result = $db.$call(request);
        refused_condition($emu, $db, &$table, &placement, &$key, result.as_ref().err());
        Some(respond(result.map(|mut response| {
            placement.before = old.take(&$table, &mut response.attributes, placement.before);
            placement.charge($emu, &$table, response.consumed_capacity.as_ref(), 1.0, 0.0);
            response.consumed_capacity =
                restore(response.consumed_capacity.take(), wanted.as_deref());
            response
        })))
    }};
}

/// PutItem: admitted on its partition and the index partitions the new item enters; the ones
/// an overwritten item leaves are learnt from its old image (asked for with `ALL_OLD` when the
/// caller asked for nothing) and charged after.
pub(super) fn put_item(emu: &Emulator, db: &Database, body: &[u8]) -> Option<Answer> {
    let request: PutItemRequest = serde_json::from_slice(body).ok()?;
    let table = emu.table(db, &request.table_name)?;
    let key = key_of(&table, &request.item);
    let placement = Placement {
        key: keys::partition_of(&request.item, &table.table.partition_keys),
        before: Vec::new(),
        after: index_keys(&table, &request.item),
    };
    write_one!(emu, db, table, placement, key, request, put_item)
}

/// Which image of the item an UpdateItem answers with.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Image {
    /// The new item, asked for by the emulator (dropped from the answer).
    Injected,
    /// The whole new or old item, as the caller asked.
    Whole,
    /// Only part of it, or nothing the emulator can use.
    Partial,
}

/// UpdateItem. One that names no index key leaves the item in the index partitions it was in:
/// they are read from the image the update returns (`ALL_NEW`, asked for when the caller asked
/// for nothing). One that names an index key is admitted on the partitions the item sits in
/// (read before) and charged on those it moves to too.
pub(super) fn update_item(emu: &Emulator, db: &Database, body: &[u8]) -> Option<Answer> {
    let mut request: UpdateItemRequest = serde_json::from_slice(body).ok()?;
    let table = emu.table(db, &request.table_name)?;
    let moves = moves_index_keys(
        &table,
        request.update_expression.as_deref(),
        request.expression_attribute_names.as_ref(),
        request
            .attribute_updates
            .as_ref()
            .map(|u| u.keys().collect()),
    );
    let image = match request.return_values.as_deref() {
        None | Some("NONE") => Image::Injected,
        Some("ALL_NEW") | Some("ALL_OLD") => Image::Whole,
        Some(_) => Image::Partial,
    };
    let needs_reads = moves || image == Image::Partial;
    let mut placement = Placement {
        key: keys::partition_of(&request.key, &table.table.partition_keys),
        before: if needs_reads {
            current(db, &table, &request.key)
        } else {
            Vec::new()
        },
        after: Vec::new(),
    };
    if !moves {
        placement.after = placement.before.clone();
    }
    if let Err(throttle) = emu.admit(&table, &placement.touches()) {
        return Some(throttle.answer());
    }
    if image == Image::Injected {
        request.return_values = Some("ALL_NEW".into());
    }
    let new_image = image == Image::Injected || request.return_values.as_deref() == Some("ALL_NEW");
    let key = request.key.clone();
    let wanted = request.return_consumed_capacity.replace(INDEXES.into());
    let result = db.update_item(request);
    refused_condition(emu, db, &table, &placement, &key, result.as_ref().err());
    Some(respond(result.map(|mut response| {
        match (moves, needs_reads, new_image) {
            // Moved: where it went, from the new image or read again.
            (true, _, true) => placement.after = image_keys(&table, response.attributes.as_ref()),
            (true, _, false) => placement.after = current(db, &table, &key),
            // Stayed: where it is, from whichever whole image came back.
            (false, false, _) => {
                placement.before = image_keys(&table, response.attributes.as_ref());
                placement.after = placement.before.clone();
            }
            (false, true, _) => {}
        }
        if image == Image::Injected {
            response.attributes = None;
        }
        placement.charge(emu, &table, response.consumed_capacity.as_ref(), 1.0, 0.0);
        response.consumed_capacity = restore(response.consumed_capacity.take(), wanted.as_deref());
        response
    })))
}

/// DeleteItem: admitted on its partition; the index partitions the item leaves come from its
/// old image (`ALL_OLD`, asked for when the caller asked for nothing) and are charged after.
pub(super) fn delete_item(emu: &Emulator, db: &Database, body: &[u8]) -> Option<Answer> {
    let request: DeleteItemRequest = serde_json::from_slice(body).ok()?;
    let table = emu.table(db, &request.table_name)?;
    let key = request.key.clone();
    let placement = Placement {
        key: keys::partition_of(&key, &table.table.partition_keys),
        before: Vec::new(),
        after: Vec::new(),
    };
    write_one!(emu, db, table, placement, key, request, delete_item)
}
