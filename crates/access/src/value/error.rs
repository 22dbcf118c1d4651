//! [`ValueError`]: why a value cannot be read from an attribute exactly, or cannot be stored as
//! one exactly. Each variant says what the value is and what the type, the format or DynamoDB
//! can hold, so an entity's error ([`crate::EntityError`]) only adds where.

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::TimestampFormat;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::time::format_time;

/// A value could not be read from an attribute, or cannot be stored as one, exactly.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValueError {
    /// The attribute is another DynamoDB type than the Rust type reads.
    #[error("expected {expected}, found {found}")]
    WrongType {
        /// What the Rust type reads (`a number`).
        expected: &'static str,
        /// What the attribute is (`a string`).
        found: &'static str,
    },
    /// The text is not a value of the type at all.
    #[error("`{text}` is not {what}")]
    Unreadable {
        /// The attribute's text.
        text: String,
        /// What it should be (`a number`, `an integer`).
        what: &'static str,
    },
    /// The text is not a time in its format.
    #[error("`{text}` is not a `{}` timestamp", .format.name())]
    NotATime {
        /// The attribute's text.
        text: String,
        /// The format it should be in.
        format: TimestampFormat,
    },
    /// A number (or a time) the Rust type cannot hold as it is: reading it would wrap or round
    /// it.
    #[error("`{text}` does not fit `{ty}`, which holds {}: reading it would change it", holds(.ty))]
    OutOfRange {
        /// The attribute's text.
        text: String,
        /// The Rust type (`i64`, `rust_decimal::Decimal`).
        ty: &'static str,
    },
    /// An enum attribute's text is none of the enum's variants.
    #[error("`{text}` is not one of {values}")]
    NotOneOf {
        /// The attribute's text.
        text: String,
        /// The variants' texts, listed.
        values: &'static str,
    },
    /// A time finer than its format writes: storing it would truncate it.
    #[error(
        "`{}` is finer than `{}` holds ({}): it would be stored as `{}`; truncate it first, or declare a finer format in the model",
        shown(*.time), .format.name(), .format.precision(), format_time(*.time, *.format)
    )]
    TooFine {
        /// The time.
        time: OffsetDateTime,
        /// Its format.
        format: TimestampFormat,
    },
    /// A time outside the years a text format writes.
    #[error("`{}` is outside the years `{}` writes (0000 to 9999)", shown(*.time), .format.name())]
    OutOfYears {
        /// The time.
        time: OffsetDateTime,
        /// Its format.
        format: TimestampFormat,
    },
    /// NaN or an infinity: DynamoDB holds neither.
    #[error("`{value}` is not a number DynamoDB holds (it has no NaN or infinity)")]
    NotFinite {
        /// The number's text (`NaN`, `inf`).
        value: String,
    },
    /// A number outside DynamoDB's: more significant digits, or a larger or smaller magnitude,
    /// than it holds.
    #[error(
        "`{value}` {why}: a DynamoDB number holds {MAX_DIGITS} significant digits and magnitudes 1e-130 to under 1e126"
    )]
    NumberRange {
        /// The number's text.
        value: String,
        /// What is beyond the limits (`has more significant digits`).
        why: &'static str,
    },
    /// A string longer than the model's `max_length` (in bytes, as DynamoDB counts).
    #[error("{length} bytes, over the model's max_length of {max}")]
    TooLong {
        /// Its length in bytes.
        length: usize,
        /// The model's bound.
        max: u64,
    },
    /// A list, map or set with more elements than the model's `max_items`.
    #[error("{count} items, over the model's max_items of {max}")]
    TooMany {
        /// Its elements.
        count: usize,
        /// The model's bound.
        max: u64,
    },
    /// An integer outside `0..cardinality`: it names a partition no reader looks in.
    #[error("`{value}` is outside 0..{cardinality}, the model's cardinality")]
    OutsideCardinality {
        /// The number's text.
        value: String,
        /// The model's bound.
        cardinality: u64,
    },
    /// An optional set given empty: DynamoDB holds no empty set, so it would be stored as no
    /// attribute and read back as `None`.
    #[error(
        "an empty set, which DynamoDB does not hold: it would read back as `None`; give `None`, or a set with an element"
    )]
    EmptySet,
    /// An empty set inside a list or a map: DynamoDB refuses it.
    #[error("an empty set inside a list or a map, which DynamoDB does not hold")]
    NestedEmptySet,
    /// A map with an empty key: DynamoDB refuses empty attribute names.
    #[error("a map with an empty key, which DynamoDB does not hold")]
    EmptyName,
    /// Anything else, said in words (a [`crate::Value`] written by hand).
    #[error("{0}")]
    Other(String),
}

/// The most significant digits a DynamoDB number holds.
pub const MAX_DIGITS: usize = 38;

/// What `value` is, in words (`a string set`).
pub fn kind(value: &AttributeValue) -> &'static str {
    match value {
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
    }
}

/// `expected` was wanted, `got` is there.
pub(crate) fn wrong(expected: &'static str, got: &AttributeValue) -> ValueError {
    ValueError::WrongType {
        expected,
        found: kind(got),
    }
}

/// A time to the nanosecond, as RFC 3339 writes it (at its offset, else in UTC).
fn shown(t: OffsetDateTime) -> String {
    t.format(&Rfc3339)
        .or_else(|_| t.to_offset(time::UtcOffset::UTC).format(&Rfc3339))
        .unwrap_or_else(|_| t.to_string())
}

/// What the Rust type named `ty` holds, in words.
fn holds(ty: &str) -> String {
    fn range<T: std::fmt::Display>(min: T, max: T) -> String {
        format!("{min} to {max}")
    }
    match ty {
        "i8" => range(i8::MIN, i8::MAX),
        "i16" => range(i16::MIN, i16::MAX),
        "i32" => range(i32::MIN, i32::MAX),
        "i64" => range(i64::MIN, i64::MAX),
        "i128" => range(i128::MIN, i128::MAX),
        "isize" => range(isize::MIN, isize::MAX),
        "u8" => range(u8::MIN, u8::MAX),
        "u16" => range(u16::MIN, u16::MAX),
        "u32" => range(u32::MIN, u32::MAX),
        "u64" => range(u64::MIN, u64::MAX),
        "u128" => range(u128::MIN, u128::MAX),
        "usize" => range(usize::MIN, usize::MAX),
        "rust_decimal::Decimal" => {
            "28 significant digits, at most 28 places, magnitudes under 7.9e28".to_string()
        }
        "time::Date" => "a day: midnight UTC".to_string(),
        _ => format!(
            "the numbers whose shortest text reads back the same; a model `decimal` in rust_decimal::Decimal holds {MAX_DIGITS} digits' worth exactly"
        ),
    }
}
