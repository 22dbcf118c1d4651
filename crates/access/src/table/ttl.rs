//! UpdateTimeToLive and DescribeTimeToLive: which attribute expires items.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{TimeToLiveSpecification, TimeToLiveStatus};
use monotable_model::Model;

use super::TableCall;

/// Reading or setting time to live failed.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum TtlError {
    /// DynamoDB refused or failed the call.
    #[error(transparent)]
    Call(#[from] TableCall),
}

/// Turns TTL off on `from` (when set) and on for the model's TTL attribute (when it has one).
pub async fn update_ttl(
    client: &Client,
    model: &Model,
    from: Option<&str>,
) -> Result<(), TtlError> {
    let table = &model.table.name;
    if let Some(old) = from {
        set(client, table, old, false).await?;
    }
    if let Some(attribute) = &model.table.ttl_attribute {
        set(client, table, attribute, true).await?;
    }
    Ok(())
}

/// The one UpdateTimeToLive call: expiry by `attribute` on or off.
pub(super) async fn set(
    client: &Client,
    table: &str,
    attribute: &str,
    enabled: bool,
) -> Result<(), TableCall> {
    let specification = TimeToLiveSpecification::builder()
        .attribute_name(attribute)
        .enabled(enabled)
        .build()
        .map_err(|e| TableCall::unbuilt("UpdateTimeToLive", table, &e))?;
    client
        .update_time_to_live()
        .table_name(table)
        .time_to_live_specification(specification)
        .send()
        .await
        .map_err(|e| TableCall::new("UpdateTimeToLive", table, &e))?;
    Ok(())
}

/// The attribute time to live is on for (or turning on for); `None` when it is off. The one
/// DescribeTimeToLive call.
pub async fn time_to_live(client: &Client, table: &str) -> Result<Option<String>, TtlError> {
    let out = client
        .describe_time_to_live()
        .table_name(table)
        .send()
        .await
        .map_err(|e| TableCall::new("DescribeTimeToLive", table, &e))?;
    Ok(out.time_to_live_description().and_then(|d| {
        let on = matches!(
            d.time_to_live_status(),
            Some(TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling)
        );
        d.attribute_name().filter(|_| on).map(str::to_string)
    }))
}
