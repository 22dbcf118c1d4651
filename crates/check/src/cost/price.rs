//! The price table: exact decimal prices shipped as data (`data/prices.toml`), overridable.

use std::str::FromStr;

use rust_decimal::Decimal;
use serde::Deserialize;

/// The shipped price table (`crates/check/data/prices.toml`).
pub const DEFAULT_PRICES: &str = include_str!("../../data/prices.toml");

/// DynamoDB prices for one region and table class.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PriceTable {
    /// Where the figures come from.
    pub source: String,
    /// AWS region.
    pub region: String,
    /// Date the figures took effect / were taken.
    pub as_of: String,
    /// Currency code.
    pub currency: String,
    /// On-demand price per million read request units.
    #[serde(serialize_with = "super::decimal_str")]
    pub on_demand_read_per_million: Decimal,
    /// On-demand price per million write request units.
    #[serde(serialize_with = "super::decimal_str")]
    pub on_demand_write_per_million: Decimal,
    /// Provisioned price per read capacity unit per hour.
    #[serde(serialize_with = "super::decimal_str")]
    pub provisioned_rcu_per_hour: Decimal,
    /// Provisioned price per write capacity unit per hour.
    #[serde(serialize_with = "super::decimal_str")]
    pub provisioned_wcu_per_hour: Decimal,
    /// Hours in a billing month (AWS uses 730).
    #[serde(serialize_with = "super::decimal_str")]
    pub hours_per_month: Decimal,
}

/// A price file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PriceError {
    /// Not valid TOML, or a key of the wrong type or unknown.
    #[error("price file is not valid: {message}")]
    Toml {
        /// The parser's message.
        message: String,
    },
    /// A price is not a non-negative decimal.
    #[error(
        "price `{field}` = `{value}` is not a non-negative decimal (write it as a string, e.g. \"0.125\")"
    )]
    BadDecimal {
        /// The key.
        field: String,
        /// The value given.
        value: String,
    },
    /// A text (`source`, `region`, `as_of`, `currency`) holds a hidden character: a control,
    /// bidirectional or invisible one, which the report would print.
    #[error(
        "`{field}` = `{value}` holds {character}: a price file's text may not hold control, bidirectional or invisible characters"
    )]
    HiddenCharacter {
        /// The key.
        field: String,
        /// The value given, hidden characters escaped.
        value: String,
        /// The character, `U+001B`.
        character: String,
    },
    /// A figure outside what any region charges or any month holds.
    #[error("`{field}` = `{value}` is not plausible: it must be {bounds}")]
    Implausible {
        /// The key.
        field: String,
        /// The value given.
        value: String,
        /// The accepted range, in words.
        bounds: &'static str,
    },
}

/// The most a price may be, in any currency: far above any DynamoDB price.
const MAX_PRICE: i64 = 1_000_000;
/// The most hours a month holds (31 days).
const MAX_HOURS_PER_MONTH: i64 = 744;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPrices {
    source: Option<String>,
    region: Option<String>,
    as_of: Option<String>,
    currency: Option<String>,
    on_demand_read_per_million: Option<String>,
    on_demand_write_per_million: Option<String>,
    provisioned_rcu_per_hour: Option<String>,
    provisioned_wcu_per_hour: Option<String>,
    hours_per_month: Option<String>,
}

/// A text of the file: refused when it holds a hidden character.
fn text(field: &str, value: Option<String>, default: String) -> Result<String, PriceError> {
    let Some(value) = value else {
        return Ok(default);
    };
    match monotable_model::text::first_hidden(&value) {
        Some((_, c)) => Err(PriceError::HiddenCharacter {
            field: field.to_string(),
            value: monotable_model::text::escape(&value).into_owned(),
            character: monotable_model::text::code_point(c),
        }),
        None => Ok(value),
    }
}

fn decimal(field: &str, value: Option<String>, default: Decimal) -> Result<Decimal, PriceError> {
    let Some(value) = value else {
        return Ok(default);
    };
    let parsed = match Decimal::from_str(value.trim()) {
        Ok(d) if !d.is_sign_negative() => d,
        _ => {
            return Err(PriceError::BadDecimal {
                field: field.to_string(),
                value,
            });
        }
    };
    let (plausible, bounds) = if field == "hours_per_month" {
        (
            parsed > Decimal::ZERO && parsed <= Decimal::from(MAX_HOURS_PER_MONTH),
            "more than 0 and at most 744 (31 days)",
        )
    } else {
        (parsed <= Decimal::from(MAX_PRICE), "at most 1000000")
    };
    if plausible {
        Ok(parsed)
    } else {
        Err(PriceError::Implausible {
            field: field.to_string(),
            value,
            bounds,
        })
    }
}

impl PriceTable {
    /// The figures of `data/prices.toml`, built in (used if the shipped file were unreadable).
    fn builtin() -> Self {
        Self {
            source: "https://aws.amazon.com/dynamodb/pricing/ (on-demand and provisioned, Standard table class)".to_string(),
            region: "us-east-1".to_string(),
            as_of: "2024-11-01".to_string(),
            currency: "USD".to_string(),
            on_demand_read_per_million: Decimal::new(125, 3),
            on_demand_write_per_million: Decimal::new(625, 3),
            provisioned_rcu_per_hour: Decimal::new(13, 5),
            provisioned_wcu_per_hour: Decimal::new(65, 5),
            hours_per_month: Decimal::new(730, 0),
        }
    }

    /// Parses a price file; keys it leaves out keep the shipped defaults.
    pub fn from_toml(source: &str) -> Result<Self, PriceError> {
        Self::overlay(Self::default(), source)
    }

    fn overlay(base: Self, source: &str) -> Result<Self, PriceError> {
        let raw: RawPrices = toml::from_str(source).map_err(|e| PriceError::Toml {
            message: e.message().to_string(),
        })?;
        Ok(Self {
            source: text("source", raw.source, base.source)?,
            region: text("region", raw.region, base.region)?,
            as_of: text("as_of", raw.as_of, base.as_of)?,
            currency: text("currency", raw.currency, base.currency)?,
            on_demand_read_per_million: decimal(
                "on_demand_read_per_million",
                raw.on_demand_read_per_million,
                base.on_demand_read_per_million,
            )?,
            on_demand_write_per_million: decimal(
                "on_demand_write_per_million",
                raw.on_demand_write_per_million,
                base.on_demand_write_per_million,
            )?,
            provisioned_rcu_per_hour: decimal(
                "provisioned_rcu_per_hour",
                raw.provisioned_rcu_per_hour,
                base.provisioned_rcu_per_hour,
            )?,
            provisioned_wcu_per_hour: decimal(
                "provisioned_wcu_per_hour",
                raw.provisioned_wcu_per_hour,
                base.provisioned_wcu_per_hour,
            )?,
            hours_per_month: decimal("hours_per_month", raw.hours_per_month, base.hours_per_month)?,
        })
    }
}

impl Default for PriceTable {
    /// The shipped table (`data/prices.toml`).
    fn default() -> Self {
        Self::overlay(Self::builtin(), DEFAULT_PRICES).unwrap_or_else(|_| Self::builtin())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_file_matches_builtin() {
        assert_eq!(
            PriceTable::overlay(PriceTable::builtin(), DEFAULT_PRICES),
            Ok(PriceTable::builtin())
        );
    }

    #[test]
    fn overrides_and_errors() {
        let p = PriceTable::from_toml(
            "region = \"eu-west-1\"\non_demand_read_per_million = \"0.1415\"",
        )
        .unwrap();
        assert_eq!(p.region, "eu-west-1");
        assert_eq!(p.on_demand_read_per_million, Decimal::new(1415, 4));
        assert_eq!(p.on_demand_write_per_million, Decimal::new(625, 3));
        assert!(matches!(
            PriceTable::from_toml("on_demand_read_per_million = \"-1\""),
            Err(PriceError::BadDecimal { .. })
        ));
        assert!(matches!(
            PriceTable::from_toml("on_demand_read_per_million = 0.1"),
            Err(PriceError::Toml { .. })
        ));
        assert!(matches!(
            PriceTable::from_toml("bogus = 1"),
            Err(PriceError::Toml { .. })
        ));
        for bad in [
            "on_demand_read_per_million = \"NaN\"",
            "provisioned_rcu_per_hour = \"-0.1\"",
        ] {
            assert!(
                matches!(
                    PriceTable::from_toml(bad),
                    Err(PriceError::BadDecimal { .. })
                ),
                "{bad}"
            );
        }
        for absurd in [
            "on_demand_write_per_million = \"79228162514264337593543950335\"",
            "provisioned_wcu_per_hour = \"1000000.01\"",
            "hours_per_month = \"0\"",
            "hours_per_month = \"745\"",
        ] {
            let err = PriceTable::from_toml(absurd).expect_err(absurd);
            assert!(
                matches!(err, PriceError::Implausible { .. }),
                "{absurd}: {err}"
            );
        }
        assert!(PriceTable::from_toml("hours_per_month = \"744\"").is_ok());
        for hidden in [
            "region = \"us\\u001b]0;x\\u0007\"",
            "currency = \"US\u{202e}D\"",
        ] {
            let err = PriceTable::from_toml(hidden).expect_err(hidden);
            assert!(
                matches!(err, PriceError::HiddenCharacter { .. }),
                "{hidden}: {err}"
            );
            assert!(!err.to_string().contains(['\u{1b}', '\u{202e}']), "{err}");
        }
    }
}
