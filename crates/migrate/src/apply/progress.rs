//! What a migration did, counted per segment (and saved with its checkpoint) and live for a
//! progress bar.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use aws_sdk_dynamodb::types::AttributeValue;
use serde::Serialize;

/// Items by what became of them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ApplyCounts {
    /// Items read by the scan.
    pub scanned: u64,
    /// Items of entities the plan does not touch (and the migration's own record).
    pub untouched: u64,
    /// Items already in NEW's shape.
    pub unchanged: u64,
    /// Items rewritten at the same key.
    pub rewritten: u64,
    /// Items moved to a new key.
    pub moved: u64,
    /// Items of removed entities deleted.
    pub deleted: u64,
    /// Items left as they were, each with a reason (see [`Summary::left`]).
    pub left: u64,
    /// Items deleted by another writer between the scan and the rewrite.
    pub vanished: u64,
    /// Writes retried because another writer changed the item first.
    pub retried: u64,
}

const FIELDS: [&str; 9] = [
    "scanned",
    "untouched",
    "unchanged",
    "rewritten",
    "moved",
    "deleted",
    "left",
    "vanished",
    "retried",
];

impl ApplyCounts {
    fn fields_mut(&mut self) -> [&mut u64; 9] {
        [
            &mut self.scanned,
            &mut self.untouched,
            &mut self.unchanged,
            &mut self.rewritten,
            &mut self.moved,
            &mut self.deleted,
            &mut self.left,
            &mut self.vanished,
            &mut self.retried,
        ]
    }

    fn fields(&self) -> [u64; 9] {
        [
            self.scanned,
            self.untouched,
            self.unchanged,
            self.rewritten,
            self.moved,
            self.deleted,
            self.left,
            self.vanished,
            self.retried,
        ]
    }

    /// Adds `other`.
    pub fn add(&mut self, other: &ApplyCounts) {
        for (mine, theirs) in self.fields_mut().into_iter().zip(other.fields()) {
            *mine += theirs;
        }
    }

    /// As the attributes of a DynamoDB map.
    pub fn to_map(&self) -> HashMap<String, AttributeValue> {
        FIELDS
            .iter()
            .zip(self.fields())
            .map(|(name, v)| (name.to_string(), AttributeValue::N(v.to_string())))
            .collect()
    }

    /// Read back from [`ApplyCounts::to_map`]; missing fields are 0.
    pub fn from_map(map: &HashMap<String, AttributeValue>) -> ApplyCounts {
        let mut counts = ApplyCounts::default();
        for (name, slot) in FIELDS.iter().zip(counts.fields_mut()) {
            *slot = map
                .get(*name)
                .and_then(|v| v.as_n().ok())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
        }
        counts
    }
}

/// Live counters every segment adds to, for a progress bar.
#[derive(Debug, Default)]
pub struct ApplyProgress {
    /// Items read so far (including those counted before a resume).
    pub scanned: AtomicU64,
    /// Items written so far (rewritten, moved or deleted).
    pub written: AtomicU64,
    /// Items the table holds, as DescribeTable estimates (0 when unknown).
    pub total: AtomicU64,
    left: Mutex<BTreeMap<String, (u64, String)>>,
}

impl ApplyProgress {
    pub(crate) fn count(&self, scanned: u64, written: u64) {
        self.scanned.fetch_add(scanned, Ordering::Relaxed);
        self.written.fetch_add(written, Ordering::Relaxed);
    }

    /// Records an item left as it was: by reason, with the first item's key as an example.
    pub(crate) fn leave(&self, reason: &str, example: String) {
        let mut left = self.left.lock().unwrap_or_else(|e| e.into_inner());
        left.entry(reason.to_string()).or_insert((0, example)).0 += 1;
    }

    /// Items left, by reason: how many, and one of them.
    pub fn left(&self) -> BTreeMap<String, (u64, String)> {
        self.left.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_round_trip_through_a_map() {
        let counts = ApplyCounts {
            scanned: 9,
            rewritten: 4,
            retried: 1,
            ..ApplyCounts::default()
        };
        assert_eq!(ApplyCounts::from_map(&counts.to_map()), counts);
    }
}
