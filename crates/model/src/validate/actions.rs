//! Validating what writes declare: the actions of a `TransactWrite` or `BatchWrite` (each a
//! write pattern of the model, or in the older form an entity), and a write pattern's
//! `condition` (its clauses parse, name attributes of the entity written, compare like with
//! like, and take declared or attribute-typed parameters).

use super::Validator;
use super::pattern::Patterns;
use crate::error::IssueKind;
use crate::model::*;
use crate::raw::{self, Sp};
use crate::{ConditionClause, Operand, WriteCondition, parse_write_condition};

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
                .filter(|(_, p)| conditional(p.value.operation.value))
                .map(|(n, _)| n.as_str())
                .collect();
            known.truncate(10);
            self.err_help(
                IssueKind::UnknownReference,
                format!(
                    "`{name}` runs pattern `{}`, which the model does not declare",
                    pattern.value
                ),
                &pattern.span,
                format!(
                    "declare it under [patterns], or name one of: {}",
                    known.join(", ")
                ),
            );
            return None;
        };
        let t = &target.value;
        let target_op = t.operation.value;
        let allowed = match op {
            Operation::BatchWrite => {
                matches!(target_op, Operation::PutItem | Operation::DeleteItem)
                    && t.condition.is_none()
            }
            _ => conditional(target_op),
        };
        if !allowed {
            let wants = if op == Operation::BatchWrite {
                "an unconditional PutItem or DeleteItem pattern (BatchWriteItem takes no condition)"
            } else {
                "a PutItem, UpdateItem, DeleteItem or ConditionCheck pattern"
            };
            self.err_help(
                IssueKind::Invalid,
                format!(
                    "`{name}` runs `{}` ({target_op:?}), but an action of a {op:?} is {wants}",
                    pattern.value
                ),
                &pattern.span,
                "name a single-item write pattern",
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
        let clauses = match parse_write_condition(&text.value) {
            Ok(c) => c,
            Err(e) => {
                self.err(
                    IssueKind::Invalid,
                    format!("condition of `{name}`: {e}"),
                    &text.span,
                );
                return None;
            }
        };
        let entity = match p.returns.as_slice() {
            [e] => model.entity(&e.value),
            _ => None,
        };
        if let Some(entity) = entity {
            for c in &clauses {
                self.clause(name, c, entity, params, &text.span);
            }
        }
        Some(WriteCondition {
            text: text.value.clone(),
            clauses,
            span: text.span.clone(),
        })
    }

    fn clause(
        &mut self,
        name: &str,
        c: &ConditionClause,
        entity: &EntityDecl,
        params: &[Attribute],
        span: &std::ops::Range<usize>,
    ) {
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
                span,
                format!("declare it under [entities.{}], or fix the name", entity.name),
            );
            return;
        };
        match c {
            ConditionClause::Version(_) if a.ty != AttributeType::Integer => self.err_help(
                IssueKind::Invalid,
                format!(
                    "`version({attribute})` in `{name}`: `{attribute}` is a {:?}, not an integer",
                    a.ty
                ),
                span,
                "a version is a required integer attribute the write checks and bumps",
            ),
            ConditionClause::Compare { operand, .. } => {
                self.operand(name, c, a, operand, params, span);
            }
            _ => {}
        }
    }

    fn operand(
        &mut self,
        name: &str,
        c: &ConditionClause,
        a: &Attribute,
        operand: &Operand,
        params: &[Attribute],
        span: &std::ops::Range<usize>,
    ) {
        use AttributeType as T;
        let fits = match operand {
            Operand::Param(p) => params.iter().find(|x| &x.name == p).is_none_or(|x| {
                x.ty == a.ty
                    || matches!(
                        (x.ty, a.ty),
                        (
                            T::Integer | T::Number | T::Decimal,
                            T::Integer | T::Number | T::Decimal
                        )
                    )
            }),
            Operand::Bool(_) => a.ty == T::Boolean,
            Operand::Integer(_) => matches!(a.ty, T::Integer | T::Number | T::Decimal | T::Float),
            Operand::Text(t) => match a.ty {
                T::String => true,
                T::Enum => a.values.iter().any(|v| v == t),
                _ => false,
            },
        };
        if !fits {
            self.err_help(
                IssueKind::Invalid,
                format!(
                    "condition `{c}` of `{name}` compares `{}` (a {:?}) with {operand}, which it can never equal or order against",
                    a.name, a.ty
                ),
                span,
                "compare with a value of the attribute's type",
            );
        }
    }
}
