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
    parse_spanned(text)
        .map(|clauses| clauses.into_iter().map(|(c, _)| c).collect())
        .map_err(|(message, _)| message)
}

/// A clause parsed from a condition, with the byte range it takes in the condition's text.
pub(crate) type SpannedClause = (ConditionClause, Range<usize>);

/// `text` parsed into clauses, each with its byte range in `text`; or what is wrong, with the
/// range of the text at fault.
pub(crate) fn parse_spanned(text: &str) -> Result<Vec<SpannedClause>, (String, Range<usize>)> {
    let (parts, separators) = split_and(text);
    let mut clauses = Vec::new();
    for (k, range) in parts.iter().enumerate() {
        let raw = &text[range.clone()];
        let lead = raw.len() - raw.trim_start().len();
        let part = raw.trim();
        let at = range.start + lead..range.start + lead + part.len();
        if part.is_empty() {
            // Point at the `and` with nothing on one side of it.
            let and = separators
                .get(k.saturating_sub(1).min(separators.len().saturating_sub(1)))
                .cloned()
                .unwrap_or(0..text.len());
            return Err((
                "an empty clause: write clauses joined by ` and `".to_string(),
                and,
            ));
        }
        clauses.push((clause(part).map_err(|e| (e, at.clone()))?, at));
    }
    Ok(clauses)
}

/// The clauses of `text` (byte ranges) and the `and`s between them, split on the word `and`
/// (any case, between blanks) outside quotes.
fn split_and(text: &str) -> (Vec<Range<usize>>, Vec<Range<usize>>) {
    let (mut parts, mut separators) = (Vec::new(), Vec::new());
    let (mut start, mut quoted) = (0, false);
    let bytes = text.as_bytes();
    let blank = |b: u8| b == b' ' || b == b'\t';
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\'' => quoted = !quoted,
            b if blank(b) && !quoted => {
                let word = text
                    .get(i + 1..i + 4)
                    .is_some_and(|w| w.eq_ignore_ascii_case("and"));
                let after = bytes.get(i + 4).is_none_or(|b| blank(*b));
                if word && after {
                    // The blank after `and` may start the next separator (`and and`).
                    parts.push(start..i.max(start));
                    separators.push(i + 1..i + 4);
                    start = (i + 5).min(text.len());
                    i += 3;
                }
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(start..text.len());
    (parts, separators)
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
}

/// `s` as the name of an `attribute` or `parameter` (`noun`) in clause `what`.
fn name_in(s: &str, what: &str, noun: &str) -> Result<String, String> {
    let s = s.trim();
    let article = if noun.starts_with('a') { "an" } else { "a" };
    if s.is_empty() {
        Err(format!("`{what}` names no {noun}"))
    } else if is_name(s) {
        Ok(s.to_string())
    } else {
        Err(format!("`{s}` is not {article} {noun} name in `{what}`"))
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
            return Ok(make(name_in(inner, part, "attribute")?));
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
            let attribute = name_in(left, part, "attribute")?;
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
        return name_in(inner, part, "parameter").map(Operand::Param);
    }
    if let Some(inner) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        if inner.contains('\'') {
            return Err(format!(
                "`{text}` in `{part}` holds a quote inside its text: a literal is 'text' without `'`"
            ));
        }
        return Ok(Operand::Text(inner.to_string()));
    }
    match text {
        "true" => return Ok(Operand::Bool(true)),
        "false" => return Ok(Operand::Bool(false)),
        _ => {}
    }
    let digits = text.strip_prefix('-').unwrap_or(text);
    let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    text.parse::<i64>().map(Operand::Integer).map_err(|_| {
        if whole {
            format!(
                "`{text}` in `{part}` is beyond a 64-bit whole number ({} to {})",
                i64::MIN,
                i64::MAX
            )
        } else {
            format!(
                "`{text}` in `{part}` is not `{{param}}`, true, false, a whole number or 'text'"
            )
        }
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
            ("version()", "names no attribute"),
            ("stock >= {}", "names no parameter"),
            (
                "stock >= 99999999999999999999",
                "beyond a 64-bit whole number",
            ),
            ("name = 'it's'", "quote inside"),
        ] {
            let e = parse_write_condition(text).expect_err(text);
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn each_clause_and_each_mistake_has_its_range_in_the_text() {
        let text = "exists  AND stock >= {quantity} and name <> 'a and b'";
        let ranges: Vec<&str> = parse_spanned(text)
            .expect("parses")
            .into_iter()
            .map(|(_, r)| &text[r])
            .collect();
        assert_eq!(
            ranges,
            ["exists", "stock >= {quantity}", "name <> 'a and b'"]
        );
        for (text, at) in [
            ("exists and stock >= many", "stock >= many"),
            ("exists and  and stock = 1", "and"),
            ("exists and", "and"),
            ("frob and exists", "frob"),
        ] {
            let (_, range) = parse_spanned(text).expect_err(text);
            assert_eq!(&text[range], at, "{text}");
        }
    }
}
