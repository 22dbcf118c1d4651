//! Opaque pagination cursors: the position of the next page, encrypted and authenticated
//! (AES-256-GCM, a random nonce per cursor) and bound to the listing that made it (its scope,
//! the pattern and its parameters, is the associated data). A client learns nothing from a
//! cursor, not even the key it resumes at, and a tampered cursor or one from another listing
//! (another user's orders, another category) is refused.

use std::collections::BTreeMap;

use aws_lc_rs::aead::{AES_256_GCM, Aad, NONCE_LEN, Nonce, RandomizedNonceKey};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::items::{self, Item};

/// A cursor that is not one this listing issued (tampered, foreign, or malformed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the cursor is not one this listing issued; start again without it")]
pub struct InvalidCursor;

/// The longest cursor accepted, in characters.
pub const MAX_CURSOR_LEN: usize = 2048;

fn invalid() -> InvalidCursor {
    InvalidCursor
}

/// The AEAD key for `secret` (domain-separated from the secret's other uses). AES-256 takes any
/// 32 bytes, so this cannot fail.
fn key(secret: &[u8]) -> Option<RandomizedNonceKey> {
    let mut hasher = Sha256::new();
    hasher.update(b"monotable cursor encryption v2\0");
    hasher.update(secret);
    RandomizedNonceKey::new(&AES_256_GCM, &hasher.finalize()).ok()
}

/// Seal `position` for `scope`. Sealing fails only if the system has no randomness for a nonce.
fn seal(secret: &[u8], scope: &str, position: &Value) -> Option<String> {
    let mut data = serde_json::to_vec(position).ok()?;
    let nonce = key(secret)?
        .seal_in_place_append_tag(Aad::from(scope.as_bytes()), &mut data)
        .ok()?;
    let mut out = nonce.as_ref().to_vec();
    out.extend_from_slice(&data);
    Some(URL_SAFE_NO_PAD.encode(out))
}

/// Open a cursor made by [`seal`] for `scope`.
fn open(secret: &[u8], scope: &str, cursor: &str) -> Result<Value, InvalidCursor> {
    if cursor.len() > MAX_CURSOR_LEN {
        return Err(invalid());
    }
    let raw = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| invalid())?;
    if raw.len() < NONCE_LEN {
        return Err(invalid());
    }
    let (nonce, sealed) = raw.split_at(NONCE_LEN);
    let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| invalid())?;
    let mut sealed = sealed.to_vec();
    let plain = key(secret)
        .ok_or(InvalidCursor)?
        .open_in_place(nonce, Aad::from(scope.as_bytes()), &mut sealed)
        .map_err(|_| invalid())?;
    serde_json::from_slice(plain).map_err(|_| invalid())
}

/// A cursor for a position of the caller's own (strings by name).
pub fn encode_position(secret: &[u8], scope: &str, at: BTreeMap<String, String>) -> Option<String> {
    seal(secret, scope, &serde_json::json!(at))
}

/// The position in a cursor made by [`encode_position`] for `scope`.
pub fn decode_position(
    secret: &[u8],
    scope: &str,
    cursor: &str,
) -> Result<BTreeMap<String, String>, InvalidCursor> {
    serde_json::from_value(open(secret, scope, cursor)?).map_err(|_| invalid())
}

/// A cursor for a query's resume key, its values in their DynamoDB types.
pub fn encode_key(secret: &[u8], scope: &str, last: &Item) -> Option<String> {
    seal(secret, scope, &items::to_json(last))
}

/// The `ExclusiveStartKey` in a cursor made by [`encode_key`] for `scope`.
pub fn decode_key(secret: &[u8], scope: &str, cursor: &str) -> Result<Item, InvalidCursor> {
    items::key_from_json(&open(secret, scope, cursor)?).ok_or_else(invalid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::types::AttributeValue;

    const KEY: &[u8] = b"test-key";

    fn item() -> Item {
        Item::from([
            ("PK".to_string(), AttributeValue::S("ORDER#1".into())),
            ("GSI1PK".to_string(), AttributeValue::S("USER#a".into())),
            ("n".to_string(), AttributeValue::N("7".into())),
        ])
    }

    #[test]
    fn round_trips_within_its_scope() {
        let c = encode_key(KEY, "listUserOrders|a", &item()).unwrap();
        assert_eq!(decode_key(KEY, "listUserOrders|a", &c).unwrap(), item());
        let at = BTreeMap::from([("after".to_string(), "x".to_string())]);
        let p = encode_position(KEY, "s", at.clone()).unwrap();
        assert_eq!(decode_position(KEY, "s", &p).unwrap(), at);
    }

    #[test]
    fn cursors_reveal_nothing_of_the_key() {
        let c = encode_key(KEY, "listUserOrders|a", &item()).unwrap();
        let raw = URL_SAFE_NO_PAD.decode(&c).unwrap();
        let text = String::from_utf8_lossy(&raw);
        for secret in ["ORDER#1", "USER#a", "PK", "GSI1PK"] {
            assert!(!text.contains(secret), "{secret} readable in {text:?}");
        }
        // Two cursors for the same position differ (a fresh nonce each).
        assert_ne!(c, encode_key(KEY, "listUserOrders|a", &item()).unwrap());
    }

    #[test]
    fn refuses_other_scopes_keys_and_tampering() {
        let c = encode_key(KEY, "listUserOrders|a", &item()).unwrap();
        assert!(decode_key(KEY, "listUserOrders|b", &c).is_err());
        assert!(decode_key(b"other-key", "listUserOrders|a", &c).is_err());
        let mut raw = URL_SAFE_NO_PAD.decode(&c).unwrap();
        let last = raw.len() - 3;
        raw[last] ^= 1;
        let forged = URL_SAFE_NO_PAD.encode(raw);
        assert!(decode_key(KEY, "listUserOrders|a", &forged).is_err());
        for junk in [
            "",
            ".",
            "abc",
            "a.b",
            &"x".repeat(5000),
            "AAAAAAAAAAAAAAAAAAAAAAAA",
        ] {
            assert_eq!(
                decode_key(KEY, "listUserOrders|a", junk),
                Err(InvalidCursor)
            );
        }
    }
}
