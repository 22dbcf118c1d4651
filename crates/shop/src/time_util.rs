//! Timestamps: RFC 3339 UTC with milliseconds, fixed width, so they sort as strings; dates and
//! the inclusive `from`/`to` bounds the API accepts.

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime, UtcOffset};

use crate::error::ShopError;

/// Fixed-width UTC timestamp: `2026-12-02T18:47:16.123Z`. A time whose UTC form falls outside
/// years 0000..=9999 is clamped to the nearest end (every time the shop takes in is checked by
/// [`parse_bound`] first, so this is a guard, not a path).
pub fn format_ts(t: OffsetDateTime) -> String {
    let fmt =
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    match t.checked_to_offset(UtcOffset::UTC) {
        Some(utc) => utc
            .format(&fmt)
            .unwrap_or_else(|_| "1970-01-01T00:00:00.000Z".into()),
        None if t.year() > 0 => "9999-12-31T23:59:59.999Z".into(),
        None => "0000-01-01T00:00:00.000Z".into(),
    }
}

/// Serialize a timestamp as [`format_ts`] writes it (serde's `serialize_with`).
pub fn ser_ts<S: serde::Serializer>(t: &OffsetDateTime, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(&format_ts(*t))
}

/// Serialize an optional time as RFC 3339 UTC (used with `skip_serializing_if`).
pub fn ser_opt_ts<S: serde::Serializer>(
    t: &Option<OffsetDateTime>,
    ser: S,
) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => ser_ts(t, ser),
        None => ser.serialize_none(),
    }
}

/// An entity the API shows with when it was created and last changed: the struct as written,
/// then `created_at` and `updated_at` (RFC 3339 UTC as [`ser_ts`] writes them, strings in the
/// OpenAPI document), then its `version` with the doc comment given after the struct.
macro_rules! stamped {
    (
        $(#[$meta:meta])*
        pub struct $name:ident { $($fields:tt)* }
        $(#[$version:meta])*
        version
    ) => {
        $(#[$meta])*
        pub struct $name {
            $($fields)*
            /// RFC 3339 UTC.
            #[serde(serialize_with = "crate::time_util::ser_ts")]
            #[schema(value_type = String)]
            pub created_at: ::time::OffsetDateTime,
            /// RFC 3339 UTC.
            #[serde(serialize_with = "crate::time_util::ser_ts")]
            #[schema(value_type = String)]
            pub updated_at: ::time::OffsetDateTime,
            $(#[$version])*
            pub version: i64,
        }
    };
}
pub(crate) use stamped;

/// The UTC day of a time.
pub fn utc_day(t: OffsetDateTime) -> Date {
    t.checked_to_offset(UtcOffset::UTC).unwrap_or(t).date()
}

/// The UTC day of a timestamp: `2026-12-02`.
pub fn format_day(d: Date) -> String {
    let fmt = format_description!("[year]-[month]-[day]");
    d.format(&fmt).unwrap_or_default()
}

/// Now, truncated to milliseconds.
pub fn now() -> OffsetDateTime {
    let t = OffsetDateTime::now_utc();
    t.replace_nanosecond(t.nanosecond() / 1_000_000 * 1_000_000)
        .unwrap_or(t)
}

/// `t` to the whole second, toward the past (what an `epoch-seconds` time to live holds).
pub fn whole_seconds(t: OffsetDateTime) -> OffsetDateTime {
    t.replace_nanosecond(0).unwrap_or(t)
}

/// Which end of a range a bound is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// `from`: a date means its first instant.
    Start,
    /// `to`: a date means its last millisecond (inclusive).
    End,
}

/// The earliest time a key can hold: `0000-01-01T00:00:00.000Z`.
pub fn earliest() -> OffsetDateTime {
    time::macros::date!(0000 - 01 - 01).midnight().assume_utc()
}

/// The latest time a key can hold: `9999-12-31T23:59:59.999Z`.
pub fn latest() -> OffsetDateTime {
    time::macros::datetime!(9999 - 12 - 31 23:59:59.999).assume_utc()
}

/// Parse `from`/`to`: a date (`2026-12-02`) or an RFC 3339 timestamp with any offset, of the form
/// [`crate::rules::DATE_BOUND`] states. A bound whose UTC form falls outside years 0000 to 9999
/// is clamped to the nearest end (keys hold four-digit years; no order lies beyond them).
pub fn parse_bound(field: &str, text: &str, bound: Bound) -> Result<OffsetDateTime, ShopError> {
    let invalid = || {
        ShopError::invalid(
            "invalid_date",
            format!(
                "`{field}` must be {}; got {text:?}",
                crate::rules::DATE_BOUND.what
            ),
        )
    };
    crate::rules::DATE_BOUND.check(text)?;
    let date_fmt = format_description!("[year]-[month]-[day]");
    if let Ok(date) = Date::parse(text, &date_fmt) {
        let t = match bound {
            Bound::Start => date.midnight(),
            Bound::End => date
                .with_hms_milli(23, 59, 59, 999)
                .map_err(|_| invalid())?,
        };
        return Ok(t.assume_utc());
    }
    let t = OffsetDateTime::parse(text, &Rfc3339).map_err(|_| invalid())?;
    Ok(match t.checked_to_offset(UtcOffset::UTC) {
        Some(utc) if utc < earliest() => earliest(),
        Some(utc) if utc > latest() => latest(),
        Some(utc) => whole_millis(utc, bound),
        None if t.offset().is_negative() => latest(),
        None => earliest(),
    })
}

/// `t` at a whole millisecond, what the keys hold (a finer bound is refused): a start rounded
/// up and an end down, so that the range holds no time outside the one asked for.
fn whole_millis(t: OffsetDateTime, bound: Bound) -> OffsetDateTime {
    let below = t.nanosecond() % 1_000_000;
    if below == 0 {
        return t;
    }
    let floor = t - time::Duration::nanoseconds(i64::from(below));
    match bound {
        Bound::End => floor,
        Bound::Start => (floor + time::Duration::milliseconds(1)).min(latest()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_fixed_width_utc() {
        let t = OffsetDateTime::parse("2026-01-02T03:04:05.5+02:00", &Rfc3339).unwrap();
        assert_eq!(format_ts(t), "2026-01-02T01:04:05.500Z");
        assert_eq!(format_day(t.date()), "2026-01-02");
    }

    #[test]
    fn bounds_cover_whole_days() {
        let from = parse_bound("from", "2026-03-01", Bound::Start).unwrap();
        let to = parse_bound("to", "2026-03-01", Bound::End).unwrap();
        assert_eq!(format_ts(from), "2026-03-01T00:00:00.000Z");
        assert_eq!(format_ts(to), "2026-03-01T23:59:59.999Z");
        assert!(parse_bound("from", "yesterday", Bound::Start).is_err());
        assert!(parse_bound("from", "2026-02-30", Bound::Start).is_err());
    }

    #[test]
    fn bounds_whose_utc_form_leaves_the_calendar_are_clamped_not_a_panic() {
        // Regression: `to=9999-12-31T23:00:00-02:00` panicked converting to UTC.
        for (text, want) in [
            ("9999-12-31T23:00:00-02:00", "9999-12-31T23:59:59.999Z"),
            (
                "9999-12-31T23:59:59.999999999-23:59",
                "9999-12-31T23:59:59.999Z",
            ),
            ("0000-01-01T00:30:00+01:00", "0000-01-01T00:00:00.000Z"),
            ("0000-01-01T00:00:00+23:59", "0000-01-01T00:00:00.000Z"),
        ] {
            let t = parse_bound("to", text, Bound::End).unwrap();
            assert_eq!(format_ts(t), want, "{text}");
        }
        for bad in [
            "-0001-01-01",
            "+10000-01-01",
            "2026-02-30",
            "2026-02-29T10:00:00Z",
        ] {
            let err = parse_bound("to", bad, Bound::End).unwrap_err();
            assert_eq!(err.code(), "invalid_date", "{bad}");
        }
        let edge = parse_bound("to", "9999-12-31T23:59:59.999Z", Bound::End).unwrap();
        assert_eq!(format_ts(edge), "9999-12-31T23:59:59.999Z");
    }

    #[test]
    fn a_bound_finer_than_a_millisecond_keeps_the_range_inside_the_one_asked_for() {
        let from = parse_bound("from", "2026-03-01T10:00:00.0005Z", Bound::Start).unwrap();
        let to = parse_bound("to", "2026-03-01T10:00:00.9995Z", Bound::End).unwrap();
        assert_eq!(format_ts(from), "2026-03-01T10:00:00.001Z");
        assert_eq!(format_ts(to), "2026-03-01T10:00:00.999Z");
        assert_eq!(from.nanosecond() % 1_000_000, 0);
        assert_eq!(to.nanosecond() % 1_000_000, 0);
    }
}
