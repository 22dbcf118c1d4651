//! docs/architecture.md's crate table is the workspace: every crate `cargo metadata` names is a
//! row, and each row's "depends on" column lists exactly the workspace crates the crate's
//! `[dependencies]` name (not dev- or build-dependencies).
//!
//! Why: the page is where a newcomer learns which way the dependencies point. When a crate is
//! added or a dependency changes and the page does not, it teaches the wrong house; this test
//! fails on that day, naming the row and what differs.
//!
//! The column's grammar, kept strict so the test can read it: the crates by directory name in
//! backticks, separated by commas, or `nothing of ours`. The first column names the directory in
//! backticks and, when it differs, the package in parentheses: `` `check` (`monotable-check`) ``.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One row of the crate table.
#[derive(Debug, PartialEq, Eq)]
struct Row {
    /// The crate's directory under crates/.
    dir: String,
    /// Its package name.
    package: String,
    /// The directories of the workspace crates it depends on.
    depends_on: BTreeSet<String>,
}

/// What `cargo metadata` says of one workspace crate.
#[derive(Debug)]
struct Member {
    dir: String,
    depends_on: BTreeSet<String>,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The text inside each pair of backticks in `cell`.
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The crate table's rows: the table under `## The crates`, or a message saying what is off.
fn rows(doc: &str) -> Result<Vec<Row>, String> {
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("The crates"))
        .ok_or("no `## The crates` section")?;
    let mut rows = Vec::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split(" | ").collect();
        let [first, _, last] = cells.as_slice() else {
            return Err(format!("a row of other than three cells: {line}"));
        };
        let names = ticked(first);
        let (dir, package) = match names.as_slice() {
            [dir] => (dir.clone(), dir.clone()),
            [dir, package] => (dir.clone(), package.clone()),
            _ => return Err(format!("a first cell not `dir` (`package`): {first}")),
        };
        let last = last.trim_end_matches('|').trim();
        let depends_on = if last == "nothing of ours" {
            BTreeSet::new()
        } else {
            let names = ticked(last);
            let listed = names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ");
            if listed != last {
                return Err(format!(
                    "`{dir}`'s \"depends on\" is not a plain list of crates or `nothing of ours`: {last}"
                ));
            }
            names.into_iter().collect()
        };
        rows.push(Row {
            dir,
            package,
            depends_on,
        });
    }
    Ok(rows)
}

/// The workspace's crates by package name, from `cargo metadata`.
fn members() -> BTreeMap<String, Member> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("its JSON");
    let packages = meta["packages"].as_array().expect("packages");
    let dir_of = |p: &serde_json::Value| -> String {
        let manifest = Path::new(p["manifest_path"].as_str().expect("manifest_path"));
        let dir = manifest.parent().and_then(Path::file_name).expect("a dir");
        dir.to_string_lossy().into_owned()
    };
    let dirs: BTreeMap<String, String> = packages
        .iter()
        .map(|p| (p["name"].as_str().expect("name").to_string(), dir_of(p)))
        .collect();
    packages
        .iter()
        .map(|p| {
            let depends_on = p["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter(|d| d["kind"].is_null())
                .filter_map(|d| dirs.get(d["name"].as_str()?).cloned())
                .collect();
            let name = p["name"].as_str().expect("name").to_string();
            (
                name,
                Member {
                    dir: dir_of(p),
                    depends_on,
                },
            )
        })
        .collect()
}

/// What differs between the doc's rows and the workspace, one line each.
fn drift(rows: &[Row], members: &BTreeMap<String, Member>) -> Vec<String> {
    let mut found = Vec::new();
    for row in rows {
        let Some(member) = members.get(&row.package) else {
            found.push(format!(
                "`{}` (`{}`) is in the doc, not the workspace",
                row.dir, row.package
            ));
            continue;
        };
        if member.dir != row.dir {
            found.push(format!(
                "`{}` lives in crates/{}, the doc says crates/{}",
                row.package, member.dir, row.dir
            ));
        }
        let missing: Vec<_> = member.depends_on.difference(&row.depends_on).collect();
        let extra: Vec<_> = row.depends_on.difference(&member.depends_on).collect();
        if !missing.is_empty() || !extra.is_empty() {
            found.push(format!(
                "`{}` depends on {:?}; the doc misses {missing:?} and adds {extra:?}",
                row.dir, member.depends_on
            ));
        }
    }
    let documented: BTreeSet<&str> = rows.iter().map(|r| r.package.as_str()).collect();
    for name in members.keys().filter(|n| !documented.contains(n.as_str())) {
        found.push(format!("`{name}` is in the workspace, not the doc's table"));
    }
    found
}

#[test]
fn the_architecture_page_names_every_crate_and_its_dependencies() {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).expect("the doc");
    let rows = rows(&doc).unwrap_or_else(|e| panic!("docs/architecture.md: {e}"));
    let found = drift(&rows, &members());
    assert!(
        found.is_empty(),
        "docs/architecture.md's crate table has drifted from the workspace:\n  {}",
        found.join("\n  ")
    );
}

/// The reader itself: a row's cells, both first-cell forms, `nothing of ours`, and the prose a
/// strict column refuses; and the comparison names each kind of drift.
#[test]
fn the_table_reader_and_the_comparison_catch_each_drift() {
    let doc = "# A\n\n## The crates\n\n| crate | room | depends on |\n|---|---|---|\n\
               | `model` (`m-model`) | data | nothing of ours |\n\
               | `shop` | the shop | `model`, `gone` |\n\n## Next\n| `x` | y | z |\n";
    let read = rows(doc).expect("reads");
    assert_eq!(read.len(), 2, "only the crates section's rows");
    assert_eq!(read[0].package, "m-model");
    assert!(read[0].depends_on.is_empty());
    assert_eq!(read[1].package, "shop");
    let members = BTreeMap::from([
        (
            "m-model".to_string(),
            Member {
                dir: "model".into(),
                depends_on: BTreeSet::new(),
            },
        ),
        (
            "shop".to_string(),
            Member {
                dir: "shop".into(),
                depends_on: BTreeSet::from(["model".to_string(), "access".to_string()]),
            },
        ),
        (
            "new".to_string(),
            Member {
                dir: "new".into(),
                depends_on: BTreeSet::new(),
            },
        ),
    ]);
    let found = drift(&read, &members).join("\n");
    assert!(
        found.contains("misses [\"access\"] and adds [\"gone\"]"),
        "{found}"
    );
    assert!(found.contains("`new` is in the workspace"), "{found}");
    let prose = doc.replace("`model`, `gone`", "all of the above");
    assert!(rows(&prose).unwrap_err().contains("not a plain list"));
}
