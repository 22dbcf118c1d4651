//! The parts of a NoSQL Workbench file the import reads, deserialized as a stream: the sample
//! items (`TableData`) and every field not named here are skipped as they are read, never held,
//! and each list keeps at most its limit of entries (the rest is skipped and the overflow
//! noted), so memory stays bounded whatever the file holds.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// At most `N` entries of a JSON list, whether the list was longer, or whether the value was not
/// a list at all (kept as an empty, non-list value: the import says what it expected).
#[derive(Debug)]
pub(super) struct Bounded<T, const N: usize> {
    pub(super) items: Vec<T>,
    /// More than `N` entries: the rest were read and dropped.
    pub(super) overflow: bool,
    /// The value was a list.
    pub(super) list: bool,
}

impl<T, const N: usize> Default for Bounded<T, N> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            overflow: false,
            list: false,
        }
    }
}

impl<T, const N: usize> Bounded<T, N> {
    pub(super) fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }
}

struct BoundedVisitor<T, const N: usize>(PhantomData<T>);

impl<T, const N: usize> BoundedVisitor<T, N> {
    fn not_a_list<E>(self) -> Result<Bounded<T, N>, E> {
        Ok(Bounded::default())
    }
}

impl<'de, T: Deserialize<'de>, const N: usize> Visitor<'de> for BoundedVisitor<T, N> {
    type Value = Bounded<T, N>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Bounded {
            items: Vec::new(),
            overflow: false,
            list: true,
        };
        while out.items.len() < N {
            match seq.next_element::<T>()? {
                Some(item) => out.items.push(item),
                None => return Ok(out),
            }
        }
        while seq.next_element::<IgnoredAny>()?.is_some() {
            out.overflow = true;
        }
        Ok(out)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        self.not_a_list()
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        self.not_a_list()
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        self.not_a_list()
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        self.not_a_list()
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        self.not_a_list()
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        self.not_a_list()
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.not_a_list()
    }
}

impl<'de, T: Deserialize<'de>, const N: usize> Deserialize<'de> for Bounded<T, N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(BoundedVisitor(PhantomData))
    }
}

/// Tables a file may list: only one is imported, the others are named in the refusal.
pub(super) const MAX_TABLES: usize = 100;
/// Attribute definitions of a table (`NonKeyAttributes`): the union of its facets'.
pub(super) const MAX_TABLE_ATTRIBUTES: usize = 100_000;
/// Non-key attributes an index projects: DynamoDB's limit across a table's indexes.
pub(super) const MAX_PROJECTED: usize = 100;
/// Facets of a table: one entity each.
pub(super) const MAX_FACETS: usize = monotable_model::limits::MAX_ENTITIES;
/// Attributes of a facet: one entity's.
pub(super) const MAX_FACET_ATTRIBUTES: usize = monotable_model::limits::MAX_ATTRIBUTES;
/// Global secondary indexes: DynamoDB's quota.
pub(super) const MAX_GSIS: usize = monotable_model::limits::MAX_GLOBAL_INDEXES;

/// The file's top level.
#[derive(Debug, Deserialize)]
pub(super) struct Document {
    #[serde(rename = "DataModel", default)]
    pub(super) data_model: Bounded<TableDoc, MAX_TABLES>,
    #[serde(rename = "ModelMetadata", default)]
    pub(super) metadata: Option<Value>,
}

/// One table of `DataModel`, its sample items skipped.
#[derive(Debug, Deserialize)]
pub(super) struct TableDoc {
    #[serde(rename = "TableName", default)]
    pub(super) name: Option<Value>,
    #[serde(rename = "KeyAttributes", default)]
    pub(super) keys: Option<Value>,
    #[serde(rename = "NonKeyAttributes", default)]
    pub(super) non_key: Bounded<Value, MAX_TABLE_ATTRIBUTES>,
    #[serde(rename = "TableFacets", default)]
    pub(super) facets: Bounded<FacetDoc, MAX_FACETS>,
    #[serde(rename = "GlobalSecondaryIndexes", default)]
    pub(super) gsis: Bounded<GsiDoc, MAX_GSIS>,
    #[serde(rename = "BillingMode", default)]
    pub(super) billing: Option<Value>,
}

/// One facet, its sample items skipped.
#[derive(Debug, Deserialize)]
pub(super) struct FacetDoc {
    #[serde(rename = "FacetName", default)]
    pub(super) name: Option<Value>,
    #[serde(rename = "KeyAttributeAlias", default)]
    pub(super) alias: Option<Value>,
    #[serde(rename = "NonKeyAttributes", default)]
    pub(super) attributes: Bounded<Value, MAX_FACET_ATTRIBUTES>,
}

/// One global secondary index.
#[derive(Debug, Deserialize)]
pub(super) struct GsiDoc {
    #[serde(rename = "IndexName", default)]
    pub(super) name: Option<Value>,
    #[serde(rename = "KeyAttributes", default)]
    pub(super) keys: Option<Value>,
    #[serde(rename = "Projection", default)]
    pub(super) projection: Option<ProjectionDoc>,
}

/// An index's projection.
#[derive(Debug, Deserialize)]
pub(super) struct ProjectionDoc {
    #[serde(rename = "ProjectionType", default)]
    pub(super) kind: Option<Value>,
    #[serde(rename = "NonKeyAttributes", default)]
    pub(super) attributes: Bounded<Value, MAX_PROJECTED>,
}

#[cfg(test)]
mod tests {
    use super::Bounded;

    #[test]
    fn keeps_at_most_the_limit_and_notes_the_rest() {
        let b: Bounded<u32, 2> = serde_json::from_str("[1, 2, 3, [4], {\"a\": 5}]").unwrap();
        assert_eq!(b.items, [1, 2]);
        assert!(b.overflow && b.list);
        let b: Bounded<u32, 2> = serde_json::from_str("[1, 2]").unwrap();
        assert!(!b.overflow && b.list);
        for other in ["{\"a\": [1]}", "\"x\"", "null", "true", "1.5", "-3"] {
            let b: Bounded<u32, 2> = serde_json::from_str(other).unwrap();
            assert!(b.items.is_empty() && !b.list, "{other}");
        }
    }
}
