//! Typed sample values: timestamps in every model format (written by the access layer, as the
//! library writes them), numbers of differing widths, ids.

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_access::value::{format_time, from_millis, parse_time, to_millis};
use monotable_model::{Attribute, AttributeType, TimestampFormat};

/// One attribute value of a sample item: the text key templates see, and the typed DynamoDB value.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleValue {
    /// What a key template renders (numbers as digits, booleans as `true`/`false`).
    pub text: String,
    /// What the item stores.
    pub av: AttributeValue,
}

impl SampleValue {
    /// A string value.
    pub fn s(text: impl Into<String>) -> SampleValue {
        let text = text.into();
        SampleValue {
            av: AttributeValue::S(text.clone()),
            text,
        }
    }

    /// A number value.
    pub fn n(text: impl Into<String>) -> SampleValue {
        let text = text.into();
        SampleValue {
            av: AttributeValue::N(text.clone()),
            text,
        }
    }

    /// A boolean value.
    pub fn b(value: bool) -> SampleValue {
        SampleValue {
            text: value.to_string(),
            av: AttributeValue::Bool(value),
        }
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

/// The smallest step between two instants that `format` writes apart: a day for `date`, a
/// millisecond for `epoch-millis` and `rfc3339-utc-millis`, else a second.
pub fn resolution_ms(format: TimestampFormat) -> i64 {
    match format {
        TimestampFormat::Date => MS_PER_DAY,
        TimestampFormat::EpochMillis | TimestampFormat::Rfc3339UtcMillis => 1,
        _ => 1000,
    }
}

/// Whether `text` is a timestamp `format` writes (any text for `rfc3339-offset`, whose text
/// [`parse_instant`] does not read back).
pub fn fits_format(text: &str, format: TimestampFormat) -> bool {
    format == TimestampFormat::Rfc3339Offset || parse_instant(text, format).is_some()
}

/// UTC offsets (minutes) used for `rfc3339-offset`, chosen by the instant.
const OFFSETS: [i16; 3] = [0, 120, -300];

/// An instant written in a timestamp format, as the access layer writes it; epoch formats are
/// numbers. `rfc3339-offset` writes it at one of [`OFFSETS`], chosen by the instant.
pub fn format_instant(ms: i64, format: TimestampFormat) -> SampleValue {
    let pick = usize::try_from(ms.div_euclid(1000).rem_euclid(3)).unwrap_or(0);
    let offset = match format {
        TimestampFormat::Rfc3339Offset => OFFSETS[pick],
        _ => 0,
    };
    let text = from_millis(ms, offset)
        .map(|t| format_time(t, format))
        .unwrap_or_default();
    if format.is_number() {
        SampleValue::n(text)
    } else {
        SampleValue::s(text)
    }
}

/// The instant a timestamp written in `format` stands for, when `text` is exactly what the
/// format writes; `None` for other text, and for `rfc3339-offset` (its order is not time order
/// anyway).
pub fn parse_instant(text: &str, format: TimestampFormat) -> Option<i64> {
    if format == TimestampFormat::Rfc3339Offset {
        return None;
    }
    let t = parse_time(text, format).ok()?;
    (format_time(t, format) == text).then_some(to_millis(t)?)
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
        .and_then(|p| u32::try_from(p).ok())
        .filter(|p| *p < 19)
        .map_or(u64::MAX, |p| 10u64.saturating_pow(p));
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
pub fn collection(attribute: &Attribute, rng: &mut fastrand::Rng) -> SampleValue {
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
    SampleValue { text, av }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_days_are_the_dates_the_access_layer_writes() {
        for (y, m, d) in [(1970, 1, 1), (2000, 2, 29), (2024, 5, 1), (2001, 9, 8)] {
            let day = format_instant(days_from_civil(y, m, d) * MS_PER_DAY, TimestampFormat::Date);
            assert_eq!(day.text, format!("{y:04}-{m:02}-{d:02}"));
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
                let step = format.resolution_millis();
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
