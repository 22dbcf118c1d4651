//! What the emulator knows of each table: its key attributes, its global secondary indexes, its
//! billing mode and throughput, read once from the engine's DescribeTable and kept until a
//! control-plane call changes the table.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use dynoxide::Database;
use serde_json::Value;

/// How a table or an index is billed.
#[derive(Debug, Clone, PartialEq)]
pub enum Billing {
    /// Provisioned read and write capacity units per second.
    Provisioned {
        /// RCU/s.
        read: f64,
        /// WCU/s.
        write: f64,
    },
    /// On-demand, with an optional configured maximum of request units per second.
    OnDemand {
        /// MaxReadRequestUnits, when set.
        max_read: Option<f64>,
        /// MaxWriteRequestUnits, when set.
        max_write: Option<f64>,
    },
}

/// A table or one of its global secondary indexes.
#[derive(Debug, Clone)]
pub struct Resource {
    /// The index name; `None` for the table.
    pub index: Option<String>,
    /// Its ARN, as throttling reasons name it.
    pub arn: String,
    /// The partition key attributes: one, or up to four for a multi-attribute index key.
    pub partition_keys: Vec<String>,
    /// The sort key attributes: none, one, or up to four.
    pub sort_keys: Vec<String>,
    /// How it is billed.
    pub billing: Billing,
}

/// One table as the emulator sees it.
#[derive(Debug, Clone)]
pub struct TableInfo {
    /// The table name.
    pub name: String,
    /// The table itself.
    pub table: Resource,
    /// Its global secondary indexes (local ones share the table's partitions and throughput).
    pub indexes: Vec<Resource>,
}

impl TableInfo {
    /// The table (`None`) or one of its global secondary indexes.
    pub fn resource(&self, index: Option<&str>) -> Option<&Resource> {
        match index {
            None => Some(&self.table),
            Some(name) => self
                .indexes
                .iter()
                .find(|r| r.index.as_deref() == Some(name)),
        }
    }

    /// Every key attribute of the table and its indexes, each once.
    pub fn key_attributes(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for r in std::iter::once(&self.table).chain(&self.indexes) {
            for name in r.partition_keys.iter().chain(&r.sort_keys) {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
        names
    }
}

/// The tables seen so far.
#[derive(Debug, Default)]
pub struct Catalog {
    tables: Mutex<HashMap<String, Arc<TableInfo>>>,
}

impl Catalog {
    /// The table named `name`, described on first use; `None` when the engine has no such
    /// table (the request then meets the engine's own error).
    pub fn get(&self, db: &Database, name: &str) -> Option<Arc<TableInfo>> {
        if let Some(info) = self.lock().get(name) {
            return Some(info.clone());
        }
        let info = Arc::new(describe(db, name)?);
        self.lock().insert(name.to_string(), info.clone());
        Some(info)
    }

    /// Forget everything: a table was created, changed or deleted.
    pub fn forget(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<TableInfo>>> {
        self.tables.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The table as the engine stores its definition. Not DescribeTable: that counts the table's
/// items, which on a large table makes the first request after every control-plane change
/// wait for a full count.
pub(crate) fn describe(db: &Database, name: &str) -> Option<TableInfo> {
    let meta = db.get_table_metadata(name).ok()??;
    let parse = |text: Option<&str>| {
        text.and_then(|t| serde_json::from_str::<Value>(t).ok())
            .unwrap_or(Value::Null)
    };
    let description = serde_json::json!({
        "TableName": meta.table_name,
        "TableArn": dynoxide::streams::table_arn(name),
        "KeySchema": parse(Some(&meta.key_schema)),
        "GlobalSecondaryIndexes": parse(meta.gsi_definitions.as_deref()),
        "BillingModeSummary": {
            "BillingMode": meta.billing_mode.as_deref().unwrap_or("PROVISIONED")
        },
        "ProvisionedThroughput": parse(meta.provisioned_throughput.as_deref()),
        "OnDemandThroughput": parse(meta.on_demand_throughput.as_deref()),
    });
    from_description(&description)
}

/// A table's description (DescribeTable's `Table`) as the emulator needs it.
pub fn from_description(table: &Value) -> Option<TableInfo> {
    let name = table["TableName"].as_str()?.to_string();
    let arn = table["TableArn"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| format!("arn:aws:dynamodb:us-east-1:000000000000:table/{name}"));
    let on_demand = table["BillingModeSummary"]["BillingMode"].as_str() == Some("PAY_PER_REQUEST")
        || table["ProvisionedThroughput"]["ReadCapacityUnits"]
            .as_f64()
            .is_none_or(|r| r == 0.0);
    let (partition_keys, sort_keys) = keys(&table["KeySchema"])?;
    let billing = billing(table, on_demand);
    let indexes = table["GlobalSecondaryIndexes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|gsi| {
            let index = gsi["IndexName"].as_str()?.to_string();
            let (partition_keys, sort_keys) = keys(&gsi["KeySchema"])?;
            Some(Resource {
                arn: gsi["IndexArn"]
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("{arn}/index/{index}")),
                index: Some(index),
                partition_keys,
                sort_keys,
                billing: billing_of(gsi, on_demand),
            })
        })
        .collect();
    Some(TableInfo {
        table: Resource {
            index: None,
            arn,
            partition_keys,
            sort_keys,
            billing,
        },
        name,
        indexes,
    })
}

fn billing(table: &Value, on_demand: bool) -> Billing {
    billing_of(table, on_demand)
}

/// The billing of a table or index description; an index of an on-demand table is on-demand.
fn billing_of(resource: &Value, on_demand: bool) -> Billing {
    let units = |v: &Value| v.as_f64().filter(|u| *u > 0.0);
    if on_demand {
        let max = &resource["OnDemandThroughput"];
        return Billing::OnDemand {
            max_read: units(&max["MaxReadRequestUnits"]),
            max_write: units(&max["MaxWriteRequestUnits"]),
        };
    }
    let throughput = &resource["ProvisionedThroughput"];
    Billing::Provisioned {
        read: units(&throughput["ReadCapacityUnits"]).unwrap_or(0.0),
        write: units(&throughput["WriteCapacityUnits"]).unwrap_or(0.0),
    }
}

/// (partition key attributes, sort key attributes) of a `KeySchema`, in order.
fn keys(schema: &Value) -> Option<(Vec<String>, Vec<String>)> {
    let mut hash = Vec::new();
    let mut range = Vec::new();
    for element in schema.as_array()? {
        let name = element["AttributeName"].as_str()?.to_string();
        match element["KeyType"].as_str()? {
            "HASH" => hash.push(name),
            "RANGE" => range.push(name),
            _ => return None,
        }
    }
    (!hash.is_empty()).then_some((hash, range))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_provisioned_table_and_its_index_keep_their_own_throughput() {
        let info = from_description(&json!({
            "TableName": "T",
            "TableArn": "arn:aws:dynamodb:us-east-1:000000000000:table/T",
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
            "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 10},
            "GlobalSecondaryIndexes": [{
                "IndexName": "GSI1",
                "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}],
                "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 2}
            }]
        }))
        .unwrap();
        assert_eq!(
            info.table.billing,
            Billing::Provisioned {
                read: 5.0,
                write: 10.0
            }
        );
        let gsi = info.resource(Some("GSI1")).unwrap();
        assert_eq!(
            gsi.billing,
            Billing::Provisioned {
                read: 1.0,
                write: 2.0
            }
        );
        assert_eq!(
            gsi.arn,
            "arn:aws:dynamodb:us-east-1:000000000000:table/T/index/GSI1"
        );
        assert_eq!(info.key_attributes(), ["PK", "SK", "GSI1PK"]);
    }

    #[test]
    fn a_multi_attribute_index_key_keeps_every_attribute_in_order() {
        let info = from_description(&json!({
            "TableName": "T",
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
            "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST"},
            "GlobalSecondaryIndexes": [{
                "IndexName": "ByRegion",
                "KeySchema": [
                    {"AttributeName": "region", "KeyType": "HASH"},
                    {"AttributeName": "tier", "KeyType": "HASH"},
                    {"AttributeName": "at", "KeyType": "RANGE"}
                ]
            }]
        }))
        .unwrap();
        let gsi = info.resource(Some("ByRegion")).unwrap();
        assert_eq!(gsi.partition_keys, ["region", "tier"]);
        assert_eq!(gsi.sort_keys, ["at"]);
    }

    #[test]
    fn an_on_demand_table_reads_its_configured_maximum() {
        let info = from_description(&json!({
            "TableName": "T",
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
            "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 0},
            "OnDemandThroughput": {"MaxWriteRequestUnits": 100}
        }))
        .unwrap();
        assert_eq!(
            info.table.billing,
            Billing::OnDemand {
                max_read: None,
                max_write: Some(100.0)
            }
        );
    }
}
