//! Attribute values compared the way DynamoDB compares them in a condition: strings and binary
//! by their bytes, numbers as exact decimals (never through a float: `10`, `10.0` and `1e1` are
//! equal, and 38 digits keep every one), booleans and nulls by equality only, sets, lists and maps
//! by deep equality. A missing attribute or values of different types satisfy only `<>`.

use std::cmp::Ordering;

use aws_sdk_dynamodb::types::AttributeValue;

/// A comparison a condition makes: the model's operator.
pub use monotable_model::CompareOp as Op;

/// Whether `left op right` holds when `left` compares to `right` as `ordering`.
pub(crate) trait Holds {
    /// Whether the comparison holds for `ordering`.
    fn holds(self, ordering: Ordering) -> bool;
    /// Whether it holds between values that are only equal or not (booleans, nulls, sets).
    fn holds_unordered(self, equal: bool) -> bool;
}

impl Holds for Op {
    /// Whether `left op right` holds when `left` compares to `right` as `ordering`.
    fn holds(self, ordering: Ordering) -> bool {
        match self {
            Op::Eq => ordering == Ordering::Equal,
            Op::Ne => ordering != Ordering::Equal,
            Op::Lt => ordering == Ordering::Less,
            Op::Le => ordering != Ordering::Greater,
            Op::Gt => ordering == Ordering::Greater,
            Op::Ge => ordering != Ordering::Less,
        }
    }

    /// Whether `op` holds between two values that are equal (`Some(true)`) or not, and have no
    /// order: only `=` and `<>` can hold.
    fn holds_unordered(self, equal: bool) -> bool {
        match self {
            Op::Eq => equal,
            Op::Ne => !equal,
            _ => false,
        }
    }
}

/// Whether `left op right` holds, `left` the item's value (`None`: the attribute is missing).
pub fn holds(left: Option<&AttributeValue>, op: Op, right: &AttributeValue) -> bool {
    let Some(left) = left else {
        return op == Op::Ne;
    };
    use AttributeValue as V;
    let ordered = match (left, right) {
        (V::S(a), V::S(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
        (V::B(a), V::B(b)) => Some(a.as_ref().cmp(b.as_ref())),
        (V::N(a), V::N(b)) => match compare_numbers(a, b) {
            Some(ordering) => Some(ordering),
            // Not numbers at all: DynamoDB refuses to store them, so nothing compares.
            None => return false,
        },
        _ => None,
    };
    match ordered {
        Some(ordering) => op.holds(ordering),
        None => op.holds_unordered(equal(left, right)),
    }
}

/// Deep equality as a condition's `=` sees it: numbers by value, sets in any order.
fn equal(a: &AttributeValue, b: &AttributeValue) -> bool {
    use AttributeValue as V;
    match (a, b) {
        (V::S(a), V::S(b)) => a == b,
        (V::B(a), V::B(b)) => a == b,
        (V::N(a), V::N(b)) => compare_numbers(a, b) == Some(Ordering::Equal),
        (V::Bool(a), V::Bool(b)) => a == b,
        (V::Null(a), V::Null(b)) => a == b,
        (V::Ss(a), V::Ss(b)) => same_set(a, b, |x, y| x == y),
        (V::Bs(a), V::Bs(b)) => same_set(a, b, |x, y| x == y),
        (V::Ns(a), V::Ns(b)) => {
            same_set(a, b, |x, y| compare_numbers(x, y) == Some(Ordering::Equal))
        }
        (V::L(a), V::L(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| equal(x, y)),
        (V::M(a), V::M(b)) => {
            a.len() == b.len() && a.iter().all(|(k, x)| b.get(k).is_some_and(|y| equal(x, y)))
        }
        _ => false,
    }
}

/// Whether two sets (no duplicates, as DynamoDB holds them) have the same members.
fn same_set<T>(a: &[T], b: &[T], same: impl Fn(&T, &T) -> bool) -> bool {
    a.len() == b.len() && a.iter().all(|x| b.iter().any(|y| same(x, y)))
}

/// A number as sign, significant digits and scale: `sign × 0.digits × 10^exponent`, the digits
/// without leading or trailing zeros (none for zero).
#[derive(Debug, PartialEq, Eq)]
struct Scaled {
    negative: bool,
    digits: String,
    exponent: i64,
}

/// `text` as DynamoDB writes a number (`-12.50`, `1e1`, `.5`, `+3E-2`); `None` when it is not one.
fn parse(text: &str) -> Option<Scaled> {
    let (negative, unsigned) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], unsigned[at + 1..].parse::<i64>().ok()?),
        None => (unsigned, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    let joined = format!("{whole}{fraction}");
    let leading = joined.len() - joined.trim_start_matches('0').len();
    let digits = joined
        .trim_start_matches('0')
        .trim_end_matches('0')
        .to_string();
    // The point sits after `whole`; each leading zero moves the first significant digit right.
    let exponent = i64::try_from(whole.len())
        .ok()?
        .checked_sub(i64::try_from(leading).ok()?)?
        .checked_add(exponent)?;
    Some(Scaled {
        negative: negative && !digits.is_empty(),
        exponent: if digits.is_empty() { 0 } else { exponent },
        digits,
    })
}

/// Two numbers in DynamoDB's text compared exactly; `None` when either is not a number.
pub fn compare_numbers(a: &str, b: &str) -> Option<Ordering> {
    let (a, b) = (parse(a)?, parse(b)?);
    let sign = |d: &Scaled| match (d.digits.is_empty(), d.negative) {
        (true, _) => 0i8,
        (false, true) => -1,
        (false, false) => 1,
    };
    let (sa, sb) = (sign(&a), sign(&b));
    if sa != sb || sa == 0 {
        return Some(sa.cmp(&sb));
    }
    // Same sign, both non-zero: the larger scale is the larger magnitude; at the same scale,
    // the digits (without trailing zeros) compare as text.
    let magnitude = a
        .exponent
        .cmp(&b.exponent)
        .then_with(|| a.digits.cmp(&b.digits));
    Some(if sa < 0 {
        magnitude.reverse()
    } else {
        magnitude
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::primitives::Blob;
    use aws_sdk_dynamodb::types::AttributeValue as V;
    use std::collections::HashMap;

    fn n(text: &str) -> V {
        V::N(text.to_string())
    }

    #[test]
    fn numbers_compare_as_exact_decimals() {
        use Ordering::*;
        let cases = [
            ("10", "9.5", Greater),
            ("10", "1e1", Equal),
            ("10.0", "1E+1", Equal),
            ("9.5", "1e1", Less),
            ("-10", "-9.5", Less),
            ("-0", "0.000", Equal),
            ("0", "-1e-130", Greater),
            (".5", "0.50", Equal),
            ("+3E-2", "0.03", Equal),
            (
                "1e125",
                "9.9999999999999999999999999999999999999e124",
                Greater,
            ),
            // Beyond a float's 15 digits, and beyond rust_decimal's 28.
            (
                "12345678901234567890123456789012345678",
                "12345678901234567890123456789012345677",
                Greater,
            ),
            ("0.1", "0.10000000000000000555", Less),
            ("100", "99.999999999999999999999999", Greater),
        ];
        for (a, b, expected) in cases {
            assert_eq!(compare_numbers(a, b), Some(expected), "{a} vs {b}");
            assert_eq!(
                compare_numbers(b, a),
                Some(expected.reverse()),
                "{b} vs {a}"
            );
        }
        for bad in [
            "",
            "-",
            ".",
            "1e",
            "abc",
            "1.2.3",
            "1e99999999999999999999",
            "0x10",
        ] {
            assert_eq!(compare_numbers(bad, "1"), None, "{bad:?}");
        }
        assert_eq!(
            parse("007.50").map(|d| (d.digits, d.exponent)),
            Some(("75".into(), 1))
        );
        assert_eq!(
            parse("0.0075").map(|d| (d.digits, d.exponent)),
            Some(("75".into(), -2))
        );
        assert_eq!(parse("-0").map(|d| d.negative), Some(false));
    }

    proptest::proptest! {
        /// Within rust_decimal's range, the text comparison agrees with its exact arithmetic,
        /// whichever way each number is written (plain, trailing zeros, exponent).
        #[test]
        fn numbers_agree_with_rust_decimal(
            a in proptest::num::i64::ANY, a_scale in 0u32..20,
            b in proptest::num::i64::ANY, b_scale in 0u32..20,
            shift in -30i64..30,
        ) {
            let (x, y) = (
                rust_decimal::Decimal::new(a, a_scale),
                rust_decimal::Decimal::new(b, b_scale),
            );
            let written = |d: rust_decimal::Decimal| {
                let plain = d.to_string();
                let zeros = if plain.contains('.') { "000" } else { ".000" };
                [plain.clone(), format!("{plain}{zeros}"), format!("{}e{shift}", scaled(&plain, -shift))]
            };
            for a_text in written(x) {
                for b_text in written(y) {
                    proptest::prop_assert_eq!(
                        compare_numbers(&a_text, &b_text),
                        Some(x.cmp(&y)),
                        "{} vs {}", a_text, b_text
                    );
                }
            }
        }
    }

    /// `plain` (a decimal without exponent) times 10^`by`, as text without exponent.
    fn scaled(plain: &str, by: i64) -> String {
        let (sign, unsigned) = plain.strip_prefix('-').map_or(("", plain), |u| ("-", u));
        let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
        let digits = format!("{whole}{fraction}");
        let point = i64::try_from(whole.len()).unwrap() + by;
        let out = if point <= 0 {
            let zeros = "0".repeat(usize::try_from(-point).unwrap());
            format!("0.{zeros}{digits}")
        } else {
            let point = usize::try_from(point).unwrap();
            if point >= digits.len() {
                format!("{digits}{}", "0".repeat(point - digits.len()))
            } else {
                format!("{}.{}", &digits[..point], &digits[point..])
            }
        };
        format!("{sign}{out}")
    }

    #[test]
    fn every_op_on_every_ordered_type() {
        let s = |t: &str| V::S(t.to_string());
        let b = |t: &[u8]| V::B(Blob::new(t.to_vec()));
        // (smaller, larger) of each ordered type: strings and binary by bytes, so `Z` < `a`
        // and `é` (two bytes, 0xC3...) > `z`.
        let pairs = [
            (n("9.5"), n("10")),
            (n("-10"), n("1e-3")),
            (s("Z"), s("a")),
            (s("z"), s("é")),
            (s("ab"), s("abc")),
            (b(&[1, 255]), b(&[2])),
        ];
        for (small, large) in &pairs {
            let h = |l: &V, op, r: &V| holds(Some(l), op, r);
            assert!(
                h(small, Op::Lt, large) && h(small, Op::Le, large),
                "{small:?} < {large:?}"
            );
            assert!(h(large, Op::Gt, small) && h(large, Op::Ge, small));
            assert!(h(small, Op::Ne, large) && !h(small, Op::Eq, large));
            assert!(!h(small, Op::Gt, large) && !h(small, Op::Ge, large));
            assert!(!h(large, Op::Lt, small) && !h(large, Op::Le, small));
            assert!(h(small, Op::Eq, small) && h(small, Op::Le, small) && h(small, Op::Ge, small));
            assert!(!h(small, Op::Ne, small) && !h(small, Op::Lt, small));
        }
    }

    #[test]
    fn booleans_nulls_and_documents_compare_only_for_equality() {
        let t = V::Bool(true);
        let f = V::Bool(false);
        assert!(holds(Some(&t), Op::Eq, &t) && holds(Some(&t), Op::Ne, &f));
        assert!(!holds(Some(&t), Op::Gt, &f) && !holds(Some(&f), Op::Lt, &t));
        assert!(!holds(Some(&t), Op::Ge, &t), "booleans have no order");
        assert!(holds(Some(&V::Null(true)), Op::Eq, &V::Null(true)));
        let ns = |v: &[&str]| V::Ns(v.iter().map(|s| s.to_string()).collect());
        assert!(holds(Some(&ns(&["1", "2.0"])), Op::Eq, &ns(&["2", "1e0"])));
        assert!(holds(Some(&ns(&["1", "2"])), Op::Ne, &ns(&["1", "3"])));
        let ss = |v: &[&str]| V::Ss(v.iter().map(|s| s.to_string()).collect());
        assert!(holds(Some(&ss(&["a", "b"])), Op::Eq, &ss(&["b", "a"])));
        assert!(!holds(Some(&ss(&["a"])), Op::Le, &ss(&["a"])));
        let list = |v: Vec<V>| V::L(v);
        assert!(holds(
            Some(&list(vec![n("1")])),
            Op::Eq,
            &list(vec![n("1.0")])
        ));
        assert!(holds(
            Some(&list(vec![n("1"), n("2")])),
            Op::Ne,
            &list(vec![n("2"), n("1")])
        ));
        let map = |k: &str, v: V| V::M(HashMap::from([(k.to_string(), v)]));
        assert!(holds(Some(&map("a", n("10"))), Op::Eq, &map("a", n("1e1"))));
        assert!(holds(Some(&map("a", n("1"))), Op::Ne, &map("b", n("1"))));
    }

    #[test]
    fn a_missing_attribute_or_another_type_satisfies_only_ne() {
        for op in [Op::Eq, Op::Lt, Op::Le, Op::Gt, Op::Ge] {
            assert!(!holds(None, op, &n("1")), "{op:?}");
            assert!(!holds(Some(&V::S("1".into())), op, &n("1")), "{op:?}");
            assert!(
                !holds(Some(&V::Bool(true)), op, &V::S("true".into())),
                "{op:?}"
            );
        }
        assert!(holds(None, Op::Ne, &n("1")));
        assert!(holds(Some(&V::S("1".into())), Op::Ne, &n("1")));
        assert!(
            !holds(Some(&n("x")), Op::Ne, &n("1")),
            "not a number: nothing holds"
        );
    }
}
