//! Loading the samples into the table: 25 items per BatchWriteItem, and, when a batch is
//! refused, its items one by one, so the error names the item DynamoDB refused.

use monotable_access::{PutSpec, Table, UncheckedWrites};
use monotable_model::Model;

use crate::VerifyError;
use crate::generate::Sample;
use crate::keys::typed_keys;

/// Items per BatchWriteItem: DynamoDB's maximum.
const BATCH: usize = 25;

/// Writes every sample into the model's table.
pub(crate) async fn load(
    table: &Table,
    model: &Model,
    samples: &[Sample],
) -> Result<(), VerifyError> {
    for chunk in samples.chunks(BATCH) {
        let items = chunk.iter().map(|s| typed_keys(model, &s.item)).collect();
        if table.batch_put_items(items).await.is_err() {
            one_by_one(table, model, chunk).await?;
        }
    }
    Ok(())
}

/// Each sample of `chunk` with its own PutItem; the first refused one is the error.
async fn one_by_one(table: &Table, model: &Model, chunk: &[Sample]) -> Result<(), VerifyError> {
    let key = model.table_key_names();
    for sample in chunk {
        PutSpec::item(typed_keys(model, &sample.item), &key)
            .send(table)
            .await
            .map_err(|e| VerifyError::Load {
                entity: sample.entity.clone(),
                message: e.to_string(),
            })?;
    }
    Ok(())
}
