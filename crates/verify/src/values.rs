//! Typed sample values: timestamps in every model format, numbers of differing widths, ids.

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::{Attribute, AttributeType, TimestampFormat};

/// One attribute value of a sample item: the text key templates see, and the typed DynamoDB value.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    /// What a key template renders (numbers as digits, booleans as `true`/`false`).
    pub text: String,
    /// What the item stores.
    pub av: AttributeValue,
}

impl Value {
    /// A string value.
    pub fn s(text: impl Into<String>) -> Value {
        let text = text.into();
        Value {
            av: AttributeValue::S(text.clone()),
            text,
        }
    }

    /// A number value.
    pub fn n(text: impl Into<String>) -> Value {
        let text = text.into();
        Value {
            av: AttributeValue::N(text.clone()),
            text,
        }
    }

    /// A boolean value.
    pub fn b(value: bool) -> Value {
        Value {
            text: value.to_string(),
            av: AttributeValue::Bool(value),
        }
    }
}

/// The text of a key value as its template rendered it: `S` and `N` as written, `B` as the
/// text whose bytes it holds; `None` for any other type.
pub fn key_text(value: &AttributeValue) -> Option<String> {
    match value {
        AttributeValue::S(s) | AttributeValue::N(s) => Some(s.clone()),
        AttributeValue::B(bytes) => String::from_utf8(bytes.as_ref().to_vec()).ok(),
        _ => None,
    }
}

/// The text a key template renders for an attribute value: [`key_text`], and booleans as
/// `true`/`false`; `None` for lists, maps, sets and nulls, which no template can hold.
pub fn template_text(value: &AttributeValue) -> Option<String> {
    match value {
        AttributeValue::Bool(b) => Some(b.to_string()),
        other => key_text(other),
    }
}

const MS_PER_DAY: i64 = 86_400_000;

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day number.
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// The days sample instants fall on: two busy days next to each other (so several items share a
/// day), a quieter one, and one before 2001-09-09 whose epoch seconds have 9 digits, not 10.
pub fn sample_days() -> [i64; 4] {
    [
        days_from_civil(2024, 5, 1),
        days_from_civil(2024, 5, 2),
        days_from_civil(2024, 6, 15),
        days_from_civil(2001, 9, 8),
    ]
}

/// A sample instant (milliseconds since the epoch): mostly on the two busy days, with times at
/// the very start and end of the day as well as in between.
pub fn sample_instant(rng: &mut fastrand::Rng) -> i64 {
    let days = sample_days();
    let day = if rng.u8(0..4) == 0 {
        days[rng.usize(2..4)]
    } else {
        days[rng.usize(0..2)]
    };
    let time = match rng.u8(0..5) {
        0 => 0,
        1 => MS_PER_DAY - 1,
        2 => 43_200_000,
        _ => rng.i64(0..MS_PER_DAY),
    };
    day * MS_PER_DAY + time
}

/// UTC offsets (minutes) used for `rfc3339-offset`, chosen by the instant.
const OFFSETS: [i64; 3] = [0, 120, -300];

fn clock(ms: i64) -> (i64, i64, i64, i64, i64, i64, i64) {
    let day = ms.div_euclid(MS_PER_DAY);
    let rest = ms.rem_euclid(MS_PER_DAY);
    let (y, mo, d) = civil_from_days(day);
    (
        y,
        mo,
        d,
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000,
    )
}

/// An instant written in a timestamp format; epoch formats are numbers.
pub fn format_instant(ms: i64, format: TimestampFormat) -> Value {
    match format {
        TimestampFormat::EpochSeconds => Value::n(ms.div_euclid(1000).to_string()),
        TimestampFormat::EpochMillis => Value::n(ms.to_string()),
        TimestampFormat::Date => {
            let (y, mo, d, ..) = clock(ms);
            Value::s(format!("{y:04}-{mo:02}-{d:02}"))
        }
        TimestampFormat::Rfc3339UtcMillis => {
            let (y, mo, d, h, mi, s, f) = clock(ms);
            Value::s(format!(
                "{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{f:03}Z"
            ))
        }
        TimestampFormat::Rfc3339Utc => {
            let (y, mo, d, h, mi, s, _) = clock(ms);
            Value::s(format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"))
        }
        TimestampFormat::Iso8601Naive => {
            let (y, mo, d, h, mi, s, f) = clock(ms);
            let mut text = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}");
            if f != 0 {
                text.push_str(&format!(".{:06}", f * 1000));
            }
            Value::s(text)
        }
        TimestampFormat::Rfc3339Offset => {
            let offset = OFFSETS[(ms.div_euclid(1000).rem_euclid(3)) as usize];
            let (y, mo, d, h, mi, s, f) = clock(ms + offset * 60_000);
            let sign = if offset < 0 { '-' } else { '+' };
            let abs = offset.abs();
            Value::s(format!(
                "{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{f:03}{sign}{:02}:{:02}",
                abs / 60,
                abs % 60
            ))
        }
    }
}

/// Reads exactly `width` ASCII digits as a number (at most 9, so it cannot overflow).
fn digits(text: &str, width: usize) -> Option<i64> {
    (text.len() == width && width <= 9 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

/// The instant (milliseconds since the epoch) of `YYYY-MM-DD` and an optional `THH:MM:SS`.
fn civil_ms(date: &str, clock: Option<&str>) -> Option<i64> {
    let mut d = date.split('-');
    let y = digits(d.next()?, 4)?;
    let (m, day) = (digits(d.next()?, 2)?, digits(d.next()?, 2)?);
    if d.next().is_some() {
        return None;
    }
    let mut ms = days_from_civil(y, m, day) * MS_PER_DAY;
    if let Some(clock) = clock {
        let mut c = clock.split(':');
        let (h, mi) = (digits(c.next()?, 2)?, digits(c.next()?, 2)?);
        let sec = digits(c.next()?, 2)?;
        if c.next().is_some() {
            return None;
        }
        ms += ((h * 60 + mi) * 60 + sec) * 1000;
    }
    Some(ms)
}

/// The instant a timestamp written by [`format_instant`] in `format` stands for; `None` for
/// other text, and for `rfc3339-offset` (its order is not time order anyway).
pub fn parse_instant(text: &str, format: TimestampFormat) -> Option<i64> {
    fn split(t: &str) -> Option<(&str, &str)> {
        t.split_once('T')
    }
    match format {
        TimestampFormat::EpochSeconds => text.parse::<i64>().ok()?.checked_mul(1000),
        TimestampFormat::EpochMillis => text.parse().ok(),
        TimestampFormat::Date => civil_ms(text, None),
        TimestampFormat::Rfc3339Utc => {
            let (date, clock) = split(text.strip_suffix('Z')?)?;
            civil_ms(date, Some(clock))
        }
        TimestampFormat::Rfc3339UtcMillis => {
            let (date, clock) = split(text.strip_suffix('Z')?)?;
            let (clock, millis) = clock.split_once('.')?;
            Some(civil_ms(date, Some(clock))? + digits(millis, 3)?)
        }
        TimestampFormat::Iso8601Naive => {
            let (date, clock) = split(text)?;
            match clock.split_once('.') {
                None => civil_ms(date, Some(clock)),
                Some((clock, micros)) => {
                    Some(civil_ms(date, Some(clock))? + digits(micros, 6)? / 1000)
                }
            }
        }
        TimestampFormat::Rfc3339Offset => None,
    }
}

/// The smallest step between two instants `format` can tell apart, in milliseconds.
pub fn timestamp_step(format: TimestampFormat) -> i64 {
    match format {
        TimestampFormat::Date => MS_PER_DAY,
        TimestampFormat::Rfc3339Utc | TimestampFormat::EpochSeconds => 1000,
        _ => 1,
    }
}

/// The format a timestamp attribute is written in (RFC 3339 UTC with milliseconds when unstated).
pub fn timestamp_format(attribute: &Attribute) -> TimestampFormat {
    attribute
        .format
        .unwrap_or(TimestampFormat::Rfc3339UtcMillis)
}

/// Integers whose decimal widths differ (9 and 10 sort the other way round as strings).
pub const INTEGERS: [u64; 12] = [
    9,
    10,
    1,
    100,
    99,
    2,
    11,
    1000,
    42,
    7,
    999_999_999,
    1_000_000_000,
];

/// Integer candidates for an attribute: `0..cardinality` when it has one, else [`INTEGERS`];
/// all below `10^pad` when a key template zero-pads it.
pub fn integer_candidates(attribute: &Attribute, pad: Option<usize>) -> Vec<u64> {
    let limit = pad
        .filter(|p| *p < 19)
        .map_or(u64::MAX, |p| 10u64.saturating_pow(p as u32));
    let base: Vec<u64> = match attribute.cardinality {
        Some(c) if c > 0 => {
            let c = c.min(1000);
            // Widths differ as soon as the range reaches 10.
            let mut v: Vec<u64> = INTEGERS.iter().copied().filter(|n| *n < c).collect();
            let rest: Vec<u64> = (0..c).filter(|n| !v.contains(n)).collect();
            v.extend(rest);
            v
        }
        _ => INTEGERS.to_vec(),
    };
    let out: Vec<u64> = base.into_iter().filter(|n| *n < limit).collect();
    if out.is_empty() { vec![0] } else { out }
}

/// Decimal samples (exact: stored as `N` text, never through a float).
pub const DECIMALS: [&str; 6] = ["12.50", "9.99", "100.00", "0.10", "1999.95", "5"];

/// Float samples.
pub const FLOATS: [&str; 5] = ["1.5", "10", "2.25", "0.001", "1e3"];

const ALPHABET: &[u8] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// A random identifier-like string: a short prefix from the attribute name and random characters,
/// within `max_length` when the attribute has one.
pub fn random_string(rng: &mut fastrand::Rng, name: &str, max_length: Option<u64>) -> String {
    let prefix: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(3)
        .collect::<String>()
        .to_ascii_lowercase();
    let random = |rng: &mut fastrand::Rng, n: usize| -> String {
        (0..n)
            .map(|_| char::from(ALPHABET[rng.usize(0..ALPHABET.len())]))
            .collect()
    };
    let max = max_length.map_or(usize::MAX, |m| usize::try_from(m).unwrap_or(usize::MAX));
    let text = format!("{prefix}{}", random(rng, 6));
    if text.len() <= max {
        text
    } else {
        random(rng, max.max(1))
    }
}

/// A non-key value of a collection type (list, map, set).
pub fn collection(attribute: &Attribute, rng: &mut fastrand::Rng) -> Value {
    let a = format!("a{}", rng.u16(..));
    let b = format!("b{}", rng.u16(..));
    let text = format!("{a},{b}");
    let numeric = matches!(
        attribute.items,
        Some(
            AttributeType::Number
                | AttributeType::Float
                | AttributeType::Integer
                | AttributeType::Decimal
        )
    );
    let av = match attribute.ty {
        AttributeType::List => AttributeValue::L(vec![AttributeValue::S(a), AttributeValue::S(b)]),
        AttributeType::Map => AttributeValue::M(
            [
                ("a".to_string(), AttributeValue::S(a)),
                ("b".to_string(), AttributeValue::S(b)),
            ]
            .into_iter()
            .collect(),
        ),
        _ if numeric => AttributeValue::Ns(vec!["1".to_string(), "10".to_string()]),
        _ => AttributeValue::Ss(vec![a, b]),
    };
    Value { text, av }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trip() {
        for (y, m, d) in [(1970, 1, 1), (2000, 2, 29), (2024, 5, 1), (2001, 9, 8)] {
            assert_eq!(civil_from_days(days_from_civil(y, m, d)), (y, m, d));
        }
        assert_eq!(days_from_civil(1970, 1, 1), 0);
    }

    #[test]
    fn formats() {
        let ms = days_from_civil(2024, 5, 1) * MS_PER_DAY + 43_200_000 + 5;
        let f = |fmt| format_instant(ms, fmt).text;
        assert_eq!(
            f(TimestampFormat::Rfc3339UtcMillis),
            "2024-05-01T12:00:00.005Z"
        );
        assert_eq!(f(TimestampFormat::Rfc3339Utc), "2024-05-01T12:00:00Z");
        assert_eq!(f(TimestampFormat::Date), "2024-05-01");
        assert_eq!(
            f(TimestampFormat::Iso8601Naive),
            "2024-05-01T12:00:00.005000"
        );
        assert_eq!(f(TimestampFormat::EpochSeconds), "1714564800");
        let old = days_from_civil(2001, 9, 8) * MS_PER_DAY;
        assert_eq!(
            format_instant(old, TimestampFormat::EpochSeconds)
                .text
                .len(),
            9
        );
        let naive = format_instant(ms - 5, TimestampFormat::Iso8601Naive).text;
        assert_eq!(naive, "2024-05-01T12:00:00");
    }

    #[test]
    fn instants_read_back_in_every_format() {
        use TimestampFormat::*;
        let day = days_from_civil(2024, 5, 1) * MS_PER_DAY;
        for ms in [
            day,
            day + 43_200_005,
            day + MS_PER_DAY - 1,
            days_from_civil(2001, 9, 8) * MS_PER_DAY + 1,
        ] {
            for format in [
                Rfc3339UtcMillis,
                Rfc3339Utc,
                Iso8601Naive,
                Date,
                EpochSeconds,
                EpochMillis,
            ] {
                let text = format_instant(ms, format).text;
                let step = timestamp_step(format);
                let expected = ms - ms.rem_euclid(step);
                assert_eq!(
                    parse_instant(&text, format),
                    Some(expected),
                    "{format:?} {text}"
                );
            }
        }
        assert_eq!(
            parse_instant("2024-05-01T12:00:00+02:00", Rfc3339Offset),
            None
        );
        assert_eq!(parse_instant("META", Date), None);
        assert_eq!(
            parse_instant("2024-05-01T12:00:00.5Z", Rfc3339UtcMillis),
            None
        );
    }
}
