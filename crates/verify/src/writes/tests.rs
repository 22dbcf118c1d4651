//! The write checks' pieces on the shop's model, without a table: the condition oracle, clauses
//! settled both ways, the failure a violation must be named by, a unit's actions and how their
//! items are related.

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::WriteFailure;
use monotable_model::{CompareOp, ConditionClause, Model};

use super::subject::{self, compare};
use super::unit::{self, Op, Unit};
use crate::generate::generate_with_fresh;

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");

fn shop() -> Model {
    monotable_model::parse(SHOP).expect("the shop parses")
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.to_string())
}

#[test]
fn the_oracle_compares_as_dynamodb_does() {
    let s = |t: &str| AttributeValue::S(t.to_string());
    assert!(compare(Some(&n("10")), CompareOp::Gt, &n("9")));
    assert!(compare(Some(&n("12.50")), CompareOp::Eq, &n("12.5")));
    assert!(
        compare(Some(&s("10")), CompareOp::Lt, &s("9")),
        "text by bytes"
    );
    assert!(
        compare(None, CompareOp::Ne, &n("1")),
        "a missing attribute is only <>"
    );
    assert!(!compare(None, CompareOp::Lt, &n("1")));
    assert!(
        !compare(Some(&s("1")), CompareOp::Eq, &n("1")),
        "types differ"
    );
    let t = AttributeValue::Bool(true);
    assert!(compare(Some(&t), CompareOp::Eq, &t));
    assert!(
        !compare(Some(&t), CompareOp::Ge, &t),
        "booleans do not order"
    );
}

#[test]
fn each_clause_is_settled_both_ways_and_a_violation_is_named_by_the_first_that_fails() {
    let model = shop();
    let (_, mut fresh) = generate_with_fresh(&model, 3);
    let take = model.pattern("takeStock").expect("takeStock");
    let built = Unit::build(&model, &mut fresh, take, &[]).expect("builds");
    let step = &built.steps[0];
    assert_eq!(step.op, Op::Update);
    // The update requires the item first, then the model's clauses but its own `exists`.
    let clauses = unit::clauses(step);
    assert_eq!(
        clauses.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "exists",
            "published = true",
            "price = {price}",
            "stock >= {quantity}"
        ]
    );
    for c in &clauses {
        assert!(
            subject::holds(take, step.entity, c, step.before.as_ref(), &step.request),
            "{c} holds"
        );
    }
    let expected = [
        WriteFailure::NotFound,
        WriteFailure::ConditionFailed {
            condition: Some("published = true".into()),
        },
        WriteFailure::ConditionFailed {
            condition: Some("price = {price}".into()),
        },
        WriteFailure::ConditionFailed {
            condition: Some("stock >= {quantity}".into()),
        },
    ];
    for (k, want) in expected.iter().enumerate() {
        let (bad, got) = built.violate(&mut fresh, 0, k).expect("can fail");
        assert_eq!(&got, want, "clause {k}");
        let s = &bad.steps[0];
        let failing: Vec<String> = clauses
            .iter()
            .filter(|c| !subject::holds(take, s.entity, c, s.before.as_ref(), &s.request))
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            failing.first(),
            Some(&clauses[k].to_string()),
            "{failing:?}"
        );
    }
    // The update's new stock and the version it bumps.
    assert!(step.changes.iter().any(|(a, _)| a == "stock"));
    let before = step.before.as_ref().expect("stored first");
    let after = step.after.as_ref().expect("left");
    let version = |s: &crate::generate::Sample| s.values["version"].parse::<i64>().unwrap_or(-1);
    assert_eq!(version(after), version(before) + 1);
}

#[test]
fn a_version_clause_expects_the_stored_version_and_a_put_writes_the_next() {
    let model = shop();
    let (_, mut fresh) = generate_with_fresh(&model, 5);
    let replace = model.pattern("replaceUser").expect("replaceUser");
    let built = Unit::build(&model, &mut fresh, replace, &[]).expect("builds");
    let step = &built.steps[0];
    let stored: i64 = step
        .before
        .as_ref()
        .expect("a replace needs the item")
        .values["version"]
        .parse()
        .expect("integer");
    assert_eq!(step.request.expected_version, Some(stored));
    let after = step.after.as_ref().expect("the new item");
    assert_eq!(after.values["version"], (stored + 1).to_string());
    let (_, failure) = built.violate(&mut fresh, 0, 0).expect("can fail");
    assert_eq!(
        failure,
        WriteFailure::VersionMismatch {
            expected: stored + 1
        }
    );
}

#[test]
fn a_unit_relates_its_items_as_the_model_does() {
    let model = shop();
    let (_, mut fresh) = generate_with_fresh(&model, 7);
    let create = model.pattern("createOrder").expect("createOrder");
    let names: Vec<String> = unit::actions(&model, create)
        .into_iter()
        .map(|(name, ..)| name)
        .collect();
    // `count = 49` runs twice; each alternative of `one_of` once.
    assert_eq!(
        names,
        [
            "recordIdempotency",
            "placeOrder",
            "addOrderLine",
            "addOrderLine",
            "takeStock",
            "checkProduct"
        ]
    );
    let built = Unit::build(&model, &mut fresh, create, &[]).expect("builds");
    let order = &built.steps[1].subject;
    for line in &built.steps[2..4] {
        assert_eq!(line.subject.values["orderId"], order.values["orderId"]);
    }
    assert_ne!(built.steps[2].subject.keys, built.steps[3].subject.keys);
    assert_eq!(
        order.values["userId"],
        built.steps[0].subject.values["userId"]
    );
    // The email change releases the old email's guard and claims the new one's.
    let change = model.pattern("changeEmail").expect("changeEmail");
    let built = Unit::build(&model, &mut fresh, change, &[]).expect("builds");
    let user = &built.steps[0];
    let (old, new) = (
        &user.before.as_ref().expect("stored").values["emailLower"],
        &user.after.as_ref().expect("written").values["emailLower"],
    );
    assert_ne!(old, new);
    assert_eq!(built.steps[1].op, Op::Delete);
    assert_eq!(&built.steps[1].subject.values["emailLower"], old);
    assert_eq!(&built.steps[2].subject.values["emailLower"], new);
    assert_eq!(
        built.steps[2].subject.values["userId"],
        user.subject.values["userId"]
    );
    let release = &built.steps[1];
    assert!(subject::holds(
        release.pattern.expect("a pattern"),
        release.entity,
        &ConditionClause::Compare {
            attribute: "userId".into(),
            op: CompareOp::Eq,
            operand: monotable_model::Operand::Param("owner".into()),
        },
        release.before.as_ref(),
        &release.request
    ));
}
