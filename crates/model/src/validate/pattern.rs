//! Validating access patterns: entities returned and written, key conditions and the variables
//! they use, what each operation needs, and `limit`.
//!
//! One mistake gives one issue: a malformed condition is not also reported as a missing one, a
//! variable is not reported unknown when the entity it would come from is undeclared, and a
//! pattern on an undeclared index gets no key-attribute errors (the check's MT013 names the
//! index, and the rest of the design is still checked).

use super::traffic::Stated;
use super::{Validator, parse_condition};
use crate::error::IssueKind;
use crate::model::*;
use crate::raw::{self, RawCount, Sp};

/// The model's patterns as written, by name: what a transaction's actions name.
pub(super) type Patterns = std::collections::BTreeMap<String, Sp<raw::RawPattern>>;

/// The key conditions of one pattern, sorted into partition and sort key.
#[derive(Default)]
pub(super) struct Keys {
    pub(super) pk: Option<KeyClause>,
    pub(super) sk: Option<KeyClause>,
    /// Every condition, in key schema order.
    pub(super) all: Vec<KeyClause>,
    /// Key attributes whose condition did not parse, or that broke a rule (already reported).
    pub(super) broken: Vec<String>,
}

/// Whether `attribute` is the partition key of `schema`; with no schema (an undeclared index),
/// guessed from its name, or the only key attribute given.
fn is_partition_key(attribute: &str, schema: Option<(&str, Option<&str>)>, only: bool) -> bool {
    match schema {
        Some((pk, _)) => attribute == pk,
        None => only || attribute.ends_with("PK") || attribute.ends_with("pk"),
    }
}

impl Validator {
    fn named_entity(&mut self, n: &Sp<String>, model: &Model, what: &str) -> Named {
        if model.entity(&n.value).is_none() {
            self.err_help(
                IssueKind::UnknownReference,
                format!("{what} `{}` is not a declared entity", n.value),
                &n.span,
                "declare it under [entities]",
            );
        }
        Named {
            name: n.value.clone(),
            span: n.span.clone(),
        }
    }

    fn writes(
        &mut self,
        name: &str,
        p: &raw::RawPattern,
        model: &Model,
        patterns: &Patterns,
    ) -> Vec<Write> {
        let mut out = Vec::new();
        let op = p.operation.value;
        if let (false, Some(first)) = (
            matches!(op, Operation::TransactWrite | Operation::BatchWrite),
            p.writes.first(),
        ) {
            self.err_help(
                IssueKind::Invalid,
                format!("`writes` only applies to a TransactWrite or BatchWrite, and `{name}` is a {op:?}"),
                &first.span,
                format!("remove `writes`, or make `{name}` a TransactWrite whose actions are write patterns"),
            );
            return out;
        }
        let what = if op == Operation::BatchWrite {
            "batch"
        } else {
            "transaction"
        };
        for w in &p.writes {
            let Some((entity, patterns)) = self.action_of(name, op, w, model, patterns) else {
                continue;
            };
            if let Some(twice) = patterns
                .iter()
                .find(|p| out.iter().any(|o: &Write| o.patterns.contains(p)))
            {
                let at = w
                    .value
                    .pattern
                    .iter()
                    .chain(&w.value.one_of)
                    .find(|n| &n.value == twice)
                    .map_or(&w.span, |n| &n.span);
                self.err_help(
                    IssueKind::Invalid,
                    format!("`{name}` lists action `{twice}` twice"),
                    at,
                    "list each write pattern once, with the most times it runs as `count`",
                );
                continue;
            }
            let count = match w.value.count {
                None => Some(1),
                Some(RawCount::Fixed(n)) => Some(n),
                Some(RawCount::Many(_)) => None,
            };
            if count == Some(0) {
                self.err_help(
                    IssueKind::Invalid,
                    format!("{what} `{name}` writes `count = 0` of `{entity}`: an entry writes at least one item"),
                    &w.span,
                    "state the most items the entry writes, or drop it",
                );
            }
            let owner = format!(" of `{entity}` in {what} `{name}`");
            if op == Operation::BatchWrite {
                self.at_most(
                    Stated::new("count", &owner, count, &w.span),
                    MAX_COUNT,
                    "more than a model may state (the library sends a batch 25 items per call)",
                    "state the most items the entry writes, at most 1000000000",
                );
            } else {
                self.at_most(
                    Stated::new("count", &owner, count, &w.span),
                    MAX_TRANSACTION_ACTIONS,
                    "a TransactWriteItems call holds at most 100 actions",
                    "state the most items the entry writes, at most 100, or split the write",
                );
            }
            out.push(Write {
                entity,
                patterns,
                count,
                span: w.span.clone(),
            });
        }
        out
    }

    /// `text`, the key condition on `attr` of pattern `name`, parsed; `None`, reported and marked
    /// broken in `keys`, when it does not parse.
    pub(super) fn key_condition(
        &mut self,
        name: &str,
        attr: &str,
        text: &Sp<String>,
        keys: &mut Keys,
    ) -> Option<KeyTest> {
        match parse_condition(&text.value) {
            Ok(c) => Some(c),
            Err(e) => {
                self.err(
                    IssueKind::InvalidTemplate,
                    format!("key condition on `{attr}` of `{name}`: {e}"),
                    &text.span,
                );
                keys.broken.push(attr.to_string());
                None
            }
        }
    }

    /// Every variable of `condition` must be a parameter or an attribute of an entity the
    /// pattern returns or writes. Skipped when one of those entities is undeclared: that error
    /// already explains the unknown variables.
    pub(super) fn condition_variables(
        &mut self,
        name: &str,
        p: &raw::RawPattern,
        params: &[Attribute],
        model: &Model,
        text: &Sp<String>,
        condition: &KeyTest,
    ) {
        let entities: Option<Vec<&EntityDecl>> = p
            .returns
            .iter()
            .chain(p.writes.iter().filter_map(|w| w.value.entity.as_ref()))
            .map(|e| model.entity(&e.value))
            .collect();
        let Some(entities) = entities else { return };
        for var in condition.templates().iter().flat_map(|t| t.variables()) {
            let known = params.iter().any(|a| a.name == var)
                || entities.iter().any(|e| e.attribute(var).is_some());
            if !known {
                self.err_help(
                    IssueKind::UnknownReference,
                    format!("`{{{var}}}` in pattern `{name}` is neither a param nor an attribute of a returned entity"),
                    &text.span,
                    format!("declare it under [patterns.{name}.params]"),
                );
            }
        }
    }

    fn keys(
        &mut self,
        name: &str,
        p: &raw::RawPattern,
        params: &[Attribute],
        model: &Model,
        schema: Option<(&str, Option<&str>)>,
        span: &std::ops::Range<usize>,
    ) -> Keys {
        let native = p
            .index
            .as_ref()
            .and_then(|i| model.index(&i.value))
            .filter(|i| i.native);
        if let Some(index) = native {
            return self.native_keys(name, p, params, model, index, span);
        }
        let mut keys = Keys::default();
        let only = p.key.len() == 1;
        for (attr, text) in &p.key {
            let Some(condition) = self.key_condition(name, attr, text, &mut keys) else {
                continue;
            };
            self.condition_variables(name, p, params, model, text, &condition);
            let numeric = |v: &str| {
                params
                    .iter()
                    .find(|a| a.name == v)
                    .or_else(|| {
                        p.returns
                            .iter()
                            .filter_map(|r| model.entity(&r.value))
                            .find_map(|e| e.attribute(v))
                    })
                    .map(super::renders_number)
            };
            for t in condition.templates() {
                let what = format!("key condition on `{attr}` of `{name}`");
                self.key_length(&what, attr, t, &text.span, model);
                self.numeric_key(&what, attr, t, &text.span, model, &numeric);
            }
            let kc = KeyClause {
                attribute: attr.clone(),
                condition,
                span: text.span.clone(),
            };
            if is_partition_key(attr, schema, only) {
                if !matches!(kc.condition, KeyTest::Eq(_)) {
                    self.err(
                        IssueKind::Invalid,
                        format!("the partition key condition of `{name}` must be an equality"),
                        &text.span,
                    );
                }
                keys.pk = Some(kc);
            } else if schema.is_none_or(|(_, sk)| sk == Some(attr.as_str())) {
                keys.sk = Some(kc);
            } else {
                self.not_a_key(attr, p, schema, &text.span);
            }
        }
        keys.all = keys.pk.iter().chain(&keys.sk).cloned().collect();
        keys
    }

    fn not_a_key(
        &mut self,
        attr: &str,
        p: &raw::RawPattern,
        schema: Option<(&str, Option<&str>)>,
        span: &std::ops::Range<usize>,
    ) {
        let on = p
            .index
            .as_ref()
            .map_or("the table".to_string(), |i| format!("index `{}`", i.value));
        self.err_help(
            IssueKind::UnknownReference,
            format!("`{attr}` is not a key attribute of {on}"),
            span,
            match schema {
                Some((a, Some(b))) => format!("use `{a}` and `{b}`"),
                Some((a, None)) => format!("use `{a}`"),
                None => String::new(),
            },
        );
    }

    /// What the operation needs: a partition key, the full key, no index, `writes`, a limit.
    fn operation_needs(
        &mut self,
        name: &str,
        raw: &Sp<raw::RawPattern>,
        keys: &Keys,
        schema: Option<(&str, Option<&str>)>,
    ) {
        let p = &raw.value;
        let op = p.operation.value;
        let pk_broken = schema.is_some_and(|(pk, _)| keys.broken.iter().any(|b| b == pk));
        let needs_key = matches!(
            op,
            Operation::GetItem
                | Operation::Query
                | Operation::BatchGet
                | Operation::UpdateItem
                | Operation::DeleteItem
                | Operation::ConditionCheck
        );
        if needs_key && keys.pk.is_none() && schema.is_some() && !pk_broken {
            self.err(
                IssueKind::Invalid,
                format!("pattern `{name}` ({op:?}) needs a partition key condition in `key`"),
                &raw.span,
            );
        }
        let single_item = matches!(
            op,
            Operation::GetItem
                | Operation::UpdateItem
                | Operation::DeleteItem
                | Operation::ConditionCheck
                | Operation::BatchGet
        );
        if single_item {
            if p.index.is_some() {
                self.err_help(
                    IssueKind::Invalid,
                    format!("{op:?} cannot use an index"),
                    &p.operation.span,
                    "use a Query on the index, or address the table",
                );
            }
            if let (Some((_, Some(_))), Some(k)) = (schema, &keys.sk)
                && !matches!(k.condition, KeyTest::Eq(_))
            {
                self.err(
                    IssueKind::Invalid,
                    format!("{op:?} needs the full key: the sort key must be an equality"),
                    &k.span,
                );
            }
        }
        if matches!(op, Operation::TransactWrite | Operation::BatchWrite) && p.writes.is_empty() {
            self.err(
                IssueKind::Invalid,
                format!("{op:?} pattern `{name}` lists no `writes`"),
                &raw.span,
            );
        }
        if p.limit == Some(0) {
            self.err_help(
                IssueKind::Invalid,
                format!("pattern `{name}` has `limit = 0`, which DynamoDB refuses"),
                &raw.span,
                "a Limit is at least 1: state the page size, or leave `limit` out",
            );
        }
        self.at_most(
            Stated::new(
                "limit",
                &format!(" on pattern `{name}`"),
                p.limit,
                &raw.span,
            ),
            MAX_LIMIT,
            "DynamoDB's Limit is a 32-bit integer, at most 2147483647",
            "state the page size, or leave `limit` out",
        );
    }

    pub(super) fn pattern(
        &mut self,
        name: &str,
        raw: &Sp<raw::RawPattern>,
        model: &Model,
        patterns: &Patterns,
    ) -> Pattern {
        let p = &raw.value;
        let returns: Vec<Named> = p
            .returns
            .iter()
            .map(|r| self.named_entity(r, model, "returned entity"))
            .collect();
        let writes = self.writes(name, p, model, patterns);
        let params: Vec<Attribute> = p.params.iter().map(|(n, a)| self.attribute(n, a)).collect();
        let index = p.index.as_ref().map(|i| Named {
            name: i.value.clone(),
            span: i.span.clone(),
        });
        // An index without a partition key is reported where it is declared.
        let schema = model
            .key_schema(index.as_ref().map(|i| i.name.as_str()))
            .filter(|(pk, _)| !pk.is_empty());
        let keys = self.keys(name, p, &params, model, schema, &raw.span);
        self.operation_needs(name, raw, &keys, schema);
        let sets = self.sets(name, p, model);
        let condition = self.write_condition(name, p, &params, model);
        let named = |v: &Sp<String>| Named {
            name: v.value.clone(),
            span: v.span.clone(),
        };
        Pattern {
            name: name.to_string(),
            description: p.description.clone(),
            operation: p.operation.value,
            operation_span: p.operation.span.clone(),
            index,
            pk: keys.pk,
            sk: keys.sk,
            key: keys.all,
            returns,
            params,
            filter: p.filter.iter().map(named).collect(),
            reads: p.reads.as_ref().map(|r| r.iter().map(named).collect()),
            paginate: p.paginate.unwrap_or(false),
            limit: p.limit,
            unique: p.unique.unwrap_or(false),
            consistent_read: p.consistent_read.unwrap_or(false),
            descending: p.descending.unwrap_or(false),
            writes,
            sets,
            condition,
            span: raw.span.clone(),
        }
    }
}
