//! Validating the traffic section: rates are finite, non-negative and plausible; sizes and item
//! counts are at least 1 and at most what DynamoDB holds; every entity, pattern and consumer
//! named exists, and each read a consumer's figures name is one it lists in `reads`.
//! Also the upper bound of every whole number a model states ([`Validator::at_most`]).

use std::collections::BTreeMap;
use std::ops::Range;

use super::Validator;
use crate::consumer::{Consumer, ConsumerTraffic};
use crate::error::IssueKind;
use crate::model::*;
use crate::names::closest;
use crate::raw::{self, Sp};

/// A float as TOML writes it (`nan`, `inf`, `-inf`, `12.5`).
fn toml_float(x: f64) -> String {
    if x.is_nan() {
        "nan".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        x.to_string()
    }
}

/// A whole number as the model states it, for [`Validator::at_most`]: `` `field = value`owner ``.
pub(super) struct Stated<'a> {
    field: &'a str,
    owner: &'a str,
    value: Option<u64>,
    span: &'a Range<usize>,
}

impl<'a> Stated<'a> {
    pub(super) fn new(
        field: &'a str,
        owner: &'a str,
        value: Option<u64>,
        span: &'a Range<usize>,
    ) -> Self {
        Stated {
            field,
            owner,
            value,
            span,
        }
    }
}

impl Validator {
    /// A rate must be a finite number from 0 to [`MAX_RATE_PER_SECOND`].
    fn rate(&mut self, field: &str, owner: &str, value: Option<f64>, span: &Range<usize>) {
        let Some(x) = value else { return };
        let problem = if !x.is_finite() {
            "is not a rate"
        } else if x < 0.0 {
            "is negative"
        } else if x > MAX_RATE_PER_SECOND {
            "is more than any table serves (at most 1,000,000,000 per second)"
        } else {
            return;
        };
        self.err_help(
            IssueKind::Invalid,
            format!("`{field} = {}`{owner} {problem}", toml_float(x)),
            span,
            format!("state the peak rate as a number from 0 to {MAX_RATE_PER_SECOND:.0}"),
        );
    }

    /// `shard_headroom` must be a finite number from 1 to [`MAX_SHARD_HEADROOM`].
    fn headroom(&mut self, value: Option<f64>, span: &Range<usize>) {
        let Some(x) = value else { return };
        let problem = if !x.is_finite() {
            "is not a number"
        } else if x < 1.0 {
            "is below 1: a shard count sized with it would not carry the declared peak"
        } else if x > MAX_SHARD_HEADROOM {
            "is more than 100 times the declared peak"
        } else {
            return;
        };
        self.err_help(
            IssueKind::Invalid,
            format!("`shard_headroom = {}` {problem}", toml_float(x)),
            span,
            format!(
                "state how many times the declared peak the shards must carry, from 1 to {MAX_SHARD_HEADROOM:.0} (default {DEFAULT_SHARD_HEADROOM:.0})"
            ),
        );
    }

    /// A size or item count must be at least 1.
    fn positive(&mut self, field: &str, owner: &str, value: Option<u64>, span: &Range<usize>) {
        if value != Some(0) {
            return;
        }
        let (why, help) = if field.ends_with("bytes") {
            (
                "an item holds at least its key attributes",
                "state the largest expected item size in bytes, keys included",
            )
        } else {
            (
                "it is how many items one request returns",
                "state the items a request returns, at least 1",
            )
        };
        self.err_help(
            IssueKind::Invalid,
            format!("`{field} = 0`{owner}: {why}"),
            span,
            help,
        );
    }

    /// A whole number the model states must be at most `max`: `why` says what the limit is,
    /// `help` what to state instead.
    pub(super) fn at_most(&mut self, stated: Stated<'_>, max: u64, why: &str, help: &str) {
        let Stated {
            field,
            owner,
            value,
            span,
        } = stated;
        if let Some(v) = value.filter(|v| *v > max) {
            self.err_help(
                IssueKind::Invalid,
                format!("`{field} = {v}`{owner}: {why}"),
                span,
                help.to_string(),
            );
        }
    }

    /// An item size: at least 1, at most DynamoDB's 400 KB.
    fn item_size(&mut self, field: &str, owner: &str, value: Option<u64>, span: &Range<usize>) {
        self.positive(field, owner, value, span);
        self.at_most(
            Stated::new(field, owner, value, span),
            MAX_ITEM_SIZE_BYTES,
            "DynamoDB's items are at most 400 KB (409600 bytes)",
            "state the largest expected item size in bytes, at most 409600; keep larger parts in items of their own, or in S3",
        );
    }

    pub(super) fn traffic(&mut self, raw: Option<&Sp<raw::RawTraffic>>, model: &Model) -> Traffic {
        let Some(raw) = raw else {
            return Traffic {
                declared: false,
                default_writes_per_second: DEFAULT_WRITES_PER_SECOND,
                default_item_size_bytes: DEFAULT_ITEM_SIZE_BYTES,
                shard_headroom: DEFAULT_SHARD_HEADROOM,
                ..Traffic::default()
            };
        };
        let t = &raw.value;
        self.rate(
            "default_writes_per_second",
            "",
            t.default_writes_per_second,
            &raw.span,
        );
        self.item_size(
            "default_item_size_bytes",
            "",
            t.default_item_size_bytes,
            &raw.span,
        );
        self.headroom(t.shard_headroom, &raw.span);
        Traffic {
            declared: true,
            shard_headroom: t.shard_headroom.unwrap_or(DEFAULT_SHARD_HEADROOM),
            default_writes_per_second: t
                .default_writes_per_second
                .unwrap_or(DEFAULT_WRITES_PER_SECOND),
            default_writes_stated: t.default_writes_per_second.is_some(),
            default_item_size_bytes: t.default_item_size_bytes.unwrap_or(DEFAULT_ITEM_SIZE_BYTES),
            entities: t
                .entities
                .iter()
                .map(|(name, e)| (name.clone(), self.entity_traffic(name, e, model)))
                .collect(),
            patterns: t
                .patterns
                .iter()
                .map(|(name, p)| (name.clone(), self.pattern_traffic(name, p, model)))
                .collect(),
            consumers: BTreeMap::new(),
        }
    }

    fn entity_traffic(
        &mut self,
        name: &str,
        e: &Sp<raw::RawEntityTraffic>,
        model: &Model,
    ) -> EntityTraffic {
        if model.entity(name).is_none() {
            self.err(
                IssueKind::UnknownReference,
                format!("traffic for unknown entity `{name}`"),
                &e.span,
            );
        }
        let owner = format!(" for `{name}`");
        self.rate(
            "writes_per_second",
            &owner,
            e.value.writes_per_second,
            &e.span,
        );
        self.item_size("item_size_bytes", &owner, e.value.item_size_bytes, &e.span);
        self.at_most(
            Stated::new("items", &owner, e.value.items, &e.span),
            MAX_STORED_ITEMS,
            "more than monotable counts (at most 1000000000000000, which a float still counts exactly)",
            "state how many items of the entity the table stores",
        );
        EntityTraffic {
            writes_per_second: e.value.writes_per_second,
            item_size_bytes: e.value.item_size_bytes,
            items: e.value.items,
            span: e.span.clone(),
        }
    }

    fn pattern_traffic(
        &mut self,
        name: &str,
        p: &Sp<raw::RawPatternTraffic>,
        model: &Model,
    ) -> PatternTraffic {
        let pattern = model.pattern(name);
        if pattern.is_none() {
            self.err(
                IssueKind::UnknownReference,
                format!("traffic for unknown pattern `{name}`"),
                &p.span,
            );
        }
        let owner = format!(" for `{name}`");
        self.rate(
            "reads_per_second",
            &owner,
            p.value.reads_per_second,
            &p.span,
        );
        self.rate(
            "writes_per_second",
            &owner,
            p.value.writes_per_second,
            &p.span,
        );
        if let Some(pattern) = pattern {
            // A read pattern's calls are reads, a write pattern's writes: one figure each.
            let (field, stated, wants, kind) = if pattern.is_read() {
                (
                    "writes_per_second",
                    p.value.writes_per_second,
                    "reads_per_second",
                    "reads",
                )
            } else {
                (
                    "reads_per_second",
                    p.value.reads_per_second,
                    "writes_per_second",
                    "writes",
                )
            };
            if stated.is_some() {
                self.err_help(
                    IssueKind::Invalid,
                    format!(
                        "`{field}` for `{name}`: `{name}` is a {:?}, which {kind}",
                        pattern.operation
                    ),
                    &p.span,
                    format!("state its calls per second as `{wants}`"),
                );
            }
        }
        self.positive("items_per_read", &owner, p.value.items_per_read, &p.span);
        self.at_most(
            Stated::new("items_per_read", &owner, p.value.items_per_read, &p.span),
            MAX_ITEMS_PER_READ,
            "more than one request returns: a Query or Scan reads at most 1 MB (1048576 bytes) per call, and an item holds at least one byte",
            "state the items one request returns, at most 1048576",
        );
        PatternTraffic {
            reads_per_second: p.value.reads_per_second,
            writes_per_second: p.value.writes_per_second,
            items_per_read: p.value.items_per_read,
            span: p.span.clone(),
        }
    }
}

impl Validator {
    /// Each consumer's figures (`[traffic.consumers.NAME]`), checked against the consumers
    /// (validated after the rest of the traffic, since they come after it).
    pub(super) fn consumers_traffic(
        &mut self,
        raw: Option<&Sp<raw::RawTraffic>>,
        model: &Model,
    ) -> BTreeMap<String, ConsumerTraffic> {
        let Some(raw) = raw else {
            return BTreeMap::new();
        };
        raw.value
            .consumers
            .iter()
            .map(|(name, c)| (name.clone(), self.consumer_traffic(name, c, model)))
            .collect()
    }

    fn consumer_traffic(
        &mut self,
        name: &str,
        c: &Sp<raw::RawConsumerTraffic>,
        model: &Model,
    ) -> ConsumerTraffic {
        let consumer = model.consumers.iter().find(|k| k.name == name);
        if consumer.is_none() {
            let near = closest(name, model.consumers.iter().map(|k| k.name.as_str()));
            self.err_help(
                IssueKind::UnknownReference,
                format!("traffic for unknown consumer `{name}`"),
                &c.span,
                near.map_or_else(
                    || "declare it under [consumers], or remove its figures".to_string(),
                    |n| format!("a consumer with a similar name exists: `{n}`"),
                ),
            );
        }
        let owner = format!(" for consumer `{name}`");
        self.rate(
            "records_per_second",
            &owner,
            c.value.records_per_second,
            &c.span,
        );
        for (read, rate) in &c.value.reads_per_second {
            let field = format!("reads_per_second.{read}");
            self.rate(&field, &owner, Some(rate.value), &rate.span);
            if let Some(consumer) = consumer {
                self.consumer_read(consumer, read, &rate.span);
            }
        }
        ConsumerTraffic {
            records_per_second: c.value.records_per_second,
            reads_per_second: c
                .value
                .reads_per_second
                .iter()
                .map(|(read, rate)| (read.clone(), rate.value))
                .collect(),
            span: c.span.clone(),
        }
    }

    /// A read rate of consumer `c` must name a read it lists in `reads`.
    fn consumer_read(&mut self, c: &Consumer, read: &str, span: &Range<usize>) {
        if c.reads.iter().any(|r| r == read) {
            return;
        }
        let listed: Vec<String> = c.reads.iter().map(|r| format!("`{r}`")).collect();
        let help = match closest(read, c.reads.iter().map(String::as_str)) {
            Some(n) => format!("a read it lists with a similar name exists: `{n}`"),
            None if listed.is_empty() => format!(
                "list `{read}` in the consumer's `reads`, or remove its rate: it lists no read"
            ),
            None => format!(
                "list `{read}` in the consumer's `reads`, or state a rate for one it lists: {}",
                listed.join(", ")
            ),
        };
        self.err_help(
            IssueKind::UnknownReference,
            format!(
                "`reads_per_second.{read}` for consumer `{}`: `{}` does not list `{read}` in `reads`",
                c.name, c.name
            ),
            span,
            help,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::toml_float;

    #[test]
    fn floats_read_as_toml() {
        assert_eq!(toml_float(f64::NAN), "nan");
        assert_eq!(toml_float(f64::INFINITY), "inf");
        assert_eq!(toml_float(f64::NEG_INFINITY), "-inf");
        assert_eq!(toml_float(-2.5), "-2.5");
    }
}
