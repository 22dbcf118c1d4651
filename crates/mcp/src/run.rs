//! Each tool's work, through the same library calls as the `monotable` command of its name, so
//! an answer here is the command's `--format json` document: `check`, `cost`, `export`, `diff`
//! and `verify`. Synchronous (verify builds its own runtime): the server runs each on a
//! blocking thread under its timeout.

use monotable_check::cost::{self, PriceTable};
use monotable_check::{Report, ReportFormat};
use monotable_migrate::diff::{self, Files, ItemCounts};
use monotable_model::Model;
use monotable_model::diagnostic::model_errors;
use serde_json::Value;

use crate::error::McpError;
use crate::input::Loaded;

/// The formats `export` makes (`monotable export --format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ExportFormat {
    /// CreateTable input for `aws dynamodb create-table --cli-input-json`.
    CreateTable,
    /// A CloudFormation template (JSON) with the table.
    Cloudformation,
    /// A SAM template: the table and its least-privilege policy.
    Sam,
    /// A design document: table, indexes, entity chart, access patterns with RCU/WCU per call,
    /// check results.
    Markdown,
}

impl ExportFormat {
    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::CreateTable => "create-table",
            ExportFormat::Cloudformation => "cloudformation",
            ExportFormat::Sam => "sam",
            ExportFormat::Markdown => "markdown",
        }
    }
}

/// A JSON document a library rendered as text.
fn parse_json(tool: &'static str, text: &str) -> Result<Value, McpError> {
    serde_json::from_str(text).map_err(|e| McpError::Failed {
        tool,
        reason: format!("its JSON document did not parse: {e}"),
    })
}

/// `monotable check --format json`: the diagnostics document, MT000 for a model that does not
/// parse or validate.
pub fn check(loaded: &Loaded) -> Result<Value, McpError> {
    let report = monotable_check::check_source(&loaded.name, &loaded.source);
    parse_json("check", &report.render(ReportFormat::Json))
}

/// The model, or its MT000 diagnostics (rustc-style) in the error, as the commands print them.
pub fn model(loaded: &Loaded, refused: &'static str) -> Result<Model, McpError> {
    monotable_model::parse(&loaded.source).map_err(|e| {
        let report = Report::new(&loaded.name, &loaded.source, model_errors(&e));
        McpError::InvalidModel {
            file: loaded.name.clone(),
            refused,
            diagnostics: report.render(ReportFormat::Human),
        }
    })
}

/// `monotable cost --format json` with the shipped prices.
pub fn cost(loaded: &Loaded) -> Result<Value, McpError> {
    let model = model(loaded, "nothing priced")?;
    let report = cost::estimate(&model, &PriceTable::default());
    parse_json("cost", &report.render_json())
}

/// `monotable export --format FORMAT`: the text it prints.
pub fn export(loaded: &Loaded, format: ExportFormat) -> Result<String, McpError> {
    let model = model(loaded, "nothing exported")?;
    let mut options = monotable_export::ExportOptions::default();
    let capacity = |p: &monotable_model::Pattern| {
        cost::capacity_for(&model, p)
            .map(|(read, write)| monotable_export::Capacity { read, write })
    };
    let check_text;
    let format = match format {
        ExportFormat::CreateTable => monotable_export::Format::CreateTable,
        ExportFormat::Cloudformation => monotable_export::Format::CloudFormation,
        ExportFormat::Sam => monotable_export::Format::Sam,
        ExportFormat::Markdown => {
            let report = monotable_check::check_source(&loaded.name, &loaded.source);
            let rendered = report.render(ReportFormat::Human);
            check_text = if rendered.is_empty() {
                format!("{}: no problems found\n", loaded.name)
            } else {
                rendered
            };
            options.markdown.check_results = Some(&check_text);
            options.markdown.capacity = Some(&capacity);
            monotable_export::Format::Markdown
        }
    };
    Ok(monotable_export::export(&model, format, &options))
}

/// `monotable diff OLD NEW --format json`, item counts from each model's `[traffic]`.
pub fn diff(old: &Loaded, new: &Loaded) -> Result<Value, McpError> {
    let old_model = model(old, "nothing compared")?;
    let new_model = model(new, "nothing compared")?;
    let counts = ItemCounts::default();
    let d = diff::diff(&old_model, &new_model);
    let costs = diff::cost::costs(&old_model, &new_model, &d, &counts);
    let files = Files {
        old: &old.name,
        new: &new.name,
        new_source: &new.source,
    };
    parse_json("diff", &diff::render_json(&d, &costs, files))
}

/// `monotable verify --format json --seed SEED` on generated data in an in-memory engine.
pub fn verify(loaded: &Loaded, seed: u64) -> Result<Value, McpError> {
    let model = model(loaded, "nothing verified")?;
    let failed = |reason: String| McpError::Failed {
        tool: "verify",
        reason,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| failed(e.to_string()))?;
    let report = runtime
        .block_on(monotable_verify::verify(&model, seed))
        .map_err(|e| failed(e.to_string()))?;
    parse_json("verify", &report.render_json())
}
