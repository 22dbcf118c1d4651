//! One engine request, however it arrived (the in-process connector or the HTTP endpoint): the
//! operation named by `x-amz-target`, its JSON body, and the status and body DynamoDB would send.
//!
//! Both transports run this one function, then wait for the answer to be durable
//! ([`Engine::durable`]), so a request means the same thing on either path.

use dynoxide::DynoxideError;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::engine::{Engine, Unavailable};

/// The prefix of every DynamoDB operation in `x-amz-target`.
pub const TARGET_PREFIX: &str = "DynamoDB_20120810.";

/// What the engine answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// DynamoDB's JSON body.
    pub body: Vec<u8>,
    /// The durability ticket to wait for before sending it (file-backed engine only).
    pub(crate) ticket: Option<u64>,
}

impl Answer {
    fn new(status: u16, body: Vec<u8>) -> Answer {
        Answer {
            status,
            body,
            ticket: None,
        }
    }

    /// An error answer with only a `__type`.
    pub fn bare(status: u16, error_type: &str) -> Answer {
        Answer::new(
            status,
            format!(r#"{{"__type":"{error_type}"}}"#).into_bytes(),
        )
    }

    /// An error answer with a `__type` and a message.
    pub fn error(status: u16, error_type: &str, message: &str) -> Answer {
        let body = serde_json::json!({ "__type": error_type, "message": message });
        Answer::new(status, body.to_string().into_bytes())
    }

    /// An answer whose body is `json`, with `status`.
    #[cfg(feature = "faults")]
    pub(crate) fn error_json(status: u16, json: serde_json::Value) -> Answer {
        Answer::new(status, json.to_string().into_bytes())
    }

    /// A 200 answer whose body is `json`.
    #[cfg(feature = "faults")]
    pub(crate) fn ok_json(json: serde_json::Value) -> Answer {
        Answer::new(200, json.to_string().into_bytes())
    }

    fn unknown_operation() -> Answer {
        Answer::bare(400, "com.amazon.coral.service#UnknownOperationException")
    }

    fn unavailable(why: &Unavailable) -> Answer {
        Answer::error(
            500,
            "com.amazonaws.dynamodb.v20120810#InternalServerError",
            &why.to_string(),
        )
    }
}

/// Run one request. `target` is the whole `x-amz-target` header.
pub fn run(engine: &Engine, target: Option<&str>, body: &[u8]) -> Answer {
    let Some(operation) = target.and_then(|t| t.strip_prefix(TARGET_PREFIX)) else {
        return Answer::unknown_operation();
    };
    if let Err(why) = engine.check_files() {
        return Answer::unavailable(&why);
    }
    let Some(result) = call(engine, operation, body) else {
        return Answer::unknown_operation();
    };
    let mut answer = match result {
        Ok(json) => Answer::new(200, json),
        Err(e) => Answer::new(e.status_code(), e.to_json().into_bytes()),
    };
    // A write that succeeded is acknowledged once on disk; anything else waits only for the
    // writes it may have seen.
    answer.ticket = engine.ticket(answer.status == 200 && !is_read_only(operation));
    answer
}

/// Wait until `answer` may be sent: its writes (or the writes it saw) are on disk.
pub async fn settle(engine: &Engine, answer: Answer) -> Answer {
    match answer.ticket {
        None => answer,
        Some(ticket) => match engine.durable(ticket).await {
            Ok(()) => answer,
            Err(why) => Answer::unavailable(&why),
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
    body: &[u8],
    op: impl FnOnce(Req) -> dynoxide::Result<Resp>,
) -> dynoxide::Result<Vec<u8>>
where
    Req: DeserializeOwned,
    Resp: Serialize,
{
    let request: Req = serde_json::from_slice(body)
        .map_err(|e| DynoxideError::SerializationException(e.to_string()))?;
    let response = op(request)?;
    serde_json::to_vec(&response).map_err(|e| DynoxideError::InternalServerError(e.to_string()))
}

/// Run `operation`; `None` for an operation the engine does not implement.
fn call(engine: &Engine, operation: &str, body: &[u8]) -> Option<dynoxide::Result<Vec<u8>>> {
    let db = engine.database();
    macro_rules! ops {
        ($($name:literal => $method:ident),* $(,)?) => {
            match operation {
                $($name => Some(typed(body, |r| db.$method(r))),)*
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
        "TransactWriteItems" => transact_write_items,
        "TransactGetItems" => transact_get_items,
        "CreateTable" => create_table,
        "DeleteTable" => delete_table,
        "DescribeTable" => describe_table,
        "ListTables" => list_tables,
        "UpdateTable" => update_table,
        "UpdateTimeToLive" => update_time_to_live,
        "DescribeTimeToLive" => describe_time_to_live,
        "ExecuteStatement" => execute_statement,
        "ExecuteTransaction" => execute_transaction,
        "BatchExecuteStatement" => batch_execute_statement,
        "TagResource" => tag_resource,
        "UntagResource" => untag_resource,
        "ListTagsOfResource" => list_tags_of_resource,
    }
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
            let answer = run(&engine, target, b"{}");
            assert_eq!(answer.status, 400);
            assert!(text(&answer).contains("UnknownOperationException"));
        }
    }

    #[test]
    fn malformed_body_is_a_serialization_exception() {
        let engine = Engine::memory().unwrap();
        let answer = run(&engine, Some("DynamoDB_20120810.GetItem"), b"{not json");
        assert_eq!(answer.status, 400);
        assert!(text(&answer).contains("SerializationException"));
    }

    #[test]
    fn engine_errors_keep_their_dynamodb_type() {
        let engine = Engine::memory().unwrap();
        let answer = run(
            &engine,
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

    #[tokio::test]
    async fn a_lost_database_file_refuses_requests_with_the_reason() {
        let tmp = tempfile::tempdir().unwrap();
        let location = crate::DataLocation::Dir(tmp.path().join("data"));
        let engine = Engine::open(&location).unwrap();
        let list = |e: &Engine| run(e, Some("DynamoDB_20120810.ListTables"), b"{}");
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
