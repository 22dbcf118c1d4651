//! The rules and their stable codes; each finding is a [`monotable_model::diagnostic::Diagnostic`].

use monotable_model::diagnostic::{Coded, INVALID_MODEL, INVALID_MODEL_NAME};

pub use monotable_model::diagnostic::{Diagnostic, Severity};

/// The rules, with their stable codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// MT000: the model does not parse or is inconsistent.
    Model,
    /// MT001: an access pattern reads a key shape no entity writes.
    UnwrittenKey,
    /// MT002: an access pattern can never return an entity it promises.
    UnreachableEntity,
    /// MT003: one entity needs two values in one index key slot.
    KeySlotConflict,
    /// MT004: a sort-key condition cannot match the entity's template.
    SortConditionMismatch,
    /// MT005: two entity types can produce the same key.
    KeyCollision,
    /// MT006: hot partition.
    HotPartition,
    /// MT007: a Scan, or a filter doing a key condition's work.
    ScanOrFilter,
    /// MT008: a pattern reads attributes its index does not project.
    Unprojected,
    /// MT009: sort keys that do not sort as intended.
    SortOrder,
    /// MT010: money or exact quantities as floating point.
    FloatMoney,
    /// MT011: transaction, item or item-collection size limits.
    SizeLimit,
    /// MT012: uniqueness promised through a GSI instead of a guard item.
    UniquenessViaGsi,
    /// MT013: unused, undeclared, redundant or non-sparse indexes.
    IndexUsage,
    /// MT014: a query with unbounded results and no pagination.
    Unpaginated,
    /// MT015: an update sets some inputs of an index key template without the others.
    StaleIndexKey,
    /// MT016: a synthetic index key that could be a native multi-attribute key.
    NativeKeyCandidate,
    /// MT017: a sharded key spread over more shards than its declared traffic needs.
    OversizedShards,
    /// MT018: a stream consumer names an entity or an event that no write causes.
    ImpossibleEvent,
    /// MT019: a consumer's entity test or filter that its stream view does not carry.
    UnseenByView,
    /// MT020: a consumer writes an entity it consumes, with an event it handles.
    RecursiveTrigger,
    /// MT021: an aggregate a consumer writes takes more than one partition's write limit.
    HotAggregate,
}

impl Rule {
    /// Every rule, in code order.
    pub const ALL: [Rule; 22] = [
        Rule::Model,
        Rule::UnwrittenKey,
        Rule::UnreachableEntity,
        Rule::KeySlotConflict,
        Rule::SortConditionMismatch,
        Rule::KeyCollision,
        Rule::HotPartition,
        Rule::ScanOrFilter,
        Rule::Unprojected,
        Rule::SortOrder,
        Rule::FloatMoney,
        Rule::SizeLimit,
        Rule::UniquenessViaGsi,
        Rule::IndexUsage,
        Rule::Unpaginated,
        Rule::StaleIndexKey,
        Rule::NativeKeyCandidate,
        Rule::OversizedShards,
        Rule::ImpossibleEvent,
        Rule::UnseenByView,
        Rule::RecursiveTrigger,
        Rule::HotAggregate,
    ];

    /// The stable code, `MT000`..`MT021`.
    pub fn code(self) -> &'static str {
        match self {
            Rule::Model => INVALID_MODEL,
            Rule::UnwrittenKey => "MT001",
            Rule::UnreachableEntity => "MT002",
            Rule::KeySlotConflict => "MT003",
            Rule::SortConditionMismatch => "MT004",
            Rule::KeyCollision => "MT005",
            Rule::HotPartition => "MT006",
            Rule::ScanOrFilter => "MT007",
            Rule::Unprojected => "MT008",
            Rule::SortOrder => "MT009",
            Rule::FloatMoney => "MT010",
            Rule::SizeLimit => "MT011",
            Rule::UniquenessViaGsi => "MT012",
            Rule::IndexUsage => "MT013",
            Rule::Unpaginated => "MT014",
            Rule::StaleIndexKey => "MT015",
            Rule::NativeKeyCandidate => "MT016",
            Rule::OversizedShards => "MT017",
            Rule::ImpossibleEvent => "MT018",
            Rule::UnseenByView => "MT019",
            Rule::RecursiveTrigger => "MT020",
            Rule::HotAggregate => "MT021",
        }
    }

    /// A short kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Model => INVALID_MODEL_NAME,
            Rule::UnwrittenKey => "unwritten-key",
            Rule::UnreachableEntity => "unreachable-entity",
            Rule::KeySlotConflict => "key-slot-conflict",
            Rule::SortConditionMismatch => "sort-condition-mismatch",
            Rule::KeyCollision => "key-collision",
            Rule::HotPartition => "hot-partition",
            Rule::ScanOrFilter => "scan-or-filter",
            Rule::Unprojected => "unprojected-attribute",
            Rule::SortOrder => "sort-order",
            Rule::FloatMoney => "float-money",
            Rule::SizeLimit => "size-limit",
            Rule::UniquenessViaGsi => "uniqueness-via-gsi",
            Rule::IndexUsage => "index-usage",
            Rule::Unpaginated => "unpaginated-query",
            Rule::StaleIndexKey => "stale-index-key",
            Rule::NativeKeyCandidate => "native-key-candidate",
            Rule::OversizedShards => "oversized-shards",
            Rule::ImpossibleEvent => "impossible-event",
            Rule::UnseenByView => "unseen-by-view",
            Rule::RecursiveTrigger => "recursive-trigger",
            Rule::HotAggregate => "hot-aggregate",
        }
    }

    /// One-line description of what the rule catches.
    pub fn summary(self) -> &'static str {
        match self {
            Rule::Model => "the model does not parse or refers to something undeclared",
            Rule::UnwrittenKey => "an access pattern reads a key shape that no entity writes",
            Rule::UnreachableEntity => "an access pattern can never return an entity it promises",
            Rule::KeySlotConflict => {
                "one entity needs two different values in one index key attribute"
            }
            Rule::SortConditionMismatch => {
                "a sort-key condition cannot match the entity's sort-key template"
            }
            Rule::KeyCollision => "two entity types can produce the same key",
            Rule::HotPartition => {
                "a constant or low-cardinality partition key exceeds per-partition limits"
            }
            Rule::ScanOrFilter => "a Scan, or a filter doing the work of a key condition",
            Rule::Unprojected => "a pattern reads attributes its index does not project",
            Rule::SortOrder => "sort keys that do not sort as intended",
            Rule::FloatMoney => "money or exact quantities typed as floating point",
            Rule::SizeLimit => {
                "a transaction, item or item collection that can exceed DynamoDB's limits"
            }
            Rule::UniquenessViaGsi => "uniqueness promised through a GSI instead of a guard item",
            Rule::IndexUsage => "an unused, undeclared, redundant or non-sparse index",
            Rule::Unpaginated => "a query with unbounded results and no pagination",
            Rule::StaleIndexKey => {
                "an update sets some inputs of an index key template without the others"
            }
            Rule::NativeKeyCandidate => {
                "a synthetic index key built only from the entity's attributes could be native"
            }
            Rule::OversizedShards => {
                "a sharded key spread over more shards than its declared traffic needs"
            }
            Rule::ImpossibleEvent => "a stream consumer names an entity or event no write causes",
            Rule::UnseenByView => {
                "a consumer's entity test or filter that the stream view does not carry"
            }
            Rule::RecursiveTrigger => {
                "a consumer writes an entity it consumes: a recursive trigger"
            }
            Rule::HotAggregate => {
                "an aggregate a consumer writes exceeds one partition's write limit"
            }
        }
    }

    /// Looks a rule up by code.
    pub fn from_code(code: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.code() == code)
    }
}

impl Coded for Rule {
    fn code(&self) -> &'static str {
        Rule::code(*self)
    }
    fn name(&self) -> &'static str {
        Rule::name(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_round_trip() {
        let mut codes: Vec<&str> = Rule::ALL.iter().map(|r| r.code()).collect();
        // In code order, from MT000 up, with no code skipped.
        let expected = 0..Rule::ALL.len();
        for (rule, i) in Rule::ALL.iter().zip(expected) {
            assert_eq!(rule.code(), format!("MT{i:03}"));
            assert_eq!(Rule::from_code(rule.code()), Some(*rule));
            assert!(!rule.summary().is_empty() && !rule.name().is_empty());
        }
        codes.dedup();
        assert_eq!(codes.len(), Rule::ALL.len());
        assert_eq!(Rule::from_code("MT999"), None);
    }
}
