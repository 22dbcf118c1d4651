//! A write pattern's `condition`: what must hold of the stored item for the write to happen,
//! as clauses joined by `and` (`exists and version(version) and status = {expected}`), parsed
//! into [`WriteCondition`]. Each clause has one meaning a failure is named by: the item is
//! missing (`exists`), already there (`not_exists`), at another version (`version(attr)`), or a
//! named comparison failed.

use std::fmt;
use std::ops::Range;

/// A write's condition: its clauses, all of which must hold.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteCondition {
    /// The text as written in the model.
    pub text: String,
    /// The clauses, in order.
    pub clauses: Vec<ConditionClause>,
    /// Span of the condition's text.
    pub span: Range<usize>,
}

impl WriteCondition {
    /// The attribute of a `version(attr)` clause, if there is one.
    pub fn version(&self) -> Option<&str> {
        self.clauses.iter().find_map(|c| match c {
            ConditionClause::Version(a) => Some(a.as_str()),
            _ => None,
        })
    }

    /// The parameters its comparisons take, in order, each once.
    pub fn params(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for c in &self.clauses {
            if let ConditionClause::Compare {
                operand: Operand::Param(p),
                ..
            } = c
                && !out.contains(&p.as_str())
            {
                out.push(p);
            }
        }
        out
    }

    /// Whether it requires the item to exist (`exists`, or a version or comparison, which an
    /// absent item fails).
    pub fn requires_item(&self) -> bool {
        self.clauses.iter().any(|c| {
            matches!(
                c,
                ConditionClause::ItemExists
                    | ConditionClause::Version(_)
                    | ConditionClause::Compare { .. }
                    | ConditionClause::AttributeExists(_)
            )
        })
    }
}

/// One clause of a write condition.
#[derive(Debug, Clone, PartialEq)]
pub enum ConditionClause {
    /// `exists`: the item must be there (a failure is `NotFound`).
    ItemExists,
    /// `not_exists`: the item must not be there yet (a failure is `AlreadyExists`).
    ItemAbsent,
    /// `version(attr)`: the stored integer `attr` is the version the caller expects
    /// (a failure is `VersionMismatch`); an update also sets it one higher.
    Version(String),
    /// `exists(attr)`: the stored item has `attr`.
    AttributeExists(String),
    /// `not_exists(attr)`: the stored item lacks `attr`.
    AttributeAbsent(String),
    /// `attr <op> operand`.
    Compare {
        /// The stored attribute.
        attribute: String,
        /// The comparison.
        op: CompareOp,
        /// What it is compared with.
        operand: Operand,
    },
}

impl ConditionClause {
    /// The clause as written in a model (`stock >= {quantity}`): the name a failure carries.
    pub fn text(&self) -> String {
        self.to_string()
    }

    /// The stored attribute it reads, if any.
    pub fn attribute(&self) -> Option<&str> {
        match self {
            ConditionClause::ItemExists | ConditionClause::ItemAbsent => None,
            ConditionClause::Version(a)
            | ConditionClause::AttributeExists(a)
            | ConditionClause::AttributeAbsent(a)
            | ConditionClause::Compare { attribute: a, .. } => Some(a),
        }
    }
}

impl fmt::Display for ConditionClause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConditionClause::ItemExists => f.write_str("exists"),
            ConditionClause::ItemAbsent => f.write_str("not_exists"),
            ConditionClause::Version(a) => write!(f, "version({a})"),
            ConditionClause::AttributeExists(a) => write!(f, "exists({a})"),
            ConditionClause::AttributeAbsent(a) => write!(f, "not_exists({a})"),
            ConditionClause::Compare {
                attribute,
                op,
                operand,
            } => write!(f, "{attribute} {} {operand}", op.as_str()),
        }
    }
}

/// A comparison operator of a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    /// `=`
    Eq,
    /// `<>`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CompareOp {
    /// As DynamoDB writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            CompareOp::Eq => "=",
            CompareOp::Ne => "<>",
            CompareOp::Lt => "<",
            CompareOp::Le => "<=",
            CompareOp::Gt => ">",
            CompareOp::Ge => ">=",
        }
    }
}

/// What an attribute is compared with.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// `{name}`: a value the caller gives.
    Param(String),
    /// `true` / `false`.
    Bool(bool),
    /// A whole number.
    Integer(i64),
    /// `'text'`.
    Text(String),
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Param(p) => write!(f, "{{{p}}}"),
            Operand::Bool(b) => write!(f, "{b}"),
            Operand::Integer(i) => write!(f, "{i}"),
            Operand::Text(t) => write!(f, "'{t}'"),
        }
    }
}

/// `text` parsed into clauses, or what is wrong with it.
pub fn parse_write_condition(text: &str) -> Result<Vec<ConditionClause>, String> {
    let mut clauses = Vec::new();
    for part in split_and(text) {
        let part = part.trim();
        if part.is_empty() {
            return Err("an empty clause: write clauses joined by ` and `".to_string());
        }
        clauses.push(clause(part)?);
    }
    Ok(clauses)
}

/// Splits on the word `and` (any case) outside quotes.
fn split_and(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut start, mut quoted) = (0, false);
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\'' => quoted = !quoted,
            b' ' | b'\t' if !quoted => {
                let rest = &text[i + 1..];
                let word = rest.get(..3).is_some_and(|w| w.eq_ignore_ascii_case("and"));
                let after = rest.as_bytes().get(3).is_none_or(|b| *b == b' ');
                if word && after {
                    parts.push(&text[start..i]);
                    start = i + 5;
                    i += 4;
                }
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(text.get(start..).unwrap_or(""));
    parts
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
}

fn name_in(s: &str, what: &str) -> Result<String, String> {
    let s = s.trim();
    if is_name(s) {
        Ok(s.to_string())
    } else {
        Err(format!("`{s}` is not an attribute name in `{what}`"))
    }
}

fn clause(part: &str) -> Result<ConditionClause, String> {
    match part {
        "exists" => return Ok(ConditionClause::ItemExists),
        "not_exists" => return Ok(ConditionClause::ItemAbsent),
        _ => {}
    }
    for (head, make) in [
        (
            "version(",
            ConditionClause::Version as fn(String) -> ConditionClause,
        ),
        ("not_exists(", ConditionClause::AttributeAbsent),
        ("exists(", ConditionClause::AttributeExists),
    ] {
        if let Some(inner) = part.strip_prefix(head) {
            let inner = inner
                .strip_suffix(')')
                .ok_or_else(|| format!("`{part}` lacks its closing `)`"))?;
            return Ok(make(name_in(inner, part)?));
        }
    }
    for (token, op) in [
        ("<>", CompareOp::Ne),
        ("<=", CompareOp::Le),
        (">=", CompareOp::Ge),
        ("=", CompareOp::Eq),
        ("<", CompareOp::Lt),
        (">", CompareOp::Gt),
    ] {
        if let Some((left, right)) = part.split_once(token) {
            let attribute = name_in(left, part)?;
            let operand = operand(right.trim(), part)?;
            return Ok(ConditionClause::Compare {
                attribute,
                op,
                operand,
            });
        }
    }
    Err(format!(
        "`{part}` is not a condition clause: write `exists`, `not_exists`, `version(attr)`, `exists(attr)`, `not_exists(attr)` or `attr <op> value` (op one of = <> < <= > >=, value `{{param}}`, true, false, a whole number or 'text')"
    ))
}

fn operand(text: &str, part: &str) -> Result<Operand, String> {
    if let Some(inner) = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        return name_in(inner, part).map(Operand::Param);
    }
    if let Some(inner) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        return Ok(Operand::Text(inner.to_string()));
    }
    match text {
        "true" => return Ok(Operand::Bool(true)),
        "false" => return Ok(Operand::Bool(false)),
        _ => {}
    }
    text.parse::<i64>().map(Operand::Integer).map_err(|_| {
        format!("`{text}` in `{part}` is not `{{param}}`, true, false, a whole number or 'text'")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_parse_and_print_back() {
        let text = "exists and version(version) and status = {expected} and stock >= 3 and exists(stock) and name <> 'x and y' AND published = true";
        let clauses = parse_write_condition(text).expect("parses");
        let printed: Vec<String> = clauses.iter().map(ConditionClause::text).collect();
        assert_eq!(
            printed,
            [
                "exists",
                "version(version)",
                "status = {expected}",
                "stock >= 3",
                "exists(stock)",
                "name <> 'x and y'",
                "published = true"
            ]
        );
        assert_eq!(
            parse_write_condition("not_exists").unwrap(),
            [ConditionClause::ItemAbsent]
        );
    }

    #[test]
    fn malformed_clauses_say_what_is_wrong() {
        for (text, says) in [
            ("exists and", "empty clause"),
            ("version(version", "closing"),
            ("stock >= many", "not `{param}`"),
            ("frobnicate", "not a condition clause"),
            ("a b = 1", "not an attribute name"),
        ] {
            let e = parse_write_condition(text).expect_err(text);
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
