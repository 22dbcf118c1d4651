//! A consumer as generated code describes it: its settings and Lambda filters as constants
//! (`patterns!` computes them from the model with `Consumer::lambda_filters`, the function the
//! SAM export renders, so local delivery and Lambda let through the same records), and the
//! [`Consumer`] trait the generated type implements.

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::{FailureDestination, StartingPosition, StreamEvent, StreamImage, StreamView};

use crate::items::{ENTITY_TYPE, Item};
use crate::stream::decode::DecodeError;
use crate::stream::record::StreamRecord;

/// One allowed value of a filter's attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterMatch {
    /// `S`.
    S(&'static str),
    /// `N`, in its canonical text (Lambda compares the text).
    N(&'static str),
    /// `BOOL`.
    Bool(bool),
}

impl FilterMatch {
    fn matches(&self, value: &AttributeValue) -> bool {
        match (self, value) {
            (FilterMatch::S(want), AttributeValue::S(got)) => want == got,
            (FilterMatch::N(want), AttributeValue::N(got)) => want == got,
            (FilterMatch::Bool(want), AttributeValue::Bool(got)) => want == got,
            _ => false,
        }
    }
}

/// One Lambda filter (`model::lambda_filter::LambdaFilter` as constants); filters are ORed.
#[derive(Debug, Clone, Copy)]
pub struct Filter {
    /// The `eventName`s it matches.
    pub events: &'static [StreamEvent],
    /// The image it looks at; `None` (KEYS_ONLY) matches on events alone.
    pub image: Option<StreamImage>,
    /// The `entityType`s it takes.
    pub entities: &'static [&'static str],
    /// Each attribute and the values it may hold.
    pub attributes: &'static [(&'static str, &'static [FilterMatch])],
}

impl Filter {
    /// Whether Lambda would let `record` through this filter.
    pub fn matches(&self, record: &StreamRecord) -> bool {
        if !self.events.contains(&record.event) {
            return false;
        }
        let Some(image) = self.image else {
            return true;
        };
        let item: Option<&Item> = match image {
            StreamImage::New => record.new_image.as_ref(),
            StreamImage::Old => record.old_image.as_ref(),
        };
        let Some(item) = item else {
            return false;
        };
        let entity = item.get(ENTITY_TYPE).and_then(|v| v.as_s().ok());
        entity.is_some_and(|e| self.entities.contains(&e.as_str()))
            && self.attributes.iter().all(|(name, values)| {
                item.get(*name)
                    .is_some_and(|v| values.iter().any(|m| m.matches(v)))
            })
    }
}

/// A consumer's settings, from the model.
#[derive(Debug, Clone, Copy)]
pub struct ConsumerSettings {
    /// Its name in the model (`productSales`): names its checkpoint and failure files.
    pub name: &'static str,
    /// The table's stream view.
    pub view: StreamView,
    /// Its entities.
    pub entities: &'static [&'static str],
    /// Its events.
    pub events: &'static [StreamEvent],
    /// Its Lambda filters.
    pub filters: &'static [Filter],
    /// Records per invocation.
    pub batch_size: u32,
    /// Retries of a failing batch; -1: until the record expires (24 hours).
    pub retries: i32,
    /// Split a failing batch and retry the halves.
    pub bisect_on_error: bool,
    /// Where a batch goes once its retries are spent; `None`: dropped.
    pub on_failure: Option<FailureDestination>,
    /// Where a consumer without a checkpoint starts.
    pub starting_position: StartingPosition,
}

impl ConsumerSettings {
    /// Whether Lambda would deliver `record` to the consumer (any filter matches).
    pub fn delivers(&self, record: &StreamRecord) -> bool {
        self.filters.iter().any(|f| f.matches(record))
    }
}

/// A stream consumer of a model: what `patterns!` implements for each `[consumers.NAME]`.
pub trait Consumer: Send + Sync + 'static {
    /// Its typed change: one variant per entity it handles.
    type Change: Send + 'static;
    /// Its settings.
    const SETTINGS: ConsumerSettings;
    /// `record` as its change: `Ok(None)` when the record is not one of its entities.
    fn change(record: &StreamRecord) -> Result<Option<Self::Change>, DecodeError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(event: StreamEvent, old: Option<Item>, new: Option<Item>) -> StreamRecord {
        StreamRecord {
            event,
            event_id: "e".into(),
            sequence: "1".into(),
            keys: Item::new(),
            old_image: old,
            new_image: new,
            created_ms: None,
        }
    }

    fn item(entity: &str, attributes: &[(&str, AttributeValue)]) -> Option<Item> {
        let mut item = Item::from([(ENTITY_TYPE.to_string(), AttributeValue::S(entity.into()))]);
        item.extend(attributes.iter().map(|(k, v)| (k.to_string(), v.clone())));
        Some(item)
    }

    const REMOVALS: Filter = Filter {
        events: &[StreamEvent::Remove],
        image: Some(StreamImage::Old),
        entities: &["Order"],
        attributes: &[("total", &[FilterMatch::N("12.5")])],
    };

    #[test]
    fn a_removal_is_matched_on_its_old_image_and_numbers_by_their_text() {
        let n = |t: &str| AttributeValue::N(t.into());
        let gone = record(
            StreamEvent::Remove,
            item("Order", &[("total", n("12.5"))]),
            None,
        );
        assert!(REMOVALS.matches(&gone));
        let other = record(
            StreamEvent::Remove,
            item("Order", &[("total", n("12.50"))]),
            None,
        );
        assert!(!REMOVALS.matches(&other), "Lambda compares a number's text");
        let typed = record(
            StreamEvent::Remove,
            item("Order", &[("total", AttributeValue::S("12.5".into()))]),
            None,
        );
        assert!(!REMOVALS.matches(&typed), "an S is not an N");
        let insert = record(
            StreamEvent::Insert,
            None,
            item("Order", &[("total", n("12.5"))]),
        );
        assert!(!REMOVALS.matches(&insert));
        let product = record(
            StreamEvent::Remove,
            item("Product", &[("total", n("12.5"))]),
            None,
        );
        assert!(!REMOVALS.matches(&product));
    }

    #[test]
    fn a_keys_only_filter_matches_on_events_alone() {
        let keys_only = Filter {
            events: &[StreamEvent::Insert],
            image: None,
            entities: &["Order"],
            attributes: &[],
        };
        assert!(keys_only.matches(&record(StreamEvent::Insert, None, None)));
        assert!(!keys_only.matches(&record(StreamEvent::Modify, None, None)));
    }
}
