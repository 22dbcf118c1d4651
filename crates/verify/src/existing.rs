//! Items already in a table as samples: what `verify --table` runs the patterns over, each item
//! turned into exactly the [`Sample`] the generator makes for it.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::Client;
use monotable_access::Table;
use monotable_access::items::{self, Item};
use monotable_access::scan::{FULL_SCAN_PAGE, Scan};
use monotable_access::value::{key_text, template_text};
use monotable_model::{Entity, Model};

use crate::VerifyError;
use crate::generate::{Dataset, Sample, native_key_attributes};
use crate::report::Source;

pub use monotable_access::items::MIGRATION_ENTITY;

impl Dataset {
    /// The samples of `items` read from the model's table: each item's entity from its
    /// `entityType`, its `values` (every scalar attribute its entity declares, as key templates
    /// see it), its `keys` (the table's and each synthetic index's key attributes it holds, and
    /// the attributes of the native indexes its entity can be in). Items of an entity the model
    /// does not declare, or without one, are skipped with a warning; a migration's checkpoint
    /// item ([`MIGRATION_ENTITY`]) silently.
    pub fn from_items(model: &Model, items: Vec<Item>) -> Dataset {
        let mut data = Dataset {
            source: Source::Table,
            ..Dataset::default()
        };
        let mut skipped: BTreeMap<Option<String>, (usize, String)> = BTreeMap::new();
        for item in items {
            let entity = items::entity_type(&item);
            match entity.and_then(|name| model.entity(name)) {
                Some(e) => data.samples.push(sample(model, e, item)),
                None if entity == Some(MIGRATION_ENTITY) => {}
                None => {
                    let slot = skipped
                        .entry(entity.map(str::to_string))
                        .or_insert_with(|| (0, primary_key(model, &item)));
                    slot.0 += 1;
                }
            }
        }
        data.warnings = skipped
            .into_iter()
            .map(|(entity, (count, first))| skip_warning(entity.as_deref(), count, &first))
            .collect();
        data
    }
}

/// The sample of `item`, an item of `entity`.
pub fn sample(model: &Model, entity: &Entity, item: Item) -> Sample {
    let values: BTreeMap<String, String> = entity
        .attributes
        .iter()
        .filter_map(|a| {
            let text = item.get(&a.name).and_then(template_text)?;
            Some((a.name.clone(), text))
        })
        .collect();
    let mut keys: BTreeMap<String, String> = synthetic_key_names(model)
        .into_iter()
        .filter_map(|name| {
            let text = item.get(name).and_then(key_text)?;
            Some((name.to_string(), text))
        })
        .collect();
    for name in native_key_attributes(model, entity) {
        if let Some(text) = values.get(name) {
            keys.insert(name.to_string(), text.clone());
        }
    }
    Sample {
        entity: entity.name.clone(),
        values,
        keys,
        item,
    }
}

/// The key attributes whose values the application renders from templates: the table's, and
/// those of every index that is not native.
fn synthetic_key_names(model: &Model) -> Vec<&str> {
    let mut names = vec![model.table.partition_key.name.as_str()];
    names.extend(model.table.sort_key.as_ref().map(|k| k.name.as_str()));
    for index in model.indexes.iter().filter(|i| !i.native) {
        names.extend(index.key_attributes().map(|k| k.name.as_str()));
    }
    names.sort_unstable();
    names.dedup();
    names
}

/// `PK = "...", SK = "..."` of `item`, for a warning.
fn primary_key(model: &Model, item: &Item) -> String {
    let table = &model.table;
    std::iter::once(&table.partition_key)
        .chain(table.sort_key.as_ref())
        .map(|k| {
            let text = item.get(&k.name).and_then(key_text);
            format!("{} = {:?}", k.name, text.unwrap_or_default())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn skip_warning(entity: Option<&str>, count: usize, first: &str) -> String {
    let items = if count == 1 { "item" } else { "items" };
    match entity {
        Some(e) => format!(
            "skipped {count} {items} of entity type `{e}`, which the model does not declare (the first: {first})"
        ),
        None => format!(
            "skipped {count} {items} without a string `{}` (the first: {first})",
            items::ENTITY_TYPE
        ),
    }
}

/// Every item of `table`, read with strongly consistent Scans to the end.
pub async fn scan_all(client: &Client, table: &str) -> Result<Vec<Item>, VerifyError> {
    Scan::new()
        .consistent(true)
        .limit(FULL_SCAN_PAGE)
        .all(&Table::new(client.clone(), table))
        .await
        .map_err(|source| VerifyError::Scan {
            table: table.to_string(),
            source,
        })
}

#[cfg(test)]
mod tests;
