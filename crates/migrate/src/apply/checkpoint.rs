//! The migration's progress, kept in the table itself: one item per migration (keyed by the
//! two models' fingerprint) holding each segment's last key and counts. A killed migration
//! reads it back and resumes each segment where it stopped.

use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::delete::DeleteItem;
use monotable_access::get::GetItem;
use monotable_access::items::{self, ENTITY_TYPE, Item};
use monotable_access::update::UpdateItem;
use monotable_access::{PutSpec, Table};
use monotable_model::{KeyAttributeType, Model};
use sha2::{Digest, Sha256};

use super::ApplyError;
use super::progress::ApplyCounts;
use crate::rewrite::MIGRATION_ENTITY;

/// Where one segment stands.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SegmentState {
    /// The key the next page starts after; `None` before the first page.
    pub next: Option<Item>,
    /// The segment has been read to its end.
    pub done: bool,
    /// What the segment did so far.
    pub counts: ApplyCounts,
}

/// A migration's record in the table.
#[derive(Debug, Clone)]
pub struct Checkpoint {
    key: Item,
    /// Segments the scan is split into (fixed by the first run).
    pub segments: i32,
    /// Each segment's state.
    pub states: Vec<SegmentState>,
}

/// The fingerprint of a migration: the two model files' text.
pub fn migration_id(old_source: &str, new_source: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(old_source.as_bytes());
    hash.update([0u8]);
    hash.update(new_source.as_bytes());
    hash.finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn key_value(ty: KeyAttributeType, text: String) -> Option<AttributeValue> {
    match ty {
        KeyAttributeType::S => Some(AttributeValue::S(text)),
        KeyAttributeType::B => Some(AttributeValue::B(Blob::new(text.into_bytes()))),
        KeyAttributeType::N => None,
    }
}

/// The record's primary key in `model`'s table; `None` when the table's keys are numbers.
pub fn record_key(model: &Model, id: &str) -> Option<Item> {
    let mut key = Item::new();
    let pk = &model.table.partition_key;
    key.insert(
        pk.name.clone(),
        key_value(pk.ty, format!("_monotable#migration#{id}"))?,
    );
    if let Some(sk) = &model.table.sort_key {
        key.insert(sk.name.clone(), key_value(sk.ty, "MIGRATION".to_string())?);
    }
    Some(key)
}

fn n(v: u64) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

fn state_value(state: &SegmentState) -> AttributeValue {
    let mut m: HashMap<String, AttributeValue> = state.counts.to_map();
    m.insert("done".into(), AttributeValue::Bool(state.done));
    if let Some(next) = &state.next {
        m.insert(
            "next".into(),
            AttributeValue::S(items::to_json(next).to_string()),
        );
    }
    AttributeValue::M(m)
}

fn state_of(value: Option<&AttributeValue>) -> SegmentState {
    let Some(AttributeValue::M(m)) = value else {
        return SegmentState::default();
    };
    let next = m
        .get("next")
        .and_then(|v| v.as_s().ok())
        .and_then(|s| serde_json::from_str(s).ok())
        .and_then(|j: serde_json::Value| items::key_from_json(&j));
    SegmentState {
        next,
        done: m
            .get("done")
            .and_then(|v| v.as_bool().ok())
            .copied()
            .unwrap_or(false),
        counts: ApplyCounts::from_map(m),
    }
}

impl Checkpoint {
    /// Reads the record of migration `id`, or starts one of `segments` segments. `None` when the
    /// table cannot hold one (numeric keys): the migration then runs without resume.
    pub async fn open(
        table: &Table,
        model: &Model,
        id: &str,
        segments: i32,
        restart: bool,
    ) -> Result<Option<Checkpoint>, ApplyError> {
        let Some(key) = record_key(model, id) else {
            return Ok(None);
        };
        let found = GetItem::new(key.clone())
            .consistent(true)
            .send(table)
            .await
            .map_err(|e| ApplyError::get("GetItem", e))?;
        let item = found.filter(|_| !restart);
        let segments = item
            .as_ref()
            .and_then(|i| i.get("segments"))
            .and_then(|v| v.as_n().ok())
            .and_then(|v| v.parse().ok())
            .unwrap_or(segments);
        let states = (0..segments)
            .map(|s| state_of(item.as_ref().and_then(|i| i.get(&format!("s{s}")))))
            .collect();
        let checkpoint = Checkpoint {
            key,
            segments,
            states,
        };
        if item.is_none() {
            checkpoint.create(table, id).await?;
        }
        Ok(Some(checkpoint))
    }

    /// Whether an earlier run had started (some segment has progress).
    pub fn resumed(&self) -> bool {
        self.states.iter().any(|s| s.next.is_some() || s.done)
    }

    async fn create(&self, table: &Table, id: &str) -> Result<(), ApplyError> {
        let mut item = self.key.clone();
        item.insert(
            ENTITY_TYPE.into(),
            AttributeValue::S(MIGRATION_ENTITY.into()),
        );
        item.insert("migration".into(), AttributeValue::S(id.to_string()));
        item.insert(
            "segments".into(),
            n(u64::try_from(self.segments).unwrap_or(1)),
        );
        for (s, state) in self.states.iter().enumerate() {
            item.insert(format!("s{s}"), state_value(state));
        }
        let keys: Vec<&str> = self.key.keys().map(String::as_str).collect();
        PutSpec::item(item, &keys)
            .send(table)
            .await
            .map_err(|e| ApplyError::write("PutItem", e))
    }

    /// Records segment `segment`'s state (only its own attribute: segments never clobber each
    /// other's progress).
    pub async fn save(
        table: &Table,
        key: &Item,
        segment: i32,
        state: &SegmentState,
    ) -> Result<(), ApplyError> {
        UpdateItem::new(key.clone())
            .set(format!("s{segment}"), state_value(state))
            .build()
            .send(table)
            .await
            .map_err(|e| ApplyError::write("UpdateItem", e))
    }

    /// The record's key.
    pub fn key(&self) -> &Item {
        &self.key
    }

    /// Deletes the record: the migration is complete.
    pub async fn finish(&self, table: &Table) -> Result<(), ApplyError> {
        DeleteItem::new(self.key.clone())
            .send(table)
            .await
            .map_err(|e| ApplyError::write("DeleteItem", e))
    }
}
