//! The record conversions: every value type both ways, and a Lambda event as AWS sends it.

use proptest::prelude::*;

use super::*;

fn value() -> impl Strategy<Value = AttributeValue> {
    let leaf = prop_oneof![
        any::<String>().prop_map(AttributeValue::S),
        any::<i64>().prop_map(|n| AttributeValue::N(n.to_string())),
        any::<bool>().prop_map(AttributeValue::Bool),
        any::<bool>().prop_map(AttributeValue::Null),
        proptest::collection::vec(any::<u8>(), 0..8).prop_map(|b| AttributeValue::B(Blob::new(b))),
        proptest::collection::vec(any::<String>(), 1..3).prop_map(AttributeValue::Ss),
        proptest::collection::vec(any::<i32>().prop_map(|n| n.to_string()), 1..3)
            .prop_map(AttributeValue::Ns),
        proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..4), 1..3)
            .prop_map(|bs| AttributeValue::Bs(bs.into_iter().map(Blob::new).collect())),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(AttributeValue::L),
            proptest::collection::hash_map("[a-z]{1,4}", inner, 0..4).prop_map(AttributeValue::M),
        ]
    })
}

proptest! {
    #[test]
    fn every_value_survives_the_lambda_event(v in value()) {
        let lambda = to_lambda_value(&v).expect("a known type");
        prop_assert_eq!(from_lambda_value(&lambda), v);
    }

    #[test]
    fn a_record_survives_the_lambda_event_and_its_json(
        image in proptest::collection::hash_map("[a-z]{1,6}", value(), 1..5),
        remove in any::<bool>(),
    ) {
        let record = StreamRecord {
            event: if remove { StreamEvent::Remove } else { StreamEvent::Insert },
            event_id: "e1".into(),
            sequence: "000000000000000000042".into(),
            keys: Item::from([("PK".to_string(), AttributeValue::S("A#1".into()))]),
            old_image: remove.then(|| image.clone()),
            new_image: (!remove).then(|| image.clone()),
            // The Lambda event carries whole seconds.
            created_ms: Some(1_700_000_000_000),
        };
        let json = serde_json::to_string(&record.to_lambda("T")).unwrap();
        let back: EventRecord = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(StreamRecord::from_lambda(&back).unwrap(), record);
    }
}

#[test]
fn a_lambda_event_as_aws_sends_it_is_read() {
    let json = r#"{"Records":[{"eventID":"1","eventName":"MODIFY","eventVersion":"1.1",
        "eventSource":"aws:dynamodb","awsRegion":"us-east-1",
        "dynamodb":{"ApproximateCreationDateTime":1479499740,
          "Keys":{"PK":{"S":"ORDER#1"},"SK":{"S":"ORDER"}},
          "NewImage":{"status":{"S":"CANCELLED"},"total":{"N":"12.50"}},
          "OldImage":{"status":{"S":"PLACED"},"total":{"N":"12.50"}},
          "SequenceNumber":"13021600000000001596893679","SizeBytes":112,
          "StreamViewType":"NEW_AND_OLD_IMAGES"},
        "eventSourceARN":"arn:aws:dynamodb:us-east-1:123456789012:table/Sales/stream/2016-11-16T20:42:48.104"}]}"#;
    let event: aws_lambda_events::event::dynamodb::Event = serde_json::from_str(json).unwrap();
    let record = StreamRecord::from_lambda(&event.records[0]).unwrap();
    assert_eq!(record.event, StreamEvent::Modify);
    assert_eq!(record.sequence, "13021600000000001596893679");
    assert_eq!(
        record.new_image.unwrap()["status"].as_s().unwrap(),
        "CANCELLED"
    );
    assert_eq!(record.old_image.unwrap()["total"].as_n().unwrap(), "12.50");
    assert_eq!(record.created_ms, Some(1_479_499_740_000));
}

#[test]
fn an_unknown_event_name_or_a_missing_sequence_is_an_error() {
    let mut record = StreamRecord {
        event: StreamEvent::Insert,
        event_id: "e".into(),
        sequence: "1".into(),
        keys: Item::new(),
        old_image: None,
        new_image: None,
        created_ms: None,
    }
    .to_lambda("T");
    record.event_name = "TRUNCATE".into();
    assert!(matches!(
        StreamRecord::from_lambda(&record),
        Err(RecordError::Event { .. })
    ));
    record.change.sequence_number = None;
    assert!(matches!(
        StreamRecord::from_lambda(&record),
        Err(RecordError::NoSequence { .. })
    ));
}
