//! Finding, reading and validating the model file at compile time: the path given in the
//! attribute, or `[package.metadata.monotable] model` of the crate being compiled, both relative
//! to its `CARGO_MANIFEST_DIR`; errors that name the file and the line.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use monotable_model::diagnostic::{self, Severity, SourceFile};
use monotable_model::{Model, ModelError};
use proc_macro2::{Span, TokenStream};
use quote::quote;

/// A model read for one macro invocation.
pub struct Loaded {
    /// The file, absolute.
    pub path: PathBuf,
    /// The file as messages name it: the path as written, relative to the crate's directory.
    pub shown: String,
    /// Its text.
    pub source: Arc<str>,
    /// The validated model.
    pub model: Arc<Model>,
    /// The manifest, when the path came from its metadata (tracked too).
    pub manifest: Option<PathBuf>,
    /// The errors `monotable check` finds in the model, as a compile error's message: the
    /// model is valid data, so code is still generated from it, but the crate does not compile
    /// (one invocation reports it: [`crate::once`]).
    pub refused: Option<String>,
}

impl Loaded {
    /// `tests/model/app.toml:42`: where a span of the model is, for messages.
    pub fn place(&self, span: &std::ops::Range<usize>) -> String {
        let (line, _) = monotable_model::line_col(&self.source, span.start);
        format!("{}:{line}", self.shown)
    }

    /// `const _: &str = include_str!(...)` for the model file (and the manifest it was named
    /// in), so that editing it rebuilds the crate.
    pub fn tracking(&self) -> TokenStream {
        let files = std::iter::once(&self.path).chain(self.manifest.as_ref());
        let paths = files.map(|p| p.to_string_lossy().into_owned());
        quote! { #( const _: &str = include_str!(#paths); )* }
    }
}

fn manifest_dir() -> Result<PathBuf, String> {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .ok_or_else(|| "CARGO_MANIFEST_DIR is not set: build with cargo".to_string())
}

/// The model path in `[package.metadata.monotable] model` of `manifest`.
fn from_metadata(manifest: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(manifest)
        .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
    let value: toml::Table = toml::from_str(&text)
        .map_err(|e| format!("{} is not valid TOML: {e}", manifest.display()))?;
    value
        .get("package")
        .and_then(|p| p.get("metadata"))
        .and_then(|m| m.get("monotable"))
        .and_then(|m| m.get("model"))
        .and_then(|m| m.as_str())
        .map(str::to_string)
        .ok_or_else(|| {
            "no model file: give #[monotable(model = \"path/to/model.toml\", ...)], or set `model = \"path/to/model.toml\"` under [package.metadata.monotable] in this crate's Cargo.toml (the path is relative to the directory of that Cargo.toml)".to_string()
        })
}

/// Why `relative` cannot be read, and what is there instead: the model files beside where it
/// was looked for, or that its directory does not exist.
fn unreadable(relative: &str, path: &Path, error: &std::io::Error) -> String {
    let mut message = format!(
        "cannot read the model file `{relative}`: {error}; the path is relative to the directory of this crate's Cargo.toml"
    );
    let written = Path::new(relative);
    let dir = written.parent().filter(|d| !d.as_os_str().is_empty());
    let shown_dir = dir.map_or_else(|| ".".to_string(), |d| d.display().to_string());
    match path.parent().map(std::fs::read_dir) {
        Some(Ok(entries)) => {
            let mut models: Vec<String> = entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".toml") && n != "Cargo.toml")
                .collect();
            models.sort();
            let name = written
                .file_name()
                .map(|n| n.to_string_lossy().into_owned());
            let closest = name
                .as_deref()
                .and_then(|n| crate::types::closest(n, models.iter().map(String::as_str)));
            match (closest, models.is_empty()) {
                (Some(c), _) => {
                    let fix =
                        dir.map_or_else(|| c.to_string(), |d| d.join(c).display().to_string());
                    message.push_str(&format!("; did you mean `{fix}`?"));
                }
                (None, false) => {
                    message.push_str(&format!("; `{shown_dir}` holds {}", models.join(", ")))
                }
                (None, true) => message.push_str(&format!("; `{shown_dir}` holds no .toml file")),
            }
        }
        _ => message.push_str(&format!("; there is no directory `{shown_dir}`")),
    }
    message
}

/// Read and validate the model named by `explicit` (relative to the crate's manifest directory),
/// or by the crate's metadata. The error is meant for a compile error at `span`.
pub fn load(explicit: Option<&str>, span: Span) -> Result<Loaded, syn::Error> {
    let fail = |msg: String| syn::Error::new(span, msg);
    let dir = manifest_dir().map_err(fail)?;
    let (relative, manifest) = match explicit {
        Some(path) => (path.to_string(), None),
        None => {
            let manifest = dir.join("Cargo.toml");
            (from_metadata(&manifest).map_err(fail)?, Some(manifest))
        }
    };
    let path = dir.join(&relative);
    let path = path.canonicalize().unwrap_or(path);
    let (source, model, refused) = cached(&path, &relative).map_err(fail)?;
    Ok(Loaded {
        path,
        shown: relative,
        source,
        model,
        manifest,
        refused,
    })
}

/// A model file read and validated, with what `check` refuses in it, or why it cannot be used.
type Parsed = Result<(Arc<str>, Arc<Model>, Option<String>), String>;

/// Each model read, by path and the name messages give it, with the modification time it had.
type Cache = HashMap<(PathBuf, String), (Option<SystemTime>, Parsed)>;

/// Models already read by this compiler process: every derive of a crate reads the same file,
/// and one parse and check serves them all.
static CACHE: Mutex<Option<Cache>> = Mutex::new(None);

fn cached(path: &Path, relative: &str) -> Parsed {
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let map = cache.get_or_insert_with(HashMap::new);
    let key = (path.to_path_buf(), relative.to_string());
    if let Some((when, parsed)) = map.get(&key)
        && when.is_some()
        && *when == modified
    {
        return parsed.clone();
    }
    let parsed = parse(path, relative);
    map.insert(key, (modified, parsed.clone()));
    parsed
}

fn parse(path: &Path, relative: &str) -> Parsed {
    let source = std::fs::read_to_string(path).map_err(|e| unreadable(relative, path, &e))?;
    let file = SourceFile::new(relative, &source);
    let model = monotable_model::parse(&source).map_err(|e| invalid(&file, &e))?;
    let refused = refuse_check_errors(&model, &file).err();
    Ok((Arc::from(source), Arc::new(model), refused))
}

/// A model that does not parse or validate: its first `MT000` error in the one-line form, with
/// its help, and how many more there are.
fn invalid(file: &SourceFile, error: &ModelError) -> String {
    let errors = diagnostic::model_errors(error);
    let first = errors.first().map_or_else(
        || error.to_string(),
        |d| {
            let help = d
                .help
                .as_deref()
                .map(|h| format!("; {h}"))
                .unwrap_or_default();
            format!("{}{help}", file.short(d))
        },
    );
    let more = match errors.len() {
        0 | 1 => String::new(),
        n => format!(" and {} more problems", n - 1),
    };
    let relative = file.path();
    format!(
        "the model file `{relative}` is not a valid model: {first}\n(`monotable check {relative}`, run in this crate's directory, shows it{more})"
    )
}

/// A model `monotable check` finds errors in (keys that collide, a pattern that reads what no
/// entity writes, ...) is refused: code compiled against a broken design would be broken too.
/// Warnings are left to `check`.
fn refuse_check_errors(model: &Model, file: &SourceFile) -> Result<(), String> {
    let errors: Vec<String> = monotable_check::check_model(model)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .take(3)
        .map(|d| file.short(&d))
        .collect();
    if errors.is_empty() {
        return Ok(());
    }
    Err(format!(
        "the model has errors that `monotable check` reports:\n{}\n(`monotable check {}`, run in this crate's directory, shows them all, with their fixes)",
        errors.join("\n"),
        file.path()
    ))
}

#[cfg(test)]
mod tests {
    use proc_macro2::Span;

    use super::load;

    fn error(path: &str) -> String {
        match load(Some(path), Span::call_site()) {
            Ok(_) => panic!("{path} loaded"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_model_loads_and_says_where_its_lines_are() {
        let loaded = load(Some("testdata/orders.toml"), Span::call_site()).unwrap();
        assert_eq!(loaded.shown, "testdata/orders.toml");
        let order = loaded.model.entity("Order").unwrap();
        assert_eq!(loaded.place(&order.span), "testdata/orders.toml:17");
        let tracking = loaded.tracking().to_string();
        assert!(tracking.contains("include_str !"), "{tracking}");
        assert!(tracking.contains("orders.toml"), "{tracking}");
    }

    #[test]
    fn a_missing_file_names_the_nearest_one_or_what_is_there() {
        let near = error("testdata/order.toml");
        assert!(
            near.starts_with("cannot read the model file `testdata/order.toml`: "),
            "{near}"
        );
        assert!(
            near.ends_with("; did you mean `testdata/orders.toml`?"),
            "{near}"
        );
        let far = error("testdata/zzzzzzzzzzzzzzzz.toml");
        assert!(
            far.ends_with("; `testdata` holds check_error.toml, orders.toml"),
            "{far}"
        );
        let nowhere = error("no/such/dir/model.toml");
        assert!(
            nowhere.ends_with("; there is no directory `no/such/dir`"),
            "{nowhere}"
        );
    }

    #[test]
    fn a_model_with_check_errors_loads_with_what_check_refuses() {
        let loaded = load(Some("testdata/orders.toml"), Span::call_site()).unwrap();
        assert_eq!(loaded.refused, None);
        let broken = load(Some("testdata/check_error.toml"), Span::call_site()).unwrap();
        let refused = broken.refused.expect("an MT001 error");
        assert!(
            refused.starts_with(
                "the model has errors that `monotable check` reports:\ntestdata/check_error.toml:"
            ),
            "{refused}"
        );
        assert!(refused.contains("error[MT001]"), "{refused}");
    }

    #[test]
    fn a_file_that_is_not_a_model_is_refused_with_its_first_problem() {
        // The crate's manifest is TOML, but not a model.
        let message = error("Cargo.toml");
        assert!(
            message.starts_with("the model file `Cargo.toml` is not a valid model: Cargo.toml:"),
            "{message}"
        );
        // The model's one-line form of its first MT000 error.
        assert!(message.contains(": error[MT000]: "), "{message}");
        assert!(
            message
                .contains("(`monotable check Cargo.toml`, run in this crate's directory, shows it"),
            "{message}"
        );
    }
}
