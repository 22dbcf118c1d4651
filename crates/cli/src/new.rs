//! `monotable new NAME`: a project of its own on the monotable library: a starter model, entities
//! and patterns checked against it, an axum API that also runs on AWS Lambda, tests on the
//! embedded engine, and the SAM template of the model written by this binary's own export code.
//!
//! The files are templates in `crates/cli/templates/new/`, filled in by [`Project::fill`]:
//! `{{name}}`, `{{table}}`, `{{function}}` and, in Rust code (so that rustfmt can format the
//! templates as they are), the identifier `__crate_name__`. `tests/it/new_project.rs` builds and
//! tests the result, and checks it is formatted.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args;

/// The library this binary was built beside: `crates/monotable` of its workspace.
const BUILT_LIBRARY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../monotable");

/// The workspace dependencies the project takes at the workspace's versions, and the features it
/// adds (`time` serializes timestamps in the API's JSON).
const SHARED_DEPENDENCIES: [(&str, &[&str]); 8] = [
    ("tokio", &[]),
    ("axum", &[]),
    ("lambda_http", &[]),
    ("serde", &[]),
    ("serde_json", &[]),
    ("rust_decimal", &[]),
    ("time", &["serde"]),
    ("ulid", &[]),
];

/// Development dependencies: `tower::ServiceExt::oneshot` drives the Router in the tests.
const DEV_DEPENDENCIES: &str = "tower = { version = \"0.5\", features = [\"util\"] }\n";

/// What the project's `local` feature turns on, by dependency: monotable's embedded engine and
/// axum's server (`axum::serve`). The Lambda build (no feature) leaves them out, so it links no
/// engine, SQLite or HTTP server; the tests take them as dev-dependencies.
const LOCAL_FEATURES: [(&str, &[&str]); 2] =
    [("monotable", &["engine"]), ("axum", &["tokio", "http1"])];

/// The crate of [`DEV_DEPENDENCIES`].
const DEV_DEPENDENCY: &str = "tower";

/// The project's files: where each goes, and its template.
const FILES: [(&str, &str); 7] = [
    ("model.toml", include_str!("../templates/new/model.toml")),
    ("src/lib.rs", include_str!("../templates/new/lib.rs")),
    ("src/error.rs", include_str!("../templates/new/error.rs")),
    ("src/main.rs", include_str!("../templates/new/main.rs")),
    ("tests/app.rs", include_str!("../templates/new/app_test.rs")),
    ("README.md", include_str!("../templates/new/README.md")),
    (".gitignore", include_str!("../templates/new/gitignore")),
];

const MANIFEST: &str = include_str!("../templates/new/Cargo.toml.in");

/// Crates of Rust's own: a crate of the same name would shadow them in the binary and tests.
const RUST_CRATES: [&str; 5] = ["std", "core", "alloc", "proc_macro", "test"];

/// Names Cargo keeps for the directories of its target directory.
const CARGO_DIRECTORIES: [&str; 4] = ["build", "deps", "examples", "incremental"];

/// Rust keywords (2024 edition), strict and reserved: a package of that name has no usable
/// crate name (`self`, `super`, `crate` and `Self` among them). Weak keywords (`union`, `raw`,
/// `safe`, `macro_rules`) are identifiers wherever a crate name stands: they build.
const KEYWORDS: [&str; 52] = [
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
    "where", "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv",
    "typeof", "unsized", "virtual", "yield", "try", "self", "Self",
];

/// The types and traits of Rust's prelude (2024 edition). The library's name is in the
/// binary's and the tests' extern prelude, which comes before the standard one in name lookup:
/// a crate named `Result` stands for that type in every file of them, and `fn main() ->
/// Result<...>` no longer builds. (Primitive types, and the variants `Some`, `None`, `Ok`,
/// `Err` in value position, are found first: those names build.)
const PRELUDE_TYPES: [&str; 39] = [
    "Option",
    "Result",
    "String",
    "ToString",
    "Vec",
    "Box",
    "ToOwned",
    "Copy",
    "Send",
    "Sized",
    "Sync",
    "Unpin",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "AsyncFn",
    "AsyncFnMut",
    "AsyncFnOnce",
    "Clone",
    "PartialEq",
    "PartialOrd",
    "Eq",
    "Ord",
    "AsRef",
    "AsMut",
    "Into",
    "From",
    "Default",
    "Iterator",
    "Extend",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "TryFrom",
    "TryInto",
    "FromIterator",
    "Future",
    "IntoFuture",
];

#[derive(Debug, Args)]
pub struct NewArgs {
    /// The package name: up to 64 ASCII letters, digits, `-` and `_`, starting with a letter;
    /// not a Rust keyword, one of Rust's own crates, a crate the project depends on, a prelude
    /// type or trait, a Cargo directory or a Windows device name.
    name: String,
    /// The directory to create (default ./NAME). It must not exist, or be empty.
    #[arg(long, value_name = "DIR")]
    path: Option<PathBuf>,
    /// The monotable library to depend on: the `crates/monotable` directory of a monotable
    /// checkout. Default: the one in the workspace this binary was built from.
    #[arg(long, value_name = "PATH")]
    monotable_path: Option<PathBuf>,
}

pub fn run(args: NewArgs) -> anyhow::Result<ExitCode> {
    validate_name(&args.name)?;
    let dir = args
        .path
        .clone()
        .unwrap_or_else(|| PathBuf::from(&args.name));
    ensure_vacant(&dir)?;
    let library = library_path(args.monotable_path.as_deref())?;
    let workspace = Workspace::find(&library)?;
    let project = Project::new(&args.name, &library, &workspace)?;
    write_files(&dir, &project.files()?)?;
    if let Some(lock) = &workspace.lock {
        std::fs::copy(lock, dir.join("Cargo.lock"))
            .with_context(|| format!("cannot copy {}", lock.display()))?;
    }
    print_next_steps(&args.name, &dir, workspace.lock.is_some());
    Ok(ExitCode::SUCCESS)
}

/// A Cargo package name whose project builds: refused, with the reason, when Cargo refuses it
/// or its crate name cannot be used as the templates use it. The templates refer to the library
/// as `::name`, so a name equal to one of their own items (`Error`, `Value`, `Status`, `Body`,
/// ...) builds.
pub fn validate_name(name: &str) -> anyhow::Result<()> {
    match refusal(name) {
        Some(why) => Err(anyhow::anyhow!(
            "`{name}` is not a valid package name: {why}"
        )),
        None => Ok(()),
    }
}

/// Why `name` cannot name a project, if it cannot.
fn refusal(name: &str) -> Option<String> {
    let Some(first) = name.chars().next() else {
        return Some("it is empty".into());
    };
    if !first.is_ascii_alphabetic() {
        return Some("it must start with an ASCII letter".into());
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        return Some(format!(
            "{c:?} is not allowed (use ASCII letters, digits, `-` and `_`)"
        ));
    }
    if name.len() > 64 {
        return Some("it is longer than 64 characters".into());
    }
    let crate_name = name.replace('-', "_");
    let crate_name = crate_name.as_str();
    let used = |list: &[&str]| list.contains(&crate_name);
    let dependency = crate_name == "monotable"
        || crate_name == DEV_DEPENDENCY
        || SHARED_DEPENDENCIES.iter().any(|(d, _)| *d == crate_name);
    let why = if used(&KEYWORDS) {
        "it is a Rust keyword, which cannot name a crate"
    } else if used(&RUST_CRATES) {
        "it is the name of one of Rust's own crates, which the project's crate would shadow"
    } else if dependency {
        "the project depends on a crate of that name"
    } else if used(&PRELUDE_TYPES) {
        "it is a type or trait of Rust's prelude, which the crate would shadow in the project's binary and tests"
    } else if used(&CARGO_DIRECTORIES) {
        "Cargo keeps that name for a directory of its own"
    } else if is_windows_device(crate_name) {
        "Windows keeps that name for a device"
    } else {
        return None;
    };
    Some(why.into())
}

/// `con`, `nul`, `com1`, ...: names Windows reserves for devices.
fn is_windows_device(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let numbered = |stem: &str| {
        lower
            .strip_prefix(stem)
            .is_some_and(|n| n.len() == 1 && n.as_bytes()[0].is_ascii_digit())
    };
    ["con", "prn", "aux", "nul"].contains(&lower.as_str()) || numbered("com") || numbered("lpt")
}

/// `dir` is free to create the project in: absent, or an empty directory.
fn ensure_vacant(dir: &Path) -> anyhow::Result<()> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                bail!(
                    "{} already exists and is not empty; nothing was written (choose another --path)",
                    dir.display()
                );
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(_) if dir.exists() => bail!("{} exists and is not a directory", dir.display()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", dir.display())),
    }
}

/// The library's directory, absolute: `--monotable-path`, or the one this binary was built beside.
fn library_path(given: Option<&Path>) -> anyhow::Result<PathBuf> {
    let (path, hint) = match given {
        Some(path) => (path.to_path_buf(), "check --monotable-path"),
        None => (
            PathBuf::from(BUILT_LIBRARY),
            "this binary was built from a monotable workspace that has moved or gone; pass --monotable-path DIR (the crates/monotable directory of a monotable checkout)",
        ),
    };
    let manifest = path.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).map_err(|_| {
        anyhow::anyhow!(
            "the monotable library is not at {}: no Cargo.toml there; {hint}",
            path.display()
        )
    })?;
    let value: toml::Table = toml::from_str(&text)
        .with_context(|| format!("{} is not valid TOML", manifest.display()))?;
    let name = value
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(toml::Value::as_str);
    if name != Some("monotable") {
        bail!(
            "{} is not the monotable library (its package is {}); {hint}",
            path.display(),
            name.map_or("unnamed".to_string(), |n| format!("`{n}`"))
        );
    }
    path.canonicalize()
        .with_context(|| format!("cannot resolve {}", path.display()))
}

/// The workspace the library belongs to: its dependency versions and its lock file.
struct Workspace {
    /// `[workspace.dependencies]`.
    dependencies: toml::Table,
    /// `Cargo.lock`, when there is one.
    lock: Option<PathBuf>,
}

impl Workspace {
    /// The nearest directory above `library` whose manifest has a `[workspace]`.
    fn find(library: &Path) -> anyhow::Result<Workspace> {
        for dir in library.ancestors().skip(1) {
            let manifest = dir.join("Cargo.toml");
            let Ok(text) = std::fs::read_to_string(&manifest) else {
                continue;
            };
            let value: toml::Table = toml::from_str(&text)
                .with_context(|| format!("{} is not valid TOML", manifest.display()))?;
            let Some(workspace) = value.get("workspace") else {
                continue;
            };
            let dependencies = workspace
                .get("dependencies")
                .and_then(toml::Value::as_table)
                .cloned()
                .unwrap_or_default();
            let lock = Some(dir.join("Cargo.lock")).filter(|l| l.is_file());
            return Ok(Workspace { dependencies, lock });
        }
        bail!(
            "{} is not inside a Cargo workspace: the library needs its workspace's dependency versions",
            library.display()
        )
    }

    /// `name = { version = ..., ... }` as the workspace declares it, plus `features`, less the
    /// features `local` turns on ([`LOCAL_FEATURES`]).
    fn dependency(&self, name: &str, features: &[&str]) -> anyhow::Result<String> {
        let mut table = self.declared(name)?;
        add_features(&mut table, features);
        let local = local_features(name);
        if let Some(toml::Value::Array(list)) = table.get_mut("features") {
            list.retain(|f| f.as_str().is_none_or(|f| !local.contains(&f)));
        }
        Ok(format!("{name} = {}\n", inline_table(&table)))
    }

    /// The dev-dependency form of `name`: as the workspace declares it, with the features
    /// `local` turns on, so that the tests and `cargo run --features local` share one build.
    fn dev_dependency(&self, name: &str) -> anyhow::Result<String> {
        let mut table = self.declared(name)?;
        add_features(&mut table, local_features(name));
        Ok(format!("{name} = {}\n", inline_table(&table)))
    }

    /// `name` as `[workspace.dependencies]` declares it, as a table.
    fn declared(&self, name: &str) -> anyhow::Result<toml::Table> {
        let value = self.dependencies.get(name).with_context(|| {
            format!("the workspace declares no `{name}` under [workspace.dependencies]")
        })?;
        match value {
            toml::Value::String(version) => Ok(toml::Table::from_iter([(
                "version".into(),
                version.clone().into(),
            )])),
            toml::Value::Table(table) => Ok(table.clone()),
            other => {
                bail!("[workspace.dependencies] {name} = {other} is neither a version nor a table")
            }
        }
    }
}

/// The features [`LOCAL_FEATURES`] turns on in `dependency`.
fn local_features(dependency: &str) -> &'static [&'static str] {
    LOCAL_FEATURES
        .iter()
        .find(|(d, _)| *d == dependency)
        .map_or(&[], |(_, features)| features)
}

/// `local = ["monotable/engine", "axum/tokio", ...]`.
fn local_feature() -> String {
    let features: Vec<String> = LOCAL_FEATURES
        .iter()
        .flat_map(|(d, features)| features.iter().map(move |f| format!("\"{d}/{f}\"")))
        .collect();
    format!("local = [{}]\n", features.join(", "))
}

fn add_features(table: &mut toml::Table, features: &[&str]) {
    if features.is_empty() {
        return;
    }
    let list = table
        .entry("features")
        .or_insert_with(|| toml::Value::Array(Vec::new()));
    if let toml::Value::Array(list) = list {
        for feature in features {
            if !list.iter().any(|f| f.as_str() == Some(feature)) {
                list.push((*feature).into());
            }
        }
    }
}

/// `{ version = "1", default-features = false, features = [...] }`: the version first.
fn inline_table(table: &toml::Table) -> String {
    let version = table.get("version").map(|v| ("version", v));
    let rest = table
        .iter()
        .filter(|(k, _)| k.as_str() != "version")
        .map(|(k, v)| (k.as_str(), v));
    let fields: Vec<String> = version
        .into_iter()
        .chain(rest)
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    format!("{{ {} }}", fields.join(", "))
}

/// What the templates are filled with.
struct Project {
    name: String,
    crate_name: String,
    function: String,
    table: String,
    dependencies: String,
    dev_dependencies: String,
}

impl Project {
    fn new(name: &str, library: &Path, workspace: &Workspace) -> anyhow::Result<Project> {
        let path = toml::Value::String(library.to_string_lossy().into_owned());
        let mut dependencies =
            format!("monotable = {{ path = {path}, default-features = false }}\n");
        for (dependency, features) in SHARED_DEPENDENCIES {
            dependencies.push_str(&workspace.dependency(dependency, features)?);
        }
        let mut dev_dependencies = String::new();
        for (dependency, features) in LOCAL_FEATURES {
            if dependency == "monotable" {
                let list = toml::Value::Array(features.iter().map(|&f| f.into()).collect());
                dev_dependencies.push_str(&format!(
                    "monotable = {{ path = {path}, features = {list} }}\n"
                ));
            } else {
                dev_dependencies.push_str(&workspace.dev_dependency(dependency)?);
            }
        }
        dev_dependencies.push_str(DEV_DEPENDENCIES);
        Ok(Project {
            name: name.to_string(),
            crate_name: name.replace('-', "_"),
            function: pascal(name),
            table: if name.len() >= 3 {
                name.to_string()
            } else {
                format!("{name}-table")
            },
            dependencies,
            dev_dependencies,
        })
    }

    fn fill(&self, template: &str) -> String {
        template
            .replace("{{name}}", &self.name)
            .replace("{{crate}}", &self.crate_name)
            .replace("__crate_name__", &self.crate_name)
            .replace("{{function}}", &self.function)
            .replace("{{table}}", &self.table)
            .replace("{{dependencies}}", &self.dependencies)
            .replace("{{dev_dependencies}}", &self.dev_dependencies)
            .replace("{{local_feature}}", &local_feature())
    }

    /// Every file of the project, by relative path.
    fn files(&self) -> anyhow::Result<Vec<(&'static str, String)>> {
        let mut files: Vec<(&'static str, String)> = FILES
            .iter()
            .map(|(path, template)| (*path, self.fill(template)))
            .collect();
        files.push(("Cargo.toml", self.fill(MANIFEST)));
        let model = &files[0].1;
        files.push(("template.yaml", self.template(model)?));
        Ok(files)
    }

    /// The SAM template of `model`: the table, its policy, and the function behind an HTTP API
    /// whose routes all go through the JWT authorizer (`monotable export --function`'s default).
    fn template(&self, model: &str) -> anyhow::Result<String> {
        let model = monotable_model::parse(model)
            .map_err(|e| anyhow::anyhow!("the starter model does not parse: {e}"))?;
        let mut options = monotable_export::SamOptions::default();
        options.code_uri = format!("target/lambda/{}/", self.name);
        let options = options.with_function(monotable_export::FunctionOptions::new(
            self.function.as_str(),
        ));
        Ok(monotable_export::sam_with(&model, &options))
    }
}

/// `my-app` → `MyApp`.
fn pascal(name: &str) -> String {
    name.split(['-', '_'])
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn write_files(dir: &Path, files: &[(&str, String)]) -> anyhow::Result<()> {
    for (relative, text) in files {
        let path = dir.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn print_next_steps(name: &str, dir: &Path, locked: bool) {
    println!("Created {name} in {}", dir.display());
    println!("  model.toml      the single-table design");
    println!("  src/lib.rs      entities, typed patterns and the API, checked against the model");
    println!("  src/main.rs     runs the API locally or on AWS Lambda");
    println!("  tests/app.rs    the API on the embedded engine");
    println!("  template.yaml   the SAM template (monotable export model.toml --format sam ...)");
    if !locked {
        println!("note: no Cargo.lock beside the library; cargo resolves the newest versions");
    }
    println!("\nNext:\n  cd {}", dir.display());
    println!("  monotable check model.toml\n  cargo test\n  cargo run --features local");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names of every class `new` accepts: each builds (`tests/it/new_project.rs` builds one of
    /// each class).
    const ACCEPTED: [(&str, &[&str]); 8] = [
        ("plain", &["demo", "todo", "a", "A1"]),
        ("with `-` or `_`", &["my-app", "todo_2", "x-", "a--b"]),
        ("with digits", &["todo2", "v1-2-3"]),
        (
            "a module, function or variable of the templates",
            &[
                "error", "table", "value", "status", "body", "app", "main", "model", "router",
            ],
        ),
        (
            "a type or trait the templates use or define",
            &[
                "Error",
                "Table",
                "Value",
                "Status",
                "Body",
                "Request",
                "Method",
                "StatusCode",
                "ServiceExt",
                "Backend",
                "BackendChoice",
                "Router",
                "Json",
                "ApiError",
                "List",
                "Task",
                "ListTasksByStatus",
            ],
        ),
        ("a weak keyword", &["union", "raw", "safe", "macro_rules"]),
        (
            "a primitive type or a prelude variant",
            &[
                "u16", "str", "bool", "usize", "f64", "Some", "None", "Ok", "Err",
            ],
        ),
        (
            "close to a refused name",
            &[
                "option", "result", "Std", "Tokio", "selfie", "u16x", "String2", "con1", "fn_",
            ],
        ),
    ];

    /// Each class `new` refuses, with names of it and the words of its reason.
    const REFUSED: [(&[&str], &str); 11] = [
        (&[""], "it is empty"),
        (&["1app", "-x", "_x"], "must start with an ASCII letter"),
        (&["my app", "app!", "café", "a.b"], "is not allowed"),
        (
            &[
                "fn", "crate", "self", "super", "Self", "async", "gen", "yield", "try",
            ],
            "a Rust keyword",
        ),
        (
            &["std", "core", "alloc", "proc_macro", "proc-macro", "test"],
            "Rust's own crates",
        ),
        (
            &[
                "monotable",
                "tokio",
                "axum",
                "lambda_http",
                "lambda-http",
                "serde",
                "serde-json",
                "rust_decimal",
                "time",
                "ulid",
                "tower",
            ],
            "depends on a crate of that name",
        ),
        (
            &[
                "Option", "Result", "String", "Vec", "Box", "Send", "Future", "Iterator", "Default",
            ],
            "a type or trait of Rust's prelude",
        ),
        (
            &["build", "deps", "examples", "incremental"],
            "Cargo keeps that name",
        ),
        (
            &["con", "NUL", "COM1", "lpt9", "aux"],
            "Windows keeps that name",
        ),
        (&["Self"], "a Rust keyword"),
        (
            &["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"],
            "longer than 64",
        ),
    ];

    #[test]
    fn every_name_class_is_accepted_or_refused_with_its_reason() {
        for (class, names) in ACCEPTED {
            for name in names {
                assert_eq!(refusal(name), None, "{name} ({class})");
            }
        }
        for (names, reason) in REFUSED {
            for name in names {
                let message = validate_name(name).expect_err(name).to_string();
                assert!(
                    message.starts_with(&format!("`{name}` is not a valid package name: "))
                        && message.contains(reason),
                    "{name}: {message}"
                );
            }
        }
        // Every crate the project depends on is refused, so the lists stay in step.
        for (dependency, _) in SHARED_DEPENDENCIES {
            assert!(refusal(dependency).is_some(), "{dependency}");
        }
    }

    #[test]
    fn the_starter_model_has_no_problems() {
        let project = Project {
            name: "demo".into(),
            crate_name: "demo".into(),
            function: "Demo".into(),
            table: "demo".into(),
            dependencies: String::new(),
            dev_dependencies: String::new(),
        };
        let model = project.fill(FILES[0].1);
        let report = monotable_check::check_source("model.toml", &model);
        let text = report.render(monotable_check::ReportFormat::Human);
        // Suggestions (its GSI1 key could be native) are no problems.
        assert!(!report.has_errors() && !report.has_warnings(), "{text}");
        assert!(
            text.is_empty()
                || text.ends_with("model.toml: no problems found (1 suggestion above)\n"),
            "{text}"
        );
        assert!(project.template(&model).unwrap().contains("DemoFunction"));
    }

    #[test]
    fn dependencies_keep_the_workspace_versions() {
        let workspace = Workspace::find(&PathBuf::from(BUILT_LIBRARY)).unwrap();
        let time = workspace.dependency("time", &["serde"]).unwrap();
        let declared = &workspace.dependencies["time"]["version"];
        assert!(
            time.starts_with(&format!("time = {{ version = {declared}")),
            "{time}"
        );
        assert!(time.contains("\"serde\"]"), "{time}");
        assert!(workspace.lock.is_some());
    }

    /// The Lambda build's dependencies leave out what `local` turns on; the dev-dependencies
    /// and the `local` feature name it (`tests/it/new_project.rs` checks the resolved graph).
    #[test]
    fn the_manifest_keeps_the_engine_and_the_server_to_local_runs_and_tests() {
        let library = PathBuf::from(BUILT_LIBRARY);
        let workspace = Workspace::find(&library).unwrap();
        let project = Project::new("demo", &library, &workspace).unwrap();
        let manifest: toml::Table = toml::from_str(&project.fill(MANIFEST)).unwrap();
        let section = |name: &str| manifest[name].as_table().unwrap().clone();
        let features = |table: &toml::Table, dependency: &str| -> Vec<String> {
            let list = table[dependency].get("features").and_then(|f| f.as_array());
            let list = list.map(Vec::as_slice).unwrap_or_default();
            list.iter()
                .filter_map(|f| f.as_str().map(String::from))
                .collect()
        };
        let normal = section("dependencies");
        assert_eq!(
            normal["monotable"]["default-features"].as_bool(),
            Some(false)
        );
        assert!(features(&normal, "monotable").is_empty());
        let axum = features(&normal, "axum");
        assert!(axum.contains(&"json".to_string()), "{axum:?}");
        assert!(
            !axum.iter().any(|f| f == "tokio" || f == "http1"),
            "{axum:?}"
        );
        let dev = section("dev-dependencies");
        assert_eq!(features(&dev, "monotable"), ["engine"]);
        let axum = features(&dev, "axum");
        assert!(axum.contains(&"tokio".to_string()) && axum.contains(&"http1".to_string()));
        assert!(dev.contains_key("tower"));
        let local = section("features")["local"].clone();
        let local: Vec<&str> = local
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| f.as_str())
            .collect();
        assert_eq!(local, ["monotable/engine", "axum/tokio", "axum/http1"]);
    }

    #[test]
    fn names_become_resource_names() {
        assert_eq!(pascal("my-todo_app"), "MyTodoApp");
        assert_eq!(pascal("demo"), "Demo");
    }
}
