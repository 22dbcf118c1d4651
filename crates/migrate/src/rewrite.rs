//! One item written under OLD turned into the item NEW writes: its entity renamed, required
//! attributes given their defaults, every key attribute rendered again from NEW's templates and
//! the key attributes NEW no longer writes removed. Pure and idempotent: an item already in
//! NEW's shape comes back [`RewriteOutcome::Unchanged`], which is what makes a killed migration safe to
//! run again.

use std::collections::BTreeSet;

use monotable_access::items::{self, Item};
use monotable_access::value::template_texts;
use monotable_access::value::text::typed;
use monotable_model::Model;

use crate::diff::{Change, Diff};

pub use monotable_access::items::MIGRATION_ENTITY;

/// What becomes of one item.
#[derive(Debug, Clone, PartialEq)]
pub enum RewriteOutcome {
    /// Its entity is not one the plan touches: not looked at.
    Untouched,
    /// Already what NEW writes.
    Unchanged,
    /// Rewritten at the same primary key.
    Put(Item),
    /// Written at a new primary key; the old one (`from`) is deleted.
    Move {
        /// The item NEW writes.
        item: Item,
        /// The old item's primary key.
        from: Item,
    },
    /// Its entity is removed and removal was confirmed: the item's key.
    Delete(Item),
    /// Left as it is, and why: reported, never silent.
    Leave(String),
}

/// Rewrites items from OLD's shape to NEW's.
#[derive(Debug)]
pub struct Rewriter<'a> {
    old: &'a Model,
    new: &'a Model,
    diff: &'a Diff,
    touched: BTreeSet<String>,
    /// Key attributes either model renders from templates (the table's and each non-native
    /// index's): removed and written again on every rewrite.
    synthetic: BTreeSet<String>,
    delete_removed: bool,
}

fn synthetic_keys(model: &Model) -> impl Iterator<Item = String> + '_ {
    let table = std::iter::once(model.table.partition_key.name.clone())
        .chain(model.table.sort_key.as_ref().map(|k| k.name.clone()));
    let indexes = model
        .indexes
        .iter()
        .filter(|i| !i.native)
        .flat_map(|i| i.key_attributes().map(|k| k.name.clone()));
    table.chain(indexes)
}

impl<'a> Rewriter<'a> {
    /// A rewriter for `diff` (from `old` to `new`). Items of removed entities are deleted only
    /// when `delete_removed`; otherwise they are left and reported.
    pub fn new(old: &'a Model, new: &'a Model, diff: &'a Diff, delete_removed: bool) -> Self {
        Rewriter {
            old,
            new,
            diff,
            touched: diff.touched(),
            synthetic: synthetic_keys(old).chain(synthetic_keys(new)).collect(),
            delete_removed,
        }
    }

    /// The primary key of `item` under `model`'s table.
    pub fn primary_key(model: &Model, item: &Item) -> Item {
        std::iter::once(&model.table.partition_key.name)
            .chain(model.table.sort_key.as_ref().map(|k| &k.name))
            .filter_map(|k| item.get(k).map(|v| (k.clone(), v.clone())))
            .collect()
    }

    /// What becomes of `item`.
    pub fn rewrite(&self, item: &Item) -> RewriteOutcome {
        let Some(ty) = items::entity_type(item) else {
            return RewriteOutcome::Leave("it has no `entityType`".to_string());
        };
        if ty == MIGRATION_ENTITY || !self.touched.contains(ty) {
            return RewriteOutcome::Untouched;
        }
        let target = match self.diff.renamed(ty) {
            Some(to) => to,
            None if self.new.entity(ty).is_some() => ty,
            None => return self.removed(ty, item),
        };
        match self.render(target, item) {
            Ok(next) => self.compare(item, next),
            Err(why) => RewriteOutcome::Leave(why),
        }
    }

    /// Attributes `item` lacks that a concurrent writer could add: every attribute its entity
    /// declares in either model, and the key attributes NEW writes. A conditional rewrite
    /// requires them still absent, so it never drops what another writer added.
    pub fn absent(&self, item: &Item) -> Vec<String> {
        let ty = items::entity_type(item).unwrap_or_default();
        let target = self.diff.renamed(ty).unwrap_or(ty);
        let mut names: BTreeSet<&str> = BTreeSet::new();
        for (model, name) in [(self.old, ty), (self.new, target)] {
            if let Some(e) = model.entity(name) {
                names.extend(e.attributes.iter().map(|a| a.name.as_str()));
                names.extend(e.keys.iter().map(|k| k.attribute.as_str()));
            }
        }
        names
            .into_iter()
            .filter(|n| !item.contains_key(*n))
            .map(str::to_string)
            .collect()
    }

    /// The attributes the rewrite of `item` reads: `entityType`, and every input (template
    /// variable or sparse condition) of every key its entity writes in either model. A rewrite
    /// in place is conditioned on these still holding what the scan read.
    pub fn inputs(&self, item: &Item) -> Vec<String> {
        let ty = items::entity_type(item).unwrap_or_default();
        let target = self.diff.renamed(ty).unwrap_or(ty);
        let mut names: BTreeSet<&str> = BTreeSet::from([items::ENTITY_TYPE]);
        for (model, name) in [(self.old, ty), (self.new, target)] {
            for key in model
                .entity(name)
                .map(|e| e.keys.as_slice())
                .unwrap_or_default()
            {
                names.extend(key.template.variables());
                names.extend(key.condition.as_deref());
            }
        }
        names.into_iter().map(str::to_string).collect()
    }

    fn removed(&self, ty: &str, item: &Item) -> RewriteOutcome {
        let removed = self
            .diff
            .changes
            .iter()
            .any(|c| matches!(c, Change::RemoveEntity { entity } if entity == ty));
        if removed && self.delete_removed {
            RewriteOutcome::Delete(Self::primary_key(self.old, item))
        } else if removed {
            RewriteOutcome::Leave(format!(
                "entity `{ty}` is not in NEW; --delete-removed deletes its items"
            ))
        } else {
            RewriteOutcome::Leave(format!("entity type `{ty}` is in neither model"))
        }
    }

    /// The item NEW writes for `item` as entity `target`.
    fn render(&self, target: &str, item: &Item) -> Result<Item, String> {
        let entity = self
            .new
            .entity(target)
            .ok_or_else(|| format!("NEW has no entity `{target}`"))?;
        let mut next: Item = item
            .iter()
            .filter(|(k, _)| !self.synthetic.contains(*k) || entity.attribute(k).is_some())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for a in &entity.attributes {
            if let Some(default) = &a.default
                && a.required
                && !next.contains_key(&a.name)
            {
                next.insert(a.name.clone(), typed(a, default));
            }
        }
        let texts = template_texts(&next);
        let text = |name: &str| texts.get(name).cloned();
        let keys = items::keys(self.new, target, &text).map_err(|e| e.to_string())?;
        next.extend(keys);
        Ok(next)
    }

    fn compare(&self, item: &Item, next: Item) -> RewriteOutcome {
        if &next == item {
            return RewriteOutcome::Unchanged;
        }
        let from = Self::primary_key(self.old, item);
        if Self::primary_key(self.new, &next) == from {
            RewriteOutcome::Put(next)
        } else {
            RewriteOutcome::Move { item: next, from }
        }
    }
}

#[cfg(test)]
mod tests;
