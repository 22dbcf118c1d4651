//! DescribeTable: a table as DynamoDB describes it, as plain data ([`Description`]) that tools
//! compare with the model without touching the SDK's types.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{IndexStatus, KeySchemaElement, KeyType, Projection, TableStatus};

use super::TableCall;
use crate::service::ServiceError;

/// Describing a table failed.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum DescribeTableError {
    /// DynamoDB refused or failed the call.
    #[error(transparent)]
    Call(#[from] TableCall),
}

/// A table as DynamoDB describes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Description {
    /// Key schema: `(attribute, is_hash)` in order.
    pub key: Vec<(String, bool)>,
    /// Declared attribute types (`S`, `N`, `B`).
    pub types: BTreeMap<String, String>,
    /// Secondary indexes.
    pub indexes: Vec<IndexDescription>,
    /// `PAY_PER_REQUEST` or `PROVISIONED`.
    pub billing: String,
    /// The attribute time to live is on for, when on (or turning on): DescribeTable does not say,
    /// [`super::time_to_live`] does.
    pub ttl: Option<String>,
    /// `ACTIVE`, `CREATING`, `UPDATING`...
    pub status: String,
    /// DynamoDB's item count (updated about every six hours).
    pub item_count: Option<i64>,
}

/// One secondary index of a described table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IndexDescription {
    /// Its name.
    pub name: String,
    /// A local secondary index.
    pub local: bool,
    /// Key schema: `(attribute, is_hash)` in order.
    pub key: Vec<(String, bool)>,
    /// `ALL`, `KEYS_ONLY` or `INCLUDE`.
    pub projection: String,
    /// The attributes an `INCLUDE` projection adds.
    pub non_key: Vec<String>,
    /// `ACTIVE`, `CREATING`...; `None` for a local index, which has none.
    pub status: Option<String>,
}

impl Description {
    /// The index named `name`.
    pub fn index(&self, name: &str) -> Option<&IndexDescription> {
        self.indexes.iter().find(|i| i.name == name)
    }

    /// Whether the table and every global index on it are ACTIVE.
    pub fn is_active(&self) -> bool {
        self.status == TableStatus::Active.as_str()
            && self.indexes.iter().all(|i| {
                i.status
                    .as_deref()
                    .is_none_or(|s| s == IndexStatus::Active.as_str())
            })
    }
}

/// `table` as DynamoDB describes it; `None` when it does not exist.
pub async fn describe(
    client: &Client,
    table: &str,
) -> Result<Option<Description>, DescribeTableError> {
    match call(client, table).await {
        Ok(described) => Ok(Some(described)),
        Err(TableCall {
            error: ServiceError::TableMissing { .. },
            ..
        }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The one DescribeTable call.
pub(crate) async fn call(client: &Client, table: &str) -> Result<Description, TableCall> {
    let out = client
        .describe_table()
        .table_name(table)
        .send()
        .await
        .map_err(|e| TableCall::new("DescribeTable", table, &e))?;
    Ok(out.table.as_ref().map(plain).unwrap_or_default())
}

fn key_of(schema: &[KeySchemaElement]) -> Vec<(String, bool)> {
    schema
        .iter()
        .map(|k| {
            (
                k.attribute_name().to_string(),
                *k.key_type() == KeyType::Hash,
            )
        })
        .collect()
}

fn projection_of(p: Option<&Projection>) -> (String, Vec<String>) {
    let kind = p
        .and_then(|p| p.projection_type())
        .map_or("ALL", |t| t.as_str())
        .to_string();
    let non_key = p
        .map(|p| p.non_key_attributes().to_vec())
        .unwrap_or_default();
    (kind, non_key)
}

fn plain(t: &aws_sdk_dynamodb::types::TableDescription) -> Description {
    let mut indexes = Vec::new();
    for g in t.global_secondary_indexes() {
        let (projection, non_key) = projection_of(g.projection());
        indexes.push(IndexDescription {
            name: g.index_name().unwrap_or_default().to_string(),
            local: false,
            key: key_of(g.key_schema()),
            projection,
            non_key,
            status: g.index_status().map(|s| s.as_str().to_string()),
        });
    }
    for l in t.local_secondary_indexes() {
        let (projection, non_key) = projection_of(l.projection());
        indexes.push(IndexDescription {
            name: l.index_name().unwrap_or_default().to_string(),
            local: true,
            key: key_of(l.key_schema()),
            projection,
            non_key,
            status: None,
        });
    }
    Description {
        key: key_of(t.key_schema()),
        types: t
            .attribute_definitions()
            .iter()
            .map(|a| {
                let ty = a.attribute_type().as_str().to_string();
                (a.attribute_name().to_string(), ty)
            })
            .collect(),
        indexes,
        // A table that was always provisioned has no summary.
        billing: t
            .billing_mode_summary()
            .and_then(|b| b.billing_mode())
            .map_or("PROVISIONED", |m| m.as_str())
            .to_string(),
        ttl: None,
        status: t
            .table_status()
            .map(|s| s.as_str().to_string())
            .unwrap_or_default(),
        item_count: t.item_count(),
    }
}
