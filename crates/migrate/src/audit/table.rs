//! The table's own description against the CreateTable the model implies: key schema and
//! types, each index's kind, key schema and projection, indexes the model lacks, time to live
//! and billing mode. DescribeTable and DescribeTimeToLive, then a pure comparison.

use aws_sdk_dynamodb::Client;
use monotable_access::table::{self as store_table, Description, IndexDescription};
use monotable_model::definition::{SecondaryIndex, TableDefinition, scalar_type};
use monotable_model::{Model, table_definition};

use super::AuditError;
use monotable_access::conform::{Code, Finding};

/// Describes `table` and its time to live; `None` when it does not exist.
pub(crate) async fn describe(
    client: &Client,
    table: &str,
) -> Result<Option<Description>, AuditError> {
    let Some(mut described) = store_table::describe(client, table).await? else {
        return Ok(None);
    };
    described.ttl = store_table::time_to_live(client, table).await?;
    Ok(Some(described))
}

/// `PK (HASH), SK (RANGE)`.
fn schema_text<'a>(key: impl Iterator<Item = (&'a str, bool)>) -> String {
    let parts: Vec<String> = key
        .map(|(name, hash)| format!("{name} ({})", if hash { "HASH" } else { "RANGE" }))
        .collect();
    parts.join(", ")
}

fn found_key(key: &[(String, bool)]) -> impl Iterator<Item = (&str, bool)> {
    key.iter().map(|(n, h)| (n.as_str(), *h))
}

/// The finding that `table` does not exist.
pub(crate) fn missing_table(model: &Model, table: &str) -> Finding {
    Finding::new(
        Code::TableMissing,
        format!("table `{table}` does not exist"),
    )
    .span(model.table.span.clone())
    .label("the table this model describes")
    .help(
        "create it from the model: `monotable export MODEL --format create-table` is its \
             CreateTable input",
    )
}

/// Every way the described table differs from the model's.
pub(crate) fn compare(model: &Model, table: &str, found: &Description) -> Vec<Finding> {
    let wanted = table_definition(model);
    let mut out = table_key(model, table, &wanted, found);
    let indexes = wanted
        .global_secondary_indexes
        .iter()
        .map(|i| (i, false))
        .chain(wanted.local_secondary_indexes.iter().map(|i| (i, true)));
    for (index, local) in indexes {
        out.extend(index_findings(model, table, &wanted, found, index, local));
    }
    out.extend(undeclared(model, table, &wanted, found));
    out.extend(ttl(model, table, &wanted, found));
    out.extend(billing(model, table, &wanted, found));
    out
}

fn wanted_type(wanted: &TableDefinition, name: &str) -> &'static str {
    wanted
        .attribute_definitions
        .iter()
        .find(|a| a.name == name)
        .map_or("S", |a| scalar_type(a.ty))
}

/// Key attributes declared with another type than the model's.
fn type_findings<'a>(
    wanted: &TableDefinition,
    found: &Description,
    names: impl Iterator<Item = &'a str>,
    what: &str,
    code: Code,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for name in names {
        let want = wanted_type(wanted, name);
        match found.types.get(name) {
            Some(ty) if ty != want => out.push(
                Finding::new(
                    code,
                    format!("key attribute `{name}` of {what} is {ty}, the model says {want}"),
                )
                .attribute(name)
                .found_expected(Some(ty.clone()), Some(want.to_string())),
            ),
            _ => {}
        }
    }
    out
}

fn table_key(
    model: &Model,
    table: &str,
    wanted: &TableDefinition,
    found: &Description,
) -> Vec<Finding> {
    let want = schema_text(wanted.key_schema.elements());
    let have = schema_text(found_key(&found.key));
    let mut out = Vec::new();
    if want != have {
        out.push(
            Finding::new(
                Code::TableKeySchema,
                format!("table `{table}` has key schema {have}, the model says {want}"),
            )
            .found_expected(Some(have), Some(want)),
        );
    }
    let names = wanted.key_schema.elements().map(|(n, _)| n);
    let what = format!("table `{table}`");
    out.extend(type_findings(
        wanted,
        found,
        names,
        &what,
        Code::TableKeySchema,
    ));
    out.into_iter()
        .map(|f| {
            f.span(model.table.span.clone())
                .help("a table's key cannot change: create a table with the model's key and copy the items")
        })
        .collect()
}

fn kind(local: bool) -> &'static str {
    if local { "local" } else { "global" }
}

fn index_findings(
    model: &Model,
    table: &str,
    wanted: &TableDefinition,
    found: &Description,
    index: &SecondaryIndex,
    local: bool,
) -> Vec<Finding> {
    let span = model
        .index(&index.name)
        .map_or_else(|| model.table.span.clone(), |i| i.span.clone());
    let Some(have) = found.indexes.iter().find(|i| i.name == index.name) else {
        return vec![missing_index(table, index, local).span(span)];
    };
    let mut out = shape(index, have, local);
    // The table's own key attributes (a local index's partition key) are MA002's.
    let table_key: Vec<&str> = wanted.key_schema.elements().map(|(n, _)| n).collect();
    let names = index
        .key_schema
        .elements()
        .map(|(n, _)| n)
        .filter(|n| !table_key.contains(n));
    let what = format!("index `{}`", index.name);
    out.extend(type_findings(
        wanted,
        found,
        names,
        &what,
        Code::IndexKeySchema,
    ));
    out.extend(projection(index, have));
    out.into_iter()
        .map(|f| f.attribute(&index.name).span(span.clone()))
        .collect()
}

fn missing_index(table: &str, index: &SecondaryIndex, local: bool) -> Finding {
    let help = if local {
        "a local index is made only with its table: create a table with it and copy the items"
    } else {
        "create it with UpdateTable; DynamoDB backfills it from the items"
    };
    Finding::new(
        Code::IndexMissing,
        format!(
            "table `{table}` has no {} index `{}`",
            kind(local),
            index.name
        ),
    )
    .attribute(&index.name)
    .label("not on the table")
    .note("queries on it fail with a ValidationException")
    .help(help)
}

/// The index's kind and key schema, when they differ.
fn shape(index: &SecondaryIndex, have: &IndexDescription, local: bool) -> Vec<Finding> {
    let name = &index.name;
    let mut out = Vec::new();
    if have.local != local {
        let (found, want) = (kind(have.local), kind(local));
        out.push(
            Finding::new(
                Code::IndexKeySchema,
                format!("index `{name}` is {found} on the table, the model says {want}"),
            )
            .found_expected(Some(found.into()), Some(want.into())),
        );
    }
    let want_key = schema_text(index.key_schema.elements());
    let have_key = schema_text(found_key(&have.key));
    if want_key != have_key {
        out.push(
            Finding::new(
                Code::IndexKeySchema,
                format!("index `{name}` has key schema {have_key}, the model says {want_key}"),
            )
            .found_expected(Some(have_key), Some(want_key)),
        );
    }
    out
}

fn projection_text(kind: &str, non_key: &[String]) -> String {
    if kind == "INCLUDE" {
        format!("INCLUDE [{}]", non_key.join(", "))
    } else {
        kind.to_string()
    }
}

fn projection(index: &SecondaryIndex, have: &IndexDescription) -> Option<Finding> {
    let want_kind = index.projection.projection_type();
    let mut want_attrs = index
        .projection
        .non_key_attributes()
        .map(<[String]>::to_vec)
        .unwrap_or_default();
    want_attrs.sort();
    let mut have_attrs = have.non_key.clone();
    have_attrs.sort();
    let want = projection_text(want_kind, &want_attrs);
    let found = projection_text(&have.projection, &have_attrs);
    (want != found).then(|| {
        Finding::new(
            Code::IndexProjection,
            format!(
                "index `{}` projects {found}, the model says {want}",
                index.name
            ),
        )
        .found_expected(Some(found), Some(want))
        .note("a query reading an attribute the index does not project gets the item without it")
        .help("a projection cannot change in place: delete the index and create it again")
    })
}

fn undeclared(
    model: &Model,
    table: &str,
    wanted: &TableDefinition,
    found: &Description,
) -> Vec<Finding> {
    let declared = |name: &str| {
        wanted
            .global_secondary_indexes
            .iter()
            .chain(&wanted.local_secondary_indexes)
            .any(|i| i.name == name)
    };
    found
        .indexes
        .iter()
        .filter(|i| !declared(&i.name))
        .map(|i| {
            Finding::new(
                Code::IndexUndeclared,
                format!(
                    "table `{table}` has index `{}`, which the model does not declare",
                    i.name
                ),
            )
            .attribute(&i.name)
            .span(model.table.span.clone())
            .note("every write to an item it keys costs capacity on it too")
            .help("declare it in the model, or delete it from the table")
        })
        .collect()
}

fn ttl(
    model: &Model,
    table: &str,
    wanted: &TableDefinition,
    found: &Description,
) -> Option<Finding> {
    let (message, help) = match (&wanted.ttl_attribute, &found.ttl) {
        (Some(want), None) => (
            format!("time to live is off on table `{table}`; the model expires items by `{want}`"),
            format!("turn it on: UpdateTimeToLive with attribute `{want}`"),
        ),
        (Some(want), Some(have)) if want != have => (
            format!("time to live on table `{table}` reads `{have}`, the model says `{want}`"),
            format!("turn it off, then on with attribute `{want}` (one change per hour)"),
        ),
        (None, Some(have)) => (
            format!(
                "time to live on table `{table}` reads `{have}`; the model has no ttl_attribute"
            ),
            format!("declare `ttl_attribute = \"{have}\"` in the model, or turn it off"),
        ),
        _ => return None,
    };
    Some(
        Finding::new(Code::TimeToLive, message)
            .found_expected(found.ttl.clone(), wanted.ttl_attribute.clone())
            .span(model.table.span.clone())
            .help(help),
    )
}

fn billing(
    model: &Model,
    table: &str,
    wanted: &TableDefinition,
    found: &Description,
) -> Option<Finding> {
    let want = wanted.billing.mode();
    (found.billing != want).then(|| {
        Finding::new(
            Code::BillingMode,
            format!(
                "table `{table}` is billed {}, the model says {want}",
                found.billing
            ),
        )
        .found_expected(Some(found.billing.clone()), Some(want.to_string()))
        .span(model.table.span.clone())
        .help(format!(
            "switch it with UpdateTable BillingMode={want}, or change the model"
        ))
    })
}

/// The description of the table the model implies, as DynamoDB would give it (for tests).
#[cfg(test)]
pub(crate) fn as_described(model: &Model) -> Description {
    let wanted = table_definition(model);
    let key = |k: &monotable_model::definition::KeySchema| {
        k.elements()
            .map(|(n, h)| (n.to_string(), h))
            .collect::<Vec<_>>()
    };
    let index = |i: &SecondaryIndex, local: bool| IndexDescription {
        name: i.name.clone(),
        local,
        key: key(&i.key_schema),
        projection: i.projection.projection_type().to_string(),
        non_key: i
            .projection
            .non_key_attributes()
            .map(<[String]>::to_vec)
            .unwrap_or_default(),
        status: (!local).then(|| "ACTIVE".to_string()),
    };
    Description {
        key: key(&wanted.key_schema),
        types: wanted
            .attribute_definitions
            .iter()
            .map(|a| (a.name.clone(), scalar_type(a.ty).to_string()))
            .collect(),
        indexes: wanted
            .global_secondary_indexes
            .iter()
            .map(|i| index(i, false))
            .chain(
                wanted
                    .local_secondary_indexes
                    .iter()
                    .map(|i| index(i, true)),
            )
            .collect(),
        billing: wanted.billing.mode().to_string(),
        ttl: wanted.ttl_attribute.clone(),
        status: "ACTIVE".to_string(),
        item_count: None,
    }
}

#[cfg(test)]
mod tests;
