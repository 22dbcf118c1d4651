//! DynamoDB's sizing rules: attribute and item sizes, read and write capacity units.
//!
//! Exact rules from the DynamoDB developer guide ("Item sizes and formats", "Read/write
//! capacity mode"); see `docs/cost.md`. Pure arithmetic, no model knowledge.

use serde_json::Value;

use crate::num;

/// Bytes per read capacity unit (strongly consistent read).
pub const READ_UNIT_BYTES: u64 = 4096;
/// Bytes per write capacity unit.
pub const WRITE_UNIT_BYTES: u64 = 1024;
/// Largest page a Query or Scan reads per call (1 MB).
pub const MAX_PAGE_BYTES: u64 = 1_048_576;
/// Overhead bytes of a list or map value.
pub const COLLECTION_OVERHEAD_BYTES: u64 = 3;

/// How a read is charged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ReadConsistency {
    /// Eventually consistent: half a unit per 4 KB.
    Eventual,
    /// Strongly consistent: one unit per 4 KB.
    Strong,
    /// Transactional (`TransactGetItems`): two units per 4 KB.
    Transactional,
}

impl ReadConsistency {
    /// Units per started 4 KB.
    pub fn factor(self) -> f64 {
        match self {
            ReadConsistency::Eventual => 0.5,
            ReadConsistency::Strong => 1.0,
            ReadConsistency::Transactional => 2.0,
        }
    }

    /// Lower-case name (`eventual`, `strong`, `transactional`).
    pub fn name(self) -> &'static str {
        match self {
            ReadConsistency::Eventual => "eventual",
            ReadConsistency::Strong => "strong",
            ReadConsistency::Transactional => "transactional",
        }
    }
}

/// Started blocks of `unit` bytes in `bytes`, at least one (an absent or empty item still costs).
pub fn blocks(bytes: u64, unit: u64) -> u64 {
    bytes.div_ceil(unit.max(1)).max(1)
}

/// Read units of one request that reads `bytes` in total (GetItem: one item; Query/Scan: the
/// sum of every item read before the filter, rounded up once per call).
pub fn read_units(bytes: u64, consistency: ReadConsistency) -> f64 {
    num::to_f64(blocks(bytes, READ_UNIT_BYTES)) * consistency.factor()
}

/// Write units of writing (or deleting) one item of `bytes`; transactional writes cost twice.
pub fn write_units(bytes: u64, transactional: bool) -> f64 {
    let units = num::to_f64(blocks(bytes, WRITE_UNIT_BYTES));
    if transactional { units * 2.0 } else { units }
}

/// Size in bytes of a number as DynamoDB stores it: one byte per two significant digits
/// (leading and trailing zeros trimmed) plus one, plus one more for a negative number.
/// Text that is not a number is sized as its digits anyway.
pub fn number_size(text: &str) -> u64 {
    let text = text.trim();
    let negative = text.starts_with('-');
    let mantissa = text
        .split(['e', 'E'])
        .next()
        .unwrap_or_default()
        .trim_start_matches(['-', '+']);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let significant = num::count(digits.trim_start_matches('0').trim_end_matches('0').len());
    significant.div_ceil(2) + 1 + u64::from(negative && significant > 0)
}

/// Decoded length of base64 text (DynamoDB JSON carries binary as base64).
fn base64_len(text: &str) -> u64 {
    let text = text.trim();
    let padding = num::count(text.chars().rev().take_while(|c| *c == '=').count());
    let len = num::count(text.len());
    (len / 4 * 3 + (len % 4).saturating_sub(1)).saturating_sub(padding)
}

/// Size of one attribute value in DynamoDB JSON (`{"S": "abc"}`, `{"N": "12"}`, `{"L": [...]}`),
/// without its name. `None` when the value is not DynamoDB JSON.
pub fn value_size(value: &Value) -> Option<u64> {
    let object = value.as_object()?;
    let (tag, inner) = object.iter().next().filter(|_| object.len() == 1)?;
    let size = match (tag.as_str(), inner) {
        ("S", Value::String(s)) => num::count(s.len()),
        ("N", Value::String(n)) => number_size(n),
        ("B", Value::String(b)) => base64_len(b),
        ("BOOL", Value::Bool(_)) | ("NULL", _) => 1,
        ("SS", Value::Array(items)) => num::total_of(
            items
                .iter()
                .map(|s| s.as_str().map(|s| num::count(s.len()))),
        )?,
        ("NS", Value::Array(items)) => {
            num::total_of(items.iter().map(|n| n.as_str().map(number_size)))?
        }
        ("BS", Value::Array(items)) => {
            num::total_of(items.iter().map(|b| b.as_str().map(base64_len)))?
        }
        ("L", Value::Array(items)) => {
            let elements = num::total_of(items.iter().map(value_size))?;
            COLLECTION_OVERHEAD_BYTES
                .saturating_add(num::count(items.len()))
                .saturating_add(elements)
        }
        ("M", Value::Object(map)) => {
            let elements = num::total_of(
                map.iter()
                    .map(|(k, v)| value_size(v).map(|s| s.saturating_add(num::count(k.len())))),
            )?;
            COLLECTION_OVERHEAD_BYTES
                .saturating_add(num::count(map.len()))
                .saturating_add(elements)
        }
        _ => return None,
    };
    Some(size)
}

/// Size of an item in DynamoDB JSON: the sum over its attributes of the UTF-8 length of the
/// name plus the size of the value. `None` when it is not a DynamoDB JSON item.
pub fn item_size(item: &Value) -> Option<u64> {
    num::total_of(
        item.as_object()?.iter().map(|(name, value)| {
            value_size(value).map(|s| s.saturating_add(num::count(name.len())))
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(number_size("0"), 1);
        assert_eq!(number_size("7"), 2);
        assert_eq!(number_size("12"), 2);
        assert_eq!(number_size("123"), 3);
        assert_eq!(number_size("1000"), 2);
        assert_eq!(number_size("-12.50"), 4);
        assert_eq!(number_size("0.001"), 2);
    }

    #[test]
    fn base64() {
        assert_eq!(base64_len("AAAA"), 3);
        assert_eq!(base64_len("AAA="), 2);
        assert_eq!(base64_len("AA=="), 1);
        assert_eq!(base64_len(""), 0);
    }

    #[test]
    fn items() {
        let item = serde_json::json!({
            "PK": {"S": "USER#1"},
            "n": {"N": "123"},
            "ok": {"BOOL": true},
            "l": {"L": [{"S": "ab"}, {"NULL": true}]},
        });
        // PK: 2 + 6; n: 1 + 3; ok: 2 + 1; l: 1 + (3 + 2 + 2 + 1)
        assert_eq!(item_size(&item), Some(8 + 4 + 3 + 9));
        assert_eq!(item_size(&serde_json::json!({"x": {"Q": 1}})), None);
    }
}
