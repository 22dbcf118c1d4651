//! `explain`: a rule's section of docs/checks.md and its minimal failing and passing models
//! (crates/check/tests/fixtures/MTxxx/{fail,pass}.toml), both embedded at build time.

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::McpError;

/// docs/checks.md, split into its `## MTxxx name` sections.
pub const CHECKS_MD: &str = include_str!("../../../docs/checks.md");

/// Each rule's code and its minimal failing and passing models.
macro_rules! fixtures {
    ($($code:literal),* $(,)?) => {
        &[$((
            $code,
            include_str!(concat!("../../check/tests/fixtures/", $code, "/fail.toml")),
            include_str!(concat!("../../check/tests/fixtures/", $code, "/pass.toml")),
        )),*]
    };
}

/// Every rule's fixture pair (a unit test holds this list to the fixture directories).
pub const FIXTURES: &[(&str, &str, &str)] = fixtures!(
    "MT000", "MT001", "MT002", "MT003", "MT004", "MT005", "MT006", "MT007", "MT008", "MT009",
    "MT010", "MT011", "MT012", "MT013", "MT014", "MT015", "MT016", "MT017", "MT018", "MT019",
    "MT020", "MT021",
);

/// What `explain` answers.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Explanation {
    /// The rule's code, `MT005`.
    pub code: String,
    /// The rule's name, `key-collision`.
    pub rule: String,
    /// Its section of docs/checks.md (markdown).
    pub doc: String,
    /// A minimal model the rule reports (TOML), where one is shipped.
    pub failing_model: Option<String>,
    /// The same model fixed: the rule stays quiet (TOML), where one is shipped.
    pub passing_model: Option<String>,
}

/// The `## MTxxx name` sections of docs/checks.md: (code, name, section text).
fn sections() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    CHECKS_MD.split("\n## ").filter_map(|section| {
        let heading = section.lines().next()?;
        let (code, name) = heading.split_once(' ')?;
        let rule = code.starts_with("MT") && code.len() == 5;
        rule.then_some((code, name.trim(), section))
    })
}

/// The rule `code` (or its name) names, explained.
pub fn explain(code: &str) -> Result<Explanation, McpError> {
    let wanted = code.trim();
    let found = sections()
        .find(|(c, name, _)| c.eq_ignore_ascii_case(wanted) || name.eq_ignore_ascii_case(wanted));
    let Some((code, rule, section)) = found else {
        let known: Vec<&str> = sections().map(|(c, _, _)| c).collect();
        return Err(McpError::Refused(format!(
            "no rule `{wanted}`: the codes are {} (docs/checks.md)",
            known.join(", ")
        )));
    };
    let pair = FIXTURES.iter().find(|(c, _, _)| *c == code);
    Ok(Explanation {
        code: code.to_string(),
        rule: rule.to_string(),
        doc: format!("## {}", section.trim_end()),
        failing_model: pair.map(|(_, fail, _)| fail.to_string()),
        passing_model: pair.map(|(_, _, pass)| pass.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_in_the_docs_has_its_pair_and_every_pair_its_rule() {
        let documented: Vec<&str> = sections().map(|(c, _, _)| c).collect();
        let shipped: Vec<&str> = FIXTURES.iter().map(|(c, _, _)| *c).collect();
        assert_eq!(documented, shipped);
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../check/tests/fixtures");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("MT"))
            .collect();
        on_disk.sort();
        assert_eq!(on_disk, shipped);
    }

    #[test]
    fn a_code_or_a_name_finds_its_section_and_an_unknown_one_lists_the_codes() {
        let by_code = explain("mt005").unwrap();
        assert_eq!(
            (by_code.code.as_str(), by_code.rule.as_str()),
            ("MT005", "key-collision")
        );
        assert!(by_code.doc.starts_with("## MT005 key-collision"));
        assert!(!by_code.doc.contains("## MT006"));
        assert!(by_code.failing_model.is_some());
        assert_eq!(explain("key-collision").unwrap().code, "MT005");
        let unknown = explain("MT999").unwrap_err().to_string();
        assert!(unknown.contains("MT021"), "{unknown}");
    }
}
