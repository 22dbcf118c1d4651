//! What a stream consumer handles (`[traffic.consumers.NAME]`): its records/s and its reads'
//! rates are read as stated; an unknown consumer, a read it does not list and a rate that is
//! not one are each one issue, asserted by its message, its help and the text its span covers.

use monotable_model::{IssueKind, parse};

const MODEL: &str = r#"[table]
name = "Shop"
partition_key = { name = "PK" }
sort_key = { name = "SK" }
stream = "NEW_AND_OLD_IMAGES"

[entities.Order]
attributes.orderId = { type = "string", required = true }
attributes.status = { type = "enum", values = ["PLACED", "CANCELLED"], required = true }
keys.PK = "ORDER#{orderId}"
keys.SK = "ORDER"

[patterns.getOrder]
operation = "GetItem"
key = { PK = "ORDER#{orderId}", SK = "ORDER" }
returns = ["Order"]

[patterns.getOrderLines]
operation = "Query"
key = { PK = "ORDER#{orderId}" }
returns = ["Order"]

[patterns.listOrders]
operation = "Scan"
returns = ["Order"]

[consumers.cancellations]
entities = ["Order"]
filter = { status = ["CANCELLED"] }
reads = ["getOrder", "getOrderLines"]

[consumers.audit]
entities = ["Order"]

[traffic.entities.Order]
writes_per_second = 100
"#;

/// The model with `traffic` appended.
fn with(traffic: &str) -> String {
    format!("{MODEL}\n{traffic}")
}

/// Exactly one issue of `kind`, containing `needle`, whose span covers `at` and whose help is
/// `help`.
#[track_caller]
fn one_issue(source: &str, kind: IssueKind, needle: &str, at: &str, help: &str) {
    let err = parse(source).expect_err(needle);
    assert_eq!(err.issues.len(), 1, "{needle}: {:#?}", err.issues);
    let issue = &err.issues[0];
    assert_eq!(issue.kind, kind, "{issue:?}");
    assert!(issue.message.contains(needle), "{needle}: {issue:?}");
    let span = issue.span.clone().expect("a span");
    assert_eq!(&source[span], at, "{issue:?}");
    assert_eq!(issue.help.as_deref(), Some(help), "{issue:?}");
}

#[test]
fn a_consumers_figures_are_read_as_stated() {
    let model = parse(&with(
        "[traffic.consumers.cancellations]\nrecords_per_second = 2.5\nreads_per_second = { getOrderLines = 2 }\n",
    ))
    .unwrap_or_else(|e| panic!("{:#?}", e.issues));
    let t = &model.traffic.consumers["cancellations"];
    assert_eq!(t.records_per_second, Some(2.5));
    assert_eq!(t.reads_per_second.len(), 1);
    assert_eq!(t.reads_per_second["getOrderLines"], 2.0);
    // A consumer without figures has none.
    assert!(!model.traffic.consumers.contains_key("audit"));
}

#[test]
fn a_consumer_the_model_does_not_declare_is_refused() {
    let source = with("[traffic.consumers.cancelations]\nrecords_per_second = 2\n");
    one_issue(
        &source,
        IssueKind::UnknownReference,
        "traffic for unknown consumer `cancelations`",
        "[traffic.consumers.cancelations]",
        "a consumer with a similar name exists: `cancellations`",
    );
    one_issue(
        &with("[traffic.consumers.refunds]\nrecords_per_second = 2\n"),
        IssueKind::UnknownReference,
        "traffic for unknown consumer `refunds`",
        "[traffic.consumers.refunds]",
        "declare it under [consumers], or remove its figures",
    );
}

#[test]
fn a_read_rate_names_a_read_the_consumer_lists() {
    // The closest of its own reads, not of every read pattern.
    one_issue(
        &with("[traffic.consumers.cancellations]\nreads_per_second = { getOrderLine = 2 }\n"),
        IssueKind::UnknownReference,
        "`reads_per_second.getOrderLine` for consumer `cancellations`: `cancellations` does not list `getOrderLine` in `reads`",
        "2",
        "a read it lists with a similar name exists: `getOrderLines`",
    );
    // A declared read pattern the consumer does not run.
    one_issue(
        &with("[traffic.consumers.cancellations]\nreads_per_second = { listOrders = 1 }\n"),
        IssueKind::UnknownReference,
        "does not list `listOrders` in `reads`",
        "1",
        "list `listOrders` in the consumer's `reads`, or state a rate for one it lists: `getOrder`, `getOrderLines`",
    );
    one_issue(
        &with("[traffic.consumers.audit]\nreads_per_second = { getOrder = 1 }\n"),
        IssueKind::UnknownReference,
        "`audit` does not list `getOrder` in `reads`",
        "1",
        "list `getOrder` in the consumer's `reads`, or remove its rate: it lists no read",
    );
}

#[test]
fn rates_that_are_not_rates_are_refused() {
    let help = "state the peak rate as a number from 0 to 1000000000";
    one_issue(
        &with("[traffic.consumers.cancellations]\nrecords_per_second = -2\n"),
        IssueKind::Invalid,
        "`records_per_second = -2` for consumer `cancellations` is negative",
        "[traffic.consumers.cancellations]",
        help,
    );
    one_issue(
        &with("[traffic.consumers.cancellations]\nrecords_per_second = nan\n"),
        IssueKind::Invalid,
        "`records_per_second = nan` for consumer `cancellations` is not a rate",
        "[traffic.consumers.cancellations]",
        help,
    );
    one_issue(
        &with("[traffic.consumers.cancellations]\nreads_per_second = { getOrder = -inf }\n"),
        IssueKind::Invalid,
        "`reads_per_second.getOrder = -inf` for consumer `cancellations` is not a rate",
        "-inf",
        help,
    );
    one_issue(
        &with("[traffic.consumers.cancellations]\nreads_per_second = { getOrder = 2e9 }\n"),
        IssueKind::Invalid,
        "`reads_per_second.getOrder = 2000000000` for consumer `cancellations` is more than any table serves",
        "2e9",
        help,
    );
}

#[test]
fn an_unknown_field_is_refused() {
    let err = parse(&with(
        "[traffic.consumers.cancellations]\nrecords_per_seconds = 2\n",
    ))
    .expect_err("an unknown field");
    assert!(
        err.issues
            .iter()
            .any(|i| i.message.contains("records_per_seconds")),
        "{:#?}",
        err.issues
    );
}
