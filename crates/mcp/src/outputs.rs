//! The tools' output types: each command's `--format json` document with its top-level fields
//! typed (their JSON Schema is the tool's output schema) and its nested parts as JSON, read back
//! from the document the library renders. The tests hold each equal to the command's output.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::McpError;

/// `value` read as the tool's output type.
pub fn typed<T: DeserializeOwned>(tool: &'static str, value: Value) -> Result<T, McpError> {
    serde_json::from_value(value).map_err(|e| McpError::Failed {
        tool,
        reason: format!("its document does not have the documented shape: {e}"),
    })
}

/// `monotable check --format json`'s document.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CheckOutput {
    /// The model's name: `path` as given, or `<model>` for text.
    pub file: String,
    /// One per finding: `code`, `rule`, `severity`, `message`, `file`, and its place (`line`,
    /// `column`, `end_line`, `end_column`, `span`, `label`) with `notes`, `help` and `fix` where
    /// the rule has them.
    pub diagnostics: Vec<Value>,
    /// How many findings of each severity.
    pub summary: CheckSummary,
}

/// Findings per severity.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CheckSummary {
    pub errors: u64,
    pub warnings: u64,
    pub infos: u64,
}

/// `monotable cost --format json`'s document, of the shape its options give (docs/cost.md).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
// An object in each shape: the output schema's root must say so.
#[schemars(extend("type" = "object"))]
pub enum CostAnswer {
    /// The estimate (neither `compare_*` nor `cross_check`).
    Estimate(CostOutput),
    /// `--compare`: the two designs side by side.
    Compared(CostComparison),
    /// `--cross-check`: the estimate and the cross-check.
    CrossChecked(CostCrossChecked),
}

/// `monotable cost --compare NEW --format json`'s document.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CostComparison {
    /// The old design's name: `path` as given, or `<model>` for text.
    pub old_name: String,
    /// The new design's name: `compare_path` as given, or `<model>` for text.
    pub new_name: String,
    /// Per entity, in name order: bytes stored and write units per item in each design.
    pub entities: Vec<Value>,
    /// The old design's single table priced per month (`null` without traffic).
    pub old: Value,
    /// The new design's (`null` without traffic).
    pub new: Value,
}

/// `monotable cost --cross-check --format json`'s document.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CostCrossChecked {
    /// The estimate, as without `cross_check`.
    pub cost: CostOutput,
    /// The engine's ConsumedCapacity against the sizing rules: `agrees`, `summary`, `table`,
    /// `seed`, `items`, `checks`, `emulator`, `notes`.
    #[serde(rename = "crossCheck")]
    pub cross_check: Value,
}

/// `monotable cost --format json`'s estimate (docs/cost.md).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct CostOutput {
    /// The table's name.
    pub table: String,
    /// The model has a `[traffic]` section: the per-second and monthly figures are filled.
    pub traffic: bool,
    /// The prices used (money as decimal strings).
    pub prices: Value,
    /// Per pattern, in model order: `name`, `operation`, `rcu` and `wcu` per call (table,
    /// indexes, total), per second with traffic, and notes.
    pub patterns: Vec<Value>,
    /// Per entity with a stated write rate.
    pub entity_writes: Vec<Value>,
    /// The table (first) and each index: units per second and write amplification.
    pub indexes: Vec<Value>,
    /// Each stream consumer: its records per second, its reads and writes at that rate, and
    /// their month on demand; empty without traffic.
    pub consumers: Vec<Value>,
    /// Single table, then one table per entity, priced per month; empty without traffic.
    pub designs: Vec<Value>,
    /// Model-wide assumptions.
    pub notes: Vec<String>,
}

/// `monotable diff OLD NEW --format json`'s document (docs/migrate.md).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct DiffOutput {
    /// The old model's name.
    pub old: String,
    /// The new model's name.
    pub new: String,
    /// A change cannot be done in place.
    pub blocked: bool,
    /// How many of `new_findings` are errors.
    pub new_errors: u64,
    /// Each change with its `kind`, its `effect` on a live table (online, backfill, move,
    /// removal, blocked) and its fields.
    pub changes: Vec<Value>,
    /// The cost of each step.
    pub costs: Vec<Value>,
    /// What `check` finds on NEW that it did not on OLD, as `check`'s diagnostics.
    pub new_findings: Vec<Value>,
}

/// `monotable verify --format json`'s document (docs/verify.md).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct VerifyOutput {
    /// Every pattern passed.
    pub passed: bool,
    /// Patterns passed, failed and skipped.
    pub summary: VerifySummary,
    /// The table's name.
    pub table: String,
    /// The seed of the generated data.
    pub seed: u64,
    /// Where the items come from (`generated`).
    pub source: Value,
    /// How many items were loaded.
    pub items: u64,
    /// Items per entity.
    pub entities: Vec<EntityItems>,
    /// Per pattern: `name`, `operation`, `passed`, `skipped`, `request`, `expected` and `got`
    /// items, `checks` of a write pattern, `message`.
    pub patterns: Vec<Value>,
    /// What could not be generated or run, and why.
    pub warnings: Vec<String>,
}

/// Patterns per verdict.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct VerifySummary {
    pub passed: u64,
    pub failed: u64,
    pub skipped: u64,
}

/// One entity's item count.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct EntityItems {
    pub entity: String,
    pub items: u64,
}

/// An export's text.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ExportOutput {
    /// The format made.
    pub format: String,
    /// The text `monotable export --format FORMAT` prints.
    pub text: String,
}
