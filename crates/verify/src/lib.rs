//! monotable-verify: run every access pattern of a model against generated sample data.
//!
//! [`verify`] generates sample items from the model ([`generate`]), loads them into an in-memory
//! embedded table built from the model, sends every read pattern through the AWS SDK (following
//! pagination) and compares what comes back with what the model says should
//! ([`oracle`]): exactly the expected items, in sort-key order, and every entity type the pattern
//! promises in `returns`. Every write pattern is then sent through the access layer's write path
//! on items verify makes for it and judged from the model: its effects, what the reads see
//! after it, each condition clause both ways, `unique` guards, a transaction's atomicity, and
//! that what it wrote is removed again. [`verify_table`] runs the read checks over the items
//! already in a live table instead ([`verify_table_with`] the writes too). [`load`] drives the model's
//! `[traffic]` against a table over the same generated data (`monotable load`).
//!
//! ```no_run
//! # async fn demo() -> Result<(), monotable_verify::VerifyError> {
//! let source = std::fs::read_to_string("examples/shop/shop.toml").unwrap_or_default();
//! let report = monotable_verify::verify_source("shop.toml", &source, 42).await?;
//! print!("{}", report.render_human());
//! std::process::exit(if report.passed() { 0 } else { 1 });
//! # }
//! ```

pub mod bounds;
pub mod capacity;
mod ctx;
pub mod existing;
pub mod generate;
mod keys;
pub mod load;
pub mod oracle;
pub mod order;
pub mod params;
pub mod report;
pub mod run;
pub mod sample_index;
pub mod values;
pub mod verdict;
mod writes;

pub use generate::{Dataset, Sample, generate};
pub use report::{PatternResult, Source, VerifyReport};

use aws_sdk_dynamodb::Client;
use monotable_model::Model;

/// The seed used when the caller has none.
pub const DEFAULT_SEED: u64 = 1;

/// Verification could not run (a failing pattern is not an error: see [`VerifyReport::passed`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// The model does not parse or is invalid.
    #[error("{path}: invalid model:\n{}", .issues.join("\n"))]
    Model {
        /// The file name given.
        path: String,
        /// Each issue as `path:line:column: message`.
        issues: Vec<String>,
    },
    /// The embedded engine could not be started.
    #[error("cannot start the embedded engine: {0}")]
    Engine(#[from] monotable_connect::ConnectError),
    /// The model's table could not be created.
    #[error("cannot create the model's table: {0}")]
    Table(#[from] monotable_access::table::TableError),
    /// A sample item was refused by the engine.
    #[error("cannot load a sample `{entity}` item: {message}")]
    Load {
        /// The entity of the item.
        entity: String,
        /// The engine's code and message.
        message: String,
    },
    /// The table could not be read (`verify_table`).
    #[error("cannot scan table `{table}`: {source}")]
    Scan {
        /// The table.
        table: String,
        /// What failed.
        source: monotable_access::ScanError,
    },
}

/// Verifies a parsed model with sample data generated from `seed`.
pub async fn verify(model: &Model, seed: u64) -> Result<VerifyReport, VerifyError> {
    let data = generate::generate(model, seed);
    run::run(model, &data, seed).await
}

/// Verifies every read pattern of `model` over the items already in its table, reached through
/// `client` (a table migrated to `model`, say): the whole table is scanned, each item becomes a
/// sample ([`Dataset::from_items`]) and the patterns run on the table itself. `seed` picks the
/// items the request parameters are taken from.
pub async fn verify_table(
    model: &Model,
    client: &Client,
    seed: u64,
) -> Result<VerifyReport, VerifyError> {
    let items = existing::scan_all(client, &model.table.name).await?;
    let data = Dataset::from_items(model, items);
    run::run_on(model, client, &data, seed).await
}

/// [`verify_table`], the write patterns run (on items verify creates in the table and removes
/// afterwards, [`run::Writes::Run`]) or skipped as `writes` says.
pub async fn verify_table_with(
    model: &Model,
    client: &Client,
    seed: u64,
    writes: run::Writes,
) -> Result<VerifyReport, VerifyError> {
    let items = existing::scan_all(client, &model.table.name).await?;
    let data = Dataset::from_items(model, items);
    run::run_with(model, client, &data, seed, writes).await
}

/// Parses `source` (named `path` in messages) and verifies it.
pub async fn verify_source(
    path: &str,
    source: &str,
    seed: u64,
) -> Result<VerifyReport, VerifyError> {
    verify(&parse_model(path, source)?, seed).await
}

/// Parses `source` (named `path` in messages): [`VerifyError::Model`] with every issue located.
pub fn parse_model(path: &str, source: &str) -> Result<Model, VerifyError> {
    monotable_model::parse(source).map_err(|e| VerifyError::Model {
        path: path.to_string(),
        issues: e
            .issues
            .iter()
            .map(|i| match i.line_col(source) {
                Some((line, col)) => format!("{path}:{line}:{col}: {}", i.message),
                None => format!("{path}: {}", i.message),
            })
            .collect(),
    })
}
