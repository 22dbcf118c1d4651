//! How a throttled request fails, as DynamoDB fails it: the exception type, HTTP 400, the
//! message, and `ThrottlingReasons` naming the limit and the table's or index's ARN.

use serde_json::{Value, json};

use super::metrics::Op;
use crate::answer::Answer;

const DYNAMO: &str = "com.amazonaws.dynamodb.v20120810#";

/// The message of a key-range (hot partition) or on-demand throttle.
pub const KEY_RANGE_MESSAGE: &str = "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";

/// The message of a provisioned-throughput throttle.
pub const PROVISIONED_MESSAGE: &str = "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.";

/// The message of a throttle at a configured on-demand maximum.
pub const MAX_ON_DEMAND_MESSAGE: &str =
    "Throughput exceeds the maximum OnDemandThroughput configured on table or index";

/// Which limit refused the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// A partition key value's 3,000 RCU/s or 1,000 WCU/s, or an on-demand table's current
    /// throughput (twice its previous peak).
    KeyRange,
    /// A provisioned table's or index's capacity, burst included.
    Provisioned,
    /// An on-demand table's or index's configured maximum.
    MaxOnDemand,
}

/// A refusal: the limit, what it limits, and the operation.
#[derive(Debug, Clone, PartialEq)]
pub struct Throttle {
    /// The limit.
    pub limit: Limit,
    /// Reads or writes.
    pub op: Op,
    /// Whether an index (not the table) hit the limit.
    pub on_index: bool,
    /// The table's or index's ARN.
    pub arn: String,
}

impl Throttle {
    /// `ResourceType + OperationType + LimitType`, as in `ThrottlingReason.reason`.
    pub fn reason(&self) -> String {
        let resource = if self.on_index { "Index" } else { "Table" };
        let op = match self.op {
            Op::Read => "Read",
            Op::Write => "Write",
        };
        let limit = match self.limit {
            Limit::KeyRange => "KeyRangeThroughputExceeded",
            Limit::Provisioned => "ProvisionedThroughputExceeded",
            Limit::MaxOnDemand => "MaxOnDemandThroughputExceeded",
        };
        format!("{resource}{op}{limit}")
    }

    fn message(&self) -> &'static str {
        match self.limit {
            Limit::KeyRange => KEY_RANGE_MESSAGE,
            Limit::Provisioned => PROVISIONED_MESSAGE,
            Limit::MaxOnDemand => MAX_ON_DEMAND_MESSAGE,
        }
    }

    fn reasons(&self) -> Value {
        json!([{ "reason": self.reason(), "resource": self.arn }])
    }

    /// The error a single-item, query or scan request (or a batch none of whose items could be
    /// processed) fails with.
    pub fn answer(&self) -> Answer {
        let error_type = match self.limit {
            Limit::MaxOnDemand => "ThrottlingException",
            Limit::KeyRange | Limit::Provisioned => "ProvisionedThroughputExceededException",
        };
        Answer::error_json(
            400,
            json!({
                "__type": format!("{DYNAMO}{error_type}"),
                "message": self.message(),
                "ThrottlingReasons": self.reasons(),
            }),
        )
    }

    /// The cancellation reason code of a throttled action in a transaction.
    pub fn cancellation_code(&self) -> &'static str {
        match self.limit {
            Limit::Provisioned => "ProvisionedThroughputExceeded",
            Limit::KeyRange | Limit::MaxOnDemand => "ThrottlingError",
        }
    }
}

/// The `TransactionCanceledException` of a transaction with throttled actions: `throttles[i]`
/// is the refusal of action `i`, if any.
pub fn cancelled(throttles: &[Option<Throttle>]) -> Answer {
    let reasons: Vec<Value> = throttles
        .iter()
        .map(|t| match t {
            Some(t) => json!({"Code": t.cancellation_code(), "Message": t.message()}),
            None => json!({"Code": "None"}),
        })
        .collect();
    let codes: Vec<&str> = throttles
        .iter()
        .map(|t| t.as_ref().map_or("None", Throttle::cancellation_code))
        .collect();
    Answer::error_json(
        400,
        json!({
            "__type": format!("{DYNAMO}TransactionCanceledException"),
            "message": format!(
                "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]",
                codes.join(", ")
            ),
            "CancellationReasons": reasons,
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn throttle(limit: Limit, on_index: bool) -> Throttle {
        Throttle {
            limit,
            op: Op::Write,
            on_index,
            arn: "arn:aws:dynamodb:us-east-1:000000000000:table/T/index/GSI1".into(),
        }
    }

    #[test]
    fn a_hot_index_partition_fails_the_write_with_dynamodbs_exception_and_reason() {
        let answer = throttle(Limit::KeyRange, true).answer();
        assert_eq!(answer.status, 400);
        let body: Value = serde_json::from_slice(&answer.body).unwrap();
        assert_eq!(
            body["__type"],
            "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException"
        );
        assert_eq!(
            body["ThrottlingReasons"][0]["reason"],
            "IndexWriteKeyRangeThroughputExceeded"
        );
        assert!(
            body["ThrottlingReasons"][0]["resource"]
                .as_str()
                .unwrap()
                .ends_with("/index/GSI1")
        );
    }

    #[test]
    fn a_throttled_transaction_names_the_throttled_action() {
        let answer = cancelled(&[None, Some(throttle(Limit::Provisioned, false))]);
        let body: Value = serde_json::from_slice(&answer.body).unwrap();
        assert_eq!(body["CancellationReasons"][0]["Code"], "None");
        assert_eq!(
            body["CancellationReasons"][1]["Code"],
            "ProvisionedThroughputExceeded"
        );
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .ends_with("[None, ProvisionedThroughputExceeded]")
        );
    }
}
