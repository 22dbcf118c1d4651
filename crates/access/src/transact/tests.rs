//! How cancellation reasons become errors: retried, named by action, described.

use aws_sdk_dynamodb::types::{AttributeValue, CancellationReason};

use super::*;
use crate::write::Condition;

fn reason(action: &'static str, code: &str) -> CancelReason {
    CancelReason {
        action: Some(action),
        entity: "Task",
        item: format!("Task (PK=P, SK={action})"),
        code: code.to_string(),
        message: None,
        failure: (code == "ConditionalCheckFailed")
            .then_some(WriteFailure::ConditionFailed { condition: None }),
    }
}

#[test]
fn a_cancellation_without_reasons_is_not_retried_as_a_conflict() {
    // `all` of no reasons is true: a cancellation that named no failing action was taken
    // for a conflict and retried until the attempts ran out, then reported as one.
    assert!(matches!(
        cancellation(vec![], Some("cancelled")),
        Outcome::Fail(TransactError::Cancelled { .. })
    ));
    assert!(matches!(
        cancellation(vec![reason("a", "TransactionConflict")], None),
        Outcome::Retry
    ));
    assert!(matches!(
        cancellation(
            vec![
                reason("a", "TransactionConflict"),
                reason("c", "ConditionalCheckFailed")
            ],
            None
        ),
        Outcome::Fail(TransactError::ConditionFailed { .. })
    ));
    assert!(matches!(
        cancellation(vec![reason("b", "ThrottlingError")], Some("slow down")),
        Outcome::Fail(TransactError::Service(ServiceError::Throttled { .. }))
    ));
    assert!(matches!(
        cancellation(vec![reason("b", "ValidationError")], None),
        Outcome::Fail(TransactError::Cancelled { .. })
    ));
}

#[test]
fn failures_are_asked_for_by_action_name() {
    let e = TransactError::ConditionFailed {
        reasons: vec![reason("reserve", "ConditionalCheckFailed")],
    };
    assert!(e.failed("reserve"));
    assert!(!e.failed("record"));
    assert_eq!(e.reason("reserve").map(|r| r.entity), Some("Task"));
    assert_eq!(
        e.to_string(),
        "transaction cancelled: `reserve` on Task (PK=P, SK=reserve): the condition did not hold"
    );
    // A validation error is a reason, not a failed condition.
    let e = TransactError::Cancelled {
        reasons: vec![reason("reserve", "ValidationError")],
    };
    assert!(!e.failed("reserve"));
    assert_eq!(
        e.reason("reserve").map(|r| r.code.as_str()),
        Some("ValidationError")
    );
    assert!(TransactError::Conflict { attempts: 1 }.reasons().is_empty());
}

#[test]
fn a_reason_is_named_from_the_old_item_or_its_absence() {
    let named = Named {
        name: Some("bumpVersion"),
        action: WriteAction::Check(CheckItem::new(
            Item::from([("PK".to_string(), AttributeValue::S("T#1".into()))]),
            Condition::exists("PK")
                .named("there")
                .and(Condition::version("v", 2)),
        )),
    };
    let failed = |item: Option<Item>| {
        CancellationReason::builder()
            .code("ConditionalCheckFailed")
            .set_item(item)
            .build()
    };
    let old = Item::from([
        ("PK".to_string(), AttributeValue::S("T#1".into())),
        ("v".to_string(), AttributeValue::N("3".into())),
    ]);
    let r = reason_of(&named, &failed(Some(old)));
    assert_eq!(r.action, Some("bumpVersion"));
    assert_eq!(r.entity, "");
    assert_eq!(
        r.failure,
        Some(WriteFailure::VersionMismatch { expected: 2 })
    );
    assert!(matches!(
        r.error(),
        Some(WriteError::VersionMismatch { expected: 2, .. })
    ));
    let r = reason_of(&named, &failed(None));
    assert_eq!(
        r.failure,
        Some(WriteFailure::ConditionFailed {
            condition: Some("there".into())
        })
    );
    let conflict = CancellationReason::builder()
        .code("TransactionConflict")
        .build();
    assert_eq!(reason_of(&named, &conflict).failure, None);
}

fn reason_of(named: &Named, r: &CancellationReason) -> CancelReason {
    super::reason(named, r)
}
