//! Reading back the items this crate stored.
//!
//! An item is stored as DynamoDB JSON text, written by
//! [`AttributeValue`]'s `Serialize` impl: one member per value, sets already
//! sorted, binary as standard base64, `NULL` always `true`. Reading one back
//! through the request decoder ([`AttributeValue`]'s `Deserialize` impl) costs
//! more than the read itself: that decoder goes through a generic JSON value to
//! report a malformed request the way DynamoDB does, validates every number
//! again, and copies every nested map and list once per level. None of that
//! can find anything in text this crate wrote after validating it.
//!
//! [`decode`] reads the stored shape straight into an [`Item`]. Text of any
//! other shape (a row an older version wrote differently, say) goes to the
//! request decoder as before, so what it answers for such text is unchanged.

use crate::types::{AttributeValue, Item};
use base64::{Engine as _, engine::general_purpose::STANDARD as BASE64};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::collections::HashMap;
use std::fmt;

/// Decode a stored item: the stored shape directly, anything else through the
/// request decoder.
pub(crate) fn decode(json: &str) -> serde_json::Result<Item> {
    let mut deserializer = serde_json::Deserializer::from_str(json);
    match ItemSeed
        .deserialize(&mut deserializer)
        .and_then(|item| deserializer.end().map(|()| item))
    {
        Ok(item) => Ok(item),
        Err(_) => serde_json::from_str(json),
    }
}

/// A map of attribute names to stored values: an item, or an `M` value.
#[derive(Clone, Copy)]
struct ItemSeed;

impl<'de> DeserializeSeed<'de> for ItemSeed {
    type Value = Item;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Item, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ItemSeed {
    type Value = Item;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of attribute values")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item, A::Error> {
        let mut item = HashMap::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(name) = map.next_key::<String>()? {
            let value = map.next_value_seed(ValueSeed)?;
            item.insert(name, value);
        }
        Ok(item)
    }
}

/// One stored value: an object with exactly one type member.
#[derive(Clone, Copy)]
struct ValueSeed;

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = AttributeValue;

    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<AttributeValue, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed {
    type Value = AttributeValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an attribute value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AttributeValue, A::Error> {
        let Some(member) = map.next_key::<Member>()? else {
            return Err(de::Error::custom("empty AttributeValue object"));
        };
        let value = match member {
            Member::S => AttributeValue::S(map.next_value()?),
            Member::N => AttributeValue::N(map.next_value()?),
            Member::B => AttributeValue::B(map.next_value_seed(BinarySeed)?),
            Member::Bool => AttributeValue::BOOL(map.next_value()?),
            // Stored nulls are always true; anything else is not the stored shape.
            Member::Null => match map.next_value()? {
                true => AttributeValue::NULL(true),
                false => return Err(de::Error::custom("a stored NULL is true")),
            },
            Member::Ss => AttributeValue::SS(map.next_value()?),
            Member::Ns => AttributeValue::NS(map.next_value()?),
            Member::Bs => AttributeValue::BS(map.next_value_seed(ListSeed(BinarySeed))?),
            Member::L => AttributeValue::L(map.next_value_seed(ListSeed(ValueSeed))?),
            Member::M => AttributeValue::M(map.next_value_seed(ItemSeed)?),
        };
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom("more than one member in a stored value"));
        }
        Ok(value)
    }
}

/// The type member of a stored value.
enum Member {
    S,
    N,
    B,
    Bool,
    Null,
    Ss,
    Ns,
    Bs,
    L,
    M,
}

impl<'de> de::Deserialize<'de> for Member {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Member, D::Error> {
        deserializer.deserialize_identifier(MemberVisitor)
    }
}

struct MemberVisitor;

impl Visitor<'_> for MemberVisitor {
    type Value = Member;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a type member")
    }

    fn visit_str<E: de::Error>(self, member: &str) -> Result<Member, E> {
        Ok(match member {
            "S" => Member::S,
            "N" => Member::N,
            "B" => Member::B,
            "BOOL" => Member::Bool,
            "NULL" => Member::Null,
            "SS" => Member::Ss,
            "NS" => Member::Ns,
            "BS" => Member::Bs,
            "L" => Member::L,
            "M" => Member::M,
            other => return Err(E::custom(format!("unknown type member {other}"))),
        })
    }
}

/// Binary, as standard base64 text.
#[derive(Clone, Copy)]
struct BinarySeed;

impl<'de> DeserializeSeed<'de> for BinarySeed {
    type Value = Vec<u8>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<u8>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for BinarySeed {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("base64 text")
    }

    fn visit_str<E: de::Error>(self, encoded: &str) -> Result<Vec<u8>, E> {
        BASE64
            .decode(encoded)
            .map_err(|e| E::custom(format!("invalid base64: {e}")))
    }
}

/// A JSON array, each element read by the seed `S`.
struct ListSeed<S>(S);

impl<'de, S> DeserializeSeed<'de> for ListSeed<S>
where
    S: DeserializeSeed<'de> + Copy,
{
    type Value = Vec<S::Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, S> Visitor<'de> for ListSeed<S>
where
    S: DeserializeSeed<'de> + Copy,
{
    type Value = Vec<S::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(element) = seq.next_element_seed(self.0)? {
            out.push(element);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What the request decoder reads from the same text: the answer before
    /// this module existed.
    fn by_request_decoder(json: &str) -> serde_json::Result<Item> {
        serde_json::from_str(json)
    }

    fn stored(item: &Item) -> String {
        serde_json::to_string(item).unwrap()
    }

    fn every_type() -> Item {
        let json = serde_json::json!({
            "s": {"S": "quote \" backslash \\ newline \n unicode äß 🦀 \u{0001}"},
            "empty": {"S": ""},
            "n": {"N": "-9.9999999999999999999999999999999999999E+125"},
            "tiny": {"N": "1E-130"},
            "digits": {"N": "12345678901234567890123456789012345678"},
            "b": {"B": "AAEC/v8="},
            "emptyB": {"B": ""},
            "bs": {"BS": ["/w==", "AAE="]},
            "ss": {"SS": ["b", "a", "ä"]},
            "ns": {"NS": ["10", "2", "-0.5"]},
            "t": {"BOOL": true},
            "f": {"BOOL": false},
            "null": {"NULL": true},
            "m": {"M": {"l": {"L": [{"M": {}}, {"L": []}, {"NULL": true}, {"NS": ["1"]}]}}},
        });
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn reads_what_the_request_decoder_reads() {
        // Sets come back in the order they were stored in, so the item is
        // compared with what the request decoder reads, not with itself.
        let item = every_type();
        let json = stored(&item);
        let decoded = decode(&json).unwrap();
        assert_eq!(decoded, by_request_decoder(&json).unwrap());
        assert_eq!(decoded.len(), item.len());
        assert_eq!(decoded["m"], item["m"]);
        assert_eq!(
            decoded["ns"],
            AttributeValue::NS(vec!["-0.5".into(), "2".into(), "10".into()])
        );
    }

    #[test]
    fn reads_an_empty_item_and_deep_nesting() {
        assert_eq!(decode("{}").unwrap(), Item::new());
        let mut value = AttributeValue::S("leaf".into());
        for depth in 0..32 {
            value = if depth % 2 == 0 {
                AttributeValue::L(vec![value])
            } else {
                AttributeValue::M(HashMap::from([("k".to_string(), value)]))
            };
        }
        let item = HashMap::from([("deep".to_string(), value)]);
        assert_eq!(decode(&stored(&item)).unwrap(), item);
    }

    #[test]
    fn text_of_another_shape_is_read_as_the_request_decoder_reads_it() {
        for json in [
            // What a client may send but this crate never stores.
            r#"{"a": {"BOOL": "yes"}}"#,
            r#"{"a": {"S": "x", "N": null}}"#,
            r#"{"a": {"L": [{"NULL": "true"}]}}"#,
            // Not an item at all.
            r#"{"a": {"NULL": false}}"#,
            r#"{"a": {"S": "x", "N": "1"}}"#,
            r#"{"a": {"X": "1"}}"#,
            r#"{"a": {}}"#,
            r#"{"a": {"B": "not base64!"}}"#,
            r#"[1, 2]"#,
            r#"{"a": {"S": "x"}} trailing"#,
        ] {
            let ours = decode(json).map_err(|e| e.to_string());
            let theirs = by_request_decoder(json).map_err(|e| e.to_string());
            assert_eq!(ours, theirs, "{json}");
        }
    }

    /// A number is validated when it is written, not again when it is read:
    /// text this crate stored holds only numbers it accepted.
    #[test]
    fn numbers_are_not_validated_again() {
        let json = r#"{"n": {"N": "1E+999"}, "ns": {"NS": ["1E+999"]}}"#;
        assert!(by_request_decoder(json).is_err());
        let item = decode(json).unwrap();
        assert_eq!(item["n"], AttributeValue::N("1E+999".into()));
        assert_eq!(item["ns"], AttributeValue::NS(vec!["1E+999".into()]));
    }

    fn arb_value(depth: u32) -> BoxedStrategy<AttributeValue> {
        let number = prop_oneof![
            any::<i64>().prop_map(|n| n.to_string()),
            (any::<i32>(), 0u32..1_000_000, -100i32..100)
                .prop_map(|(i, f, e)| format!("{i}.{f}E{e}")),
        ];
        let leaf = prop_oneof![
            any::<String>().prop_map(AttributeValue::S),
            number.clone().prop_map(AttributeValue::N),
            proptest::collection::vec(any::<u8>(), 0..32).prop_map(AttributeValue::B),
            any::<bool>().prop_map(AttributeValue::BOOL),
            Just(AttributeValue::NULL(true)),
            proptest::collection::vec(any::<String>(), 1..5).prop_map(AttributeValue::SS),
            proptest::collection::vec(number, 1..5).prop_map(AttributeValue::NS),
            proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..16), 1..5)
                .prop_map(AttributeValue::BS),
        ];
        if depth == 0 {
            return leaf.boxed();
        }
        prop_oneof![
            4 => leaf,
            1 => proptest::collection::vec(arb_value(depth - 1), 0..4).prop_map(AttributeValue::L),
            1 => proptest::collection::hash_map(any::<String>(), arb_value(depth - 1), 0..4)
                .prop_map(AttributeValue::M),
        ]
        .boxed()
    }

    proptest! {
        /// Whatever this crate stores reads back as the request decoder
        /// reads it (sets in the order they are stored in).
        #[test]
        fn stored_items_read_back_as_before(
            item in proptest::collection::hash_map(any::<String>(), arb_value(3), 0..8)
        ) {
            let json = stored(&item);
            prop_assert_eq!(decode(&json).ok(), by_request_decoder(&json).ok());
        }
    }
}
