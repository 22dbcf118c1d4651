//! Loading the samples into the table: 25 items per BatchWriteItem, and, when a batch is
//! refused, its items one by one, so the error names the item DynamoDB refused.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
use monotable_model::Model;

use crate::VerifyError;
use crate::generate::Sample;
use crate::run::typed_keys;
use monotable_access::error::call_text;

/// Items per BatchWriteItem: DynamoDB's maximum.
const BATCH: usize = 25;
/// Rounds of resending unprocessed items before giving up.
const MAX_ROUNDS: usize = 10;

/// Writes every sample into the model's table.
pub(crate) async fn load(
    client: &Client,
    model: &Model,
    samples: &[Sample],
) -> Result<(), VerifyError> {
    for chunk in samples.chunks(BATCH) {
        if batch(client, model, chunk).await.is_err() {
            one_by_one(client, model, chunk).await?;
        }
    }
    Ok(())
}

/// One BatchWriteItem of `chunk`, resending what comes back unprocessed.
async fn batch(client: &Client, model: &Model, chunk: &[Sample]) -> Result<(), String> {
    let mut requests: Vec<WriteRequest> = Vec::with_capacity(chunk.len());
    for sample in chunk {
        let put = PutRequest::builder()
            .set_item(Some(typed_keys(model, &sample.item)))
            .build()
            .map_err(|e| e.to_string())?;
        requests.push(WriteRequest::builder().put_request(put).build());
    }
    for _ in 0..MAX_ROUNDS {
        let out = client
            .batch_write_item()
            .request_items(&model.table.name, requests)
            .send()
            .await
            .map_err(|e| call_text(&e))?;
        requests = out
            .unprocessed_items
            .and_then(|mut u| u.remove(&model.table.name))
            .unwrap_or_default();
        if requests.is_empty() {
            return Ok(());
        }
    }
    Err("items stayed unprocessed".to_string())
}

/// Each sample of `chunk` with its own PutItem; the first refused one is the error.
async fn one_by_one(client: &Client, model: &Model, chunk: &[Sample]) -> Result<(), VerifyError> {
    for sample in chunk {
        client
            .put_item()
            .table_name(&model.table.name)
            .set_item(Some(typed_keys(model, &sample.item)))
            .send()
            .await
            .map_err(|e| VerifyError::Load {
                entity: sample.entity.clone(),
                message: call_text(&e),
            })?;
    }
    Ok(())
}
