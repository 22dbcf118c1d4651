//! One engine request, however it arrived (the in-process connector or the HTTP endpoint): the
//! operation named by `x-amz-target`, its JSON body, and the status and body DynamoDB would send.
//!
//! Both transports run this one function, then wait for the answer to be durable
//! ([`Engine::durable`]), so a request means the same thing on either path.

use dynoxide::DynoxideError;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::answer::own_token;
pub use crate::answer::{AUTO_TOKEN, Answer, Origin};
use crate::engine::{Engine, Unavailable};

/// The prefix of every DynamoDB operation in `x-amz-target`.
pub const TARGET_PREFIX: &str = "DynamoDB_20120810.";
/// The prefix of every DynamoDB Streams operation in `x-amz-target` (ListStreams,
/// DescribeStream, GetShardIterator, GetRecords).
pub const STREAMS_TARGET_PREFIX: &str = "DynamoDBStreams_20120810.";

/// Run one request. `target` is the whole `x-amz-target` header.
pub fn run(engine: &Engine, origin: Origin, target: Option<&str>, body: &[u8]) -> Answer {
    if let Some(operation) = target.and_then(|t| t.strip_prefix(STREAMS_TARGET_PREFIX)) {
        return run_streams(engine, operation, body);
    }
    let Some(operation) = target.and_then(|t| t.strip_prefix(TARGET_PREFIX)) else {
        return unknown_operation();
    };
    if let Err(why) = engine.check_files() {
        return unavailable(&why);
    }
    #[cfg(feature = "capacity")]
    if let Some(emulator) = engine.capacity()
        && let Some(mut answer) = emulator.call(engine.database(), origin, operation, body)
    {
        answer.ticket = engine.ticket(answer.status == 200 && !is_read_only(operation));
        return answer;
    }
    let Some(result) = call(engine, origin, operation, body) else {
        return unknown_operation();
    };
    #[cfg(feature = "capacity")]
    if let Some(emulator) = engine.capacity() {
        emulator.after(operation, body);
    }
    let mut answer = match result {
        Ok(json) => Answer::new(200, json),
        Err(e) => Answer::new(e.status_code(), e.to_json().into_bytes()),
    };
    // A write that succeeded is acknowledged once on disk; anything else waits only for the
    // writes it may have seen.
    answer.ticket = engine.ticket(answer.status == 200 && !is_read_only(operation));
    answer
}

/// One DynamoDB Streams request: it reads the stream only, so no capacity is metered (DynamoDB
/// does not bill stream reads against the table) and it waits only for the writes it may see.
fn run_streams(engine: &Engine, operation: &str, body: &[u8]) -> Answer {
    if let Err(why) = engine.check_files() {
        return unavailable(&why);
    }
    let db = engine.database();
    let result = match operation {
        "ListStreams" => typed(operation, body, |r| db.list_streams(r)),
        "DescribeStream" => typed(operation, body, |r| db.describe_stream(r)),
        "GetShardIterator" => typed(operation, body, |r| db.get_shard_iterator(r)),
        "GetRecords" => typed(operation, body, |r| db.get_records(r)),
        _ => return unknown_operation(),
    };
    let mut answer = match result {
        Ok(json) => Answer::new(200, json),
        Err(e) => Answer::new(e.status_code(), e.to_json().into_bytes()),
    };
    answer.ticket = engine.ticket(false);
    answer
}

/// Run one request and wait until its answer may be sent. On the file-backed engine the SQLite
/// work (page writes, and now and then a checkpoint that syncs the database file) runs on a
/// blocking thread, so one slow commit never stalls the async workers that serve other
/// requests; in memory it runs inline (microseconds, no I/O).
pub async fn run_async(
    engine: &Engine,
    origin: Origin,
    target: Option<String>,
    body: Vec<u8>,
) -> Answer {
    if !engine.is_file_backed() {
        let answer = run(engine, origin, target.as_deref(), &body);
        return settle(engine, answer).await;
    }
    let worker = engine.clone();
    let answer =
        tokio::task::spawn_blocking(move || run(&worker, origin, target.as_deref(), &body))
            .await
            .unwrap_or_else(|e| {
                Answer::error(
                    500,
                    "com.amazonaws.dynamodb.v20120810#InternalServerError",
                    &format!("the engine call failed: {e}"),
                )
            });
    settle(engine, answer).await
}

/// Wait until `answer` may be sent: its writes (or the writes it saw) are on disk.
pub async fn settle(engine: &Engine, answer: Answer) -> Answer {
    match answer.ticket {
        None => answer,
        Some(ticket) => match engine.durable(ticket).await {
            Ok(()) => answer,
            Err(why) => unavailable(&why),
        },
    }
}

/// Operations that never change data.
pub fn is_read_only(operation: &str) -> bool {
    matches!(
        operation,
        "GetItem"
            | "BatchGetItem"
            | "Query"
            | "Scan"
            | "TransactGetItems"
            | "DescribeTable"
            | "ListTables"
            | "DescribeTimeToLive"
            | "ListTagsOfResource"
    )
}

fn typed<Req, Resp>(
    operation: &str,
    body: &[u8],
    op: impl FnOnce(Req) -> dynoxide::Result<Resp>,
) -> dynoxide::Result<Vec<u8>>
where
    Req: DeserializeOwned,
    Resp: Serialize,
{
    let request: Req =
        serde_json::from_slice(body).map_err(|e| crate::refusal::refusal(operation, &e))?;
    let response = op(request)?;
    serde_json::to_vec(&response).map_err(|e| DynoxideError::InternalServerError(e.to_string()))
}

/// Run `operation`; `None` for an operation the engine does not implement.
fn call(
    engine: &Engine,
    origin: Origin,
    operation: &str,
    body: &[u8],
) -> Option<dynoxide::Result<Vec<u8>>> {
    let db = engine.database();
    match operation {
        "TransactWriteItems" => {
            return Some(typed(
                operation,
                body,
                |mut r: dynoxide::actions::transact_write_items::TransactWriteItemsRequest| {
                    r.client_request_token = own_token(origin, r.client_request_token.take());
                    db.transact_write_items(r)
                },
            ));
        }
        "ExecuteTransaction" => {
            return Some(typed(
                operation,
                body,
                |mut r: dynoxide::actions::execute_transaction::ExecuteTransactionRequest| {
                    r.client_request_token = own_token(origin, r.client_request_token.take());
                    db.execute_transaction(r)
                },
            ));
        }
        _ => {}
    }
    macro_rules! ops {
        ($($name:literal => $method:ident),* $(,)?) => {
            match operation {
                $($name => Some(typed($name, body, |r| db.$method(r))),)*
                _ => None,
            }
        };
    }
    ops! {
        "GetItem" => get_item,
        "PutItem" => put_item,
        "UpdateItem" => update_item,
        "DeleteItem" => delete_item,
        "Query" => query,
        "Scan" => scan,
        "BatchGetItem" => batch_get_item,
        "BatchWriteItem" => batch_write_item,
        "TransactGetItems" => transact_get_items,
        "CreateTable" => create_table,
        "DeleteTable" => delete_table,
        "DescribeTable" => describe_table,
        "ListTables" => list_tables,
        "UpdateTable" => update_table,
        "UpdateTimeToLive" => update_time_to_live,
        "DescribeTimeToLive" => describe_time_to_live,
        "ExecuteStatement" => execute_statement,
        "BatchExecuteStatement" => batch_execute_statement,
        "TagResource" => tag_resource,
        "UntagResource" => untag_resource,
        "ListTagsOfResource" => list_tags_of_resource,
    }
}

/// An operation the engine does not have.
fn unknown_operation() -> Answer {
    Answer::bare(400, "com.amazon.coral.service#UnknownOperationException")
}

/// The engine refuses requests: its database file is gone, or the disk did not confirm a write.
fn unavailable(why: &Unavailable) -> Answer {
    Answer::error(
        500,
        "com.amazonaws.dynamodb.v20120810#InternalServerError",
        &why.to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(answer: &Answer) -> String {
        String::from_utf8(answer.body.clone()).unwrap()
    }

    #[test]
    fn missing_or_foreign_target_is_an_unknown_operation() {
        let engine = Engine::memory().unwrap();
        for target in [
            None,
            Some("DynamoDB_20120810.Frobnicate"),
            Some("S3.GetObject"),
        ] {
            let answer = run(&engine, Origin::Http, target, b"{}");
            assert_eq!(answer.status, 400);
            assert!(text(&answer).contains("UnknownOperationException"));
        }
    }

    #[test]
    fn streams_operations_are_routed_and_others_of_that_service_are_unknown() {
        let engine = Engine::memory().unwrap();
        let list = run(
            &engine,
            Origin::Http,
            Some("DynamoDBStreams_20120810.ListStreams"),
            b"{}",
        );
        assert_eq!(list.status, 200, "{}", text(&list));
        assert!(text(&list).contains("\"Streams\""), "{}", text(&list));
        let missing = run(
            &engine,
            Origin::Http,
            Some("DynamoDBStreams_20120810.DescribeStream"),
            br#"{"StreamArn":"arn:aws:dynamodb:local:000000000000:table/Nope/stream/x"}"#,
        );
        assert_eq!(missing.status, 400);
        assert!(text(&missing).contains("ResourceNotFoundException"));
        for op in ["PutItem", "Frobnicate"] {
            let target = format!("DynamoDBStreams_20120810.{op}");
            let answer = run(&engine, Origin::Http, Some(&target), b"{}");
            assert!(text(&answer).contains("UnknownOperationException"), "{op}");
        }
    }

    #[test]
    fn malformed_body_is_a_serialization_exception() {
        let engine = Engine::memory().unwrap();
        let answer = run(
            &engine,
            Origin::Http,
            Some("DynamoDB_20120810.GetItem"),
            b"{not json",
        );
        assert_eq!(answer.status, 400);
        assert!(text(&answer).contains("SerializationException"));
    }

    /// The families the DynamoDB conformance suite found typed `SerializationException` behind
    /// the engine's internal marker (docs/serve.md, "Conformance"): each a `ValidationException`
    /// in DynamoDB's words, no marker and no serde position; a true type mismatch stays a
    /// `SerializationException`.
    #[test]
    fn a_value_outside_its_constraints_is_a_validation_exception_in_dynamodbs_words() {
        let engine = Engine::memory().unwrap();
        let schema = r#""KeySchema":[{"AttributeName":"PK","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST""#;
        let create = format!(r#"{{"TableName":"Refusals",{schema}}}"#);
        let made = run(
            &engine,
            Origin::Http,
            Some("DynamoDB_20120810.CreateTable"),
            create.as_bytes(),
        );
        assert_eq!(made.status, 200, "{}", text(&made));
        let refused = [
            ("CreateTable", format!(r#"{{"TableName":"ab",{schema}}}"#)),
            ("CreateTable", format!(r#"{{"TableName":"a b c",{schema}}}"#)),
            ("CreateTable", r#"{"TableName":"NoKeys"}"#.to_owned()),
            ("GetItem", r#"{"Key":{"PK":{"S":"x"}}}"#.to_owned()),
            ("GetItem", r#"{"TableName":"Refusals","Key":{"PK":{"S":"x"}},"ReturnConsumedCapacity":"SOME"}"#.to_owned()),
            ("Query", r##"{"TableName":"Refusals","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"x"}},"Limit":0}"##.to_owned()),
            ("PutItem", r#"{"TableName":"Refusals","Item":{"PK":{"S":"x"},"n":{"N":"1E+126"}}}"#.to_owned()),
            ("PutItem", r#"{"TableName":"Refusals","Item":{"PK":{"S":"x"},"n":{"N":"123456789012345678901234567890123456789"}}}"#.to_owned()),
            ("PutItem", r#"{"TableName":"Refusals","Item":{"PK":{"S":"x"},"z":{"NULL":false}}}"#.to_owned()),
            ("PutItem", r#"{"TableName":"Refusals","Item":{"PK":{"S":"x"}},"ReturnValues":"EVERYTHING"}"#.to_owned()),
        ];
        for (operation, body) in refused {
            let target = format!("{TARGET_PREFIX}{operation}");
            let answer = run(&engine, Origin::Http, Some(&target), body.as_bytes());
            let said = text(&answer);
            assert_eq!(answer.status, 400, "{operation} {body}: {said}");
            assert!(
                said.contains("#ValidationException\""),
                "{operation} {body}: {said}"
            );
            for trace in ["VALIDATION", "SERIALIZATION", " at line "] {
                assert!(!said.contains(trace), "{operation} {body}: {said}");
            }
        }
        let mismatch = run(
            &engine,
            Origin::Http,
            Some("DynamoDB_20120810.GetItem"),
            br#"{"TableName":23,"Key":{"PK":{"S":"x"}}}"#,
        );
        assert!(
            text(&mismatch).contains("#SerializationException\""),
            "{}",
            text(&mismatch)
        );
    }

    #[test]
    fn engine_errors_keep_their_dynamodb_type() {
        let engine = Engine::memory().unwrap();
        let answer = run(
            &engine,
            Origin::Http,
            Some("DynamoDB_20120810.GetItem"),
            br#"{"TableName":"Missing","Key":{"PK":{"S":"x"}}}"#,
        );
        assert_eq!(answer.status, 400);
        assert!(
            text(&answer).contains("#ResourceNotFoundException"),
            "{}",
            text(&answer)
        );
    }

    #[test]
    fn the_in_process_stand_in_token_is_dropped_and_real_tokens_kept() {
        assert_eq!(own_token(Origin::InProcess, Some(AUTO_TOKEN.into())), None);
        assert_eq!(
            own_token(Origin::InProcess, Some("mine".into())),
            Some("mine".into())
        );
        assert_eq!(
            own_token(Origin::Http, Some(AUTO_TOKEN.into())),
            Some(AUTO_TOKEN.into())
        );
    }

    #[tokio::test]
    async fn a_callers_own_token_still_makes_a_transaction_idempotent() {
        use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem, Update};
        let engine = Engine::memory().unwrap();
        let client = crate::inprocess::client(engine.clone());
        let model = monotable_model::parse(
            "version = 1\n[table]\nname = \"Tokens\"\npartition_key = { name = \"PK\", type = \"S\" }\nbilling_mode = \"PAY_PER_REQUEST\"\n[entities.E]\nattributes.id = { type = \"string\", required = true }\nkeys.PK = \"E#{id}\"\n",
        )
        .unwrap();
        monotable_access::table::ensure_table(&client, &model)
            .await
            .unwrap();
        let put = Put::builder()
            .table_name("Tokens")
            .item("PK", AttributeValue::S("E#1".into()))
            .item("n", AttributeValue::N("0".into()))
            .build()
            .unwrap();
        client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().put(put).build())
            .send()
            .await
            .unwrap();
        let bump = || {
            let update = Update::builder()
                .table_name("Tokens")
                .key("PK", AttributeValue::S("E#1".into()))
                .update_expression("SET n = n + :one")
                .expression_attribute_values(":one", AttributeValue::N("1".into()))
                .build()
                .unwrap();
            client
                .transact_write_items()
                .transact_items(TransactWriteItem::builder().update(update).build())
        };
        // Without a token of the caller's, every call applies.
        bump().send().await.unwrap();
        bump().send().await.unwrap();
        // With one, a repeat is a replay.
        bump()
            .client_request_token("order-42")
            .send()
            .await
            .unwrap();
        bump()
            .client_request_token("order-42")
            .send()
            .await
            .unwrap();
        let item = client
            .get_item()
            .table_name("Tokens")
            .key("PK", AttributeValue::S("E#1".into()))
            .send()
            .await
            .unwrap()
            .item
            .unwrap();
        assert_eq!(item["n"].as_n().unwrap(), "3");
    }

    #[tokio::test]
    async fn a_lost_database_file_refuses_requests_with_the_reason() {
        let tmp = tempfile::tempdir().unwrap();
        let location = crate::DataLocation::Dir(tmp.path().join("data"));
        let engine = Engine::open(&location).unwrap();
        let list = |e: &Engine| run(e, Origin::Http, Some("DynamoDB_20120810.ListTables"), b"{}");
        assert_eq!(settle(&engine, list(&engine)).await.status, 200);
        std::fs::remove_file(location.database_file().unwrap()).unwrap();
        let answer = list(&engine);
        assert_eq!(answer.status, 500);
        assert!(
            text(&answer).contains("deleted or replaced"),
            "{}",
            text(&answer)
        );
    }
}
