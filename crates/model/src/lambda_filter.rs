//! Lambda's event filtering for a consumer: which image a record is matched on, and the filters
//! that let through exactly the records of the consumer's entities, events and attribute values.

use crate::consumer::{Consumer, FilterValue, StreamEvent, StreamView};
use crate::model::Model;

/// The attribute every item carries its entity's name in: what a stream filter tells entities
/// apart by (the access layer writes it as `ENTITY_TYPE`).
pub const ENTITY_TYPE_ATTRIBUTE: &str = "entityType";
/// The filters Lambda takes per event source mapping (its default quota).
pub const MAX_LAMBDA_FILTERS: usize = 5;

/// Which image of a record a filter looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StreamImage {
    /// The item after the change (`NewImage`).
    New,
    /// The item before the change (`OldImage`).
    Old,
}

impl StreamImage {
    /// The record's field (`NewImage`).
    pub fn as_str(self) -> &'static str {
        match self {
            StreamImage::New => "NewImage",
            StreamImage::Old => "OldImage",
        }
    }

    /// The image a record of `event` is matched on under `view`: a REMOVE has no new image, and
    /// a view without new images matches MODIFY on the old one; `None` for `KEYS_ONLY`.
    pub fn for_event(event: StreamEvent, view: StreamView) -> Option<StreamImage> {
        match (event, view) {
            (_, StreamView::KeysOnly) => None,
            (StreamEvent::Remove, _) => Some(StreamImage::Old),
            (_, StreamView::OldImage) => Some(StreamImage::Old),
            _ => Some(StreamImage::New),
        }
    }
}

/// One Lambda filter of a consumer: records of `events` whose `image` holds one of `entities`
/// as its `entityType` and, for each of `attributes`, one of its values. Filters are ORed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LambdaFilter {
    /// The `eventName`s it matches.
    pub events: Vec<StreamEvent>,
    /// The image it looks at; `None` with a `KEYS_ONLY` view (it matches on events alone).
    pub image: Option<StreamImage>,
    /// The entity names its `entityType` takes.
    pub entities: Vec<String>,
    /// The attribute tests, each an attribute of every entity of the filter.
    pub attributes: Vec<(String, Vec<FilterValue>)>,
}

impl Consumer {
    /// The Lambda filters that deliver exactly its records under `view`: per image (INSERT and
    /// MODIFY on the new image, REMOVE on the old), one filter per set of filter attributes its
    /// entities have, the entities sharing it listed together.
    pub fn lambda_filters(&self, model: &Model, view: StreamView) -> Vec<LambdaFilter> {
        let mut out: Vec<LambdaFilter> = Vec::new();
        let mut groups: Vec<(Option<StreamImage>, Vec<StreamEvent>)> = Vec::new();
        for event in &self.events {
            let image = StreamImage::for_event(*event, view);
            match groups.iter_mut().find(|(i, _)| *i == image) {
                Some((_, events)) => events.push(*event),
                None => groups.push((image, vec![*event])),
            }
        }
        for (image, events) in groups {
            let first = out.len();
            for entity in &self.entities {
                let attributes: Vec<(String, Vec<FilterValue>)> = match image {
                    None => Vec::new(),
                    Some(_) => self
                        .filter
                        .iter()
                        .filter(|(a, _)| {
                            model
                                .entity(entity)
                                .is_some_and(|e| e.attribute(a).is_some())
                        })
                        .cloned()
                        .collect(),
                };
                match out[first..].iter_mut().find(|f| f.attributes == attributes) {
                    Some(f) => f.entities.push(entity.clone()),
                    None => out.push(LambdaFilter {
                        events: events.clone(),
                        image,
                        entities: vec![entity.clone()],
                        attributes,
                    }),
                }
            }
        }
        out
    }
}
