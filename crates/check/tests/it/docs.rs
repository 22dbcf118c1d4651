//! docs/checks.md and the rules agree: every code has its row and section under its name, and a
//! finding is documented under the code `check` reports it with.

use monotable_check::{Rule, check_source};

fn checks_md() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/checks.md");
    std::fs::read_to_string(path).expect("docs/checks.md")
}

/// The text of the section `## <code> ...`, up to the next section.
fn section<'d>(docs: &'d str, code: &str) -> &'d str {
    let start = docs
        .find(&format!("\n## {code} "))
        .unwrap_or_else(|| panic!("docs/checks.md has no section for {code}"));
    let rest = &docs[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

#[test]
fn every_rule_has_its_row_and_section() {
    let docs = checks_md();
    for rule in Rule::ALL {
        let (code, name) = (rule.code(), rule.name());
        assert!(
            docs.contains(&format!("| {code} | {name} |")),
            "no table row `| {code} | {name} |`"
        );
        assert!(
            section(&docs, code).starts_with(&format!("## {code} {name}\n")),
            "the {code} section is not headed `## {code} {name}`"
        );
    }
}

#[test]
fn an_undeclared_index_is_documented_where_it_is_reported() {
    let source = r#"
[table]
name = "Repos"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[entities.Repo]
attributes.owner = { type = "string", required = true }
keys.PK = "REPO#{owner}"
keys.SK = "REPO"

[patterns.byOwner]
operation = "Query"
index = "ByOwner"
key = { OwnerKey = "OWNER#{owner}" }
returns = ["Repo"]
paginate = true
"#;
    let report = check_source("repos.toml", source);
    assert_eq!(report.codes(), ["MT013"]);
    let docs = checks_md();
    assert!(section(&docs, "MT013").contains("queries an index the table does not declare"));
    let mt000 = section(&docs, "MT000");
    assert!(
        mt000.contains(
            "Not MT000: a pattern that queries an index the table does not declare is\nMT013"
        ),
        "the MT000 section must say an undeclared index is MT013:\n{mt000}"
    );
}
