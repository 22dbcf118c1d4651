//! How DynamoDB orders key values of each scalar type: `S` by UTF-8 bytes, `B` by bytes (the
//! samples' binary keys are the bytes of their text), `N` by numeric value, exactly.

use std::cmp::Ordering;

use monotable_model::KeyAttributeType;

/// A decimal number normalised as `0.d1d2... × 10^point`, `d1` not zero, no trailing zeros.
#[derive(Debug, PartialEq, Eq)]
struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    point: i64,
}

/// Parses DynamoDB number text (`-12.50`, `1e3`, `+0.001`); `None` when it is not a number.
fn parse(text: &str) -> Option<Decimal> {
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], rest[at + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = || int.bytes().chain(frac.bytes());
    if int.is_empty() && frac.is_empty() || !all().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut digits: Vec<u8> = all().map(|b| b - b'0').collect();
    let mut point = i64::try_from(int.len()).ok()?.checked_add(exponent)?;
    let leading = digits.iter().take_while(|d| **d == 0).count();
    digits.drain(..leading);
    point = point.checked_sub(i64::try_from(leading).ok()?)?;
    while digits.last() == Some(&0) {
        digits.pop();
    }
    Some(Decimal {
        negative: negative && !digits.is_empty(),
        digits,
        point,
    })
}

/// One text per numeric value (`3`, `3.0` and `+30e-1` give the same): how numbers are looked
/// up by value; `None` when `text` is not a number.
pub fn canonical_number(text: &str) -> Option<String> {
    let d = parse(text)?;
    if d.digits.is_empty() {
        return Some("0".to_string());
    }
    let digits: String = d.digits.iter().map(|x| char::from(b'0' + x)).collect();
    let sign = if d.negative { "-" } else { "" };
    Some(format!("{sign}0.{digits}e{}", d.point))
}

/// Orders two numbers by value; `None` when either is not a number.
pub fn compare_numbers(a: &str, b: &str) -> Option<Ordering> {
    let (a, b) = (parse(a)?, parse(b)?);
    let sign = |d: &Decimal| match (d.negative, d.digits.is_empty()) {
        (true, _) => -1,
        (false, true) => 0,
        (false, false) => 1,
    };
    let by_sign = sign(&a).cmp(&sign(&b));
    if by_sign != Ordering::Equal || a.digits.is_empty() {
        return Some(by_sign);
    }
    let magnitude = a.point.cmp(&b.point).then_with(|| a.digits.cmp(&b.digits));
    Some(if a.negative {
        magnitude.reverse()
    } else {
        magnitude
    })
}

/// Orders two key values of type `ty` as DynamoDB does. Text that is not a number under `N`
/// (which DynamoDB would refuse) falls back to byte order.
pub fn compare(a: &str, b: &str, ty: KeyAttributeType) -> Ordering {
    match ty {
        KeyAttributeType::N => compare_numbers(a, b).unwrap_or_else(|| a.cmp(b)),
        KeyAttributeType::S | KeyAttributeType::B => a.as_bytes().cmp(b.as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_numbers_have_one_canonical_text() {
        let c = |t: &str| canonical_number(t);
        assert_eq!(c("3"), c("3.0"));
        assert_eq!(c("3"), c("+30e-1"));
        assert_eq!(c("-0"), c("0.000"));
        assert_ne!(c("3"), c("-3"));
        assert_ne!(c("3"), c("30"));
        assert_eq!(c("abc"), None);
    }

    #[test]
    fn numbers_order_by_value() {
        let sorted = [
            "-1e3",
            "-100",
            "-9.5",
            "-0.001",
            "0",
            "0.001",
            "1e-2",
            "0.10",
            "5",
            "9",
            "10",
            "12.50",
            "99",
            "100",
            "1e3",
            "999999999",
            "1000000000",
        ];
        for (i, a) in sorted.iter().enumerate() {
            for (j, b) in sorted.iter().enumerate() {
                assert_eq!(compare_numbers(a, b), Some(i.cmp(&j)), "{a} vs {b}");
            }
        }
        assert_eq!(compare_numbers("0.10", "0.1"), Some(Ordering::Equal));
        assert_eq!(compare_numbers("-0", "0"), Some(Ordering::Equal));
        assert_eq!(compare_numbers("007", "7.000"), Some(Ordering::Equal));
        assert_eq!(compare_numbers("abc", "1"), None);
        assert_eq!(compare_numbers(".", "1"), None);
        assert_eq!(compare_numbers("1e", "1"), None);
    }

    #[test]
    fn each_type_orders_its_way() {
        assert_eq!(compare("9", "10", KeyAttributeType::N), Ordering::Less);
        assert_eq!(compare("9", "10", KeyAttributeType::S), Ordering::Greater);
        assert_eq!(compare("9", "10", KeyAttributeType::B), Ordering::Greater);
        assert_eq!(compare("Z", "a", KeyAttributeType::B), Ordering::Less);
    }
}
