//! MT005 key collision: entities that can be written with the same key, one finding per group
//! of them (`groups`), never one per pair. On the table every group is an error (entities that
//! share a `key_namespace` excepted); on an index a group is a warning when a read pattern on
//! the index expects some of its members and can read another. Native indexes are in `native`.

use std::collections::{HashMap, HashSet};

use monotable_model::{Model, Pattern};

use super::groups::{Group, Groups, collision_groups};
use super::keys::{describe_keys, key_match};
use super::lookup::{Lookup, Writers};
use super::{LISTED, capped_listing, native};
use crate::diagnostic::{Diagnostic, Rule};

const TABLE_HELP: &str = "give each entity type a distinct constant prefix in its sort key (e.g. `ORDER#`, `ITEM#`) so one can never overwrite the other; if they share the key on purpose (one name for a user or an organisation), set the same `key_namespace` on both";

pub(crate) fn check(model: &Model, lookup: &Lookup<'_>, out: &mut Vec<Diagnostic>) {
    if let Some(table) = lookup.writers(None) {
        for group in &collision_groups(table, true).groups {
            out.push(table_collision(table, group));
        }
    }
    for index in &model.indexes {
        if index.native {
            native::collisions(model, lookup, index, out);
            continue;
        }
        let idx = Some(index.name.as_str());
        let Some(writers) = lookup.writers(idx) else {
            continue;
        };
        let groups = collision_groups(writers, false);
        for group in &groups.groups {
            if let Some(confusion) = confused(model, lookup, idx, writers, &groups, group) {
                out.push(index_collision(&index.name, writers, group, &confusion));
            }
        }
    }
}

/// The names of `members`.
fn names<'a>(writers: &'a Writers<'_>, members: &[usize]) -> Vec<&'a str> {
    members
        .iter()
        .map(|&m| writers.shapes[m].entity.name.as_str())
        .collect()
}

/// One note per distinct key among the members (at most [`LISTED`]), naming who writes it:
/// `` `E0`, `E1`, … and 1,990 more: PK = `USER#{id}`, SK = `{sk}` ``. Two members get a note
/// each, as a pair always did.
fn key_notes(mut d: Diagnostic, writers: &Writers<'_>, members: &[usize]) -> Diagnostic {
    if let [a, b] = members {
        for &m in [a, b] {
            let s = &writers.shapes[m];
            d = d.note(format!("`{}`: {}", s.entity.name, describe_keys(s.keys)));
        }
        return d;
    }
    let mut order: Vec<String> = Vec::new();
    let mut by_key: HashMap<String, Vec<&str>> = HashMap::new();
    for &m in members {
        let s = &writers.shapes[m];
        let keys = describe_keys(s.keys);
        let list = by_key.entry(keys.clone()).or_insert_with(|| {
            order.push(keys);
            Vec::new()
        });
        list.push(s.entity.name.as_str());
    }
    for keys in order.iter().take(LISTED) {
        d = d.note(format!("{}: {keys}", capped_listing(&by_key[keys])));
    }
    if order.len() > LISTED {
        let rest: usize = order[LISTED..].iter().map(|k| by_key[k].len()).sum();
        d = d.note(format!(
            "and {} more entities with {} other keys",
            monotable_model::limits::thousands(rest),
            monotable_model::limits::thousands(order.len() - LISTED)
        ));
    }
    d
}

fn table_collision(writers: &Writers<'_>, group: &Group) -> Diagnostic {
    let listed = names(writers, &group.members);
    let message = match listed.as_slice() {
        [a, b] => format!("entities `{a}` and `{b}` can be written with the same primary key"),
        _ => format!(
            "{} entities can be written with the same primary key: {}",
            monotable_model::limits::thousands(listed.len()),
            capped_listing(&listed)
        ),
    };
    let second = &writers.shapes[group.members[1]];
    let d = Diagnostic::error(Rule::KeyCollision, message, second.keys.pk.span.clone());
    key_notes(d, writers, &group.members).help(TABLE_HELP)
}

/// A read pattern that expects member `expected` and can read member `other` at a key both
/// can have.
struct Confusion<'m> {
    pattern: &'m Pattern,
    expected: usize,
    other: usize,
}

/// The first read pattern on the index (by name) that expects some members of the group and
/// can read another at a key they share: a shared index key only matters then. Each pattern is
/// compared with each bucket of equal keys once, not with each member.
fn confused<'m>(
    model: &'m Model,
    lookup: &Lookup<'m>,
    idx: Option<&str>,
    writers: &Writers<'_>,
    groups: &Groups,
    group: &Group,
) -> Option<Confusion<'m>> {
    let mut bucket_of: HashMap<&str, usize> = HashMap::new();
    for &b in &group.buckets {
        for &m in &groups.buckets[b].members {
            bucket_of.insert(writers.shapes[m].entity.name.as_str(), b);
        }
    }
    let mut candidates: Vec<&Pattern> = group
        .members
        .iter()
        .flat_map(|&m| lookup.returning(&writers.shapes[m].entity.name))
        .copied()
        .filter(|p| p.index_name() == idx && p.is_read())
        .collect();
    candidates.sort_by(|x, y| x.name.cmp(&y.name));
    candidates.dedup_by(|x, y| x.name == y.name);
    for p in candidates {
        let returned: HashSet<&str> = p
            .returns
            .iter()
            .map(|r| r.name.as_str())
            .filter(|n| bucket_of.contains_key(n))
            .collect();
        let rep = |b: usize| &writers.shapes[groups.buckets[b].members[0]];
        let reads = |b: usize| key_match(model, p, rep(b).entity, rep(b).keys) == (true, true);
        let mut expected: Vec<usize> = returned.iter().map(|n| bucket_of[n]).collect();
        expected.sort_unstable();
        expected.dedup();
        expected.retain(|&b| reads(b));
        if expected.is_empty() {
            continue;
        }
        let unexpected = |b: usize| {
            groups.buckets[b]
                .members
                .iter()
                .copied()
                .find(|&m| !returned.contains(writers.shapes[m].entity.name.as_str()))
        };
        for &b in &group.buckets {
            let Some(other) = unexpected(b) else { continue };
            if !reads(b) {
                continue;
            }
            let shared = expected
                .iter()
                .copied()
                .find(|&a| a == b || rep(a).overlaps(rep(b)));
            if let Some(a) = shared {
                let expected = groups.buckets[a]
                    .members
                    .iter()
                    .copied()
                    .find(|&m| returned.contains(writers.shapes[m].entity.name.as_str()))?;
                return Some(Confusion {
                    pattern: p,
                    expected,
                    other,
                });
            }
        }
    }
    None
}

fn index_collision(
    index: &str,
    writers: &Writers<'_>,
    group: &Group,
    c: &Confusion<'_>,
) -> Diagnostic {
    let listed = names(writers, &group.members);
    let message = match listed.as_slice() {
        [a, b] => format!("entities `{a}` and `{b}` can share the same key in index `{index}`"),
        _ => format!(
            "{} entities can share the same key in index `{index}`: {}",
            monotable_model::limits::thousands(listed.len()),
            capped_listing(&listed)
        ),
    };
    let second = &writers.shapes[group.members[1]];
    let d = Diagnostic::warning(Rule::KeyCollision, message, second.keys.pk.span.clone());
    let note = if listed.len() == 2 {
        format!("pattern `{}` expects only one of them", c.pattern.name)
    } else {
        format!(
            "pattern `{}` expects `{}` and can read `{}` too, which it does not return",
            c.pattern.name,
            writers.shapes[c.expected].entity.name,
            writers.shapes[c.other].entity.name
        )
    };
    let help = if listed.len() == 2 {
        "use distinct constant prefixes in the index keys of the two entities"
    } else {
        "use a distinct constant prefix in each entity's index keys"
    };
    key_notes(d, writers, &group.members).note(note).help(help)
}
