//! The API's input rules in one place: each rule is a pattern, lengths or bounds that the OpenAPI
//! document states (applied by field name to every property and parameter of that name, see
//! [`apply`]) and that the server checks with the very same text, so a client generated from the
//! document sends nothing the server refuses for a reason the document does not give.

use std::sync::LazyLock;

use regex_lite::Regex;
use utoipa::openapi::schema::{Object, Schema};
use utoipa::openapi::{OpenApi, RefOr};

use crate::error::ShopError;

/// Control characters and white space, as regex ranges (Rust's `char::is_control` and
/// `char::is_whitespace`, written out so every regex dialect reads them alike).
macro_rules! blank {
    () => {
        r"\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
    };
}
/// Control characters only.
macro_rules! control {
    () => {
        r"\u0000-\u001f\u007f-\u009f"
    };
}

/// A text rule: a pattern and a length range in characters (Unicode scalar values, as JSON
/// Schema counts them).
#[derive(Debug)]
pub struct TextRule {
    /// The property or parameter names it governs.
    pub fields: &'static [&'static str],
    /// The pattern (valid in Rust's regex-lite, Python's `re` and ECMA-262 alike).
    pub pattern: &'static str,
    /// Fewest characters.
    pub min: usize,
    /// Most characters.
    pub max: usize,
    /// The stable error code.
    pub code: &'static str,
    /// What a valid value is, for the error message.
    pub what: &'static str,
    regex: LazyLock<Regex>,
}

macro_rules! text_rule {
    ($name:ident, [$($field:literal),*], $pattern:expr, $min:expr, $max:expr, $code:literal, $what:literal) => {
        #[doc = $what]
        pub static $name: TextRule = TextRule {
            fields: &[$($field),*],
            pattern: $pattern,
            min: $min,
            max: $max,
            code: $code,
            what: $what,
            regex: LazyLock::new(|| Regex::new($pattern).expect("the rule's pattern compiles")),
        };
    };
}

text_rule!(
    USER_ID,
    ["userId"],
    r"^[A-Za-z0-9._:@-]+$",
    1,
    128,
    "invalid_user_id",
    "user ids are 1 to 128 characters of letters, digits and . _ - : @"
);
text_rule!(
    PRODUCT_ID,
    ["productId"],
    r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$",
    26,
    26,
    "invalid_product_id",
    "product ids are 26-character ULIDs in upper-case Crockford base32"
);
text_rule!(
    ORDER_ID,
    ["orderId"],
    r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$",
    26,
    26,
    "invalid_order_id",
    "order ids are 26-character ULIDs in upper-case Crockford base32"
);
text_rule!(
    NAME,
    ["name"],
    concat!(
        "^[^",
        control!(),
        "]*[^",
        blank!(),
        "][^",
        control!(),
        "]*$"
    ),
    1,
    200,
    "invalid_name",
    "`name` is 1 to 200 characters, not all white space, without control characters"
);
text_rule!(
    CATEGORY,
    ["category"],
    concat!(
        "^[^#",
        control!(),
        "]*[^#",
        blank!(),
        "][^#",
        control!(),
        "]*$"
    ),
    1,
    64,
    "invalid_category",
    "`category` is 1 to 64 characters without `#` or control characters, not all white space"
);
text_rule!(
    EMAIL,
    ["email"],
    concat!(
        "^[^@",
        blank!(),
        "]+@[^@.",
        blank!(),
        "][^@",
        blank!(),
        "]*\\.[^@",
        blank!(),
        "]*[^@.",
        blank!(),
        "]$"
    ),
    5,
    254,
    "invalid_email",
    "`email` is an address like name@example.com (one @, a dot in the domain, no spaces), at most 254 characters"
);
text_rule!(
    PRICE,
    ["price"],
    r"^(?:[1-9][0-9]{0,8}(?:\.[0-9]{1,2})?|0\.(?:[1-9][0-9]?|0[1-9])|1000000000(?:\.00?)?)$",
    1,
    13,
    "invalid_amount",
    "`price` is a decimal string greater than 0 and at most 1000000000, with at most two decimals and no leading zeros, e.g. \"19.99\""
);
text_rule!(
    DATE_BOUND,
    ["from", "to"],
    r"^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])(?:T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]{1,9})?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9]))?$",
    10,
    35,
    "invalid_date",
    "a date (2026-12-02) or an RFC 3339 timestamp (2026-12-02T10:00:00Z, any offset), a real calendar date"
);
text_rule!(
    IDEMPOTENCY_KEY,
    ["Idempotency-Key"],
    r"^[!-~]+$",
    1,
    128,
    "invalid_idempotency_key",
    "`Idempotency-Key` is 1 to 128 visible ASCII characters"
);
text_rule!(
    CURSOR,
    ["cursor"],
    r"^[A-Za-z0-9_-]+$",
    1,
    2048,
    "invalid_cursor",
    "`cursor` is the `nextCursor` of the previous page, unchanged"
);

/// Every text rule.
pub static TEXT_RULES: [&TextRule; 10] = [
    &USER_ID,
    &PRODUCT_ID,
    &ORDER_ID,
    &NAME,
    &CATEGORY,
    &EMAIL,
    &PRICE,
    &DATE_BOUND,
    &IDEMPOTENCY_KEY,
    &CURSOR,
];

impl TextRule {
    /// Whether `value` follows the rule.
    pub fn accepts(&self, value: &str) -> bool {
        (self.min..=self.max).contains(&value.chars().count()) && self.regex.is_match(value)
    }

    /// `value`, or the rule's 400.
    pub fn check<'v>(&self, value: &'v str) -> Result<&'v str, ShopError> {
        if self.accepts(value) {
            Ok(value)
        } else {
            let shown: String = value.chars().take(64).collect();
            let more = if value.chars().count() > 64 {
                "…"
            } else {
                ""
            };
            Err(ShopError::invalid(
                self.code,
                format!("{}; got {shown:?}{more}", self.what),
            ))
        }
    }
}

/// An integer rule: inclusive bounds.
#[derive(Debug)]
pub struct NumberRule {
    /// The property or parameter names it governs.
    pub fields: &'static [&'static str],
    /// Smallest value.
    pub min: i64,
    /// Largest value.
    pub max: i64,
    /// The stable error code.
    pub code: &'static str,
}

/// Items per page.
pub static LIMIT: NumberRule = NumberRule {
    fields: &["limit"],
    min: 1,
    max: 100,
    code: "invalid_limit",
};
/// Units of a product in one order line.
pub static QUANTITY: NumberRule = NumberRule {
    fields: &["quantity"],
    min: 1,
    max: 1000,
    code: "invalid_quantity",
};
/// Units in stock.
pub static STOCK: NumberRule = NumberRule {
    fields: &["stock"],
    min: 0,
    max: 1_000_000_000,
    code: "invalid_stock",
};
/// Every number rule.
pub static NUMBER_RULES: [&NumberRule; 3] = [&LIMIT, &QUANTITY, &STOCK];

impl NumberRule {
    /// `value`, or the rule's 400.
    pub fn check(&self, value: i64) -> Result<i64, ShopError> {
        if (self.min..=self.max).contains(&value) {
            Ok(value)
        } else {
            Err(ShopError::invalid(
                self.code,
                format!(
                    "`{}` must be {} to {}; got {value}",
                    self.fields[0], self.min, self.max
                ),
            ))
        }
    }
}

/// Most lines in one order. One TransactWriteItems holds at most 100 actions: the idempotency
/// record, the order, and per line the item and its product's check or stock update.
pub const MAX_LINES: usize = 49;
// The limit is the largest that fits: checked when compiling.
const _: () = assert!(1 + 1 + 2 * MAX_LINES <= 100 && 1 + 1 + 2 * (MAX_LINES + 1) > 100);

/// Lines in one order: the bounds of `NewOrder.items`.
pub const ORDER_LINES: (usize, usize) = (1, MAX_LINES);

/// State every rule on the properties and parameters it governs, by name.
pub fn apply(openapi: &mut OpenApi) {
    if let Some(components) = openapi.components.as_mut() {
        for (schema_name, schema) in components.schemas.iter_mut() {
            if let RefOr::T(Schema::Object(object)) = schema {
                for (name, property) in object.properties.iter_mut() {
                    match property {
                        RefOr::T(Schema::Array(array))
                            if schema_name == "NewOrder" && name == "items" =>
                        {
                            array.min_items = Some(ORDER_LINES.0);
                            array.max_items = Some(ORDER_LINES.1);
                        }
                        RefOr::T(Schema::Object(property)) => constrain(name, property),
                        _ => {}
                    }
                }
            }
        }
    }
    for item in openapi.paths.paths.values_mut() {
        for operation in operations(item) {
            for parameter in operation.parameters.iter_mut().flatten() {
                if let Some(RefOr::T(Schema::Object(schema))) = parameter.schema.as_mut() {
                    constrain(&parameter.name, schema);
                }
            }
        }
    }
}

fn operations(
    item: &mut utoipa::openapi::PathItem,
) -> impl Iterator<Item = &mut utoipa::openapi::path::Operation> {
    [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.patch,
        &mut item.delete,
    ]
    .into_iter()
    .filter_map(Option::as_mut)
}

fn constrain(name: &str, object: &mut Object) {
    if let Some(rule) = TEXT_RULES.iter().find(|r| r.fields.contains(&name)) {
        object.pattern = Some(rule.pattern.to_string());
        object.min_length = Some(rule.min);
        object.max_length = Some(rule.max);
    }
    if let Some(rule) = NUMBER_RULES.iter().find(|r| r.fields.contains(&name)) {
        object.minimum = Some(utoipa::Number::Int(
            isize::try_from(rule.min).unwrap_or(isize::MIN),
        ));
        object.maximum = Some(utoipa::Number::Int(
            isize::try_from(rule.max).unwrap_or(isize::MAX),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles_and_names_and_emails_follow_their_words() {
        for rule in TEXT_RULES {
            assert!(Regex::new(rule.pattern).is_ok(), "{}", rule.pattern);
        }
        for ok in ["Alice", " Ann ", "Zoë Ø", "a"] {
            assert!(NAME.accepts(ok), "{ok:?}");
        }
        for bad in [
            "",
            "   ",
            "a\u{0}b",
            "tab\tname",
            &"x".repeat(201),
            "\u{3000}",
        ] {
            assert!(!NAME.accepts(bad), "{bad:?}");
        }
        for ok in ["a@b.co", "Alice.Smith+tag@example.co.uk", "x@y..z"] {
            assert!(EMAIL.accepts(ok), "{ok:?}");
        }
        for bad in [
            "a@b",
            "@b.co",
            "a@.b.co",
            "a@b.co.",
            "a b@c.de",
            "a@@b.co",
            "a@b.c\u{a0}",
            " a@b.co",
        ] {
            assert!(!EMAIL.accepts(bad), "{bad:?}");
        }
    }

    #[test]
    fn prices_are_positive_bounded_and_two_decimals_at_most() {
        for ok in [
            "0.01",
            "0.5",
            "0.50",
            "1",
            "19.99",
            "999999999.99",
            "1000000000",
            "1000000000.00",
        ] {
            assert!(PRICE.accepts(ok), "{ok:?}");
        }
        for bad in [
            "0",
            "0.00",
            "00.5",
            "01",
            "1.234",
            "-1",
            "1e3",
            ".5",
            "5.",
            "1000000000.01",
            "1000000001",
        ] {
            assert!(!PRICE.accepts(bad), "{bad:?}");
        }
    }

    #[test]
    fn ids_and_bounds() {
        assert!(ORDER_ID.accepts(&ulid::Ulid::new().to_string()));
        assert!(
            !PRODUCT_ID.accepts("01j00000000000000000000000"),
            "lower case is not canonical"
        );
        assert!(
            !PRODUCT_ID.accepts("8ZZZZZZZZZZZZZZZZZZZZZZZZZ"),
            "beyond the 48-bit time"
        );
        for ok in [
            "2026-12-02",
            "2026-12-02T10:00:00Z",
            "2026-12-02T10:00:00.123+05:30",
        ] {
            assert!(DATE_BOUND.accepts(ok), "{ok}");
        }
        for bad in [
            "2026-13-01",
            "26-12-02",
            "2026-12-02T24:00:00Z",
            "2026-12-02T10:00Z",
            "yesterday",
        ] {
            assert!(!DATE_BOUND.accepts(bad), "{bad}");
        }
    }
}
