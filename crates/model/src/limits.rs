//! The most a model may hold: its source size and the counts of what it declares. Each limit is
//! generous for a real design (a 10,000-entity model is well inside every one) and keeps every
//! command's time and memory bounded; docs/model.md lists them. DynamoDB's own limits (20
//! global and 5 local secondary indexes per table) are refused as DynamoDB would refuse them.

/// The most bytes of model source: 16 MiB (a generated design of 10,000 entities and 14,000
/// patterns is 6.5 MB).
pub const MAX_SOURCE_BYTES: usize = 16 << 20;
/// The most entity types in one model.
pub const MAX_ENTITIES: usize = 20_000;
/// The most access patterns in one model.
pub const MAX_PATTERNS: usize = 50_000;
/// The most attributes of one entity, and parameters of one pattern.
pub const MAX_ATTRIBUTES: usize = 1_000;
/// The most values of one `enum` attribute or parameter.
pub const MAX_ENUM_VALUES: usize = 1_000;
/// The most global secondary indexes on a table: DynamoDB's default quota.
pub const MAX_GLOBAL_INDEXES: usize = 20;
/// The most local secondary indexes on a table: DynamoDB's limit.
pub const MAX_LOCAL_INDEXES: usize = 5;

/// A whole count [`thousands`] writes: the unsigned integers.
pub trait Count: std::fmt::Display {}

impl Count for u8 {}
impl Count for u16 {}
impl Count for u32 {}
impl Count for u64 {}
impl Count for usize {}

/// `n` with its thousands separated by commas, as the limits and counts are written in messages:
/// `20,000`.
pub fn thousands(n: impl Count) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands_are_separated() {
        assert_eq!(super::thousands(0usize), "0");
        assert_eq!(super::thousands(999usize), "999");
        assert_eq!(super::thousands(1_000usize), "1,000");
        assert_eq!(super::thousands(16_777_216usize), "16,777,216");
    }
}
