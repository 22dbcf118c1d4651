//! The timestamp formats as the file names them, and the step each writes.

use super::TimestampFormat;

#[test]
fn every_timestamp_format_is_listed_once_under_its_file_name() {
    // The schema lists every variant serde knows (each documented one as a `const`):
    // `ALL` must hold each of them.
    let schema = serde_json::to_value(schemars::schema_for!(TimestampFormat)).unwrap();
    let variants = schema["oneOf"].as_array().expect("documented variants");
    let names: Vec<&str> = variants
        .iter()
        .flat_map(|v| match v["enum"].as_array() {
            Some(values) => values.iter().filter_map(|n| n.as_str()).collect(),
            None => v["const"].as_str().into_iter().collect::<Vec<_>>(),
        })
        .collect();
    assert_eq!(names.len(), TimestampFormat::ALL.len(), "{names:?}");
    for format in TimestampFormat::ALL {
        assert!(names.contains(&format.name()), "{}", format.name());
        let json = serde_json::to_value(format).unwrap();
        assert_eq!(json.as_str(), Some(format.name()));
    }
    assert_eq!(
        TimestampFormat::default(),
        TimestampFormat::Rfc3339UtcMillis
    );
    assert!(TimestampFormat::EpochMillis.is_number() && !TimestampFormat::Date.is_number());
}

#[test]
fn each_format_names_the_step_it_writes() {
    for format in TimestampFormat::ALL {
        let nanos = format.resolution_nanos();
        let millis = i128::from(format.resolution_millis());
        assert_eq!(millis, (nanos / 1_000_000).max(1), "{}", format.name());
        assert!(!format.precision().is_empty());
    }
    assert_eq!(TimestampFormat::Rfc3339Utc.precision(), "whole seconds");
}
