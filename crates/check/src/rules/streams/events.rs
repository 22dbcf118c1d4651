//! What the model's writes do to the stream: the records (INSERT, MODIFY, REMOVE) each write
//! pattern causes for each entity it writes, and the records any write causes for an entity.

use monotable_model::{ConditionClause, Model, Operation, Pattern, StreamEvent};

/// The most levels of `writes` followed through TransactWrite and BatchWrite patterns (the
/// model refuses cycles; this bounds the walk anyway).
const MAX_DEPTH: usize = 4;

/// The records `p` can cause, per entity it writes, in the model's order of first mention;
/// each entity once, its events in DynamoDB's order.
pub(crate) fn pattern_events(model: &Model, p: &Pattern) -> Vec<(String, Vec<StreamEvent>)> {
    let mut out: Vec<(String, Vec<StreamEvent>)> = Vec::new();
    collect(model, p, 0, &mut out);
    for (_, events) in &mut out {
        events.sort();
        events.dedup();
    }
    out
}

/// The records any write of the model causes for `entity`, TTL expiry included.
pub(crate) fn entity_events(model: &Model, entity: &str) -> Vec<StreamEvent> {
    let mut events: Vec<StreamEvent> = model
        .patterns
        .iter()
        .flat_map(|p| pattern_events(model, p))
        .filter(|(e, _)| e == entity)
        .flat_map(|(_, events)| events)
        .collect();
    let expires = model.table.ttl_attribute.as_deref().is_some_and(|ttl| {
        model
            .entity(entity)
            .is_some_and(|e| e.attribute(ttl).is_some())
    });
    if expires {
        events.push(StreamEvent::Remove);
    }
    events.sort();
    events.dedup();
    events
}

fn add(out: &mut Vec<(String, Vec<StreamEvent>)>, entity: &str, events: &[StreamEvent]) {
    match out.iter_mut().find(|(e, _)| e == entity) {
        Some((_, known)) => known.extend_from_slice(events),
        None => out.push((entity.to_string(), events.to_vec())),
    }
}

fn collect(model: &Model, p: &Pattern, depth: usize, out: &mut Vec<(String, Vec<StreamEvent>)>) {
    let clauses = p.condition.as_ref().map_or(&[][..], |c| &c.clauses[..]);
    let requires_item = p.condition.as_ref().is_some_and(|c| c.requires_item());
    let absent = clauses.contains(&ConditionClause::ItemAbsent);
    let events: Vec<StreamEvent> = match p.operation {
        // A put creates the item, or replaces it: a MODIFY unless it must be absent.
        Operation::PutItem | Operation::UpdateItem => {
            let mut events = Vec::new();
            if !requires_item {
                events.push(StreamEvent::Insert);
            }
            if !absent {
                events.push(StreamEvent::Modify);
            }
            events
        }
        Operation::DeleteItem => vec![StreamEvent::Remove],
        Operation::TransactWrite | Operation::BatchWrite => {
            for w in &p.writes {
                if w.patterns.is_empty() {
                    // The older entity-only form says nothing of the operation: any record.
                    add(out, &w.entity, &StreamEvent::ALL);
                    continue;
                }
                for name in &w.patterns {
                    if let Some(inner) = model.pattern(name)
                        && depth < MAX_DEPTH
                    {
                        collect(model, inner, depth + 1, out);
                    }
                }
            }
            return;
        }
        _ => return,
    };
    if let Some(entity) = p.returns.first() {
        add(out, &entity.name, &events);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODEL: &str = r#"[table]
name = "Shop"
partition_key = { name = "PK" }
sort_key = { name = "SK" }
ttl_attribute = "expiresAt"

[entities.Order]
attributes.orderId = { type = "string", required = true }
attributes.expiresAt = { type = "timestamp", format = "epoch-seconds" }
keys.PK = "ORDER#{orderId}"
keys.SK = "ORDER"

[entities.Line]
attributes.orderId = { type = "string", required = true }
keys.PK = "ORDER#{orderId}"
keys.SK = "LINE"

[patterns.create]
operation = "PutItem"
key = { PK = "ORDER#{orderId}", SK = "ORDER" }
returns = ["Order"]
condition = "not_exists"

[patterns.touch]
operation = "UpdateItem"
key = { PK = "ORDER#{orderId}", SK = "ORDER" }
returns = ["Order"]
condition = "exists"

[patterns.upsertLine]
operation = "UpdateItem"
key = { PK = "ORDER#{orderId}", SK = "LINE" }
returns = ["Line"]

[patterns.both]
operation = "TransactWrite"
writes = [{ pattern = "create" }, { pattern = "upsertLine" }]
"#;

    #[test]
    fn each_operation_causes_its_records() {
        use StreamEvent::*;
        let model = monotable_model::parse(MODEL).unwrap();
        let of = |name: &str| pattern_events(&model, model.pattern(name).unwrap());
        assert_eq!(of("create"), [("Order".to_string(), vec![Insert])]);
        assert_eq!(of("touch"), [("Order".to_string(), vec![Modify])]);
        assert_eq!(
            of("upsertLine"),
            [("Line".to_string(), vec![Insert, Modify])]
        );
        assert_eq!(
            of("both"),
            [
                ("Order".to_string(), vec![Insert]),
                ("Line".to_string(), vec![Insert, Modify])
            ]
        );
        // TTL removes orders (they have `expiresAt`); nothing deletes a line.
        assert_eq!(entity_events(&model, "Order"), [Insert, Modify, Remove]);
        assert_eq!(entity_events(&model, "Line"), [Insert, Modify]);
    }
}
