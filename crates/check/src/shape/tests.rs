//! Shapes of templates and typed variables, and when two of them can produce the same key.

use monotable_model::{Attribute, AttributeType, KeyTemplate, KeyTest, TimestampFormat};

use super::{Resolver, Shape, condition_can_match};

fn t(s: &str) -> KeyTemplate {
    KeyTemplate::parse(s).unwrap()
}

fn ov(a: &str, b: &str) -> bool {
    let none: Resolver<'_> = &|_| None;
    Shape::of(&t(a), none).overlaps(&Shape::of(&t(b), none))
}

fn attr(ty: AttributeType, format: Option<TimestampFormat>, values: &[&str]) -> Attribute {
    Attribute {
        name: "v".to_string(),
        ty,
        required: true,
        values: values.iter().map(|v| v.to_string()).collect(),
        format,
        items: None,
        max_items: None,
        max_length: None,
        cardinality: None,
        money: false,
        description: None,
        default: None,
        span: 0..0,
        type_span: 0..0,
    }
}

/// Whether `{v}` typed as `a` can render as some key of `literal`'s shape.
fn typed_ov(a: &Attribute, template: &str, literal: &str) -> bool {
    let typed: Resolver<'_> = &|_| Some(a);
    let none: Resolver<'_> = &|_| None;
    Shape::of(&t(template), typed).overlaps(&Shape::of(&t(literal), none))
}

#[test]
fn overlaps() {
    assert!(ov("USER#{a}", "USER#{b}"));
    assert!(!ov("USER#{a}", "ORDER#{b}"));
    assert!(ov("{x}", "ORDER#{b}"));
    assert!(!ov("PROFILE", "ORDER#{b}"));
    assert!(ov("{a}#{b}", "X#Y#Z"));
    assert!(!ov("N#{n:03}", "N#{m:04}"));
    assert!(ov("N#{n:03}", "N#0{m:02}"));
    assert!(!ov("N#{n:03}", "N#abc"));
    assert!(!ov("ORDER", "ITEM#{n:04}"));
}

#[test]
fn every_timestamp_format_has_its_exact_shape() {
    use TimestampFormat::*;
    let samples = [
        (Rfc3339UtcMillis, "2024-05-01T12:00:00.000Z"),
        (Rfc3339Utc, "2024-05-01T12:00:00Z"),
        (Rfc3339Offset, "2024-05-01T14:00:00.5+02:00"),
        (Rfc3339Offset, "2024-05-01T14:00:00-05:00"),
        (Rfc3339Offset, "2024-05-01T14:00:00Z"),
        (Iso8601Naive, "2024-05-01T12:00:00"),
        (Iso8601Naive, "2024-05-01T12:00:00.123456"),
        (Date, "2024-05-01"),
        (EpochSeconds, "1714564800"),
        (EpochMillis, "1714564800000"),
        (EpochSeconds, "-86400"),
    ];
    for (format, sample) in samples {
        let a = attr(AttributeType::Timestamp, Some(format), &[]);
        assert!(typed_ov(&a, "{v}", sample), "{format:?} renders {sample}");
        let epoch = matches!(format, EpochSeconds | EpochMillis);
        assert_eq!(typed_ov(&a, "{v}", "2024"), epoch, "{format:?} and 2024");
        for literal in ["META", "ROLLUP#day", "LATEST", "x2024-05-01"] {
            assert!(!typed_ov(&a, "{v}", literal), "{format:?} is not {literal}");
        }
        // A literal after the variable is still told apart.
        assert!(!typed_ov(&a, "{v}#{id}", "META#x"), "{format:?}");
    }
    let millis = attr(AttributeType::Timestamp, Some(Rfc3339UtcMillis), &[]);
    assert!(!typed_ov(&millis, "{v}", "2024-05-01T12:00:00Z"));
    let date = attr(AttributeType::Timestamp, Some(Date), &[]);
    assert!(!typed_ov(&date, "{v}", "2024-05-01T12:00:00Z"));
    // Without a format a timestamp could be anything.
    let unformatted = attr(AttributeType::Timestamp, None, &[]);
    assert!(typed_ov(&unformatted, "{v}", "META"));
}

#[test]
fn numbers_enums_and_booleans_have_their_shapes() {
    let int = attr(AttributeType::Integer, None, &[]);
    assert!(typed_ov(&int, "{v}", "42") && typed_ov(&int, "{v}", "-7"));
    assert!(!typed_ov(&int, "{v}", "META") && !typed_ov(&int, "{v}", "1.5"));
    let dec = attr(AttributeType::Decimal, None, &[]);
    assert!(typed_ov(&dec, "{v}", "12.50") && typed_ov(&dec, "{v}", "-3"));
    assert!(!typed_ov(&dec, "{v}", "TOTAL") && !typed_ov(&dec, "{v}", "1."));
    let num = attr(AttributeType::Number, None, &[]);
    assert!(typed_ov(&num, "{v}", "1e3") && !typed_ov(&num, "{v}", "META"));
    let status = attr(AttributeType::Enum, None, &["OPEN", "DONE"]);
    assert!(typed_ov(&status, "{v}", "OPEN") && !typed_ov(&status, "{v}", "META"));
    let flag = attr(AttributeType::Boolean, None, &[]);
    assert!(typed_ov(&flag, "{v}", "true") && !typed_ov(&flag, "{v}", "yes"));
    let s = attr(AttributeType::String, None, &[]);
    assert!(typed_ov(&s, "{v}", "META"));
}

#[test]
fn many_enum_values_do_not_blur_the_shape() {
    let values: Vec<String> = (0..200).map(|i| format!("V{i}")).collect();
    let refs: Vec<&str> = values.iter().map(String::as_str).collect();
    let e = attr(AttributeType::Enum, None, &refs);
    let typed: Resolver<'_> = &|_| Some(&e);
    let none: Resolver<'_> = &|_| None;
    let shape = Shape::of(&t("{v}#{v}#{v}"), typed);
    assert!(shape.overlaps(&Shape::of(&t("V1#V199#V0"), none)));
    assert!(!shape.overlaps(&Shape::of(&t("V1#META#V0"), none)));
}

#[test]
fn conditions() {
    let none: Resolver<'_> = &|_| None;
    let c = KeyTest::Between(t("DATE#{a}"), t("DATE#{b}"));
    assert!(!condition_can_match(&c, none, &t("ORDER#{id}"), none));
    assert!(condition_can_match(&c, none, &t("DATE#{id}"), none));
    let c = KeyTest::BeginsWith(t("ORDER#"));
    assert!(condition_can_match(&c, none, &t("ORDER#{id}"), none));
    assert!(!condition_can_match(&c, none, &t("PROFILE"), none));
    let c = KeyTest::Gt(t("B"));
    assert!(!condition_can_match(&c, none, &t("A#{x}"), none));
    assert!(condition_can_match(&c, none, &t("C#{x}"), none));
}

#[test]
fn first_characters_are_known_when_few() {
    let none: Resolver<'_> = &|_| None;
    let first = |a: &Attribute, template: &str| {
        let typed: Resolver<'_> = &|_| Some(a);
        Shape::of(&t(template), typed).first_chars()
    };
    let status = attr(AttributeType::Enum, None, &["PAID", "NEW", "PENDING"]);
    assert_eq!(first(&status, "{v}"), Some(vec!['N', 'P']));
    let day = attr(AttributeType::Timestamp, Some(TimestampFormat::Date), &[]);
    assert_eq!(first(&day, "{v}#x").map(|c| c.len()), Some(10));
    let n = attr(AttributeType::Integer, None, &[]);
    assert!(first(&n, "{v}").is_some_and(|c| c.contains(&'-') && c.contains(&'7')));
    let id = attr(AttributeType::String, None, &[]);
    assert_eq!(first(&id, "{v}"), None, "any character");
    assert_eq!(
        Shape::of(&t("USER#{v}"), none).first_chars(),
        Some(vec!['U'])
    );
    assert_eq!(
        Shape::of(&KeyTemplate::literal(""), none).first_chars(),
        None
    );
}
