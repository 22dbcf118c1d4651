//! The online steps of a plan: indexes created, recreated and (when confirmed) deleted, the
//! billing mode and TTL set. Each looks at the table first, so a resumed migration skips what
//! an earlier run did.

use aws_sdk_dynamodb::Client;
use monotable_access::table::{self, Description};
use monotable_model::Model;
use monotable_model::definition::table_definition;

use super::{ApplyError, Job, Step};
use crate::diff::Change;

/// The table as DynamoDB describes it now.
pub(crate) async fn describe(client: &Client, name: &str) -> Result<Description, ApplyError> {
    table::describe(client, name)
        .await?
        .ok_or_else(|| ApplyError::NoTable(name.to_string()))
}

/// The key schema of global index `name` as the table has it, `(attribute, is_hash)`.
fn live_schema<'d>(described: &'d Description, name: &str) -> Option<&'d [(String, bool)]> {
    described
        .index(name)
        .filter(|i| !i.local)
        .map(|i| i.key.as_slice())
}

/// Whether the table's index `name` has the key schema `model` gives it.
fn matches_model(described: &Description, model: &Model, name: &str) -> bool {
    let definition = table_definition(model);
    let Some(wanted) = definition
        .global_secondary_indexes
        .iter()
        .find(|i| i.name == name)
    else {
        return false;
    };
    let wanted: Vec<(String, bool)> = wanted
        .key_schema
        .elements()
        .map(|(k, hash)| (k.to_string(), hash))
        .collect();
    live_schema(described, name).is_some_and(|live| live == wanted.as_slice())
}

fn step(what: String, status: &str) -> Step {
    Step {
        what,
        status: status.to_string(),
    }
}

/// Steps before the scan: recreated indexes deleted, new ones created, billing and TTL set.
pub(crate) async fn before_scan(job: &Job<'_>) -> Result<Vec<Step>, ApplyError> {
    let (client, new, diff, options) = (job.client, job.new, job.diff, job.options);
    let name = &new.table.name;
    let mut steps = Vec::new();
    let run = options.apply;
    for change in &diff.changes {
        let described = describe(client, name).await?;
        match change {
            Change::RecreateIndex { index, .. } | Change::CreateIndex { index, .. } => {
                let what = format!("create index {index}");
                if matches_model(&described, new, index) {
                    steps.push(step(what, "already there"));
                    continue;
                }
                if live_schema(&described, index).is_some() {
                    if run {
                        table::delete_index(client, name, index).await?;
                    }
                    steps.push(step(
                        format!("delete index {index} (its key changes)"),
                        done(run),
                    ));
                }
                if run {
                    table::create_index(client, new, index).await?;
                }
                steps.push(step(what, done(run)));
            }
            Change::Billing { to, .. } => {
                if described.billing == *to {
                    steps.push(step(format!("billing mode {to}"), "already there"));
                } else {
                    if run {
                        table::update_billing(client, new).await?;
                    }
                    steps.push(step(format!("billing mode {to}"), done(run)));
                }
            }
            Change::Ttl { from, to } => {
                if run {
                    table::update_ttl(client, new, from.as_deref()).await?;
                }
                let to = to.as_deref().unwrap_or("off");
                steps.push(step(format!("TTL attribute {to}"), done(run)));
            }
            _ => {}
        }
    }
    Ok(steps)
}

fn done(run: bool) -> &'static str {
    if run { "done" } else { "would do" }
}

/// Steps after the scan: indexes NEW drops, deleted only with `--remove-indexes`.
pub(crate) async fn after_scan(job: &Job<'_>) -> Result<Vec<Step>, ApplyError> {
    let (client, new, diff, options) = (job.client, job.new, job.diff, job.options);
    let name = &new.table.name;
    let mut steps = Vec::new();
    for change in &diff.changes {
        let Change::DeleteIndex { index } = change else {
            continue;
        };
        let what = format!("delete index {index}");
        let described = describe(client, name).await?;
        if live_schema(&described, index).is_none() {
            steps.push(step(what, "already gone"));
        } else if !options.remove_indexes {
            steps.push(step(what, "not confirmed: run again with --remove-indexes"));
        } else if options.apply {
            table::delete_index(client, name, index).await?;
            steps.push(step(what, "done"));
        } else {
            steps.push(step(what, "would do"));
        }
    }
    Ok(steps)
}
