//! `monotable cost MODEL`: capacity units per access pattern from DynamoDB's sizing rules, and
//! with the model's traffic, per second and per month, priced, against one table per entity.
//! `--cross-check` then runs the same rules on the verify data against the embedded engine's
//! `ConsumedCapacity` and exits 1 when any figure disagrees. `--compare NEW` puts the model next
//! to another design of the same workload (native index keys instead of synthetic ones, say).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use monotable_check::cost::{self, PriceTable};
use monotable_model::text::{escape, escape_json};

use crate::input::{OutputFormat, read_model};

#[derive(Debug, Args)]
pub struct CostArgs {
    /// The model file.
    model: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// A price table (TOML, same shape as the shipped one; see docs/cost.md) overriding the
    /// shipped us-east-1 prices.
    #[arg(long, value_name = "FILE")]
    prices: Option<PathBuf>,
    /// Also run every write and read on the verify data in an in-memory engine and compare its
    /// ConsumedCapacity (INDEXES) with the sizing rules; exit code 1 when any figure disagrees.
    #[arg(long)]
    cross_check: bool,
    /// Compare MODEL (old) with this model file (new) side by side: bytes stored and write units
    /// per item of each entity, units per second and dollars per month.
    #[arg(long, value_name = "NEW", conflicts_with = "cross_check")]
    compare: Option<PathBuf>,
    /// Seed of the verify data for `--cross-check`.
    #[arg(long, default_value_t = monotable_verify::DEFAULT_SEED, requires = "cross_check")]
    seed: u64,
}

pub async fn run(args: CostArgs) -> anyhow::Result<ExitCode> {
    let path = args.model.display().to_string();
    match cost(&args, &path).await {
        Ok(code) => Ok(code),
        Err(e) => crate::json_error(args.format.is_json(), &path, e),
    }
}

async fn cost(args: &CostArgs, path: &str) -> anyhow::Result<ExitCode> {
    let model = read_model(&args.model, "nothing priced")?.model;
    let prices = match &args.prices {
        Some(file) => {
            let text = crate::input::read(file, crate::input::PRICES)
                .with_context(|| format!("cannot read price table {}", file.display()))?;
            PriceTable::from_toml(&text)
                .with_context(|| format!("price table {}", file.display()))?
        }
        None => PriceTable::default(),
    };
    if let Some(new_file) = &args.compare {
        let new_path = new_file.display().to_string();
        let new = read_model(new_file, "nothing priced")?.model;
        let comparison = cost::compare(path, &model, &new_path, &new, &prices);
        match args.format {
            OutputFormat::Human => print!("{}", comparison.render_human()),
            OutputFormat::Json => print!("{}", comparison.render_json()),
        }
        return Ok(ExitCode::SUCCESS);
    }
    let report = cost::estimate(&model, &prices);
    if !args.cross_check {
        match args.format {
            OutputFormat::Human => print!("{}", report.render_human()),
            OutputFormat::Json => print!("{}", report.render_json()),
        }
        return Ok(ExitCode::SUCCESS);
    }
    let checked = monotable_verify::capacity::cross_check(&model, args.seed)
        .await
        .context("capacity cross-check")?;
    match args.format {
        OutputFormat::Human => {
            print!("{}", report.render_human());
            println!();
            print!("{}", escape(&checked.render_human()));
        }
        OutputFormat::Json => {
            // One document: the cost report and the cross-check side by side.
            let parse = |text: String| {
                serde_json::from_str::<serde_json::Value>(&text).unwrap_or(serde_json::Value::Null)
            };
            let doc = serde_json::json!({
                "cost": parse(report.render_json()),
                "crossCheck": parse(checked.render_json()),
            });
            let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
            println!("{}", escape_json(&text));
        }
    }
    Ok(if checked.agrees() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
