//! Values, both ways and exactly: Rust values as DynamoDB attribute values (strings, booleans,
//! integers as `N` parsed back without a float, `rust_decimal::Decimal` as exact `N`, lists, maps
//! and sets), and what the tools read items with. The one place values are written and read:
//!
//! - this module: [`Value`], a Rust type as one attribute;
//! - [`error`]: [`ValueError`], why a value cannot be read or stored exactly;
//! - [`number`]: numbers compared as numbers, DynamoDB's limits, integers, decimals and floats
//!   read only when the Rust type holds them, and [`storable`], whether a value a Rust type
//!   wrote is stored exactly (what an entity's `validate` checks);
//! - [`key`]: the text a value takes inside a key template ([`KeyText`]);
//! - [`enums`]: a Rust enum as a model `enum` ([`EnumValue`]);
//! - [`time`]: timestamps in each [`TimestampFormat`] the model names ([`format_time`],
//!   [`parse_time`], [`Timestamp`]);
//! - [`text`]: an attribute value as the text key templates render, and back, typed by its
//!   model attribute (what `audit`, `migrate`, `verify` and `ui` read items with).
//!
//! Every value either round-trips exactly or is refused with a [`ValueError`]: reading refuses a
//! number the Rust type would wrap or round; writing is checked beforehand ([`storable`],
//! [`check_time`]), since a value's attribute value is written without failing. DynamoDB holds
//! no empty set: a required set that is empty is stored as no attribute and reads back empty;
//! an optional one given empty is refused (it would read back as `None`).
//!
//! The `Entity` derive calls these for each field, choosing by the model's attribute type, so a
//! field whose Rust type cannot hold that type is a compile error naming the trait below.

pub mod enums;
pub mod error;
pub mod key;
pub mod number;
pub mod text;
pub mod time;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use aws_sdk_dynamodb::types::AttributeValue;
use rust_decimal::Decimal;

pub use enums::{EnumValue, has_all, has_value, same_values};
pub use error::ValueError;
pub use key::KeyText;
pub use monotable_model::TimestampFormat;
pub use number::{Limits, storable, within_length};
pub use text::{key_text, template_text, template_texts, type_name};
pub use time::{Timestamp, check_time, format_time, from_millis, parse_time, to_millis};

pub(crate) use error::wrong;
use key::write_padded;

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

/// The text of an `N`.
fn number_text(value: &AttributeValue) -> Result<&str, ValueError> {
    value
        .as_n()
        .map(String::as_str)
        .map_err(|v| wrong("a number", v))
}

/// `Value` for Rust's integers: written as their text, read from an `N` only when the type
/// holds it (a number beyond it is refused, never wrapped).
macro_rules! integer_values {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn to_value(&self) -> AttributeValue {
                AttributeValue::N(self.to_string())
            }
            fn from_value(value: &AttributeValue) -> Result<Self, ValueError> {
                number::read_integer(number_text(value)?, stringify!($t))
            }
        }
    )*};
}
integer_values!(
    i8, i16, i32, i64, i128, u8, u16, u32, u64, u128, isize, usize
);

/// `Value` for floats: written as their shortest text (which reads back as the same value, so
/// it round-trips exactly; DynamoDB holds no NaN or infinity, which an entity's `validate`
/// refuses), read from an `N` only when the float holds it as written (never rounded).
macro_rules! float_values {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn to_value(&self) -> AttributeValue {
                AttributeValue::N(self.to_string())
            }
            fn from_value(value: &AttributeValue) -> Result<Self, ValueError> {
                number::read_float(number_text(value)?, stringify!($t))
            }
        }
    )*};
}
float_values!(f32, f64);

/// Integers in keys, zero-padded to a template's width.
macro_rules! integers {
    ($($t:ty),*) => {$(
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

/// A model `number` (`float`) in a key: its shortest text, never padded.
macro_rules! floats {
    ($($t:ty),*) => {$(
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
        number::read_decimal(number_text(value)?)
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
        // Beyond the type: refused, never wrapped or rounded.
        let n = |t: &str| AttributeValue::N(t.into());
        assert!(matches!(
            i64::from_value(&n("9223372036854775808")),
            Err(ValueError::OutOfRange { ty: "i64", .. })
        ));
        assert!(matches!(
            Decimal::from_value(&n("12345678901234567890123456789012345678")),
            Err(ValueError::OutOfRange { .. })
        ));
        assert_eq!(i128::from_value(&n("9223372036854775808")), Ok(1 << 63));
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
}
