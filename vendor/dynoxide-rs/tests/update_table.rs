use dynoxide::Database;
use dynoxide::actions::create_table::CreateTableRequest;
use dynoxide::actions::describe_table::DescribeTableRequest;
use dynoxide::actions::update_table::UpdateTableRequest;
use dynoxide::types::{AttributeDefinition, KeySchemaElement, KeyType, ScalarAttributeType};
use serde_json::json;

fn make_db() -> Database {
    Database::memory().unwrap()
}

fn create_simple_table(db: &Database, name: &str) {
    let req = CreateTableRequest {
        table_name: name.to_string(),
        key_schema: vec![
            KeySchemaElement {
                attribute_name: "PK".to_string(),
                key_type: KeyType::HASH,
            },
            KeySchemaElement {
                attribute_name: "SK".to_string(),
                key_type: KeyType::RANGE,
            },
        ],
        attribute_definitions: vec![
            AttributeDefinition {
                attribute_name: "PK".to_string(),
                attribute_type: ScalarAttributeType::S,
            },
            AttributeDefinition {
                attribute_name: "SK".to_string(),
                attribute_type: ScalarAttributeType::S,
            },
        ],
        ..Default::default()
    };
    db.create_table(req).unwrap();
}

fn put_item(
    db: &Database,
    table: &str,
    pk: &str,
    sk: &str,
    gsi1pk: Option<&str>,
    gsi1sk: Option<&str>,
) {
    let mut item = json!({
        "PK": {"S": pk},
        "SK": {"S": sk},
    });
    if let Some(gpk) = gsi1pk {
        item["GSI1PK"] = json!({"S": gpk});
    }
    if let Some(gsk) = gsi1sk {
        item["GSI1SK"] = json!({"S": gsk});
    }
    let req = serde_json::from_value(json!({
        "TableName": table,
        "Item": item,
    }))
    .unwrap();
    db.put_item(req).unwrap();
}

#[test]
fn test_update_table_create_gsi() {
    let db = make_db();
    create_simple_table(&db, "TestTable");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
            {"AttributeName": "GSI1SK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI1",
                "KeySchema": [
                    {"AttributeName": "GSI1PK", "KeyType": "HASH"},
                    {"AttributeName": "GSI1SK", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();

    let resp = db.update_table(req).unwrap();
    assert_eq!(resp.table_description.table_name, "TestTable");

    let gsis = resp.table_description.global_secondary_indexes.unwrap();
    assert_eq!(gsis.len(), 1);
    assert_eq!(gsis[0].index_name, "GSI1");
    assert_eq!(gsis[0].index_status, "ACTIVE");
}

#[test]
fn test_update_table_create_gsi_requires_key_in_request_attribute_definitions() {
    // A new GSI's key attributes must be declared in the request's own
    // AttributeDefinitions, not merely in the table's stored definitions.
    // Keying a GSI on the table's `PK` while the request declares only the
    // GSI's other key attribute must be rejected. Confirmed against real
    // DynamoDB (eu-west-2).
    let db = make_db();
    create_simple_table(&db, "TestTable");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "GSI1SK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI1",
                "KeySchema": [
                    {"AttributeName": "PK", "KeyType": "HASH"},
                    {"AttributeName": "GSI1SK", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();

    // With fewer definitions in the request than the index has key
    // attributes, DynamoDB gives the generic form (captured eu-west-2 and
    // us-east-1, 2026-10-09, on the same shape).
    let err = db.update_table(req).unwrap_err();
    assert!(
        err.to_string()
            .contains("Invalid KeySchema: Some index key attribute have no definition"),
        "unexpected error: {err}"
    );
}

#[test]
fn test_update_table_create_gsi_on_redeclared_table_attribute_succeeds() {
    // Counterpart to the rejection test: a GSI keyed on the table's own PK is
    // accepted when the request re-declares PK in its AttributeDefinitions, so
    // the fix must not over-reject this legitimate case. Confirmed against real
    // DynamoDB (eu-west-2).
    let db = make_db();
    create_simple_table(&db, "TestTable");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "GSI1SK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI1",
                "KeySchema": [
                    {"AttributeName": "PK", "KeyType": "HASH"},
                    {"AttributeName": "GSI1SK", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();

    let resp = db.update_table(req).unwrap();
    let gsis = resp.table_description.global_secondary_indexes.unwrap();
    assert_eq!(gsis.len(), 1);
    assert_eq!(gsis[0].index_name, "GSI1");
}

#[test]
fn test_update_table_create_gsi_backfills_existing_items() {
    let db = make_db();
    create_simple_table(&db, "TestTable");

    // Put items BEFORE creating the GSI
    put_item(
        &db,
        "TestTable",
        "user#1",
        "profile",
        Some("org#A"),
        Some("user#1"),
    );
    put_item(
        &db,
        "TestTable",
        "user#2",
        "profile",
        Some("org#A"),
        Some("user#2"),
    );
    put_item(
        &db,
        "TestTable",
        "user#3",
        "profile",
        Some("org#B"),
        Some("user#3"),
    );
    // This item lacks GSI keys: should NOT appear in GSI
    put_item(&db, "TestTable", "user#4", "settings", None, None);

    // Now create the GSI
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
            {"AttributeName": "GSI1SK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI1",
                "KeySchema": [
                    {"AttributeName": "GSI1PK", "KeyType": "HASH"},
                    {"AttributeName": "GSI1SK", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();
    db.update_table(req).unwrap();

    // Query the GSI: should find backfilled items
    let query_req = serde_json::from_value(json!({
        "TableName": "TestTable",
        "IndexName": "GSI1",
        "KeyConditionExpression": "GSI1PK = :pk",
        "ExpressionAttributeValues": {":pk": {"S": "org#A"}},
    }))
    .unwrap();
    let resp = db.query(query_req).unwrap();
    assert_eq!(resp.count, 2);

    // Query org#B
    let query_req = serde_json::from_value(json!({
        "TableName": "TestTable",
        "IndexName": "GSI1",
        "KeyConditionExpression": "GSI1PK = :pk",
        "ExpressionAttributeValues": {":pk": {"S": "org#B"}},
    }))
    .unwrap();
    let resp = db.query(query_req).unwrap();
    assert_eq!(resp.count, 1);
}

/// Backfill excludes an item that has the GSI partition key but not its sort key.
#[test]
fn test_update_table_create_gsi_backfill_skips_item_without_sort_key() {
    let db = make_db();
    create_simple_table(&db, "TestTable");

    // Has the GSI partition key but not the sort key: excluded.
    put_item(&db, "TestTable", "user#1", "profile", Some("org#A"), None);
    // Has both GSI keys: included.
    put_item(
        &db,
        "TestTable",
        "user#2",
        "profile",
        Some("org#A"),
        Some("user#2"),
    );

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
            {"AttributeName": "GSI1SK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI1",
                "KeySchema": [
                    {"AttributeName": "GSI1PK", "KeyType": "HASH"},
                    {"AttributeName": "GSI1SK", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();
    db.update_table(req).unwrap();

    let scan_req = serde_json::from_value(json!({
        "TableName": "TestTable",
        "IndexName": "GSI1",
    }))
    .unwrap();
    let resp = db.scan(scan_req).unwrap();
    assert_eq!(resp.count, 1);
}

#[test]
fn test_update_table_delete_gsi() {
    let db = make_db();

    // Create table with a GSI
    let req: CreateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
            {"AttributeName": "GSI1SK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexes": [{
            "IndexName": "GSI1",
            "KeySchema": [
                {"AttributeName": "GSI1PK", "KeyType": "HASH"},
                {"AttributeName": "GSI1SK", "KeyType": "RANGE"},
            ],
            "Projection": {"ProjectionType": "ALL"},
        }]
    }))
    .unwrap();
    db.create_table(req).unwrap();

    // Delete the GSI via UpdateTable
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "GlobalSecondaryIndexUpdates": [{
            "Delete": {"IndexName": "GSI1"}
        }]
    }))
    .unwrap();

    let resp = db.update_table(req).unwrap();
    assert!(resp.table_description.global_secondary_indexes.is_none());

    // Verify GSI query now fails
    let query_req = serde_json::from_value(json!({
        "TableName": "TestTable",
        "IndexName": "GSI1",
        "KeyConditionExpression": "GSI1PK = :pk",
        "ExpressionAttributeValues": {":pk": {"S": "test"}},
    }))
    .unwrap();
    let err = db.query(query_req).unwrap_err();
    assert!(
        err.to_string()
            .contains("does not have the specified index")
    );
}

#[test]
fn test_update_table_create_duplicate_gsi_fails() {
    let db = make_db();

    let req: CreateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexes": [{
            "IndexName": "GSI1",
            "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
        }]
    }))
    .unwrap();
    db.create_table(req).unwrap();

    // Try to create the same GSI again
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI1",
                "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();

    let err = db.update_table(req).unwrap_err();
    assert!(err.to_string().contains("Index already exists"));
}

#[test]
fn test_update_table_delete_nonexistent_gsi_fails() {
    let db = make_db();
    create_simple_table(&db, "TestTable");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "GlobalSecondaryIndexUpdates": [{
            "Delete": {"IndexName": "NonexistentGSI"}
        }]
    }))
    .unwrap();

    let err = db.update_table(req).unwrap_err();
    assert!(
        matches!(
            &err,
            dynoxide::errors::DynoxideError::ResourceNotFoundException(_)
        ),
        "Expected ResourceNotFoundException, got: {:?}",
        err
    );
    assert!(
        err.to_string().contains("Requested resource not found"),
        "Unexpected message: {}",
        err
    );
}

#[test]
fn test_update_table_nonexistent_table_fails() {
    let db = make_db();

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "DoesNotExist",
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI1",
                "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();

    let err = db.update_table(req).unwrap_err();
    assert!(err.to_string().contains("not found"));
}

#[test]
fn test_update_table_create_multiple_gsis_sequentially() {
    let db = make_db();
    create_simple_table(&db, "TestTable");

    // Add GSI1
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI1",
                "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();
    db.update_table(req).unwrap();

    // Add GSI2 in a separate call
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
            {"AttributeName": "GSI2PK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI2",
                "KeySchema": [{"AttributeName": "GSI2PK", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();
    let resp = db.update_table(req).unwrap();

    let gsis = resp.table_description.global_secondary_indexes.unwrap();
    assert_eq!(gsis.len(), 2);
    let names: Vec<&str> = gsis.iter().map(|g| g.index_name.as_str()).collect();
    assert!(names.contains(&"GSI1"));
    assert!(names.contains(&"GSI2"));
}

// Regression test for https://github.com/nubo-db/dynoxide/issues/129.
//
// DynamoDB treats UpdateTable's AttributeDefinitions as a delta: adding a GSI
// only requires the new index's key attributes, and existing definitions (table
// keys, prior GSI keys) are preserved. Passing delta-only attrs on each call
// must not wipe out the definitions declared earlier.
#[test]
fn test_update_table_create_gsi_merges_delta_attribute_definitions() {
    let db = make_db();
    create_simple_table(&db, "TestTable");

    // Add GSI1 passing ONLY the new index's key attributes.
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
            {"AttributeName": "GSI1SK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI1",
                "KeySchema": [
                    {"AttributeName": "GSI1PK", "KeyType": "HASH"},
                    {"AttributeName": "GSI1SK", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();
    db.update_table(req).unwrap();

    // Add GSI2, again passing ONLY the new index's key attributes.
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "GSI2PK", "AttributeType": "S"},
            {"AttributeName": "GSI2SK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI2",
                "KeySchema": [
                    {"AttributeName": "GSI2PK", "KeyType": "HASH"},
                    {"AttributeName": "GSI2SK", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();
    db.update_table(req).unwrap();

    // DescribeTable must report the union of all declared attributes: the table
    // keys plus both GSIs' keys.
    let desc_req = serde_json::from_value(json!({"TableName": "TestTable"})).unwrap();
    let resp = db.describe_table(desc_req).unwrap();
    let names: Vec<&str> = resp
        .table
        .attribute_definitions
        .iter()
        .map(|d| d.attribute_name.as_str())
        .collect();
    for expected in ["PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK"] {
        assert!(
            names.contains(&expected),
            "AttributeDefinitions missing {expected}: got {names:?}"
        );
    }

    // PutItem on the table keys must succeed. Before the fix this failed with
    // "Index key attribute GSI1PK missing from AttributeDefinitions" because the
    // second UpdateTable had replaced the definitions instead of merging them.
    let put_req = serde_json::from_value(json!({
        "TableName": "TestTable",
        "Item": {"PK": {"S": "a"}, "SK": {"S": "b"}},
    }))
    .unwrap();
    db.put_item(put_req)
        .expect("PutItem on table keys should succeed after merging GSI attrs");
}

// Redeclaring an already-defined attribute keeps its existing type. Verified
// against real DynamoDB (eu-west-2): an UpdateTable that adds a GSI while
// redeclaring the table key `PK` with a conflicting type is accepted, and
// DescribeTable still reports `PK` with its original type. AWS ignores the
// incoming type rather than overwriting or rejecting it.
#[test]
fn test_update_table_redeclaring_attribute_keeps_existing_type() {
    let db = make_db();
    create_simple_table(&db, "TestTable");

    // Add a GSI while redeclaring the table key PK as N (its stored type is S).
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "N"},
            {"AttributeName": "gsiPk", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "gsi1",
                "KeySchema": [{"AttributeName": "gsiPk", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();
    db.update_table(req)
        .expect("UpdateTable redeclaring an attribute with a different type should be accepted");

    // PK must retain its original type S; gsiPk is added as S.
    let desc_req = serde_json::from_value(json!({"TableName": "TestTable"})).unwrap();
    let resp = db.describe_table(desc_req).unwrap();
    let pk = resp
        .table
        .attribute_definitions
        .iter()
        .find(|d| d.attribute_name == "PK")
        .expect("PK definition present");
    assert_eq!(
        pk.attribute_type,
        ScalarAttributeType::S,
        "PK must keep its existing type S, not be overwritten by the redeclared N"
    );

    // A PutItem keyed with the original string type still succeeds.
    let put_req = serde_json::from_value(json!({
        "TableName": "TestTable",
        "Item": {"PK": {"S": "a"}, "SK": {"S": "b"}},
    }))
    .unwrap();
    db.put_item(put_req)
        .expect("PutItem with the original key type should still succeed");
}

// Deleting a GSI prunes its now-orphaned key attributes from
// AttributeDefinitions. Verified against real DynamoDB (eu-west-2): after
// deleting the only GSI, DescribeTable reports just the table keys.
#[test]
fn test_update_table_delete_gsi_prunes_orphaned_attributes() {
    let db = make_db();
    let req: CreateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "gsiPk", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexes": [{
            "IndexName": "gsi1",
            "KeySchema": [{"AttributeName": "gsiPk", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
        }]
    }))
    .unwrap();
    db.create_table(req).unwrap();

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "gsi1"}}]
    }))
    .unwrap();
    db.update_table(req).unwrap();

    let desc_req = serde_json::from_value(json!({"TableName": "TestTable"})).unwrap();
    let resp = db.describe_table(desc_req).unwrap();
    let names: Vec<&str> = resp
        .table
        .attribute_definitions
        .iter()
        .map(|d| d.attribute_name.as_str())
        .collect();
    assert!(
        !names.contains(&"gsiPk"),
        "orphaned gsiPk should be pruned after the GSI is deleted: got {names:?}"
    );
    assert!(names.contains(&"PK") && names.contains(&"SK"));
    assert_eq!(names.len(), 2);
}

// An AttributeDefinitions entry used by no key schema is silently dropped, not
// stored and not rejected. Verified against real DynamoDB (eu-west-2).
#[test]
fn test_update_table_drops_unused_attribute_definition() {
    let db = make_db();
    create_simple_table(&db, "TestTable");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "gsiPk", "AttributeType": "S"},
            {"AttributeName": "extraUnused", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "gsi1",
                "KeySchema": [{"AttributeName": "gsiPk", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();
    db.update_table(req)
        .expect("an unused attribute in the delta must not cause an error");

    let desc_req = serde_json::from_value(json!({"TableName": "TestTable"})).unwrap();
    let resp = db.describe_table(desc_req).unwrap();
    let names: Vec<&str> = resp
        .table
        .attribute_definitions
        .iter()
        .map(|d| d.attribute_name.as_str())
        .collect();
    assert!(
        names.contains(&"gsiPk"),
        "the used GSI key should be stored"
    );
    assert!(
        !names.contains(&"extraUnused"),
        "an unused attribute should be dropped, not stored: got {names:?}"
    );
    assert!(names.contains(&"PK") && names.contains(&"SK"));
}

// Reconciliation must not prune attributes still used by an LSI. Delete a GSI
// on a table that also has an LSI and confirm the LSI's key attribute survives
// while the GSI's is pruned.
#[test]
fn test_update_table_delete_gsi_keeps_lsi_attributes() {
    let db = make_db();
    let req: CreateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "lsiSK", "AttributeType": "S"},
            {"AttributeName": "gsiPk", "AttributeType": "S"},
        ],
        "LocalSecondaryIndexes": [{
            "IndexName": "lsi1",
            "KeySchema": [
                {"AttributeName": "PK", "KeyType": "HASH"},
                {"AttributeName": "lsiSK", "KeyType": "RANGE"},
            ],
            "Projection": {"ProjectionType": "ALL"},
        }],
        "GlobalSecondaryIndexes": [{
            "IndexName": "gsi1",
            "KeySchema": [{"AttributeName": "gsiPk", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
        }]
    }))
    .unwrap();
    db.create_table(req).unwrap();

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "gsi1"}}]
    }))
    .unwrap();
    db.update_table(req).unwrap();

    let desc_req = serde_json::from_value(json!({"TableName": "TestTable"})).unwrap();
    let resp = db.describe_table(desc_req).unwrap();
    let names: Vec<&str> = resp
        .table
        .attribute_definitions
        .iter()
        .map(|d| d.attribute_name.as_str())
        .collect();
    assert!(
        names.contains(&"lsiSK"),
        "an LSI key attribute must survive a GSI delete: got {names:?}"
    );
    assert!(
        !names.contains(&"gsiPk"),
        "the deleted GSI's attribute should be pruned: got {names:?}"
    );
    assert!(names.contains(&"PK") && names.contains(&"SK"));
}

// Reconciliation runs on every UpdateTable, so a single-field update that
// touches no indexes must leave AttributeDefinitions (including LSI and GSI key
// attributes) untouched.
#[test]
fn test_update_table_non_index_update_preserves_attribute_definitions() {
    let db = make_db();
    let req: CreateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "lsiSK", "AttributeType": "S"},
            {"AttributeName": "gsiPk", "AttributeType": "S"},
        ],
        "LocalSecondaryIndexes": [{
            "IndexName": "lsi1",
            "KeySchema": [
                {"AttributeName": "PK", "KeyType": "HASH"},
                {"AttributeName": "lsiSK", "KeyType": "RANGE"},
            ],
            "Projection": {"ProjectionType": "ALL"},
        }],
        "GlobalSecondaryIndexes": [{
            "IndexName": "gsi1",
            "KeySchema": [{"AttributeName": "gsiPk", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
        }]
    }))
    .unwrap();
    db.create_table(req).unwrap();

    // A single-field update with no GlobalSecondaryIndexUpdates and no
    // AttributeDefinitions.
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "TableClass": "STANDARD_INFREQUENT_ACCESS",
    }))
    .unwrap();
    db.update_table(req).unwrap();

    let desc_req = serde_json::from_value(json!({"TableName": "TestTable"})).unwrap();
    let resp = db.describe_table(desc_req).unwrap();
    let names: Vec<&str> = resp
        .table
        .attribute_definitions
        .iter()
        .map(|d| d.attribute_name.as_str())
        .collect();
    for expected in ["PK", "SK", "lsiSK", "gsiPk"] {
        assert!(
            names.contains(&expected),
            "{expected} must survive a non-index update: got {names:?}"
        );
    }
    assert_eq!(names.len(), 4);
}

// Deleting one of two GSIs that share a key attribute must keep the shared
// attribute (still used by the survivor) along with the survivor's other keys.
#[test]
fn test_update_table_delete_gsi_keeps_shared_attribute() {
    let db = make_db();
    let req: CreateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "KeySchema": [
            {"AttributeName": "PK", "KeyType": "HASH"},
            {"AttributeName": "SK", "KeyType": "RANGE"},
        ],
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "sharedPk", "AttributeType": "S"},
            {"AttributeName": "gsi2sk", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexes": [
            {
                "IndexName": "gsi1",
                "KeySchema": [{"AttributeName": "sharedPk", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            },
            {
                "IndexName": "gsi2",
                "KeySchema": [
                    {"AttributeName": "sharedPk", "KeyType": "HASH"},
                    {"AttributeName": "gsi2sk", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            }
        ]
    }))
    .unwrap();
    db.create_table(req).unwrap();

    // Delete gsi1; gsi2 still references sharedPk (plus gsi2sk).
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "gsi1"}}]
    }))
    .unwrap();
    db.update_table(req).unwrap();

    let desc_req = serde_json::from_value(json!({"TableName": "TestTable"})).unwrap();
    let resp = db.describe_table(desc_req).unwrap();
    let names: Vec<&str> = resp
        .table
        .attribute_definitions
        .iter()
        .map(|d| d.attribute_name.as_str())
        .collect();
    assert!(
        names.contains(&"sharedPk"),
        "the shared attribute still used by gsi2 must be kept: got {names:?}"
    );
    assert!(
        names.contains(&"gsi2sk"),
        "the surviving gsi2's range key must be kept: got {names:?}"
    );
    assert!(names.contains(&"PK") && names.contains(&"SK"));
    assert_eq!(names.len(), 4);
}

#[test]
fn test_update_table_response_includes_table_description() {
    let db = make_db();
    create_simple_table(&db, "TestTable");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI1",
                "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();

    let resp = db.update_table(req).unwrap();
    let desc = &resp.table_description;

    assert_eq!(desc.table_name, "TestTable");
    assert_eq!(desc.table_status, "ACTIVE");
    assert!(!desc.table_arn.is_empty());
    assert!(desc.key_schema.len() == 2);
    assert!(desc.creation_date_time.is_some());
}

#[test]
fn test_update_table_gsi_projection_types() {
    let db = make_db();
    create_simple_table(&db, "TestTable");

    // Add item before creating GSIs
    put_item(
        &db,
        "TestTable",
        "user#1",
        "profile",
        Some("org#A"),
        Some("user#1"),
    );
    // Also add a non-key attribute
    let req = serde_json::from_value(json!({
        "TableName": "TestTable",
        "Item": {
            "PK": {"S": "user#2"},
            "SK": {"S": "profile"},
            "GSI1PK": {"S": "org#A"},
            "GSI1SK": {"S": "user#2"},
            "email": {"S": "user2@example.com"},
            "name": {"S": "User Two"},
        }
    }))
    .unwrap();
    db.put_item(req).unwrap();

    // Create GSI with KEYS_ONLY projection
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
            {"AttributeName": "GSI1SK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI1",
                "KeySchema": [
                    {"AttributeName": "GSI1PK", "KeyType": "HASH"},
                    {"AttributeName": "GSI1SK", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "KEYS_ONLY"},
            }
        }]
    }))
    .unwrap();
    db.update_table(req).unwrap();

    // Query GSI: should only return key attributes
    let query_req = serde_json::from_value(json!({
        "TableName": "TestTable",
        "IndexName": "GSI1",
        "KeyConditionExpression": "GSI1PK = :pk",
        "ExpressionAttributeValues": {":pk": {"S": "org#A"}},
    }))
    .unwrap();
    let resp = db.query(query_req).unwrap();
    assert_eq!(resp.count, 2);

    // Verify the backfilled items only have key attributes
    let items = resp.items.unwrap();
    for item in &items {
        assert!(item.contains_key("PK"));
        assert!(item.contains_key("SK"));
        assert!(item.contains_key("GSI1PK"));
        assert!(item.contains_key("GSI1SK"));
        // Non-key attributes should NOT be present
        assert!(!item.contains_key("email"));
        assert!(!item.contains_key("name"));
    }
}

#[test]
fn test_update_table_cache_invalidation() {
    let db = make_db();
    create_simple_table(&db, "TestTable");

    // DescribeTable to populate any internal cache
    let desc_req = serde_json::from_value(serde_json::json!({"TableName": "TestTable"})).unwrap();
    let resp = db.describe_table(desc_req).unwrap();
    assert!(resp.table.global_secondary_indexes.is_none());

    // Add a GSI via UpdateTable
    let req: UpdateTableRequest = serde_json::from_value(serde_json::json!({
        "TableName": "TestTable",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{"Create": {
            "IndexName": "GSI1",
            "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
        }}]
    }))
    .unwrap();
    db.update_table(req).unwrap();

    // DescribeTable should reflect the new GSI (not stale cached data)
    let desc_req = serde_json::from_value(serde_json::json!({"TableName": "TestTable"})).unwrap();
    let resp = db.describe_table(desc_req).unwrap();
    let gsis = resp.table.global_secondary_indexes.unwrap();
    assert_eq!(gsis.len(), 1);
    assert_eq!(gsis[0].index_name, "GSI1");
}

fn create_pay_per_request_table(db: &Database, name: &str) {
    let req: CreateTableRequest = serde_json::from_value(json!({
        "TableName": name,
        "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "N"}],
        "BillingMode": "PAY_PER_REQUEST"
    }))
    .unwrap();
    db.create_table(req).unwrap();
}

fn create_provisioned_table(db: &Database, name: &str, rcu: i64, wcu: i64) {
    let req: CreateTableRequest = serde_json::from_value(json!({
        "TableName": name,
        "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"}],
        "ProvisionedThroughput": {
            "ReadCapacityUnits": rcu,
            "WriteCapacityUnits": wcu
        }
    }))
    .unwrap();
    db.create_table(req).unwrap();
}

#[test]
fn test_limit_exceeded_too_many_gsi_updates() {
    let db = make_db();
    create_provisioned_table(&db, "TestTable", 10, 5);

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "GlobalSecondaryIndexUpdates": [
            {"Delete": {"IndexName": "abc"}},
            {"Delete": {"IndexName": "abd"}},
            {"Delete": {"IndexName": "abe"}},
            {"Delete": {"IndexName": "abf"}},
            {"Delete": {"IndexName": "abg"}},
            {"Delete": {"IndexName": "abh"}}
        ]
    }))
    .unwrap();

    let err = db.update_table(req).unwrap_err();
    assert!(
        err.to_string().contains("Subscriber limit exceeded"),
        "Expected LimitExceededException, got: {}",
        err
    );
    assert_eq!(
        err.error_type(),
        "com.amazonaws.dynamodb.v20120810#LimitExceededException"
    );
}

#[test]
fn test_provisioned_without_provisioned_throughput() {
    let db = make_db();
    create_pay_per_request_table(&db, "TestTable");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "BillingMode": "PROVISIONED"
    }))
    .unwrap();

    let err = db.update_table(req).unwrap_err();
    assert!(
        err.to_string()
            .contains("ProvisionedThroughput must be specified when BillingMode is PROVISIONED"),
        "Expected validation about missing PT, got: {}",
        err
    );
}

#[test]
fn test_provisioned_throughput_update_when_pay_per_request() {
    let db = make_db();
    create_pay_per_request_table(&db, "TestTable");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
    }))
    .unwrap();

    let err = db.update_table(req).unwrap_err();
    assert!(
        err.to_string().contains(
            "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST"
        ),
        "Expected PAY_PER_REQUEST validation, got: {}",
        err
    );
}

#[test]
fn test_high_index_capacity_when_index_does_not_exist() {
    let db = make_db();
    create_provisioned_table(&db, "TestTable", 10, 5);

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "GlobalSecondaryIndexUpdates": [{
            "Update": {
                "IndexName": "abc",
                "ProvisionedThroughput": {
                    "ReadCapacityUnits": 1000000000001_i64,
                    "WriteCapacityUnits": 1000000000001_i64
                }
            }
        }]
    }))
    .unwrap();

    let err = db.update_table(req).unwrap_err();
    assert!(
        err.to_string().contains("Action Blocked: IndexUpdate"),
        "Expected Action Blocked error, got: {}",
        err
    );
}

#[test]
fn test_same_read_write_validation() {
    let db = make_db();
    create_provisioned_table(&db, "TestTable", 10, 5);

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 5}
    }))
    .unwrap();

    let err = db.update_table(req).unwrap_err();
    assert!(
        err.to_string()
            .contains("The provisioned throughput for the table will not change"),
        "Expected same-values validation, got: {}",
        err
    );
}

#[test]
fn test_triple_rates_and_reduce() {
    let db = make_db();
    create_provisioned_table(&db, "TestTable", 10, 5);

    // Triple the rates
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "ProvisionedThroughput": {"ReadCapacityUnits": 30, "WriteCapacityUnits": 15}
    }))
    .unwrap();

    let resp = db.update_table(req).unwrap();
    let desc = &resp.table_description;
    assert_eq!(desc.table_status, "UPDATING");

    // Immediate response shows old values
    let pt = desc.provisioned_throughput.as_ref().unwrap();
    assert_eq!(pt.read_capacity_units, 10);
    assert_eq!(pt.write_capacity_units, 5);
    assert!(pt.last_increase_date_time.is_some());

    // DescribeTable should show the new values (we apply instantly)
    let desc_req = serde_json::from_value(serde_json::json!({"TableName": "TestTable"})).unwrap();
    let desc_resp = db.describe_table(desc_req).unwrap();
    let dt = &desc_resp.table;
    let pt2 = dt.provisioned_throughput.as_ref().unwrap();
    assert_eq!(pt2.read_capacity_units, 30);
    assert_eq!(pt2.write_capacity_units, 15);

    // Now reduce back
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 5}
    }))
    .unwrap();

    let resp = db.update_table(req).unwrap();
    let desc = &resp.table_description;
    assert_eq!(desc.table_status, "UPDATING");
    let pt3 = desc.provisioned_throughput.as_ref().unwrap();
    // Shows old values (30/15) while UPDATING
    assert_eq!(pt3.read_capacity_units, 30);
    assert_eq!(pt3.write_capacity_units, 15);
    assert!(pt3.last_decrease_date_time.is_some());

    // After "settling", DescribeTable shows new values
    let desc_req = serde_json::from_value(serde_json::json!({"TableName": "TestTable"})).unwrap();
    let desc_resp = db.describe_table(desc_req).unwrap();
    let pt4 = desc_resp.table.provisioned_throughput.as_ref().unwrap();
    assert_eq!(pt4.read_capacity_units, 10);
    assert_eq!(pt4.write_capacity_units, 5);
    assert_eq!(pt4.number_of_decreases_today, 1);
}

#[test]
fn test_switch_provisioned_to_pay_per_request() {
    let db = make_db();
    create_provisioned_table(&db, "TestTable", 5, 5);

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "BillingMode": "PAY_PER_REQUEST"
    }))
    .unwrap();

    db.update_table(req).unwrap();

    // DescribeTable should reflect PAY_PER_REQUEST
    let desc_req = serde_json::from_value(json!({"TableName": "TestTable"})).unwrap();
    let desc_resp = db.describe_table(desc_req).unwrap();
    let bms = desc_resp
        .table
        .billing_mode_summary
        .as_ref()
        .expect("BillingModeSummary should be present");
    assert_eq!(bms.billing_mode, "PAY_PER_REQUEST");
}

#[test]
fn test_switch_pay_per_request_to_provisioned() {
    let db = make_db();
    create_pay_per_request_table(&db, "TestTable");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "BillingMode": "PROVISIONED",
        "ProvisionedThroughput": {
            "ReadCapacityUnits": 5,
            "WriteCapacityUnits": 5
        }
    }))
    .unwrap();

    db.update_table(req).unwrap();

    // DescribeTable should reflect PROVISIONED with throughput values
    let desc_req = serde_json::from_value(json!({"TableName": "TestTable"})).unwrap();
    let desc_resp = db.describe_table(desc_req).unwrap();
    // BillingModeSummary should be absent for PROVISIONED tables
    assert!(
        desc_resp.table.billing_mode_summary.is_none(),
        "BillingModeSummary should be None for PROVISIONED tables"
    );
    let pt = desc_resp
        .table
        .provisioned_throughput
        .as_ref()
        .expect("ProvisionedThroughput should be present");
    assert_eq!(pt.read_capacity_units, 5);
    assert_eq!(pt.write_capacity_units, 5);
}

#[test]
fn test_reject_pay_per_request_with_provisioned_throughput() {
    let db = make_db();
    create_provisioned_table(&db, "TestTable", 5, 5);

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "BillingMode": "PAY_PER_REQUEST",
        "ProvisionedThroughput": {
            "ReadCapacityUnits": 5,
            "WriteCapacityUnits": 5
        }
    }))
    .unwrap();

    let err = db.update_table(req).unwrap_err();
    assert!(
        err.to_string().contains(
            "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST"
        ),
        "Expected PAY_PER_REQUEST + PT validation, got: {}",
        err
    );
}

#[test]
fn test_reject_invalid_billing_mode() {
    let db = make_db();
    create_provisioned_table(&db, "TestTable", 5, 5);

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "BillingMode": "INVALID_MODE"
    }))
    .unwrap();

    let err = db.update_table(req).unwrap_err();
    assert!(
        err.to_string()
            .contains("failed to satisfy constraint: Member must satisfy enum value set"),
        "Expected enum validation, got: {}",
        err
    );
}

#[test]
fn test_provisioned_to_provisioned_same_throughput_rejected() {
    let db = make_db();
    create_provisioned_table(&db, "TestTable", 5, 5);

    // Explicitly setting BillingMode: PROVISIONED with same throughput should fail
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "BillingMode": "PROVISIONED",
        "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}
    }))
    .unwrap();

    let err = db.update_table(req).unwrap_err();
    assert!(
        err.to_string()
            .contains("The provisioned throughput for the table will not change"),
        "Expected same-values validation, got: {}",
        err
    );
}

#[test]
fn test_provisioned_to_provisioned_different_throughput_accepted() {
    let db = make_db();
    create_provisioned_table(&db, "TestTable", 5, 5);

    // Explicitly setting BillingMode: PROVISIONED with different throughput should succeed
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TestTable",
        "BillingMode": "PROVISIONED",
        "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 5}
    }))
    .unwrap();

    db.update_table(req).unwrap();
}

fn describe(db: &Database, name: &str) -> dynoxide::actions::TableDescription {
    db.describe_table(DescribeTableRequest {
        table_name: name.to_string(),
    })
    .unwrap()
    .table
}

#[test]
fn test_update_table_single_field_table_class() {
    // Issue #45: a lone TableClass change must be accepted and persisted, not
    // rejected with "At least one of ...".
    let db = make_db();
    create_simple_table(&db, "TcTable");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TcTable",
        "TableClass": "STANDARD_INFREQUENT_ACCESS",
    }))
    .unwrap();
    db.update_table(req).unwrap();

    let summary = describe(&db, "TcTable")
        .table_class_summary
        .expect("TableClassSummary should be present after update");
    assert_eq!(summary.table_class, "STANDARD_INFREQUENT_ACCESS");
}

/// Create a PAY_PER_REQUEST table, optionally with initial ceilings.
fn create_on_demand_table(db: &Database, name: &str, odt: Option<(i64, i64)>) {
    create_simple_table(db, name);
    let mut req_json = json!({
        "TableName": name,
        "BillingMode": "PAY_PER_REQUEST",
    });
    if let Some((r, w)) = odt {
        req_json["OnDemandThroughput"] =
            json!({"MaxReadRequestUnits": r, "MaxWriteRequestUnits": w});
    }
    let req: UpdateTableRequest = serde_json::from_value(req_json).unwrap();
    db.update_table(req).unwrap();
}

#[test]
fn test_update_table_single_field_on_demand_throughput() {
    // Issue #45: a lone OnDemandThroughput change must be accepted and
    // persisted, on a table whose billing mode allows one.
    let db = make_db();
    create_on_demand_table(&db, "OdtTable", None);

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "OdtTable",
        "OnDemandThroughput": {"MaxReadRequestUnits": 20, "MaxWriteRequestUnits": 15},
    }))
    .unwrap();
    db.update_table(req).unwrap();

    let odt = describe(&db, "OdtTable")
        .on_demand_throughput
        .expect("OnDemandThroughput should be present after update");
    assert_eq!(odt.max_read_request_units, Some(20));
    assert_eq!(odt.max_write_request_units, Some(15));
}

#[test]
fn test_update_table_rejects_on_demand_throughput_on_provisioned_table() {
    // Captured against real DynamoDB (eu-west-2, 2026-07-24): a lone
    // OnDemandThroughput on a provisioned table is rejected, and the update
    // wording differs from CreateTable's ("the table", no full stop).
    let db = make_db();
    create_simple_table(&db, "OdtGate");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "OdtGate",
        "OnDemandThroughput": {"MaxReadRequestUnits": 10},
    }))
    .unwrap();
    let err = db.update_table(req).unwrap_err();
    assert_eq!(
        err.to_string(),
        "One or more parameter values were invalid: MaxReadRequestUnits for \
         OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED"
    );

    // Switching to PROVISIONED while supplying ceilings is the same rejection.
    let db2 = make_db();
    create_on_demand_table(&db2, "OdtGateSwitch", None);
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "OdtGateSwitch",
        "BillingMode": "PROVISIONED",
        "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
        "OnDemandThroughput": {"MaxWriteRequestUnits": 10},
    }))
    .unwrap();
    let err = db2.update_table(req).unwrap_err();
    assert_eq!(
        err.to_string(),
        "One or more parameter values were invalid: MaxWriteRequestUnits for \
         OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED"
    );
}

#[test]
fn test_update_table_billing_switch_with_on_demand_throughput_allowed() {
    // Captured: switching to PAY_PER_REQUEST and setting ceilings in one
    // request succeeds and applies them.
    let db = make_db();
    create_simple_table(&db, "SwitchSet");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "SwitchSet",
        "BillingMode": "PAY_PER_REQUEST",
        "OnDemandThroughput": {"MaxReadRequestUnits": 10},
    }))
    .unwrap();
    db.update_table(req).unwrap();

    let desc = describe(&db, "SwitchSet");
    assert_eq!(
        desc.billing_mode_summary.unwrap().billing_mode,
        "PAY_PER_REQUEST"
    );
    let odt = desc.on_demand_throughput.unwrap();
    assert_eq!(odt.max_read_request_units, Some(10));
    assert_eq!(odt.max_write_request_units, None);
}

#[test]
fn test_update_table_partial_on_demand_throughput_merges() {
    // Captured: a partial object merges member-wise over the stored ceilings.
    let db = make_db();
    create_on_demand_table(&db, "OdtMerge", Some((20, 15)));

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "OdtMerge",
        "OnDemandThroughput": {"MaxReadRequestUnits": 40},
    }))
    .unwrap();
    db.update_table(req).unwrap();

    let odt = describe(&db, "OdtMerge").on_demand_throughput.unwrap();
    assert_eq!(odt.max_read_request_units, Some(40));
    assert_eq!(odt.max_write_request_units, Some(15));
}

#[test]
fn test_update_table_minus_one_removes_ceiling() {
    // Captured: -1 removes the member. The UpdateTable response echoes the
    // -1, and DescribeTable afterwards omits the member.
    let db = make_db();
    create_on_demand_table(&db, "OdtRemove", Some((20, 15)));

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "OdtRemove",
        "OnDemandThroughput": {"MaxReadRequestUnits": -1},
    }))
    .unwrap();
    let resp = db.update_table(req).unwrap();
    let echoed = resp.table_description.on_demand_throughput.unwrap();
    assert_eq!(echoed.max_read_request_units, Some(-1));
    assert_eq!(echoed.max_write_request_units, Some(15));

    let odt = describe(&db, "OdtRemove").on_demand_throughput.unwrap();
    assert_eq!(odt.max_read_request_units, None);
    assert_eq!(odt.max_write_request_units, Some(15));

    // Removing the last remaining ceiling leaves no OnDemandThroughput at all.
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "OdtRemove",
        "OnDemandThroughput": {"MaxWriteRequestUnits": -1},
    }))
    .unwrap();
    db.update_table(req).unwrap();
    assert!(describe(&db, "OdtRemove").on_demand_throughput.is_none());
}

#[test]
fn test_update_table_on_demand_throughput_out_of_range() {
    // Captured: 0 and anything below -1 are outside the valid range.
    let db = make_db();
    create_on_demand_table(&db, "OdtRange", Some((20, 15)));

    for bad in [0i64, -2] {
        let req: UpdateTableRequest = serde_json::from_value(json!({
            "TableName": "OdtRange",
            "OnDemandThroughput": {"MaxReadRequestUnits": bad},
        }))
        .unwrap();
        let err = db.update_table(req).unwrap_err();
        assert_eq!(
            err.to_string(),
            "One or more parameter values were invalid: Requested MaxReadRequestUnits \
             for OnDemandThroughput for table is outside of valid range",
            "value {bad} should be out of range"
        );
    }
}

#[test]
fn test_update_table_empty_on_demand_throughput_is_no_change() {
    // Real DynamoDB returns InternalFailure for an empty OnDemandThroughput
    // object (captured eu-west-2, 2026-07-24); dynoxide deliberately treats
    // it as absent instead, so a lone {} hits the no-change rejection and
    // slips past no gate.
    let db = make_db();
    create_simple_table(&db, "OdtEmpty");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "OdtEmpty",
        "OnDemandThroughput": {},
    }))
    .unwrap();
    let err = db.update_table(req).unwrap_err();
    assert!(
        err.to_string().starts_with("At least one of"),
        "expected the no-change rejection, got: {err}"
    );
    assert!(describe(&db, "OdtEmpty").on_demand_throughput.is_none());
}

#[test]
fn test_update_table_gate_beats_bounds() {
    // Captured: a PROVISIONED table with an out-of-range member gets the
    // billing-mode gate error, not the range error.
    let db = make_db();
    create_simple_table(&db, "OdtOrder");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "OdtOrder",
        "OnDemandThroughput": {"MaxReadRequestUnits": 0},
    }))
    .unwrap();
    let err = db.update_table(req).unwrap_err();
    assert_eq!(
        err.to_string(),
        "One or more parameter values were invalid: MaxReadRequestUnits for \
         OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED"
    );
}

#[test]
fn test_update_table_minus_one_on_absent_member() {
    // Captured: removing a ceiling that was never set succeeds, the response
    // echoes the -1, and the stored state is unchanged.
    let db = make_db();
    create_on_demand_table(&db, "OdtAbsent", None);
    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "OdtAbsent",
        "OnDemandThroughput": {"MaxWriteRequestUnits": 15},
    }))
    .unwrap();
    db.update_table(req).unwrap();

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "OdtAbsent",
        "OnDemandThroughput": {"MaxReadRequestUnits": -1},
    }))
    .unwrap();
    let resp = db.update_table(req).unwrap();
    let echoed = resp.table_description.on_demand_throughput.unwrap();
    assert_eq!(echoed.max_read_request_units, Some(-1));
    assert_eq!(echoed.max_write_request_units, Some(15));

    let odt = describe(&db, "OdtAbsent").on_demand_throughput.unwrap();
    assert_eq!(odt.max_read_request_units, None);
    assert_eq!(odt.max_write_request_units, Some(15));
}

#[test]
fn test_update_table_switch_to_provisioned_clears_on_demand_throughput() {
    // Captured: switching billing mode to PROVISIONED clears stored ceilings.
    let db = make_db();
    create_on_demand_table(&db, "OdtClear", Some((20, 15)));

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "OdtClear",
        "BillingMode": "PROVISIONED",
        "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
    }))
    .unwrap();
    db.update_table(req).unwrap();

    let desc = describe(&db, "OdtClear");
    assert!(desc.billing_mode_summary.is_none());
    assert!(desc.on_demand_throughput.is_none());
}

#[test]
fn test_update_table_single_field_table_class_with_empty_gsi_updates() {
    // Issue #45 edge: a lone TableClass change paired with an empty
    // GlobalSecondaryIndexUpdates array must still be accepted, not rejected by
    // the "at least one of ..." guard.
    let db = make_db();
    create_simple_table(&db, "TcEmptyGsi");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "TcEmptyGsi",
        "GlobalSecondaryIndexUpdates": [],
        "TableClass": "STANDARD_INFREQUENT_ACCESS",
    }))
    .unwrap();
    db.update_table(req).unwrap();

    let summary = describe(&db, "TcEmptyGsi")
        .table_class_summary
        .expect("TableClassSummary should be present after update");
    assert_eq!(summary.table_class, "STANDARD_INFREQUENT_ACCESS");
}

#[test]
fn test_update_table_empty_request_still_rejected() {
    // Regression: a request that changes nothing must still be rejected.
    let db = make_db();
    create_simple_table(&db, "NoChange");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "NoChange",
        "GlobalSecondaryIndexUpdates": [],
    }))
    .unwrap();
    let err = db
        .update_table(req)
        .expect_err("a no-op UpdateTable must be rejected");
    assert!(
        matches!(err, dynoxide::errors::DynoxideError::ValidationException(_)),
        "expected ValidationException, got: {err:?}"
    );
}

#[test]
fn test_update_table_invalid_table_class_rejected() {
    // Issue #45: an invalid TableClass enum value is a ValidationException.
    let db = make_db();
    create_simple_table(&db, "BadTcTable");

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "BadTcTable",
        "TableClass": "PREMIUM_NONSENSE",
    }))
    .unwrap();
    let err = db
        .update_table(req)
        .expect_err("invalid TableClass must be rejected");
    assert!(
        matches!(err, dynoxide::errors::DynoxideError::ValidationException(_)),
        "expected ValidationException, got: {err:?}"
    );
}

#[test]
fn test_update_table_response_reports_the_table_item_count_and_size() {
    // #217: UpdateTable's TableDescription carries the same ItemCount and
    // TableSizeBytes that DescribeTable reports, not zeros.
    let db = make_db();
    create_simple_table(&db, "SizedUpdate");
    put_item(&db, "SizedUpdate", "a", "1", None, None);
    put_item(&db, "SizedUpdate", "a", "2", Some("g"), None);
    put_item(&db, "SizedUpdate", "b", "1", Some("g"), Some("s"));

    let described = db
        .describe_table(DescribeTableRequest {
            table_name: "SizedUpdate".to_string(),
        })
        .unwrap()
        .table;
    assert_eq!(described.item_count, Some(3));
    assert!(described.table_size_bytes.unwrap() > 0);

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "SizedUpdate",
        "DeletionProtectionEnabled": true,
    }))
    .unwrap();
    let updated = db.update_table(req).unwrap().table_description;

    assert_eq!(updated.item_count, described.item_count);
    assert_eq!(updated.table_size_bytes, described.table_size_bytes);
}

#[test]
fn test_update_table_backfilled_gsi_reports_its_item_count_and_size() {
    // A GSI added to a populated table reports the items its backfill wrote:
    // the two items carrying both of its keys, each PK (2 + 1) + SK (2 + 1) +
    // GSI1PK (6 + 1) + GSI1SK (6 + 1) = 20 bytes under an ALL projection.
    let db = make_db();
    create_simple_table(&db, "Backfilled");
    put_item(&db, "Backfilled", "a", "1", None, None);
    put_item(&db, "Backfilled", "a", "2", Some("g"), Some("s"));
    put_item(&db, "Backfilled", "b", "1", Some("g"), Some("t"));
    put_item(&db, "Backfilled", "b", "2", Some("g"), None);

    let req: UpdateTableRequest = serde_json::from_value(json!({
        "TableName": "Backfilled",
        "AttributeDefinitions": [
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
            {"AttributeName": "GSI1SK", "AttributeType": "S"},
        ],
        "GlobalSecondaryIndexUpdates": [{
            "Create": {
                "IndexName": "GSI1",
                "KeySchema": [
                    {"AttributeName": "GSI1PK", "KeyType": "HASH"},
                    {"AttributeName": "GSI1SK", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            }
        }]
    }))
    .unwrap();
    db.update_table(req).unwrap();

    let gsis = db
        .describe_table(DescribeTableRequest {
            table_name: "Backfilled".to_string(),
        })
        .unwrap()
        .table
        .global_secondary_indexes
        .unwrap();
    assert_eq!(gsis[0].index_name, "GSI1");
    assert_eq!(gsis[0].item_count, Some(2));
    assert_eq!(gsis[0].index_size_bytes, Some(40));
}
