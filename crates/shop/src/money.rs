//! Money: exact decimals with at most two places, written as strings in JSON ("19.99") and as
//! numbers in DynamoDB. Never a float.

use std::str::FromStr;

use rust_decimal::Decimal;

use crate::error::ShopError;

/// The largest price or total accepted: 1,000,000,000.00.
pub const MAX_AMOUNT: &str = "1000000000";

/// Parse an amount given by a client: digits with an optional `.` and at most two decimals,
/// greater than zero, at most [`MAX_AMOUNT`]. `field` names the input in the error.
pub fn parse_price(field: &str, text: &str) -> Result<Decimal, ShopError> {
    let invalid = |why: &str| {
        ShopError::invalid(
            "invalid_amount",
            format!("`{field}` must be a decimal string like \"19.99\" ({why}), got {text:?}"),
        )
    };
    let t = text.trim();
    let well_formed = !t.is_empty()
        && t.chars().all(|c| c.is_ascii_digit() || c == '.')
        && t.matches('.').count() <= 1
        && !t.starts_with('.')
        && !t.ends_with('.');
    if !well_formed {
        return Err(invalid("digits and one optional decimal point"));
    }
    let value = Decimal::from_str(t).map_err(|_| invalid("not a number"))?;
    if value.scale() > 2 {
        return Err(invalid("at most two decimal places"));
    }
    if value <= Decimal::ZERO {
        return Err(invalid("must be greater than zero"));
    }
    if value > max_amount() {
        return Err(invalid("at most 1000000000"));
    }
    Ok(value)
}

fn max_amount() -> Decimal {
    Decimal::from_str(MAX_AMOUNT).unwrap_or(Decimal::MAX)
}

/// Read an amount stored in DynamoDB (exact decimal text).
pub fn from_stored(field: &str, text: &str) -> Result<Decimal, ShopError> {
    Decimal::from_str(text)
        .map_err(|_| ShopError::internal(format!("stored `{field}` is not a decimal: {text}")))
}

/// The JSON form: two decimal places, `"19.90"`.
pub fn to_json(value: Decimal) -> String {
    let mut v = value;
    v.rescale(2);
    v.to_string()
}

/// Serialize an amount as [`to_json`] writes it (serde's `serialize_with`).
pub(crate) fn ser_money<S: serde::Serializer>(v: &Decimal, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(&to_json(*v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_are_exact_and_bounded() {
        assert_eq!(to_json(parse_price("price", "19.99").unwrap()), "19.99");
        assert_eq!(to_json(parse_price("price", "5").unwrap()), "5.00");
        assert_eq!(to_json(parse_price("price", "0.1").unwrap()), "0.10");
        for bad in [
            "",
            "-1",
            "0",
            "0.00",
            "1.234",
            "1e3",
            "abc",
            ".5",
            "5.",
            "1.2.3",
            "1000000000.01",
            " ",
            "NaN",
        ] {
            assert!(parse_price("price", bad).is_err(), "{bad:?} accepted");
        }
        // 0.1 + 0.2 is exactly 0.3 here, unlike f64.
        let sum = parse_price("a", "0.1").unwrap() + parse_price("b", "0.2").unwrap();
        assert_eq!(to_json(sum), "0.30");
    }
}
