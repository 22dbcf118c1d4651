//! Rust values as DynamoDB attribute values, both ways and exactly: strings, booleans, integers
//! (as `N`, parsed back without a float), `rust_decimal::Decimal` (as `N`, exact), lists, maps and
//! sets; timestamps in each format the model names; and the text a value takes inside a key.
//!
//! DynamoDB holds no empty set: an entity's empty set is stored as no attribute, and reads back
//! as an empty set (a required attribute) or `None` (an optional one).
//!
//! The `Entity` derive calls these for each field, choosing by the model's attribute type, so a
//! field whose Rust type cannot hold that type is a compile error naming the trait below.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use aws_sdk_dynamodb::types::AttributeValue;
use rust_decimal::Decimal;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime, UtcOffset};

/// A value could not be read from an attribute.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ValueError(pub String);

fn wrong(expected: &str, got: &AttributeValue) -> ValueError {
    let kind = match got {
        AttributeValue::S(_) => "a string",
        AttributeValue::N(_) => "a number",
        AttributeValue::B(_) => "binary",
        AttributeValue::Bool(_) => "a boolean",
        AttributeValue::Null(_) => "null",
        AttributeValue::L(_) => "a list",
        AttributeValue::M(_) => "a map",
        AttributeValue::Ss(_) => "a string set",
        AttributeValue::Ns(_) => "a number set",
        AttributeValue::Bs(_) => "a binary set",
        _ => "an unknown type",
    };
    ValueError(format!("expected {expected}, found {kind}"))
}

/// A Rust type stored as one DynamoDB attribute.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored as this model attribute",
    label = "this field's type does not match the model",
    note = "strings are `String`, integers `i64` (or another integer type), decimals `rust_decimal::Decimal`, numbers `f64`, booleans `bool`, lists `Vec<T>`, maps `HashMap<String, T>`, sets `BTreeSet<String>` (or of integers or decimals); an enum attribute needs `#[derive(monotable::Enum)]`"
)]
pub trait Value: Sized {
    /// The attribute value.
    fn to_value(&self) -> AttributeValue;
    /// The Rust value of `value`.
    fn from_value(value: &AttributeValue) -> Result<Self, ValueError>;
}

impl Value for String {
    fn to_value(&self) -> AttributeValue {
        AttributeValue::S(self.clone())
    }
    fn from_value(value: &AttributeValue) -> Result<Self, ValueError> {
        value.as_s().cloned().map_err(|v| wrong("a string", v))
    }
}

impl Value for bool {
    fn to_value(&self) -> AttributeValue {
        AttributeValue::Bool(*self)
    }
    fn from_value(value: &AttributeValue) -> Result<Self, ValueError> {
        value.as_bool().copied().map_err(|v| wrong("a boolean", v))
    }
}

/// Marks the integer types (`N` in DynamoDB, parsed back exactly).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold a model `integer` attribute",
    label = "use an integer type (i64, u32, ...)",
    note = "a float would round; a string would not sort as a number"
)]
pub trait Integer: Value {}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn to_value(&self) -> AttributeValue {
                AttributeValue::N(self.to_string())
            }
            fn from_value(value: &AttributeValue) -> Result<Self, ValueError> {
                let text = value.as_n().map_err(|v| wrong("a number", v))?;
                text.parse().map_err(|_| {
                    ValueError(format!("`{text}` is not a {}", stringify!($t)))
                })
            }
        }
        impl Integer for $t {}
        impl KeyText for $t {
            fn write_key(&self, out: &mut String, pad: Option<usize>) {
                write_padded(out, &self.to_string(), pad);
            }
        }
    )*};
}
integers!(
    i8, i16, i32, i64, i128, u8, u16, u32, u64, u128, isize, usize
);

macro_rules! floats {
    ($($t:ty),*) => {$(
        /// A model `number` (`float`): written as the shortest text that reads back as the same
        /// value, so it round-trips exactly. DynamoDB holds no NaN or infinity: writing one fails
        /// as an invalid request.
        impl Value for $t {
            fn to_value(&self) -> AttributeValue {
                AttributeValue::N(self.to_string())
            }
            fn from_value(value: &AttributeValue) -> Result<Self, ValueError> {
                let text = value.as_n().map_err(|v| wrong("a number", v))?;
                text.parse().map_err(|_| {
                    ValueError(format!("`{text}` is not a {}", stringify!($t)))
                })
            }
        }
        impl KeyText for $t {
            fn write_key(&self, out: &mut String, _pad: Option<usize>) {
                out.push_str(&self.to_string());
            }
        }
    )*};
}
floats!(f32, f64);

/// Marks the exact decimal type of money and quantities.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold a model `decimal` attribute",
    label = "use rust_decimal::Decimal",
    note = "a `decimal` is exact both ways; an f64 would round 0.1 + 0.2 to 0.30000000000000004"
)]
pub trait ExactDecimal: Value {}

impl Value for Decimal {
    fn to_value(&self) -> AttributeValue {
        AttributeValue::N(self.normalize().to_string())
    }
    fn from_value(value: &AttributeValue) -> Result<Self, ValueError> {
        let text = value.as_n().map_err(|v| wrong("a number", v))?;
        text.parse::<Decimal>()
            .or_else(|_| Decimal::from_scientific(text))
            .map_err(|_| ValueError(format!("`{text}` is not a decimal")))
    }
}
impl ExactDecimal for Decimal {}

impl<T: Value> Value for Vec<T> {
    fn to_value(&self) -> AttributeValue {
        AttributeValue::L(self.iter().map(Value::to_value).collect())
    }
    fn from_value(value: &AttributeValue) -> Result<Self, ValueError> {
        value
            .as_l()
            .map_err(|v| wrong("a list", v))?
            .iter()
            .map(T::from_value)
            .collect()
    }
}

macro_rules! maps {
    ($($m:ident),*) => {$(
        impl<T: Value> Value for $m<String, T> {
            fn to_value(&self) -> AttributeValue {
                AttributeValue::M(self.iter().map(|(k, v)| (k.clone(), v.to_value())).collect())
            }
            fn from_value(value: &AttributeValue) -> Result<Self, ValueError> {
                value
                    .as_m()
                    .map_err(|v| wrong("a map", v))?
                    .iter()
                    .map(|(k, v)| Ok((k.clone(), T::from_value(v)?)))
                    .collect()
            }
        }
    )*};
}
maps!(HashMap, BTreeMap);

macro_rules! string_sets {
    ($($s:ident),*) => {$(
        impl Value for $s<String> {
            fn to_value(&self) -> AttributeValue {
                AttributeValue::Ss(self.iter().cloned().collect())
            }
            fn from_value(value: &AttributeValue) -> Result<Self, ValueError> {
                Ok(value.as_ss().map_err(|v| wrong("a string set", v))?.iter().cloned().collect())
            }
        }
    )*};
}
string_sets!(HashSet, BTreeSet);

/// Number sets (`NS`) of integers and decimals, each element exact both ways.
macro_rules! number_sets {
    ($($n:ty),*) => {$(
        impl Value for BTreeSet<$n> {
            fn to_value(&self) -> AttributeValue {
                number_set(self.iter())
            }
            fn from_value(value: &AttributeValue) -> Result<Self, ValueError> {
                read_number_set(value)
            }
        }
        impl Value for HashSet<$n> {
            fn to_value(&self) -> AttributeValue {
                number_set(self.iter())
            }
            fn from_value(value: &AttributeValue) -> Result<Self, ValueError> {
                read_number_set(value)
            }
        }
    )*};
}
number_sets!(
    i8, i16, i32, i64, i128, u8, u16, u32, u64, u128, isize, usize, Decimal
);

fn number_set<'a, T: Value + 'a>(items: impl Iterator<Item = &'a T>) -> AttributeValue {
    AttributeValue::Ns(
        items
            .filter_map(|n| n.to_value().as_n().ok().cloned())
            .collect(),
    )
}

fn read_number_set<T: Value, C: FromIterator<T>>(value: &AttributeValue) -> Result<C, ValueError> {
    value
        .as_ns()
        .map_err(|v| wrong("a number set", v))?
        .iter()
        .map(|n| T::from_value(&AttributeValue::N(n.clone())))
        .collect()
}

/// Whether `value` is a set with no element: DynamoDB holds no empty set, so an item stores none
/// (the attribute is absent) and an update removes the attribute instead.
pub fn is_empty_set(value: &AttributeValue) -> bool {
    match value {
        AttributeValue::Ss(v) | AttributeValue::Ns(v) => v.is_empty(),
        AttributeValue::Bs(v) => v.is_empty(),
        _ => false,
    }
}

/// The text a value takes inside a key template (`USER#{userId}`, `ITEM#{lineNo:03}`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written into a key template",
    label = "a key template input must be a string, an integer, a boolean, a decimal, a number, an enum or a timestamp"
)]
pub trait KeyText {
    /// Append the text to `out`; `pad` zero-pads integers to that many digits.
    fn write_key(&self, out: &mut String, pad: Option<usize>);
}

impl KeyText for String {
    fn write_key(&self, out: &mut String, _pad: Option<usize>) {
        out.push_str(self);
    }
}

impl KeyText for str {
    fn write_key(&self, out: &mut String, _pad: Option<usize>) {
        out.push_str(self);
    }
}

impl KeyText for bool {
    fn write_key(&self, out: &mut String, _pad: Option<usize>) {
        out.push_str(if *self { "true" } else { "false" });
    }
}

impl KeyText for Decimal {
    fn write_key(&self, out: &mut String, pad: Option<usize>) {
        write_padded(out, &self.normalize().to_string(), pad);
    }
}

impl<T: KeyText + ?Sized> KeyText for &T {
    fn write_key(&self, out: &mut String, pad: Option<usize>) {
        (**self).write_key(out, pad);
    }
}

/// `text` zero-padded to `pad` digits (a negative number keeps its sign in front).
fn write_padded(out: &mut String, text: &str, pad: Option<usize>) {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(d) => ("-", d),
        None => ("", text),
    };
    out.push_str(sign);
    if let Some(width) = pad {
        for _ in digits.len()..width {
            out.push('0');
        }
    }
    out.push_str(digits);
}

/// A Rust enum as a model `enum` attribute: `#[derive(monotable::Enum)]` implements it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold a model `enum` attribute",
    label = "derive it: #[derive(monotable::Enum)]",
    note = "an enum attribute is a Rust enum of unit variants whose texts are the model's values"
)]
pub trait EnumValue: Sized + 'static {
    /// The variants' texts, in declaration order.
    const VALUES: &'static [&'static str];
    /// This variant's text.
    fn as_str(&self) -> &'static str;
    /// The variant whose text is `text`.
    fn from_text(text: &str) -> Option<Self>;
}

/// Whether `a` and `b` hold the same texts, in any order (a const fn, so the `Entity` derive can
/// assert at compile time that an enum's variants are the model's values).
pub const fn same_values(a: &[&str], b: &[&str]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !contains(b, a[i]) || !contains(a, b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `list` holds `text` (a const fn, for the `Entity` derive's enum assertions).
pub const fn has_value(list: &[&str], text: &str) -> bool {
    contains(list, text)
}

/// Whether `list` holds every text of `of`.
pub const fn has_all(list: &[&str], of: &[&str]) -> bool {
    let mut i = 0;
    while i < of.len() {
        if !contains(list, of[i]) {
            return false;
        }
        i += 1;
    }
    true
}

const fn contains(list: &[&str], text: &str) -> bool {
    let mut i = 0;
    while i < list.len() {
        if str_eq(list[i], text) {
            return true;
        }
        i += 1;
    }
    false
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// How a timestamp is written, as the model's `format` names it.
///
/// A format coarser than the time it writes truncates it toward the past (never rounds): a time
/// comes back from its item equal to what was written only when it is already at the format's
/// precision. Every format but `Rfc3339Offset` writes the time in UTC; the text formats hold
/// years 0000 to 9999.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TimeFormat {
    /// `2024-05-01T12:00:00.000Z`: below the millisecond is dropped.
    Rfc3339UtcMillis,
    /// `2024-05-01T12:00:00Z`: below the second is dropped.
    Rfc3339Utc,
    /// `2024-05-01T14:00:00+02:00`: nanoseconds and the offset are kept (an offset with seconds,
    /// which RFC 3339 cannot write, is written at its whole minutes; the instant is kept).
    Rfc3339Offset,
    /// `2024-05-01T12:00:00.123456` (no zone; fraction omitted when zero): below the
    /// microsecond is dropped.
    Iso8601Naive,
    /// `2024-05-01`: the UTC day; the time of day is dropped.
    Date,
    /// Seconds since the epoch, a number: below the second is dropped.
    EpochSeconds,
    /// Milliseconds since the epoch, a number: below the millisecond is dropped.
    EpochMillis,
}

/// A time type that holds a model `timestamp` attribute.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold a model `timestamp` attribute",
    label = "use time::OffsetDateTime (or time::Date for `format = \"date\"`)"
)]
pub trait Timestamp: Sized {
    /// The attribute value in `format`.
    fn to_value(&self, format: TimeFormat) -> AttributeValue;
    /// The time in `value`, written in `format`.
    fn from_value(value: &AttributeValue, format: TimeFormat) -> Result<Self, ValueError>;
    /// The key text in `format`.
    fn write_key(&self, out: &mut String, format: TimeFormat);
}

fn utc(t: OffsetDateTime) -> OffsetDateTime {
    t.checked_to_offset(UtcOffset::UTC).unwrap_or(t)
}

/// `t` at its offset without the offset's seconds (the same instant).
fn whole_minutes(t: OffsetDateTime) -> OffsetDateTime {
    let (h, m, _) = t.offset().as_hms();
    UtcOffset::from_hms(h, m, 0)
        .ok()
        .and_then(|o| t.checked_to_offset(o))
        .unwrap_or(t)
}

/// The text (or number text) of `t` in `format`. A format coarser than the time truncates it
/// toward the past: `rfc3339-utc-millis` and `epoch-millis` drop what is below the millisecond,
/// `iso8601-naive` below the microsecond, `rfc3339-utc` and `epoch-seconds` below the second,
/// `date` the time of day (in UTC). `rfc3339-offset` keeps nanoseconds.
pub fn format_time(t: OffsetDateTime, format: TimeFormat) -> String {
    let text = match format {
        TimeFormat::Rfc3339UtcMillis => utc(t).format(format_description!(
            "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
        )),
        TimeFormat::Rfc3339Utc => utc(t).format(format_description!(
            "[year]-[month]-[day]T[hour]:[minute]:[second]Z"
        )),
        // RFC 3339 writes no offset seconds and no year outside 0000-9999: a time at such an
        // offset is written at its offset's whole minutes, or in UTC (the same instant).
        TimeFormat::Rfc3339Offset => t
            .format(&Rfc3339)
            .or_else(|_| whole_minutes(t).format(&Rfc3339))
            .or_else(|_| utc(t).format(&Rfc3339)),
        TimeFormat::Iso8601Naive => {
            let u = utc(t);
            if u.nanosecond() == 0 {
                u.format(format_description!(
                    "[year]-[month]-[day]T[hour]:[minute]:[second]"
                ))
            } else {
                u.format(format_description!(
                    "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]"
                ))
            }
        }
        TimeFormat::Date => utc(t).format(format_description!("[year]-[month]-[day]")),
        TimeFormat::EpochSeconds => Ok(t.unix_timestamp().to_string()),
        TimeFormat::EpochMillis => Ok(t.unix_timestamp_nanos().div_euclid(1_000_000).to_string()),
    };
    text.unwrap_or_default()
}

/// The time in `text` written in `format`.
pub fn parse_time(text: &str, format: TimeFormat) -> Result<OffsetDateTime, ValueError> {
    let bad = || ValueError(format!("`{text}` is not a {format:?} timestamp"));
    let number = |scale: i128| -> Result<OffsetDateTime, ValueError> {
        let n: i128 = text.parse().map_err(|_| bad())?;
        OffsetDateTime::from_unix_timestamp_nanos(n.checked_mul(scale).ok_or_else(bad)?)
            .map_err(|_| bad())
    };
    match format {
        TimeFormat::EpochSeconds => number(1_000_000_000),
        TimeFormat::EpochMillis => number(1_000_000),
        TimeFormat::Date => Date::parse(text, format_description!("[year]-[month]-[day]"))
            .map(|d| d.midnight().assume_utc())
            .map_err(|_| bad()),
        TimeFormat::Iso8601Naive => {
            let with =
                format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond]");
            let without = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
            time::PrimitiveDateTime::parse(text, with)
                .or_else(|_| time::PrimitiveDateTime::parse(text, without))
                .map(|t| t.assume_utc())
                .map_err(|_| bad())
        }
        _ => OffsetDateTime::parse(text, &Rfc3339).map_err(|_| bad()),
    }
}

fn is_number(format: TimeFormat) -> bool {
    matches!(format, TimeFormat::EpochSeconds | TimeFormat::EpochMillis)
}

impl Timestamp for OffsetDateTime {
    fn to_value(&self, format: TimeFormat) -> AttributeValue {
        let text = format_time(*self, format);
        if is_number(format) {
            AttributeValue::N(text)
        } else {
            AttributeValue::S(text)
        }
    }
    fn from_value(value: &AttributeValue, format: TimeFormat) -> Result<Self, ValueError> {
        let text = match value {
            AttributeValue::S(s) if !is_number(format) => s,
            AttributeValue::N(n) if is_number(format) => n,
            other => {
                return Err(wrong(
                    if is_number(format) {
                        "a number"
                    } else {
                        "a string"
                    },
                    other,
                ));
            }
        };
        parse_time(text, format)
    }
    fn write_key(&self, out: &mut String, format: TimeFormat) {
        out.push_str(&format_time(*self, format));
    }
}

impl Timestamp for Date {
    fn to_value(&self, format: TimeFormat) -> AttributeValue {
        self.midnight().assume_utc().to_value(format)
    }
    fn from_value(value: &AttributeValue, format: TimeFormat) -> Result<Self, ValueError> {
        OffsetDateTime::from_value(value, format).map(|t| t.date())
    }
    fn write_key(&self, out: &mut String, format: TimeFormat) {
        self.midnight().assume_utc().write_key(out, format);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round<T: Value + PartialEq + std::fmt::Debug>(v: T) {
        assert_eq!(T::from_value(&v.to_value()).unwrap(), v);
    }

    #[test]
    fn values_round_trip_exactly() {
        round("x".to_string());
        round(true);
        round(i64::MIN);
        round(u64::MAX);
        round("12345678901234567890.123456789".parse::<Decimal>().unwrap());
        round(vec![1i32, 2, 3]);
        round(HashMap::from([("a".to_string(), vec![true])]));
        round(BTreeSet::from(["b".to_string(), "a".to_string()]));
        round(BTreeSet::from([3i64, -1, 2]));
        round(HashSet::from([1u8, 255]));
        round(BTreeSet::from(["0.10".parse::<Decimal>().unwrap()]));
        assert_eq!(
            BTreeSet::from(["1.50".parse::<Decimal>().unwrap()]).to_value(),
            AttributeValue::Ns(vec!["1.5".into()])
        );
        assert!(is_empty_set(&BTreeSet::<i64>::new().to_value()));
        assert!(is_empty_set(&HashSet::<String>::new().to_value()));
        assert!(!is_empty_set(&Vec::<i64>::new().to_value()));
        let sum: Decimal = "0.1".parse::<Decimal>().unwrap() + "0.2".parse::<Decimal>().unwrap();
        assert_eq!(sum.to_value(), AttributeValue::N("0.3".into()));
        assert!(i8::from_value(&AttributeValue::N("300".into())).is_err());
        assert!(i64::from_value(&AttributeValue::N("1.5".into())).is_err());
        assert!(String::from_value(&AttributeValue::N("1".into())).is_err());
    }

    #[test]
    fn number_attributes_hold_floats() {
        // A model `number` held in an f64 (the derive's advice) did not compile: no `Value`.
        for f in [
            0.1f64,
            -2.5e-7,
            1e21,
            123456.789,
            f64::MAX,
            f64::MIN_POSITIVE,
            0.0,
        ] {
            round(f);
        }
        round(0.1f32);
        assert_eq!(0.1f64.to_value(), AttributeValue::N("0.1".into()));
        assert_eq!(f64::from_value(&AttributeValue::N("1E-7".into())), Ok(1e-7));
        let mut key = String::new();
        2.5f64.write_key(&mut key, None);
        assert_eq!(key, "2.5");
    }

    #[test]
    fn epoch_millis_floor_times_before_1970() {
        // Integer division rounded a time before 1970 toward the epoch: 0.5 ms before it was
        // written as 0, half a millisecond later than the time, while every other format
        // truncates toward the past.
        let t = OffsetDateTime::from_unix_timestamp_nanos(-500_000).unwrap();
        assert_eq!(format_time(t, TimeFormat::EpochMillis), "-1");
        assert_eq!(
            format_time(t, TimeFormat::Rfc3339UtcMillis),
            "1969-12-31T23:59:59.999Z"
        );
        let t = OffsetDateTime::from_unix_timestamp_nanos(-1_500_000_001).unwrap();
        assert_eq!(format_time(t, TimeFormat::EpochMillis), "-1501");
        assert_eq!(format_time(t, TimeFormat::EpochSeconds), "-2");
    }

    #[test]
    fn rfc3339_offset_writes_an_offset_with_seconds() {
        // RFC 3339 has no offset seconds: such a time was written as an empty string.
        let offset = UtcOffset::from_hms(0, 17, 30).unwrap();
        let t = OffsetDateTime::parse("1920-01-01T12:00:00Z", &Rfc3339)
            .unwrap()
            .to_offset(offset);
        let text = format_time(t, TimeFormat::Rfc3339Offset);
        assert_eq!(text, "1920-01-01T12:17:00+00:17");
        assert_eq!(parse_time(&text, TimeFormat::Rfc3339Offset).unwrap(), t);
        // A local time in year -1 (its instant in year 0) is written in UTC.
        let t = OffsetDateTime::parse("0000-01-01T00:10:00Z", &Rfc3339)
            .unwrap()
            .to_offset(UtcOffset::from_hms(-1, 0, 0).unwrap());
        let text = format_time(t, TimeFormat::Rfc3339Offset);
        assert_eq!(text, "0000-01-01T00:10:00Z");
    }

    #[test]
    fn timestamps_keep_their_format() {
        let t = OffsetDateTime::parse("2026-12-03T10:11:12.345+02:00", &Rfc3339).unwrap();
        let cases = [
            (TimeFormat::Rfc3339UtcMillis, "2026-12-03T08:11:12.345Z"),
            (TimeFormat::Rfc3339Utc, "2026-12-03T08:11:12Z"),
            (TimeFormat::Date, "2026-12-03"),
            (TimeFormat::EpochSeconds, "1796285472"),
            (TimeFormat::EpochMillis, "1796285472345"),
        ];
        for (format, text) in cases {
            assert_eq!(format_time(t, format), text, "{format:?}");
            let back = parse_time(text, format).unwrap();
            assert_eq!(format_time(back, format), text, "{format:?}");
        }
        let millis = OffsetDateTime::from_value(
            &t.to_value(TimeFormat::Rfc3339UtcMillis),
            TimeFormat::Rfc3339UtcMillis,
        )
        .unwrap();
        assert_eq!(millis, t);
        assert!(
            OffsetDateTime::from_value(&AttributeValue::N("1".into()), TimeFormat::Date).is_err()
        );
    }

    #[test]
    fn enum_values_compare_as_sets() {
        assert!(same_values(&["A", "B"], &["B", "A"]));
        assert!(!same_values(&["A", "B"], &["A", "C"]));
        assert!(!same_values(&["A"], &["A", "A"]));
        assert!(!same_values(&["A", "A"], &["A", "B"]));
    }

    #[test]
    fn key_text_pads_integers() {
        let mut out = String::new();
        7u32.write_key(&mut out, Some(3));
        out.push('#');
        (-7i64).write_key(&mut out, Some(3));
        out.push('#');
        true.write_key(&mut out, None);
        assert_eq!(out, "007#-007#true");
    }
}
