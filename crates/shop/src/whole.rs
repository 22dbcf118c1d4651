//! JSON integers as JSON Schema counts them: any number without a fractional part, so `3` and
//! `3.0` are both the integer 3 (the OpenAPI document says `type: integer`, and a generated
//! client may send either). A fraction, or a value beyond i64, is refused.

use serde::de::{self, Deserializer, Visitor};

struct Whole;

impl Visitor<'_> for Whole {
    type Value = i64;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an integer")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
        Ok(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
        i64::try_from(v).map_err(|_| E::custom(format!("{v} is too large")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
        // Within i64's range every whole f64 converts exactly; 2^63 itself does not fit.
        let fits = v.fract() == 0.0
            && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&v);
        if fits {
            format!("{v:.0}")
                .parse()
                .map_err(|_| E::custom(format!("{v} is not an integer")))
        } else {
            Err(E::custom(format!("{v} is not an integer")))
        }
    }
}

/// An `i64` field.
pub fn integer<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    d.deserialize_any(Whole)
}

/// An `Option<i64>` field (absent or null is `None`).
pub fn optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    struct Maybe;
    impl<'de> Visitor<'de> for Maybe {
        type Value = Option<i64>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an integer or null")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            integer(d).map(Some)
        }
    }
    d.deserialize_option(Maybe)
}

#[cfg(test)]
mod tests {
    #[derive(Debug, serde::Deserialize)]
    struct T {
        #[serde(deserialize_with = "super::integer")]
        n: i64,
        #[serde(default, deserialize_with = "super::optional")]
        o: Option<i64>,
    }

    fn parse(text: &str) -> Result<T, serde_json::Error> {
        serde_json::from_str(text)
    }

    #[test]
    fn whole_numbers_in_any_spelling_are_integers() {
        assert_eq!(parse(r#"{"n": 3}"#).unwrap().n, 3);
        assert_eq!(parse(r#"{"n": 3.0, "o": 4e2}"#).unwrap().o, Some(400));
        assert_eq!(parse(r#"{"n": -0.0, "o": null}"#).unwrap().o, None);
        assert_eq!(parse(r#"{"n": 9223372036854775807}"#).unwrap().n, i64::MAX);
        for bad in [
            r#"{"n": 3.5}"#,
            r#"{"n": "3"}"#,
            r#"{"n": 9223372036854775808}"#,
            r#"{"n": 1e19}"#,
            r#"{"n": true}"#,
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
