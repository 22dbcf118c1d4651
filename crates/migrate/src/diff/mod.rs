//! `monotable diff OLD NEW`: every change between two model files, classified by what it takes
//! on a live table. Pure: no I/O.
//!
//! [`diff`] compares the table (key schema, billing, TTL), the indexes (as the CreateTable
//! definition each model implies) and the entities (renames, table and index key templates,
//! required attributes and their defaults), and says what is new in `check` on NEW. The
//! [`Diff`] drives [`crate::apply`]; [`cost`] prices each step.

pub mod cost;
mod entities;
mod render;
mod table;

use std::collections::BTreeSet;

use monotable_check::Diagnostic;
use monotable_model::Model;
use serde::Serialize;

pub use cost::{ItemCounts, StepCost};

/// What a change takes on a live table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    /// Nothing to do on the table: the change is in the model only (a pattern, a description).
    None,
    /// DynamoDB does it online (UpdateTable, UpdateTimeToLive).
    Online,
    /// Existing items are rewritten in place.
    Rewrite,
    /// Existing items move to a new primary key: put at the new key, delete the old one.
    Move,
    /// Something is removed: `migrate` asks for it to be confirmed.
    Remove,
    /// It cannot be done in place.
    Blocked,
}

/// One change between the two models.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Change {
    /// A global index NEW has and OLD does not.
    CreateIndex {
        /// The index.
        index: String,
        /// Keyed on attributes the items already hold (a native multi-attribute key): no
        /// item is rewritten for it.
        native: bool,
    },
    /// A global index OLD has and NEW does not.
    DeleteIndex {
        /// The index.
        index: String,
    },
    /// A global index whose key schema or projection changed: DynamoDB cannot update either, so
    /// it is deleted and created again (its patterns have no index in between).
    RecreateIndex {
        /// The index.
        index: String,
        /// What changed.
        what: String,
    },
    /// The billing mode changed.
    Billing {
        /// OLD's mode.
        from: String,
        /// NEW's mode.
        to: String,
    },
    /// The TTL attribute changed, was added or removed.
    Ttl {
        /// OLD's attribute.
        from: Option<String>,
        /// NEW's attribute.
        to: Option<String>,
    },
    /// An entity's items are written with other key attributes: they start writing an index key,
    /// write it with another template or condition, or stop writing it.
    Backfill {
        /// The entity (NEW's name).
        entity: String,
        /// The index.
        index: String,
        /// What changes, e.g. `starts writing GSI4PK, GSI4SK`.
        what: String,
    },
    /// An entity's table key template changed: its items move.
    Move {
        /// The entity (NEW's name).
        entity: String,
        /// OLD's key, `PK = ..., SK = ...`.
        from: String,
        /// NEW's key.
        to: String,
    },
    /// A required attribute existing items may lack, written with its default.
    Default {
        /// The entity.
        entity: String,
        /// The attribute.
        attribute: String,
        /// The default, as key templates see it.
        value: String,
    },
    /// An entity type renamed: `entityType` (and any key holding it) is rewritten.
    Rename {
        /// OLD's name.
        from: String,
        /// NEW's name.
        to: String,
        /// Inferred (the only removed and the only added entity have the same attributes)
        /// rather than stated with `renamed_from`.
        inferred: bool,
    },
    /// An entity NEW no longer has: its items are deleted when confirmed.
    RemoveEntity {
        /// The entity.
        entity: String,
    },
    /// An entity NEW adds: nothing to migrate.
    AddEntity {
        /// The entity.
        entity: String,
    },
    /// A model-only change: patterns, descriptions, traffic.
    ModelOnly {
        /// What changed.
        what: String,
    },
    /// What cannot be done in place, and the way out.
    Blocked {
        /// What changed.
        what: String,
        /// Why it cannot be done in place.
        why: String,
        /// The way out.
        help: String,
    },
}

impl Change {
    /// What the change takes.
    pub fn effect(&self) -> Effect {
        match self {
            Change::CreateIndex { .. }
            | Change::RecreateIndex { .. }
            | Change::Billing { .. }
            | Change::Ttl { .. } => Effect::Online,
            Change::Backfill { .. } | Change::Default { .. } | Change::Rename { .. } => {
                Effect::Rewrite
            }
            Change::Move { .. } => Effect::Move,
            Change::DeleteIndex { .. } | Change::RemoveEntity { .. } => Effect::Remove,
            Change::AddEntity { .. } | Change::ModelOnly { .. } => Effect::None,
            Change::Blocked { .. } => Effect::Blocked,
        }
    }

    /// The entity whose items the change rewrites, moves or deletes (OLD's name for a rename).
    pub fn touches(&self) -> Option<&str> {
        match self {
            Change::Backfill { entity, .. }
            | Change::Move { entity, .. }
            | Change::Default { entity, .. }
            | Change::RemoveEntity { entity } => Some(entity),
            Change::Rename { from, .. } => Some(from),
            _ => None,
        }
    }
}

/// Every change from OLD to NEW, and what `check` finds new in NEW.
#[derive(Debug, Clone, Serialize)]
pub struct Diff {
    /// The changes, table first, then indexes, then entities.
    pub changes: Vec<Change>,
    /// OLD entity name to NEW entity name, for every entity kept (renamed or not).
    pub renames: Vec<(String, String)>,
    /// `check` diagnostics NEW has and OLD does not (same code and message).
    #[serde(skip)]
    pub new_findings: Vec<Diagnostic>,
}

impl Diff {
    /// Whether anything cannot be done in place.
    pub fn is_blocked(&self) -> bool {
        self.changes.iter().any(|c| c.effect() == Effect::Blocked)
    }

    /// Whether `check` finds errors in NEW that OLD did not have: NEW must be fixed first.
    pub fn new_errors(&self) -> usize {
        self.new_findings
            .iter()
            .filter(|d| d.severity == monotable_check::Severity::Error)
            .count()
    }

    /// Whether the table's items need a scan: something rewrites, moves or deletes items.
    pub fn needs_scan(&self) -> bool {
        self.changes.iter().any(|c| {
            matches!(c.effect(), Effect::Rewrite | Effect::Move | Effect::Remove)
                && c.touches().is_some()
        })
    }

    /// Entity types (OLD and NEW names) whose items the scan rewrites, moves or deletes.
    pub fn touched(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for c in &self.changes {
            if let Some(e) = c.touches() {
                out.insert(e.to_string());
                if let Some((_, to)) = self.renames.iter().find(|(from, _)| from == e) {
                    out.insert(to.clone());
                }
                if let Some((from, _)) = self.renames.iter().find(|(_, to)| to == e) {
                    out.insert(from.clone());
                }
            }
        }
        out
    }

    /// NEW's name for OLD's entity `name`, if NEW keeps it.
    pub fn renamed(&self, name: &str) -> Option<&str> {
        self.renames
            .iter()
            .find(|(from, _)| from == name)
            .map(|(_, to)| to.as_str())
    }
}

/// Compares two models.
pub fn diff(old: &Model, new: &Model) -> Diff {
    let mut changes = table::table_changes(old, new);
    changes.extend(table::index_changes(old, new));
    let (renames, entity_changes) = entities::entity_changes(old, new);
    changes.extend(entity_changes);
    changes.extend(table::model_only(old, new));
    Diff {
        changes,
        renames,
        new_findings: new_findings(old, new),
    }
}

/// `check` diagnostics of NEW whose code and message OLD's do not have.
fn new_findings(old: &Model, new: &Model) -> Vec<Diagnostic> {
    let before: BTreeSet<(&'static str, String)> = monotable_check::check_model(old)
        .into_iter()
        .map(|d| (d.code, d.message.clone()))
        .collect();
    monotable_check::check_model(new)
        .into_iter()
        .filter(|d| !before.contains(&(d.code, d.message.clone())))
        .collect()
}

pub use render::{Files, describe, render_human, render_json};
