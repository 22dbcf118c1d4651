//! The engine's typed call for a request decoded beforehand: what the engine does for a request
//! with no JSON on either side and no SDK. The benches' floor ("the same request sent to the
//! engine directly"): decode before the timer, time [`Decoded::run`].

use dynoxide::DynoxideError;
use dynoxide::actions::{
    batch_write_item::BatchWriteItemRequest, get_item::GetItemRequest, put_item::PutItemRequest,
    query::QueryRequest, transact_write_items::TransactWriteItemsRequest,
    update_item::UpdateItemRequest,
};

use crate::dispatch::TARGET_PREFIX;
use crate::engine::Engine;

/// One request in the engine's typed form.
#[derive(Debug)]
pub enum Decoded {
    GetItem(GetItemRequest),
    PutItem(PutItemRequest),
    Query(QueryRequest),
    UpdateItem(UpdateItemRequest),
    BatchWriteItem(BatchWriteItemRequest),
    TransactWriteItems(TransactWriteItemsRequest),
}

/// Why a request could not be decoded.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    #[error("`{0}` is not an operation this module decodes")]
    Operation(String),
    #[error("the request body is not the operation's JSON: {0}")]
    Body(#[from] serde_json::Error),
}

impl Decoded {
    /// Decode `body` for `target` (a whole `x-amz-target`, or the bare operation name).
    pub fn decode(target: &str, body: &[u8]) -> Result<Decoded, DecodeError> {
        let operation = target.strip_prefix(TARGET_PREFIX).unwrap_or(target);
        Ok(match operation {
            "GetItem" => Decoded::GetItem(serde_json::from_slice(body)?),
            "PutItem" => Decoded::PutItem(serde_json::from_slice(body)?),
            "Query" => Decoded::Query(serde_json::from_slice(body)?),
            "UpdateItem" => Decoded::UpdateItem(serde_json::from_slice(body)?),
            "BatchWriteItem" => Decoded::BatchWriteItem(serde_json::from_slice(body)?),
            "TransactWriteItems" => Decoded::TransactWriteItems(serde_json::from_slice(body)?),
            other => return Err(DecodeError::Operation(other.to_string())),
        })
    }

    /// Run it on `engine`: the items it returned (GetItem: 0 or 1; Query: the page), 0 for a
    /// write. The response is dropped inside the call, as a caller's would be.
    pub fn run(self, engine: &Engine) -> Result<usize, DynoxideError> {
        let db = engine.database();
        Ok(match self {
            Decoded::GetItem(r) => usize::from(db.get_item(r)?.item.is_some()),
            Decoded::Query(r) => db.query(r)?.count,
            Decoded::PutItem(r) => db.put_item(r).map(|_| 0)?,
            Decoded::UpdateItem(r) => db.update_item(r).map(|_| 0)?,
            Decoded::BatchWriteItem(r) => db.batch_write_item(r).map(|_| 0)?,
            Decoded::TransactWriteItems(r) => db.transact_write_items(r).map(|_| 0)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dispatch::{self, Origin};

    fn setup() -> Engine {
        let engine = Engine::memory().unwrap();
        let create = br#"{"TableName":"Items","BillingMode":"PAY_PER_REQUEST",
            "KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}],
            "AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}]}"#;
        let answer = dispatch::run(
            &engine,
            Origin::Http,
            Some("DynamoDB_20120810.CreateTable"),
            create,
        );
        assert_eq!(
            answer.status,
            200,
            "{}",
            String::from_utf8_lossy(&answer.body)
        );
        engine
    }

    #[test]
    fn a_decoded_request_runs_as_the_same_json_would() {
        let engine = setup();
        let put = br#"{"TableName":"Items","Item":{"PK":{"S":"a"},"n":{"N":"1"}}}"#;
        assert_eq!(
            Decoded::decode("PutItem", put)
                .unwrap()
                .run(&engine)
                .unwrap(),
            0
        );
        let get = br#"{"TableName":"Items","Key":{"PK":{"S":"a"}}}"#;
        let found = Decoded::decode("DynamoDB_20120810.GetItem", get).unwrap();
        assert_eq!(found.run(&engine).unwrap(), 1);
        let missing = br#"{"TableName":"Items","Key":{"PK":{"S":"b"}}}"#;
        assert_eq!(
            Decoded::decode("GetItem", missing)
                .unwrap()
                .run(&engine)
                .unwrap(),
            0
        );
        let query = br#"{"TableName":"Items","KeyConditionExpression":"PK = :p",
            "ExpressionAttributeValues":{":p":{"S":"a"}}}"#;
        assert_eq!(
            Decoded::decode("Query", query)
                .unwrap()
                .run(&engine)
                .unwrap(),
            1
        );
    }

    #[test]
    fn what_it_cannot_decode_is_an_error_not_a_guess() {
        assert!(matches!(
            Decoded::decode("DeleteTable", b"{}"),
            Err(DecodeError::Operation(op)) if op == "DeleteTable"
        ));
        assert!(matches!(
            Decoded::decode("GetItem", b"not json"),
            Err(DecodeError::Body(_))
        ));
        let engine = setup();
        let no_table = br#"{"TableName":"Nope","Key":{"PK":{"S":"a"}}}"#;
        assert!(
            Decoded::decode("GetItem", no_table)
                .unwrap()
                .run(&engine)
                .is_err()
        );
    }
}
