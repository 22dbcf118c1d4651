//! Validating what writes declare: the actions of a `TransactWrite` or `BatchWrite` (each a
//! write pattern of the model, or in the older form an entity), and a write pattern's
//! `condition` (its clauses parse, name attributes of the entity written, compare like with
//! like, and take declared or attribute-typed parameters).

use super::Validator;
use super::pattern::Patterns;
use crate::error::IssueKind;
use crate::model::*;
use crate::raw::{self, Sp};
use crate::write_condition::{SpannedClause, parse_spanned};
use crate::{CompareOp, ConditionClause, Operand, WriteCondition};
use std::ops::Range;

/// Operations that may carry a `condition`.
fn conditional(op: Operation) -> bool {
    matches!(
        op,
        Operation::PutItem
            | Operation::UpdateItem
            | Operation::DeleteItem
            | Operation::ConditionCheck
    )
}

/// Whether pattern `t` may be an action of an `op` (a TransactWrite or BatchWrite); if not, why
/// and what to do instead.
fn runs_in(op: Operation, t: &raw::RawPattern) -> Result<(), (&'static str, &'static str)> {
    let target = t.operation.value;
    match op {
        Operation::BatchWrite => match target {
            Operation::PutItem | Operation::DeleteItem if t.condition.is_some() => Err((
                "a BatchWrite sends no condition: BatchWriteItem puts and deletes unconditionally",
                "run it in a TransactWrite, or name a PutItem or DeleteItem pattern without `condition`",
            )),
            Operation::PutItem | Operation::DeleteItem => Ok(()),
            Operation::UpdateItem | Operation::ConditionCheck => Err((
                "BatchWriteItem only puts and deletes",
                "run it in a TransactWrite, or name a PutItem or DeleteItem pattern",
            )),
            _ => Err((
                "an action of a BatchWrite is a PutItem or DeleteItem pattern",
                "name a PutItem or DeleteItem pattern without `condition`",
            )),
        },
        _ if conditional(target) => Ok(()),
        _ => Err((
            "an action of a TransactWrite is a PutItem, UpdateItem, DeleteItem or ConditionCheck pattern",
            "name a single-item write pattern",
        )),
    }
}

impl Validator {
    /// The entity and patterns of one entry of `name` (a TransactWrite or BatchWrite), or
    /// `None` when it is reported.
    pub(super) fn action_of(
        &mut self,
        name: &str,
        op: Operation,
        w: &Sp<raw::RawWrite>,
        model: &Model,
        patterns: &Patterns,
    ) -> Option<(String, Vec<String>)> {
        let named: Vec<&Sp<String>> = w.value.pattern.iter().chain(&w.value.one_of).collect();
        let both = w.value.pattern.is_some() && !w.value.one_of.is_empty();
        if both || (!named.is_empty() && w.value.entity.is_some()) {
            self.err_help(
                IssueKind::Invalid,
                format!("an action of `{name}` names more than one of `pattern`, `one_of` and `entity`"),
                &w.span,
                "name the write pattern (`pattern`), or its alternatives (`one_of`): the entity is the one they write",
            );
            return None;
        }
        if let Some(entity) = &w.value.entity {
            if model.entity(&entity.value).is_none() {
                self.err_help(
                    IssueKind::UnknownReference,
                    format!("written entity `{}` is not a declared entity", entity.value),
                    &entity.span,
                    "declare it under [entities]",
                );
            }
            return Some((entity.value.clone(), Vec::new()));
        }
        if named.is_empty() {
            self.err_help(
                IssueKind::Invalid,
                format!("an action of `{name}` names no write pattern"),
                &w.span,
                "write `{ pattern = \"...\" }`, naming a write pattern of the model",
            );
            return None;
        }
        let mut entity: Option<String> = None;
        let mut out = Vec::new();
        for pattern in named {
            let (e, p) = self.action_pattern(name, op, pattern, patterns)?;
            if let Some(first) = &entity
                && first != &e
            {
                self.err_help(
                    IssueKind::Invalid,
                    format!("the alternatives of an action of `{name}` write `{first}` and `{e}`"),
                    &pattern.span,
                    "alternatives (`one_of`) write one entity: list the others as their own actions",
                );
                return None;
            }
            if out.contains(&p) {
                self.err_help(
                    IssueKind::Invalid,
                    format!("`{p}` is listed twice in an action of `{name}`"),
                    &pattern.span,
                    "list it once",
                );
                return None;
            }
            entity = Some(e);
            out.push(p);
        }
        entity.map(|e| (e, out))
    }

    fn action_pattern(
        &mut self,
        name: &str,
        op: Operation,
        pattern: &Sp<String>,
        patterns: &Patterns,
    ) -> Option<(String, String)> {
        let Some(target) = patterns.get(&pattern.value) else {
            let mut known: Vec<&str> = patterns
                .iter()
                .filter(|(_, p)| runs_in(op, &p.value).is_ok())
                .map(|(n, _)| n.as_str())
                .collect();
            known.truncate(10);
            let help = if known.is_empty() {
                "declare it under [patterns]".to_string()
            } else {
                format!(
                    "declare it under [patterns], or name one of: {}",
                    known.join(", ")
                )
            };
            self.err_help(
                IssueKind::UnknownReference,
                format!(
                    "`{name}` runs pattern `{}`, which the model does not declare",
                    pattern.value
                ),
                &pattern.span,
                help,
            );
            return None;
        };
        let t = &target.value;
        let target_op = t.operation.value;
        if let Err((why, help)) = runs_in(op, t) {
            self.err_help(
                IssueKind::Invalid,
                format!(
                    "`{name}` runs `{}` ({target_op:?}), but {why}",
                    pattern.value
                ),
                &pattern.span,
                help,
            );
            return None;
        }
        match t.returns.as_slice() {
            [entity] => Some((entity.value.clone(), pattern.value.clone())),
            _ => {
                self.err_help(
                    IssueKind::Invalid,
                    format!(
                        "`{name}` runs `{}`, which does not name the one entity it writes",
                        pattern.value
                    ),
                    &pattern.span,
                    format!("give `{}` `returns = [\"Entity\"]`", pattern.value),
                );
                None
            }
        }
    }

    /// `p`'s condition, parsed and checked against the entity it writes.
    pub(super) fn write_condition(
        &mut self,
        name: &str,
        p: &raw::RawPattern,
        params: &[Attribute],
        model: &Model,
    ) -> Option<WriteCondition> {
        let op = p.operation.value;
        let Some(text) = &p.condition else {
            if op == Operation::ConditionCheck {
                self.err_help(
                    IssueKind::Invalid,
                    format!("ConditionCheck pattern `{name}` states no `condition`"),
                    &p.operation.span,
                    "state what must hold, e.g. `condition = \"exists\"`",
                );
            }
            return None;
        };
        if !conditional(op) {
            self.err_help(
                IssueKind::Invalid,
                format!("pattern `{name}` ({op:?}) cannot have a `condition`"),
                &text.span,
                "a condition belongs to a PutItem, UpdateItem, DeleteItem or ConditionCheck; a transaction's actions carry their own",
            );
            return None;
        }
        let clauses = match parse_spanned(&text.value) {
            Ok(c) => c,
            Err((e, at)) => {
                self.err(
                    IssueKind::Invalid,
                    format!("condition of `{name}`: {e}"),
                    &within(text, &at),
                );
                return None;
            }
        };
        let checked = Condition {
            name,
            text,
            clauses: &clauses,
        };
        self.together(&checked);
        self.against_entity(&checked, p, params, model);
        Some(WriteCondition {
            text: text.value.clone(),
            clauses: clauses.into_iter().map(|(c, _)| c).collect(),
            span: text.span.clone(),
        })
    }

    /// Each clause checked against the one entity `p` writes (whose attributes they read).
    fn against_entity(
        &mut self,
        condition: &Condition,
        p: &raw::RawPattern,
        params: &[Attribute],
        model: &Model,
    ) {
        let Condition { name, text, .. } = *condition;
        let [e] = p.returns.as_slice() else {
            let reads = condition
                .clauses
                .iter()
                .find(|(c, _)| c.attribute().is_some());
            if let Some((c, at)) = reads {
                self.err_help(
                    IssueKind::Invalid,
                    format!(
                        "condition `{c}` of `{name}` reads an attribute, but `{name}` does not name the one entity it writes"
                    ),
                    &within(text, at),
                    format!("give `{name}` `returns = [\"Entity\"]`"),
                );
            }
            return;
        };
        // An undeclared entity is reported where it is named.
        let Some(entity) = model.entity(&e.value) else {
            return;
        };
        let keys = key_variables(p);
        let ctx = Context {
            name,
            entity,
            params,
            keys: &keys,
        };
        for (c, at) in condition.clauses {
            self.clause(&ctx, c, &within(text, at));
        }
        self.param_types(&ctx, condition);
    }

    /// Clauses that repeat one another, or can never hold together.
    fn together(&mut self, condition: &Condition) {
        let Condition { name, text, .. } = *condition;
        let clauses = condition.clauses;
        for (k, (c, at)) in clauses.iter().enumerate() {
            let earlier = &clauses[..k];
            if earlier.iter().any(|(e, _)| e == c) {
                self.err_help(
                    IssueKind::Invalid,
                    format!("`{c}` is stated twice in the condition of `{name}`"),
                    &within(text, at),
                    "state it once",
                );
                continue;
            }
            let clash = earlier.iter().find(|(e, _)| contradicts(e, c));
            if let Some((e, _)) = clash {
                self.err_help(
                    IssueKind::Invalid,
                    format!(
                        "the condition of `{name}` can never hold: `{e}` and `{c}` contradict each other"
                    ),
                    &within(text, at),
                    "keep the clause the write needs, and drop the other",
                );
                continue;
            }
            if let (ConditionClause::Version(_), Some((e, _))) = (
                c,
                earlier
                    .iter()
                    .find(|(e, _)| matches!(e, ConditionClause::Version(_))),
            ) {
                self.err_help(
                    IssueKind::Invalid,
                    format!("the condition of `{name}` states two versions, `{e}` and `{c}`"),
                    &within(text, at),
                    "a write checks one version attribute: keep one `version(..)`",
                );
            }
        }
    }

    fn clause(&mut self, ctx: &Context, c: &ConditionClause, at: &Range<usize>) {
        let Context { name, entity, .. } = *ctx;
        let Some(attribute) = c.attribute() else {
            return;
        };
        let Some(a) = entity.attribute(attribute) else {
            self.err_help(
                IssueKind::UnknownReference,
                format!(
                    "condition `{c}` of `{name}` reads `{attribute}`, which is not an attribute of `{}`",
                    entity.name
                ),
                at,
                format!(
                    "declare it under [entities.{}], or fix the name",
                    entity.name
                ),
            );
            return;
        };
        match c {
            ConditionClause::Version(_) if a.ty != AttributeType::Integer || !a.required => {
                let what = if a.ty == AttributeType::Integer {
                    "an optional integer".to_string()
                } else {
                    format!("{} {}", article(a.ty.name()), a.ty.name())
                };
                self.err_help(
                    IssueKind::Invalid,
                    format!("`{c}` in `{name}`: `{attribute}` is {what}, not a required integer"),
                    at,
                    format!(
                        "a version is a required integer attribute the write checks and bumps: declare `{attribute}` with `type = \"integer\", required = true`, or name such an attribute"
                    ),
                );
            }
            ConditionClause::Compare { op, operand, .. } => {
                self.compare(ctx, c, a, *op, operand, at);
            }
            _ => {}
        }
    }

    fn compare(
        &mut self,
        ctx: &Context,
        c: &ConditionClause,
        a: &Attribute,
        op: CompareOp,
        operand: &Operand,
        at: &Range<usize>,
    ) {
        use AttributeType as T;
        let name = ctx.name;
        let ordered = !matches!(op, CompareOp::Eq | CompareOp::Ne);
        if ordered && matches!(a.ty, T::Boolean | T::List | T::Map | T::Set) {
            self.err_help(
                IssueKind::Invalid,
                format!(
                    "condition `{c}` of `{name}` orders `{}`, {} {}: DynamoDB compares such values only with `=` and `<>`",
                    a.name,
                    article(a.ty.name()),
                    a.ty.name()
                ),
                at,
                "compare it with `=` or `<>`",
            );
            return;
        }
        let fits = match operand {
            // A parameter's type is checked once for the whole condition (`param_types`).
            Operand::Param(_) => return,
            Operand::Bool(_) => a.ty == T::Boolean,
            Operand::Integer(_) => matches!(a.ty, T::Integer | T::Number | T::Decimal | T::Float),
            Operand::Text(t) if a.ty == T::Enum => {
                if !a.values.iter().any(|v| v == t) {
                    self.err_help(
                        IssueKind::Invalid,
                        format!(
                            "condition `{c}` of `{name}` compares `{}` with '{t}', which is not one of its values",
                            a.name
                        ),
                        at,
                        format!("write one of: {}", quoted(&a.values)),
                    );
                }
                return;
            }
            Operand::Text(_) => a.ty == T::String,
        };
        if !fits {
            let given = match operand {
                Operand::Bool(_) => "a boolean",
                Operand::Integer(_) => "a whole number",
                _ => "text",
            };
            self.err_help(
                IssueKind::Invalid,
                format!(
                    "condition `{c}` of `{name}` compares `{}`, {} {}, with {given}: it can never hold",
                    a.name,
                    article(a.ty.name()),
                    a.ty.name()
                ),
                at,
                format!("compare it with {}", literal_for(a)),
            );
        }
    }

    /// Each `{param}` of the condition has one type: a declared param's, else a key variable's
    /// (the attribute it names), else the type of the attribute it is compared with; and that
    /// type fits every attribute it is compared with.
    fn param_types(&mut self, ctx: &Context, condition: &Condition) {
        let Context {
            name,
            entity,
            params,
            keys,
        } = *ctx;
        let mut typed: Vec<(&str, &Attribute, &str)> = Vec::new();
        for (c, at) in condition.clauses {
            let ConditionClause::Compare {
                attribute,
                operand: Operand::Param(param),
                ..
            } = c
            else {
                continue;
            };
            let Some(a) = entity.attribute(attribute) else {
                continue;
            };
            let declared = params
                .iter()
                .find(|x| &x.name == param)
                .map(|x| (x, "declared"));
            let key = || {
                keys.iter()
                    .any(|k| k == param)
                    .then(|| entity.attribute(param))
                    .flatten()
                    .map(|x| (x, "a key variable"))
            };
            let known = declared
                .or_else(key)
                .or_else(|| typed.iter().find(|t| t.0 == param).map(|t| (t.1, t.2)));
            let Some((p, why)) = known else {
                typed.push((param, a, "compared with"));
                continue;
            };
            if !comparable(p, a) {
                let from = typed_as(p, why, param);
                self.err_help(
                    IssueKind::Invalid,
                    format!(
                        "condition `{c}` of `{name}` compares `{attribute}`, {} {}, with `{{{param}}}`, {from}: it can never hold",
                        article(a.ty.name()),
                        a.ty.name()
                    ),
                    &within(condition.text, at),
                    format!(
                        "compare `{attribute}` with a parameter of its own type, e.g. `{{{attribute}}}`"
                    ),
                );
            }
        }
    }
}

/// A condition being checked: its pattern, its text and its clauses with their ranges.
struct Condition<'a> {
    name: &'a str,
    text: &'a Sp<String>,
    clauses: &'a [SpannedClause],
}

/// What a condition's clauses are checked against.
struct Context<'a> {
    name: &'a str,
    entity: &'a EntityDecl,
    params: &'a [Attribute],
    keys: &'a [String],
}

/// The source range of `at`, a byte range in `text`'s value: exact when the string is written
/// on one line without escapes (its span is then the value and its two quotes), else the whole
/// string.
fn within(text: &Sp<String>, at: &Range<usize>) -> Range<usize> {
    if text.span.len() == text.value.len() + 2 && at.end <= text.value.len() {
        let start = text.span.start + 1;
        start + at.start..start + at.end
    } else {
        text.span.clone()
    }
}

/// The variables of the pattern's key conditions.
fn key_variables(p: &raw::RawPattern) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for text in p.key.values() {
        if let Ok(condition) = crate::parse_condition(&text.value) {
            for t in condition.templates() {
                out.extend(t.variables().map(str::to_string));
            }
        }
    }
    out
}

/// How a parameter got type `p`'s (`why`), for a message.
fn typed_as(p: &Attribute, why: &str, param: &str) -> String {
    let ty = format!("{} {}", article(p.ty.name()), p.ty.name());
    match why {
        "declared" => format!("declared {ty}"),
        "a key variable" => format!("a key variable, {ty} like the attribute `{param}`"),
        _ => format!("{ty}, as it is compared with `{}` too", p.name),
    }
}

/// Whether two clauses can never hold together.
fn contradicts(a: &ConditionClause, b: &ConditionClause) -> bool {
    use ConditionClause as C;
    let absent_item = |x: &C, y: &C| {
        matches!(x, C::ItemAbsent)
            && matches!(
                y,
                C::ItemExists | C::Version(_) | C::AttributeExists(_) | C::Compare { .. }
            )
    };
    let attribute = match (a, b) {
        (C::AttributeExists(x), C::AttributeAbsent(y))
        | (C::AttributeAbsent(x), C::AttributeExists(y)) => x == y,
        _ => false,
    };
    absent_item(a, b) || absent_item(b, a) || attribute
}

/// Whether values of `p`'s type can equal or order against values of `a`'s.
fn comparable(p: &Attribute, a: &Attribute) -> bool {
    use AttributeType as T;
    let numeric = |t: T| matches!(t, T::Integer | T::Number | T::Decimal | T::Float);
    p.ty == a.ty || numeric(p.ty) && numeric(a.ty)
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

fn quoted(values: &[String]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("'{v}'")).collect();
    quoted.join(", ")
}

/// What a literal of `a`'s type is written as, for advice.
fn literal_for(a: &Attribute) -> String {
    use AttributeType as T;
    match a.ty {
        T::Integer | T::Number | T::Decimal | T::Float => {
            "a whole number, or a `{param}`".to_string()
        }
        T::Boolean => "`true`, `false`, or a `{param}`".to_string(),
        T::String => "'text', or a `{param}`".to_string(),
        T::Enum => format!("one of {}, or a `{{param}}`", quoted(&a.values)),
        _ => format!("a `{{param}}`: a condition has no literal {}", a.ty.name()),
    }
}
