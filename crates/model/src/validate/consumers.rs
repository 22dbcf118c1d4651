//! Validating stream consumers (`[consumers.NAME]`): the table has a stream, the entities,
//! events, filters, write and read patterns they name exist and fit (a name that does not, with
//! the closest declared one), and Lambda's bounds hold.

use std::ops::Range;

use super::{Validator, renders_number};
use crate::consumer::*;
use crate::error::IssueKind;
use crate::lambda_filter::MAX_LAMBDA_FILTERS;
use crate::model::*;
use crate::names::closest;
use crate::raw::{RawConsumer, RawFilterValue, Sp};

/// A consumer's filter, attribute to values, and the span of each attribute's values.
type Filters = (Vec<(String, Vec<FilterValue>)>, Vec<Range<usize>>);

/// What a filter value is, in words, for messages.
fn value_kind(v: &RawFilterValue) -> &'static str {
    match v {
        RawFilterValue::Boolean(_) => "a boolean",
        RawFilterValue::Integer(_) => "a whole number",
        RawFilterValue::Float(_) => "a number",
        RawFilterValue::String(_) => "a string",
    }
}

/// The filter value as the record carries it for attribute `a`, or why it cannot be one.
fn filter_value(a: &Attribute, v: &RawFilterValue) -> Result<FilterValue, String> {
    let expected = match a.ty {
        AttributeType::Boolean => "a boolean",
        AttributeType::Integer => "a whole number",
        _ if renders_number(a) => "a number",
        AttributeType::List | AttributeType::Map | AttributeType::Set => {
            return Err(format!(
                "`{}` is a {}, and a filter matches only strings, numbers and booleans",
                a.name,
                a.ty.name()
            ));
        }
        _ => "a string",
    };
    let wrong = || {
        format!(
            "`{}` is {}, and this value is {}, not {expected}",
            a.name,
            a.type_label(),
            value_kind(v)
        )
    };
    match (v, expected) {
        (RawFilterValue::Boolean(b), "a boolean") => Ok(FilterValue::Bool(*b)),
        (RawFilterValue::Integer(i), "a whole number" | "a number") => {
            Ok(FilterValue::Number(i.to_string()))
        }
        (RawFilterValue::Float(f), "a number") if f.is_finite() => {
            Ok(FilterValue::Number(f.to_string()))
        }
        (RawFilterValue::String(s), "a string") => {
            if a.ty == AttributeType::Enum && !a.values.contains(s) {
                return Err(format!(
                    "\"{s}\" is not a value of enum `{}`: it is one of {}",
                    a.name,
                    a.values
                        .iter()
                        .map(|v| format!("\"{v}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            Ok(FilterValue::String(s.clone()))
        }
        _ => Err(wrong()),
    }
}

impl Validator {
    /// Every consumer, sorted by name.
    pub(super) fn consumers(
        &mut self,
        raw: &std::collections::BTreeMap<String, Sp<RawConsumer>>,
        model: &Model,
    ) -> Vec<Consumer> {
        raw.iter()
            .map(|(name, c)| {
                let consumer = self.consumer(name, c, model);
                self.filter_count(&consumer, model);
                consumer
            })
            .collect()
    }

    /// More Lambda filters than an event source mapping takes is an error on the consumer.
    fn filter_count(&mut self, c: &Consumer, model: &Model) {
        let Some(view) = model.table.stream else {
            return;
        };
        let filters = c.lambda_filters(model, view);
        if filters.len() > MAX_LAMBDA_FILTERS {
            self.err_help(
                IssueKind::Invalid,
                format!(
                    "consumer `{}` needs {} Lambda filters, and an event source mapping takes {MAX_LAMBDA_FILTERS}",
                    c.name,
                    filters.len()
                ),
                &c.span,
                "each set of filter attributes its entities have, per image (new for INSERT and MODIFY, old for REMOVE), is one filter: split it into consumers of fewer entities or events, or filter on fewer attributes",
            );
        }
    }

    fn consumer(&mut self, name: &str, raw: &Sp<RawConsumer>, model: &Model) -> Consumer {
        let c = &raw.value;
        if !name.starts_with(|ch: char| ch.is_ascii_alphabetic())
            || !name.chars().all(|ch| ch.is_ascii_alphanumeric())
        {
            self.err_help(
                IssueKind::Invalid,
                format!("consumer name `{name}` is not letters and digits starting with a letter"),
                &raw.span,
                "it names the consumer's function and its resources in templates and code: write it like `productSales`",
            );
        }
        if model.table.stream.is_none() {
            self.err_help(
                IssueKind::Invalid,
                format!("consumer `{name}` reads the table's stream, and the table declares no `stream`"),
                &raw.span,
                "add `stream = \"NEW_AND_OLD_IMAGES\"` (or `NEW_IMAGE`, `OLD_IMAGE`, `KEYS_ONLY`) under [table]",
            );
        }
        let entities = self.consumer_entities(name, &c.entities, model);
        let (events, event_spans) = self.consumer_events(name, c.events.as_ref());
        let (filter, filter_spans) = self.consumer_filter(name, c, model);
        let writes = self.consumer_patterns(name, Runs::Writes, &c.writes, model);
        let reads = self.consumer_patterns(name, Runs::Reads, &c.reads, model);
        Consumer {
            name: name.to_string(),
            description: c.description.clone(),
            entities: entities.iter().map(|e| e.value.clone()).collect(),
            events,
            filter,
            batch_size: self
                .bounded(
                    "`batch_size`",
                    c.batch_size.as_ref(),
                    1,
                    i64::from(MAX_BATCH_SIZE),
                    "Lambda takes 1 to 10000 records per batch from a DynamoDB stream",
                )
                .and_then(|n| u32::try_from(n).ok())
                .unwrap_or(DEFAULT_BATCH_SIZE),
            retries: self
                .bounded(
                    "`retries`",
                    c.retries.as_ref(),
                    -1,
                    i64::from(MAX_RETRIES),
                    "Lambda retries a batch 0 to 10000 times, or until its records expire with -1",
                )
                .and_then(|n| i32::try_from(n).ok())
                .unwrap_or(DEFAULT_RETRIES),
            bisect_on_error: c.bisect_on_error.unwrap_or(true),
            on_failure: c.on_failure.as_ref().map(|f| f.value),
            starting_position: c
                .starting_position
                .as_ref()
                .map_or_else(StartingPosition::default, |s| s.value),
            writes: writes.iter().map(|w| w.value.clone()).collect(),
            reads: reads.iter().map(|r| r.value.clone()).collect(),
            span: raw.span.clone(),
            spans: ConsumerSpans {
                entities: entities.iter().map(|e| e.span.clone()).collect(),
                events: event_spans,
                filter: filter_spans,
                writes: writes.iter().map(|w| w.span.clone()).collect(),
                reads: reads.iter().map(|r| r.span.clone()).collect(),
            },
        }
    }

    /// A stated number within `min..=max`; out of range is an error and `None`.
    fn bounded(
        &mut self,
        what: &str,
        value: Option<&Sp<i64>>,
        min: i64,
        max: i64,
        help: &str,
    ) -> Option<i64> {
        let v = value?;
        if (min..=max).contains(&v.value) {
            return Some(v.value);
        }
        self.err_help(
            IssueKind::Invalid,
            format!("{what} is {}; it must be {min} to {max}", v.value),
            &v.span,
            help,
        );
        None
    }

    fn consumer_entities<'a>(
        &mut self,
        name: &str,
        list: &'a Sp<Vec<Sp<String>>>,
        model: &Model,
    ) -> Vec<&'a Sp<String>> {
        if list.value.is_empty() {
            self.err_help(
                IssueKind::Invalid,
                format!("consumer `{name}` handles no entity: `entities` is empty"),
                &list.span,
                "list the entities whose changes it handles, e.g. `entities = [\"Order\"]`",
            );
        }
        let mut out: Vec<&Sp<String>> = Vec::new();
        for e in &list.value {
            if out.iter().any(|o| o.value == e.value) {
                self.err_help(
                    IssueKind::Invalid,
                    format!("entity `{}` is listed twice in consumer `{name}`", e.value),
                    &e.span,
                    "list each entity once",
                );
                continue;
            }
            if model.entity(&e.value).is_none() {
                let near = closest(&e.value, model.entities.iter().map(|d| d.name.as_str()));
                self.err_help(
                    IssueKind::UnknownReference,
                    format!(
                        "entity `{}` of consumer `{name}` is not a declared entity",
                        e.value
                    ),
                    &e.span,
                    near.map_or_else(
                        || "declare it under [entities]".to_string(),
                        |n| format!("an entity with a similar name exists: `{n}`"),
                    ),
                );
            }
            out.push(e);
        }
        out
    }

    fn consumer_events(
        &mut self,
        name: &str,
        events: Option<&Sp<Vec<Sp<StreamEvent>>>>,
    ) -> (Vec<StreamEvent>, Vec<Range<usize>>) {
        let Some(list) = events else {
            return (StreamEvent::ALL.to_vec(), Vec::new());
        };
        if list.value.is_empty() {
            self.err_help(
                IssueKind::Invalid,
                format!("consumer `{name}` handles no event: `events` is empty"),
                &list.span,
                "list some of INSERT, MODIFY and REMOVE, or leave `events` out for all three",
            );
        }
        let mut out: Vec<&Sp<StreamEvent>> = Vec::new();
        for e in &list.value {
            if out.iter().any(|o| o.value == e.value) {
                self.err_help(
                    IssueKind::Invalid,
                    format!(
                        "event {} is listed twice in consumer `{name}`",
                        e.value.as_str()
                    ),
                    &e.span,
                    "list each event once",
                );
                continue;
            }
            out.push(e);
        }
        out.sort_by_key(|e| e.value);
        (
            out.iter().map(|e| e.value).collect(),
            out.iter().map(|e| e.span.clone()).collect(),
        )
    }

    fn consumer_filter(&mut self, name: &str, c: &RawConsumer, model: &Model) -> Filters {
        let mut filter = Vec::new();
        let mut spans = Vec::new();
        for (attribute, values) in &c.filter {
            let declared: Vec<&Attribute> = c
                .entities
                .value
                .iter()
                .filter_map(|e| model.entity(&e.value)?.attribute(attribute))
                .collect();
            let Some(first) = declared.first() else {
                let names = c
                    .entities
                    .value
                    .iter()
                    .filter_map(|e| model.entity(&e.value))
                    .flat_map(|e| e.attributes.iter().map(|a| a.name.as_str()));
                self.err_help(
                    IssueKind::UnknownReference,
                    format!(
                        "consumer `{name}` filters on `{attribute}`, which none of its entities has"
                    ),
                    &values.span,
                    closest(attribute, names).map_or_else(
                        || {
                            "filter on an attribute of one of the entities in `entities`"
                                .to_string()
                        },
                        |n| {
                            format!(
                                "an attribute of its entities with a similar name exists: `{n}`"
                            )
                        },
                    ),
                );
                continue;
            };
            if values.value.is_empty() {
                self.err_help(
                    IssueKind::Invalid,
                    format!("the filter on `{attribute}` of consumer `{name}` allows no value"),
                    &values.span,
                    "list the values a record must hold, or leave the attribute out",
                );
            }
            let mut parsed = Vec::new();
            for v in &values.value {
                // Each entity that has the attribute must be able to hold the value.
                let mut result = Ok(FilterValue::Bool(false));
                for a in &declared {
                    result = filter_value(a, &v.value);
                    if result.is_err() {
                        break;
                    }
                }
                match result {
                    Ok(value) => parsed.push(value),
                    Err(message) => self.err_help(
                        IssueKind::Invalid,
                        message,
                        &v.span,
                        format!("write a value `{}` can hold", first.name),
                    ),
                }
            }
            filter.push((attribute.clone(), parsed));
            spans.push(values.span.clone());
        }
        (filter, spans)
    }

    /// A consumer's `writes` or `reads`: each a declared pattern of that kind, listed once.
    fn consumer_patterns<'a>(
        &mut self,
        name: &str,
        runs: Runs,
        list: &'a [Sp<String>],
        model: &Model,
    ) -> Vec<&'a Sp<String>> {
        let mut out: Vec<&Sp<String>> = Vec::new();
        for p in list {
            if out.iter().any(|o| o.value == p.value) {
                self.err_help(
                    IssueKind::Invalid,
                    format!(
                        "pattern `{}` is listed twice in the `{}` of consumer `{name}`",
                        p.value,
                        runs.key()
                    ),
                    &p.span,
                    format!("list each {} pattern once", runs.kind()),
                );
                continue;
            }
            out.push(p);
            match model.pattern(&p.value) {
                None => self.unknown_pattern(name, runs, p, model),
                Some(q) if !runs.fits(q) => self.wrong_kind(name, runs, p, q),
                Some(_) => {}
            }
        }
        out
    }

    /// A name in `writes` or `reads` that no pattern has: the closest of the right kind, if any.
    fn unknown_pattern(&mut self, name: &str, runs: Runs, p: &Sp<String>, model: &Model) {
        let kinds = model.patterns.iter().filter(|q| runs.fits(q));
        let help = match closest(&p.value, kinds.map(|q| q.name.as_str())) {
            Some(near) => format!(
                "a {} pattern with a similar name exists: `{near}`",
                runs.kind()
            ),
            None => format!(
                "declare it under [patterns] with a {} operation ({})",
                runs.kind(),
                runs.operations()
            ),
        };
        self.err_help(
            IssueKind::UnknownReference,
            format!(
                "consumer `{name}` {} with `{}`, which is not a declared pattern",
                runs.key(),
                p.value
            ),
            &p.span,
            help,
        );
    }

    /// A read pattern in `writes`, or a write in `reads`: the list that takes it.
    fn wrong_kind(&mut self, name: &str, runs: Runs, p: &Sp<String>, q: &Pattern) {
        self.err_help(
            IssueKind::Invalid,
            format!(
                "consumer `{name}` {} with `{}`, {}: a {} pattern",
                runs.key(),
                p.value,
                article(&format!("{:?}", q.operation)),
                runs.other().kind()
            ),
            &p.span,
            format!(
                "`{}` lists {} patterns ({}): list `{}` under `{}`",
                runs.key(),
                runs.kind(),
                runs.operations(),
                p.value,
                runs.other().key()
            ),
        );
    }
}

/// `an UpdateItem`, `a Query`: the word with its indefinite article.
fn article(word: &str) -> String {
    let vowel = word.starts_with(['A', 'E', 'I', 'O', 'U']);
    format!("{} {word}", if vowel { "an" } else { "a" })
}

/// The list of a consumer that names patterns: what it writes, or what it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Runs {
    Writes,
    Reads,
}

impl Runs {
    /// The list's key in the model file.
    fn key(self) -> &'static str {
        match self {
            Runs::Writes => "writes",
            Runs::Reads => "reads",
        }
    }

    /// The kind of pattern it lists.
    fn kind(self) -> &'static str {
        match self {
            Runs::Writes => "write",
            Runs::Reads => "read",
        }
    }

    /// The operations of that kind.
    fn operations(self) -> &'static str {
        match self {
            Runs::Writes => {
                "PutItem, UpdateItem, DeleteItem, ConditionCheck, TransactWrite, BatchWrite"
            }
            Runs::Reads => "GetItem, Query, Scan, BatchGet",
        }
    }

    fn other(self) -> Runs {
        match self {
            Runs::Writes => Runs::Reads,
            Runs::Reads => Runs::Writes,
        }
    }

    fn fits(self, p: &Pattern) -> bool {
        match self {
            Runs::Writes => p.is_write(),
            Runs::Reads => p.is_read(),
        }
    }
}
