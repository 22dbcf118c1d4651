//! Opaque pagination cursors: the position of the next page, bound to the listing that made it
//! and signed (HMAC-SHA256), so a tampered cursor or one from another listing (another user's
//! orders, another category) is refused with a 400 instead of leaking data.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::AttributeValue;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::error::ShopError;
use monotable_store::items::Item;

/// The longest cursor accepted, in characters.
pub const MAX_CURSOR_LEN: usize = 2048;

#[derive(Serialize, Deserialize)]
struct Body {
    /// The listing this cursor belongs to (pattern and its parameters).
    scope: String,
    /// Position: string attributes of the last evaluated key, or the shop's own markers.
    at: BTreeMap<String, String>,
}

fn mac(key: &[u8], payload: &[u8]) -> Result<Vec<u8>, ShopError> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).map_err(ShopError::internal)?;
    mac.update(payload);
    Ok(mac.finalize().into_bytes().to_vec())
}

fn invalid() -> ShopError {
    ShopError::invalid(
        "invalid_cursor",
        "`cursor` is not a cursor this listing issued; start again without it",
    )
}

/// Sign `at` for `scope`.
pub fn encode_position(
    key: &[u8],
    scope: &str,
    at: BTreeMap<String, String>,
) -> Result<String, ShopError> {
    let body = serde_json::to_vec(&Body {
        scope: scope.to_string(),
        at,
    })
    .map_err(ShopError::internal)?;
    let tag = mac(key, &body)?;
    Ok(format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(&body),
        URL_SAFE_NO_PAD.encode(tag)
    ))
}

/// Verify a cursor for `scope` and return its position.
pub fn decode_position(
    key: &[u8],
    scope: &str,
    cursor: &str,
) -> Result<BTreeMap<String, String>, ShopError> {
    if cursor.len() > MAX_CURSOR_LEN {
        return Err(invalid());
    }
    let (body, tag) = cursor.split_once('.').ok_or_else(invalid)?;
    let body = URL_SAFE_NO_PAD.decode(body).map_err(|_| invalid())?;
    let tag = URL_SAFE_NO_PAD.decode(tag).map_err(|_| invalid())?;
    let mut verifier = Hmac::<Sha256>::new_from_slice(key).map_err(ShopError::internal)?;
    verifier.update(&body);
    verifier.verify_slice(&tag).map_err(|_| invalid())?;
    let body: Body = serde_json::from_slice(&body).map_err(|_| invalid())?;
    if body.scope != scope {
        return Err(invalid());
    }
    Ok(body.at)
}

/// A cursor for DynamoDB's `LastEvaluatedKey` (the shop's keys are all strings).
pub fn encode_key(key: &[u8], scope: &str, last: &Item) -> Result<String, ShopError> {
    let mut at = BTreeMap::new();
    for (name, value) in last {
        match value {
            AttributeValue::S(s) => {
                at.insert(name.clone(), s.clone());
            }
            other => {
                return Err(ShopError::internal(format!(
                    "key attribute {name} is not a string: {other:?}"
                )));
            }
        }
    }
    encode_position(key, scope, at)
}

/// The `ExclusiveStartKey` in a cursor.
pub fn decode_key(key: &[u8], scope: &str, cursor: &str) -> Result<Item, ShopError> {
    Ok(decode_position(key, scope, cursor)?
        .into_iter()
        .map(|(k, v)| (k, AttributeValue::S(v)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"test-key";

    fn item() -> Item {
        Item::from([
            ("PK".to_string(), AttributeValue::S("ORDER#1".into())),
            ("GSI1PK".to_string(), AttributeValue::S("USER#a".into())),
        ])
    }

    #[test]
    fn round_trips_within_its_scope() {
        let c = encode_key(KEY, "listUserOrders|a", &item()).unwrap();
        assert_eq!(decode_key(KEY, "listUserOrders|a", &c).unwrap(), item());
    }

    #[test]
    fn refuses_other_scopes_keys_and_tampering() {
        let c = encode_key(KEY, "listUserOrders|a", &item()).unwrap();
        assert!(decode_key(KEY, "listUserOrders|b", &c).is_err());
        assert!(decode_key(b"other-key", "listUserOrders|a", &c).is_err());
        let (body, tag) = c.split_once('.').unwrap();
        let mut raw = URL_SAFE_NO_PAD.decode(body).unwrap();
        let last = raw.len() - 3;
        raw[last] ^= 1;
        let forged = format!("{}.{tag}", URL_SAFE_NO_PAD.encode(raw));
        assert!(decode_key(KEY, "listUserOrders|a", &forged).is_err());
        for junk in ["", ".", "abc", "a.b", &"x".repeat(5000)] {
            let err = decode_key(KEY, "listUserOrders|a", junk).unwrap_err();
            assert_eq!(err.code(), "invalid_cursor");
        }
    }
}
