//! The on-disk format of the table's stream (`[table] stream`) and its consumers
//! (`[consumers.NAME]`): what DynamoDB Streams carries and which Lambda functions read it.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Sp;

/// What each stream record carries besides its keys (DynamoDB's `StreamViewType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum StreamView {
    /// The changed item's key attributes only.
    KeysOnly,
    /// The item as it is after the change.
    NewImage,
    /// The item as it was before the change.
    OldImage,
    /// Both images.
    NewAndOldImages,
}

impl StreamView {
    /// The DynamoDB name (`NEW_AND_OLD_IMAGES`).
    pub fn as_str(self) -> &'static str {
        match self {
            StreamView::KeysOnly => "KEYS_ONLY",
            StreamView::NewImage => "NEW_IMAGE",
            StreamView::OldImage => "OLD_IMAGE",
            StreamView::NewAndOldImages => "NEW_AND_OLD_IMAGES",
        }
    }

    /// Whether records carry the item after the change.
    pub fn has_new_image(self) -> bool {
        matches!(self, StreamView::NewImage | StreamView::NewAndOldImages)
    }

    /// Whether records carry the item before the change.
    pub fn has_old_image(self) -> bool {
        matches!(self, StreamView::OldImage | StreamView::NewAndOldImages)
    }
}

/// The kind of change a stream record reports (its `eventName`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize, JsonSchema,
)]
#[serde(rename_all = "UPPERCASE")]
pub enum StreamEvent {
    /// An item was created.
    Insert,
    /// An existing item was changed (updated, or put over).
    Modify,
    /// An item was deleted (or expired by TTL).
    Remove,
}

impl StreamEvent {
    /// Every event, in DynamoDB's order.
    pub const ALL: [StreamEvent; 3] = [
        StreamEvent::Insert,
        StreamEvent::Modify,
        StreamEvent::Remove,
    ];

    /// The record's `eventName` (`INSERT`).
    pub fn as_str(self) -> &'static str {
        match self {
            StreamEvent::Insert => "INSERT",
            StreamEvent::Modify => "MODIFY",
            StreamEvent::Remove => "REMOVE",
        }
    }
}

/// Where a batch goes once its retries are spent.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum FailureDestination {
    /// An SQS queue the template declares.
    Queue,
    /// An SNS topic the template declares.
    Topic,
}

impl FailureDestination {
    /// The name the model file writes (`queue`).
    pub fn as_str(self) -> &'static str {
        match self {
            FailureDestination::Queue => "queue",
            FailureDestination::Topic => "topic",
        }
    }
}

/// Where in the stream a new consumer starts reading.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum StartingPosition {
    /// The oldest record still kept (24 hours).
    #[default]
    TrimHorizon,
    /// Only records written after the consumer starts.
    Latest,
}

impl StartingPosition {
    /// The DynamoDB name (`TRIM_HORIZON`).
    pub fn as_str(self) -> &'static str {
        match self {
            StartingPosition::TrimHorizon => "TRIM_HORIZON",
            StartingPosition::Latest => "LATEST",
        }
    }
}

/// One allowed value of a consumer's attribute filter, as TOML writes it.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum RawFilterValue {
    /// `true` or `false`.
    Boolean(bool),
    /// A whole number.
    Integer(i64),
    /// A number with a fraction.
    Float(f64),
    /// Text: a string or an enum value.
    String(String),
}

/// A stream consumer: a function that handles changes of some entities.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawConsumer {
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
    /// The entities whose changes it handles (at least one).
    pub entities: Sp<Vec<Sp<String>>>,
    /// The changes it handles: `INSERT`, `MODIFY`, `REMOVE` (default: all three).
    #[serde(default)]
    pub events: Option<Sp<Vec<Sp<StreamEvent>>>>,
    /// Attribute to the values it must hold for a record to be delivered (strings, numbers or
    /// booleans); records of an entity without the attribute are not filtered by it.
    #[serde(default)]
    pub filter: BTreeMap<String, Sp<Vec<Sp<RawFilterValue>>>>,
    /// Records per invocation: 1 to 10000 (default 100).
    #[serde(default)]
    #[schemars(range(min = 1, max = 10_000))]
    pub batch_size: Option<Sp<i64>>,
    /// Retries of a failing batch (`MaximumRetryAttempts`): -1 (until the record expires) to
    /// 10000 (default 2).
    #[serde(default)]
    #[schemars(range(min = -1, max = 10_000))]
    pub retries: Option<Sp<i64>>,
    /// Split a failing batch in two and retry each half (default true).
    #[serde(default)]
    pub bisect_on_error: Option<bool>,
    /// Where a batch goes once its retries are spent: `queue` (SQS) or `topic` (SNS); absent:
    /// it is dropped.
    #[serde(default)]
    pub on_failure: Option<Sp<FailureDestination>>,
    /// `TRIM_HORIZON` (default) or `LATEST`.
    #[serde(default)]
    pub starting_position: Option<Sp<StartingPosition>>,
    /// The write patterns it runs.
    #[serde(default)]
    pub writes: Vec<Sp<String>>,
    /// The read patterns it runs (GetItem, Query, Scan, BatchGet): its role may send them.
    #[serde(default)]
    pub reads: Vec<Sp<String>>,
}

/// What a stream consumer handles (`[traffic.consumers.NAME]`): its records after its `events`
/// and `filter`, and how often it runs its reads. Without it, `cost` and `check` count every
/// write of its entities as a record and each of its reads once per record: an upper bound.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawConsumerTraffic {
    /// Records per second at peak delivered to its handler, after its `events` and `filter`:
    /// 0 to 1000000000. Without it, the sum of its entities' writes/s.
    #[serde(default)]
    #[schemars(range(min = 0, max = 1_000_000_000))]
    pub records_per_second: Option<f64>,
    /// Calls per second at peak of read patterns it lists in `reads`, by name: each 0 to
    /// 1000000000. A read not named here runs once per record.
    #[serde(default)]
    #[schemars(extend("additionalProperties" = {
        "type": "number", "format": "double", "minimum": 0, "maximum": 1_000_000_000
    }))]
    pub reads_per_second: BTreeMap<String, Sp<f64>>,
}
