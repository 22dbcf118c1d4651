//! Key templates (`USER#{userId}`, `{createdAt}#{orderId}`, `ITEM#{lineNo:04}`): parsing, rendering, extraction.

use std::collections::BTreeMap;
use std::fmt;

use crate::error::{RenderError, TemplateError};

/// One piece of a key template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// Constant text, copied verbatim.
    Literal(String),
    /// An attribute value; `pad` zero-pads a non-negative integer to that width.
    Var {
        /// Attribute (or parameter) name.
        name: String,
        /// Zero-padding width for integers (`{n:08}`).
        pad: Option<usize>,
    },
}

/// A parsed key template.
///
/// Syntax: literal text with `{name}` placeholders; `{name:0N}` zero-pads an
/// integer to `N` digits; `{{` and `}}` are literal braces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyTemplate {
    segments: Vec<Segment>,
}

/// Largest padding width accepted (`{n:020}` holds any u64).
pub const MAX_PAD: usize = 40;

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The width of a padding spec `0N`: `BadFormat` when it is not of that form, `PadWidth` when
/// it is but `N` is 0 or more than [`MAX_PAD`].
fn pad_width(spec: &str, offset: usize) -> Result<usize, TemplateError> {
    let digits = spec
        .strip_prefix('0')
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| TemplateError::BadFormat {
            offset,
            spec: spec.to_string(),
        })?;
    match digits.parse::<usize>() {
        Ok(width) if (1..=MAX_PAD).contains(&width) => Ok(width),
        _ => {
            let trimmed = digits.trim_start_matches('0');
            Err(TemplateError::PadWidth {
                offset,
                spec: spec.to_string(),
                width: if trimmed.is_empty() { "0" } else { trimmed }.to_string(),
            })
        }
    }
}

impl KeyTemplate {
    /// Parses a template. Never panics.
    pub fn parse(source: &str) -> Result<Self, TemplateError> {
        if source.is_empty() {
            return Err(TemplateError::Empty);
        }
        let mut segments: Vec<Segment> = Vec::new();
        let mut literal = String::new();
        let mut iter = source.char_indices().peekable();
        while let Some((offset, c)) = iter.next() {
            match c {
                '{' if matches!(iter.peek(), Some((_, '{'))) => {
                    iter.next();
                    literal.push('{');
                }
                '}' if matches!(iter.peek(), Some((_, '}'))) => {
                    iter.next();
                    literal.push('}');
                }
                '}' => return Err(TemplateError::UnmatchedClose { offset }),
                '{' => {
                    let mut inner = String::new();
                    let mut closed = false;
                    for (_, c) in iter.by_ref() {
                        if c == '}' {
                            closed = true;
                            break;
                        }
                        inner.push(c);
                    }
                    if !closed {
                        return Err(TemplateError::Unclosed { offset });
                    }
                    let (name, pad) = match inner.split_once(':') {
                        None => (inner.as_str(), None),
                        Some((name, spec)) => (name, Some(pad_width(spec, offset)?)),
                    };
                    if !valid_name(name) {
                        return Err(TemplateError::BadName {
                            offset,
                            name: name.to_string(),
                        });
                    }
                    if !literal.is_empty() {
                        segments.push(Segment::Literal(std::mem::take(&mut literal)));
                    }
                    segments.push(Segment::Var {
                        name: name.to_string(),
                        pad,
                    });
                }
                c => literal.push(c),
            }
        }
        if !literal.is_empty() {
            segments.push(Segment::Literal(literal));
        }
        Ok(Self { segments })
    }

    /// A template that is only the given literal text.
    pub fn literal(text: &str) -> Self {
        let segments = if text.is_empty() {
            Vec::new()
        } else {
            vec![Segment::Literal(text.to_string())]
        };
        Self { segments }
    }

    /// The segments, in order.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Names of the variables, in order of appearance (may repeat).
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Var { name, .. } => Some(name.as_str()),
            Segment::Literal(_) => None,
        })
    }

    /// Bytes of literal text: the least any key rendered from it holds.
    pub fn literal_len(&self) -> usize {
        self.segments
            .iter()
            .map(|s| match s {
                Segment::Literal(text) => text.len(),
                Segment::Var { pad, .. } => pad.unwrap_or(0),
            })
            .sum()
    }

    /// True when the template has no variables.
    pub fn is_constant(&self) -> bool {
        self.variables().next().is_none()
    }

    /// The literal text before the first variable.
    pub fn literal_prefix(&self) -> &str {
        match self.segments.first() {
            Some(Segment::Literal(text)) => text,
            _ => "",
        }
    }

    /// True when [`extract`](Self::extract) can recover every variable from a rendered key: no
    /// unpadded variable is directly followed by another variable.
    pub fn is_extractable(&self) -> bool {
        self.segments
            .windows(2)
            .all(|pair| !matches!(pair, [Segment::Var { pad: None, .. }, Segment::Var { .. }]))
    }

    /// The variables a rendered key gives back through [`extract`](Self::extract): all of them
    /// when the template [`is_extractable`](Self::is_extractable), none otherwise.
    pub fn recoverable_variables(&self) -> impl Iterator<Item = &str> {
        let extractable = self.is_extractable();
        self.variables().filter(move |_| extractable)
    }

    /// Renders the key from attribute values.
    ///
    /// `values` returns the string form of an attribute (numbers as decimal
    /// digits). Missing or empty values are errors; padded variables need a
    /// non-negative integer that fits the width.
    pub fn render(&self, values: &dyn Fn(&str) -> Option<String>) -> Result<String, RenderError> {
        let mut out = String::new();
        for segment in &self.segments {
            match segment {
                Segment::Literal(text) => out.push_str(text),
                Segment::Var { name, pad } => {
                    let value = values(name)
                        .ok_or_else(|| RenderError::MissingValue { name: name.clone() })?;
                    if value.is_empty() {
                        return Err(RenderError::EmptyValue { name: name.clone() });
                    }
                    match pad {
                        None => out.push_str(&value),
                        Some(width) => {
                            if !value.bytes().all(|b| b.is_ascii_digit()) {
                                return Err(RenderError::NotAnInteger {
                                    name: name.clone(),
                                    value,
                                });
                            }
                            let digits = value.trim_start_matches('0');
                            let digits = if digits.is_empty() { "0" } else { digits };
                            if digits.len() > *width {
                                return Err(RenderError::TooWide {
                                    name: name.clone(),
                                    value,
                                    width: *width,
                                });
                            }
                            for _ in digits.len()..*width {
                                out.push('0');
                            }
                            out.push_str(digits);
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// Renders from a map of values.
    pub fn render_map(&self, values: &BTreeMap<String, String>) -> Result<String, RenderError> {
        self.render(&|name| values.get(name).cloned())
    }

    /// Recovers variable values from a rendered key, if the key has this shape.
    ///
    /// An unpadded variable extends to the first occurrence of the literal that
    /// follows it (or to the end). Returns `None` when the key does not match or
    /// two unpadded variables are adjacent (ambiguous).
    pub fn extract(&self, key: &str) -> Option<BTreeMap<String, String>> {
        let mut out = BTreeMap::new();
        let mut rest = key;
        let mut i = 0;
        while i < self.segments.len() {
            match &self.segments[i] {
                Segment::Literal(text) => rest = rest.strip_prefix(text.as_str())?,
                Segment::Var {
                    name,
                    pad: Some(width),
                } => {
                    let value = rest.get(..*width)?;
                    if !value.bytes().all(|b| b.is_ascii_digit()) {
                        return None;
                    }
                    rest = &rest[*width..];
                    insert_consistent(&mut out, name, value)?;
                }
                Segment::Var { name, pad: None } => {
                    let value = match self.segments.get(i + 1) {
                        None => rest,
                        Some(Segment::Literal(next)) => {
                            let at = rest.find(next.as_str())?;
                            &rest[..at]
                        }
                        Some(Segment::Var { .. }) => return None,
                    };
                    if value.is_empty() {
                        return None;
                    }
                    rest = &rest[value.len()..];
                    insert_consistent(&mut out, name, value)?;
                }
            }
            i += 1;
        }
        rest.is_empty().then_some(out)
    }
}

fn insert_consistent(out: &mut BTreeMap<String, String>, name: &str, value: &str) -> Option<()> {
    match out.get(name) {
        Some(existing) if existing != value => None,
        _ => {
            out.insert(name.to_string(), value.to_string());
            Some(())
        }
    }
}

impl fmt::Display for KeyTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for segment in &self.segments {
            match segment {
                Segment::Literal(text) => {
                    write!(f, "{}", text.replace('{', "{{").replace('}', "}}"))?
                }
                Segment::Var { name, pad: None } => write!(f, "{{{name}}}")?,
                Segment::Var {
                    name,
                    pad: Some(width),
                } => write!(f, "{{{name}:0{width}}}")?,
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for KeyTemplate {
    type Err = TemplateError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_renders() {
        let t = KeyTemplate::parse("ORDER#{orderId}#ITEM#{line:04}").unwrap();
        let mut values = BTreeMap::new();
        values.insert("orderId".to_string(), "01HX".to_string());
        values.insert("line".to_string(), "7".to_string());
        assert_eq!(t.render_map(&values).unwrap(), "ORDER#01HX#ITEM#0007");
        assert_eq!(t.to_string(), "ORDER#{orderId}#ITEM#{line:04}");
        let back = t.extract("ORDER#01HX#ITEM#0007").unwrap();
        assert_eq!(back.get("line").map(String::as_str), Some("0007"));
    }

    #[test]
    fn extractable_templates_give_their_variables_back() {
        let t = KeyTemplate::parse("REPO#{owner}#{repo}").unwrap();
        assert!(t.is_extractable());
        assert_eq!(
            t.recoverable_variables().collect::<Vec<_>>(),
            ["owner", "repo"]
        );
        let padded = KeyTemplate::parse("{n:03}{name}").unwrap();
        assert!(padded.is_extractable());
        assert_eq!(padded.extract("007abc").unwrap()["name"], "abc");
        let adjacent = KeyTemplate::parse("{a}{b}").unwrap();
        assert!(!adjacent.is_extractable());
        assert_eq!(adjacent.recoverable_variables().count(), 0);
        assert!(adjacent.extract("xy").is_none());
    }

    #[test]
    fn errors() {
        assert!(KeyTemplate::parse("A{").is_err());
        assert!(KeyTemplate::parse("A}").is_err());
        assert!(KeyTemplate::parse("{1a}").is_err());
        assert!(KeyTemplate::parse("{a:4}").is_err());
        assert!(matches!(
            KeyTemplate::parse("{a:x}"),
            Err(TemplateError::BadFormat { .. })
        ));
        assert!(matches!(
            KeyTemplate::parse("{a:0}"),
            Err(TemplateError::BadFormat { .. })
        ));
        for (spec, width) in [
            ("0999999999999", "999999999999"),
            ("041", "41"),
            ("00", "0"),
            (
                "099999999999999999999999999999",
                "99999999999999999999999999999",
            ),
        ] {
            match KeyTemplate::parse(&format!("N#{{n:{spec}}}")) {
                Err(TemplateError::PadWidth { width: w, .. }) => assert_eq!(w, width, "{spec}"),
                other => panic!("{spec}: {other:?}"),
            }
        }
        assert!(KeyTemplate::parse("{a:040}").is_ok());
        assert!(KeyTemplate::parse("").is_err());
        let t = KeyTemplate::parse("N#{n:02}").unwrap();
        assert!(matches!(
            t.render(&|_| Some("123".into())),
            Err(RenderError::TooWide { .. })
        ));
        assert!(matches!(
            t.render(&|_| Some("x".into())),
            Err(RenderError::NotAnInteger { .. })
        ));
        assert!(matches!(
            t.render(&|_| None),
            Err(RenderError::MissingValue { .. })
        ));
        assert_eq!(
            KeyTemplate::parse("{{x}}")
                .unwrap()
                .render(&|_| None)
                .unwrap(),
            "{x}"
        );
    }
}
