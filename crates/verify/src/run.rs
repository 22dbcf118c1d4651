//! Running the patterns: the model's table in an in-memory embedded engine, the samples loaded,
//! every read pattern run and compared with the oracle (`ctx`), then every write pattern run on
//! items of its own and judged from the model (`writes`).

use std::collections::BTreeMap;

use aws_sdk_dynamodb::Client;
use monotable_access::Table;
use monotable_model::Model;

use crate::VerifyError;
use crate::ctx::Ctx;
pub use crate::ctx::{PAGE_SIZE, primary_key_text};
use crate::generate::Dataset;
use crate::report::{PatternResult, VerifyReport};

/// Loads `data` into a fresh in-memory table built from `model` and checks every pattern.
pub async fn run(model: &Model, data: &Dataset, seed: u64) -> Result<VerifyReport, VerifyError> {
    let dynamo = monotable_connect::memory()?;
    let client = dynamo.client();
    monotable_access::table::ensure_table(client, model).await?;
    let table = Table::new(client.clone(), &model.table.name);
    crate::load::load(&table, model, &data.samples).await?;
    run_with(model, client, data, seed, Writes::Run).await
}

/// Whether the write patterns run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writes {
    /// Each runs on items verify makes for it, removed afterwards.
    Run,
    /// Each is listed as skipped, for this reason.
    Skip(&'static str),
}

/// Why the writes are not run on a live table unless asked.
pub const LIVE_TABLE: &str = "writes are not run on a live table without --allow-writes (verify then writes only items it creates, and removes them)";

/// Checks every pattern of `model` through `client`, whose table already holds exactly the items
/// of `data` (loaded by [`run`], or read from it: [`Dataset::from_items`]); `seed` picks the
/// sample items the request parameters are taken from.
pub async fn run_on(
    model: &Model,
    client: &Client,
    data: &Dataset,
    seed: u64,
) -> Result<VerifyReport, VerifyError> {
    let writes = match data.source {
        crate::report::Source::Generated => Writes::Run,
        crate::report::Source::Table => Writes::Skip(LIVE_TABLE),
    };
    run_with(model, client, data, seed, writes).await
}

/// [`run_on`], the write patterns run or skipped as `writes` says: each runs on items verify
/// makes for it (whose keys and unique values none of `data` has), removed afterwards.
pub async fn run_with(
    model: &Model,
    client: &Client,
    data: &Dataset,
    seed: u64,
    writes: Writes,
) -> Result<VerifyReport, VerifyError> {
    let table = model.table.name.clone();
    let ctx = Ctx::new(model, Table::new(client.clone(), &model.table.name), data);
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x5eed_7a26_e75e_ed00);
    let mut patterns = Vec::new();
    // Reads first, on the samples alone; then each write, which removes what it wrote.
    for pattern in model.patterns.iter().filter(|p| p.is_read()) {
        patterns.push((pattern.name.as_str(), ctx.pattern(pattern, &mut rng).await));
    }
    let in_units = crate::writes::actions_of_units(model);
    let mut fresh = crate::generate::Fresh::for_table(model, seed, data);
    for pattern in model.patterns.iter().filter(|p| !p.is_read()) {
        let result = match writes {
            Writes::Run => {
                let in_unit = in_units.contains(pattern.name.as_str());
                crate::writes::pattern(&ctx, &mut fresh, pattern, in_unit).await
            }
            Writes::Skip(why) => crate::writes::skipped(pattern, why.to_string()),
        };
        patterns.push((pattern.name.as_str(), result));
    }
    let order: BTreeMap<&str, usize> = model
        .patterns
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.as_str(), i))
        .collect();
    patterns.sort_by_key(|(name, _)| order.get(name).copied().unwrap_or(usize::MAX));
    let patterns: Vec<PatternResult> = patterns.into_iter().map(|(_, r)| r).collect();
    let counts = data.counts();
    let mut entities: Vec<(String, usize)> = model
        .entities
        .iter()
        .map(|e| {
            (
                e.name.clone(),
                counts.get(e.name.as_str()).copied().unwrap_or(0),
            )
        })
        .collect();
    entities.sort();
    Ok(VerifyReport {
        table,
        seed,
        source: data.source,
        items: data.samples.len(),
        entities,
        patterns,
        warnings: data.warnings.clone(),
    })
}
