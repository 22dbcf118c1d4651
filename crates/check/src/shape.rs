//! Key shapes: a template as a small automaton over characters, each variable replaced by the
//! exact set of strings its type can render, and whether two shapes can produce the same key.
//!
//! A formatted type has a fixed shape: `rfc3339-utc-millis` is `DDDD-DD-DDTDD:DD:DD.DDDZ`
//! (`D` a digit), a `date` `DDDD-DD-DD`, a padded integer exactly N digits, an integer an
//! optional `-` and digits, an enum or boolean one of its values. Such a variable cannot equal
//! a literal of another shape (`META`, `ROLLUP#`). A string, or a timestamp without a
//! `format`, is any non-empty text.

use monotable_model::{Attribute, AttributeType, KeyTemplate, KeyTest, Segment, TimestampFormat};

/// Character classes a variable can produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Class {
    /// Any character.
    Any,
    /// `0`-`9`.
    Digit,
    /// What a DynamoDB number renders with: digits, `+`, `-`, `.`, `e`, `E`.
    Number,
}

impl Class {
    fn contains(self, c: char) -> bool {
        match self {
            Class::Any => true,
            Class::Digit => c.is_ascii_digit(),
            Class::Number => c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | 'e' | 'E'),
        }
    }
}

/// What one transition reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Label {
    Char(char),
    Class(Class),
}

impl Label {
    /// Whether some character is read by both labels.
    fn meets(self, other: Label) -> bool {
        match (self, other) {
            (Label::Char(x), Label::Char(y)) => x == y,
            (Label::Char(c), Label::Class(k)) | (Label::Class(k), Label::Char(c)) => k.contains(c),
            // Every pair of classes shares the digits.
            (Label::Class(_), Label::Class(_)) => true,
        }
    }
}

/// One piece of a variable's shape: exactly one character of a label, or any number of a class.
#[derive(Debug, Clone, Copy)]
enum Piece {
    One(Label),
    Star(Class),
}

/// A key shape: a nondeterministic automaton with one start (state 0) and one accepting state.
/// Two templates built alike (the same text, variables of the same types) have equal shapes,
/// which is how entities with the same key are grouped without comparing every pair.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Labelled transitions out of each state.
    edges: Vec<Vec<(Label, usize)>>,
    /// Empty transitions out of each state.
    eps: Vec<Vec<usize>>,
    accept: usize,
}

/// Resolves a variable name to its attribute definition, if known.
pub type Resolver<'a> = &'a dyn Fn(&str) -> Option<&'a Attribute>;

/// `D` is a digit, `*` any number of digits; anything else is itself.
fn fixed(pattern: &str) -> Vec<Piece> {
    pattern
        .chars()
        .map(|c| match c {
            'D' => Piece::One(Label::Class(Class::Digit)),
            '*' => Piece::Star(Class::Digit),
            c => Piece::One(Label::Char(c)),
        })
        .collect()
}

fn text(s: &str) -> Vec<Piece> {
    s.chars().map(|c| Piece::One(Label::Char(c))).collect()
}

/// One or more characters of `class`.
fn some(class: Class) -> Vec<Piece> {
    vec![Piece::One(Label::Class(class)), Piece::Star(class)]
}

/// Every `a` followed by every `b`.
fn then(a: Vec<Vec<Piece>>, b: &[Vec<Piece>]) -> Vec<Vec<Piece>> {
    a.iter()
        .flat_map(|x| {
            b.iter().map(move |y| {
                let mut v = x.clone();
                v.extend_from_slice(y);
                v
            })
        })
        .collect()
}

/// An optional `-` before `rest`.
fn signed(rest: Vec<Piece>) -> Vec<Vec<Piece>> {
    then(vec![Vec::new(), text("-")], &[rest])
}

/// The texts of a timestamp in `format`: the model's shapes of it; any text when it names none.
fn timestamp_alts(format: Option<TimestampFormat>) -> Vec<Vec<Piece>> {
    match format {
        None => vec![some(Class::Any)],
        Some(format) => format.shapes().iter().map(|p| fixed(p)).collect(),
    }
}

/// The strings a variable of this attribute renders as, as alternatives.
fn var_alts(attr: Option<&Attribute>, pad: Option<usize>) -> Vec<Vec<Piece>> {
    if let Some(width) = pad {
        return vec![vec![Piece::One(Label::Class(Class::Digit)); width]];
    }
    let Some(attr) = attr else {
        return vec![some(Class::Any)];
    };
    match attr.ty {
        AttributeType::Enum if !attr.values.is_empty() => {
            attr.values.iter().map(|v| text(v)).collect()
        }
        AttributeType::Boolean => vec![text("true"), text("false")],
        AttributeType::Integer => signed(some(Class::Digit)),
        AttributeType::Decimal => {
            let mut fraction = text(".");
            fraction.extend(some(Class::Digit));
            then(signed(some(Class::Digit)), &[Vec::new(), fraction])
        }
        AttributeType::Number | AttributeType::Float => vec![some(Class::Number)],
        AttributeType::Timestamp => timestamp_alts(attr.format),
        _ => vec![some(Class::Any)],
    }
}

impl Shape {
    fn state(&mut self) -> usize {
        self.edges.push(Vec::new());
        self.eps.push(Vec::new());
        self.edges.len() - 1
    }

    /// Appends `pieces` after state `from`; returns the state reached.
    fn chain(&mut self, from: usize, pieces: &[Piece]) -> usize {
        let mut at = from;
        for piece in pieces {
            let next = self.state();
            match *piece {
                Piece::One(label) => self.edges[at].push((label, next)),
                Piece::Star(class) => {
                    self.eps[at].push(next);
                    self.edges[next].push((Label::Class(class), next));
                }
            }
            at = next;
        }
        at
    }

    /// Appends one of `alts` after state `from`; returns the state where they meet.
    fn choice(&mut self, from: usize, alts: &[Vec<Piece>]) -> usize {
        if let [only] = alts {
            return self.chain(from, only);
        }
        let end = self.state();
        for alt in alts {
            let start = self.state();
            self.eps[from].push(start);
            let last = self.chain(start, alt);
            self.eps[last].push(end);
        }
        end
    }

    /// The shape of a template whose variables resolve through `resolve`.
    pub fn of(template: &KeyTemplate, resolve: Resolver<'_>) -> Self {
        let mut shape = Shape {
            edges: Vec::new(),
            eps: Vec::new(),
            accept: 0,
        };
        let mut at = shape.state();
        for segment in template.segments() {
            at = match segment {
                Segment::Literal(t) => shape.chain(at, &text(t)),
                Segment::Var { name, pad } => shape.choice(at, &var_alts(resolve(name), *pad)),
            };
        }
        shape.accept = at;
        shape
    }

    /// This shape followed by anything (for `begins_with`).
    pub fn prefix(mut self) -> Self {
        self.accept = self.chain(self.accept, &[Piece::Star(Class::Any)]);
        self
    }

    /// A constant literal followed by anything.
    pub fn literal_prefix(text: &str) -> Self {
        Self::of(&KeyTemplate::literal(text), &|_| None).prefix()
    }

    /// The characters a key of this shape can start with, when they are fewer than all:
    /// `None` when it can start with any character, or be empty.
    pub fn first_chars(&self) -> Option<Vec<char>> {
        let mut seen = vec![false; self.edges.len()];
        let mut stack = vec![0usize];
        let mut chars = Vec::new();
        while let Some(state) = stack.pop() {
            if std::mem::replace(&mut seen[state], true) {
                continue;
            }
            if state == self.accept {
                return None;
            }
            stack.extend(&self.eps[state]);
            for (label, _) in &self.edges[state] {
                match label {
                    Label::Char(c) => chars.push(*c),
                    Label::Class(Class::Digit) => chars.extend('0'..='9'),
                    Label::Class(Class::Number) => {
                        chars.extend(('0'..='9').chain(['+', '-', '.', 'e', 'E']));
                    }
                    Label::Class(Class::Any) => return None,
                }
            }
        }
        chars.sort_unstable();
        chars.dedup();
        Some(chars)
    }

    /// True when some key could be produced by both shapes.
    pub fn overlaps(&self, other: &Shape) -> bool {
        let (n, m) = (self.edges.len(), other.edges.len());
        // Keys are at most 2 KB: a product this large is a template no key can hold. Assume
        // the worst rather than spend quadratic time on it.
        let Some(size) = n.checked_mul(m).filter(|s| *s <= 4_000_000) else {
            return true;
        };
        let mut seen = vec![false; size];
        let mut stack = vec![(0usize, 0usize)];
        while let Some((p, q)) = stack.pop() {
            let Some(slot) = seen.get_mut(p * m + q) else {
                continue;
            };
            if std::mem::replace(slot, true) {
                continue;
            }
            if p == self.accept && q == other.accept {
                return true;
            }
            stack.extend(self.eps[p].iter().map(|&p2| (p2, q)));
            stack.extend(other.eps[q].iter().map(|&q2| (p, q2)));
            for &(a, p2) in &self.edges[p] {
                for &(b, q2) in &other.edges[q] {
                    if a.meets(b) {
                        stack.push((p2, q2));
                    }
                }
            }
        }
        false
    }
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
    cond: &KeyTest,
    cond_vars: Resolver<'_>,
    written: &KeyTemplate,
    written_vars: Resolver<'_>,
) -> bool {
    let target = Shape::of(written, written_vars);
    match cond {
        KeyTest::Eq(t) => Shape::of(t, cond_vars).overlaps(&target),
        KeyTest::BeginsWith(t) => Shape::of(t, cond_vars).prefix().overlaps(&target),
        KeyTest::Between(lo, hi) => {
            let p = common_prefix(lo.literal_prefix(), hi.literal_prefix());
            Shape::literal_prefix(&p).overlaps(&target)
        }
        KeyTest::Lt(t) | KeyTest::Le(t) => {
            ordered_possible(written.literal_prefix(), t.literal_prefix(), true)
        }
        KeyTest::Gt(t) | KeyTest::Ge(t) => {
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
mod tests;
