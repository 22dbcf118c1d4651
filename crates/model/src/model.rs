//! The validated model: table, indexes, entities with parsed key templates, access patterns, traffic.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::consumer::{Consumer, ConsumerTraffic};
use crate::error::RenderError;
pub use crate::raw::{
    AttributeType, BillingMode, IndexKind, KeyAttributeType, Operation, ProjectionType,
    RelationKind, StreamView, TimestampFormat,
};
use crate::template::KeyTemplate;

/// A validated single-table design.
#[derive(Debug, Clone)]
pub struct Model {
    /// The table.
    pub table: TableDecl,
    /// Secondary indexes, sorted by name.
    pub indexes: Vec<Index>,
    /// Entities, sorted by name.
    pub entities: Vec<EntityDecl>,
    /// Access patterns, sorted by name.
    pub patterns: Vec<Pattern>,
    /// Traffic estimates (defaults when the file has none).
    pub traffic: Traffic,
    /// Stream consumers, sorted by name.
    pub consumers: Vec<Consumer>,
}

/// The item called `name` in `items`: a binary search, since [`validate`](crate::validate)
/// keeps indexes, entities and patterns sorted by name, with a linear search as the fallback
/// for a model assembled by hand in another order.
fn by_name<'a, T>(items: &'a [T], name: &str, name_of: impl Fn(&T) -> &str) -> Option<&'a T> {
    match items.binary_search_by(|item| name_of(item).cmp(name)) {
        Ok(at) => items.get(at),
        Err(_) => items.iter().find(|item| name_of(item) == name),
    }
}

impl Model {
    /// The attributes of `entity` some write pattern's condition names in `version(..)`: its
    /// version, which an update bumps when its `sets` lists it and checks when its own
    /// condition names it.
    pub fn version_attributes(&self, entity: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for p in &self.patterns {
            if p.returns.first().map(|r| r.name.as_str()) != Some(entity) {
                continue;
            }
            if let Some(v) = p.condition.as_ref().and_then(|c| c.version())
                && !out.iter().any(|o| o == v)
            {
                out.push(v.to_string());
            }
        }
        out
    }

    /// The entity called `name`.
    pub fn entity(&self, name: &str) -> Option<&EntityDecl> {
        by_name(&self.entities, name, |e| &e.name)
    }

    /// The secondary index called `name`.
    pub fn index(&self, name: &str) -> Option<&Index> {
        by_name(&self.indexes, name, |i| &i.name)
    }

    /// The access pattern called `name`.
    pub fn pattern(&self, name: &str) -> Option<&Pattern> {
        by_name(&self.patterns, name, |p| &p.name)
    }

    /// The stream consumer called `name`.
    pub fn consumer(&self, name: &str) -> Option<&Consumer> {
        by_name(&self.consumers, name, |c| &c.name)
    }

    /// Key attribute names of the table (`None`) or of an index; `None` if the index is undeclared.
    pub fn key_schema(&self, index: Option<&str>) -> Option<(&str, Option<&str>)> {
        match index {
            None => Some((
                self.table.partition_key.name.as_str(),
                self.table.sort_key.as_ref().map(|k| k.name.as_str()),
            )),
            Some(name) => self
                .index(name)
                .map(|i| (i.partition_key.as_str(), i.sort_key.as_deref())),
        }
    }

    /// The declared scalar type of a key attribute of the table or of any index; `None` when
    /// `name` is no key attribute.
    pub fn key_attribute_type(&self, name: &str) -> Option<KeyAttributeType> {
        let table = std::iter::once(&self.table.partition_key)
            .chain(self.table.sort_key.as_ref())
            .find(|k| k.name == name)
            .map(|k| k.ty);
        table.or_else(|| {
            self.indexes
                .iter()
                .flat_map(Index::key_attributes)
                .find(|k| k.name == name)
                .map(|k| k.ty)
        })
    }

    /// The table's own key attributes: its partition key, then its sort key when it has one.
    pub fn table_key_names(&self) -> Vec<&str> {
        std::iter::once(self.table.partition_key.name.as_str())
            .chain(self.table.sort_key.as_ref().map(|k| k.name.as_str()))
            .collect()
    }

    /// Every key attribute name of the table and its indexes.
    pub fn key_attribute_names(&self) -> Vec<&str> {
        let mut names = vec![self.table.partition_key.name.as_str()];
        names.extend(self.table.sort_key.as_ref().map(|k| k.name.as_str()));
        for index in &self.indexes {
            names.extend(index.key_attributes().map(|k| k.name.as_str()));
        }
        names.sort_unstable();
        names.dedup();
        names
    }
}

/// The table as the model declares it (`[table]`); not a handle to send requests through
/// (that is the access layer's `Table`).
#[derive(Debug, Clone)]
pub struct TableDecl {
    /// Table name.
    pub name: String,
    /// Partition key.
    pub partition_key: KeyAttribute,
    /// Sort key.
    pub sort_key: Option<KeyAttribute>,
    /// Billing mode.
    pub billing_mode: BillingMode,
    /// TTL attribute.
    pub ttl_attribute: Option<String>,
    /// The table's stream view; `None`: the table has no stream.
    pub stream: Option<StreamView>,
    /// Span of the `[table]` value.
    pub span: Range<usize>,
}

/// A key attribute of the table or an index.
#[derive(Debug, Clone)]
pub struct KeyAttribute {
    /// Name.
    pub name: String,
    /// Scalar type.
    pub ty: KeyAttributeType,
}

/// A secondary index.
#[derive(Debug, Clone)]
pub struct Index {
    /// Name.
    pub name: String,
    /// Global or local.
    pub kind: IndexKind,
    /// Partition key attribute (of a native key: the first of [`Index::partition_keys`]).
    pub partition_key: String,
    /// Its scalar type (`S` unless declared).
    pub partition_key_type: KeyAttributeType,
    /// Sort key attribute (of a native key: the first of [`Index::sort_keys`]).
    pub sort_key: Option<String>,
    /// Its scalar type (`S` unless declared).
    pub sort_key_type: Option<KeyAttributeType>,
    /// Every partition key attribute, in order: one, or one to four for a native key.
    pub partition_keys: Vec<KeyAttribute>,
    /// Every sort key attribute, in order: none or one, or up to four for a native key.
    pub sort_keys: Vec<KeyAttribute>,
    /// A native multi-attribute key (declared as lists): its attributes are ordinary attributes
    /// of the items, written without templates; an item is in the index when it holds every one.
    pub native: bool,
    /// Projection type.
    pub projection: ProjectionType,
    /// Projected non-key attributes for `INCLUDE`.
    pub include: Vec<String>,
    /// Declared sparse (`sparse = true` or a list of entities).
    pub sparse: bool,
    /// The entities that must gate the index key when `sparse` names them; empty when
    /// `sparse = true` (every writer must).
    pub sparse_entities: Vec<String>,
    /// Span of the index definition.
    pub span: Range<usize>,
}

impl Index {
    /// Every key attribute of the index, partition attributes first, each in order.
    pub fn key_attributes(&self) -> impl Iterator<Item = &KeyAttribute> {
        self.partition_keys.iter().chain(&self.sort_keys)
    }

    /// Whether `name` is one of the index's sort key attributes.
    pub fn is_sort_attribute(&self, name: &str) -> bool {
        self.sort_keys.iter().any(|k| k.name == name)
    }

    /// For a native index: whether `entity` declares every key attribute, and so writes items
    /// that can be in the index (each item is, when it holds them all).
    pub fn native_member(&self, entity: &EntityDecl) -> bool {
        self.native
            && self
                .key_attributes()
                .all(|k| entity.attribute(&k.name).is_some())
    }

    /// For a native index: whether every item of `entity` is in it (every key attribute is a
    /// required attribute of the entity).
    pub fn native_always(&self, entity: &EntityDecl) -> bool {
        self.native
            && self
                .key_attributes()
                .all(|k| entity.attribute(&k.name).is_some_and(|a| a.required))
    }

    /// Whether `entity` is meant to be only sometimes in this sparse index.
    pub fn sparse_for(&self, entity: &str) -> bool {
        self.sparse
            && (self.sparse_entities.is_empty() || self.sparse_entities.iter().any(|e| e == entity))
    }
}

/// An attribute of an entity or a parameter of a pattern.
#[derive(Debug, Clone)]
pub struct Attribute {
    /// Name.
    pub name: String,
    /// Type.
    pub ty: AttributeType,
    /// Written on every item.
    pub required: bool,
    /// Enum values.
    pub values: Vec<String>,
    /// Timestamp format.
    pub format: Option<TimestampFormat>,
    /// Element type of a list/set.
    pub items: Option<AttributeType>,
    /// Bound on list/map/set elements.
    pub max_items: Option<u64>,
    /// Bound on string length.
    pub max_length: Option<u64>,
    /// Distinct values live at once.
    pub cardinality: Option<u64>,
    /// Declared money/exact quantity.
    pub money: bool,
    /// The attribute's free-text `description`.
    pub description: Option<String>,
    /// The value `migrate` writes on existing items that lack it, as key templates see it.
    pub default: Option<String>,
    /// Span of the attribute definition.
    pub span: Range<usize>,
    /// Span of the `type` value.
    pub type_span: Range<usize>,
}

impl Attribute {
    /// True for `number`/`float`.
    pub fn is_float(&self) -> bool {
        matches!(self.ty, AttributeType::Number | AttributeType::Float)
    }

    /// The format a timestamp attribute is written in: its own, else the default
    /// (`rfc3339-utc-millis`).
    pub fn timestamp_format(&self) -> TimestampFormat {
        self.format.unwrap_or_default()
    }

    /// The model type as a message names it: `integer`, `timestamp (epoch-seconds)`.
    pub fn type_label(&self) -> String {
        match self.ty {
            AttributeType::Timestamp => format!("timestamp ({})", self.timestamp_format().name()),
            ty => ty.name().to_string(),
        }
    }
}

/// One key attribute an entity writes, with its template.
#[derive(Debug, Clone)]
pub struct KeyField {
    /// Key attribute name (`PK`, `GSI1SK`, ...).
    pub attribute: String,
    /// The template.
    pub template: KeyTemplate,
    /// Boolean attribute gating the write (sparse index), if any.
    pub condition: Option<String>,
    /// Span of the template string.
    pub span: Range<usize>,
}

impl KeyField {
    /// What rendering this key needs: the template's variables, then the condition's boolean
    /// (it decides whether the key is written at all), each once.
    pub fn inputs(&self) -> Vec<&str> {
        let mut inputs: Vec<&str> = Vec::new();
        for name in self.template.variables().chain(self.condition.as_deref()) {
            if !inputs.contains(&name) {
                inputs.push(name);
            }
        }
        inputs
    }
}

/// The key templates of an entity for one index (or the table).
#[derive(Debug, Clone)]
pub struct KeyTemplates {
    /// `None` for the table.
    pub index: Option<String>,
    /// Partition key.
    pub pk: KeyField,
    /// Sort key, when the index has one.
    pub sk: Option<KeyField>,
}

impl KeyTemplates {
    /// True when the item is only in this index while a condition holds.
    pub fn is_conditional(&self) -> bool {
        self.pk.condition.is_some() || self.sk.as_ref().is_some_and(|k| k.condition.is_some())
    }
}

/// A uniqueness constraint.
#[derive(Debug, Clone)]
pub struct Unique {
    /// Attributes whose combination is unique.
    pub attributes: Vec<String>,
    /// Guard entity.
    pub guard: Option<String>,
    /// Span of the constraint.
    pub span: Range<usize>,
}

/// A relation to another entity sharing an item collection.
#[derive(Debug, Clone)]
pub struct Relation {
    /// Related entity.
    pub entity: String,
    /// One or many.
    pub kind: RelationKind,
    /// Bound for many.
    pub max: Option<u64>,
    /// Index whose collection is shared (`None` = table).
    pub index: Option<String>,
    /// Span.
    pub span: Range<usize>,
}

/// An entity type as the model declares it (`[entities.NAME]`); not the trait a typed struct
/// implements (that is the access layer's `Entity`).
#[derive(Debug, Clone)]
pub struct EntityDecl {
    /// Name.
    pub name: String,
    /// Attributes, sorted by name.
    pub attributes: Vec<Attribute>,
    /// Every key attribute written, sorted by attribute name.
    pub keys: Vec<KeyField>,
    /// Key templates per index the entity appears in (table first).
    pub index_keys: Vec<KeyTemplates>,
    /// Uniqueness constraints.
    pub unique: Vec<Unique>,
    /// Relations.
    pub relations: Vec<Relation>,
    /// The primary-key namespace this entity shares on purpose with others, if any.
    pub key_namespace: Option<String>,
    /// The entity's previous name, for `migrate`.
    pub renamed_from: Option<Named>,
    /// Span of the entity definition.
    pub span: Range<usize>,
}

impl EntityDecl {
    /// The attribute called `name`.
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// The template written to key attribute `attribute`.
    pub fn key_field(&self, attribute: &str) -> Option<&KeyField> {
        self.keys.iter().find(|k| k.attribute == attribute)
    }

    /// The variables of the table's key templates: the attributes that make up the item's
    /// identity, known to any call that addresses the item by its key, and never changed by an
    /// update.
    pub fn primary_key_inputs(&self) -> Vec<&str> {
        let Some(keys) = self.key(None) else {
            return Vec::new();
        };
        let mut inputs: Vec<&str> = keys.pk.template.variables().collect();
        if let Some(sk) = &keys.sk {
            inputs.extend(sk.template.variables());
        }
        inputs.sort_unstable();
        inputs.dedup();
        inputs
    }

    /// Key templates for the table (`None`) or an index the entity appears in.
    pub fn key(&self, index: Option<&str>) -> Option<&KeyTemplates> {
        self.index_keys.iter().find(|k| k.index.as_deref() == index)
    }

    /// Renders every key attribute of an item from its attribute values.
    ///
    /// Key attributes gated by a condition are only rendered when
    /// `values(condition) == Some("true")`. Returns `(attribute, value)` pairs.
    pub fn render_keys(
        &self,
        values: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Vec<(String, String)>, RenderError> {
        let mut out = Vec::new();
        for key in &self.keys {
            if let Some(cond) = &key.condition
                && values(cond).as_deref() != Some("true")
            {
                continue;
            }
            out.push((key.attribute.clone(), key.template.render(values)?));
        }
        Ok(out)
    }

    /// Renders the primary key (`PK`, and `SK` when the table has one).
    pub fn render_primary_key(
        &self,
        values: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Vec<(String, String)>, RenderError> {
        let keys = self.key(None).ok_or_else(|| RenderError::NoSuchKey {
            entity: self.name.clone(),
            index: "table".to_string(),
        })?;
        let mut out = vec![(keys.pk.attribute.clone(), keys.pk.template.render(values)?)];
        if let Some(sk) = &keys.sk {
            out.push((sk.attribute.clone(), sk.template.render(values)?));
        }
        Ok(out)
    }
}

/// The test a pattern puts on one key attribute (`= T`, `begins_with(T)`, ...), over key
/// templates; not a write's condition expression (the access layer's `Condition`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyTest {
    /// `= T`.
    Eq(KeyTemplate),
    /// `begins_with(T)`.
    BeginsWith(KeyTemplate),
    /// `between(A, B)`, inclusive on both ends.
    Between(KeyTemplate, KeyTemplate),
    /// `< T`.
    Lt(KeyTemplate),
    /// `<= T`.
    Le(KeyTemplate),
    /// `> T`.
    Gt(KeyTemplate),
    /// `>= T`.
    Ge(KeyTemplate),
}

impl KeyTest {
    /// Every template in the condition.
    pub fn templates(&self) -> Vec<&KeyTemplate> {
        match self {
            KeyTest::Between(a, b) => vec![a, b],
            KeyTest::Eq(t)
            | KeyTest::BeginsWith(t)
            | KeyTest::Lt(t)
            | KeyTest::Le(t)
            | KeyTest::Gt(t)
            | KeyTest::Ge(t) => vec![t],
        }
    }
}

/// One clause of a pattern's key condition: a key attribute and the [`KeyTest`] it passes; not a
/// Query's built key condition (the access layer's `KeyCondition`).
#[derive(Debug, Clone)]
pub struct KeyClause {
    /// Key attribute.
    pub attribute: String,
    /// The test on the attribute.
    pub condition: KeyTest,
    /// Span of the condition string.
    pub span: Range<usize>,
}

/// One entity written by a transaction.
#[derive(Debug, Clone)]
pub struct Write {
    /// Entity written (the named pattern's, when one is named).
    pub entity: String,
    /// The write patterns the entry runs: one (`pattern`), or alternatives (`one_of`) that run
    /// up to `count` times in all; empty in the older entity-only form.
    pub patterns: Vec<String>,
    /// Maximum actions for it; `None` = unbounded.
    pub count: Option<u64>,
    /// Span.
    pub span: Range<usize>,
}

/// A name with its span.
#[derive(Debug, Clone)]
pub struct Named {
    /// The name.
    pub name: String,
    /// Span.
    pub span: Range<usize>,
}

/// An access pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Operation.
    pub operation: Operation,
    /// Span of the operation value.
    pub operation_span: Range<usize>,
    /// Index (`None` = table).
    pub index: Option<Named>,
    /// Partition key equality, when resolvable (on a native index: the first partition
    /// attribute's; every one is in [`Pattern::key`]).
    pub pk: Option<KeyClause>,
    /// Sort key condition (on a native index: the last sort attribute given).
    pub sk: Option<KeyClause>,
    /// Every key condition, in the order of the key schema: partition attributes, then sort
    /// attributes.
    pub key: Vec<KeyClause>,
    /// Entities returned (or written).
    pub returns: Vec<Named>,
    /// Parameters.
    pub params: Vec<Attribute>,
    /// Filter attributes.
    pub filter: Vec<Named>,
    /// Attributes read; `None` = everything.
    pub reads: Option<Vec<Named>>,
    /// Pages with `LastEvaluatedKey`.
    pub paginate: bool,
    /// `Limit`.
    pub limit: Option<u64>,
    /// Expected to return at most one item.
    pub unique: bool,
    /// Strongly consistent.
    pub consistent_read: bool,
    /// Descending order.
    pub descending: bool,
    /// Transaction writes.
    pub writes: Vec<Write>,
    /// What an `UpdateItem` declares it changes; `None` when it declares nothing.
    pub sets: Option<Sets>,
    /// A write's condition on the stored item.
    pub condition: Option<crate::WriteCondition>,
    /// Span of the pattern definition.
    pub span: Range<usize>,
}

/// The attributes an `UpdateItem` pattern changes (`sets = [...]`): attributes of its one
/// returned entity, none of them an input of its primary key or a key attribute.
#[derive(Debug, Clone)]
pub struct Sets {
    /// The attributes, as listed, each once.
    pub attributes: Vec<Named>,
    /// Span of the whole list.
    pub span: Range<usize>,
}

impl Sets {
    /// Whether the update changes `attribute`.
    pub fn contains(&self, attribute: &str) -> bool {
        self.attributes.iter().any(|a| a.name == attribute)
    }
}

impl Pattern {
    /// Name of the index, `None` for the table.
    pub fn index_name(&self) -> Option<&str> {
        self.index.as_ref().map(|i| i.name.as_str())
    }

    /// The parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&Attribute> {
        self.params.iter().find(|a| a.name == name)
    }

    /// What the variable `name` of this pattern's templates is: a parameter, else an attribute of
    /// an entity it returns or writes (in `model`).
    pub fn variable<'m>(&'m self, model: &'m Model, name: &str) -> Option<&'m Attribute> {
        self.param(name).or_else(|| {
            self.returns
                .iter()
                .map(|r| r.name.as_str())
                .chain(self.writes.iter().map(|w| w.entity.as_str()))
                .filter_map(|e| model.entity(e))
                .find_map(|e| e.attribute(name))
        })
    }

    /// Every key condition: [`Pattern::key`], or the partition and sort ones when it is empty.
    pub fn key_conditions(&self) -> Vec<&KeyClause> {
        if self.key.is_empty() {
            self.pk.iter().chain(self.sk.iter()).collect()
        } else {
            self.key.iter().collect()
        }
    }

    /// The variables of the key conditions' templates, in key-schema order, each once: what a
    /// caller supplies to run the pattern.
    pub fn key_variables(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for c in self.key_conditions() {
            for t in c.condition.templates() {
                for v in t.variables() {
                    if !names.contains(&v) {
                        names.push(v);
                    }
                }
            }
        }
        names
    }

    /// True for operations that write (or, for a ConditionCheck, take part in a write).
    pub fn is_write(&self) -> bool {
        !self.is_read()
    }

    /// True for operations that read.
    pub fn is_read(&self) -> bool {
        matches!(
            self.operation,
            Operation::GetItem | Operation::Query | Operation::BatchGet | Operation::Scan
        )
    }

    /// Span of the key (partition key condition, else the pattern).
    pub fn key_span(&self) -> Range<usize> {
        self.pk
            .as_ref()
            .map_or_else(|| self.span.clone(), |k| k.span.clone())
    }
}

/// Traffic figures.
#[derive(Debug, Clone, Default)]
pub struct Traffic {
    /// The file has a `[traffic]` section.
    pub declared: bool,
    /// Default writes/s per entity.
    pub default_writes_per_second: f64,
    /// The default write rate was stated in the file.
    pub default_writes_stated: bool,
    /// Default item size.
    pub default_item_size_bytes: u64,
    /// The headroom a sharded key is sized with: `shard_headroom`, or [`DEFAULT_SHARD_HEADROOM`].
    pub shard_headroom: f64,
    /// Per-entity figures.
    pub entities: BTreeMap<String, EntityTraffic>,
    /// Per-pattern figures.
    pub patterns: BTreeMap<String, PatternTraffic>,
    /// Per-consumer figures (`[traffic.consumers.NAME]`).
    pub consumers: BTreeMap<String, ConsumerTraffic>,
}

/// Built-in write rate per entity when the model states none: twice what one partition takes.
pub const DEFAULT_WRITES_PER_SECOND: f64 = 2000.0;
/// The largest rate a model may state, per second: more than any one table serves.
pub const MAX_RATE_PER_SECOND: f64 = 1e9;
/// Headroom a sharded key's shard count is sized with when `shard_headroom` is not stated:
/// room for twice the declared peak.
pub const DEFAULT_SHARD_HEADROOM: f64 = 2.0;
/// The largest `shard_headroom`: a hundred times the declared peak.
pub const MAX_SHARD_HEADROOM: f64 = 100.0;
/// Built-in item size when the model states none.
pub const DEFAULT_ITEM_SIZE_BYTES: u64 = 1024;
/// DynamoDB's largest item, 400 KB: the most an item size, a string's `max_length` or a
/// collection's `max_items` may state.
pub const MAX_ITEM_SIZE_BYTES: u64 = 409_600;
/// The largest `cardinality` or relation `max` a model may state.
pub const MAX_COUNT: u64 = 1_000_000_000;
/// The most items of one entity a model may say the table stores (`items`): every count
/// below it is exact as a float.
pub const MAX_STORED_ITEMS: u64 = 1_000_000_000_000_000;
/// The most items one request may return (`items_per_read`): a Query or Scan reads at most
/// 1 MB per call, and an item holds at least one byte.
pub const MAX_ITEMS_PER_READ: u64 = 1_048_576;
/// The largest `limit`: DynamoDB's `Limit` is a 32-bit integer.
pub const MAX_LIMIT: u64 = 2_147_483_647;
/// The most actions of one `TransactWriteItems` call: the largest transaction `count`.
pub const MAX_TRANSACTION_ACTIONS: u64 = 100;

impl Traffic {
    /// Writes/s of an entity and whether the figure was stated (entity or default) in the file.
    pub fn writes_per_second(&self, entity: &str) -> (f64, bool) {
        match self.entities.get(entity).and_then(|t| t.writes_per_second) {
            Some(w) => (w, true),
            None => (self.default_writes_per_second, self.default_writes_stated),
        }
    }

    /// Item size estimate of an entity.
    pub fn item_size_bytes(&self, entity: &str) -> u64 {
        self.entities
            .get(entity)
            .and_then(|t| t.item_size_bytes)
            .unwrap_or(self.default_item_size_bytes)
    }
}

/// Traffic of one entity.
#[derive(Debug, Clone, Default)]
pub struct EntityTraffic {
    /// Writes/s.
    pub writes_per_second: Option<f64>,
    /// Item size.
    pub item_size_bytes: Option<u64>,
    /// Items stored.
    pub items: Option<u64>,
    /// Span.
    pub span: Range<usize>,
}

/// Traffic of one pattern.
#[derive(Debug, Clone, Default)]
pub struct PatternTraffic {
    /// Requests/s of a read pattern.
    pub reads_per_second: Option<f64>,
    /// Calls/s of a write pattern.
    pub writes_per_second: Option<f64>,
    /// Items per request.
    pub items_per_read: Option<u64>,
    /// Span.
    pub span: Range<usize>,
}
