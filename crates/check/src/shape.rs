//! Key shapes: templates as glob-like token strings, and whether two shapes can produce the same key.

use std::collections::HashSet;

use monotable_model::{Attribute, AttributeType, Condition, KeyTemplate, Segment, TimestampFormat};

/// Character classes a variable can produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Class {
    Any,
    Digit,
}

/// One token of a shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Tok {
    Char(char),
    One(Class),
    Star(Class),
}

/// A key shape: alternatives of token strings (enums expand into literals).
#[derive(Debug, Clone)]
pub struct Shape {
    alts: Vec<Vec<Tok>>,
}

const MAX_ALTS: usize = 64;

/// Resolves a variable name to its attribute definition, if known.
pub type Resolver<'a> = &'a dyn Fn(&str) -> Option<&'a Attribute>;

fn var_alts(attr: Option<&Attribute>, pad: Option<usize>) -> Vec<Vec<Tok>> {
    if let Some(width) = pad {
        return vec![vec![Tok::One(Class::Digit); width]];
    }
    let any = vec![Tok::One(Class::Any), Tok::Star(Class::Any)];
    let Some(attr) = attr else { return vec![any] };
    match attr.ty {
        AttributeType::Enum if !attr.values.is_empty() => attr
            .values
            .iter()
            .map(|v| v.chars().map(Tok::Char).collect())
            .collect(),
        AttributeType::Boolean => vec![
            "true".chars().map(Tok::Char).collect(),
            "false".chars().map(Tok::Char).collect(),
        ],
        AttributeType::Integer => vec![vec![Tok::One(Class::Digit), Tok::Star(Class::Digit)]],
        AttributeType::Timestamp
            if matches!(
                attr.format,
                Some(TimestampFormat::EpochSeconds | TimestampFormat::EpochMillis)
            ) =>
        {
            vec![vec![Tok::One(Class::Digit), Tok::Star(Class::Digit)]]
        }
        _ => vec![any],
    }
}

impl Shape {
    /// The shape of a template whose variables resolve through `resolve`.
    pub fn of(template: &KeyTemplate, resolve: Resolver<'_>) -> Self {
        let mut alts: Vec<Vec<Tok>> = vec![Vec::new()];
        for segment in template.segments() {
            let options = match segment {
                Segment::Literal(text) => vec![text.chars().map(Tok::Char).collect()],
                Segment::Var { name, pad } => var_alts(resolve(name), *pad),
            };
            let options = if alts.len() * options.len() > MAX_ALTS {
                vec![vec![Tok::One(Class::Any), Tok::Star(Class::Any)]]
            } else {
                options
            };
            let mut next = Vec::with_capacity(alts.len() * options.len());
            for a in &alts {
                for o in &options {
                    let mut v = a.clone();
                    v.extend_from_slice(o);
                    next.push(v);
                }
            }
            alts = next;
        }
        Self { alts }
    }

    /// This shape followed by anything (for `begins_with`).
    pub fn prefix(mut self) -> Self {
        for a in &mut self.alts {
            a.push(Tok::Star(Class::Any));
        }
        self
    }

    /// A constant literal followed by anything.
    pub fn literal_prefix(text: &str) -> Self {
        let mut v: Vec<Tok> = text.chars().map(Tok::Char).collect();
        v.push(Tok::Star(Class::Any));
        Self { alts: vec![v] }
    }

    /// True when some key could be produced by both shapes.
    pub fn overlaps(&self, other: &Shape) -> bool {
        self.alts
            .iter()
            .any(|a| other.alts.iter().any(|b| intersects(a, b)))
    }
}

fn char_in(c: char, class: Class) -> bool {
    match class {
        Class::Any => true,
        Class::Digit => c.is_ascii_digit(),
    }
}

fn single_meets(a: Tok, b: Tok) -> bool {
    match (a, b) {
        (Tok::Char(x), Tok::Char(y)) => x == y,
        (Tok::Char(c), Tok::One(k) | Tok::Star(k)) | (Tok::One(k) | Tok::Star(k), Tok::Char(c)) => {
            char_in(c, k)
        }
        // Every pair of classes shares a character (digits are in `Any`).
        (Tok::One(_) | Tok::Star(_), Tok::One(_) | Tok::Star(_)) => true,
    }
}

/// Whether two token strings can match a common string (iterative DFS over positions).
fn intersects(a: &[Tok], b: &[Tok]) -> bool {
    // Absurdly long keys (DynamoDB caps keys at 2 KB / 1 KB): assume they may overlap
    // rather than spend quadratic time.
    if a.len().saturating_mul(b.len()) > 4_000_000 {
        return true;
    }
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    let mut stack = vec![(0usize, 0usize)];
    while let Some((i, j)) = stack.pop() {
        if !seen.insert((i, j)) {
            continue;
        }
        let (ta, tb) = (a.get(i).copied(), b.get(j).copied());
        match (ta, tb) {
            (None, None) => return true,
            (Some(Tok::Star(_)), _) if tb.is_none() => stack.push((i + 1, j)),
            (_, Some(Tok::Star(_))) if ta.is_none() => stack.push((i, j + 1)),
            (None, _) | (_, None) => {}
            (Some(x), Some(y)) => {
                let x_star = matches!(x, Tok::Star(_));
                let y_star = matches!(y, Tok::Star(_));
                if x_star {
                    stack.push((i + 1, j));
                }
                if y_star {
                    stack.push((i, j + 1));
                }
                if single_meets(x, y) {
                    match (x_star, y_star) {
                        (false, false) => stack.push((i + 1, j + 1)),
                        (true, false) => stack.push((i, j + 1)),
                        (false, true) => stack.push((i + 1, j)),
                        (true, true) => {
                            stack.push((i, j + 1));
                            stack.push((i + 1, j));
                        }
                    }
                }
            }
        }
    }
    false
}

fn common_prefix(a: &str, b: &str) -> String {
    a.chars()
        .zip(b.chars())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x)
        .collect()
}

/// Whether a key condition (`cond`, variables resolved by `cond_vars`) can select a
/// key written as `written` (variables resolved by `written_vars`).
pub fn condition_can_match(
    cond: &Condition,
    cond_vars: Resolver<'_>,
    written: &KeyTemplate,
    written_vars: Resolver<'_>,
) -> bool {
    let target = Shape::of(written, written_vars);
    match cond {
        Condition::Eq(t) => Shape::of(t, cond_vars).overlaps(&target),
        Condition::BeginsWith(t) => Shape::of(t, cond_vars).prefix().overlaps(&target),
        Condition::Between(lo, hi) => {
            let p = common_prefix(lo.literal_prefix(), hi.literal_prefix());
            Shape::literal_prefix(&p).overlaps(&target)
        }
        Condition::Lt(t) | Condition::Le(t) => {
            ordered_possible(written.literal_prefix(), t.literal_prefix(), true)
        }
        Condition::Gt(t) | Condition::Ge(t) => {
            ordered_possible(written.literal_prefix(), t.literal_prefix(), false)
        }
    }
}

/// With fixed prefixes `written` and `bound`, can a written key be below (`less`) or above the bound?
fn ordered_possible(written: &str, bound: &str, less: bool) -> bool {
    for (w, b) in written.chars().zip(bound.chars()) {
        if w != b {
            return if less { w < b } else { w > b };
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> KeyTemplate {
        KeyTemplate::parse(s).unwrap()
    }

    fn ov(a: &str, b: &str) -> bool {
        let none: Resolver<'_> = &|_| None;
        Shape::of(&t(a), none).overlaps(&Shape::of(&t(b), none))
    }

    #[test]
    fn overlaps() {
        assert!(ov("USER#{a}", "USER#{b}"));
        assert!(!ov("USER#{a}", "ORDER#{b}"));
        assert!(ov("{x}", "ORDER#{b}"));
        assert!(!ov("PROFILE", "ORDER#{b}"));
        assert!(ov("{a}#{b}", "X#Y#Z"));
        assert!(!ov("N#{n:03}", "N#{m:04}"));
        assert!(ov("N#{n:03}", "N#0{m:02}"));
        assert!(!ov("N#{n:03}", "N#abc"));
        assert!(!ov("ORDER", "ITEM#{n:04}"));
    }

    #[test]
    fn conditions() {
        let none: Resolver<'_> = &|_| None;
        let c = Condition::Between(t("DATE#{a}"), t("DATE#{b}"));
        assert!(!condition_can_match(&c, none, &t("ORDER#{id}"), none));
        assert!(condition_can_match(&c, none, &t("DATE#{id}"), none));
        let c = Condition::BeginsWith(t("ORDER#"));
        assert!(condition_can_match(&c, none, &t("ORDER#{id}"), none));
        assert!(!condition_can_match(&c, none, &t("PROFILE"), none));
        let c = Condition::Gt(t("B"));
        assert!(!condition_can_match(&c, none, &t("A#{x}"), none));
        assert!(condition_can_match(&c, none, &t("C#{x}"), none));
    }
}
