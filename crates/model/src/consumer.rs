//! The validated stream consumer (`[consumers.NAME]`): which entities' changes it handles, how
//! Lambda delivers them, and which write and read patterns it runs.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

pub use crate::raw::{FailureDestination, StartingPosition, StreamEvent, StreamView};

/// Records per invocation when a consumer states none.
pub const DEFAULT_BATCH_SIZE: u32 = 100;
/// The largest batch Lambda takes from a DynamoDB stream.
pub const MAX_BATCH_SIZE: u32 = 10_000;
/// Retries of a failing batch when a consumer states none.
pub const DEFAULT_RETRIES: i32 = 2;
/// The most retries Lambda allows (`-1` retries until the record expires).
pub const MAX_RETRIES: i32 = 10_000;

/// One allowed value of a consumer's attribute filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilterValue {
    /// Text (a string or enum value, a text timestamp): matched as `S`.
    String(String),
    /// A number in its canonical text (`12`, `9.5`): matched as `N`.
    Number(String),
    /// A boolean: matched as `BOOL`.
    Bool(bool),
}

impl FilterValue {
    /// The DynamoDB type the value is matched as: `S`, `N` or `BOOL`.
    pub fn dynamo_type(&self) -> &'static str {
        match self {
            FilterValue::String(_) => "S",
            FilterValue::Number(_) => "N",
            FilterValue::Bool(_) => "BOOL",
        }
    }
}

impl fmt::Display for FilterValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FilterValue::String(s) => write!(f, "\"{s}\""),
            FilterValue::Number(n) => f.write_str(n),
            FilterValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// Where each part of a consumer was written, for diagnostics.
#[derive(Debug, Clone, Default)]
pub struct ConsumerSpans {
    /// Each entry of `entities`, in order.
    pub entities: Vec<Range<usize>>,
    /// Each entry of `events`, in order; empty when `events` was not written.
    pub events: Vec<Range<usize>>,
    /// Each filter's list of values, in the order of [`Consumer::filter`].
    pub filter: Vec<Range<usize>>,
    /// Each entry of `writes`, in order.
    pub writes: Vec<Range<usize>>,
    /// Each entry of `reads`, in order.
    pub reads: Vec<Range<usize>>,
}

/// A stream consumer: a function that handles changes of some entities.
#[derive(Debug, Clone)]
pub struct Consumer {
    /// Name (letters and digits: it names the function in templates).
    pub name: String,
    /// Free text.
    pub description: Option<String>,
    /// The entities whose changes it handles.
    pub entities: Vec<String>,
    /// The changes it handles, in DynamoDB's order (`INSERT`, `MODIFY`, `REMOVE`).
    pub events: Vec<StreamEvent>,
    /// Attribute to the values it must hold, sorted by attribute.
    pub filter: Vec<(String, Vec<FilterValue>)>,
    /// Records per invocation, 1 to [`MAX_BATCH_SIZE`].
    pub batch_size: u32,
    /// `MaximumRetryAttempts`: -1 (until the record expires) to [`MAX_RETRIES`].
    pub retries: i32,
    /// Split a failing batch and retry the halves.
    pub bisect_on_error: bool,
    /// Where a batch goes once its retries are spent; `None`: dropped.
    pub on_failure: Option<FailureDestination>,
    /// Where a new consumer starts reading.
    pub starting_position: StartingPosition,
    /// The write patterns it runs.
    pub writes: Vec<String>,
    /// The read patterns it runs.
    pub reads: Vec<String>,
    /// Span of the consumer's definition.
    pub span: Range<usize>,
    /// Spans of its parts.
    pub spans: ConsumerSpans,
}

impl Consumer {
    /// Whether it handles `event`.
    pub fn handles(&self, event: StreamEvent) -> bool {
        self.events.contains(&event)
    }

    /// The span of its entry naming `entity`, else of the consumer.
    pub fn entity_span(&self, entity: &str) -> Range<usize> {
        self.entities
            .iter()
            .position(|e| e == entity)
            .and_then(|at| self.spans.entities.get(at))
            .unwrap_or(&self.span)
            .clone()
    }

    /// The span of its `events` entry for `event`, else of the consumer (events not written).
    pub fn event_span(&self, event: StreamEvent) -> Range<usize> {
        self.events
            .iter()
            .position(|e| *e == event)
            .and_then(|at| self.spans.events.get(at))
            .unwrap_or(&self.span)
            .clone()
    }

    /// The span of the filter on `attribute`, else of the consumer.
    pub fn filter_span(&self, attribute: &str) -> Range<usize> {
        self.filter
            .iter()
            .position(|(a, _)| a == attribute)
            .and_then(|at| self.spans.filter.get(at))
            .unwrap_or(&self.span)
            .clone()
    }

    /// The span of its `writes` entry naming `pattern`, else of the consumer.
    pub fn write_span(&self, pattern: &str) -> Range<usize> {
        self.writes
            .iter()
            .position(|w| w == pattern)
            .and_then(|at| self.spans.writes.get(at))
            .unwrap_or(&self.span)
            .clone()
    }

    /// The span of its `reads` entry naming `pattern`, else of the consumer.
    pub fn read_span(&self, pattern: &str) -> Range<usize> {
        self.reads
            .iter()
            .position(|r| r == pattern)
            .and_then(|at| self.spans.reads.get(at))
            .unwrap_or(&self.span)
            .clone()
    }
}

/// What the traffic says a consumer handles (`[traffic.consumers.NAME]`).
#[derive(Debug, Clone, Default)]
pub struct ConsumerTraffic {
    /// Records/s delivered to its handler, after its events and filter.
    pub records_per_second: Option<f64>,
    /// Calls/s of each read pattern of its `reads` it states a rate for.
    pub reads_per_second: BTreeMap<String, f64>,
    /// Span.
    pub span: Range<usize>,
}
