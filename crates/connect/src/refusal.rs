//! A request body that does not decode, refused as DynamoDB refuses it: `ValidationException`
//! for a value outside its constraints, `SerializationException` for a body of the wrong shape.
//!
//! The engine's request types decide which while they decode: a custom `Deserialize` that
//! refuses a value (a table name of 2 characters, `Limit` 0, a number past DynamoDB's range,
//! `{"NULL": false}`) prefixes its message with a marker naming the error class, and serde_json
//! appends the position. The engine's own HTTP server reads the markers through a function
//! private to the crate; serve decodes through serde_json itself, so it reads them here, and no
//! marker or serde position ever reaches a client.

use dynoxide::DynoxideError;

/// The classes an engine decoder marks its refusals with, longest prefix first where two share
/// one. `position` says whether serde_json's " at line N column N" is DynamoDB's text too (the
/// `_AS_READ` classes keep it, as DynamoDB leaks it for those members).
const MARKED: [(&str, Class, bool); 5] = [
    ("SERIALIZATION_AS_READ:", Class::Serialization, true),
    ("VALIDATION_AS_READ:", Class::Validation, true),
    ("SERIALIZATION:", Class::Serialization, false),
    ("VALIDATION_REQUEST:", Class::RequestValidation, false),
    ("VALIDATION:", Class::Validation, false),
];

/// The refusal a marker names.
#[derive(Debug, Clone, Copy)]
enum Class {
    Validation,
    /// A request-validation error: PutItem, UpdateItem and DeleteItem wrap it in DynamoDB's
    /// `1 validation error detected: ` envelope, every other operation sends it bare.
    RequestValidation,
    Serialization,
}

/// DynamoDB's words for a value with no type set.
const EMPTY_VALUE: &str =
    "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";

/// The error `operation`'s body failed to decode with, as DynamoDB types and words it.
pub(crate) fn refusal(operation: &str, error: &serde_json::Error) -> DynoxideError {
    let message = error.to_string();
    for (marker, class, position) in MARKED {
        if let Some(rest) = message.strip_prefix(marker) {
            let text = if position {
                rest
            } else {
                without_position(rest)
            };
            return classed(operation, class, text);
        }
    }
    unmarked(&message)
}

/// A marked refusal, its class applied.
fn classed(operation: &str, class: Class, text: &str) -> DynoxideError {
    match class {
        Class::Validation => DynoxideError::ValidationException(text.to_owned()),
        Class::Serialization => DynoxideError::SerializationException(text.to_owned()),
        Class::RequestValidation => match operation {
            "PutItem" | "UpdateItem" | "DeleteItem" => {
                DynoxideError::ValidationException(format!("1 validation error detected: {text}"))
            }
            _ => DynoxideError::ValidationException(text.to_owned()),
        },
    }
}

/// A refusal serde_json made on its own. DynamoDB answers a missing required member, a value
/// outside an enum, a null and a value with no or several types with `ValidationException`;
/// only a true type mismatch (a number where a string belongs) or malformed JSON is a
/// `SerializationException`.
fn unmarked(message: &str) -> DynoxideError {
    let text = without_position(message);
    if message.contains("empty AttributeValue") {
        DynoxideError::ValidationException(EMPTY_VALUE.to_owned())
    } else if message.starts_with("missing field")
        || message.starts_with("unknown variant")
        || message.starts_with("invalid type: null")
        || message.contains("Supplied AttributeValue")
    {
        DynoxideError::ValidationException(text.to_owned())
    } else {
        DynoxideError::SerializationException(text.to_owned())
    }
}

/// `message` without serde_json's " at line N column N".
fn without_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(at) if message[at..].contains(" column ") => &message[..at],
        _ => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> serde_json::Error {
        <serde_json::Error as serde::de::Error>::custom(text)
    }

    #[test]
    fn each_marker_names_its_class_and_leaves_no_trace() {
        let cases = [
            ("VALIDATION:too short", "ValidationException", "too short"),
            ("SERIALIZATION:bad", "SerializationException", "bad"),
            (
                "VALIDATION_AS_READ:x at line 1 column 2",
                "ValidationException",
                "x at line 1 column 2",
            ),
            (
                "SERIALIZATION_AS_READ:y at line 1 column 2",
                "SerializationException",
                "y at line 1 column 2",
            ),
            (
                "VALIDATION_REQUEST:empty set",
                "ValidationException",
                "empty set",
            ),
        ];
        for (raw, kind, words) in cases {
            let json = refusal("Query", &error(raw)).to_json();
            assert!(json.contains(&format!("#{kind}\"")), "{raw}: {json}");
            assert!(json.contains(&format!("\"{words}\"")), "{raw}: {json}");
        }
    }

    #[test]
    fn a_request_validation_is_enveloped_on_the_single_item_writes_only() {
        for operation in ["PutItem", "UpdateItem", "DeleteItem"] {
            let e = refusal(operation, &error("VALIDATION_REQUEST:empty set"));
            assert_eq!(e.to_string(), "1 validation error detected: empty set");
        }
        let bare = refusal("BatchWriteItem", &error("VALIDATION_REQUEST:empty set"));
        assert_eq!(bare.to_string(), "empty set");
    }

    #[test]
    fn serde_s_own_refusals_are_validation_unless_the_shape_is_wrong() {
        assert!(matches!(
            unmarked("missing field `TableName` at line 1 column 2"),
            DynoxideError::ValidationException(m) if m == "missing field `TableName`"
        ));
        assert!(matches!(
            unmarked("unknown variant `SOME`, expected one of `NONE`, `ALL_OLD`"),
            DynoxideError::ValidationException(_)
        ));
        assert!(matches!(
            unmarked("invalid type: integer `23`, expected a string at line 1 column 20"),
            DynoxideError::SerializationException(m) if m == "invalid type: integer `23`, expected a string"
        ));
    }

    #[test]
    fn a_position_is_cut_only_where_serde_put_one() {
        assert_eq!(without_position("a at line 3 column 9"), "a");
        assert_eq!(without_position("waiting at line 3"), "waiting at line 3");
    }
}
