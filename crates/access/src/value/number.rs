//! Numbers exactly: a number's text as its sign, significant digits and exponent
//! ([`Digits`]), so that two texts compare as numbers; what DynamoDB holds (38 significant
//! digits, magnitudes 1e-130 to under 1e126, no NaN or infinity); reading an `N` into a Rust
//! integer, `rust_decimal::Decimal` or float only when the type holds it as it is; and
//! [`storable`], whether a value a Rust type wrote can be stored as its model attribute
//! exactly (numbers, empty sets and names, and the model's bounds).

use std::fmt::Display;
use std::str::FromStr;

use aws_sdk_dynamodb::types::AttributeValue;
use rust_decimal::Decimal;

use super::error::{MAX_DIGITS, ValueError};

/// The largest power of ten of a DynamoDB number's first significant digit.
const MAX_EXPONENT: i64 = 125;
/// The smallest.
const MIN_EXPONENT: i64 = -130;

/// A number's text as `(-1)^negative × digits × 10^exponent`, `digits` without leading or
/// trailing zeros (empty for zero, which is never negative): equal for equal numbers, however
/// written (`1.50`, `15E-1`, `+1.5`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digits {
    negative: bool,
    digits: String,
    exponent: i64,
}

impl Digits {
    /// The number in `text` (`-12.5`, `1E+3`, `.5`), or `None` when it is not one.
    pub fn parse(text: &str) -> Option<Digits> {
        let (negative, rest) = match text.as_bytes().first()? {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        let (mantissa, exponent) = match rest.find(['e', 'E']) {
            Some(at) => (&rest[..at], rest[at + 1..].parse::<i64>().ok()?),
            None => (rest, 0),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
            return None;
        }
        let places = i64::try_from(fraction.len()).ok()?;
        let mut exponent = exponent.checked_sub(places)?;
        let joined = format!("{whole}{fraction}");
        let significant = joined.trim_start_matches('0');
        let trimmed = significant.trim_end_matches('0');
        let zeros = i64::try_from(significant.len() - trimmed.len()).ok()?;
        exponent = exponent.checked_add(zeros)?;
        if trimmed.is_empty() {
            return Some(Digits {
                negative: false,
                digits: String::new(),
                exponent: 0,
            });
        }
        Some(Digits {
            negative,
            digits: trimmed.to_string(),
            exponent,
        })
    }

    /// Whether it is a whole number.
    pub fn is_integer(&self) -> bool {
        self.exponent >= 0
    }

    /// Its significant digits.
    pub fn significant(&self) -> usize {
        self.digits.len()
    }

    /// The power of ten of its first significant digit (`0` for zero).
    fn magnitude(&self) -> i64 {
        let len = i64::try_from(self.digits.len()).unwrap_or(i64::MAX);
        self.exponent.saturating_add(len).saturating_sub(1)
    }

    /// A whole number written out (`-1500` of `-1.5E3`), when it has at most `max` digits.
    fn integer_text(&self, max: usize) -> Option<String> {
        let zeros = usize::try_from(self.exponent).ok()?;
        if self.digits.len().checked_add(zeros)? > max {
            return None;
        }
        let sign = if self.negative { "-" } else { "" };
        let digits = if self.digits.is_empty() {
            "0"
        } else {
            &self.digits
        };
        Some(format!("{sign}{digits}{}", "0".repeat(zeros)))
    }
}

/// Whether DynamoDB holds the number in `text` as it is.
pub fn dynamodb_number(text: &str) -> Result<(), ValueError> {
    let lower = text.trim_start_matches(['-', '+']).to_ascii_lowercase();
    if matches!(lower.as_str(), "nan" | "inf" | "infinity") {
        return Err(ValueError::NotFinite {
            value: text.to_string(),
        });
    }
    let Some(d) = Digits::parse(text) else {
        return Err(unreadable(text, "a number"));
    };
    let why = if d.significant() > MAX_DIGITS {
        "has more significant digits"
    } else if d.digits.is_empty() {
        return Ok(());
    } else if d.magnitude() > MAX_EXPONENT {
        "is too large"
    } else if d.magnitude() < MIN_EXPONENT {
        "is too close to zero"
    } else {
        return Ok(());
    };
    Err(ValueError::NumberRange {
        value: text.to_string(),
        why,
    })
}

fn unreadable(text: &str, what: &'static str) -> ValueError {
    ValueError::Unreadable {
        text: text.to_string(),
        what,
    }
}

/// The integer in `text` as a `T` named `ty`: a whole number however
/// written (`1E3`), refused when `T` cannot hold it (it would wrap) or it has a fraction.
pub fn read_integer<T: FromStr>(text: &str, ty: &'static str) -> Result<T, ValueError> {
    if let Ok(n) = text.parse::<T>() {
        return Ok(n);
    }
    let Some(d) = Digits::parse(text) else {
        return Err(unreadable(text, "a number"));
    };
    if !d.is_integer() {
        return Err(unreadable(text, "an integer"));
    }
    d.integer_text(40)
        .and_then(|plain| plain.parse::<T>().ok())
        .ok_or_else(|| ValueError::OutOfRange {
            text: text.to_string(),
            ty,
        })
}

/// The decimal in `text`, refused when `rust_decimal::Decimal` would round it (more than its 28
/// or 29 significant digits, or places) or cannot hold it at all.
pub fn read_decimal(text: &str) -> Result<Decimal, ValueError> {
    let Some(d) = Digits::parse(text) else {
        return Err(unreadable(text, "a number"));
    };
    let beyond = || ValueError::OutOfRange {
        text: text.to_string(),
        ty: "rust_decimal::Decimal",
    };
    let parsed = text
        .parse::<Decimal>()
        .or_else(|_| Decimal::from_scientific(text))
        .map_err(|_| beyond())?;
    match Digits::parse(&parsed.to_string()) {
        Some(back) if back == d => Ok(parsed),
        _ => Err(beyond()),
    }
}

/// The float in `text` as a `T` named `ty`, refused when `T` would round it (its shortest text
/// is another number) or cannot hold it.
pub fn read_float<T: FromStr + Display>(text: &str, ty: &'static str) -> Result<T, ValueError> {
    let Some(d) = Digits::parse(text) else {
        return Err(unreadable(text, "a number"));
    };
    let parsed: T = text.parse().map_err(|_| unreadable(text, "a number"))?;
    match Digits::parse(&parsed.to_string()) {
        Some(back) if back == d => Ok(parsed),
        _ => Err(ValueError::OutOfRange {
            text: text.to_string(),
            ty,
        }),
    }
}

/// What a model attribute lets its value be beyond its type: what derived code checks a value
/// against before it writes it ([`storable`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// The model's `max_length` of a string, in bytes.
    pub max_length: Option<u64>,
    /// The model's `max_items` of a list, map or set.
    pub max_items: Option<u64>,
    /// The model's `cardinality` of an integer: it is then in `0..cardinality`.
    pub cardinality: Option<u64>,
    /// An empty set reads back as it was written: a required set, stored as no attribute and
    /// read back empty (an optional one would read back as `None`).
    pub empty_set_reads_back: bool,
}

/// Whether `value`, the attribute value a Rust value wrote, is stored exactly as an attribute
/// with `limits`: every number one DynamoDB holds, no empty set where it would not read back
/// (nor inside a list or a map, where DynamoDB refuses it), no empty map key, and the model's
/// bounds.
pub fn storable(value: &AttributeValue, limits: &Limits) -> Result<(), ValueError> {
    bounds(value, limits)?;
    if is_empty_set(value) && !limits.empty_set_reads_back {
        return Err(ValueError::EmptySet);
    }
    fits(value, false)
}

fn is_empty_set(value: &AttributeValue) -> bool {
    super::is_empty_set(value)
}

/// Whether `text` is within `max_length` bytes: [`storable`] of a plain string, without
/// building its attribute value.
pub fn within_length(text: &str, max_length: u64) -> Result<(), ValueError> {
    match u64::try_from(text.len()) {
        Ok(length) if length <= max_length => Ok(()),
        _ => Err(ValueError::TooLong {
            length: text.len(),
            max: max_length,
        }),
    }
}

/// The model's bounds of `value`.
fn bounds(value: &AttributeValue, limits: &Limits) -> Result<(), ValueError> {
    if let (Some(max), AttributeValue::S(text)) = (limits.max_length, value) {
        within_length(text, max)?;
    }
    if let Some(max) = limits.max_items {
        let count = match value {
            AttributeValue::L(v) => v.len(),
            AttributeValue::M(m) => m.len(),
            AttributeValue::Ss(v) | AttributeValue::Ns(v) => v.len(),
            AttributeValue::Bs(v) => v.len(),
            _ => 0,
        };
        if u64::try_from(count).unwrap_or(u64::MAX) > max {
            return Err(ValueError::TooMany { count, max });
        }
    }
    if let (Some(cardinality), AttributeValue::N(text)) = (limits.cardinality, value) {
        let inside = text
            .parse::<i128>()
            .is_ok_and(|n| n >= 0 && n < i128::from(cardinality));
        if !inside {
            return Err(ValueError::OutsideCardinality {
                value: text.clone(),
                cardinality,
            });
        }
    }
    Ok(())
}

/// Every number DynamoDB's, and no empty set (inside a list or map) or empty name.
fn fits(value: &AttributeValue, nested: bool) -> Result<(), ValueError> {
    match value {
        AttributeValue::N(text) => dynamodb_number(text),
        AttributeValue::Ns(numbers) => {
            if nested && numbers.is_empty() {
                return Err(ValueError::NestedEmptySet);
            }
            numbers.iter().try_for_each(|n| dynamodb_number(n))
        }
        AttributeValue::Ss(v) if nested && v.is_empty() => Err(ValueError::NestedEmptySet),
        AttributeValue::Bs(v) if nested && v.is_empty() => Err(ValueError::NestedEmptySet),
        AttributeValue::L(values) => values.iter().try_for_each(|v| fits(v, true)),
        AttributeValue::M(map) => map.iter().try_for_each(|(name, v)| {
            if name.is_empty() {
                return Err(ValueError::EmptyName);
            }
            fits(v, true)
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(text.into())
    }

    #[test]
    fn texts_of_one_number_compare_equal() {
        let d = |t: &str| Digits::parse(t).unwrap();
        assert_eq!(d("1.50"), d("15E-1"));
        assert_eq!(d("+1.5"), d("1.5"));
        assert_eq!(d("-0.0"), d("0"));
        assert_eq!(d("100"), d("1e2"));
        assert_eq!(d(".5"), d("0.5"));
        assert_ne!(d("1.5"), d("-1.5"));
        assert_ne!(d("0.1"), d("0.10000000000000001"));
        for bad in [
            "",
            "-",
            ".",
            "1.2.3",
            "abc",
            "1e",
            "NaN",
            "1e99999999999999999999",
        ] {
            assert_eq!(Digits::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn dynamodb_holds_38_digits_and_its_magnitudes() {
        assert_eq!(
            dynamodb_number("12345678901234567890123456789012345678"),
            Ok(())
        );
        assert_eq!(
            dynamodb_number("9.9999999999999999999999999999999999999E+125"),
            Ok(())
        );
        assert_eq!(dynamodb_number("1E-130"), Ok(()));
        assert_eq!(dynamodb_number("0"), Ok(()));
        for (text, why) in [
            (
                "123456789012345678901234567890123456789",
                "has more significant digits",
            ),
            ("1E+126", "is too large"),
            ("1E-131", "is too close to zero"),
        ] {
            match dynamodb_number(text) {
                Err(ValueError::NumberRange { why: got, .. }) => assert_eq!(got, why),
                other => panic!("{text}: {other:?}"),
            }
        }
        for text in ["NaN", "inf", "-inf"] {
            assert!(matches!(
                dynamodb_number(text),
                Err(ValueError::NotFinite { .. })
            ));
        }
        assert_eq!(
            dynamodb_number(&f64::MAX.to_string()).map_err(|e| e.to_string()),
            Err(format!(
                "`{}` is too large: a DynamoDB number holds 38 significant digits and magnitudes 1e-130 to under 1e126",
                f64::MAX
            ))
        );
    }

    #[test]
    fn integers_beyond_the_type_are_refused_not_wrapped() {
        assert_eq!(read_integer::<i64>("42", "i64"), Ok(42));
        assert_eq!(read_integer::<i64>("1E3", "i64"), Ok(1000));
        assert_eq!(read_integer::<i8>("-7.0", "i8"), Ok(-7));
        let e = read_integer::<i64>("9223372036854775808", "i64").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`9223372036854775808` does not fit `i64`, which holds -9223372036854775808 to 9223372036854775807: reading it would change it"
        );
        assert!(matches!(
            read_integer::<u8>("300", "u8"),
            Err(ValueError::OutOfRange { ty: "u8", .. })
        ));
        assert!(matches!(
            read_integer::<i64>("1.5", "i64"),
            Err(ValueError::Unreadable { .. })
        ));
        assert!(matches!(
            read_integer::<i64>("1E400", "i64"),
            Err(ValueError::OutOfRange { .. })
        ));
    }

    #[test]
    fn decimals_rust_decimal_would_round_are_refused() {
        assert_eq!(read_decimal("12.50").unwrap().to_string(), "12.50");
        assert_eq!(read_decimal("1.5E3").unwrap(), Decimal::new(1500, 0));
        let digits38 = "12345678901234567890123456789012345678";
        assert!(matches!(
            read_decimal(digits38),
            Err(ValueError::OutOfRange { .. })
        ));
        // 29 places: rust_decimal would round it to 28.
        assert!(matches!(
            read_decimal("0.12345678901234567890123456789"),
            Err(ValueError::OutOfRange { .. })
        ));
        assert!(matches!(
            read_decimal("ten"),
            Err(ValueError::Unreadable { .. })
        ));
    }

    #[test]
    fn floats_read_only_what_they_hold() {
        assert_eq!(read_float::<f64>("0.1", "f64"), Ok(0.1));
        assert_eq!(read_float::<f64>("1E-7", "f64"), Ok(1e-7));
        assert!(read_float::<f64>("0.1000000000000000000001", "f64").is_err());
        assert!(read_float::<f32>("0.30000000000000004", "f32").is_err());
        assert!(read_float::<f64>("1e400", "f64").is_err());
    }

    #[test]
    fn storable_values_keep_the_models_bounds_and_dynamodbs() {
        let none = Limits::default();
        assert_eq!(storable(&n("1.5"), &none), Ok(()));
        assert!(matches!(
            storable(&n("NaN"), &none),
            Err(ValueError::NotFinite { .. })
        ));
        let nested = AttributeValue::L(vec![AttributeValue::M(
            [("a".to_string(), n("inf"))].into_iter().collect(),
        )]);
        assert!(matches!(
            storable(&nested, &none),
            Err(ValueError::NotFinite { .. })
        ));
        let empty = AttributeValue::Ss(Vec::new());
        assert_eq!(storable(&empty, &none), Err(ValueError::EmptySet));
        let required = Limits {
            empty_set_reads_back: true,
            ..none
        };
        assert_eq!(storable(&empty, &required), Ok(()));
        assert_eq!(
            storable(&AttributeValue::L(vec![empty.clone()]), &required),
            Err(ValueError::NestedEmptySet)
        );
        let unnamed = AttributeValue::M([(String::new(), n("1"))].into_iter().collect());
        assert_eq!(storable(&unnamed, &none), Err(ValueError::EmptyName));
        let short = Limits {
            max_length: Some(3),
            ..none
        };
        assert_eq!(storable(&AttributeValue::S("abc".into()), &short), Ok(()));
        assert_eq!(
            storable(&AttributeValue::S("éé".into()), &short),
            Err(ValueError::TooLong { length: 4, max: 3 })
        );
        let few = Limits {
            max_items: Some(1),
            ..none
        };
        assert_eq!(
            storable(&AttributeValue::Ss(vec!["a".into(), "b".into()]), &few),
            Err(ValueError::TooMany { count: 2, max: 1 })
        );
        let shards = Limits {
            cardinality: Some(4),
            ..none
        };
        assert_eq!(storable(&n("3"), &shards), Ok(()));
        assert!(matches!(
            storable(&n("4"), &shards),
            Err(ValueError::OutsideCardinality { cardinality: 4, .. })
        ));
    }
}
