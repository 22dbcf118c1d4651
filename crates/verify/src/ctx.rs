//! What running one read pattern takes and does: the model, the table, the samples and their
//! index (`Ctx`), each pattern sent through the access layer (following pagination) and compared
//! with the oracle; and how verify and the ui name an item by its table key.

use std::collections::{BTreeMap, BTreeSet};

use monotable_access::Table;
use monotable_access::error::ScanError;
use monotable_access::items::{self, Item};
use monotable_access::pattern::{self as store_pattern, PageRequest};
use monotable_model::{KeyTest, Model, Operation, Pattern};

use crate::generate::{Dataset, Sample};
use crate::keys::Values;
use crate::keys::{get_key, key_text};
use crate::oracle::{self, Bound, Ident, KeyLayout, KeyQuery};
use crate::params::{self, BEST, Score};
use crate::report::PatternResult;
use crate::sample_index::SampleIndex;
use crate::verdict;

/// Items per page: small, so every multi-item result crosses a page boundary.
pub const PAGE_SIZE: i32 = 2;
/// Sample items each returned entity type is looked up from.
const TARGETS_PER_ENTITY: usize = 2;
/// Pages followed before a Query is declared endless.
const MAX_PAGES: usize = 1000;

/// One request and how it went.
#[derive(Debug, Default)]
struct Run {
    request: String,
    /// The sample the parameters were taken from.
    target: Option<Ident>,
    expected: Vec<Ident>,
    got: Vec<Ident>,
    problem: Option<String>,
}
fn article(word: &str) -> &'static str {
    match word.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o') => "an",
        _ => "a",
    }
}

/// The item's table key as text, partition then sort key (empty when it has none, a value
/// that is no key text as its debug form): how verify and the ui name an item.
pub fn primary_key_text(model: &Model, item: &Item) -> (String, String) {
    let get = |name: &str| item.get(name).map(key_text).unwrap_or_default();
    let pk = get(&model.table.partition_key.name);
    let sk = model.table.sort_key.as_ref().map(|k| get(&k.name));
    (pk, sk.unwrap_or_default())
}

/// What every pattern's run reads: the model, the table, the samples and their index.
pub(crate) struct Ctx<'a> {
    pub(crate) model: &'a Model,
    pub(crate) table: Table,
    data: &'a Dataset,
    /// The samples indexed: each pattern reads the partition or entity it concerns.
    pub(crate) index: SampleIndex<'a>,
    known: BTreeMap<(String, String), String>,
}

impl<'a> Ctx<'a> {
    /// The context of a run on `table`, loaded with `data`'s samples.
    pub(crate) fn new(model: &'a Model, table: Table, data: &'a Dataset) -> Ctx<'a> {
        let known: BTreeMap<(String, String), String> = data
            .samples
            .iter()
            .map(|s| {
                let id = oracle::ident(model, s);
                ((id.pk, id.sk), id.entity)
            })
            .collect();
        Ctx {
            model,
            table,
            data,
            index: SampleIndex::new(model, &data.samples),
            known,
        }
    }
}

impl Ctx<'_> {
    /// The identity of a returned item: its primary key, and its entity from the samples (the
    /// item itself may not carry `entityType` when the index does not project it).
    pub(crate) fn ident_of(&self, item: &Item) -> Ident {
        let (pk, sk) = primary_key_text(self.model, item);
        let entity = self
            .known
            .get(&(pk.clone(), sk.clone()))
            .cloned()
            .or_else(|| items::entity_type(item).map(str::to_string))
            .unwrap_or_else(|| "?".to_string());
        Ident { pk, sk, entity }
    }

    /// Up to two samples of each returned entity type, preferring those in the index read;
    /// `None` alone when there is nothing to take values from.
    fn targets<'s>(
        &'s self,
        pattern: &Pattern,
        shape: &KeyLayout,
        rng: &mut fastrand::Rng,
    ) -> Vec<&'s Sample> {
        let mut entities: Vec<&str> = Vec::new();
        for r in &pattern.returns {
            if !entities.contains(&r.name.as_str()) {
                entities.push(&r.name);
            }
        }
        let mut out = Vec::new();
        let mut pick = |pool: Vec<&'s Sample>, out: &mut Vec<&'s Sample>| {
            let mut pool = pool;
            for _ in 0..TARGETS_PER_ENTITY {
                if pool.is_empty() {
                    break;
                }
                let i = rng.usize(0..pool.len());
                out.push(pool.remove(i));
            }
        };
        let samples = &self.data.samples;
        if entities.is_empty() {
            pick(
                samples.iter().filter(|s| shape.contains(s)).collect(),
                &mut out,
            );
        }
        for e in entities {
            let of: Vec<&Sample> = self
                .index
                .of_entity(e)
                .filter(|s| holds_literals(self.model, pattern, s))
                .collect();
            // Prefer the samples whose keys start as the pattern's literals do; when none does,
            // the run shows the pattern reaching no item of the entity.
            let reachable: Vec<&Sample> = of
                .iter()
                .copied()
                .filter(|s| starts_as_literals(pattern, s))
                .collect();
            let of = if reachable.is_empty() { of } else { reachable };
            let inside: Vec<&Sample> = of.iter().copied().filter(|s| shape.contains(s)).collect();
            pick(if inside.is_empty() { of } else { inside }, &mut out);
        }
        out
    }

    pub(crate) async fn pattern(
        &self,
        pattern: &Pattern,
        rng: &mut fastrand::Rng,
    ) -> PatternResult {
        let operation = format!("{:?}", pattern.operation);
        let shape = KeyLayout::of(self.model, pattern);
        let reads = matches!(
            pattern.operation,
            Operation::Query | Operation::GetItem | Operation::BatchGet | Operation::Scan
        );
        // A write is not run: no target to look for.
        let targets = if reads {
            self.targets(pattern, &shape, rng)
        } else {
            Vec::new()
        };
        let mut runs = Vec::new();
        match pattern.operation {
            Operation::Query => {
                if targets.is_empty() {
                    runs.push(self.query(pattern, &shape, None).await);
                }
                for t in &targets {
                    runs.push(self.query(pattern, &shape, Some(t)).await);
                }
            }
            Operation::GetItem => {
                if targets.is_empty() {
                    runs.push(self.get(pattern, None).await);
                }
                for t in &targets {
                    runs.push(self.get(pattern, Some(t)).await);
                }
            }
            Operation::BatchGet => runs.push(self.batch_get(pattern, &targets).await),
            Operation::Scan => runs.push(self.scan(pattern, &shape).await),
            Operation::PutItem
            | Operation::UpdateItem
            | Operation::DeleteItem
            | Operation::TransactWrite
            | Operation::ConditionCheck
            | Operation::BatchWrite => {
                return PatternResult {
                    name: pattern.name.clone(),
                    operation,
                    passed: false,
                    skipped: true,
                    requests: 0,
                    items: 0,
                    request: String::new(),
                    expected: Vec::new(),
                    got: Vec::new(),
                    message: "writes are not run; verify checks what reads return".to_string(),
                    checks: Vec::new(),
                };
            }
        }
        self.judge(pattern, operation, runs)
    }

    fn judge(&self, pattern: &Pattern, operation: String, mut runs: Vec<Run>) -> PatternResult {
        let show = |ids: &[Ident]| ids.iter().map(Ident::to_string).collect::<Vec<_>>();
        let requests = runs.len();
        let items: usize = runs.iter().map(|r| r.got.len()).sum();
        let lists_other = !pattern.returns.is_empty()
            && pattern.filter.is_empty()
            && pattern.operation != Operation::Scan;
        for run in &mut runs {
            if run.problem.is_some() {
                continue;
            }
            if pattern.unique && run.got.len() > 1 {
                run.problem = Some(format!(
                    "declared unique, but returned {} items",
                    run.got.len()
                ));
            } else if lists_other
                && let Some(other) = run
                    .got
                    .iter()
                    .find(|g| !pattern.returns.iter().any(|r| r.name == g.entity))
            {
                run.problem = Some(format!(
                    "returned {} {}, which `returns` does not list",
                    article(&other.entity),
                    other.entity
                ));
            }
        }
        let failed = |run: &Run, message: String| PatternResult {
            name: pattern.name.clone(),
            operation: operation.clone(),
            passed: false,
            skipped: false,
            requests,
            items,
            request: run.request.clone(),
            expected: show(&run.expected),
            got: show(&run.got),
            message,
            checks: Vec::new(),
        };
        if let Some(run) = runs.iter().find(|r| r.problem.is_some()) {
            let message = run.problem.clone().unwrap_or_default();
            return failed(run, message);
        }
        let mut promised: Vec<&str> = Vec::new();
        for r in &pattern.returns {
            if !promised.contains(&r.name.as_str()) {
                promised.push(&r.name);
            }
        }
        for entity in promised {
            // Only the samples the pattern's literals can reach count (`kind = "GIFT"` on a
            // native key reaches no `SALE` order).
            let have = self
                .index
                .of_entity(entity)
                .filter(|s| holds_literals(self.model, pattern, s))
                .count();
            if have == 0
                || runs
                    .iter()
                    .any(|r| r.got.iter().any(|g| g.entity == entity))
            {
                continue;
            }
            let run = runs
                .iter()
                .find(|r| r.target.as_ref().is_some_and(|t| t.entity == entity))
                .or(runs.first());
            let Some(run) = run else { continue };
            let a = article(entity);
            let mut result = failed(
                run,
                format!(
                    "expected {a} {entity}, got none ({requests} request{}; the samples hold {have} {entity} item{})",
                    if requests == 1 { "" } else { "s" },
                    if have == 1 { "" } else { "s" }
                ),
            );
            if let Some(t) = &run.target {
                result.expected = vec![format!("{t} (the sample the key values came from)")];
            }
            return result;
        }
        let first = runs.first();
        PatternResult {
            name: pattern.name.clone(),
            operation,
            passed: true,
            skipped: false,
            requests,
            items,
            request: first.map(|r| r.request.clone()).unwrap_or_default(),
            expected: first.map(|r| show(&r.expected)).unwrap_or_default(),
            got: first.map(|r| show(&r.got)).unwrap_or_default(),
            message: format!(
                "{requests} request{}, {items} item{}",
                if requests == 1 { "" } else { "s" },
                if items == 1 { "" } else { "s" }
            ),
            checks: Vec::new(),
        }
    }

    async fn query(&self, pattern: &Pattern, shape: &KeyLayout, target: Option<&Sample>) -> Run {
        let samples = &self.index;
        let eval = |values: &Values| -> Option<Score> {
            let key = KeyQuery::render(pattern, &|n| values.get(n).cloned()).ok()?;
            if !key.is_valid(shape) {
                return None;
            }
            let found = samples.query(shape, &key, pattern.descending);
            let hit = target.is_some_and(|t| found.iter().any(|f| std::ptr::eq(*f, t)));
            // Some but not all of the partition for a range; when nothing matches at all, at
            // least a range wider than one value, so an empty answer is not the bounds' fault.
            let narrow = match key.sort.as_ref().map(|(_, b)| b) {
                Some(Bound::Between(a, b)) if found.is_empty() => a < b,
                Some(b) if b.is_range() => {
                    !found.is_empty() && found.len() < samples.partition_size(shape, &key)
                }
                _ => true,
            };
            Some(u8::from(hit) * 4 + u8::from(!found.is_empty()) * 2 + u8::from(narrow))
        };
        let values = params::choose(self.model, pattern, samples, target, &eval);
        let mut run = Run {
            target: target.map(|t| oracle::ident(self.model, t)),
            ..Run::default()
        };
        let key = match KeyQuery::render(pattern, &|n| values.get(n).cloned()) {
            Ok(k) => k,
            Err(e) => {
                run.request = format!("Query {}", pattern.name);
                run.problem = Some(format!("cannot render the key condition: {e}"));
                return run;
            }
        };
        let mut request = format!(
            "Query {}: {}",
            shape.index.as_deref().unwrap_or("table"),
            key.describe()
        );
        if pattern.descending {
            request.push_str(" (descending)");
        }
        request.push_str(&format!(", pages of {PAGE_SIZE}"));
        run.request = request;
        let expected = samples.query(shape, &key, pattern.descending);
        run.expected = expected
            .iter()
            .map(|s| oracle::ident(self.model, s))
            .collect();
        let got = match self.pages(pattern, &values).await {
            Ok(got) => got,
            Err(problem) => {
                run.problem = Some(problem);
                Vec::new()
            }
        };
        run.got = got.iter().map(|i| self.ident_of(i)).collect();
        if run.problem.is_none() {
            run.problem = verdict::members(&run.expected, &run.got)
                .or_else(|| verdict::order(pattern.descending, shape, &expected, &got));
        }
        run
    }

    /// Every page of the Query of `pattern` for `values`, followed to the end.
    pub(crate) async fn pages(
        &self,
        pattern: &Pattern,
        values: &Values,
    ) -> Result<Vec<Item>, String> {
        let lookup = |n: &str| values.get(n).cloned();
        let mut got: Vec<Item> = Vec::new();
        let mut start = None;
        let mut seen_starts: BTreeSet<String> = BTreeSet::new();
        for _ in 0..MAX_PAGES {
            let page = store_pattern::query(
                &self.table,
                self.model,
                &pattern.name,
                &lookup,
                PageRequest {
                    limit: Some(PAGE_SIZE),
                    start,
                },
            )
            .await
            .map_err(|e| e.to_string())?;
            got.extend(page.items);
            let Some(k) = page.last_evaluated_key else {
                return Ok(got);
            };
            let mut fingerprint: Vec<String> =
                k.iter().map(|(a, v)| format!("{a}={v:?}")).collect();
            fingerprint.sort();
            if !seen_starts.insert(fingerprint.join(",")) {
                return Err("pagination repeated a LastEvaluatedKey".to_string());
            }
            start = Some(k);
        }
        Err(format!("pagination did not end after {MAX_PAGES} pages"))
    }

    fn describe_key(key: &[(String, String)]) -> String {
        key.iter()
            .map(|(a, v)| format!("{a} = {v:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn choose_key(&self, pattern: &Pattern, target: Option<&Sample>) -> Values {
        let samples = &self.index;
        let eval = |values: &Values| -> Option<Score> {
            let key = get_key(pattern, values).ok()?;
            Some(match samples.get(&key) {
                Some(s) if target.is_some_and(|t| std::ptr::eq(s, t)) => BEST,
                Some(_) => 3,
                None => 0,
            })
        };
        params::choose(self.model, pattern, samples, target, &eval)
    }

    async fn get(&self, pattern: &Pattern, target: Option<&Sample>) -> Run {
        let values = self.choose_key(pattern, target);
        let mut run = Run {
            target: target.map(|t| oracle::ident(self.model, t)),
            ..Run::default()
        };
        let key = match get_key(pattern, &values) {
            Ok(k) => k,
            Err(e) => {
                run.request = format!("GetItem {}", pattern.name);
                run.problem = Some(format!("cannot render the key: {e}"));
                return run;
            }
        };
        run.request = format!("GetItem table: {}", Self::describe_key(&key));
        run.expected = self
            .index
            .get(&key)
            .map(|s| oracle::ident(self.model, s))
            .into_iter()
            .collect();
        let lookup = |n: &str| values.get(n).cloned();
        match store_pattern::get(&self.table, self.model, &pattern.name, &lookup).await {
            Ok(item) => {
                run.got = item.iter().map(|i| self.ident_of(i)).collect();
                run.problem = verdict::members(&run.expected, &run.got);
            }
            Err(e) => run.problem = Some(e.to_string()),
        }
        run
    }

    async fn batch_get(&self, pattern: &Pattern, targets: &[&Sample]) -> Run {
        let mut run = Run {
            target: targets.first().map(|t| oracle::ident(self.model, t)),
            ..Run::default()
        };
        let mut keys: Vec<Vec<(String, String)>> = Vec::new();
        let chosen: Vec<Option<&Sample>> = if targets.is_empty() {
            vec![None]
        } else {
            targets.iter().map(|t| Some(*t)).collect()
        };
        for target in chosen {
            let values = self.choose_key(pattern, target);
            match get_key(pattern, &values) {
                Ok(k) if !keys.contains(&k) => keys.push(k),
                Ok(_) => {}
                Err(e) => {
                    run.request = format!("BatchGetItem {}", pattern.name);
                    run.problem = Some(format!("cannot render the key: {e}"));
                    return run;
                }
            }
        }
        run.request = format!(
            "BatchGetItem table: [{}]",
            keys.iter()
                .map(|k| Self::describe_key(k))
                .collect::<Vec<_>>()
                .join("; ")
        );
        run.expected = keys
            .iter()
            .filter_map(|k| self.index.get(k))
            .map(|s| oracle::ident(self.model, s))
            .collect();
        let request_keys: Vec<Item> = keys
            .iter()
            .map(|k| {
                k.iter()
                    .map(|(a, v)| (a.clone(), items::key_value(self.model, a, v.clone())))
                    .collect()
            })
            .collect();
        let got = match self
            .table
            .batch_get_items(request_keys, pattern.consistent_read)
            .await
        {
            Ok(got) => got,
            Err(e) => {
                run.problem = Some(format!("BatchGetItem failed: {e}"));
                return run;
            }
        };
        run.got = got.iter().map(|i| self.ident_of(i)).collect();
        run.got.sort();
        run.expected.sort();
        run.problem = verdict::members(&run.expected, &run.got);
        run
    }

    async fn scan(&self, pattern: &Pattern, shape: &KeyLayout) -> Run {
        let mut run = Run {
            request: format!(
                "Scan {}, pages of {PAGE_SIZE}",
                shape.index.as_deref().unwrap_or("table")
            ),
            ..Run::default()
        };
        run.expected = oracle::scan(&self.data.samples, shape)
            .into_iter()
            .map(|s| oracle::ident(self.model, s))
            .collect();
        let scan = store_pattern::scan(self.model, &pattern.name).map(|scan| {
            scan.limit(usize::try_from(PAGE_SIZE).unwrap_or(1))
                .max_pages(MAX_PAGES)
        });
        let got = match scan {
            Ok(scan) => scan.all(&self.table).await.map_err(|e| match e {
                ScanError::Endless { pages } => {
                    format!("pagination did not end after {pages} pages")
                }
                other => format!("Scan failed: {other}"),
            }),
            Err(e) => Err(e.to_string()),
        };
        let got = got.unwrap_or_else(|problem| {
            run.problem = Some(problem);
            Vec::new()
        });
        run.got = got.iter().map(|i| self.ident_of(i)).collect();
        run.got.sort();
        run.expected.sort();
        if run.problem.is_none() {
            run.problem = verdict::members(&run.expected, &run.got);
        }
        run
    }
}

/// Whether each of `sample`'s key strings that an equality or `begins_with` of `pattern` reads
/// starts with the condition's literal prefix (`begins_with(GSI1SK, PRODUCT#true#)` cannot reach
/// a draft's `PRODUCT#false#...`, whatever the parameters): a target worth taking.
fn starts_as_literals(pattern: &Pattern, sample: &Sample) -> bool {
    params::conditions(pattern)
        .into_iter()
        .all(|c| match &c.condition {
            KeyTest::Eq(t) | KeyTest::BeginsWith(t) => sample
                .key(&c.attribute)
                .is_none_or(|k| k.starts_with(t.literal_prefix())),
            _ => true,
        })
}

/// Whether `sample` holds every literal the pattern's equalities fix on a native index
/// (`kind = "GIFT"`): an item that does not can never be the answer, so it is no target. A
/// synthetic key's literal is part of what the entity writes, and judged by the run itself.
fn holds_literals(model: &Model, pattern: &Pattern, sample: &Sample) -> bool {
    let native = pattern
        .index_name()
        .and_then(|i| model.index(i))
        .is_some_and(|i| i.native);
    !native
        || params::conditions(pattern)
            .into_iter()
            .all(|c| match &c.condition {
                KeyTest::Eq(t) if t.variables().next().is_none() => {
                    let literal = t.render(&|_| None).ok();
                    sample
                        .key(&c.attribute)
                        .is_none_or(|k| literal.as_deref().is_none_or(|l| l == k))
                }
                _ => true,
            })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(keys: &[(&str, &str)]) -> Sample {
        Sample {
            entity: "Product".into(),
            values: BTreeMap::new(),
            keys: keys
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            item: Item::new(),
        }
    }

    #[test]
    fn a_target_starts_as_the_patterns_literals() {
        let model =
            monotable_model::parse(include_str!("../../../examples/shop/shop.toml")).unwrap();
        let by_category = model.pattern("listPublishedProductsByCategory").unwrap();
        let draft = sample(&[("GSI1PK", "CATEGORY#c"), ("GSI1SK", "PRODUCT#false#p1")]);
        let published = sample(&[("GSI1PK", "CATEGORY#c"), ("GSI1SK", "PRODUCT#true#p2")]);
        assert!(!starts_as_literals(by_category, &draft));
        assert!(starts_as_literals(by_category, &published));
        // An equality's literal prefix counts too; a key the sample lacks is left to the run.
        let published_only = model.pattern("listPublishedProducts").unwrap();
        assert!(starts_as_literals(
            published_only,
            &sample(&[("GSI2PK", "PUBLISHED")])
        ));
        assert!(!starts_as_literals(
            published_only,
            &sample(&[("GSI2PK", "DRAFT")])
        ));
        assert!(starts_as_literals(published_only, &draft));
        // A range has no literal to hold.
        let sales = model.pattern("getProductSales").unwrap();
        assert!(starts_as_literals(
            sales,
            &sample(&[("PK", "PRODUCT#p"), ("SK", "SALES#2026-12-02")])
        ));
    }
}
