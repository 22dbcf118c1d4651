//! From a draft to a model that parses: the model's limits applied first, then each section the
//! model refuses taken out with the model's own message, and what depended on it with it, until
//! nothing is refused. Every part taken out is listed.

use std::collections::BTreeMap;

use monotable_model::limits::{
    MAX_ATTRIBUTES, MAX_ENTITIES, MAX_GLOBAL_INDEXES, MAX_LOCAL_INDEXES, MAX_PATTERNS,
};

use super::draft::{Draft, Section};
use super::json::{Notes, shown};
use super::{AwsMcpError, nothing};

/// The model text of `draft`, or why nothing usable remains. `offered`: the file had entities
/// (or items) to import, so a model left without any is a failure, not a table alone.
pub(super) fn settle(
    mut draft: Draft,
    offered: bool,
    notes: &mut Notes,
) -> Result<String, AwsMcpError> {
    within_limits(&mut draft, notes);
    loop {
        let written = draft.write();
        let issues = match monotable_model::parse(&written.text) {
            Ok(_) if offered && draft.entities.is_empty() => {
                return Err(nothing(notes, "no entity could be imported"));
            }
            Ok(_) => return Ok(written.text),
            Err(e) => e.issues,
        };
        let mut refused: BTreeMap<Key, String> = BTreeMap::new();
        for issue in issues {
            let section = issue
                .span
                .as_ref()
                .map_or(Section::Table, |s| written.section_at(s.start));
            let Some(key) = Key::of(section) else {
                let reason = format!("the model refuses the table: {}", issue.message);
                return Err(nothing(notes, &reason));
            };
            refused.entry(key).or_insert(issue.message);
        }
        take_out(&mut draft, &refused, notes);
    }
}

/// A section that can be taken out; ordered so that removing by position from the back keeps
/// the other positions right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Index(usize),
    Entity(usize),
    Pattern(usize),
}

impl Key {
    fn of(section: Section) -> Option<Key> {
        match section {
            Section::Table => None,
            Section::Index(i) => Some(Key::Index(i)),
            Section::Entity(i) => Some(Key::Entity(i)),
            Section::Pattern(i) => Some(Key::Pattern(i)),
        }
    }
}

fn refused_note(message: &str) -> String {
    format!("not imported: the model refuses it: {message}")
}

/// Takes out every refused section, then what named them.
fn take_out(draft: &mut Draft, refused: &BTreeMap<Key, String>, notes: &mut Notes) {
    let mut gone_indexes = Vec::new();
    let mut gone_entities = Vec::new();
    let mut gone_patterns = Vec::new();
    for (key, message) in refused.iter().rev() {
        match *key {
            Key::Pattern(i) => {
                let p = draft.patterns.remove(i);
                notes.push(&p.origin, refused_note(message));
                gone_patterns.push(p.name);
            }
            Key::Entity(i) => {
                let e = draft.entities.remove(i);
                notes.push(&e.origin, refused_note(message));
                gone_entities.push(e.name);
            }
            Key::Index(i) => {
                let x = draft.indexes.remove(i);
                notes.push(&x.origin, refused_note(message));
                gone_indexes.push(x);
            }
        }
    }
    for index in &gone_indexes {
        without_index(draft, index, notes);
    }
    without_entities(draft, &gone_entities, notes);
    without_actions(draft, gone_patterns, notes);
}

/// Entities stop writing the keys of a removed index; patterns on it go.
fn without_index(draft: &mut Draft, index: &super::draft::Index, notes: &mut Notes) {
    let mut still_keyed: Vec<&str> = vec![draft.table.pk.name.as_str()];
    still_keyed.extend(draft.table.sk.as_ref().map(|k| k.name.as_str()));
    for other in &draft.indexes {
        still_keyed.extend(other.pk.iter().chain(&other.sk).map(|k| k.name.as_str()));
    }
    let gone: Vec<String> = index
        .pk
        .iter()
        .chain(&index.sk)
        .map(|k| k.name.clone())
        .filter(|n| !still_keyed.contains(&n.as_str()))
        .collect();
    for entity in &mut draft.entities {
        entity
            .keys
            .retain(|(attribute, _)| !gone.contains(attribute));
    }
    let mut removed = Vec::new();
    draft.patterns.retain(|p| {
        let on = p.index.as_deref() == Some(index.name.as_str());
        if on {
            let reason = format!(
                "not imported: it queries index `{}`, which was not imported",
                shown(&index.name)
            );
            notes.push(&p.origin, reason);
            removed.push(p.name.clone());
        }
        !on
    });
    without_actions(draft, removed, notes);
}

/// Removed entities leave the patterns' `returns`; a pattern returning nothing else goes.
fn without_entities(draft: &mut Draft, gone: &[String], notes: &mut Notes) {
    if gone.is_empty() {
        return;
    }
    let mut removed = Vec::new();
    draft.patterns.retain_mut(|p| {
        let before = p.returns.len();
        p.returns.retain(|r| !gone.contains(r));
        if p.returns.len() == before {
            return true;
        }
        let names: Vec<String> = gone.iter().map(|g| format!("`{}`", shown(g))).collect();
        if p.returns.is_empty() {
            let reason = format!(
                "not imported: it returns {}, not imported",
                names.join(", ")
            );
            notes.push(&p.origin, reason);
            removed.push(p.name.clone());
            return false;
        }
        let reason = format!(
            "imported without {} in its returns: not imported",
            names.join(", ")
        );
        notes.push(&p.origin, reason);
        true
    });
    without_actions(draft, removed, notes);
}

/// A transaction or batch naming a removed pattern goes too (and so on).
fn without_actions(draft: &mut Draft, mut gone: Vec<String>, notes: &mut Notes) {
    while !gone.is_empty() {
        let mut next = Vec::new();
        draft.patterns.retain(|p| {
            let Some((action, _)) = p.writes.iter().find(|(w, _)| gone.contains(w)) else {
                return true;
            };
            let reason = format!(
                "not imported: its action `{}` was not imported",
                shown(action)
            );
            notes.push(&p.origin, reason);
            next.push(p.name.clone());
            false
        });
        gone = next;
    }
}

/// Cuts the lists a model caps (docs/model.md, "Limits"), each cut listed.
fn within_limits(draft: &mut Draft, notes: &mut Notes) {
    let over = |what: &str, limit: usize| {
        format!(
            "not imported: past the {} {what} a monotable model holds",
            monotable_model::limits::thousands(limit)
        )
    };
    let mut globals = 0usize;
    let mut locals = 0usize;
    let mut removed = Vec::new();
    draft.indexes.retain(|x| {
        let (count, limit, what) = if x.local {
            (&mut locals, MAX_LOCAL_INDEXES, "local indexes")
        } else {
            (&mut globals, MAX_GLOBAL_INDEXES, "global indexes")
        };
        *count += 1;
        if *count > limit {
            notes.push(&x.origin, over(what, limit));
            removed.push(x.clone());
        }
        *count <= limit
    });
    for x in &removed {
        without_index(draft, x, notes);
    }
    for e in draft.entities.iter_mut() {
        if e.attributes.len() > MAX_ATTRIBUTES {
            let reason = over("attributes of one entity", MAX_ATTRIBUTES);
            notes.push(
                &e.origin,
                format!("{} attributes; the rest {reason}", MAX_ATTRIBUTES),
            );
            e.attributes.truncate(MAX_ATTRIBUTES);
        }
    }
    if draft.entities.len() > MAX_ENTITIES {
        let cut = draft.entities.split_off(MAX_ENTITIES);
        for e in &cut {
            notes.push(&e.origin, over("entities", MAX_ENTITIES));
        }
        let names: Vec<String> = cut.into_iter().map(|e| e.name).collect();
        without_entities(draft, &names, notes);
    }
    if draft.patterns.len() > MAX_PATTERNS {
        let cut = draft.patterns.split_off(MAX_PATTERNS);
        for p in &cut {
            notes.push(&p.origin, over("access patterns", MAX_PATTERNS));
        }
        without_actions(draft, cut.into_iter().map(|p| p.name).collect(), notes);
    }
}
