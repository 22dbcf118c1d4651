//! Stream consumers: the table's `stream`, `[consumers.NAME]` with its defaults, and one issue
//! per mistake, each asserted by its message and by the text its span covers.

use monotable_model::{
    Consumer, FailureDestination, FilterValue, IssueKind, StartingPosition, StreamEvent,
    StreamView, parse,
};

const MODEL: &str = r#"[table]
name = "Shop"
partition_key = { name = "PK" }
sort_key = { name = "SK" }
stream = "NEW_AND_OLD_IMAGES"

[entities.Order]
attributes.orderId = { type = "string", required = true }
attributes.status = { type = "enum", values = ["PLACED", "CANCELLED"], required = true }
attributes.total = { type = "decimal", required = true }
attributes.lines = { type = "integer" }
attributes.gift = { type = "boolean" }
attributes.notes = { type = "list", items = "string" }
keys.PK = "ORDER#{orderId}"
keys.SK = "ORDER"

[entities.OrderItem]
attributes.orderId = { type = "string", required = true }
attributes.lineNo = { type = "integer", required = true }
attributes.status = { type = "string" }
keys.PK = "ORDER#{orderId}"
keys.SK = "ITEM#{lineNo:03}"

[patterns.getOrder]
operation = "GetItem"
key = { PK = "ORDER#{orderId}", SK = "ORDER" }
returns = ["Order"]

[patterns.putOrder]
operation = "PutItem"
key = { PK = "ORDER#{orderId}", SK = "ORDER" }
returns = ["Order"]
"#;

/// The model with one consumer `c` whose body is `body`.
fn consumer(body: &str) -> String {
    format!("{MODEL}\n[consumers.c]\n{body}")
}

fn only(source: &str) -> Consumer {
    let model = parse(source).unwrap_or_else(|e| panic!("{:#?}", e.issues));
    assert_eq!(model.consumers.len(), 1);
    model.consumer("c").expect("c").clone()
}

/// Exactly one issue of `kind`, containing `needle`, whose span covers `at` in the source.
#[track_caller]
fn one_issue(source: &str, kind: IssueKind, needle: &str, at: &str) {
    let err = parse(source).expect_err(needle);
    assert_eq!(err.issues.len(), 1, "{needle}: {:#?}", err.issues);
    let issue = &err.issues[0];
    assert_eq!(issue.kind, kind, "{issue:?}");
    assert!(issue.message.contains(needle), "{needle}: {issue:?}");
    let span = issue.span.clone().expect("a span");
    assert_eq!(&source[span], at, "{issue:?}");
    assert!(issue.help.is_some(), "{issue:?}");
}

#[test]
fn a_consumer_takes_lambdas_defaults() {
    let c = only(&consumer("entities = [\"Order\"]\n"));
    assert_eq!(c.entities, ["Order"]);
    assert_eq!(c.events, StreamEvent::ALL);
    assert!(c.filter.is_empty() && c.writes.is_empty() && c.reads.is_empty());
    assert_eq!((c.batch_size, c.retries), (100, 2));
    assert!(c.bisect_on_error);
    assert_eq!(c.on_failure, None);
    assert_eq!(c.starting_position, StartingPosition::TrimHorizon);
    assert_eq!(c.event_span(StreamEvent::Insert), c.span);
}

#[test]
fn a_consumer_states_everything() {
    let source = consumer(
        r#"description = "d"
entities = ["OrderItem", "Order"]
events = ["MODIFY", "INSERT"]
filter = { status = ["CANCELLED"], total = [10, 9.5], gift = [true] }
batch_size = 10000
retries = -1
bisect_on_error = false
on_failure = "topic"
starting_position = "LATEST"
writes = ["putOrder"]
reads = ["getOrder"]
"#,
    );
    let c = only(&source);
    assert_eq!(c.entities, ["OrderItem", "Order"]);
    assert_eq!(c.events, [StreamEvent::Insert, StreamEvent::Modify]);
    assert_eq!(&source[c.event_span(StreamEvent::Modify)], "\"MODIFY\"");
    assert_eq!(
        c.filter,
        [
            ("gift".to_string(), vec![FilterValue::Bool(true)]),
            (
                "status".to_string(),
                vec![FilterValue::String("CANCELLED".into())]
            ),
            (
                "total".to_string(),
                vec![
                    FilterValue::Number("10".into()),
                    FilterValue::Number("9.5".into())
                ]
            ),
        ]
    );
    assert_eq!(&source[c.filter_span("status")], "[\"CANCELLED\"]");
    assert_eq!((c.batch_size, c.retries), (10000, -1));
    assert!(!c.bisect_on_error);
    assert_eq!(c.on_failure, Some(FailureDestination::Topic));
    assert_eq!(c.starting_position, StartingPosition::Latest);
    assert_eq!(c.writes, ["putOrder"]);
    assert_eq!(&source[c.write_span("putOrder")], "\"putOrder\"");
    assert_eq!(c.reads, ["getOrder"]);
    assert_eq!(&source[c.read_span("getOrder")], "\"getOrder\"");
    assert_eq!(&source[c.entity_span("Order")], "\"Order\"");
}

#[test]
fn the_table_names_its_stream_view() {
    let model = parse(MODEL).unwrap();
    assert_eq!(model.table.stream, Some(StreamView::NewAndOldImages));
    assert_eq!(StreamView::NewAndOldImages.as_str(), "NEW_AND_OLD_IMAGES");
    let plain = parse(&MODEL.replace("stream = \"NEW_AND_OLD_IMAGES\"\n", "")).unwrap();
    assert_eq!(plain.table.stream, None);
    for (view, new, old) in [
        ("KEYS_ONLY", false, false),
        ("NEW_IMAGE", true, false),
        ("OLD_IMAGE", false, true),
    ] {
        let m = parse(&MODEL.replace("NEW_AND_OLD_IMAGES", view)).unwrap();
        let v = m.table.stream.expect("a stream");
        assert_eq!(
            (v.as_str(), v.has_new_image(), v.has_old_image()),
            (view, new, old)
        );
    }
    let err = parse(&MODEL.replace("NEW_AND_OLD_IMAGES", "BOTH")).unwrap_err();
    assert_eq!(err.issues[0].kind, IssueKind::Syntax, "{err:?}");
}

#[test]
fn a_consumer_needs_the_tables_stream() {
    let source =
        consumer("entities = [\"Order\"]\n").replace("stream = \"NEW_AND_OLD_IMAGES\"\n", "");
    let err = parse(&source).unwrap_err();
    assert_eq!(err.issues.len(), 1, "{err:?}");
    assert!(
        err.issues[0]
            .message
            .contains("the table declares no `stream`")
    );
    let span = err.issues[0].span.clone().unwrap();
    assert_eq!(&source[span], "[consumers.c]", "{err:?}");
}

#[test]
fn each_mistake_is_one_issue_on_its_value() {
    use IssueKind::{Invalid, UnknownReference};
    for (body, kind, needle, at) in [
        ("entities = []\n", Invalid, "handles no entity", "[]"),
        (
            "entities = [\"Customer\"]\n",
            UnknownReference,
            "entity `Customer` of consumer `c` is not a declared entity",
            "\"Customer\"",
        ),
        (
            "entities = [\"Order\", \"Order\"]\n",
            Invalid,
            "listed twice",
            "\"Order\"",
        ),
        (
            "entities = [\"Order\"]\nevents = [\"INSERT\", \"INSERT\"]\n",
            Invalid,
            "event INSERT is listed twice",
            "\"INSERT\"",
        ),
        (
            "entities = [\"Order\"]\nevents = []\n",
            Invalid,
            "handles no event",
            "[]",
        ),
        (
            "entities = [\"Order\"]\nbatch_size = 0\n",
            Invalid,
            "`batch_size` is 0; it must be 1 to 10000",
            "0",
        ),
        (
            "entities = [\"Order\"]\nbatch_size = 10001\n",
            Invalid,
            "`batch_size` is 10001",
            "10001",
        ),
        (
            "entities = [\"Order\"]\nretries = -2\n",
            Invalid,
            "`retries` is -2; it must be -1 to 10000",
            "-2",
        ),
        (
            "entities = [\"Order\"]\nretries = 10001\n",
            Invalid,
            "`retries` is 10001",
            "10001",
        ),
        (
            "entities = [\"Order\"]\nwrites = [\"addSales\"]\n",
            UnknownReference,
            "`addSales`, which is not a declared pattern",
            "\"addSales\"",
        ),
        (
            "entities = [\"Order\"]\nwrites = [\"getOrder\"]\n",
            Invalid,
            "a GetItem: a read pattern",
            "\"getOrder\"",
        ),
        (
            "entities = [\"Order\"]\nwrites = [\"putOrder\", \"putOrder\"]\n",
            Invalid,
            "pattern `putOrder` is listed twice in the `writes`",
            "\"putOrder\"",
        ),
        (
            "entities = [\"Order\"]\nreads = [\"listOrders\"]\n",
            UnknownReference,
            "consumer `c` reads with `listOrders`, which is not a declared pattern",
            "\"listOrders\"",
        ),
        (
            "entities = [\"Order\"]\nreads = [\"putOrder\"]\n",
            Invalid,
            "consumer `c` reads with `putOrder`, a PutItem: a write pattern",
            "\"putOrder\"",
        ),
        (
            "entities = [\"Order\"]\nreads = [\"getOrder\", \"getOrder\"]\n",
            Invalid,
            "pattern `getOrder` is listed twice in the `reads`",
            "\"getOrder\"",
        ),
        (
            "entities = [\"Order\"]\nfilter = { colour = [\"red\"] }\n",
            UnknownReference,
            "filters on `colour`, which none of its entities has",
            "[\"red\"]",
        ),
        (
            "entities = [\"Order\"]\nfilter = { status = [\"SHIPPED\"] }\n",
            Invalid,
            "\"SHIPPED\" is not a value of enum `status`",
            "\"SHIPPED\"",
        ),
        (
            "entities = [\"Order\"]\nfilter = { status = [] }\n",
            Invalid,
            "allows no value",
            "[]",
        ),
        (
            "entities = [\"Order\"]\nfilter = { total = [\"ten\"] }\n",
            Invalid,
            "this value is a string, not a number",
            "\"ten\"",
        ),
        (
            "entities = [\"Order\"]\nfilter = { lines = [1.5] }\n",
            Invalid,
            "not a whole number",
            "1.5",
        ),
        (
            "entities = [\"Order\"]\nfilter = { gift = [1] }\n",
            Invalid,
            "not a boolean",
            "1",
        ),
        (
            "entities = [\"Order\"]\nfilter = { notes = [\"x\"] }\n",
            Invalid,
            "a filter matches only strings, numbers and booleans",
            "\"x\"",
        ),
        // `status` is an enum of Order and a string of OrderItem: both must hold the value.
        (
            "entities = [\"OrderItem\", \"Order\"]\nfilter = { status = [\"LOST\"] }\n",
            Invalid,
            "not a value of enum",
            "\"LOST\"",
        ),
    ] {
        one_issue(&consumer(body), kind, needle, at);
    }
}

/// The help of the one issue `body` makes.
#[track_caller]
fn help(body: &str) -> String {
    let err = parse(&consumer(body)).expect_err(body);
    assert_eq!(err.issues.len(), 1, "{body}: {:#?}", err.issues);
    err.issues[0].help.clone().expect("a help")
}

#[test]
fn an_unknown_name_suggests_the_closest_declared_one_of_its_kind() {
    // A read: the closest read pattern, never a write of a nearer name.
    assert_eq!(
        help("entities = [\"Order\"]\nreads = [\"getOrdr\"]\n"),
        "a read pattern with a similar name exists: `getOrder`"
    );
    assert_eq!(
        help("entities = [\"Order\"]\nreads = [\"putOrdr\"]\n"),
        "declare it under [patterns] with a read operation (GetItem, Query, Scan, BatchGet)"
    );
    assert_eq!(
        help("entities = [\"Order\"]\nwrites = [\"putOrdr\"]\n"),
        "a write pattern with a similar name exists: `putOrder`"
    );
    assert_eq!(
        help("entities = [\"Ordr\"]\n"),
        "an entity with a similar name exists: `Order`"
    );
    assert_eq!(
        help("entities = [\"Order\"]\nfilter = { stauts = [\"PLACED\"] }\n"),
        "an attribute of its entities with a similar name exists: `status`"
    );
    // Nothing near: what to declare, and where.
    assert_eq!(
        help("entities = [\"Order\"]\nreads = [\"salesByDay\"]\n"),
        "declare it under [patterns] with a read operation (GetItem, Query, Scan, BatchGet)"
    );
    assert_eq!(
        help("entities = [\"Customer\"]\n"),
        "declare it under [entities]"
    );
    // A pattern in the wrong list says which list takes it.
    assert_eq!(
        help("entities = [\"Order\"]\nwrites = [\"getOrder\"]\n"),
        "`writes` lists write patterns (PutItem, UpdateItem, DeleteItem, ConditionCheck, TransactWrite, BatchWrite): list `getOrder` under `reads`"
    );
}

#[test]
fn a_filter_attribute_of_one_listed_entity_is_enough() {
    let c = only(&consumer(
        "entities = [\"OrderItem\", \"Order\"]\nfilter = { total = [5] }\n",
    ));
    assert_eq!(c.filter[0].1, [FilterValue::Number("5".into())]);
}

#[test]
fn a_consumer_name_is_letters_and_digits() {
    let source = format!("{MODEL}\n[consumers.\"sales-daily\"]\nentities = [\"Order\"]\n");
    let err = parse(&source).unwrap_err();
    assert_eq!(err.issues.len(), 1, "{err:?}");
    assert!(
        err.issues[0]
            .message
            .contains("`sales-daily` is not letters and digits")
    );
    let hidden = format!(
        "{MODEL}\n[consumers.c]\nentities = [\"Order\"]\nfilter = {{ status = [\"CANCEL\u{200b}LED\"] }}\n"
    );
    let err = parse(&hidden).unwrap_err();
    assert_eq!(err.issues[0].kind, IssueKind::HiddenCharacter, "{err:?}");
    let hidden = consumer("entities = [\"Order\"]\nreads = [\"get\\u001BOrder\"]\n");
    let err = parse(&hidden).unwrap_err();
    assert_eq!(err.issues.len(), 1, "{err:?}");
    assert_eq!(err.issues[0].kind, IssueKind::HiddenCharacter, "{err:?}");
    assert!(err.issues[0].message.contains("U+001B"), "{err:?}");
}

#[test]
fn an_unknown_consumer_field_is_refused() {
    let err = parse(&consumer("entities = [\"Order\"]\nbatchSize = 5\n")).unwrap_err();
    assert_eq!(err.issues[0].kind, IssueKind::Syntax);
    assert!(err.issues[0].message.contains("batchSize"), "{err:?}");
}

proptest::proptest! {
    /// Any whole number, any batch size and any retry count: accepted within Lambda's bounds
    /// with the number kept exactly, refused outside them, never a panic.
    #[test]
    fn numbers_are_kept_exactly_or_refused(n in proptest::num::i64::ANY, batch in -5i64..10_010, retries in -5i64..10_010) {
        let source = consumer(&format!(
            "entities = [\"Order\"]\nfilter = {{ lines = [{n}] }}\nbatch_size = {batch}\nretries = {retries}\n"
        ));
        let ok = (1..=10_000).contains(&batch) && (-1..=10_000).contains(&retries);
        match parse(&source) {
            Ok(model) => {
                proptest::prop_assert!(ok);
                let c = model.consumer("c").unwrap();
                proptest::prop_assert_eq!(&c.filter[0].1, &vec![FilterValue::Number(n.to_string())]);
                proptest::prop_assert_eq!(i64::from(c.batch_size), batch);
                proptest::prop_assert_eq!(i64::from(c.retries), retries);
            }
            Err(e) => {
                proptest::prop_assert!(!ok, "{:?}", e);
                proptest::prop_assert!(e.issues.iter().all(|i| i.span.is_some()));
            }
        }
    }
}

#[test]
fn lambda_filters_group_entities_by_image_and_attributes() {
    use monotable_model::{LambdaFilter, StreamImage};
    let model = parse(&consumer(
        "entities = [\"OrderItem\", \"Order\"]\nfilter = { total = [5] }\n",
    ))
    .unwrap();
    let c = model.consumer("c").unwrap();
    let five = vec![("total".to_string(), vec![FilterValue::Number("5".into())])];
    let filters = c.lambda_filters(&model, StreamView::NewAndOldImages);
    assert_eq!(
        filters,
        [
            LambdaFilter {
                events: vec![StreamEvent::Insert, StreamEvent::Modify],
                image: Some(StreamImage::New),
                entities: vec!["OrderItem".into()],
                attributes: vec![],
            },
            LambdaFilter {
                events: vec![StreamEvent::Insert, StreamEvent::Modify],
                image: Some(StreamImage::New),
                entities: vec!["Order".into()],
                attributes: five.clone(),
            },
            LambdaFilter {
                events: vec![StreamEvent::Remove],
                image: Some(StreamImage::Old),
                entities: vec!["OrderItem".into()],
                attributes: vec![],
            },
            LambdaFilter {
                events: vec![StreamEvent::Remove],
                image: Some(StreamImage::Old),
                entities: vec!["Order".into()],
                attributes: five,
            },
        ]
    );
    // Without a filter the entities share one filter per image; KEYS_ONLY matches events only.
    let plain = parse(&consumer("entities = [\"OrderItem\", \"Order\"]\n")).unwrap();
    let c = plain.consumer("c").unwrap();
    let filters = c.lambda_filters(&plain, StreamView::NewAndOldImages);
    assert_eq!(filters.len(), 2);
    assert_eq!(filters[0].entities, ["OrderItem", "Order"]);
    let keys = c.lambda_filters(&plain, StreamView::KeysOnly);
    assert_eq!(keys.len(), 1);
    assert_eq!((keys[0].image, keys[0].events.len()), (None, 3));
    // MODIFY matches the old image when the view carries no new one.
    let old = c.lambda_filters(&plain, StreamView::OldImage);
    assert_eq!(old.len(), 1);
    assert_eq!(old[0].image, Some(StreamImage::Old));
}

#[test]
fn more_filters_than_lambda_takes_is_refused_on_the_consumer() {
    // Three entities, each with a different subset of the filter attributes, on both images:
    // six filters.
    let source = format!(
        "{}\n[entities.Refund]\nattributes.orderId = {{ type = \"string\", required = true }}\nattributes.lines = {{ type = \"integer\" }}\nkeys.PK = \"ORDER#{{orderId}}\"\nkeys.SK = \"REFUND\"\n\n[consumers.c]\nentities = [\"Order\", \"OrderItem\", \"Refund\"]\nfilter = {{ total = [1], lines = [2] }}\n",
        MODEL
    );
    one_issue(
        &source,
        IssueKind::Invalid,
        "consumer `c` needs 6 Lambda filters, and an event source mapping takes 5",
        "[consumers.c]",
    );
}
