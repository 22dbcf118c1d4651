//! The on-disk model format: serde/schemars types mirroring the TOML file exactly.
//!
//! These types are what the JSON Schema is generated from. They carry byte
//! spans (via [`Sp`]) so validation and lints can point at the offending line.

use std::collections::BTreeMap;
use std::ops::Range;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

mod stream;

pub use stream::{
    FailureDestination, RawConsumer, RawConsumerTraffic, RawFilterValue, StartingPosition,
    StreamEvent, StreamView,
};

/// A value together with the byte range it came from in the source.
///
/// Deserializes through [`toml::Spanned`], so spans are only available when
/// parsing TOML; the JSON Schema of `Sp<T>` is the schema of `T`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sp<T> {
    /// The parsed value.
    pub value: T,
    /// Byte range in the source (start inclusive, end exclusive).
    pub span: Range<usize>,
}

impl<T> Sp<T> {
    /// Wraps a value with an explicit span.
    pub fn new(value: T, span: Range<usize>) -> Self {
        Self { value, span }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Sp<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let spanned = toml::Spanned::<T>::deserialize(deserializer)?;
        let span = spanned.span();
        Ok(Self {
            value: spanned.into_inner(),
            span,
        })
    }
}

impl<T: Serialize> Serialize for Sp<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

impl<T: JsonSchema> JsonSchema for Sp<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// A whole single-table design.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "monotable model")]
pub struct RawModel {
    /// Format version; only `1` exists.
    #[serde(default)]
    pub version: Option<Sp<i64>>,
    /// The DynamoDB table.
    pub table: Sp<RawTable>,
    /// Secondary indexes by name (`GSI1`, `LSI1`, ...).
    #[serde(default)]
    pub indexes: BTreeMap<String, Sp<RawIndex>>,
    /// Entity types by name (`User`, `Order`, ...).
    #[serde(default)]
    pub entities: BTreeMap<String, Sp<RawEntity>>,
    /// Access patterns by name (`getUser`, `listOrdersByStatus`, ...).
    #[serde(default)]
    pub patterns: BTreeMap<String, Sp<RawPattern>>,
    /// Optional traffic estimates used by the hot-partition and size rules.
    #[serde(default)]
    pub traffic: Option<Sp<RawTraffic>>,
    /// Stream consumers by name (`productSales`): functions that handle the table's changes.
    #[serde(default)]
    pub consumers: BTreeMap<String, Sp<RawConsumer>>,
}

/// The table itself.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    /// Table name.
    pub name: Sp<String>,
    /// Partition key attribute (one: a list is refused with a message saying why).
    pub partition_key: Sp<RawIndexKey>,
    /// Sort key attribute (optional, but single-table designs want one).
    #[serde(default)]
    pub sort_key: Option<Sp<RawIndexKey>>,
    /// `PAY_PER_REQUEST` (default) or `PROVISIONED`.
    #[serde(default)]
    pub billing_mode: Option<Sp<BillingMode>>,
    /// Attribute DynamoDB's TTL reads (epoch seconds).
    #[serde(default)]
    pub ttl_attribute: Option<Sp<String>>,
    /// The table's stream and what its records carry: `KEYS_ONLY`, `NEW_IMAGE`, `OLD_IMAGE`
    /// or `NEW_AND_OLD_IMAGES`; absent, the table has no stream.
    #[serde(default)]
    pub stream: Option<Sp<StreamView>>,
}

/// Billing mode of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum BillingMode {
    /// On-demand capacity.
    PayPerRequest,
    /// Provisioned capacity.
    Provisioned,
}

/// A key attribute: name and DynamoDB scalar type.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawKeyAttribute {
    /// Attribute name, e.g. `PK`.
    pub name: Sp<String>,
    /// `S` (string, default), `N` (number) or `B` (binary).
    #[serde(default, rename = "type")]
    pub ty: Option<Sp<KeyAttributeType>>,
}

/// A key: one attribute (`{ name = "GSI1PK" }`), or an ordered list of typed attributes
/// (`[{ name = "status" }, { name = "shard", type = "N" }]`) that items write as ordinary
/// attributes: a native multi-attribute key, which only a global index may have.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum RawIndexKey {
    /// One key attribute.
    One(RawKeyAttribute),
    /// A native multi-attribute key, in order.
    Many(Vec<Sp<RawKeyAttribute>>),
}

impl<'de> Deserialize<'de> for RawIndexKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IndexKeyVisitor)
    }
}

/// Reads a table (one attribute) or an array (a native key) without buffering, so that the
/// spans inside are kept.
struct IndexKeyVisitor;

impl<'de> serde::de::Visitor<'de> for IndexKeyVisitor {
    type Value = RawIndexKey;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a key attribute `{ name = \"...\", type = \"S\" }`, or a list of them")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<RawIndexKey, A::Error> {
        let de = serde::de::value::MapAccessDeserializer::new(map);
        RawKeyAttribute::deserialize(de).map(RawIndexKey::One)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<RawIndexKey, A::Error> {
        let de = serde::de::value::SeqAccessDeserializer::new(seq);
        Vec::deserialize(de).map(RawIndexKey::Many)
    }
}

/// DynamoDB scalar key types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub enum KeyAttributeType {
    /// String.
    S,
    /// Number.
    N,
    /// Binary.
    B,
}

/// Global or local secondary index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum IndexKind {
    /// Global secondary index (own partition key, eventually consistent).
    Global,
    /// Local secondary index (table partition key, alternative sort key).
    Local,
}

/// What an index copies from the base item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ProjectionType {
    /// Every attribute.
    All,
    /// Table and index keys only.
    KeysOnly,
    /// Keys plus the `include` list.
    Include,
}

/// A secondary index.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawIndex {
    /// `global` (default) or `local`.
    #[serde(default)]
    pub kind: Option<Sp<IndexKind>>,
    /// Partition key attribute (for an LSI: must be the table's), or for a global index an
    /// ordered list of one to four typed attributes (a native multi-attribute key).
    #[serde(default)]
    pub partition_key: Option<Sp<RawIndexKey>>,
    /// Sort key attribute, or for a global index an ordered list of up to four.
    #[serde(default)]
    pub sort_key: Option<Sp<RawIndexKey>>,
    /// `ALL` (default), `KEYS_ONLY` or `INCLUDE`.
    #[serde(default)]
    pub projection: Option<Sp<ProjectionType>>,
    /// Non-key attributes projected when `projection = "INCLUDE"`.
    #[serde(default)]
    pub include: Vec<Sp<String>>,
    /// The index is meant to be sparse: `true` when every entity that writes its keys gates
    /// them with `key_conditions`, or the list of the entities that must (an overloaded index
    /// whose other entities are always in it).
    #[serde(default)]
    pub sparse: Option<Sp<RawSparse>>,
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
}

/// How an index is sparse.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum RawSparse {
    /// `true`: every entity writing the index key gates it; `false`: not sparse.
    Flag(bool),
    /// The entities that gate the index key; others may always write it.
    Entities(Vec<String>),
}

/// Attribute types of an entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AttributeType {
    /// UTF-8 string.
    String,
    /// Floating-point number (what most SDKs decode `N` into).
    Number,
    /// Alias of `number`.
    Float,
    /// Exact decimal (money): stored as `N` or a canonical string, never as f64.
    Decimal,
    /// Whole number.
    Integer,
    /// Boolean.
    Boolean,
    /// Point in time; see `format`.
    Timestamp,
    /// One of `values`.
    Enum,
    /// Ordered list.
    List,
    /// String-keyed map.
    Map,
    /// String or number set.
    Set,
}

impl AttributeType {
    /// The type's name as the model file writes it (`string`, `decimal`, ...).
    pub fn name(self) -> &'static str {
        match self {
            AttributeType::String => "string",
            AttributeType::Number => "number",
            AttributeType::Float => "float",
            AttributeType::Decimal => "decimal",
            AttributeType::Integer => "integer",
            AttributeType::Boolean => "boolean",
            AttributeType::Timestamp => "timestamp",
            AttributeType::Enum => "enum",
            AttributeType::List => "list",
            AttributeType::Map => "map",
            AttributeType::Set => "set",
        }
    }
}

/// How a timestamp is written. Adding a format is an edit here (the variant, and in its `impl`
/// its name, shape, length and resolution) and one in the access layer's value module, which
/// writes and reads it (`monotable_access::value::time`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TimestampFormat {
    /// `2024-05-01T12:00:00.000Z`: UTC, fixed width, sorts correctly. The format of a timestamp
    /// whose attribute names none.
    #[default]
    Rfc3339UtcMillis,
    /// `2024-05-01T12:00:00Z`: UTC, fixed width.
    Rfc3339Utc,
    /// `2024-05-01T14:00:00+02:00`: offset varies, does not sort as time.
    Rfc3339Offset,
    /// Python `datetime.utcnow().isoformat()`: no zone, fraction omitted when zero.
    Iso8601Naive,
    /// `2024-05-01`: a day.
    Date,
    /// Seconds since the epoch (a number).
    EpochSeconds,
    /// Milliseconds since the epoch (a number).
    EpochMillis,
}

impl TimestampFormat {
    /// Every format, in declaration order.
    pub const ALL: [TimestampFormat; 7] = [
        TimestampFormat::Rfc3339UtcMillis,
        TimestampFormat::Rfc3339Utc,
        TimestampFormat::Rfc3339Offset,
        TimestampFormat::Iso8601Naive,
        TimestampFormat::Date,
        TimestampFormat::EpochSeconds,
        TimestampFormat::EpochMillis,
    ];

    /// The format's name as the model file writes it (`epoch-seconds`).
    pub fn name(self) -> &'static str {
        match self {
            TimestampFormat::Rfc3339UtcMillis => "rfc3339-utc-millis",
            TimestampFormat::Rfc3339Utc => "rfc3339-utc",
            TimestampFormat::Rfc3339Offset => "rfc3339-offset",
            TimestampFormat::Iso8601Naive => "iso8601-naive",
            TimestampFormat::Date => "date",
            TimestampFormat::EpochSeconds => "epoch-seconds",
            TimestampFormat::EpochMillis => "epoch-millis",
        }
    }

    /// Whether it is written as a number (`N`) rather than text (`S`).
    pub fn is_number(self) -> bool {
        matches!(
            self,
            TimestampFormat::EpochSeconds | TimestampFormat::EpochMillis
        )
    }

    /// What its text looks like, as alternatives: `D` is a digit, `*` any number of further
    /// digits, anything else itself (what `check` builds key shapes from).
    pub fn shapes(self) -> &'static [&'static str] {
        match self {
            TimestampFormat::Rfc3339UtcMillis => &["DDDD-DD-DDTDD:DD:DD.DDDZ"],
            TimestampFormat::Rfc3339Utc => &["DDDD-DD-DDTDD:DD:DDZ"],
            TimestampFormat::Rfc3339Offset => &[
                "DDDD-DD-DDTDD:DD:DDZ",
                "DDDD-DD-DDTDD:DD:DD+DD:DD",
                "DDDD-DD-DDTDD:DD:DD-DD:DD",
                "DDDD-DD-DDTDD:DD:DD.D*Z",
                "DDDD-DD-DDTDD:DD:DD.D*+DD:DD",
                "DDDD-DD-DDTDD:DD:DD.D*-DD:DD",
            ],
            TimestampFormat::Iso8601Naive => &["DDDD-DD-DDTDD:DD:DD", "DDDD-DD-DDTDD:DD:DD.D*"],
            TimestampFormat::Date => &["DDDD-DD-DD"],
            TimestampFormat::EpochSeconds | TimestampFormat::EpochMillis => &["D*", "-D*"],
        }
    }

    /// The length of its text today, in bytes (what `check::cost` sizes items with).
    pub fn text_bytes(self) -> u64 {
        match self {
            TimestampFormat::Rfc3339UtcMillis => 24,
            TimestampFormat::Rfc3339Utc => 20,
            TimestampFormat::Rfc3339Offset => 25,
            TimestampFormat::Iso8601Naive => 26,
            TimestampFormat::Date | TimestampFormat::EpochSeconds => 10,
            TimestampFormat::EpochMillis => 13,
        }
    }

    /// The smallest step between two instants it tells apart, in milliseconds (1 for anything
    /// finer).
    pub fn resolution_millis(self) -> i64 {
        match self {
            TimestampFormat::Date => 86_400_000,
            TimestampFormat::Rfc3339Utc | TimestampFormat::EpochSeconds => 1000,
            TimestampFormat::Rfc3339UtcMillis
            | TimestampFormat::Rfc3339Offset
            | TimestampFormat::Iso8601Naive
            | TimestampFormat::EpochMillis => 1,
        }
    }

    /// The smallest step between two instants it writes, in nanoseconds: a time that is not a
    /// whole multiple of it (since the epoch, in UTC) cannot be stored in this format exactly.
    pub fn resolution_nanos(self) -> i128 {
        match self {
            TimestampFormat::Date => 86_400_000_000_000,
            TimestampFormat::Rfc3339Utc | TimestampFormat::EpochSeconds => 1_000_000_000,
            TimestampFormat::Rfc3339UtcMillis | TimestampFormat::EpochMillis => 1_000_000,
            TimestampFormat::Iso8601Naive => 1_000,
            TimestampFormat::Rfc3339Offset => 1,
        }
    }

    /// What it holds, in words (`whole seconds`), for messages and docs.
    pub fn precision(self) -> &'static str {
        match self {
            TimestampFormat::Date => "a day (UTC)",
            TimestampFormat::Rfc3339Utc | TimestampFormat::EpochSeconds => "whole seconds",
            TimestampFormat::Rfc3339UtcMillis | TimestampFormat::EpochMillis => "milliseconds",
            TimestampFormat::Iso8601Naive => "microseconds",
            TimestampFormat::Rfc3339Offset => "nanoseconds",
        }
    }
}

/// One attribute of an entity (or a parameter of a pattern).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAttribute {
    /// The type.
    #[serde(rename = "type")]
    pub ty: Sp<AttributeType>,
    /// Written on every item of the entity.
    #[serde(default)]
    pub required: Option<bool>,
    /// Allowed values of an `enum`.
    #[serde(default)]
    pub values: Vec<String>,
    /// Timestamp encoding.
    #[serde(default)]
    pub format: Option<Sp<TimestampFormat>>,
    /// Element type of a `list` or `set`.
    #[serde(default)]
    pub items: Option<AttributeType>,
    /// Upper bound on elements of a `list`, `map` or `set`: 1 to 409600 (an item is at most
    /// 400 KB).
    #[serde(default)]
    #[schemars(range(min = 1, max = 409_600))]
    pub max_items: Option<u64>,
    /// Upper bound on bytes of a `string`: 1 to 409600 (an item is at most 400 KB).
    #[serde(default)]
    #[schemars(range(min = 1, max = 409_600))]
    pub max_length: Option<u64>,
    /// How many distinct values are live at once (a write burst spreads over them): 1 to
    /// 1000000000.
    #[serde(default)]
    #[schemars(range(min = 1, max = 1_000_000_000))]
    pub cardinality: Option<u64>,
    /// The attribute holds money or an exact quantity.
    #[serde(default)]
    pub money: Option<bool>,
    /// The value `monotable migrate` writes on existing items that lack the attribute.
    #[serde(default)]
    pub default: Option<Sp<DefaultValue>>,
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
}

/// A uniqueness constraint.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawUnique {
    /// Attributes whose combination is unique.
    pub attributes: Vec<String>,
    /// Entity of the guard item (key built from the attributes) written in the same transaction.
    #[serde(default)]
    pub guard: Option<Sp<String>>,
}

/// How many of the related entity share the collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RelationKind {
    /// At most one.
    One,
    /// Many; bounded by `max` when given.
    Many,
}

/// A relation: the related entity shares this entity's item collection.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRelation {
    /// The related entity.
    pub entity: Sp<String>,
    /// `one` or `many`.
    pub kind: RelationKind,
    /// Upper bound for `many`, 1 to 1000000000; absent means unbounded.
    #[serde(default)]
    #[schemars(range(min = 1, max = 1_000_000_000))]
    pub max: Option<u64>,
    /// Index whose item collection they share (default: the table).
    #[serde(default)]
    pub index: Option<Sp<String>>,
}

/// An entity type.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEntity {
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
    /// Attributes by name.
    #[serde(default)]
    pub attributes: BTreeMap<String, Sp<RawAttribute>>,
    /// Key attribute (`PK`, `SK`, `GSI1PK`, ...) to key template (`USER#{userId}`).
    #[serde(default)]
    pub keys: BTreeMap<String, Sp<String>>,
    /// Key attribute to the boolean attribute that must be true for it to be written (sparse indexes).
    #[serde(default)]
    pub key_conditions: BTreeMap<String, Sp<String>>,
    /// Uniqueness constraints.
    #[serde(default)]
    pub unique: Vec<Sp<RawUnique>>,
    /// Entities that share this entity's item collection.
    #[serde(default)]
    pub relations: Vec<Sp<RawRelation>>,
    /// A primary-key namespace this entity shares on purpose with the other entities naming
    /// it: their keys may be equal, and a key taken by one is unique across all of them.
    #[serde(default)]
    pub key_namespace: Option<Sp<String>>,
    /// The entity's previous name: `monotable migrate` rewrites items of that type as this one.
    #[serde(default)]
    pub renamed_from: Option<Sp<String>>,
}

/// An attribute's default value, as TOML writes it.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum DefaultValue {
    /// `true` or `false`.
    Boolean(bool),
    /// A whole number.
    Integer(i64),
    /// A number with a fraction.
    Float(f64),
    /// Text: a string, an enum value, a timestamp in the attribute's format, or an exact decimal.
    String(String),
}

impl DefaultValue {
    /// The value as key templates see it.
    pub fn text(&self) -> String {
        match self {
            DefaultValue::Boolean(b) => b.to_string(),
            DefaultValue::Integer(i) => i.to_string(),
            DefaultValue::Float(f) => f.to_string(),
            DefaultValue::String(s) => s.clone(),
        }
    }
}

/// Operations an access pattern performs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub enum Operation {
    /// Read one item by its full key.
    GetItem,
    /// Read an item collection (partition key equality, optional sort key condition).
    Query,
    /// Read up to 100 items by full keys.
    BatchGet,
    /// Read every item.
    Scan,
    /// Write one item.
    PutItem,
    /// Update one item by its full key.
    UpdateItem,
    /// Delete one item by its full key.
    DeleteItem,
    /// Write up to 100 items atomically: the actions are write patterns (`writes`).
    TransactWrite,
    /// Check a condition on one item by its full key, inside a `TransactWrite`.
    ConditionCheck,
    /// Put or delete up to 25 items per call, unconditionally: the requests are write patterns
    /// (`writes`).
    BatchWrite,
}

/// How many times an action of a transaction (or a request of a batch) runs at most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum RawCount {
    /// A maximum count: 1 to 100 in a transaction (its most actions), 1 to 1000000000 in a
    /// batch.
    Fixed(u64),
    /// `"many"`: one per element of an unbounded input.
    Many(ManyCount),
}

impl<'de> Deserialize<'de> for RawCount {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(CountVisitor)
    }
}

/// Reads a count: a whole number or `"many"`, with a message that says so otherwise.
struct CountVisitor;

impl serde::de::Visitor<'_> for CountVisitor {
    type Value = RawCount;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a whole number of items (from 1 to 100 in a transaction), or \"many\"")
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<RawCount, E> {
        Ok(RawCount::Fixed(v))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<RawCount, E> {
        u64::try_from(v)
            .map(RawCount::Fixed)
            .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawCount, E> {
        match v {
            "many" => Ok(RawCount::Many(ManyCount::Many)),
            _ => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
        }
    }
}

/// The literal string `many`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ManyCount {
    /// Unbounded.
    Many,
}

/// One action of a `TransactWrite` (or request of a `BatchWrite`) pattern: the write pattern it
/// runs (`pattern`), or, in the older form that generates no type, only the entity it writes.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawWrite {
    /// The write pattern this action runs (a PutItem, UpdateItem, DeleteItem or ConditionCheck
    /// pattern); the action is named after it.
    #[serde(default)]
    pub pattern: Option<Sp<String>>,
    /// Instead of `pattern`: alternatives, write patterns of one entity, any mix of which runs
    /// up to `count` times in all (a product's stock taken, or, when it tracks none, checked).
    #[serde(default)]
    pub one_of: Vec<Sp<String>>,
    /// The entity written, when no `pattern` is named.
    #[serde(default)]
    pub entity: Option<Sp<String>>,
    /// Number of actions for it: an integer (maximum) or `"many"` (unbounded). Default 1.
    #[serde(default)]
    pub count: Option<RawCount>,
}

/// An access pattern.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPattern {
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
    /// The DynamoDB operation.
    pub operation: Sp<Operation>,
    /// Index queried (default: the table).
    #[serde(default)]
    pub index: Option<Sp<String>>,
    /// Key condition: key attribute to template. The partition key is an
    /// equality; the sort key may be `T`, `begins_with(T)`, `between(A, B)`,
    /// `< T`, `<= T`, `> T` or `>= T`.
    #[serde(default)]
    pub key: BTreeMap<String, Sp<String>>,
    /// Entity types the pattern must return (or, for writes, writes).
    #[serde(default)]
    pub returns: Vec<Sp<String>>,
    /// Typed parameters used in the key templates that are not entity attributes.
    #[serde(default)]
    pub params: BTreeMap<String, Sp<RawAttribute>>,
    /// Attributes used in a filter expression.
    #[serde(default)]
    pub filter: Vec<Sp<String>>,
    /// Attributes the caller reads from the results (default: all of them).
    #[serde(default)]
    pub reads: Option<Vec<Sp<String>>>,
    /// The caller pages through results with `LastEvaluatedKey`.
    #[serde(default)]
    pub paginate: Option<bool>,
    /// `Limit` per request: 1 to 2147483647 (DynamoDB's `Limit` is a 32-bit integer).
    #[serde(default)]
    #[schemars(range(min = 1, max = 2_147_483_647))]
    pub limit: Option<u64>,
    /// The pattern is expected to return at most one item.
    #[serde(default)]
    pub unique: Option<bool>,
    /// Strongly consistent read.
    #[serde(default)]
    pub consistent_read: Option<bool>,
    /// Newest/largest sort key first (`ScanIndexForward = false`).
    #[serde(default)]
    pub descending: Option<bool>,
    /// Items written by a `TransactWrite`.
    #[serde(default)]
    pub writes: Vec<Sp<RawWrite>>,
    /// `UpdateItem` only: the attributes of the returned entity the update changes (with SET,
    /// REMOVE or ADD). `monotable check` then reports an index key that would go stale: one
    /// whose template has some of its inputs set and others not (MT015).
    #[serde(default)]
    pub sets: Option<Sp<Vec<Sp<String>>>>,
    /// PutItem, UpdateItem, DeleteItem and ConditionCheck: what must hold of the stored item,
    /// clauses joined by `and`: `exists`, `not_exists`, `version(attr)`, `exists(attr)`,
    /// `not_exists(attr)`, `attr <op> {param}` or `attr <op> literal`.
    #[serde(default)]
    pub condition: Option<Sp<String>>,
}

/// Traffic estimates.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTraffic {
    /// Writes/s assumed for an entity without its own figure: 0 to 1000000000.
    #[serde(default)]
    #[schemars(range(min = 0, max = 1_000_000_000))]
    pub default_writes_per_second: Option<f64>,
    /// Item size assumed for an entity without its own figure: 1 to 409600 bytes (400 KB).
    #[serde(default)]
    #[schemars(range(min = 1, max = 409_600))]
    pub default_item_size_bytes: Option<u64>,
    /// Headroom a sharded key's shard count is sized with (MT017): the shards the declared
    /// traffic needs are its peak × this over one partition's limit; 1 to 100, default 2.
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub shard_headroom: Option<f64>,
    /// Per-entity figures.
    #[serde(default)]
    pub entities: BTreeMap<String, Sp<RawEntityTraffic>>,
    /// Per-pattern figures.
    #[serde(default)]
    pub patterns: BTreeMap<String, Sp<RawPatternTraffic>>,
    /// Per-consumer figures: what each stream consumer handles after its events and filter.
    #[serde(default)]
    pub consumers: BTreeMap<String, Sp<RawConsumerTraffic>>,
}

/// Traffic of one entity.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEntityTraffic {
    /// Items written per second at peak: 0 to 1000000000.
    #[serde(default)]
    #[schemars(range(min = 0, max = 1_000_000_000))]
    pub writes_per_second: Option<f64>,
    /// Largest expected item size in bytes: 1 to 409600 (400 KB).
    #[serde(default)]
    #[schemars(range(min = 1, max = 409_600))]
    pub item_size_bytes: Option<u64>,
    /// Items of the entity stored in the table (what a migration touches): at most
    /// 1000000000000000.
    #[serde(default)]
    #[schemars(range(max = 1_000_000_000_000_000_u64))]
    pub items: Option<u64>,
}

/// Traffic of one access pattern.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPatternTraffic {
    /// Requests per second at peak of a read pattern (GetItem, Query, BatchGet, Scan):
    /// 0 to 1000000000.
    #[serde(default)]
    #[schemars(range(min = 0, max = 1_000_000_000))]
    pub reads_per_second: Option<f64>,
    /// Calls per second at peak of a write pattern (PutItem, UpdateItem, DeleteItem,
    /// ConditionCheck, TransactWrite, BatchWrite): 0 to 1000000000.
    #[serde(default)]
    #[schemars(range(min = 0, max = 1_000_000_000))]
    pub writes_per_second: Option<f64>,
    /// Items returned per request: 1 to 1048576 (a Query reads at most 1 MB per call).
    #[serde(default)]
    #[schemars(range(min = 1, max = 1_048_576))]
    pub items_per_read: Option<u64>,
}

#[cfg(test)]
mod tests;
