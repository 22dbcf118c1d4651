//! `--format markdown`: the design document: diagram, table, indexes, entity chart, access patterns, checks.
//!
//! The Mermaid diagram itself is rendered in `mermaid.rs`.
//!
//! Pure rendering of the model. Read/write capacity per pattern comes from a caller-supplied hook
//! (the cost engine lives in the check crate) and the check results are passed in preformatted.

use monotable_model::{
    BillingMode, Index, IndexKind, KeyAttribute, KeyClause, KeyTemplate, KeyTest, Model, Pattern,
    ProjectionType,
};

use monotable_model::definition::{scalar_type, table_definition};

/// Capacity cells of one access pattern, formatted by the caller (e.g. `"2 RCU"`, `"0.5"`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Capacity {
    /// Read capacity column.
    pub read: String,
    /// Write capacity column.
    pub write: String,
}

/// Capacity of an access pattern, supplied by the caller (the cost engine); `None` leaves the
/// pattern's capacity cells empty.
pub type CapacityHook<'a> = &'a dyn Fn(&Pattern) -> Option<Capacity>;

/// Inputs of the Markdown export that are not in the model.
#[derive(Clone, Copy, Default)]
#[non_exhaustive]
pub struct MarkdownOptions<'a> {
    /// `monotable check` output, shown verbatim in a `## Checks` section; `None` omits it.
    pub check_results: Option<&'a str>,
    /// Capacity per pattern; when set, the access-pattern table gets `RCU` and `WCU` columns
    /// (empty where the hook returns `None`).
    pub capacity: Option<CapacityHook<'a>>,
}

impl std::fmt::Debug for MarkdownOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MarkdownOptions")
            .field("check_results", &self.check_results)
            .field("capacity", &self.capacity.map(|_| "<hook>"))
            .finish()
    }
}

/// Text safe inside a table cell: no line breaks, pipes escaped.
fn cell(text: &str) -> String {
    let flat: Vec<&str> = text.split_whitespace().collect();
    flat.join(" ").replace('|', "\\|")
}

/// An inline code span safe inside a table cell.
fn code(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    let text = text.replace(['\n', '\r'], " ").replace('|', "\\|");
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// A fenced code block around preformatted text.
fn fenced(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    let body = text.trim_end_matches(['\n', '\r']);
    format!("{fence}text\n{body}\n{fence}\n")
}

fn row(cells: &[String]) -> String {
    format!("| {} |\n", cells.join(" | "))
}

fn header(names: &[&str]) -> String {
    let mut out = row(&names.iter().map(|n| n.to_string()).collect::<Vec<_>>());
    out.push_str(&row(&vec!["---".to_string(); names.len()]));
    out
}

/// One key condition, DynamoDB style: `PK = USER#{userId}`, `begins_with(SK, ORDER#)`.
pub(crate) fn condition_text(key: &KeyClause) -> String {
    let a = &key.attribute;
    let t = |t: &KeyTemplate| t.to_string();
    match &key.condition {
        KeyTest::Eq(v) => format!("{a} = {}", t(v)),
        KeyTest::BeginsWith(v) => format!("begins_with({a}, {})", t(v)),
        KeyTest::Between(lo, hi) => format!("{a} BETWEEN {} AND {}", t(lo), t(hi)),
        KeyTest::Lt(v) => format!("{a} < {}", t(v)),
        KeyTest::Le(v) => format!("{a} <= {}", t(v)),
        KeyTest::Gt(v) => format!("{a} > {}", t(v)),
        KeyTest::Ge(v) => format!("{a} >= {}", t(v)),
    }
}

/// The whole key condition of a pattern (`PK = ... AND begins_with(SK, ...)`), if it has one:
/// every condition in key-schema order, so a native key shows each of its attributes
/// (`status = {status} AND shard = {shard} AND createdAt BETWEEN {from} AND {to}`).
pub fn key_condition_text(pattern: &Pattern) -> Option<String> {
    let parts: Vec<String> = if pattern.key.is_empty() {
        pattern
            .pk
            .iter()
            .chain(pattern.sk.iter())
            .map(condition_text)
            .collect()
    } else {
        pattern.key.iter().map(condition_text).collect()
    };
    (!parts.is_empty()).then(|| parts.join(" AND "))
}

fn pattern_notes(pattern: &Pattern) -> String {
    let mut notes: Vec<String> = Vec::new();
    if pattern.unique {
        notes.push("at most one item".to_string());
    }
    if pattern.consistent_read {
        notes.push("strongly consistent".to_string());
    }
    if pattern.descending {
        notes.push("descending".to_string());
    }
    if let Some(limit) = pattern.limit {
        notes.push(format!("limit {limit}"));
    }
    if pattern.paginate {
        notes.push("paginated".to_string());
    }
    if !pattern.filter.is_empty() {
        let names: Vec<String> = pattern.filter.iter().map(|f| code(&f.name)).collect();
        notes.push(format!("filter on {}", names.join(", ")));
    }
    if let Some(reads) = &pattern.reads {
        let names: Vec<String> = reads.iter().map(|r| code(&r.name)).collect();
        notes.push(format!("reads {}", names.join(", ")));
    }
    if let Some(condition) = &pattern.condition {
        notes.push(format!("condition {}", code(&condition.text)));
    }
    if let Some(sets) = &pattern.sets {
        let names: Vec<String> = sets.attributes.iter().map(|a| code(&a.name)).collect();
        notes.push(format!("sets {}", names.join(", ")));
    }
    notes.join("; ")
}

fn returns_text(pattern: &Pattern) -> String {
    if !pattern.writes.is_empty() {
        let writes: Vec<String> = pattern
            .writes
            .iter()
            .map(|w| {
                // An action names its write patterns and the entity they write.
                let what = match w.patterns.as_slice() {
                    [] => cell(&w.entity),
                    names => {
                        let names: Vec<String> = names.iter().map(|n| cell(n)).collect();
                        format!("{} ({})", names.join(" or "), cell(&w.entity))
                    }
                };
                match w.count {
                    Some(1) => what,
                    Some(n) => format!("{what} ×{n}"),
                    None => format!("{what} ×many"),
                }
            })
            .collect();
        return format!("writes {}", writes.join(", "));
    }
    let names: Vec<String> = pattern.returns.iter().map(|r| cell(&r.name)).collect();
    names.join(", ")
}

fn key_cell(model: &Model, name: &str) -> String {
    let ty = table_definition(model)
        .attribute_definitions
        .iter()
        .find(|a| a.name == name)
        .map(|a| scalar_type(a.ty));
    match ty {
        Some(ty) => format!("{} ({ty})", code(name)),
        None => code(name),
    }
}

/// Every attribute of a key side, in order: `` `status` (S), `shard` (N) ``.
fn key_cells(model: &Model, keys: &[KeyAttribute]) -> String {
    let cells: Vec<String> = keys.iter().map(|k| key_cell(model, &k.name)).collect();
    cells.join(", ")
}

/// `yes` for a declared sparse index; for a native one, whether some member entity's items can
/// lack a key attribute (and so be left out).
fn sparse_cell(model: &Model, index: &Index) -> String {
    let by_absence = index.native
        && model
            .entities
            .iter()
            .any(|e| index.native_member(e) && !index.native_always(e));
    match (index.sparse, by_absence) {
        (true, _) => "yes".to_string(),
        (false, true) => "yes, by absent attributes".to_string(),
        (false, false) => "no".to_string(),
    }
}

fn diagram_section(model: &Model, out: &mut String) {
    let Some(diagram) = crate::mermaid::diagram(model) else {
        return;
    };
    out.push_str("## Diagram\n\n");
    out.push_str(
        "Entities (boxes) with an edge to the table and each index (cylinders) they write keys \
         for, labelled with the templates; a dotted edge is written only while a flag is true \
         (or, for a native index, only by items holding its optional key attributes). \
         Thick edges are relations.\n\n",
    );
    out.push_str(&diagram);
    out.push('\n');
}

fn table_section(model: &Model, out: &mut String) {
    let table = &model.table;
    out.push_str("## Table\n\n");
    out.push_str(&header(&[
        "Table",
        "Partition key",
        "Sort key",
        "Billing mode",
        "TTL attribute",
    ]));
    let billing = match table.billing_mode {
        BillingMode::PayPerRequest => "PAY_PER_REQUEST",
        BillingMode::Provisioned => "PROVISIONED",
    };
    out.push_str(&row(&[
        cell(&table.name),
        key_cell(model, &table.partition_key.name),
        table
            .sort_key
            .as_ref()
            .map_or_else(String::new, |k| key_cell(model, &k.name)),
        billing.to_string(),
        table
            .ttl_attribute
            .as_deref()
            .map_or_else(String::new, code),
    ]));
    out.push('\n');

    out.push_str("## Indexes\n\n");
    if model.indexes.is_empty() {
        out.push_str("No secondary indexes.\n\n");
        return;
    }
    out.push_str(&header(&[
        "Index",
        "Kind",
        "Partition key",
        "Sort key",
        "Projection",
        "Sparse",
    ]));
    for index in &model.indexes {
        let projection = match index.projection {
            ProjectionType::All => "ALL".to_string(),
            ProjectionType::KeysOnly => "KEYS_ONLY".to_string(),
            ProjectionType::Include => {
                let names: Vec<String> = index.include.iter().map(|n| code(n)).collect();
                format!("INCLUDE {}", names.join(", "))
            }
        };
        out.push_str(&row(&[
            cell(&index.name),
            match (index.kind, index.native) {
                (IndexKind::Global, false) => "global".to_string(),
                (IndexKind::Global, true) => "global, native".to_string(),
                (IndexKind::Local, _) => "local".to_string(),
            },
            key_cells(model, &index.partition_keys),
            key_cells(model, &index.sort_keys),
            projection,
            sparse_cell(model, index),
        ]));
    }
    out.push('\n');
}

fn entity_section(model: &Model, out: &mut String) {
    out.push_str("## Entity chart\n\n");
    if model.entities.is_empty() {
        out.push_str("No entities.\n\n");
        return;
    }
    out.push_str(
        "The key attributes each entity writes and their templates. \
         \"if `flag`\" marks a key written only while that boolean attribute is true \
         (the item is in that index only then).\n\n",
    );
    // Native key attributes are written without templates: they have their own section.
    let mut columns: Vec<String> = table_definition(model)
        .attribute_definitions
        .into_iter()
        .map(|a| a.name)
        .filter(|name| !native_only(model, name))
        .collect();
    for entity in &model.entities {
        for key in &entity.keys {
            if !columns.contains(&key.attribute) {
                columns.push(key.attribute.clone());
            }
        }
    }
    let mut names = vec!["Entity".to_string()];
    names.extend(columns.iter().map(|c| code(c)));
    out.push_str(&row(&names));
    out.push_str(&row(&vec!["---".to_string(); names.len()]));
    for entity in &model.entities {
        let mut cells = vec![cell(&entity.name)];
        for column in &columns {
            cells.push(match entity.key_field(column) {
                None => String::new(),
                Some(field) => {
                    let template = code(&field.template.to_string());
                    match &field.condition {
                        Some(flag) => format!("{template} if {}", code(flag)),
                        None => template,
                    }
                }
            });
        }
        out.push_str(&row(&cells));
    }
    out.push('\n');
}

/// Whether `name` is a key attribute of native indexes only (no template writes it).
fn native_only(model: &Model, name: &str) -> bool {
    let native = model
        .indexes
        .iter()
        .any(|i| i.native && i.key_attributes().any(|k| k.name == name));
    native && model.entities.iter().all(|e| e.key_field(name).is_none())
}

/// What puts an entity's items in a native index: every item, or those holding the optional key
/// attributes; empty when the entity lacks one of them.
fn membership_cell(index: &Index, entity: &monotable_model::EntityDecl) -> String {
    if index.native_always(entity) {
        return "every item".to_string();
    }
    if !index.native_member(entity) {
        return String::new();
    }
    let optional: Vec<String> = index
        .key_attributes()
        .filter(|k| entity.attribute(&k.name).is_some_and(|a| !a.required))
        .map(|k| code(&k.name))
        .collect();
    format!("items holding {}", optional.join(", "))
}

fn native_section(model: &Model, out: &mut String) {
    let native: Vec<&Index> = model.indexes.iter().filter(|i| i.native).collect();
    if native.is_empty() {
        return;
    }
    out.push_str(
        "## Native index membership

",
    );
    out.push_str(
        "Native indexes are keyed on the items' own attributes, written as they are (no template): \
         an item is in the index while it holds every key attribute listed.\n\n",
    );
    let mut names = vec!["Entity".to_string()];
    for index in &native {
        let keys: Vec<String> = index.key_attributes().map(|k| code(&k.name)).collect();
        names.push(format!("{} ({})", cell(&index.name), keys.join(", ")));
    }
    out.push_str(&row(&names));
    out.push_str(&row(&vec!["---".to_string(); names.len()]));
    for entity in &model.entities {
        let mut cells = vec![cell(&entity.name)];
        cells.extend(native.iter().map(|i| membership_cell(i, entity)));
        if cells[1..].iter().any(|c| !c.is_empty()) {
            out.push_str(&row(&cells));
        }
    }
    out.push('\n');
}

fn pattern_section(model: &Model, options: &MarkdownOptions<'_>, out: &mut String) {
    out.push_str("## Access patterns\n\n");
    if model.patterns.is_empty() {
        out.push_str("No access patterns.\n\n");
        return;
    }
    let mut names = vec![
        "Pattern",
        "Operation",
        "Index",
        "Key condition",
        "Returns",
        "Notes",
    ];
    if options.capacity.is_some() {
        names.extend(["RCU", "WCU"]);
    }
    names.push("Description");
    out.push_str(&header(&names));
    for pattern in &model.patterns {
        let mut cells = vec![
            cell(&pattern.name),
            format!("{:?}", pattern.operation),
            pattern
                .index_name()
                .map_or_else(|| "table".to_string(), cell),
            key_condition_text(pattern).map_or_else(String::new, |k| code(&k)),
            returns_text(pattern),
            pattern_notes(pattern),
        ];
        if let Some(hook) = options.capacity {
            let capacity = hook(pattern).unwrap_or_default();
            cells.push(cell(&capacity.read));
            cells.push(cell(&capacity.write));
        }
        cells.push(
            pattern
                .description
                .as_deref()
                .map_or_else(String::new, cell),
        );
        out.push_str(&row(&cells));
    }
    out.push('\n');
}

/// `## Streams`: the table's stream view and one row per consumer; nothing without a stream.
fn streams_section(model: &Model, out: &mut String) {
    let Some(view) = model.table.stream else {
        return;
    };
    out.push_str(
        "## Streams

",
    );
    out.push_str(&format!("Stream view: {}.\n\n", code(view.as_str())));
    if model.consumers.is_empty() {
        out.push_str("No consumers.\n\n");
        return;
    }
    out.push_str(&header(&[
        "Consumer",
        "Entities",
        "Events",
        "Filter",
        "Delivery",
        "Writes",
        "Reads",
        "Description",
    ]));
    for c in &model.consumers {
        let events: Vec<&str> = c.events.iter().map(|e| e.as_str()).collect();
        let filter: Vec<String> = c
            .filter
            .iter()
            .map(|(attribute, values)| {
                let values: Vec<String> = values.iter().map(ToString::to_string).collect();
                format!("{attribute} in [{}]", values.join(", "))
            })
            .collect();
        let retries = match c.retries {
            -1 => "retries until the record expires".to_string(),
            n => format!("{n} retries"),
        };
        let mut delivery = format!(
            "batch {}, {retries}{}, from {}",
            c.batch_size,
            if c.bisect_on_error {
                ", bisect on error"
            } else {
                ""
            },
            c.starting_position.as_str()
        );
        delivery.push_str(match c.on_failure {
            Some(monotable_model::FailureDestination::Queue) => "; failed batches to an SQS queue",
            Some(monotable_model::FailureDestination::Topic) => "; failed batches to an SNS topic",
            None => "; failed batches dropped",
        });
        let list = |names: &[String]| names.iter().map(|n| code(n)).collect::<Vec<_>>().join(", ");
        out.push_str(&row(&[
            code(&c.name),
            list(&c.entities),
            events.join(", "),
            filter
                .iter()
                .map(|f| code(f))
                .collect::<Vec<_>>()
                .join(", "),
            cell(&delivery),
            list(&c.writes),
            list(&c.reads),
            cell(c.description.as_deref().unwrap_or("")),
        ]));
    }
    out.push('\n');
}

/// The design document with check results (or none); see [`markdown_with`].
pub fn markdown(model: &Model, check_results: Option<&str>) -> String {
    markdown_with(
        model,
        &MarkdownOptions {
            check_results,
            capacity: None,
        },
    )
}

/// The design document (GitHub-flavoured Markdown, trailing newline): a Mermaid diagram of the
/// entities, their relations and the indexes they write keys for, the table, the indexes, the
/// entity chart (entity × key attribute → template), for native indexes which entities' items
/// they hold (by the attributes the items have), the access-pattern table (pattern,
/// operation, index, key condition, returns, notes, optional RCU/WCU, description), the
/// stream and its consumers when the table has one, and, when given, the check results. Hidden characters of free text (descriptions) are escaped
/// ([`monotable_model::text::escape`]).
pub fn markdown_with(model: &Model, options: &MarkdownOptions<'_>) -> String {
    let mut out = format!(
        "# {}: single-table design\n\n\
         Generated by `monotable export --format markdown` from the model; edit the model, not this file.\n\n",
        cell(&model.table.name)
    );
    diagram_section(model, &mut out);
    table_section(model, &mut out);
    entity_section(model, &mut out);
    native_section(model, &mut out);
    pattern_section(model, options, &mut out);
    streams_section(model, &mut out);
    if let Some(results) = options.check_results {
        out.push_str("## Checks\n\n");
        out.push_str(&fenced(results));
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    monotable_model::text::escape(&out).into_owned()
}
