//! Timestamps in each format the model names ([`TimestampFormat`]): written and read here and
//! nowhere else, for the derive's fields, the tools' samples, and conformance checks.
//!
//! Each format holds a precision (`TimestampFormat::precision`): `date` a day, `rfc3339-utc`
//! and `epoch-seconds` whole seconds, `rfc3339-utc-millis` and `epoch-millis` milliseconds,
//! `iso8601-naive` microseconds, `rfc3339-offset` nanoseconds. [`check_time`] refuses a time
//! finer than its format holds (what an entity's `validate` and the update setters call, so a
//! typed write never truncates); [`format_time`] itself, for the tools, truncates toward the
//! past. Every format but `rfc3339-offset` writes the time in UTC; the text formats hold years
//! 0000 to 9999. Adding a format to the model is one arm in [`format_time`] and one in
//! [`parse_time`] here.

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::TimestampFormat;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime, UtcOffset};

use super::{ValueError, wrong};

/// The years a text format writes.
const YEARS: std::ops::RangeInclusive<i32> = 0..=9999;

/// A time type that holds a model `timestamp` attribute.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot hold a model `timestamp` attribute",
    label = "use time::OffsetDateTime (or time::Date for `format = \"date\"`)"
)]
pub trait Timestamp: Sized {
    /// The attribute value in `format`.
    fn to_value(&self, format: TimestampFormat) -> AttributeValue;
    /// The time in `value`, written in `format`.
    fn from_value(value: &AttributeValue, format: TimestampFormat) -> Result<Self, ValueError>;
    /// The key text in `format`.
    fn write_key(&self, out: &mut String, format: TimestampFormat);
    /// Whether `format` holds it exactly ([`check_time`]).
    fn check(&self, format: TimestampFormat) -> Result<(), ValueError>;
}

/// Whether `format` holds `t` exactly: a time finer than the format's precision (it would be
/// truncated) or, in a text format, outside the years 0000 to 9999 (it could not be written) is
/// refused.
pub fn check_time(t: OffsetDateTime, format: TimestampFormat) -> Result<(), ValueError> {
    let years = match format {
        _ if format.is_number() => true,
        TimestampFormat::Rfc3339Offset => {
            YEARS.contains(&t.year()) || YEARS.contains(&utc(t).year())
        }
        _ => YEARS.contains(&utc(t).year()),
    };
    if !years {
        return Err(ValueError::OutOfYears { time: t, format });
    }
    if t.unix_timestamp_nanos()
        .rem_euclid(format.resolution_nanos())
        != 0
    {
        return Err(ValueError::TooFine { time: t, format });
    }
    Ok(())
}

fn utc(t: OffsetDateTime) -> OffsetDateTime {
    t.checked_to_offset(UtcOffset::UTC).unwrap_or(t)
}

/// `t` at its offset without the offset's seconds (the same instant).
fn whole_minutes(t: OffsetDateTime) -> OffsetDateTime {
    let (h, m, _) = t.offset().as_hms();
    UtcOffset::from_hms(h, m, 0)
        .ok()
        .and_then(|o| t.checked_to_offset(o))
        .unwrap_or(t)
}

/// The text (or number text) of `t` in `format`. A format coarser than the time truncates it
/// toward the past: `rfc3339-utc-millis` and `epoch-millis` drop what is below the millisecond,
/// `iso8601-naive` below the microsecond, `rfc3339-utc` and `epoch-seconds` below the second,
/// `date` the time of day (in UTC). `rfc3339-offset` keeps nanoseconds.
pub fn format_time(t: OffsetDateTime, format: TimestampFormat) -> String {
    let text = match format {
        TimestampFormat::Rfc3339UtcMillis => utc(t).format(format_description!(
            "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
        )),
        TimestampFormat::Rfc3339Utc => utc(t).format(format_description!(
            "[year]-[month]-[day]T[hour]:[minute]:[second]Z"
        )),
        // RFC 3339 writes no offset seconds and no year outside 0000-9999: a time at such an
        // offset is written at its offset's whole minutes, or in UTC (the same instant).
        TimestampFormat::Rfc3339Offset => t
            .format(&Rfc3339)
            .or_else(|_| whole_minutes(t).format(&Rfc3339))
            .or_else(|_| utc(t).format(&Rfc3339)),
        TimestampFormat::Iso8601Naive => {
            let u = utc(t);
            if u.nanosecond() == 0 {
                u.format(format_description!(
                    "[year]-[month]-[day]T[hour]:[minute]:[second]"
                ))
            } else {
                u.format(format_description!(
                    "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]"
                ))
            }
        }
        TimestampFormat::Date => utc(t).format(format_description!("[year]-[month]-[day]")),
        TimestampFormat::EpochSeconds => Ok(t.unix_timestamp().to_string()),
        TimestampFormat::EpochMillis => {
            Ok(t.unix_timestamp_nanos().div_euclid(1_000_000).to_string())
        }
    };
    text.unwrap_or_default()
}

/// The instant `ms` milliseconds after the epoch, seen at `offset_minutes` east of UTC (what
/// `rfc3339-offset` writes; the other formats write it in UTC). `None` outside `time`'s range.
pub fn from_millis(ms: i64, offset_minutes: i16) -> Option<OffsetDateTime> {
    let offset = UtcOffset::from_whole_seconds(i32::from(offset_minutes) * 60).ok()?;
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()?
        .checked_to_offset(offset)
}

/// Milliseconds since the epoch of `t`, toward the past.
pub fn to_millis(t: OffsetDateTime) -> Option<i64> {
    i64::try_from(t.unix_timestamp_nanos().div_euclid(1_000_000)).ok()
}

/// The time in `text` written in `format`.
pub fn parse_time(text: &str, format: TimestampFormat) -> Result<OffsetDateTime, ValueError> {
    let bad = || ValueError::NotATime {
        text: text.to_string(),
        format,
    };
    let number = |scale: i128| -> Result<OffsetDateTime, ValueError> {
        let n: i128 = text.parse().map_err(|_| bad())?;
        OffsetDateTime::from_unix_timestamp_nanos(n.checked_mul(scale).ok_or_else(bad)?)
            .map_err(|_| bad())
    };
    match format {
        TimestampFormat::EpochSeconds => number(1_000_000_000),
        TimestampFormat::EpochMillis => number(1_000_000),
        TimestampFormat::Date => Date::parse(text, format_description!("[year]-[month]-[day]"))
            .map(|d| d.midnight().assume_utc())
            .map_err(|_| bad()),
        TimestampFormat::Iso8601Naive => {
            let with =
                format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond]");
            let without = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
            time::PrimitiveDateTime::parse(text, with)
                .or_else(|_| time::PrimitiveDateTime::parse(text, without))
                .map(|t| t.assume_utc())
                .map_err(|_| bad())
        }
        _ => OffsetDateTime::parse(text, &Rfc3339).map_err(|_| bad()),
    }
}

impl Timestamp for OffsetDateTime {
    fn to_value(&self, format: TimestampFormat) -> AttributeValue {
        let text = format_time(*self, format);
        if format.is_number() {
            AttributeValue::N(text)
        } else {
            AttributeValue::S(text)
        }
    }
    fn from_value(value: &AttributeValue, format: TimestampFormat) -> Result<Self, ValueError> {
        let text = match value {
            AttributeValue::S(s) if !format.is_number() => s,
            AttributeValue::N(n) if format.is_number() => n,
            other => {
                return Err(wrong(
                    if format.is_number() {
                        "a number"
                    } else {
                        "a string"
                    },
                    other,
                ));
            }
        };
        parse_time(text, format)
    }
    fn write_key(&self, out: &mut String, format: TimestampFormat) {
        out.push_str(&format_time(*self, format));
    }
    fn check(&self, format: TimestampFormat) -> Result<(), ValueError> {
        check_time(*self, format)
    }
}

impl Timestamp for Date {
    fn to_value(&self, format: TimestampFormat) -> AttributeValue {
        self.midnight().assume_utc().to_value(format)
    }
    /// The day of a time at midnight UTC; any other time is refused (a day would drop its time
    /// of day).
    fn from_value(value: &AttributeValue, format: TimestampFormat) -> Result<Self, ValueError> {
        let t = OffsetDateTime::from_value(value, format)?;
        let day = utc(t);
        if day.time() != time::Time::MIDNIGHT {
            return Err(ValueError::OutOfRange {
                text: super::text::key_text(value).unwrap_or_default(),
                ty: "time::Date",
            });
        }
        Ok(day.date())
    }
    fn write_key(&self, out: &mut String, format: TimestampFormat) {
        self.midnight().assume_utc().write_key(out, format);
    }
    fn check(&self, format: TimestampFormat) -> Result<(), ValueError> {
        check_time(self.midnight().assume_utc(), format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_millis_floor_times_before_1970() {
        // Integer division rounded a time before 1970 toward the epoch: 0.5 ms before it was
        // written as 0, half a millisecond later than the time, while every other format
        // truncates toward the past.
        let t = OffsetDateTime::from_unix_timestamp_nanos(-500_000).unwrap();
        assert_eq!(format_time(t, TimestampFormat::EpochMillis), "-1");
        assert_eq!(
            format_time(t, TimestampFormat::Rfc3339UtcMillis),
            "1969-12-31T23:59:59.999Z"
        );
        let t = OffsetDateTime::from_unix_timestamp_nanos(-1_500_000_001).unwrap();
        assert_eq!(format_time(t, TimestampFormat::EpochMillis), "-1501");
        assert_eq!(format_time(t, TimestampFormat::EpochSeconds), "-2");
    }

    #[test]
    fn rfc3339_offset_writes_an_offset_with_seconds() {
        // RFC 3339 has no offset seconds: such a time was written as an empty string.
        let offset = UtcOffset::from_hms(0, 17, 30).unwrap();
        let t = OffsetDateTime::parse("1920-01-01T12:00:00Z", &Rfc3339)
            .unwrap()
            .to_offset(offset);
        let text = format_time(t, TimestampFormat::Rfc3339Offset);
        assert_eq!(text, "1920-01-01T12:17:00+00:17");
        assert_eq!(
            parse_time(&text, TimestampFormat::Rfc3339Offset).unwrap(),
            t
        );
        // A local time in year -1 (its instant in year 0) is written in UTC.
        let t = OffsetDateTime::parse("0000-01-01T00:10:00Z", &Rfc3339)
            .unwrap()
            .to_offset(UtcOffset::from_hms(-1, 0, 0).unwrap());
        let text = format_time(t, TimestampFormat::Rfc3339Offset);
        assert_eq!(text, "0000-01-01T00:10:00Z");
    }

    #[test]
    fn timestamps_keep_their_format() {
        let t = OffsetDateTime::parse("2026-12-03T10:11:12.345+02:00", &Rfc3339).unwrap();
        let cases = [
            (
                TimestampFormat::Rfc3339UtcMillis,
                "2026-12-03T08:11:12.345Z",
            ),
            (TimestampFormat::Rfc3339Utc, "2026-12-03T08:11:12Z"),
            (TimestampFormat::Date, "2026-12-03"),
            (TimestampFormat::EpochSeconds, "1796285472"),
            (TimestampFormat::EpochMillis, "1796285472345"),
        ];
        for (format, text) in cases {
            assert_eq!(format_time(t, format), text, "{format:?}");
            let back = parse_time(text, format).unwrap();
            assert_eq!(format_time(back, format), text, "{format:?}");
        }
        let millis = OffsetDateTime::from_value(
            &t.to_value(TimestampFormat::Rfc3339UtcMillis),
            TimestampFormat::Rfc3339UtcMillis,
        )
        .unwrap();
        assert_eq!(millis, t);
        assert!(
            OffsetDateTime::from_value(&AttributeValue::N("1".into()), TimestampFormat::Date)
                .is_err()
        );
    }

    #[test]
    fn a_time_finer_than_its_format_is_refused_not_truncated() {
        let t = OffsetDateTime::parse("2026-03-02T10:00:00.5Z", &Rfc3339).unwrap();
        let e = check_time(t, TimestampFormat::Rfc3339Utc).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`2026-03-02T10:00:00.5Z` is finer than `rfc3339-utc` holds (whole seconds): it would be stored as `2026-03-02T10:00:00Z`; truncate it first, or declare a finer format in the model"
        );
        for (format, ok) in [
            (TimestampFormat::Rfc3339Utc, false),
            (TimestampFormat::EpochSeconds, false),
            (TimestampFormat::Date, false),
            (TimestampFormat::Rfc3339UtcMillis, true),
            (TimestampFormat::EpochMillis, true),
            (TimestampFormat::Iso8601Naive, true),
            (TimestampFormat::Rfc3339Offset, true),
        ] {
            assert_eq!(check_time(t, format).is_ok(), ok, "{}", format.name());
        }
        let nanos = t + time::Duration::nanoseconds(1);
        for format in TimestampFormat::ALL {
            let ok = format == TimestampFormat::Rfc3339Offset;
            assert_eq!(check_time(nanos, format).is_ok(), ok, "{}", format.name());
        }
        // A day is midnight UTC, whatever the offset the time is seen at.
        let midnight = OffsetDateTime::parse("2026-03-02T00:00:00Z", &Rfc3339).unwrap();
        assert_eq!(check_time(midnight, TimestampFormat::Date), Ok(()));
        let local = midnight.to_offset(UtcOffset::from_hms(2, 0, 0).unwrap());
        assert_eq!(check_time(local, TimestampFormat::Date), Ok(()));
        let local_midnight = OffsetDateTime::parse("2026-03-02T00:00:00+02:00", &Rfc3339).unwrap();
        assert!(check_time(local_midnight, TimestampFormat::Date).is_err());
        assert_eq!(
            Date::from_value(
                &AttributeValue::S("2026-03-02".into()),
                TimestampFormat::Date
            )
            .unwrap(),
            midnight.date()
        );
    }

    #[test]
    fn a_text_format_refuses_years_it_cannot_write() {
        let early = Date::from_calendar_date(-1, time::Month::June, 1)
            .unwrap()
            .midnight()
            .assume_utc();
        assert!(matches!(
            check_time(early, TimestampFormat::Rfc3339UtcMillis),
            Err(ValueError::OutOfYears { .. })
        ));
        assert_eq!(check_time(early, TimestampFormat::EpochMillis), Ok(()));
        assert!(early.date().check(TimestampFormat::Date).is_err());
    }
}
