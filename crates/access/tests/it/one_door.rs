//! One door to DynamoDB: no crate of the workspace but `monotable-connect` (which builds the
//! client) and `monotable-access` (which sends every request) calls the SDK client in its
//! production code.
//!
//! Why: when every request goes through one module per operation, a throttled call is
//! classified once, Scan is paginated once, and a newcomer who adds an operation knows where it
//! goes. A raw `client.scan()` in a tool quietly starts a second door, with its own errors as
//! text and its own pagination; this test fails on the day one is written.
//!
//! What it checks: `cargo metadata` names the workspace's crates and where the SDK's source is;
//! the SDK's `src/operation/` directories name every DynamoDB operation it has (`get_item`,
//! `transact_write_items`, ...). In each other crate's `src/`, with comments, string literals and
//! test code (`#[cfg(test)]` modules, inline or in their own files) left out, it fails on:
//! - a call of an operation's method with no arguments, as the client's fluent builders start
//!   (`.get_item()`, `.scan()`); `.query()`, which other types have too (`Uri::query`), counts
//!   only when the statement goes on as an SDK request does (`.table_name(`, `.send()`, ...);
//! - a path into the SDK's operations or client modules (`aws_sdk_dynamodb::operation::`,
//!   `aws_sdk_dynamodb::client::`): their fluent builders and operation errors.
//!
//! Tests and benches may call the SDK directly: there it is an independent oracle.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The crates that may call the SDK client.
const DOORS: [&str; 2] = ["monotable-connect", "monotable-access"];

/// Operation methods other types also have with no argument: a call counts only when the
/// statement goes on as an SDK request does.
const AMBIGUOUS: [&str; 1] = ["query"];

/// What an SDK request's statement goes on with.
const REQUEST_SIGNS: [&str; 5] = [
    ".send()",
    ".table_name(",
    ".key_condition_expression(",
    ".set_exclusive_start_key(",
    ".index_name(",
];

/// A call of the SDK client outside the doors.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Violation {
    file: PathBuf,
    line: usize,
    what: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.what)
    }
}

/// `source` with comments and the contents of string and character literals blanked (newlines
/// kept, so lines still count).
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && matches!(next, Some('"' | '#')) && !ident_before(&chars, i) {
            // A raw string: r"...", r#"..."#.
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let close: String = std::iter::once('"')
                .chain("#".repeat(hashes).chars())
                .collect();
            out.push('"');
            i += 2 + hashes;
            while i < chars.len() && !chars[i..].starts_with(&close.chars().collect::<Vec<_>>()) {
                out.push(blank(chars[i]));
                i += 1;
            }
            out.push('"');
            i += close.len();
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n'), not a lifetime.
            out.push('\'');
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(' ');
                    i += 1;
                }
            }
            out.push('\'');
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// `code` with each `#[cfg(test)]` module's body blanked, and the names of the test modules
/// that live in files of their own (`#[cfg(test)] mod tests;`).
fn without_tests(code: &str) -> (String, Vec<String>) {
    let mut out = code.to_string();
    let mut outlined = Vec::new();
    let mut from = 0;
    while let Some(at) = out[from..].find("#[cfg(test)]").map(|p| p + from) {
        let rest = &out[at + "#[cfg(test)]".len()..];
        let trimmed = rest.trim_start();
        let Some(declaration) = trimmed.strip_prefix("mod ") else {
            from = at + 1;
            continue;
        };
        let name: String = declaration
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let after = declaration.trim_start()[name.len()..].trim_start();
        if after.starts_with(';') {
            outlined.push(name);
            from = at + 1;
            continue;
        }
        // Blank from the attribute to the module's closing brace.
        let open = at + out[at..].find('{').unwrap_or(0);
        let mut depth = 0usize;
        let mut end = out.len();
        for (offset, c) in out[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + offset + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        let blanked: String = out[at..end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(at..end, &blanked);
        from = end;
    }
    (out, outlined)
}

/// Every call of the SDK client in `source` (a file's text), by line.
fn calls(source: &str, operations: &BTreeSet<String>) -> Vec<(usize, String)> {
    let (code, _) = without_tests(&code_only(source));
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    for path in ["aws_sdk_dynamodb::operation", "aws_sdk_dynamodb::client"] {
        for (at, _) in code.match_indices(path) {
            found.push((line_of(at), format!("names `{path}::`")));
        }
    }
    for (at, _) in code.match_indices('.') {
        let name: String = code[at + 1..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !operations.contains(&name) {
            continue;
        }
        let after = code[at + 1 + name.len()..].trim_start();
        let Some(args) = after.strip_prefix('(') else {
            continue;
        };
        if !args.trim_start().starts_with(')') {
            continue;
        }
        if AMBIGUOUS.contains(&name.as_str()) {
            let statement = &code[at..code[at..].find(';').map_or(code.len(), |e| at + e)];
            let squeezed: String = statement.split_whitespace().collect();
            if !REQUEST_SIGNS.iter().any(|s| squeezed.contains(s)) {
                continue;
            }
        }
        found.push((line_of(at), format!("calls the SDK client's `.{name}()`")));
    }
    found.sort();
    found
}

/// The `.rs` files below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Where the module `name` declared in `file` lives: its file, and its directory.
fn module_paths(file: &Path, name: &str) -> [PathBuf; 2] {
    let dir = file.parent().unwrap_or(Path::new("."));
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let base = if matches!(stem, "lib" | "main" | "mod") {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    [base.join(format!("{name}.rs")), base.join(name)]
}

/// Every call of the SDK client in the production code below `src`.
fn violations_in(src: &Path, operations: &BTreeSet<String>) -> Vec<Violation> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let texts: Vec<(PathBuf, String)> = files
        .into_iter()
        .filter_map(|f| Some((f.clone(), std::fs::read_to_string(&f).ok()?)))
        .collect();
    let mut test_paths: Vec<PathBuf> = Vec::new();
    for (file, text) in &texts {
        for name in without_tests(&code_only(text)).1 {
            test_paths.extend(module_paths(file, &name));
        }
    }
    let mut out = Vec::new();
    for (file, text) in &texts {
        if test_paths.iter().any(|t| file.starts_with(t)) {
            continue;
        }
        for (line, what) in calls(text, operations) {
            out.push(Violation {
                file: file.clone(),
                line,
                what,
            });
        }
    }
    out
}

/// The host's target triple, from `rustc -vV`.
fn host() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let out = Command::new(rustc).arg("-vV").output().expect("rustc -vV");
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc names its host")
        .to_string()
}

/// The workspace as `cargo metadata` describes it (the host's dependencies only, so nothing
/// for another platform needs downloading).
fn metadata() -> serde_json::Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--filter-platform"])
        .arg(host())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON")
}

fn manifest_dir(package: &serde_json::Value) -> PathBuf {
    let manifest = package["manifest_path"].as_str().expect("manifest_path");
    Path::new(manifest)
        .parent()
        .expect("a directory")
        .to_path_buf()
}

/// Every DynamoDB operation the SDK has: its `src/operation/` directories.
fn sdk_operations(metadata: &serde_json::Value) -> BTreeSet<String> {
    let sdk = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|p| p["name"] == "aws-sdk-dynamodb")
        .expect("the workspace depends on aws-sdk-dynamodb");
    let dir = manifest_dir(sdk).join("src").join("operation");
    let operations: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| {
            let e = e.ok()?;
            e.path()
                .is_dir()
                .then(|| e.file_name().to_string_lossy().into_owned())
        })
        .collect();
    for known in [
        "get_item",
        "query",
        "scan",
        "transact_write_items",
        "list_tables",
    ] {
        assert!(operations.contains(known), "{known} not in {operations:?}");
    }
    operations
}

#[test]
fn only_connect_and_access_call_the_sdk_client() {
    let metadata = metadata();
    let operations = sdk_operations(&metadata);
    let members: Vec<&serde_json::Value> = metadata["workspace_members"]
        .as_array()
        .expect("workspace_members")
        .iter()
        .collect();
    let mut checked = Vec::new();
    let mut violations = Vec::new();
    for package in metadata["packages"].as_array().expect("packages") {
        let name = package["name"].as_str().unwrap_or_default();
        if !members.contains(&&package["id"]) || DOORS.contains(&name) {
            continue;
        }
        checked.push(name.to_string());
        violations.extend(violations_in(
            &manifest_dir(package).join("src"),
            &operations,
        ));
    }
    for expected in [
        "monotable-verify",
        "monotable-migrate",
        "monotable-ui",
        "monotable-cli",
    ] {
        assert!(
            checked.iter().any(|c| c == expected),
            "{expected} not checked: {checked:?}"
        );
    }
    let listed: Vec<String> = violations.iter().map(ToString::to_string).collect();
    assert!(
        violations.is_empty(),
        "only {DOORS:?} may call the SDK client; send these through monotable-access (one \
         module per operation):\n{}",
        listed.join("\n")
    );
}

fn ops(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| n.to_string()).collect()
}

#[test]
fn the_checker_finds_planted_calls_and_nothing_else() {
    let source = r##"
use aws_sdk_dynamodb::operation::get_item::GetItemError;

async fn planted(client: &Client, uri: &Uri) {
    let page = client
        .scan()
        .table_name("T")
        .send()
        .await;
    let mut call = client.transact_write_items ( );
    let q = client.query().table_name("T").send().await;
    // A comment may say `client.get_item()`.
    let text = "or a string: client.delete_item()";
    let raw = r#"client.put_item()"#;
    let c = '.';
    let query = uri.query().unwrap_or("");
    let f = |x: &str| x.len();
}

#[cfg(test)]
mod tests {
    fn oracle(client: &Client) {
        client.get_item().send();
    }
}
"##;
    let operations = ops(&[
        "get_item",
        "scan",
        "transact_write_items",
        "query",
        "delete_item",
        "put_item",
    ]);
    let found = calls(source, &operations);
    let lines: Vec<usize> = found.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, [2, 6, 10, 11], "{found:?}");
    assert!(
        found[0].1.contains("aws_sdk_dynamodb::operation"),
        "{found:?}"
    );
    assert!(found[1].1.contains(".scan()"), "{found:?}");
}

#[test]
fn test_modules_in_their_own_files_are_left_out_and_the_rest_is_not() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("one_door_planted");
    let _ = std::fs::remove_dir_all(&root);
    let src = root.join("src");
    std::fs::create_dir_all(src.join("apply").join("tests")).unwrap();
    let call = "pub async fn f(c: &Client) { c.get_item().send().await; }\n";
    std::fs::write(
        src.join("lib.rs"),
        "pub mod apply;\n#[cfg(test)]\nmod tests;\n",
    )
    .unwrap();
    std::fs::write(src.join("tests.rs"), call).unwrap();
    std::fs::write(
        src.join("apply.rs"),
        "mod write;\n#[cfg(test)] mod tests;\n",
    )
    .unwrap();
    std::fs::write(src.join("apply").join("tests").join("mod.rs"), call).unwrap();
    std::fs::write(src.join("apply").join("write.rs"), call).unwrap();
    let found = violations_in(&src, &ops(&["get_item"]));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].file.ends_with("apply/write.rs"), "{found:?}");
    assert_eq!(found[0].line, 1);
    std::fs::remove_dir_all(&root).unwrap();
}
