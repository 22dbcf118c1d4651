//! Running each read pattern once on an in-memory embedded table loaded with the samples, with
//! parameters taken from the sample that gives the fullest answer: what `/api/patterns/NAME`
//! shows and the page highlights.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::error::ScanError;
use monotable_access::items::{self, Item};
use monotable_access::pattern::{self as store_pattern, PageRequest};
use monotable_access::{PutSpec, Table};
use monotable_connect::Dynamo;
use monotable_model::{Model, Operation, Pattern};
use monotable_verify::oracle::{self, KeyLayout, KeyQuery};
use monotable_verify::{Dataset, Sample};

use crate::UiError;
use crate::api;

/// Pages followed before a run stops.
const MAX_PAGES: usize = 100;

/// Keys a BatchGet pattern is run with.
const BATCH_SAMPLES: usize = 5;

/// One pattern run on the in-memory table.
#[derive(Debug, Clone, Default)]
pub struct PatternRun {
    /// The key condition with the parameters' values: `PK = "ORDER#o1"`.
    pub key_condition: String,
    /// The returned items' identities (`Entity PK | SK`, as verify names them), in order.
    pub items: Vec<String>,
    /// Why it could not run (a write pattern, no sample to take values from, an engine error).
    pub problem: Option<String>,
}

/// An in-memory engine with the model's table holding every sample.
pub async fn loaded(model: &Model, data: &Dataset) -> Result<Dynamo, UiError> {
    let dynamo = monotable_connect::memory().map_err(monotable_verify::VerifyError::from)?;
    let client = dynamo.client();
    monotable_access::table::ensure_table(client, model)
        .await
        .map_err(monotable_verify::VerifyError::from)?;
    let table = Table::new(client.clone(), &model.table.name);
    let key = model.table_key_names();
    for s in &data.samples {
        let mut item = s.item.clone();
        for name in model.key_attribute_names() {
            if let Some(AttributeValue::S(text)) = item.get(name) {
                let typed = items::key_value(model, name, text.clone());
                item.insert(name.to_string(), typed);
            }
        }
        PutSpec::item(item, &key)
            .send(&table)
            .await
            .map_err(|e| UiError::Load {
                entity: s.entity.clone(),
                message: e.to_string(),
            })?;
    }
    Ok(dynamo)
}

/// Runs every pattern of `model` once through `client`.
pub async fn run_all(
    model: &Model,
    client: &Client,
    data: &Dataset,
) -> BTreeMap<String, PatternRun> {
    let known: BTreeMap<(String, String), String> = data
        .samples
        .iter()
        .map(|s| {
            let id = oracle::ident(model, s);
            ((id.pk.clone(), id.sk.clone()), id.to_string())
        })
        .collect();
    let table = Table::new(client.clone(), &model.table.name);
    let mut out = BTreeMap::new();
    for p in &model.patterns {
        let run = Runner {
            model,
            table: &table,
            data,
            known: &known,
        }
        .pattern(p)
        .await;
        out.insert(p.name.clone(), run);
    }
    out
}

struct Runner<'a> {
    model: &'a Model,
    table: &'a Table,
    data: &'a Dataset,
    known: &'a BTreeMap<(String, String), String>,
}

/// The parameters taken from `sample`: its own values, and for a range condition the bounds
/// verify would put around it.
fn values_for(model: &Model, pattern: &Pattern, sample: &Sample) -> BTreeMap<String, String> {
    let mut values = monotable_verify::bounds::aligned(model, pattern, sample);
    for (k, v) in &sample.values {
        values.entry(k.clone()).or_insert_with(|| v.clone());
    }
    values
}

fn lookup(values: &BTreeMap<String, String>) -> impl Fn(&str) -> Option<String> + Sync + '_ {
    move |n: &str| values.get(n).cloned()
}

impl Runner<'_> {
    fn ident_of(&self, item: &Item) -> String {
        let (pk, sk) = monotable_verify::run::primary_key_text(self.model, item);
        self.known
            .get(&(pk.clone(), sk.clone()))
            .cloned()
            .unwrap_or_else(|| format!("? {pk} | {sk}"))
    }

    /// Samples to take parameters from: those of the entities the pattern returns (all when it
    /// names none).
    fn candidates(&self, pattern: &Pattern) -> Vec<&Sample> {
        self.data
            .samples
            .iter()
            .filter(|s| {
                pattern.returns.is_empty() || pattern.returns.iter().any(|r| r.name == s.entity)
            })
            .collect()
    }

    fn rendered(pattern: &Pattern, values: &BTreeMap<String, String>) -> String {
        let values = lookup(values);
        pattern
            .key_conditions()
            .into_iter()
            .map(|c| {
                api::condition_with(c, &|t| t.render(&values).unwrap_or_else(|_| t.to_string()))
            })
            .collect::<Vec<_>>()
            .join(" AND ")
    }

    async fn pattern(&self, pattern: &Pattern) -> PatternRun {
        match pattern.operation {
            Operation::Query => self.query(pattern).await,
            Operation::GetItem => self.get(pattern).await,
            Operation::Scan => self.scan(pattern).await,
            Operation::BatchGet => self.batch_get(pattern).await,
            _ => PatternRun {
                key_condition: api::key_condition_text(pattern),
                problem: Some("writes are not run".to_string()),
                ..PatternRun::default()
            },
        }
    }

    /// The sample whose values select the most entity types, then the most items.
    async fn query(&self, pattern: &Pattern) -> PatternRun {
        let shape = KeyLayout::of(self.model, pattern);
        let samples = &self.data.samples;
        let mut best: Option<((usize, usize), &Sample)> = None;
        for s in self.candidates(pattern) {
            let map = values_for(self.model, pattern, s);
            let Ok(key) = KeyQuery::render(pattern, &lookup(&map)) else {
                continue;
            };
            if !key.is_valid(&shape) {
                continue;
            }
            let found = oracle::query(samples, &shape, &key, pattern.descending);
            let mut kinds: Vec<&str> = found.iter().map(|f| f.entity.as_str()).collect();
            kinds.sort();
            kinds.dedup();
            let score = (kinds.len(), found.len());
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, s));
            }
        }
        let Some((_, sample)) = best else {
            return PatternRun {
                key_condition: api::key_condition_text(pattern),
                problem: Some("no sample item to take the parameters from".to_string()),
                ..PatternRun::default()
            };
        };
        let map = values_for(self.model, pattern, sample);
        let values = lookup(&map);
        let mut run = PatternRun {
            key_condition: Self::rendered(pattern, &map),
            ..PatternRun::default()
        };
        let mut start = None;
        for _ in 0..MAX_PAGES {
            let page = store_pattern::query(
                self.table,
                self.model,
                &pattern.name,
                &values,
                PageRequest { limit: None, start },
            )
            .await;
            match page {
                Ok(page) => {
                    run.items
                        .extend(page.items.iter().map(|i| self.ident_of(i)));
                    match page.last_evaluated_key {
                        Some(k) if !k.is_empty() => start = Some(k),
                        _ => return run,
                    }
                }
                Err(e) => {
                    run.problem = Some(e.to_string());
                    return run;
                }
            }
        }
        run.problem = Some(format!("stopped after {MAX_PAGES} pages"));
        run
    }

    /// Every item of the table (or the pattern's index), page by page.
    async fn scan(&self, pattern: &Pattern) -> PatternRun {
        let mut run = PatternRun {
            key_condition: format!("Scan {}", pattern.index_name().unwrap_or("table")),
            ..PatternRun::default()
        };
        let scan = match store_pattern::scan(self.model, &pattern.name) {
            Ok(scan) => scan.max_pages(MAX_PAGES),
            Err(e) => {
                run.problem = Some(e.to_string());
                return run;
            }
        };
        match scan.all(self.table).await {
            Ok(found) => run.items = found.iter().map(|i| self.ident_of(i)).collect(),
            Err(ScanError::Endless { pages }) => {
                run.problem = Some(format!("stopped after {pages} pages"));
            }
            Err(e) => run.problem = Some(e.to_string()),
        }
        run
    }

    /// The keys of up to [`BATCH_SAMPLES`] samples of the entities it returns, in one
    /// BatchGetItem (its unprocessed keys sent again).
    async fn batch_get(&self, pattern: &Pattern) -> PatternRun {
        let mut keys: Vec<Item> = Vec::new();
        let mut shown = Vec::new();
        for s in self.candidates(pattern) {
            let map = values_for(self.model, pattern, s);
            let key = store_pattern::key(self.model, pattern, &lookup(&map)).ok();
            if let Some(key) = key.filter(|k| !k.is_empty() && !keys.contains(k)) {
                shown.push(Self::rendered(pattern, &map));
                keys.push(key);
            }
            if keys.len() == BATCH_SAMPLES {
                break;
            }
        }
        let mut run = PatternRun {
            key_condition: shown.join("; "),
            ..PatternRun::default()
        };
        if keys.is_empty() {
            run.key_condition = api::key_condition_text(pattern);
            run.problem = Some("no sample item to take the keys from".to_string());
            return run;
        }
        match self.table.batch_get_items(keys, false).await {
            Ok(found) => run.items = found.iter().map(|i| self.ident_of(i)).collect(),
            Err(e) => run.problem = Some(e.to_string()),
        }
        run
    }

    /// The first sample whose values find an item.
    async fn get(&self, pattern: &Pattern) -> PatternRun {
        let mut last = None;
        for s in self.candidates(pattern).into_iter().take(20) {
            let map = values_for(self.model, pattern, s);
            match store_pattern::get(self.table, self.model, &pattern.name, &lookup(&map)).await {
                Ok(Some(item)) => {
                    return PatternRun {
                        key_condition: Self::rendered(pattern, &map),
                        items: vec![self.ident_of(&item)],
                        problem: None,
                    };
                }
                Ok(None) => {}
                Err(e) => last = Some(e.to_string()),
            }
        }
        PatternRun {
            key_condition: api::key_condition_text(pattern),
            problem: Some(last.unwrap_or_else(|| "no sample item's key finds an item".to_string())),
            ..PatternRun::default()
        }
    }
}
