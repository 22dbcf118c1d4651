//! The advisor agrees with itself: every shard count MT006 or MT021 suggests, applied to the
//! fixture it was given for (the shard attribute's `cardinality` set to it, or a `{shard}`
//! placeholder and attribute added to an unsharded template), leaves neither MT006 nor MT017
//! (nor MT021) to fire on that key.

use std::path::{Path, PathBuf};

use monotable_check::{Diagnostic, check_source};

/// Every fixture of every rule.
fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root)
        .expect("fixtures")
        .filter_map(Result::ok)
    {
        for file in std::fs::read_dir(dir.path())
            .expect("rule dir")
            .filter_map(Result::ok)
        {
            if file.path().extension().is_some_and(|x| x == "toml") {
                out.push(file.path());
            }
        }
    }
    out.sort();
    out
}

/// The text between `start` and the next `end` after it, in `text`.
fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = text.find(start)? + start.len();
    let len = text[from..].find(end)?;
    Some(&text[from..from + len])
}

/// How a suggestion was applied, for the count of each kind.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// `shard it wider`: a pure cardinality edit.
    Wider,
    /// `write-shard the key` / `shard the counter`: a placeholder and attribute added.
    Placeholder,
    /// `write-shard the key: add a `shard` attribute` to a native index's partition key.
    Native,
}

/// `source` with the suggestion of `d` applied, the key's text afterwards, and the kind; `None`
/// when `d` suggests no count this test can apply.
fn apply(source: &str, d: &Diagnostic) -> Option<(String, String, Kind)> {
    let help = d.help.as_deref()?;
    let span = d.span.clone()?;
    let key = source[span].to_string();
    if let Some(n) = between(
        help,
        "shard it wider: spread it over ",
        " partitions instead of ",
    ) {
        let var = between(help, "` on `", "`)")?;
        let n: u64 = n.parse().ok()?;
        let edited: Vec<String> = source
            .lines()
            .map(|line| {
                let declares = line.starts_with(&format!("attributes.{var} ="))
                    || line.starts_with(&format!("{var} ="));
                match line.find("cardinality = ") {
                    Some(at) if declares => {
                        let rest = &line[at + "cardinality = ".len()..];
                        let digits = rest.chars().take_while(char::is_ascii_digit).count();
                        format!("{}cardinality = {n}{}", &line[..at], &rest[digits..])
                    }
                    _ => line.to_string(),
                }
            })
            .collect();
        return Some((edited.join("\n"), key, Kind::Wider));
    }
    if help.contains("write-shard the key: add a `shard` attribute") {
        return apply_native(source, help).map(|edited| (edited, String::new(), Kind::Native));
    }
    // `write `T#{shard}` with` (MT021) or `write-shard the key: `T#{shard}` with` (MT006).
    let template = between(help, "write-shard the key: `", "#{shard}` with")
        .or_else(|| between(help, "shard the counter: write `", "#{shard}` with"))?;
    let n: u64 = between(help, "cardinality = ", "`")?.parse().ok()?;
    let old = format!("\"{template}\"");
    let new = format!("\"{template}#{{shard}}\"");
    let replaced = source.replace(&old, &new);
    // Declare `shard` in every entity whose section writes the new key.
    let mut out = Vec::new();
    let sections: Vec<&str> = split_sections(&replaced);
    for (i, section) in sections.iter().enumerate() {
        out.push(section.to_string());
        let body = sections.get(i + 1).copied().unwrap_or("");
        if section.starts_with("[entities.") && body.contains(&new) {
            out.push(format!(
                "attributes.shard = {{ type = \"integer\", required = true, cardinality = {n} }}\n"
            ));
        }
    }
    Some((out.concat(), new, Kind::Placeholder))
}

/// A native index's partition key widened by `shard` as `help` gives it: the index's new
/// `partition_key`, `shard` declared on every entity holding the old partition attributes,
/// and `shard = "{shard}"` in the key of every pattern on the index.
fn apply_native(source: &str, help: &str) -> Option<String> {
    let n: u64 = between(help, "`cardinality = ", "`")?.parse().ok()?;
    let index = between(help, "\n[indexes.", "]\n")?;
    let new_key = help.split("\npartition_key = ").nth(1)?.lines().next()?;
    let header = format!("[indexes.{index}]\n");
    let mut out = String::new();
    let mut old_names: Vec<String> = Vec::new();
    let mut current = String::new();
    for section in split_sections(source) {
        if section.starts_with('[') {
            current = section.to_string();
            out.push_str(section);
            if current.starts_with("[entities.")
                && !old_names.is_empty()
                && old_names.iter().all(|a| {
                    source_section(source, &current).contains(&format!("attributes.{a} ="))
                })
            {
                out.push_str(&format!(
                    "attributes.shard = {{ type = \"integer\", required = true, cardinality = {n} }}\n"
                ));
            }
            continue;
        }
        let body: Vec<String> = section
            .split_inclusive('\n')
            .map(|line| {
                if current == header && line.starts_with("partition_key = ") {
                    old_names = line
                        .split("name = \"")
                        .skip(1)
                        .filter_map(|x| x.split('"').next())
                        .map(str::to_string)
                        .collect();
                    format!("partition_key = {new_key}\n")
                } else if line.starts_with("key = { ")
                    && section.contains(&format!("index = \"{index}\""))
                {
                    line.replacen("key = { ", "key = { shard = \"{shard}\", ", 1)
                } else {
                    line.to_string()
                }
            })
            .collect();
        out.push_str(&body.concat());
    }
    Some(out)
}

/// The body of the section whose header line is `header`.
fn source_section<'a>(source: &'a str, header: &str) -> &'a str {
    let pieces = split_sections(source);
    pieces
        .iter()
        .position(|p| *p == header)
        .and_then(|i| pieces.get(i + 1).copied())
        .unwrap_or("")
}

/// `text` cut before each `[` header line, each piece keeping its lines.
fn split_sections(text: &str) -> Vec<&str> {
    let mut cuts = vec![0];
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with('[') && at > 0 {
            cuts.push(at);
        }
        at += line.len();
    }
    cuts.push(text.len());
    // Each header's section: from one cut to the next, the header line then its body; the
    // attribute is added after the header line, so split the header off.
    let mut out = Vec::new();
    for w in cuts.windows(2) {
        let piece = &text[w[0]..w[1]];
        match piece.find('\n') {
            Some(nl) if piece.starts_with('[') => {
                out.push(&piece[..=nl]);
                out.push(&piece[nl + 1..]);
            }
            _ => out.push(piece),
        }
    }
    out
}

/// Findings of MT006, MT017 or MT021 on `key` in `source` (anywhere, for an empty `key`: a
/// native key is reported on its index, whose text the edit changes).
fn on_key(shown: &str, source: &str, key: &str) -> Vec<String> {
    check_source(shown, source)
        .diagnostics()
        .iter()
        .filter(|d| ["MT006", "MT017", "MT021"].contains(&d.code))
        .filter(|d| key.is_empty() || d.span.clone().is_some_and(|s| &source[s] == key))
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect()
}

#[test]
fn every_suggested_shard_count_silences_the_advisor() {
    let mut applied = Vec::new();
    for path in fixtures() {
        let source = std::fs::read_to_string(&path).expect("fixture");
        let shown = path.display().to_string();
        let report = check_source(&shown, &source);
        for d in report
            .diagnostics()
            .iter()
            .filter(|d| d.code == "MT006" || d.code == "MT021")
        {
            let Some((edited, key, kind)) = apply(&source, d) else {
                continue;
            };
            if let Err(e) = monotable_model::parse(&edited) {
                panic!("{shown}: the edited model does not parse: {e:?}\n{edited}");
            }
            let left = on_key(&shown, &edited, &key);
            assert!(
                left.is_empty(),
                "{shown}: after `{}` the advisor still speaks of {key}: {left:#?}\n{edited}",
                d.help.as_deref().unwrap_or("")
            );
            applied.push((shown.clone(), kind));
        }
    }
    let count = |k: Kind| applied.iter().filter(|(_, kind)| *kind == k).count();
    // The fixtures hold both kinds, several times each: the test is not vacuous.
    assert!(count(Kind::Wider) >= 4, "{applied:#?}");
    assert!(count(Kind::Placeholder) >= 4, "{applied:#?}");
    assert!(count(Kind::Native) >= 2, "{applied:#?}");
}
