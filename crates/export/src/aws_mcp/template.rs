//! AWS key templates (`USER#{user_id}`, `SCORE#{score:08d}`) into monotable's: the same text,
//! placeholders and zero padding; what monotable cannot write is said, never guessed.
//!
//! The AWS server's code generator reads a placeholder with the regular expression
//! `\{(\w+)(?::[^}]*)?\}` and renders it with Python's `format`: `{name}` is the value,
//! `{name:SPEC}` the value formatted by the spec. monotable writes `{name}` and `{name:0N}` (zero
//! padded to N digits); its literal braces are `{{` and `}}`, which an AWS template cannot hold.

use monotable_model::{KeyTemplate, MAX_PAD};

/// A translated template, with what did not carry over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Translated {
    /// The monotable template text (it parses as a [`KeyTemplate`]).
    pub text: String,
    /// Its variables, in order of appearance.
    pub vars: Vec<String>,
    /// Specs dropped, one sentence each (`{price:.2f}` is written as the value itself).
    pub notes: Vec<String>,
}

/// Why a template cannot be translated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TemplateProblem {
    #[error("the template is empty")]
    Empty,
    #[error("`{{` at character {at} is never closed")]
    Unclosed { at: usize },
    #[error("`}}` at character {at} closes no placeholder")]
    StrayClose { at: usize },
    #[error(
        "placeholder `{{{name}}}` is not a monotable variable name (ASCII letters, digits and `_`, not starting with a digit)"
    )]
    BadName { name: String },
}

/// A Python format spec monotable can write: `d`, or `0N`/`0Nd` with N from 1 to [`MAX_PAD`].
/// `Ok(None)` is the value as it is; `Err` is a spec with no monotable equivalent.
fn padding(spec: &str) -> Result<Option<usize>, ()> {
    let spec = spec.strip_suffix('d').unwrap_or(spec);
    if spec.is_empty() {
        return Ok(None);
    }
    let digits = spec.strip_prefix('0').ok_or(())?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(());
    }
    match digits.parse::<usize>() {
        Ok(width) if (1..=MAX_PAD).contains(&width) => Ok(Some(width)),
        _ => Err(()),
    }
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Translates one AWS template.
pub(crate) fn translate(aws: &str) -> Result<Translated, TemplateProblem> {
    if aws.is_empty() {
        return Err(TemplateProblem::Empty);
    }
    let mut out = Translated {
        text: String::new(),
        vars: Vec::new(),
        notes: Vec::new(),
    };
    let chars: Vec<char> = aws.chars().collect();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            '}' => return Err(TemplateProblem::StrayClose { at: i + 1 }),
            '{' => {
                let rest = chars.get(i + 1..).unwrap_or_default();
                let close = rest
                    .iter()
                    .position(|&c| c == '}')
                    .ok_or(TemplateProblem::Unclosed { at: i + 1 })?;
                let inner: String = rest.iter().take(close).collect();
                placeholder(&inner, &mut out)?;
                i += close + 2;
            }
            c => {
                out.text.push(c);
                i += 1;
            }
        }
    }
    debug_assert!(KeyTemplate::parse(&out.text).is_ok(), "{}", out.text);
    Ok(out)
}

/// One `{name}` or `{name:spec}` into `out`.
fn placeholder(inner: &str, out: &mut Translated) -> Result<(), TemplateProblem> {
    let (name, spec) = match inner.split_once(':') {
        Some((name, spec)) => (name, Some(spec)),
        None => (inner, None),
    };
    if !valid_name(name) {
        return Err(TemplateProblem::BadName {
            name: name.to_string(),
        });
    }
    match spec.map(padding) {
        None | Some(Ok(None)) => out.text.push_str(&format!("{{{name}}}")),
        Some(Ok(Some(width))) => out.text.push_str(&format!("{{{name}:0{width}}}")),
        Some(Err(())) => {
            out.notes.push(format!(
                "format `:{}` of `{name}` has no monotable equivalent (only zero padding, `:0N`); the value is written as it is",
                spec.unwrap_or_default()
            ));
            out.text.push_str(&format!("{{{name}}}"));
        }
    }
    if !out.vars.iter().any(|v| v == name) {
        out.vars.push(name.to_string());
    }
    Ok(())
}

/// The template is one variable and nothing else (`{score}`): the AWS generator writes the
/// value itself, so a number stays a number.
pub(crate) fn lone_variable(text: &str) -> Option<String> {
    let template = KeyTemplate::parse(text).ok()?;
    match template.segments() {
        [monotable_model::Segment::Var { name, pad: None }] => Some(name.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    #[test]
    fn translations() {
        let cases: &[(&str, &str)] = &[
            ("USER#{user_id}", "USER#{user_id}"),
            ("PROFILE", "PROFILE"),
            ("{user_id}", "{user_id}"),
            (
                "TENANT#{tenant_id}#USER#{user_id}",
                "TENANT#{tenant_id}#USER#{user_id}",
            ),
            ("SCORE#{score:08d}", "SCORE#{score:08}"),
            ("SCORE#{score:05}", "SCORE#{score:05}"),
            ("{n:d}", "{n}"),
            ("{created_at}#{order_id}", "{created_at}#{order_id}"),
            ("ünïcode#{id}", "ünïcode#{id}"),
        ];
        for (aws, monotable) in cases {
            let t = translate(aws).unwrap();
            assert_eq!(t.text, *monotable, "{aws}");
            assert!(t.notes.is_empty(), "{aws}: {:?}", t.notes);
        }
        let t = translate("PRICE#{price:.2f}").unwrap();
        assert_eq!(t.text, "PRICE#{price}");
        assert_eq!(t.notes.len(), 1);
        assert!(t.notes[0].contains("`:.2f`"), "{:?}", t.notes);
        let t = translate("{a}#{b}#{a}").unwrap();
        assert_eq!(t.vars, ["a", "b"]);
    }

    #[test]
    fn problems() {
        assert_eq!(translate(""), Err(TemplateProblem::Empty));
        assert_eq!(
            translate("USER#{id"),
            Err(TemplateProblem::Unclosed { at: 6 })
        );
        assert_eq!(
            translate("USER}"),
            Err(TemplateProblem::StrayClose { at: 5 })
        );
        assert!(matches!(
            translate("{}"),
            Err(TemplateProblem::BadName { .. })
        ));
        assert!(matches!(
            translate("{名前}"),
            Err(TemplateProblem::BadName { .. })
        ));
        assert!(matches!(
            translate("{1st}"),
            Err(TemplateProblem::BadName { .. })
        ));
        // A width monotable does not pad to is kept as the value, and said.
        assert_eq!(translate("{n:099d}").unwrap().notes.len(), 1);
        assert_eq!(translate("{n:00d}").unwrap().notes.len(), 1);
    }

    #[test]
    fn lone_variables() {
        assert_eq!(lone_variable("{score}").as_deref(), Some("score"));
        assert_eq!(lone_variable("SCORE#{score}"), None);
        assert_eq!(lone_variable("{score:08}"), None);
        assert_eq!(lone_variable("PROFILE"), None);
    }

    /// One piece of a generated AWS template.
    #[derive(Debug, Clone)]
    enum Piece {
        Text(String),
        Var(String, Option<usize>),
    }

    fn piece() -> impl Strategy<Value = Piece> {
        prop_oneof![
            "[A-Z#_\\-.:@ü0-9]{1,6}".prop_map(Piece::Text),
            ("[a-z_][a-z0-9_]{0,6}", proptest::option::of(1usize..=12))
                .prop_map(|(n, w)| Piece::Var(n, w)),
        ]
    }

    /// What Python's `format` writes for the pieces, `{n:0Wd}` zero-padding an integer.
    fn python_format(pieces: &[Piece], values: &BTreeMap<String, u64>) -> String {
        pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.clone(),
                Piece::Var(n, None) => values[n].to_string(),
                Piece::Var(n, Some(w)) => format!("{:0w$}", values[n], w = *w),
            })
            .collect()
    }

    proptest! {
        /// Every AWS template of text and `{name}` / `{name:0Wd}` placeholders translates without a
        /// note, parses in monotable, names the same variables, and renders what Python writes.
        #[test]
        fn templates_render_as_the_aws_generator_writes_them(
            pieces in proptest::collection::vec(piece(), 1..6),
            seed in any::<u64>(),
        ) {
            let aws: String = pieces.iter().map(|p| match p {
                Piece::Text(t) => t.clone(),
                Piece::Var(n, None) => format!("{{{n}}}"),
                Piece::Var(n, Some(w)) => format!("{{{n}:0{w}d}}"),
            }).collect();
            let t = translate(&aws).unwrap();
            prop_assert!(t.notes.is_empty());
            let template = KeyTemplate::parse(&t.text).unwrap();
            // Python writes a value wider than its padding whole; monotable refuses it, so the
            // values fit the narrowest padding of their variable.
            let mut values = BTreeMap::new();
            for (i, p) in pieces.iter().enumerate() {
                if let Piece::Var(n, _) = p {
                    let narrowest = pieces.iter().filter_map(|q| match q {
                        Piece::Var(m, Some(w)) if m == n => Some(*w),
                        _ => None,
                    }).min();
                    let bound = narrowest.map_or(1_000_000, |w| 10u64.pow(u32::try_from(w.min(6)).unwrap()));
                    let v = seed.rotate_left(u32::try_from(i).unwrap()) % bound;
                    values.entry(n.clone()).or_insert(v);
                }
            }
            let strings: BTreeMap<String, String> =
                values.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
            prop_assert_eq!(template.render_map(&strings).unwrap(), python_format(&pieces, &values));
            let mut expected: Vec<String> = Vec::new();
            for p in &pieces {
                if let Piece::Var(n, _) = p && !expected.contains(n) {
                    expected.push(n.clone());
                }
            }
            prop_assert_eq!(t.vars, expected);
        }
    }
}
