//! Stream consumer rules: MT018 an entity or event a consumer names that no write causes,
//! MT019 a filter the stream view cannot carry, MT020 a consumer that writes what it consumes
//! (a recursive trigger), MT021 an aggregate its writes make hotter than a partition takes
//! (in `aggregate.rs`). What a write pattern does to the stream is in `events.rs`.

mod aggregate;
mod events;

use monotable_model::{Consumer, Model, StreamEvent, StreamView};

use crate::diagnostic::{Diagnostic, Rule};
pub(crate) use events::{entity_events, pattern_events};

pub(crate) fn check(model: &Model, out: &mut Vec<Diagnostic>) {
    for c in &model.consumers {
        impossible(model, c, out);
        if let Some(view) = model.table.stream {
            unseen(view, c, out);
        }
        recursive(model, c, out);
        aggregate::hot(model, c, out);
    }
}

/// `an INSERT`, `a REMOVE`, `an UpdateItem`: the word with its indefinite article.
fn article(word: &str) -> String {
    let vowel = word.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']);
    format!("{} {word}", if vowel { "an" } else { "a" })
}

/// `INSERT, MODIFY and REMOVE`.
fn event_list(events: &[StreamEvent]) -> String {
    let names: Vec<&str> = events.iter().map(|e| e.as_str()).collect();
    match names.as_slice() {
        [] => "none".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// MT018: an entity none of whose handled events any write causes, and a written event that
/// no write causes for any of the consumer's entities.
fn impossible(model: &Model, c: &Consumer, out: &mut Vec<Diagnostic>) {
    let mut possible_any: Vec<StreamEvent> = Vec::new();
    for entity in &c.entities {
        let possible = entity_events(model, entity);
        possible_any.extend(possible.iter().copied());
        if c.events.iter().any(|e| possible.contains(e)) {
            continue;
        }
        out.push(
            Diagnostic::warning(
                Rule::ImpossibleEvent,
                format!(
                    "consumer `{}` handles `{entity}`, and no write of the model causes its {} records",
                    c.name,
                    event_list(&c.events)
                ),
                c.entity_span(entity),
            )
            .label("never delivered")
            .note(format!(
                "the model's writes cause these records of `{entity}`: {}",
                event_list(&possible)
            ))
            .help(format!(
                "declare the write patterns that change `{entity}`, or take it out of `entities`"
            )),
        );
    }
    if c.spans.events.is_empty() {
        // `events` was not written: all three by default, none named.
        return;
    }
    for event in &c.events {
        if possible_any.contains(event) {
            continue;
        }
        out.push(
            Diagnostic::warning(
                Rule::ImpossibleEvent,
                format!(
                    "consumer `{}` handles {}, and no write of the model causes one for {}",
                    c.name,
                    event.as_str(),
                    super::listing(&c.entities.iter().map(String::as_str).collect::<Vec<_>>())
                ),
                c.event_span(*event),
            )
            .label("never delivered")
            .note(why_not(model, *event))
            .help(format!("take {} out of `events`", event.as_str())),
        );
    }
}

/// What would cause `event`, for a note.
fn why_not(model: &Model, event: StreamEvent) -> String {
    match event {
        StreamEvent::Insert => "an INSERT comes from a PutItem, or an UpdateItem whose condition lets it create the item".to_string(),
        StreamEvent::Modify => "a MODIFY comes from an UpdateItem, or a PutItem without `not_exists` over an existing item".to_string(),
        StreamEvent::Remove => match &model.table.ttl_attribute {
            Some(ttl) => format!("a REMOVE comes from a DeleteItem, or from TTL on an entity that has `{ttl}`"),
            None => "a REMOVE comes from a DeleteItem, or from TTL (the table declares no `ttl_attribute`)".to_string(),
        },
    }
}

/// MT019: what the stream view leaves out of the records a consumer must tell apart.
fn unseen(view: StreamView, c: &Consumer, out: &mut Vec<Diagnostic>) {
    let stream = format!("stream = \"{}\"", view.as_str());
    if view == StreamView::KeysOnly {
        let first = c
            .entities
            .first()
            .map_or(c.span.clone(), |e| c.entity_span(e));
        out.push(
            Diagnostic::error(
                Rule::UnseenByView,
                format!(
                    "consumer `{}` tells its entities apart by `entityType`, which a KEYS_ONLY record does not carry",
                    c.name
                ),
                first,
            )
            .label("Lambda cannot match this entity")
            .note(format!("with `{stream}` a record holds only the item's key attributes"))
            .help("declare `stream = \"NEW_AND_OLD_IMAGES\"` (or NEW_IMAGE / OLD_IMAGE for the events each carries)"),
        );
        for (attribute, _) in &c.filter {
            out.push(
                Diagnostic::error(
                    Rule::UnseenByView,
                    format!(
                        "consumer `{}` filters on `{attribute}`, which a KEYS_ONLY record does not carry",
                        c.name
                    ),
                    c.filter_span(attribute),
                )
                .label("never matches")
                .note(format!("with `{stream}` a record holds only the item's key attributes"))
                .help("declare a stream view with images, or filter in the function"),
            );
        }
        return;
    }
    for (event, image, needs) in [
        (StreamEvent::Insert, view.has_new_image(), "a new image"),
        (StreamEvent::Remove, view.has_old_image(), "an old image"),
    ] {
        if !c.handles(event) || image {
            continue;
        }
        out.push(
            Diagnostic::error(
                Rule::UnseenByView,
                format!(
                    "consumer `{}` handles {}, and with `{stream}` such a record carries no image",
                    c.name,
                    event.as_str()
                ),
                c.event_span(event),
            )
            .label(format!(
                "{} record has only {needs}, which {} leaves out",
                article(event.as_str()),
                view.as_str()
            ))
            .note("without an image Lambda cannot match `entityType` or a filter, and the function cannot decode the item")
            .help(format!(
                "declare `stream = \"NEW_AND_OLD_IMAGES\"`, or list only the events the view carries: `events = [{}]`",
                c.events
                    .iter()
                    .filter(|e| **e != event)
                    .map(|e| format!("\"{}\"", e.as_str()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        );
    }
}

/// MT020: a write pattern of the consumer that writes an entity it consumes, with an event it
/// handles.
fn recursive(model: &Model, c: &Consumer, out: &mut Vec<Diagnostic>) {
    for name in &c.writes {
        let Some(p) = model.pattern(name) else {
            continue;
        };
        for (entity, events) in pattern_events(model, p) {
            if !c.entities.contains(&entity) {
                continue;
            }
            let looped: Vec<StreamEvent> = events.into_iter().filter(|e| c.handles(*e)).collect();
            if looped.is_empty() {
                continue;
            }
            out.push(
                Diagnostic::error(
                    Rule::RecursiveTrigger,
                    format!(
                        "consumer `{}` writes `{entity}` with `{name}`, and handles the {} records that write causes: a recursive trigger",
                        c.name,
                        event_list(&looped)
                    ),
                    c.write_span(name),
                )
                .label(format!(
                    "{} of `{entity}`",
                    article(&format!("{:?}", p.operation))
                ))
                .note(format!(
                    "each {} of `{entity}` that `{name}` causes is delivered to `{}` again, which runs `{name}` again",
                    event_list(&looped),
                    c.name
                ))
                .help(format!(
                    "keep what the consumer writes in an entity it does not consume, or take `{entity}` out of its `entities`"
                )),
            );
        }
    }
}
