//! Each tool's work, through the same library calls as the `monotable` command of its name, so
//! an answer here is the command's `--format json` document: `check`, `cost`, `export`, `diff`
//! and `verify`, with the commands' options (`options`). Synchronous (verify and cost's
//! cross-check build their own runtime): the server runs each on a blocking thread under its
//! timeout.

use monotable_check::cost;
use monotable_check::{Report, ReportFormat};
use monotable_migrate::diff::{self, Files};
use monotable_model::Model;
use monotable_model::diagnostic::model_errors;
use serde_json::Value;

use crate::error::McpError;
use crate::input::{Loaded, Root};
use crate::options::{CostInput, CostRun, DiffInput, ExportFormat, ExportInput};

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

/// `monotable cost --format json` with `input`'s options: the estimate, the comparison
/// (`--compare`), or the estimate and the cross-check side by side (`--cross-check`).
pub fn cost(root: &Root, input: &CostInput) -> Result<Value, McpError> {
    input.check_flags()?;
    let loaded = input.source.load(root)?;
    let model = model(&loaded, "nothing priced")?;
    let prices = input.prices(root)?;
    let report = cost::estimate(&model, &prices);
    match input.run(root)? {
        CostRun::Estimate => parse_json("cost", &report.render_json()),
        CostRun::Compare(new) => {
            let new_model = self::model(&new, "nothing priced")?;
            let comparison = cost::compare(&loaded.name, &model, &new.name, &new_model, &prices);
            parse_json("cost", &comparison.render_json())
        }
        CostRun::CrossCheck(seed) => {
            let checked = block_on(
                "cost",
                monotable_verify::capacity::cross_check(&model, seed),
            )?
            .map_err(|e| McpError::Refused(format!("capacity cross-check: {e}")))?;
            Ok(serde_json::json!({
                "cost": parse_json("cost", &report.render_json())?,
                "crossCheck": parse_json("cost", &checked.render_json())?,
            }))
        }
    }
}

/// `work` run to its end on a runtime of its own (the call is on a blocking thread).
fn block_on<F: std::future::Future>(tool: &'static str, work: F) -> Result<F::Output, McpError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| McpError::Failed {
            tool,
            reason: e.to_string(),
        })?;
    Ok(runtime.block_on(work))
}

/// `monotable export --format FORMAT` with `input`'s options: the text it prints.
pub fn export(root: &Root, input: &ExportInput) -> Result<String, McpError> {
    input.check_flags()?;
    let loaded = input.source.load(root)?;
    let model = model(&loaded, "nothing exported")?;
    let mut options = monotable_export::ExportOptions::default();
    let capacity = |p: &monotable_model::Pattern| {
        cost::capacity_for(&model, p)
            .map(|(read, write)| monotable_export::Capacity { read, write })
    };
    if input.function.is_some() && input.format != ExportFormat::Sam {
        return Err(McpError::Refused(
            "`function` and its options go with `format` sam".into(),
        ));
    }
    let check_text;
    let format = match input.format {
        ExportFormat::CreateTable => monotable_export::Format::CreateTable,
        ExportFormat::Cloudformation => monotable_export::Format::CloudFormation,
        ExportFormat::Sam => {
            options.sam = input.sam(root)?;
            monotable_export::Format::Sam
        }
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
        ExportFormat::NosqlWorkbench => {
            let seed = input.seed.unwrap_or(monotable_verify::DEFAULT_SEED);
            return nosql_workbench(&loaded, &model, seed);
        }
    };
    Ok(monotable_export::export(&model, format, &options))
}

/// `monotable export --format nosql-workbench --seed SEED`: refused before the samples are
/// made when a native multi-attribute key has no place there.
fn nosql_workbench(loaded: &Loaded, model: &Model, seed: u64) -> Result<String, McpError> {
    let name = &loaded.name;
    monotable_export::workbench::check_representable(model)
        .map_err(|e| McpError::Refused(format!("{name}: {e}")))?;
    let data: Vec<Value> = monotable_verify::generate(model, seed)
        .samples
        .iter()
        .map(|s| monotable_access::items::to_json(&s.item))
        .collect();
    monotable_export::nosql_workbench(
        model,
        &loaded.source,
        &data,
        &monotable_export::WorkbenchOptions::default(),
    )
    .map_err(|e| {
        McpError::Refused(format!(
            "{name} cannot be exported for NoSQL Workbench: {e}"
        ))
    })
}

/// `monotable diff OLD NEW --format json --items ...`, item counts from `items`, then each
/// model's `[traffic]`.
pub fn diff(root: &Root, input: &DiffInput) -> Result<Value, McpError> {
    // In the command's order: the old model read and parsed, then the new one, then `items`.
    let old = &input.side(root, true)?;
    let old_model = model(old, "nothing compared")?;
    let new = &input.side(root, false)?;
    let new_model = model(new, "nothing compared")?;
    let counts = input.counts()?;
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
    let report = block_on("verify", monotable_verify::verify(&model, seed))?.map_err(|e| {
        McpError::Failed {
            tool: "verify",
            reason: e.to_string(),
        }
    })?;
    parse_json("verify", &report.render_json())
}
